/*
 * Unit tests of the model's object slots (model/verbs/slot.c, issue 18): a
 * full table takes a destroyed object's slot again when nothing refers to it,
 * so a scenario may create and destroy without bound; a slot something still
 * names (a dead MR's PD, a window's MR, a QP's peer) is never taken.
 */
#include "tests/unit/model_fx.h"
#include "harness/lang/scn.h"
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <stdio.h>

/* Fill node 0's PD table: M_MAX_PD PDs, handles 0..M_MAX_PD-1. */
static void fill_pds(struct fx *f)
{
	for (int i = 0; i < M_MAX_PD; i++)
		ck_assert_int_eq(fx_pd(f, 0), i);
}

START_TEST(test_slot_pd_pairs_without_bound)
{
	struct fx f;

	fx_init(&f, 1, "rxe");
	fill_pds(&f);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, 5)), ok_()));
	for (int k = 0; k < 3 * M_MAX_PD; k++) { /* a PD pair, many times over */
		fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, 5), ok_());
		ck_assert_int_eq(fx_pd(&f, 0), 5); /* the one free slot */
	}
	ck_assert_int_eq(f.m.node[0].npd, M_MAX_PD);
	ck_assert(f.m.node[0].pd[5].live);
	model_free(&f.m);
}
END_TEST

START_TEST(test_slot_pd_full_and_live_is_refused)
{
	struct fx f;
	int created = -1;

	fx_init(&f, 1, "rxe");
	fill_pds(&f);
	struct m_pred pr = fx_predict(&f, (struct m_op){ .kind = M_OP_ALLOC_PD, .node = 0 });
	ck_assert_int_eq(model_apply(&f.m, &pr, 0, &created), -ENOSPC);
	model_free(&f.m);
}
END_TEST

START_TEST(test_slot_pd_a_dead_mr_names_is_kept)
{
	struct fx f;
	int mr, created = -1;

	fx_init(&f, 1, "rxe");
	fill_pds(&f);
	mr = fx_mr(&f, 0, 3, 64, 0);
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, mr), ok_());
	fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, 3), ok_());
	/* PD 3 is dead, but the dead MR still names it: not reused */
	struct m_pred pr = fx_predict(&f, (struct m_op){ .kind = M_OP_ALLOC_PD, .node = 0 });
	ck_assert_int_eq(model_apply(&f.m, &pr, 0, &created), -ENOSPC);
	fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, 9), ok_());
	ck_assert_int_eq(fx_pd(&f, 0), 9);
	model_free(&f.m);
}
END_TEST

START_TEST(test_slot_mr_reg_dereg_without_bound_keeps_other_bytes)
{
	struct fx f;
	int pd, first;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	first = fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE);
	model_mr_set(&f.m, 0, first, 0, 0x5a, 4096);
	for (int i = 1; i < M_MAX_MR; i++)
		fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE);
	for (int k = 0; k < 100; k++) { /* reg+dereg, more times than the table has slots */
		int mr;

		fx_do(&f, op_obj(M_OP_DEREG_MR, 0, 7), ok_());
		mr = fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE);
		ck_assert_int_eq(mr, 7);
	}
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, first, 4095), 0x5a);
	ck_assert_uint_eq(f.m.node[0].pd[pd].usecnt, M_MAX_MR);
	model_free(&f.m); /* ASan: the reused slots' bytes freed once each */
}
END_TEST

START_TEST(test_slot_mr_whose_buffer_another_registers_is_kept)
{
	struct fx f;
	int pd, own, again, created = -1;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	own = fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE);
	struct m_op r = op_reg(0, pd, 4096, M_ACC_LOCAL_WRITE);
	r.verbs.in_buf = 1;
	r.verbs.mr = (int16_t)own;
	again = fx_do(&f, r, ok_());
	for (int i = 2; i < M_MAX_MR; i++)
		fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE);
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, own), ok_());
	/* own is dead, but again registers its bytes: not reused */
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_LOCAL_WRITE));
	ck_assert_int_eq(model_apply(&f.m, &pr, 0, &created), -ENOSPC);
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, again), ok_());
	/* own's bytes are still again's (dead) registration's: again's slot goes first */
	ck_assert_int_eq(fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE), again);
	model_free(&f.m);
}
END_TEST

START_TEST(test_slot_qp_a_peer_names_is_kept)
{
	struct fx f;
	struct pair p;
	int created = -1;

	p = fx_pair(&f, "rxe", 2);
	for (int i = 1; i < M_MAX_QP; i++)
		fx_qp(&f, 0, p.pa, 0);
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, p.qa), ok_());
	/* qa is gone, but b's QP still has it as its peer */
	struct m_pred pr = fx_predict(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)p.pa });
	ck_assert_int_eq(model_apply(&f.m, &pr, 0, &created), -ENOSPC);
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, 4), ok_());
	ck_assert_int_eq(fx_qp(&f, 0, p.pa, 0), 4);
	ck_assert_int_eq(fx_qps(&f, 0, 4), M_QPS_RESET); /* a new QP in the old slot */
	model_free(&f.m);
}
END_TEST

/* ------------------------------------------- through the harness (be_model.c) -- */

/* Run text on the model engine under rxe; the verdict into *r (the caller clears it). */
static void run_on_model(const char *text, struct result *r)
{
	struct scn_file *f = NULL;
	struct scn_diags d;
	struct be_model eng;
	struct run_opts o = { .mode = RUN_REAL };

	ck_assert_int_eq(m_profile_get("rxe", 0, &o.prof), 0);
	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), 0);
	ck_assert_int_eq(bm_init(&eng, f, &o.prof), 0);
	ck_assert_int_eq(run_scenario(f, &be_model_ops, &eng, &o, r), 0);
	bm_free(&eng);
	scn_free(f);
}

START_TEST(test_slot_a_scenario_of_many_pd_pairs_passes)
{
	char text[16384] = "title many PD pairs\nnodes a\na: alloc_pd keep\n";
	struct result r;

	for (int i = 0; i < 3 * M_MAX_PD; i++) /* more pairs than the table has slots */
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "a: alloc_pd p%d\na: dealloc_pd p%d\n", i, i);
	run_on_model(text, &r);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.steps_run, 1 + 6 * M_MAX_PD);
	result_clear(&r);
}
END_TEST

START_TEST(test_slot_a_destroyed_name_whose_slot_was_taken_is_not_the_new_object)
{
	char text[4096] = "title a stale name\nnodes a\n";
	struct result r;

	for (int i = 0; i < M_MAX_PD; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "a: alloc_pd p%d\n", i);
	/* p3 goes, q takes its slot: p3 must not name q */
	strcat(text, "a: dealloc_pd p3\na: alloc_pd q\na: dealloc_pd p3\n");
	run_on_model(text, &r);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_msg(strstr(r.reason, "model slot a later creation took: a.p3"), "%s", r.reason);
	result_clear(&r);
}
END_TEST

/* The slot of p3 taken by q, then q's by r: q is stale too, and the holder moves on (be_model.c holder). */
START_TEST(test_slot_taken_twice_leaves_both_earlier_names_stale)
{
	static const char *const use[] = { "a: dealloc_pd p3\n", "a: dealloc_pd q\n" };

	for (size_t k = 0; k < 2; k++) {
		char text[4096] = "title a slot taken twice\nnodes a\n";
		struct result r;

		for (int i = 0; i < M_MAX_PD; i++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "a: alloc_pd p%d\n", i);
		strcat(text, "a: dealloc_pd p3\na: alloc_pd q\na: dealloc_pd q\na: alloc_pd r\n");
		strcat(text, use[k]);
		run_on_model(text, &r);
		ck_assert_int_eq(r.v, V_ERROR);
		ck_assert_msg(strstr(r.reason, k ? "took: a.q" : "took: a.p3"), "%s", r.reason);
		result_clear(&r);
	}
}
END_TEST

/* The same slot index given on another node leaves this node's object alone. */
START_TEST(test_slot_the_same_slot_on_another_node_is_not_stale)
{
	struct result r;

	run_on_model("title two nodes, slot 0 each\nnodes a b\na: alloc_pd p\nb: alloc_pd p\nb: dealloc_pd p\n"
		     "b: alloc_pd q\na: dealloc_pd p\n", &r);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
}
END_TEST

Suite *suite_test_model_slot(void)
{
	Suite *s = suite_create("model_slot");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_slot_pd_pairs_without_bound);
	tcase_add_test(tc, test_slot_pd_full_and_live_is_refused);
	tcase_add_test(tc, test_slot_pd_a_dead_mr_names_is_kept);
	tcase_add_test(tc, test_slot_mr_reg_dereg_without_bound_keeps_other_bytes);
	tcase_add_test(tc, test_slot_mr_whose_buffer_another_registers_is_kept);
	tcase_add_test(tc, test_slot_qp_a_peer_names_is_kept);
	tcase_add_test(tc, test_slot_a_scenario_of_many_pd_pairs_passes);
	tcase_add_test(tc, test_slot_a_destroyed_name_whose_slot_was_taken_is_not_the_new_object);
	tcase_add_test(tc, test_slot_taken_twice_leaves_both_earlier_names_stale);
	tcase_add_test(tc, test_slot_the_same_slot_on_another_node_is_not_stale);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the kernel WARNs a profile declares (struct m_kwarn,
 * model/kwarn.c): QP-DESTROY-1 the rule they are scoped to, the lookup by
 * profile, rule and kernel version, the runner's scoping to a step
 * (harness/run/kwarn_steps.c), and the console's judgement (console_finding):
 * the declared WARN is no finding, any other splat still is.
 */
#include "harness/nodes/console.h"
#include "harness/run/be_model.h"
#include "harness/run/runner.h"
#include "tests/unit/model_fx.h"

#include <stdio.h>
#include <string.h>

#define MWB (M_ACC_LOCAL_WRITE | M_ACC_MW_BIND | M_ACC_REMOTE_READ)

/* rxe 6.1's WARN of destroy_qp with a bound type-2 window, as the guest's kernel log has it. */
static const char rxe_warn[] =
	"[   61.200000] WARNING: CPU: 0 PID: 412 at drivers/infiniband/sw/rxe/rxe_pool.c:255 "
	"__rxe_cleanup+0x10d/0x120 [rdma_rxe]\n[   61.200100] Modules linked in: rdma_rxe\n";
static const char other_warn[] =
	"[   62.000000] WARNING: CPU: 1 PID: 311 at drivers/infiniband/sw/rxe/rxe_mr.c:716 rxe_dereg_mr+0x7c/0x90 "
	"[rdma_rxe]\n";

/* A pair with a type-2 window of node 1 bound through its QP (bound: the bind completed). */
static int bound_type2(struct fx *f, struct pair *s, const char *profile, int bind)
{
	*s = fx_pair(f, profile, 2);
	int mr = fx_mr(f, 1, s->pb, 4096, MWB);
	int mw = fx_do(f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 1, .verbs.pd = (int16_t)s->pb,
					 .verbs.mw_type = 2 }, ok_());

	if (bind)
		fx_do(f, (struct m_op){ .kind = M_OP_BIND_MW, .node = 1, .obj = (int16_t)mw, .verbs.qp = (int16_t)s->qb,
					.verbs.mr = (int16_t)mr, .verbs.offset = f->m.node[1].mr[mr].iova, .verbs.len = 64,
					.verbs.access = M_ACC_REMOTE_READ },
		      wc_(M_WC_SUCCESS));
	return mw;
}

START_TEST(test_QP_DESTROY_1_bound_type2_window)
{
	struct fx f;
	struct pair s;
	int mw = bound_type2(&f, &s, "generic", 1);
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DESTROY_QP, 1, s.qb));

	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_QP_DESTROY_1));
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 1, s.qb), ok_());
	/* the window stays allocated: dealloc_mw frees it */
	ck_assert(f.m.node[1].mw[mw].live);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_MW, 1, mw)), ok_()));
	model_free(&f.m);
	/* no bound window on the QP: the rule does not decide */
	bound_type2(&f, &s, "generic", 0);
	pr = fx_predict(&f, op_obj(M_OP_DESTROY_QP, 1, s.qb));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(!fx_rule(pr, ok_(), M_RULE_QP_DESTROY_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_kwarn_scoped_to_profile_rule_and_kernel)
{
	struct m_profile p;
	const struct m_kwarn *w;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	w = m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 0);
	ck_assert_ptr_nonnull(w);
	ck_assert_str_eq(w->where, "rxe_pool.c:255 __rxe_cleanup");
	ck_assert_uint_ge(w->step_ms, 60000); /* about 50 s of waiting is the declared path, not a hang */
	ck_assert_ptr_nonnull(strstr(w->citation, "6.1"));
	ck_assert_ptr_null(m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 1));
	ck_assert_ptr_null(m_profile_kwarn(&p, M_RULE_MW_DEALLOC_1, 0));
	/* another kernel, another profile: nothing declared */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &p), 0);
	ck_assert_ptr_null(m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 0));
	ck_assert_int_eq(m_profile_get("generic", 0, &p), 0);
	ck_assert_ptr_null(m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 0));
}
END_TEST

START_TEST(test_kwarn_scoped_to_the_step)
{
	struct fx f;
	struct pair s;
	struct m_profile p;
	const struct m_kwarn *list[4] = { NULL };
	struct m_pred pr;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	bound_type2(&f, &s, "rxe", 1);
	/* the step QP-DESTROY-1 decides: its declared WARN and budget */
	pr = fx_predict(&f, op_obj(M_OP_DESTROY_QP, 1, s.qb));
	ck_assert_uint_eq(run_kwarn_ms(&p, &pr), m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 0)->step_ms);
	ck_assert_uint_eq(run_kwarn_add(&p, &pr, list, 0, 4), 1);
	ck_assert_ptr_eq(list[0], m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 0));
	ck_assert_uint_eq(run_kwarn_add(&p, &pr, list, 1, 4), 1); /* once */
	/* another step (the peer's QP, no window bound on it): none */
	pr = fx_predict(&f, op_obj(M_OP_DESTROY_QP, 0, s.qa));
	ck_assert_uint_eq(run_kwarn_ms(&p, &pr), 0);
	ck_assert_uint_eq(run_kwarn_add(&p, &pr, list, 0, 4), 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_declared_warn_is_no_finding)
{
	struct m_profile p;
	const struct m_kwarn *w;
	struct result r = { .v = V_PASS };
	char log[512];

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	w = m_profile_kwarn(&p, M_RULE_QP_DESTROY_1, 0);
	/* declared for a step that ran: the pass stands, the WARN is in the detail */
	ck_assert_int_eq(console_finding(&r, rxe_warn, &w, 1), 0);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_ptr_nonnull(strstr(r.detail, "  declared kernel WARN (QP-DESTROY-1: observed"));
	ck_assert_ptr_nonnull(strstr(r.detail, "rxe_pool.c:255 __rxe_cleanup+0x10d/0x120"));
	result_clear(&r);
	/* not declared for the steps that ran: a finding, as before */
	r = (struct result){ .v = V_PASS };
	ck_assert_int_eq(console_finding(&r, rxe_warn, NULL, 0), 1);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_ptr_nonnull(strstr(r.reason, "kernel WARN during the scenario: WARNING: CPU: 0 PID: 412 at "));
	result_clear(&r);
	/* another WARN beside the declared one still fails, named */
	snprintf(log, sizeof(log), "%s%s", rxe_warn, other_warn);
	r = (struct result){ .v = V_XFAIL };
	ck_assert_int_eq(console_finding(&r, log, &w, 1), 1);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_ptr_nonnull(strstr(r.reason, "rxe_mr.c:716 rxe_dereg_mr"));
	ck_assert_ptr_nonnull(strstr(r.detail, "declared kernel WARN (QP-DESTROY-1"));
	result_clear(&r);
}
END_TEST

/* The engine under the runner: the model's, recording each call's extra budget. */
static uint32_t seen_ms[32];
static unsigned nseen;

static int recording_exec(void *be, const struct hcall *c, struct hres *r)
{
	if (nseen < 32)
		seen_ms[nseen++] = c->extra_ms;
	return be_model_ops.exec(be, c, r);
}

START_TEST(test_declared_step_gets_its_budget)
{
	static const char text[] = "nodes a b\na: alloc_pd pd\na: reg_mr m pd=pd len=8K access=LOCAL_WRITE|MW_BIND\n"
				   "a: create_qp q pd=pd\nb: alloc_pd pd\nb: create_qp q pd=pd\nconnect a.q b.q\n"
				   "a: alloc_mw w pd=pd type=2\n"
				   "a: bind_mw w qp=q mr=m+4K len=4K access=REMOTE_READ expect SUCCESS\n"
				   "b: destroy_qp q\na: destroy_qp q expect ok\na: dealloc_mw w\n";
	struct scn_diags d;
	struct scn_file *f = NULL;
	struct run_opts o = { .mode = RUN_REAL };
	struct backend_ops ops = be_model_ops;
	struct m_profile gen;
	struct be_model eng;
	struct result r;

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), 0);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &o.prof), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	ck_assert_int_eq(bm_init(&eng, f, &gen), 0);
	ops.exec = recording_exec;
	nseen = 0;
	ck_assert_int_eq(run_scenario(f, &ops, &eng, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	/* the 11 steps; only a's destroy_qp (the window is bound on a.q) gets the declared budget */
	ck_assert_uint_eq(nseen, 11);
	for (unsigned i = 0; i < nseen; i++)
		ck_assert_uint_eq(seen_ms[i], i == 9 ? m_profile_kwarn(&o.prof, M_RULE_QP_DESTROY_1, 0)->step_ms : 0);
	result_clear(&r);
	bm_free(&eng);
	scn_free(f);
}
END_TEST

Suite *suite_test_kwarn(void)
{
	Suite *s = suite_create("test_kwarn");
	TCase *tc = tcase_create("core");

	RTEST(tc, QP_DESTROY_1, test_QP_DESTROY_1_bound_type2_window);
	tcase_add_test(tc, test_kwarn_scoped_to_profile_rule_and_kernel);
	tcase_add_test(tc, test_kwarn_scoped_to_the_step);
	tcase_add_test(tc, test_declared_warn_is_no_finding);
	tcase_add_test(tc, test_declared_step_gets_its_budget);
	suite_add_tcase(s, tc);
	return s;
}

/* Unit tests of the model: work requests, the responder's checks (keys, PDs, rights, bounds), atomics, the bytes moved. */
#include "tests/unit/post_fx.h"

START_TEST(test_RA_KEY_1_unknown_and_tampered_rkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	w.verbs.rkey += 1000;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_KEY_1));
	/* An lkey is not an rkey. */
	w = W(0, 8);
	w.verbs.rkey = f.m.node[1].mr[s.mb].lkey;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_PD_1_other_pd)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 1), other = fx_mr(&f, 1, pd2, 4096, RW);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, other, 0, 8);
	struct m_pred pr = fx_predict(&f, w);

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_PD_1));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_PD_4_lkey_of_other_pd)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 0), foreign = fx_mr(&f, 0, pd2, 4096, RW);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, foreign, 0, 1, s.mb, 0, 8);
	struct m_pred pr = fx_predict(&f, w);

	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_PD_4));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ACC_1_missing_right_each_op)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 1, s.pb, 4096, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_READ);
	int wo = fx_mr(&f, 1, s.pb, 4096, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_WRITE);

	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, ro, 0, 64));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ACC_1));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, wo, 0, 64)),
			  wc_(M_WC_REM_ACCESS_ERR)));
	struct m_op cas = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, wo, 0, 8);
	ck_assert(fx_only(fx_predict(&f, cas), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, ro, 0, 64)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_KEY_2_local_only_rkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	int local = fx_mr(&f, 1, s.pb, 4096, M_ACC_LOCAL_WRITE);
	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, local, 0, 8));

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MR_KEY_2));
	ck_assert(fx_only(fx_predict(&f, R(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_KEY_3_stale_key_stays_stale)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	fx_do(&f, op_obj(M_OP_DEREG_MR, 1, s.mb), ok_());
	for (int i = 0; i < 20; i++)
		fx_mr(&f, 1, s.pb, 64, RW); /* new registrations never reuse the key */
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MR_KEY_3));
	int fresh = fx_mr(&f, 1, s.pb, 64, RW);
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, fresh, 0, 8)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_BND_1_bounds_exact)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	ck_assert(fx_only(fx_predict(&f, W(4088, 8)), wc_(M_WC_SUCCESS)));
	struct m_pred pr = fx_predict(&f, W(4092, 8));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_BND_1));
	struct m_op w = W(0, 8);
	w.verbs.raddr -= 8; /* before the start */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	w.verbs.raddr = UINT64_MAX - 3; /* wraps: must not pass */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ZERO_1_zero_length_ignores_key)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 0);

	w.verbs.rkey = 0xdead;
	w.verbs.raddr = 0;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_ZERO_1));
	w.verbs.len = 1;
	w.verbs.lkey = f.m.node[0].mr[s.ma].lkey;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_LEN_1_over_2g)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	w.verbs.len = (1ull << 31) + 1;
	w.verbs.lkey = 0; /* the responder check comes first for READ */
	w.kind = M_OP_READ;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_LEN_1));
	ck_assert(fx_only(fx_predict(&f, R(0, 4096)), wc_(M_WC_SUCCESS)));
	/* rxe 6.1 has no RETH length check: the bounds check refuses it. */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_LEN_1));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_BOTH_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_QP_1_responder_qp_access)
{
	struct fx f;
	int pa, pb, ma, mb, qa, qb;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 64, RW);
	mb = fx_mr(&f, 1, pb, 64, RW);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	qb = fx_qp(&f, 1, pb, M_ACC_REMOTE_READ);
	fx_connect(&f, 0, qa, 1, qb);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8);
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)) && fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_QP_1));
	w.kind = M_OP_READ;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	w.kind = M_OP_WRITE;
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_INV_REQ_ERR))); /* F */
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_READ_1_local_error_leaves_responder)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op r = R(0, 64);

	r.verbs.lkey += 99;
	ck_assert(fx_rule(fx_predict(&f, r), wc_(M_WC_LOC_PROT_ERR), M_RULE_RA_READ_1));
	fx_do(&f, r, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_1_misaligned)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op c = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 4, 8);
	struct m_pred pr = fx_predict(&f, c);

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_RA_ATOM_1));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, c), err_(EINVAL)));
	fx_do(&f, c, err_(EINVAL));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS); /* nothing was posted */
	c = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 8, 8);
	ck_assert(fx_only(fx_predict(&f, c), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_2_sge_length)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op c = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, s.mb, 0, 4);
	struct m_pred pr = fx_predict(&f, c);

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_LEN_ERR)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_RA_ATOM_2));
	c.verbs.len = 8;
	ck_assert(fx_only(fx_predict(&f, c), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_3_cas_and_fadd_values)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op fill = op_obj(M_OP_FILL, 1, s.mb);
	uint8_t real[8];

	fill.verbs.byte = 1;
	fx_do(&f, fill, ok_());
	struct m_op fa = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 8, 8);
	fa.verbs.swap = 0x10;
	ck_assert(fx_rule(fx_predict(&f, fa), wc_(M_WC_SUCCESS), M_RULE_RA_ATOM_3));
	fx_do(&f, fa, wc_(M_WC_SUCCESS));
	memset(real, 1, 8);
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 0, real, 8), -1); /* the old value came back */
	real[0] = 0x11;
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 8, real, 8), -1); /* 0x0101..01 + 0x10 */
	struct m_op cas = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, s.mb, 8, 8);
	cas.verbs.compare = 0;
	cas.verbs.swap = 42;
	fx_do(&f, cas, wc_(M_WC_SUCCESS)); /* no match: unchanged */
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 8, real, 8), -1);
	cas.verbs.compare = 0x0101010101010111ull;
	fx_do(&f, cas, wc_(M_WC_SUCCESS));
	uint8_t swapped[8] = { 42 };
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 8, swapped, 8), -1);
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 0, real, 8), -1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_WRITE_1_failed_write_target)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	uint8_t junk[96];

	fx_do(&f, W(4000, 200), wc_(M_WC_REM_ACCESS_ERR));
	ck_assert(fx_rule(fx_predict(&f, W(4000, 200)), wc_(M_WC_WR_FLUSH_ERR), M_RULE_RA_ERR_5));
	memset(junk, 0xee, sizeof(junk));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 4000, junk, 96), -1); /* unspecified */
	model_free(&f.m);
	struct pair t = fx_pair(&f, "rxe", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, t.qa, t.ma, 0, 1, t.mb, 4000, 200);
	ck_assert(fx_rule(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_WRITE_1));
	fx_do(&f, w, wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, t.mb, 4000, junk, 96), 0); /* rxe: unchanged */
	model_free(&f.m);
}
END_TEST

START_TEST(test_write_read_contents)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 3);
	struct m_op fill = op_obj(M_OP_FILL, 0, s.ma);
	uint8_t want[4096];

	fill.verbs.byte = 0xab;
	fx_do(&f, fill, ok_());
	fx_do(&f, W(0, 4096), wc_(M_WC_SUCCESS));
	memset(want, 0xab, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, want, 4096), -1);
	want[100] = 0;
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, want, 4096), 100);
	fill.verbs.byte = 0;
	fx_do(&f, fill, ok_());
	fx_do(&f, R(0, 4096), wc_(M_WC_SUCCESS));
	want[100] = 0xab;
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 0, want, 4096), -1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_three_nodes_one_target_two_writers)
{
	struct fx f;
	int p[3], m[3], qa, qb1, qc, qb2;
	uint8_t want[64];

	fx_init(&f, 3, "rxe");
	for (int i = 0; i < 3; i++) {
		p[i] = fx_pd(&f, i);
		m[i] = fx_mr(&f, i, p[i], 64, RW);
		struct m_op fill = op_obj(M_OP_FILL, i, m[i]);
		fill.verbs.byte = (uint8_t)(0x10 * (i + 1));
		fx_do(&f, fill, ok_());
	}
	qa = fx_qp(&f, 0, p[0], QP_ALL);
	qb1 = fx_qp(&f, 1, p[1], QP_ALL);
	qc = fx_qp(&f, 2, p[2], QP_ALL);
	qb2 = fx_qp(&f, 1, p[1], QP_ALL); /* two QPs of one PD on the target */
	fx_connect(&f, 0, qa, 1, qb1);
	fx_connect(&f, 2, qc, 1, qb2);
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, qa, m[0], 0, 1, m[1], 0, 32), wc_(M_WC_SUCCESS));
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 2, qc, m[2], 0, 1, m[1], 32, 32), wc_(M_WC_SUCCESS));
	memset(want, 0x10, 32);
	memset(want + 32, 0x30, 32);
	ck_assert_int_eq(model_mr_compare(&f.m, 1, m[1], 0, want, 64), -1);
	/* An error on one connection leaves the other alone. */
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, qa, m[0], 0, 1, m[1], 60, 8), wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, qb1), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, qb2), M_QPS_RTS);
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 2, qc, m[2], 0, 1, m[1], 0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post(void)
{
	Suite *s = suite_create("model_post");
	TCase *tc = tcase_create("work requests");

	RTEST(tc, RA_KEY_1, test_RA_KEY_1_unknown_and_tampered_rkey);
	RTEST(tc, RA_PD_1, test_RA_PD_1_other_pd);
	RTEST(tc, PD_4, test_PD_4_lkey_of_other_pd);
	RTEST(tc, RA_ACC_1, test_RA_ACC_1_missing_right_each_op);
	RTEST(tc, MR_KEY_2, test_MR_KEY_2_local_only_rkey);
	RTEST(tc, MR_KEY_3, test_MR_KEY_3_stale_key_stays_stale);
	RTEST(tc, RA_BND_1, test_RA_BND_1_bounds_exact);
	RTEST(tc, RA_ZERO_1, test_RA_ZERO_1_zero_length_ignores_key);
	RTEST(tc, RA_LEN_1, test_RA_LEN_1_over_2g);
	RTEST(tc, RA_QP_1, test_RA_QP_1_responder_qp_access);
	RTEST(tc, RA_READ_1, test_RA_READ_1_local_error_leaves_responder);
	RTEST(tc, RA_ATOM_1, test_RA_ATOM_1_misaligned);
	RTEST(tc, RA_ATOM_2, test_RA_ATOM_2_sge_length);
	RTEST(tc, RA_ATOM_3, test_RA_ATOM_3_cas_and_fadd_values);
	RTEST(tc, RA_WRITE_1, test_RA_WRITE_1_failed_write_target);
	tcase_add_test(tc, test_write_read_contents);
	tcase_add_test(tc, test_three_nodes_one_target_two_writers);
	suite_add_tcase(s, tc);
	return s;
}

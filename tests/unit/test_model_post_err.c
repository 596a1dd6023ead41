/* Unit tests of the model: work-request errors, the QP going to ERR, flushes, posting in the wrong QP state. */
#include "tests/unit/post_fx.h"

START_TEST(test_RA_ERR_2_requester_err_then_flush)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op bad = W(0, 8);

	bad.verbs.rkey ^= 0x5a5a;
	struct m_pred pr = fx_predict(&f, bad);
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ERR_2));
	fx_do(&f, bad, wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	pr = fx_predict(&f, W(0, 8));
	ck_assert(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_3_responder_err_and_recv_flush)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op recv = op_recv(&f, 1, s.qb, s.mb, 64);

	fx_do(&f, recv, ok_());
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 1);
	struct m_op bad = W(4000, 200);
	ck_assert(fx_rule(fx_predict(&f, bad), wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ERR_3));
	fx_do(&f, bad, wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 0); /* flushed */
	/* A local error leaves the responder alone. */
	model_free(&f.m);
	struct pair t = fx_pair(&f, "generic", 2);
	struct m_op lbad = op_rdma(&f, M_OP_WRITE, 0, t.qa, t.ma, 0, 1, t.mb, 0, 8);
	lbad.verbs.lkey += 77;
	fx_do(&f, lbad, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, t.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, t.qb), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_1_nak_mapping)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op bad = W(0, 8);

	bad.verbs.rkey += 1;
	ck_assert(fx_rule(fx_predict(&f, bad), wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ERR_1));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_5_post_to_err_qp)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .node = 0, .obj = (int16_t)s.qa, .verbs.qp_state = M_QPS_ERR },
	      ok_());
	struct m_pred pr = fx_predict(&f, W(0, 8));
	ck_assert(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)) && fx_has(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, wc_(M_WC_WR_FLUSH_ERR), M_RULE_RA_ERR_5));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_WR_FLUSH_ERR)));
	model_free(&f.m);
}
END_TEST

/* ibv_post_recv on a QP in ERR answers ok (the receive is flushed later) or an
 * errno, under every profile: rxe's send-queue deviation (WR_FLUSH_ERR at the
 * step) does not reach the receive queue (rxe 6.1.0-56 answered ok). */
START_TEST(test_RA_ERR_5_recv_on_err_qp_is_never_a_completion)
{
	static const char *const profiles[] = { "generic", "rxe" };

	for (unsigned i = 0; i < 2; i++) {
		struct fx f;
		struct pair s = fx_pair(&f, profiles[i], 2);
		struct m_op recv = op_recv(&f, 0, s.qa, s.ma, 8);

		struct m_op err = { .kind = M_OP_MODIFY_QP, .node = 0, .obj = (int16_t)s.qa, .verbs.qp_state = M_QPS_ERR };
		fx_do(&f, err, ok_());
		struct m_pred pr = fx_predict(&f, recv);
		ck_assert_msg(fx_has(pr, ok_()) && fx_has(pr, err_(EINVAL)), "%s", profiles[i]);
		ck_assert_msg(!fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)), "%s", profiles[i]);
		ck_assert(fx_rule(pr, ok_(), M_RULE_RA_ERR_5));
		model_free(&f.m);
	}
}
END_TEST

START_TEST(test_QP_STATE_1_post_below_rts)
{
	struct fx f;
	int pa, ma, qa;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	ma = fx_mr(&f, 0, pa, 64, RW);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 0, ma, 0, 8);
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_QP_STATE_1));
	struct m_op recv = { .kind = M_OP_RECV, .node = 0, .obj = (int16_t)qa, .verbs.len = 8, .verbs.lkey = w.verbs.lkey,
			     .verbs.laddr = w.verbs.laddr };
	ck_assert(fx_only(fx_predict(&f, recv), err_(EINVAL))); /* RESET */
	model_free(&f.m);
}
END_TEST

/* MR-KEY-4: the target MR's lkey as the rkey: the specification's two keys differ (REM_ACCESS_ERR); rxe's are one. */
START_TEST(test_MR_KEY_4_lkey_as_rkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	w.verbs.rkey = f.m.node[1].mr[s.mb].lkey;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR), M_RULE_MR_KEY_4));
	model_free(&f.m);
	s = fx_pair(&f, "rxe", 2);
	w = W(0, 8);
	w.verbs.rkey = f.m.node[1].mr[s.mb].lkey;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post_err(void)
{
	Suite *s = suite_create("model_post_err");
	TCase *tc = tcase_create("errors");

	RTEST(tc, RA_ERR_2, test_RA_ERR_2_requester_err_then_flush);
	RTEST(tc, RA_ERR_3, test_RA_ERR_3_responder_err_and_recv_flush);
	RTEST(tc, RA_ERR_1, test_RA_ERR_1_nak_mapping);
	RTEST(tc, RA_ERR_5, test_RA_ERR_5_post_to_err_qp);
	RTEST(tc, RA_ERR_5, test_RA_ERR_5_recv_on_err_qp_is_never_a_completion);
	RTEST(tc, QP_STATE_1, test_QP_STATE_1_post_below_rts);
	RTEST(tc, MR_KEY_4, test_MR_KEY_4_lkey_as_rkey);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: send WRs posted through the ibv_wr_* API
 * (wr=yes, model/verbs/wrpost.c) — predicted as ibv_post_send's, a QP not
 * in RTS refused with ibv_post_send's errno (WR-POST-1); what the library
 * refuses for the WR itself is ibv_wr_complete's ENOSPC or ENOMEM (WR-POST-2);
 * a WR ended by ibv_wr_abort posts nothing (WR-POST-3).
 */
#include "tests/unit/post_fx.h"

/* op through the ibv_wr_* API. */
static struct m_op wr_api(struct m_op op)
{
	op.verbs.wr_api = 1;
	return op;
}

START_TEST(test_WR_POST_1_as_post_send)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 64);
	struct m_pred pr = fx_predict(&f, wr_api(w)), plain = fx_predict(&f, w);
	int q;

	/* The same outcomes as ibv_post_send's, decided by WR-POST-1 too. */
	ck_assert_uint_eq(pr.n, plain.n);
	for (unsigned i = 0; i < pr.n; i++)
		ck_assert(fx_has(plain, pr.alt[i].out));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_WR_POST_1));
	ck_assert(!fx_rule(plain, wc_(M_WC_SUCCESS), M_RULE_WR_POST_1));
	fx_do(&f, wr_api(w), wc_(M_WC_SUCCESS));
	/* A QP in RESET: ibv_wr_complete gives ibv_post_send's EINVAL, not a setter's errno. */
	q = fx_qp(&f, 0, s.pa, QP_ALL);
	pr = fx_predict(&f, wr_api(op_rdma(&f, M_OP_WRITE, 0, q, s.ma, 0, 1, s.mb, 0, 64)));
	ck_assert(fx_has(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_QP_STATE_1));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_WR_POST_1));
	ck_assert(!fx_has(pr, err_(ENOSPC)) && !fx_has(pr, err_(ENOMEM)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_WR_POST_2_over_max_send_sge)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2); /* max_send_sge 1 */
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_sge *g = &w.verbs.sge_more[w.verbs.nsge_more++];
	struct m_pred pr;

	g->lkey = f.m.node[0].mr[s.ma].lkey;
	g->addr = model_mr_laddr(&f.m, 0, s.ma, 8);
	g->len = 8;
	w.verbs.len += 8;
	/* ibv_post_send: EINVAL (LP-7); ibv_wr_set_sge_list records ENOSPC (rxe) or ENOMEM (mlx5). */
	ck_assert(fx_has(fx_predict(&f, w), err_(EINVAL)));
	pr = fx_predict(&f, wr_api(w));
	ck_assert(!fx_has(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(ENOSPC), M_RULE_WR_POST_2));
	ck_assert(fx_rule(pr, err_(ENOMEM), M_RULE_WR_POST_2));
	ck_assert(fx_rule(pr, err_(ENOSPC), M_RULE_LP_7));
	/* A provider that gave the QP more SGEs posts it, as ibv_post_send would. */
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));
	fx_do(&f, wr_api(w), err_(ENOSPC));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

START_TEST(test_WR_POST_3_abort_posts_nothing)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 64), bad = w;
	struct m_pred pr;

	w.verbs.wr_api = M_WR_ABORT;
	pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_WR_POST_3));
	ck_assert_uint_eq(pr.alt[0].effect, M_EFF_NONE);
	ck_assert_int_eq(pr.alt[0].peer_recv, -1);
	/* A SEND abandoned consumes no receive: the next SEND takes the receive posted. */
	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 64), ok_());
	struct m_op snd = op_send(&f, 0, s.qa, s.ma, 8);

	snd.verbs.wr_api = M_WR_ABORT;
	ck_assert(fx_only(fx_predict(&f, snd), ok_()));
	fx_do(&f, snd, ok_());
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 1);
	/* A malformed WR stays malformed: the builders take what the post would. */
	bad.obj = 40;
	bad.verbs.wr_api = M_WR_ABORT;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_wrpost(void)
{
	Suite *s = suite_create("model_wrpost");
	TCase *tc = tcase_create("wrpost");

	RTEST(tc, WR_POST_1, test_WR_POST_1_as_post_send);
	RTEST(tc, WR_POST_2, test_WR_POST_2_over_max_send_sge);
	RTEST(tc, WR_POST_3, test_WR_POST_3_abort_posts_nothing);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: work requests without SGEs (num_sge 0, struct
 * m_verbs_args.no_sge) on the send and the receive side (LP-2, LP-5), and
 * a WR chained after one its post refused (chain_errno, LP-7), a chain
 * longer than the send queue (chain_pos, LP-7).
 */
#include "tests/unit/model_fx.h"

/* A receive of num_sge 0 (no_sge) or of 64 bytes of MR mr, on node 1's QP q. */
static struct m_op op_recv(struct fx *f, int q, int mr, int no_sge)
{
	struct m_op rv = { .kind = M_OP_RECV, .node = 1, .obj = (int16_t)q, .verbs.no_sge = (uint8_t)no_sge };

	if (!no_sge) {
		rv.verbs.lkey = f->m.node[1].mr[mr].lkey;
		rv.verbs.laddr = model_mr_laddr(&f->m, 1, mr, 0);
		rv.verbs.len = 64;
	}
	return rv;
}

START_TEST(test_LP_2_send_without_sge_checks_no_key)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op snd = { .kind = M_OP_SEND, .node = 0, .obj = (int16_t)s.qa, .verbs.no_sge = 1,
			    .verbs.lkey = 0xdead };
	struct m_pred pr;

	fx_do(&f, op_recv(&f, s.qb, s.mb, 1), ok_());
	/* No SGE: no key to check, unlike a zero-length SGE with a bad key (LP-2). */
	pr = fx_predict(&f, snd);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(!fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_LP_2));
	fx_do(&f, snd, wc_(M_WC_SUCCESS));
	/* num_sge 0 carries no byte: a length is malformed. */
	snd.verbs.len = 8;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &snd, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_5_send_into_receive_without_sge)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op snd = op_rdma(&f, M_OP_SEND, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_pred pr;

	fx_do(&f, op_recv(&f, s.qb, s.mb, 1), ok_());
	pr = fx_predict(&f, snd);
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_LP_5));
	model_free(&f.m);

	/* The same SEND into a receive with an SGE of 64 bytes lands. */
	s = fx_pair(&f, "generic", 2);
	snd = op_rdma(&f, M_OP_SEND, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	fx_do(&f, op_recv(&f, s.qb, s.mb, 0), ok_());
	ck_assert(fx_only(fx_predict(&f, snd), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_wr_after_the_refused_one_is_not_posted)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_pred pr;

	w.verbs.chain_errno = EINVAL;
	pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LP_7));
	fx_do(&f, w, err_(EINVAL));
	ck_assert(model_mr_compare(&f.m, 1, s.mb, 0, (const uint8_t[8]){ 0 }, 8) < 0); /* nothing landed */
	w.verbs.chain_errno = 0;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_chain_overflows_the_send_queue)
{
	struct fx f;
	int pa, pb, ma, mb, qa, qb;
	struct m_op w;
	struct m_pred pr;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 4096, RW);
	mb = fx_mr(&f, 1, pb, 4096, RW);
	qa = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)pa,
				      .verbs.access = QP_ALL, .verbs.max_send_wr = 2 }, ok_());
	qb = fx_qp(&f, 1, pb, QP_ALL);
	fx_connect(&f, 0, qa, 1, qb);
	w = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8);
	w.verbs.chain_pos = 1; /* room for it */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	w.verbs.chain_pos = 2; /* at the depth asked for: a provider may have rounded it up */
	pr = fx_predict(&f, w);
	ck_assert(fx_rule(pr, err_(ENOMEM), M_RULE_LP_7));
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));
	w.verbs.chain_pos = 4; /* twice the depth: full */
	ck_assert(fx_only(fx_predict(&f, w), err_(ENOMEM)));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_sge(void)
{
	Suite *s = suite_create("model_sge");
	TCase *tc = tcase_create("sge");

	RTEST(tc, LP_2, test_LP_2_send_without_sge_checks_no_key);
	RTEST(tc, LP_5, test_LP_5_send_into_receive_without_sge);
	RTEST(tc, LP_7, test_LP_7_wr_after_the_refused_one_is_not_posted);
	RTEST(tc, LP_7, test_LP_7_chain_overflows_the_send_queue);
	suite_add_tcase(s, tc);
	return s;
}

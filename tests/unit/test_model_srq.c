/* Unit tests of the model: shared receive queues (create_srq, create_qp srq=, post_srq_recv). */
#include "tests/unit/post_fx.h"

static int fx_srq(struct fx *f, int node, int pd, uint64_t max_wr)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_SRQ, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.max_recv_wr = max_wr }, ok_());
}

/* A QP on node in PD pd using SRQ srq. */
static int fx_qp_srq(struct fx *f, int node, int pd, int srq)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.access = QP_ALL, .verbs.srq1 = (uint8_t)(srq + 1) }, ok_());
}

static struct m_op op_srq_recv(struct fx *f, int srq, int mr, uint64_t off, uint64_t len)
{
	struct m_op op = op_recv(f, 1, 0, mr, len);

	op.kind = M_OP_POST_SRQ_RECV;
	op.obj = (int16_t)srq;
	op.verbs.laddr += off;
	return op;
}

START_TEST(test_SRQ_1_destroy_while_used)
{
	struct fx f;
	int pd, srq, q;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	srq = fx_srq(&f, 0, pd, 4);
	ck_assert(fx_rule(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), err_(EBUSY), M_RULE_PD_3));
	q = fx_qp_srq(&f, 0, pd, srq);
	ck_assert(fx_rule(fx_predict(&f, op_obj(M_OP_DESTROY_SRQ, 0, srq)), err_(EBUSY), M_RULE_SRQ_1));
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, q), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DESTROY_SRQ, 0, srq)), ok_()));
	fx_do(&f, op_obj(M_OP_DESTROY_SRQ, 0, srq), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), ok_()));
	/* A destroyed SRQ: malformed. */
	struct m_pred pr;

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CREATE_QP, .node = 0,
		.verbs.pd = (int16_t)fx_pd(&f, 0), .verbs.srq1 = (uint8_t)(srq + 1) }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_SRQ_2_receives_come_from_the_srq)
{
	struct fx f;
	int pa, pb, ma, mb, srq, qa1, qa2, qb1, qb2;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 4096, RW);
	mb = fx_mr(&f, 1, pb, 4096, RW);
	srq = fx_srq(&f, 1, pb, 2);
	qa1 = fx_qp(&f, 0, pa, QP_ALL);
	qa2 = fx_qp(&f, 0, pa, QP_ALL);
	qb1 = fx_qp_srq(&f, 1, pb, srq);
	qb2 = fx_qp_srq(&f, 1, pb, srq);
	fx_connect(&f, 0, qa1, 1, qb1);
	fx_connect(&f, 0, qa2, 1, qb2);
	/* ibv_post_recv on a QP with an SRQ: EINVAL. */
	ck_assert(fx_rule(fx_predict(&f, op_recv(&f, 1, qb1, mb, 64)), err_(EINVAL), M_RULE_SRQ_2));
	fx_do(&f, op_srq_recv(&f, srq, mb, 0, 256), ok_());
	fx_do(&f, op_srq_recv(&f, srq, mb, 1024, 256), ok_());
	/* Full at the depth asked for: ENOMEM, or a provider's rounding up (LP-7). */
	ck_assert(fx_rule(fx_predict(&f, op_srq_recv(&f, srq, mb, 2048, 8)), err_(ENOMEM), M_RULE_LP_7));
	model_mr_set(&f.m, 0, ma, 0, 0x61, 64);
	fx_do(&f, op_send(&f, 0, qa2, ma, 64), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_byte(&f.m, 1, mb, 63), 0x61);
	fx_do(&f, op_send(&f, 0, qa1, ma, 8), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_byte(&f.m, 1, mb, 1024), 0x61);
	/* The SRQ is empty: RNR; the QP's error does not flush the SRQ. */
	fx_do(&f, op_srq_recv(&f, srq, mb, 2048, 256), ok_());
	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .node = 1, .obj = (int16_t)qb1, .verbs.qp_state = M_QPS_ERR },
	      ok_());
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 0, qa2, ma, 8)), wc_(M_WC_SUCCESS)));
	fx_do(&f, op_send(&f, 0, qa2, ma, 8), wc_(M_WC_SUCCESS));
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 0, qa2, ma, 8)), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	model_free(&f.m);
}
END_TEST

/*
 * A QP on node 1 in PD pb taking its receives from an SRQ of PD ps, connected to node 0's QP; an
 * SRQ receive of 64 bytes of MR m (of pb or ps). Returns node 0's QP; *ma: an MR of node 0.
 */
static int srq_other_pd(struct fx *f, int ps, int pb, int m, int *ma)
{
	int pa = fx_pd(f, 0), srq = fx_srq(f, 1, ps, 4), qa = fx_qp(f, 0, pa, QP_ALL), qb = fx_qp_srq(f, 1, pb, srq);

	*ma = fx_mr(f, 0, pa, 4096, RW);
	fx_connect(f, 0, qa, 1, qb);
	fx_do(f, op_srq_recv(f, srq, m, 0, 64), ok_());
	return qa;
}

/* A SEND into an SRQ receive of an MR of the SRQ's PD (in_srq_pd) or of its QP's, under profile prof. */
static struct m_pred srq3_send(const char *prof, int in_srq_pd)
{
	struct fx f;
	int ma, ps, pb, qa;
	struct m_pred pr;

	model_init(&f.m, 2);
	ck_assert_int_eq(m_profile_get(prof, KVER(6, 1), &f.p), 0);
	ps = fx_pd(&f, 1);
	pb = fx_pd(&f, 1);
	qa = srq_other_pd(&f, ps, pb, fx_mr(&f, 1, in_srq_pd ? ps : pb, 4096, RW), &ma);
	pr = fx_predict(&f, op_send(&f, 0, qa, ma, 8));
	model_free(&f.m);
	return pr;
}

START_TEST(test_SRQ_3_receive_checked_against_the_srq_pd)
{
	static const char *const prof[] = { "generic", "rxe" };

	for (int k = 0; k < 2; k++) {
		/* The receive's MR in the QP's PD, not the SRQ's: IBA refuses it (LP-4); rxe 6.1 lands it. */
		struct m_outcome o = k ? wc_(M_WC_SUCCESS) : wc_(M_WC_REM_OP_ERR);
		struct m_pred pr = srq3_send(prof[k], 0);

		ck_assert(fx_only(pr, o) && fx_rule(pr, o, M_RULE_SRQ_3));
		/* The receive's MR in the SRQ's PD: IBA lands it; rxe 6.1 refuses it. */
		o = k ? wc_(M_WC_REM_OP_ERR) : wc_(M_WC_SUCCESS);
		pr = srq3_send(prof[k], 1);
		ck_assert(fx_only(pr, o) && fx_rule(pr, o, M_RULE_SRQ_3));
	}
}
END_TEST

Suite *suite_test_model_srq(void)
{
	Suite *s = suite_create("model_srq");
	TCase *tc = tcase_create("srq");

	RTEST(tc, SRQ_1, test_SRQ_1_destroy_while_used);
	RTEST(tc, SRQ_2, test_SRQ_2_receives_come_from_the_srq);
	RTEST(tc, SRQ_3, test_SRQ_3_receive_checked_against_the_srq_pd);
	suite_add_tcase(s, tc);
	return s;
}

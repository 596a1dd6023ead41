/* Unit tests of the model: shared receive queues (create_srq, create_qp srq=, post_srq_recv, modify_srq,
 * query_srq). */
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

/* modify_srq of SRQ srq on node 1: mask's keys, max_wr wr, srq_limit lim. */
static struct m_op op_srq_modify(int srq, unsigned mask, uint64_t wr, uint32_t lim)
{
	return (struct m_op){ .kind = M_OP_MODIFY_SRQ, .node = 1, .obj = (int16_t)srq, .verbs.srq_mask = (uint8_t)mask,
			      .verbs.max_recv_wr = wr, .verbs.srq_limit = lim };
}

/* query_srq's result key of SRQ srq on node 1 accepts v? */
static int srq_reads(struct fx *f, int srq, const char *key, uint64_t v)
{
	struct m_qres q = { 0 };

	ck_assert_int_eq(model_query(&f->m, &f->p, &(struct m_op){ .kind = M_OP_QUERY_SRQ, .node = 1, .obj = (int16_t)srq },
				     &q), 0);
	int j = fx_qres_index(&q, key);

	ck_assert_int_ge(j, 0);
	ck_assert_uint_eq(q.r[j].rule, M_RULE_SRQ_MOD_2);
	return model_qres_ok(&q, (size_t)j, v);
}

START_TEST(test_SRQ_MOD_1_modify_srq_resizes_and_arms)
{
	struct fx f;
	int pd, m, srq;

	fx_init(&f, 2, "generic");
	pd = fx_pd(&f, 1);
	m = fx_mr(&f, 1, pd, 4096, RW);
	srq = fx_srq(&f, 1, pd, 4);
	for (int i = 0; i < 4; i++)
		fx_do(&f, op_srq_recv(&f, srq, m, 0, 64), ok_());
	/* max_wr 0: refused; a larger max_wr: taken, and the SRQ then takes more receives. */
	ck_assert(fx_only(fx_predict(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 0, 0)), err_(EINVAL)));
	ck_assert(fx_rule(fx_predict(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 0, 0)), err_(EINVAL), M_RULE_SRQ_MOD_1));
	/* below the receives it holds: the provider may round the new depth up */
	struct m_pred pr = fx_predict(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 3, 0));

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, ok_()));
	ck_assert(fx_only(fx_predict(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 12, 0)), ok_()));
	fx_do(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 12, 0), ok_());
	ck_assert(fx_only(fx_predict(&f, op_srq_recv(&f, srq, m, 0, 64)), ok_()));
	/* srq_limit up to the depth asked arms it; past it: refused or taken (a deeper SRQ). */
	ck_assert(fx_only(fx_predict(&f, op_srq_modify(srq, M_SRQ_LIMIT, 0, 12)), ok_()));
	pr = fx_predict(&f, op_srq_modify(srq, M_SRQ_LIMIT, 0, 13));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, ok_()) && fx_rule(pr, err_(EINVAL), M_RULE_SRQ_MOD_1));
	fx_do(&f, op_srq_modify(srq, M_SRQ_LIMIT, 0, 3), ok_());
	ck_assert(srq_reads(&f, srq, "srq_limit", 3));
	/* armed at 3: a max_wr below it is refused, one at it taken; a limit changes while armed */
	ck_assert(fx_only(fx_predict(&f, op_srq_modify(srq, M_SRQ_MAX_WR | M_SRQ_LIMIT, 2, 1)), err_(EINVAL)));
	ck_assert(fx_only(fx_predict(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 12, 0)), ok_()));
	fx_do(&f, op_srq_modify(srq, M_SRQ_LIMIT, 0, 2), ok_());
	ck_assert(srq_reads(&f, srq, "srq_limit", 2) && !srq_reads(&f, srq, "srq_limit", 3));
	/* a refused modify changes nothing */
	fx_do(&f, op_srq_modify(srq, M_SRQ_LIMIT, 0, 40), err_(EINVAL));
	ck_assert(srq_reads(&f, srq, "srq_limit", 2));
	/* not an SRQ: malformed */
	struct m_pred bad;

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_MODIFY_SRQ, .node = 1, .obj = 3 }, &bad),
			 -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_SRQ_MOD_2_query_srq_and_the_limit_disarmed)
{
	struct fx f;
	int ma, pb, qa, srq = 0;

	fx_init(&f, 2, "generic");
	pb = fx_pd(&f, 1);
	qa = srq_other_pd(&f, pb, pb, fx_mr(&f, 1, pb, 4096, RW), &ma); /* SRQ 0, 4 deep, one receive */
	ck_assert(srq_reads(&f, srq, "max_wr", 4) && srq_reads(&f, srq, "max_wr", 7) && !srq_reads(&f, srq, "max_wr", 3));
	ck_assert(srq_reads(&f, srq, "max_sge", 1) && !srq_reads(&f, srq, "max_sge", 0));
	ck_assert(srq_reads(&f, srq, "srq_limit", 0) && !srq_reads(&f, srq, "srq_limit", 1));
	for (int i = 0; i < 3; i++)
		fx_do(&f, op_srq_recv(&f, srq, 0, 0, 64), ok_());
	fx_do(&f, op_srq_modify(srq, M_SRQ_LIMIT, 0, 3), ok_());
	/* 3 left: not fewer than the limit, still armed; 2 left: disarmed, srq_limit 0 */
	fx_do(&f, op_send(&f, 0, qa, ma, 8), wc_(M_WC_SUCCESS));
	ck_assert(srq_reads(&f, srq, "srq_limit", 3));
	fx_do(&f, op_send(&f, 0, qa, ma, 8), wc_(M_WC_SUCCESS));
	ck_assert(srq_reads(&f, srq, "srq_limit", 0) && !srq_reads(&f, srq, "srq_limit", 3));
	/* resized: at least the new depth */
	fx_do(&f, op_srq_modify(srq, M_SRQ_MAX_WR, 10, 0), ok_());
	ck_assert(srq_reads(&f, srq, "max_wr", 10) && !srq_reads(&f, srq, "max_wr", 9));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_srq(void)
{
	Suite *s = suite_create("model_srq");
	TCase *tc = tcase_create("srq");

	RTEST(tc, SRQ_1, test_SRQ_1_destroy_while_used);
	RTEST(tc, SRQ_2, test_SRQ_2_receives_come_from_the_srq);
	RTEST(tc, SRQ_3, test_SRQ_3_receive_checked_against_the_srq_pd);
	RTEST(tc, SRQ_MOD_1, test_SRQ_MOD_1_modify_srq_resizes_and_arms);
	RTEST(tc, SRQ_MOD_2, test_SRQ_MOD_2_query_srq_and_the_limit_disarmed);
	suite_add_tcase(s, tc);
	return s;
}

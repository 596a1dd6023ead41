/*
 * Unit tests of the model: creates sized at the device's own limit (lim.c):
 * `max` succeeds (LIM-2) and leaves a queue deeper than the model tracks,
 * `max+1` makes nothing (LIM-1: EINVAL or ENOMEM; rxe EINVAL).
 */
#include "tests/unit/model_fx.h"

#include "model/verbs/cq.h"
#include "model/verbs/ud.h"

static struct m_op op_cq(uint8_t max, uint8_t past)
{
	return (struct m_op){ .kind = M_OP_CREATE_CQ, .node = 0, .obj = -1, .verbs.cq_depth = max || past ? 0 : 16,
			      .verbs.lim_max = max, .verbs.lim_past = past };
}

static struct m_op op_srq(int pd, uint8_t max, uint8_t past)
{
	return (struct m_op){ .kind = M_OP_CREATE_SRQ, .node = 0, .verbs.pd = (int16_t)pd, .verbs.lim_max = max,
			      .verbs.lim_past = past };
}

static struct m_op op_qp(int pd, uint8_t max, uint8_t past)
{
	return (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)pd, .verbs.access = QP_ALL,
			      .verbs.lim_max = max, .verbs.lim_past = past };
}

/* Refused by LIM-1 with exactly EINVAL and ENOMEM (generic) or EINVAL alone (rxe). */
static void refused(struct fx *f, struct m_op op, int rxe)
{
	struct m_pred pr = fx_predict(f, op);

	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LIM_1));
	ck_assert(!fx_has(pr, ok_()));
	if (rxe)
		ck_assert(fx_only(pr, err_(EINVAL)));
	else
		ck_assert(pr.n == 2 && fx_rule(pr, err_(ENOMEM), M_RULE_LIM_1));
}

START_TEST(test_LIM_1_create_past_the_limit_makes_nothing)
{
	for (int rxe = 0; rxe < 2; rxe++) {
		struct fx f;
		int pd;

		fx_init(&f, 1, rxe ? "rxe" : "generic");
		pd = fx_pd(&f, 0);
		refused(&f, op_cq(0, M_LIMK_CQE), rxe);
		refused(&f, op_srq(pd, 0, M_LIMK_RECV_WR), rxe);
		refused(&f, op_srq(pd, 0, M_LIMK_SGE), rxe);
		refused(&f, op_srq(pd, M_LIMK_RECV_WR, M_LIMK_SGE), rxe); /* the peer's max_srq_sge + 1 */
		refused(&f, op_qp(pd, 0, M_LIMK_SEND_WR), rxe);
		refused(&f, op_qp(pd, 0, M_LIMK_RECV_WR), rxe);
		refused(&f, op_qp(pd, 0, M_LIMK_SEND_SGE), rxe);
		refused(&f, op_qp(pd, 0, M_LIMK_RECV_SGE), rxe);
		/* The refusal commits nothing: no CQ, no SRQ, no QP, the PD unreferenced. */
		fx_do(&f, op_cq(0, M_LIMK_CQE), err_(EINVAL));
		fx_do(&f, op_srq(pd, 0, M_LIMK_SGE), err_(EINVAL));
		fx_do(&f, op_qp(pd, 0, M_LIMK_SEND_WR), err_(EINVAL));
		ck_assert_int_eq(f.m.node[0].cq.ncq, 0);
		ck_assert_int_eq(f.m.node[0].ud.nsrq, 0);
		ck_assert_int_eq(f.m.node[0].nqp, 0);
		ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), ok_()));
		/* A key that is not a create's size, or one at max and past at once: malformed. */
		struct m_pred pr;
		struct m_op bad[] = { op_cq(M_LIMK_SGE, 0), op_srq(pd, 0, M_LIMK_CQE), op_qp(pd, M_LIMK_SGE, 0),
				      op_qp(pd, M_LIMK_SEND_WR, M_LIMK_SEND_WR) };

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			ck_assert_int_eq(model_predict(&f.m, &f.p, &bad[i], &pr), -EINVAL);
		model_free(&f.m);
	}
}
END_TEST

START_TEST(test_LIM_2_create_at_the_limit_succeeds)
{
	struct fx f;
	int pd, cq, srq, q, q2;
	struct m_pred pr;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	pr = fx_predict(&f, op_cq(M_LIMK_CQE, 0));
	ck_assert(fx_only(pr, ok_()) && fx_rule(pr, ok_(), M_RULE_LIM_2));
	cq = fx_do(&f, op_cq(M_LIMK_CQE, 0), ok_());
	ck_assert_uint_eq(f.m.node[0].cq.cq[cq].depth, M_LIM_MAX); /* never overruns in the model */
	/* An SRQ at both limits: made; on rxe also ENOMEM (its 1 GiB queue is vmalloc'd whole). */
	for (int rxe = 0; rxe < 2; rxe++) {
		struct fx g;

		fx_init(&g, 1, rxe ? "rxe" : "generic");
		pr = fx_predict(&g, op_srq(fx_pd(&g, 0), M_LIMK_RECV_WR | M_LIMK_SGE, 0));
		ck_assert(fx_rule(pr, ok_(), M_RULE_LIM_2));
		ck_assert(rxe ? pr.n == 2 && fx_rule(pr, err_(ENOMEM), M_RULE_LIM_2) : fx_only(pr, ok_()));
		model_free(&g.m);
	}
	/* One limit alone: made, on rxe too. */
	pr = fx_predict(&f, op_srq(pd, M_LIMK_SGE, 0));
	ck_assert(fx_only(pr, ok_()) && fx_rule(pr, ok_(), M_RULE_LIM_2));
	pr = fx_predict(&f, op_srq(pd, M_LIMK_RECV_WR, 0));
	ck_assert(fx_only(pr, ok_()) && fx_rule(pr, ok_(), M_RULE_LIM_2));
	srq = fx_do(&f, op_srq(pd, M_LIMK_RECV_WR | M_LIMK_SGE, 0), ok_());
	ck_assert_int_eq(f.m.node[0].ud.srq[srq].max_recv, M_MAX_RECV);
	pr = fx_predict(&f, op_qp(pd, M_LIMK_SEND_WR, 0));
	ck_assert(fx_only(pr, ok_()) && fx_rule(pr, ok_(), M_RULE_LIM_2));
	q = fx_do(&f, op_qp(pd, M_LIMK_SEND_WR, 0), ok_());
	/* Its send queue: deeper than the model tracks (0: never full), not the default 32 or "asked as 0". */
	ck_assert_int_eq(f.m.node[0].cq.max_send[q], 0);
	q2 = fx_do(&f, op_qp(pd, M_LIMK_RECV_WR, 0), ok_());
	ck_assert_int_eq(f.m.node[0].qp[q2].max_recv, M_MAX_RECV);
	/* At the device's max_sge a WR may carry every SGE the model gives one (M_SGE_MAX). */
	int q3 = fx_do(&f, op_qp(pd, M_LIMK_SEND_SGE | M_LIMK_RECV_SGE, 0), ok_());

	ck_assert_int_eq(f.m.node[0].qp[q3].max_send_sge, M_SGE_MAX);
	ck_assert_int_eq(f.m.node[0].qp[q3].max_recv_sge, M_SGE_MAX);
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, q3), ok_());
	/* Made at the limit, they are destroyed as any other. */
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, q), ok_());
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, q2), ok_());
	fx_do(&f, op_obj(M_OP_DESTROY_SRQ, 0, srq), ok_());
	fx_do(&f, op_obj(M_OP_DESTROY_CQ, 0, cq), ok_());
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_lim(void)
{
	Suite *s = suite_create("model_lim");
	TCase *tc = tcase_create("lim");

	RTEST(tc, LIM_1, test_LIM_1_create_past_the_limit_makes_nothing);
	RTEST(tc, LIM_2, test_LIM_2_create_at_the_limit_succeeds);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: QPs made by ibv_create_qp_ex (create_qp ex=yes,
 * model/verbs/qpex.c) — the send_ops_flags each QP type takes, may refuse
 * and refuses (QP-EX-1).
 */
#include "tests/unit/model_fx.h"
#include "model/verbs/qpex.h"

static struct m_op op_qpex(int pd, enum m_qp_type t, uint16_t ops)
{
	return (struct m_op){ .kind = M_OP_CREATE_QP, .verbs.pd = (int16_t)pd, .verbs.access = QP_ALL,
			      .verbs.qp_type = (uint8_t)t, .verbs.qp_ex = 1, .verbs.send_ops = ops };
}

START_TEST(test_QP_EX_1_send_ops_by_qp_type)
{
	static const struct { enum m_qp_type t; uint16_t ops; int ok, enotsup; } cases[] = {
		{ M_QPT_RC, 0, 1, 0 },
		{ M_QPT_RC, M_SOPS_RDMA_WRITE | M_SOPS_RDMA_READ | M_SOPS_ATOMIC_CMP_AND_SWP | M_SOPS_LOCAL_INV |
				    M_SOPS_BIND_MW | M_SOPS_SEND_WITH_INV, 1, 0 },
		{ M_QPT_RC, M_SOPS_ATOMIC_WRITE, 1, 1 },
		{ M_QPT_RC, M_SOPS_FLUSH, 1, 1 },
		{ M_QPT_RC, M_SOPS_TSO, 0, 1 },
		{ M_QPT_UC, M_SOPS_RDMA_WRITE | M_SOPS_SEND_WITH_IMM | M_SOPS_BIND_MW | M_SOPS_SEND_WITH_INV, 1, 0 },
		{ M_QPT_UC, M_SOPS_LOCAL_INV, 1, 1 },
		{ M_QPT_UC, M_SOPS_SEND | M_SOPS_RDMA_READ, 0, 1 },
		{ M_QPT_UC, M_SOPS_ATOMIC_FETCH_AND_ADD, 0, 1 },
		{ M_QPT_UD, M_SOPS_SEND | M_SOPS_SEND_WITH_IMM, 1, 0 },
		{ M_QPT_UD, M_SOPS_SEND | M_SOPS_RDMA_WRITE, 0, 1 },
		{ M_QPT_UD, M_SOPS_BIND_MW, 0, 1 },
	};
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m_pred pr = fx_predict(&f, op_qpex(pd, cases[i].t, cases[i].ops));

		ck_assert_msg(fx_has(pr, ok_()) == cases[i].ok, "case %u: ok", i);
		ck_assert_msg(fx_has(pr, err_(EOPNOTSUPP)) == cases[i].enotsup, "case %u: EOPNOTSUPP", i);
		ck_assert_uint_eq(pr.n, (unsigned)(cases[i].ok + cases[i].enotsup));
		ck_assert(fx_rule(pr, cases[i].ok ? ok_() : err_(EOPNOTSUPP), M_RULE_QP_EX_1));
	}
	/* The QP an extended create makes is create_qp's: RESET, and a refused one makes none. */
	ck_assert_int_ge(fx_do(&f, op_qpex(pd, M_QPT_UD, M_SOPS_SEND), ok_()), 0);
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].nqp - 1), M_QPS_RESET);
	model_free(&f.m);
}
END_TEST

START_TEST(test_QP_EX_1_malformed_send_ops_refused)
{
	struct fx f;
	struct m_pred pr;
	struct m_op op;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	op = op_qpex(pd, M_QPT_RC, M_SOPS_SEND);
	op.verbs.qp_ex = 0; /* send_ops= on a plain create_qp */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op = op_qpex(pd, M_QPT_RC, 1u << 13); /* a bit no operation has */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op = op_qpex(pd + 1, M_QPT_RC, 0); /* create_qp's own checks still hold */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_qpex(void)
{
	Suite *s = suite_create("model_qpex");
	TCase *tc = tcase_create("qpex");

	RTEST(tc, QP_EX_1, test_QP_EX_1_send_ops_by_qp_type);
	RTEST(tc, QP_EX_1, test_QP_EX_1_malformed_send_ops_refused);
	suite_add_tcase(s, tc);
	return s;
}

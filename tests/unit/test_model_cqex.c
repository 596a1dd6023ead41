/*
 * Unit tests of the model: extended CQs (create_cq ex=yes,
 * ibv_create_cq_ex; model/verbs/cq.c) — what the extended create takes and
 * may refuse (CQ-EX-1), the completion fields only wc_flags asks for
 * (CQ-EX-2).
 */
#include "tests/unit/model_fx.h"

static struct m_op op_cqex(uint32_t depth, uint16_t wc_flags, uint8_t cq_flags)
{
	return (struct m_op){ .kind = M_OP_CREATE_CQ, .obj = -1, .verbs.cq_depth = depth, .verbs.cq_ex = 1,
			      .verbs.wc_flags = wc_flags, .verbs.cq_flags = cq_flags };
}

/* A QP on node with send CQ scq and receive CQ rcq (handles; -1: its own), as fx_qp_cq makes one. */
static struct m_op op_qp2(int node, int pd, int scq, int rcq)
{
	return (struct m_op){ .kind = M_OP_CREATE_QP, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
			      .verbs.access = QP_ALL, .verbs.scq = (int16_t)(scq + 1), .verbs.rcq = (int16_t)(rcq + 1) };
}

START_TEST(test_CQ_EX_1_standard_flags_taken_others_may_be_eopnotsupp)
{
	struct fx f;
	struct m_op op = op_cqex(10, M_WC_EX_STANDARD, 0);
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_CQ_EX_1));
	/* Each flag beyond the standard seven, and each create flag: taken or EOPNOTSUPP. */
	for (unsigned bit = 7; bit <= 11; bit++) {
		op = op_cqex(10, (uint16_t)(1u << bit), 0);
		pr = fx_predict(&f, op);
		ck_assert_msg(fx_has(pr, ok_()) && fx_has(pr, err_(EOPNOTSUPP)) && pr.n == 2, "wc flag bit %u", bit);
	}
	for (unsigned bit = 0; bit < 2; bit++) {
		pr = fx_predict(&f, op_cqex(10, 0, (uint8_t)(1u << bit)));
		ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(EOPNOTSUPP)));
	}
	/* What ibv_create_cq refuses the extended create refuses too; a flag the provider may refuse first. */
	ck_assert(fx_only(fx_predict(&f, op_cqex(0, M_WC_EX_STANDARD, 0)), err_(EINVAL)));
	pr = fx_predict(&f, op_cqex(0, 1u << 7, 0));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, err_(EOPNOTSUPP)) && !fx_has(pr, ok_()));
	op = op_cqex(10, 0, 0);
	op.verbs.comp_vec = M_VEC_PAST;
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	/* Bits that name no flag, and wc_flags or flags on a plain create_cq: malformed. */
	op = op_cqex(10, 1u << 12, 0);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op = op_cqex(10, 0, 4);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op = op_cqex(10, M_WC_EX_BYTE_LEN, 0);
	op.verbs.cq_ex = 0;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op.verbs.wc_flags = 0;
	op.verbs.cq_flags = 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* byte_len1's mode in a poll_cq of node 0's CQ cq. */
static enum m_qmode len_mode(struct fx *f, int cq, enum m_rule *rule)
{
	struct m_op op = op_obj(M_OP_POLL_CQ, 0, cq);
	struct m_qres q = { 0 };
	int i;

	op.verbs.max_wc = 1;
	fx_do(f, op, ok_());
	ck_assert_int_eq(model_query(&f->m, &f->p, &op, &q), 0);
	ck_assert_uint_eq(q.r[fx_qres_index(&q, "n")].value, 1);
	i = fx_qres_index(&q, "byte_len1");
	ck_assert_int_ge(i, 0);
	*rule = (enum m_rule)q.r[i].rule;
	return (enum m_qmode)q.r[i].mode;
}

START_TEST(test_CQ_EX_2_byte_len_judged_only_when_asked)
{
	struct fx f;
	int pa, pb, ma, mb, qa, qb, plain, bare, len;
	enum m_rule rule;
	struct m_op rd;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 4096, RW);
	mb = fx_mr(&f, 1, pb, 4096, RW);
	plain = fx_cq(&f, 0, 16);
	bare = fx_do(&f, op_cqex(16, 1u << 2 /* QP_NUM */, 0), ok_());
	len = fx_do(&f, op_cqex(16, M_WC_EX_STANDARD, 0), ok_());
	qa = fx_do(&f, op_qp2(0, pa, bare, plain), ok_());
	qb = fx_qp(&f, 1, pb, QP_ALL);
	fx_connect(&f, 0, qa, 1, qb);
	rd = op_rdma(&f, M_OP_READ, 0, qa, ma, 0, 1, mb, 0, 64);
	rd.verbs.wr_id = 1;
	fx_do(&f, rd, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(len_mode(&f, bare, &rule), M_Q_ANY);
	ck_assert_int_eq(rule, M_RULE_CQ_EX_2);
	/* The same READ completing into a CQ that asked for BYTE_LEN: its byte_len is judged. */
	qa = fx_do(&f, op_qp2(0, pa, len, plain), ok_());
	qb = fx_qp(&f, 1, pb, QP_ALL);
	fx_connect(&f, 0, qa, 1, qb);
	rd = op_rdma(&f, M_OP_READ, 0, qa, ma, 0, 1, mb, 0, 64);
	rd.verbs.wr_id = 2;
	fx_do(&f, rd, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(len_mode(&f, len, &rule), M_Q_EXACT);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_EX_2_receive_cq_needs_len_imm_and_qp_num)
{
	struct fx f;
	struct m_pred pr;
	struct m_op op;
	int pd, bare, recv;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	bare = fx_do(&f, op_cqex(16, M_WC_EX_BYTE_LEN | (1u << 2), 0), ok_()); /* no IMM */
	recv = fx_do(&f, op_cqex(16, M_WC_EX_RECV, 0), ok_());
	op = op_qp2(0, pd, -1, bare);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op = op_qp2(0, pd, bare, recv); /* as a send CQ it may give less */
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_cqex(void)
{
	Suite *s = suite_create("model_cqex");
	TCase *tc = tcase_create("cqex");

	RTEST(tc, CQ_EX_1, test_CQ_EX_1_standard_flags_taken_others_may_be_eopnotsupp);
	RTEST(tc, CQ_EX_2, test_CQ_EX_2_byte_len_judged_only_when_asked);
	RTEST(tc, CQ_EX_2, test_CQ_EX_2_receive_cq_needs_len_imm_and_qp_num);
	suite_add_tcase(s, tc);
	return s;
}

/* Unit tests of the model: RDMA WRITE with immediate, inline data, SEND with immediate. */
#include "tests/unit/post_fx.h"

/* RDMA WRITE with immediate: without a posted receive, RNR (before the rkey is
 * looked at); with one, the rights and bounds of a WRITE, and on success the
 * bytes land and the receive is used up, completing SUCCESS at the peer. */
START_TEST(test_RA_WRITE_2_write_imm_consumes_a_receive)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op wi = W(64, 16), recv = op_recv(&f, 1, s.qb, s.mb, 8);
	uint8_t want[16];

	wi.kind = M_OP_WRITE_IMM;
	wi.verbs.rkey += 5; /* a bad rkey too: the missing receive comes first */
	struct m_pred pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_RNR_RETRY_EXC_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_RNR_RETRY_EXC_ERR), M_RULE_RA_WRITE_2));
	fx_do(&f, recv, ok_());
	pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	wi.verbs.rkey -= 5;
	pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(pr.alt[0].peer_recv, M_WC_SUCCESS);
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_WRITE_2));
	/* The receive's 8-byte SGE is not used: 16 bytes land in the target. */
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x3a, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, wi, wc_(M_WC_SUCCESS));
	memset(want, 0x3a, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 64, want, 16), -1);
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 0);
	ck_assert(fx_only(fx_predict(&f, wi), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	model_free(&f.m);
}
END_TEST

/* The responder's order for a WRITE with immediate (explore --seed=1, rxe 6.1, 2026-12-06): the
 * QP's rights before the receive (check_op_valid, then check_resource); the receive is looked for
 * only at the last packet, so a message over the QP's path MTU meets the rkey check first, one
 * within it the receive first; with no path MTU known, one within the smallest the receive first,
 * one over the largest the rkey first, one between either. */
START_TEST(test_RA_WRITE_2_write_imm_checks_before_the_receive)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pb2 = fx_pd(&f, 1), mb2 = fx_mr(&f, 1, s.pb, 16384, RW), ma2 = fx_mr(&f, 0, s.pa, 16384, RW);
	int qa2 = fx_qp(&f, 0, s.pa, QP_ALL), qb2 = fx_qp(&f, 1, pb2, M_ACC_REMOTE_READ);
	struct m_op wi = op_rdma(&f, M_OP_WRITE_IMM, 0, qa2, ma2, 0, 1, mb2, 0, 0);
	struct m_pred pr;

	fx_connect(&f, 0, qa2, 1, qb2);
	pr = fx_predict(&f, wi); /* no REMOTE_WRITE on the responder QP, no receive: the rights first */
	ck_assert(fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)) && !fx_has(pr, wc_(M_WC_RNR_RETRY_EXC_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_QP_1));
	wi = op_rdma(&f, M_OP_WRITE_IMM, 0, s.qa, ma2, 0, 1, mb2, 0, 1025);
	wi.verbs.rkey += 5; /* two packets of the harness's 1024-byte path MTU: the first packet's rkey first */
	ck_assert(fx_only(fx_predict(&f, wi), wc_(M_WC_REM_ACCESS_ERR)));
	wi.verbs.len = 1024; /* one packet: the receive first */
	ck_assert(fx_only(fx_predict(&f, wi), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	int qa3 = fx_qp(&f, 0, s.pa, QP_ALL), qb3 = fx_qp(&f, 1, s.pb, QP_ALL);

	fx_connect_mtu(&f, 0, qa3, 1, qb3, 0); /* no path MTU known */
	wi = op_rdma(&f, M_OP_WRITE_IMM, 0, qa3, ma2, 0, 1, mb2, 0, 8256);
	wi.verbs.rkey += 5; /* more than one packet on every MTU: the first packet's rkey first */
	pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	wi.verbs.len = 1024; /* one packet on a 4096 MTU, four on a 256 one: either */
	pr = fx_predict(&f, wi);
	ck_assert(fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)) && fx_has(pr, wc_(M_WC_RNR_RETRY_EXC_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_RNR_RETRY_EXC_ERR), M_RULE_RA_WRITE_2));
	wi.verbs.len = 256; /* one packet on every MTU: the receive first */
	ck_assert(fx_only(fx_predict(&f, wi), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	wi.verbs.rkey -= 5; /* a good rkey, long: the receive is still missing at the last packet */
	wi.verbs.len = 8256;
	ck_assert(fx_only(fx_predict(&f, wi), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	model_free(&f.m);
}
END_TEST

/* IBV_SEND_INLINE: the lkey is never looked at, the bytes are the memory at
 * the address (a deregistered buffer's too); longer than the max_inline_data
 * the QP asked for: EINVAL at the post, or on when the provider gave more. */
START_TEST(test_LP_3_inline_skips_the_lkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 16);
	uint8_t want[16];

	w.verbs.lkey += 99;
	ck_assert(fx_rule(fx_predict(&f, w), wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_1));
	w.verbs.send_inline = 1;
	/* The QP asked for no inline data: EINVAL, or a provider's larger limit. */
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LP_7));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_LP_3));
	/* A QP with 64 bytes of inline data. */
	int qa = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)s.pa,
					  .verbs.access = QP_ALL, .verbs.max_inline = 64 }, ok_());
	int qb = fx_qp(&f, 1, s.pb, QP_ALL);
	fx_connect(&f, 0, qa, 1, qb);
	w.obj = (int16_t)qa;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	/* The buffer's registration is gone: its bytes are still there. */
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x2b, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, s.ma), ok_());
	fx_do(&f, w, wc_(M_WC_SUCCESS));
	memset(want, 0x2b, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, want, 16), -1);
	/* Longer than 64: EINVAL at the post, or on. */
	w.verbs.len = 65;
	ck_assert(fx_has(fx_predict(&f, w), err_(EINVAL)));
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CREATE_QP, .node = 0,
		.verbs.pd = (int16_t)s.pa, .verbs.max_inline = M_INLINE_MAX + 1 }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* SEND_WITH_IMM is a SEND for memory: it consumes a receive and lands there;
 * with SEND_WITH_INV as well it is malformed. */
START_TEST(test_send_with_imm_is_a_send)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op send = W(0, 16), recv = op_recv(&f, 1, s.qb, s.mb, 64);
	struct m_pred pr;

	send.kind = M_OP_SEND;
	send.verbs.with_imm = 1;
	ck_assert(fx_only(fx_predict(&f, send), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	fx_do(&f, recv, ok_());
	ck_assert(fx_only(fx_predict(&f, send), wc_(M_WC_SUCCESS)));
	send.verbs.with_inv = 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &send, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post_imm(void)
{
	Suite *s = suite_create("model_post_imm");
	TCase *tc = tcase_create("imm");

	RTEST(tc, RA_WRITE_2, test_RA_WRITE_2_write_imm_consumes_a_receive);
	RTEST(tc, RA_WRITE_2, test_RA_WRITE_2_write_imm_checks_before_the_receive);
	RTEST(tc, LP_3, test_LP_3_inline_skips_the_lkey);
	tcase_add_test(tc, test_send_with_imm_is_a_send);
	suite_add_tcase(s, tc);
	return s;
}

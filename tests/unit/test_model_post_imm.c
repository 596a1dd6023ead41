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
	RTEST(tc, LP_3, test_LP_3_inline_skips_the_lkey);
	tcase_add_test(tc, test_send_with_imm_is_a_send);
	suite_add_tcase(s, tc);
	return s;
}

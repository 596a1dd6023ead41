/* Unit tests of the model: the requester's local checks (lkeys, SGEs, receive buffers, the receive queue). */
#include "tests/unit/post_fx.h"

START_TEST(test_LP_1_bad_lkey_and_range)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	w.verbs.lkey ^= 0x77;
	struct m_pred pr = fx_predict(&f, w);
	/* A key no MR has: the SGE references no MR valid for the operation, LOC_PROT_ERR only. */
	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_1));
	w = W(0, 8);
	w.verbs.laddr += 4092; /* the SGE runs off the local MR: either status */
	pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_LOC_PROT_ERR)) && fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	w = W(0, 8);
	w.verbs.lkey ^= 0x77;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_LOC_QP_OP_ERR))); /* F */
	w = W(0, 8);
	w.verbs.laddr += 4092; /* out of range on 6.1: -EFAULT, LOC_PROT_ERR (oracle self-test) */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_LOC_PROT_ERR)));
	f.p.kernel = KVER(6, 8); /* newer kernels: no declared deviation for the range */
	ck_assert(fx_has(fx_predict(&f, w), wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_1_foreign_pd_lkey_is_loc_prot_err)
{
	/* A live MR of another PD than the QP's as a WRITE's or SEND's source: LOC_PROT_ERR (no MR valid
	 * for the operation), the QP to ERR; rxe completes it LOC_QP_OP_ERR (its declared LP-1). */
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int other = fx_mr(&f, 0, fx_pd(&f, 0), 4096, RW);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, other, 0, 1, s.mb, 0, 64);
	struct m_op snd = w;

	snd.kind = M_OP_SEND;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_PD_4) && fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_1));
	ck_assert(fx_only(fx_predict(&f, snd), wc_(M_WC_LOC_PROT_ERR)));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(fx_only(fx_predict(&f, snd), wc_(M_WC_LOC_QP_OP_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_8_later_packet_overrun_after_remote_error)
{
	/* A 4088-byte WRITE from offset 64 of a 4 KiB MR runs past it only after
	 * the first packet: the responder may refuse the first packet (here a
	 * bad rkey) before the requester builds the bad one. */
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 64, 1, s.mb, 8, 4088);
	struct m_pred pr;

	w.verbs.rkey ^= 0x55;
	pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_LOC_PROT_ERR)) && fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_LP_8));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	/* The local error may also be reported after the responder refused the packets
	 * before it (seen on rxe 6.1 between two guests): the peer in ERR as well. */
	int qp_err = 0, both_err = 0;

	for (unsigned i = 0; i < pr.n; i++) {
		const struct m_alt *a = &pr.alt[i];
		int lp8 = 0;

		for (unsigned r = 0; r < a->nrules; r++)
			lp8 |= a->rules[r] == M_RULE_LP_8;
		if (a->out.kind == M_OUT_WC && a->out.code == M_WC_LOC_PROT_ERR) {
			qp_err |= a->effect == M_EFF_QP_ERR;
			both_err |= a->effect == M_EFF_BOTH_ERR && lp8;
		}
	}
	ck_assert(qp_err && both_err);
	/* A good target: the request would go through, so the local error is all there is. */
	pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 64, 1, s.mb, 8, 4088));
	ck_assert(!fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	for (unsigned i = 0; i < pr.n; i++)
		ck_assert(pr.alt[i].effect != M_EFF_BOTH_ERR); /* nothing refused at the peer */
	/* One packet (at most the smallest MTU), or a bad first packet: the local error only. */
	w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 4000, 1, s.mb, 8, 200);
	w.verbs.rkey ^= 0x55;
	ck_assert(!fx_has(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 4000, 1, s.mb, 8, 1000);
	w.verbs.rkey ^= 0x55;
	ck_assert(!fx_has(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_8_send_overrun_into_rnr_may_hang_on_rxe_6_1)
{
	/* An 8 KiB SEND from a 4 KiB MR (bad only after the first packet) to a peer
	 * with no receive: rxe 6.1 never completes it (verbs/199's triage), a hang
	 * its profile declares beside what the specification allows. */
	const struct m_outcome hang = { M_OUT_HANG, 0 };
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op snd = op_send(&f, 0, s.qa, s.ma, 8192), first = snd;
	struct m_pred pr = fx_predict(&f, snd);

	ck_assert(fx_has(pr, hang) && fx_rule(pr, hang, M_RULE_LP_8));
	ck_assert(fx_has(pr, wc_(M_WC_RNR_RETRY_EXC_ERR)) && fx_has(pr, wc_(M_WC_LOC_PROT_ERR)));
	/* Unsignaled, the completion that never comes is no completion, as a success's (explore
	 * --seed=1 --jobs=4 on rxe 6.1, 2026-12-06: 4096 bytes from byte 64, signaled=no, ok). */
	first.verbs.unsignaled = 1;
	pr = fx_predict(&f, first);
	ck_assert(fx_has(pr, ok_()) && fx_rule(pr, ok_(), M_RULE_LP_8) && !fx_has(pr, hang));
	ck_assert(fx_has(pr, wc_(M_WC_LOC_PROT_ERR)));
	first.verbs.unsignaled = 0;
	first.verbs.laddr += 4000; /* bad in the first packet: the local error only */
	first.verbs.len = 200;
	ck_assert(!fx_has(fx_predict(&f, first), hang));
	first.verbs.laddr -= 1000; /* from byte 3000, 2000 bytes: bad at byte 1096, in the second packet of */
	first.verbs.len = 2000;    /* the harness's 1024-byte path MTU: RNR allowed, no hang (seen twice) */
	ck_assert(fx_has(fx_predict(&f, first), wc_(M_WC_RNR_RETRY_EXC_ERR)) && !fx_has(fx_predict(&f, first), hang));
	first.verbs.laddr -= 1000; /* from byte 2000, 3000 bytes: bad at 2096, in the third: it may hang */
	first.verbs.len = 3000;
	ck_assert(fx_has(fx_predict(&f, first), wc_(M_WC_RNR_RETRY_EXC_ERR)) && fx_has(fx_predict(&f, first), hang));
	first.verbs.laddr += 1000;
	first.verbs.laddr -= 2992; /* explore's (2026-12-06): 4152 bytes from byte 8, bad at 4088: hung 3 times */
	first.verbs.len = 4152;
	ck_assert(fx_has(fx_predict(&f, first), hang) && fx_has(fx_predict(&f, first), wc_(M_WC_LOC_PROT_ERR)));
	first.verbs.laddr += 3900; /* from byte 3908, 200 bytes: bad at 188, inside any first packet */
	first.verbs.len = 200;
	ck_assert(!fx_has(fx_predict(&f, first), hang));
	ck_assert(!fx_has(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 4096)), hang)); /* inside its MR */
	f.p.kernel = KVER(6, 8);
	ck_assert(!fx_has(fx_predict(&f, snd), hang));
	f.p.kernel = KVER(6, 1);
	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 4096), ok_()); /* a receive posted: no RNR NAK */
	ck_assert(!fx_has(fx_predict(&f, snd), hang));
	model_free(&f.m);
	s = fx_pair(&f, "generic", 2);
	ck_assert(!fx_has(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 8192)), hang));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_2_zero_length_sge)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 0);

	w.verbs.lkey = 0xbad;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_has(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_2));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

/* IBV_SEND_INLINE on a READ (rdma-unit-test SendInlineDataInvalidOp, a garbage lkey): refused at
 * the post, or an error completion that puts the QP in ERR; the target untouched. */
START_TEST(test_LP_9_inline_on_read)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op op = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 64);
	struct m_pred pr;

	op.verbs.send_inline = 1;
	op.verbs.lkey = 0xdeadbeef;
	ck_assert_int_eq(model_mr_set(&f.m, 1, s.mb, 0, 0x42, 1), 0);
	pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) &&
		  fx_has(pr, wc_(M_WC_LOC_PROT_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LP_9));
	fx_do(&f, op, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	ck_assert_int_eq(model_mr_byte(&f.m, 1, s.mb, 0), 0x42);
	model_free(&f.m);
	/* rxe 6.1 sends it as a READ (RXEU init_send_wqe): 64 bytes land in the caller's inline bytes
	 * read as SGEs, LOC_PROT_ERR (verbs/302); zero bytes complete; the responder's errors and
	 * RA-RES-2's hang come first, as for any READ. */
	s = fx_pair(&f, "rxe", 2);
	op = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 64);
	op.verbs.send_inline = 1;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)) && fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_9));
	op.verbs.len = 0;
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	op.verbs.len = 64;
	op.verbs.rkey ^= 0x55; /* a key the responder has no MR for: its NAK, not the local error */
	pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)) && !fx_has(pr, wc_(M_WC_LOC_PROT_ERR)));
	f.p.kernel = KVER(6, 8); /* only 6.1's deviation: the specification's reading elsewhere */
	ck_assert(fx_has(fx_predict(&f, op), err_(EINVAL)));
	model_free(&f.m);
	/* Without the flag the same READ is LP-6's: its result into a bad lkey, no refusal at the post. */
	s = fx_pair(&f, "generic", 2);
	op = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 64);
	op.verbs.lkey = 0xdeadbeef;
	ck_assert(!fx_has(fx_predict(&f, op), err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_6_read_into_read_only)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 0, s.pa, 4096, M_ACC_REMOTE_READ);
	struct m_op r = op_rdma(&f, M_OP_READ, 0, s.qa, ro, 0, 1, s.mb, 0, 64);
	struct m_pred pr = fx_predict(&f, r);

	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_6));
	ck_assert(fx_only(fx_predict(&f, R(0, 64)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_6_atomic_result_into_read_only)
{
	/* The responder executes the atomic before the requester finds that it
	 * cannot write the result: the target changes, the local buffer not. */
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 0, s.pa, 4096, 0);
	struct m_op c = op_rdma(&f, M_OP_FADD, 0, s.qa, ro, 0, 1, s.mb, 8, 8);

	c.verbs.swap = 5;
	model_mr_set(&f.m, 0, ro, 0, 0x77, 1);
	model_mr_set(&f.m, 1, s.mb, 8, 2, 1);
	struct m_pred pr = fx_predict(&f, c);
	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_6));
	ck_assert(pr.alt[0].remote_done);
	fx_do(&f, c, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 8), 7);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, ro, 0), 0x77);
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	/* A READ into the same buffer leaves the responder's memory alone. */
	model_free(&f.m);
	s = fx_pair(&f, "generic", 2);
	ro = fx_mr(&f, 0, s.pa, 4096, 0);
	pr = fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, ro, 0, 1, s.mb, 0, 8));
	ck_assert(!pr.alt[0].remote_done);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_4_empty_send_into_bad_receive_may_succeed)
{
	/* Found by explore on rxe 6.1: a zero-length SEND into a receive whose
	 * lkey is stale completes SUCCESS (no byte of it is touched, LP-2). */
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op rv = op_send(&f, 1, s.qb, s.mb, 64);
	struct m_pred pr;

	rv.kind = M_OP_RECV;
	rv.verbs.lkey ^= 0x77;
	fx_do(&f, rv, ok_());
	pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 0));
	ck_assert(fx_has(pr, wc_(M_WC_REM_OP_ERR)) && fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_LP_2));
	/* one byte: the buffer is needed, the error only */
	ck_assert(!fx_has(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 1)), wc_(M_WC_SUCCESS)));
	fx_do(&f, op_send(&f, 0, s.qa, s.ma, 0), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 0); /* the receive was consumed */
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_4_receive_buffer_without_local_write)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 1, s.pb, 64, M_ACC_REMOTE_READ);

	fx_do(&f, op_recv(&f, 1, s.qb, ro, 64), ok_());
	struct m_pred pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 16));
	ck_assert(fx_only(pr, wc_(M_WC_REM_OP_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_OP_ERR), M_RULE_LP_4));
	ck_assert_uint_eq(pr.n, 2); /* responder: LOC_PROT_ERR or LOC_QP_OP_ERR */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 16));
	ck_assert_uint_eq(pr.n, 1);
	ck_assert_int_eq(pr.alt[0].peer_recv, M_WC_LOC_QP_OP_ERR);
	fx_do(&f, op_send(&f, 0, s.qa, s.ma, 16), wc_(M_WC_REM_OP_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_5_send_longer_than_receive)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 4), ok_());
	struct m_pred pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 64));
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_LP_5));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 64)), wc_(M_WC_REM_OP_ERR))); /* F */
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 4)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_receive_queue_full)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	struct m_pred pr;

	/* Up to the depth asked for (default 16) every post is accepted. */
	for (int i = 0; i < M_RECV_DEPTH_DEFAULT; i++) {
		ck_assert(fx_only(fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8)), ok_()));
		fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 8), ok_());
	}
	/* Beyond it the provider may have rounded the queue up, to less than twice. */
	for (int i = M_RECV_DEPTH_DEFAULT; i < 2 * M_RECV_DEPTH_DEFAULT; i++) {
		pr = fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8));
		ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(ENOMEM)));
		fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 8), ok_());
	}
	pr = fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8));
	ck_assert(fx_only(pr, err_(ENOMEM)));
	ck_assert(fx_rule(pr, err_(ENOMEM), M_RULE_LP_7));
	fx_do(&f, op_send(&f, 0, s.qa, s.ma, 8), wc_(M_WC_SUCCESS)); /* consumes one */
	ck_assert(fx_has(fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8)), ok_()));
	model_free(&f.m);
	/* A QP that asks for a depth of 2. */
	s = fx_pair(&f, "generic", 2);
	struct m_op cq = { .kind = M_OP_CREATE_QP, .node = 1, .verbs.pd = (int16_t)s.pb, .verbs.access = QP_ALL,
			   .verbs.max_recv_wr = 2 };
	int q2 = fx_do(&f, cq, ok_());
	fx_connect(&f, 0, fx_qp(&f, 0, s.pa, QP_ALL), 1, q2);
	fx_do(&f, op_recv(&f, 1, q2, s.mb, 8), ok_());
	fx_do(&f, op_recv(&f, 1, q2, s.mb, 8), ok_());
	ck_assert(fx_has(fx_predict(&f, op_recv(&f, 1, q2, s.mb, 8)), err_(ENOMEM)));
	cq.verbs.max_recv_wr = M_RECV_DEPTH_MAX + 1; /* beyond what the language lets a QP ask for */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &cq, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post_local(void)
{
	Suite *s = suite_create("model_post_local");
	TCase *tc = tcase_create("local");

	RTEST(tc, LP_1, test_LP_1_bad_lkey_and_range);
	RTEST(tc, LP_1, test_LP_1_foreign_pd_lkey_is_loc_prot_err);
	RTEST(tc, LP_2, test_LP_2_zero_length_sge);
	RTEST(tc, LP_6, test_LP_6_read_into_read_only);
	RTEST(tc, LP_6, test_LP_6_atomic_result_into_read_only);
	RTEST(tc, LP_4, test_LP_4_receive_buffer_without_local_write);
	RTEST(tc, LP_4, test_LP_4_empty_send_into_bad_receive_may_succeed);
	RTEST(tc, LP_5, test_LP_5_send_longer_than_receive);
	RTEST(tc, LP_7, test_LP_7_receive_queue_full);
	RTEST(tc, LP_8, test_LP_8_later_packet_overrun_after_remote_error);
	RTEST(tc, LP_8, test_LP_8_send_overrun_into_rnr_may_hang_on_rxe_6_1);
	RTEST(tc, LP_9, test_LP_9_inline_on_read);
	suite_add_tcase(s, tc);
	return s;
}

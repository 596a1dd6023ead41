/*
 * Unit tests of the model: the capabilities query_qp reports (model/verbs/
 * qpcaps.c). ibv_create_qp(3): the QP's capabilities are at least those asked
 * for (a provider may round them up), so each is an "at least" result: the
 * send queue's depth and the receive queue's (LP-7), one SGE each (the harness
 * asks for one), max_inline_data (LP-3); a QP that takes its receives from an
 * SRQ has no receive queue of its own to report.
 */
#include "tests/unit/model_fx.h"


static struct m_qres query(struct fx *f, int qp)
{
	struct m_qres q = { 0 };

	ck_assert_int_eq(model_query(&f->m, &f->p, &(struct m_op){ .kind = M_OP_QUERY_QP, .obj = (int16_t)qp }, &q), 0);
	return q;
}

START_TEST(test_LP_7_query_qp_caps_at_least_asked)
{
	struct fx f;
	int pd, q, d;
	struct m_qres r;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	q = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .verbs.pd = (int16_t)pd, .verbs.access = QP_ALL,
				     .verbs.max_send_wr = 8, .verbs.max_recv_wr = 4, .verbs.max_inline = 96 }, ok_());
	d = fx_qp(&f, 0, pd, QP_ALL); /* nothing asked: the harness's defaults */
	r = query(&f, q);
	static const struct {
		const char *key;
		uint64_t v;
	} want[] = { { "max_send_wr", 8 }, { "max_recv_wr", 4 }, { "max_send_sge", 1 }, { "max_recv_sge", 1 },
		     { "max_inline", 96 } };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int j = fx_qres_index(&r, want[i].key);

		ck_assert_msg(j >= 0, "no %s", want[i].key);
		ck_assert_int_eq(r.r[j].mode, M_Q_ATLEAST);
		ck_assert_uint_eq(r.r[j].value, want[i].v);
		ck_assert(model_qres_ok(&r, (size_t)j, want[i].v));
		ck_assert(model_qres_ok(&r, (size_t)j, want[i].v + 100)); /* rounded up */
		ck_assert(!model_qres_ok(&r, (size_t)j, want[i].v - 1));
	}
	r = query(&f, d);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_send_wr")].value, M_SEND_DEPTH_DEFAULT);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_recv_wr")].value, M_RECV_DEPTH_DEFAULT);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_inline")].value, 0);
	ck_assert_int_eq(r.r[fx_qres_index(&r, "state")].mode, M_Q_EXACT);
	model_free(&f.m);
}
END_TEST

/* cap.max_send_wr and max_recv_wr asked as 0 (rdma-unit-test QpTest.ZeroSendWr): the QP is made and
 * reports at least 0; its queues are full from the start, as a provider rounds a depth up to less
 * than twice the request (LP-7): every post ENOMEM, the QP unchanged. */
START_TEST(test_LP_7_zero_send_and_recv_wr)
{
	struct fx f;
	int pa, pb, ma, mb, qa, qb;
	struct m_qres r;
	struct m_pred pr;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 4096, RW);
	mb = fx_mr(&f, 1, pb, 4096, RW);
	qa = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .verbs.pd = (int16_t)pa, .verbs.access = QP_ALL,
				      .verbs.zero_wr = M_ZERO_SEND_WR | M_ZERO_RECV_WR }, ok_());
	qb = fx_qp(&f, 1, pb, QP_ALL);
	r = query(&f, qa);
	for (size_t i = 0; i < 2; i++) {
		int j = fx_qres_index(&r, i ? "max_recv_wr" : "max_send_wr");

		ck_assert_int_eq(r.r[j].mode, M_Q_ATLEAST);
		ck_assert_uint_eq(r.r[j].value, 0);
	}
	fx_connect(&f, 0, qa, 1, qb);
	pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 64));
	ck_assert(fx_only(pr, err_(ENOMEM)));
	ck_assert(fx_rule(pr, err_(ENOMEM), M_RULE_LP_7));
	struct m_op rv = op_rdma(&f, M_OP_RECV, 0, qa, ma, 0, 1, mb, 0, 64);

	ck_assert(fx_only(fx_predict(&f, rv), err_(ENOMEM)));
	/* Only the queue asked as 0: the send queue of a QP whose receive queue is 0 takes WRs. */
	qa = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .verbs.pd = (int16_t)pa, .verbs.access = QP_ALL,
				      .verbs.zero_wr = M_ZERO_RECV_WR }, ok_());
	qb = fx_qp(&f, 1, pb, QP_ALL);
	fx_connect(&f, 0, qa, 1, qb);
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 64)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_query_qp_on_srq_has_no_receive_queue)
{
	struct fx f;
	int pd, s, q, j;
	struct m_qres r;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	s = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_SRQ, .verbs.pd = (int16_t)pd, .verbs.max_recv_wr = 4 }, ok_());
	q = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .verbs.pd = (int16_t)pd, .verbs.access = QP_ALL,
				     .verbs.srq1 = (uint8_t)(s + 1) }, ok_());
	r = query(&f, q);
	j = fx_qres_index(&r, "max_recv_wr");
	ck_assert_int_ge(j, 0);
	ck_assert_int_eq(r.r[j].mode, M_Q_ANY);
	ck_assert(model_qres_ok(&r, (size_t)j, 0));
	model_free(&f.m);
}
END_TEST

static int mode_of(const struct m_qres *r, const char *key)
{
	int j = fx_qres_index(r, key);

	ck_assert_msg(j >= 0, "no %s", key);
	return r->r[j].mode;
}

/* max_rd_atomic and max_dest_rd_atomic: at least what connect asked (RTR/RTS: 1), anything before. */
START_TEST(test_RA_RES_1_query_qp_rd_atomic_at_least_asked)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2); /* connected with both 1, what the harness gives when none is asked */
	int pd = fx_pd(&f, 0), q = fx_qp(&f, 0, pd, QP_ALL), p1 = fx_qp(&f, 1, s.pb, QP_ALL);
	struct m_qres r = query(&f, s.qa);

	ck_assert_int_eq(mode_of(&r, "max_rd_atomic"), M_Q_ATLEAST);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_rd_atomic")].value, 1);
	ck_assert_int_eq(mode_of(&r, "max_dest_rd_atomic"), M_Q_ATLEAST);
	r = query(&f, q);
	ck_assert_int_eq(mode_of(&r, "max_rd_atomic"), M_Q_ANY); /* RESET: not set yet */
	ck_assert_int_eq(mode_of(&r, "max_dest_rd_atomic"), M_Q_ANY);
	/* connect max_rd_atomic=12 max_dest_rd_atomic=12 (pyverbs test_modify_rc_qp_rd_atomic) */
	fx_do(&f, (struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)q, .verbs.peer_node = 1,
				 .verbs.peer_qp = (int16_t)p1, .verbs.max_rd_atomic = 12, .verbs.max_dest_rd_atomic = 12 },
	      ok_());
	r = query(&f, q);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_rd_atomic")].value, 12);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_dest_rd_atomic")].value, 12);
	ck_assert(model_qres_ok(&r, (size_t)fx_qres_index(&r, "max_dest_rd_atomic"), 16)); /* rxe: a power of two */
	ck_assert(!model_qres_ok(&r, (size_t)fx_qres_index(&r, "max_rd_atomic"), 11));
	/* RESET forgets them; RTR sets max_dest_rd_atomic 1, RTS max_rd_atomic 1 */
	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .obj = (int16_t)q, .verbs.qp_state = M_QPS_RESET }, ok_());
	ck_assert_int_eq(mode_of((r = query(&f, q), &r), "max_rd_atomic"), M_Q_ANY);
	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .obj = (int16_t)q, .verbs.qp_state = M_QPS_INIT }, ok_());
	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .obj = (int16_t)q, .verbs.qp_state = M_QPS_RTR,
				 .verbs.peer_node = 1, .verbs.peer_qp = (int16_t)p1 }, ok_());
	r = query(&f, q);
	ck_assert_int_eq(mode_of(&r, "max_dest_rd_atomic"), M_Q_ATLEAST);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_dest_rd_atomic")].value, 1);
	ck_assert_int_eq(mode_of(&r, "max_rd_atomic"), M_Q_ANY);
	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .obj = (int16_t)q, .verbs.qp_state = M_QPS_RTS }, ok_());
	r = query(&f, q);
	ck_assert_int_eq(mode_of(&r, "max_rd_atomic"), M_Q_ATLEAST);
	ck_assert_uint_eq(r.r[fx_qres_index(&r, "max_rd_atomic")].value, 1);
	model_free(&f.m);
}
END_TEST

/* A READ or an atomic with an initiator depth of 0 (connect max_rd_atomic=0): the generic reading runs it
 * as any other; rxe 6.1 never sends it (the step never ends); a WRITE needs no credit; a READ left
 * outstanding (wait=no) or unsignaled is not modelled. */
START_TEST(test_RA_RES_2_read_with_initiator_depth_zero)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int cq = fx_cq(&f, 0, 16), qa = fx_qp_cq(&f, 0, s.pa, cq, 0), qb = fx_qp(&f, 1, s.pb, QP_ALL);

	fx_do(&f, (struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)qa, .verbs.peer_node = 1,
				 .verbs.peer_qp = (int16_t)qb, .verbs.max_rd_atomic = 0, .verbs.max_dest_rd_atomic = 1 },
	      ok_());
	struct m_op rd = op_rdma(&f, M_OP_READ, 0, qa, s.ma, 0, 1, s.mb, 0, 64);
	struct m_op cas = op_rdma(&f, M_OP_CAS, 0, qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_pred pr = fx_predict(&f, rd);

	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_RES_2));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, rd), (struct m_outcome){ M_OUT_HANG, 0 }));
	ck_assert(fx_only(fx_predict(&f, cas), (struct m_outcome){ M_OUT_HANG, 0 }));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, qa, s.ma, 0, 1, s.mb, 0, 64)), wc_(M_WC_SUCCESS)));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 64)), wc_(M_WC_SUCCESS)));
	rd.verbs.nowait = 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &rd, &pr), -EOPNOTSUPP);
	rd.verbs.nowait = 0;
	rd.verbs.unsignaled = 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &rd, &pr), -EOPNOTSUPP);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_qpcaps(void)
{
	Suite *s = suite_create("model_qpcaps");
	TCase *tc = tcase_create("caps");

	tcase_add_test(tc, test_LP_7_query_qp_caps_at_least_asked);
	tcase_add_test(tc, test_LP_7_query_qp_on_srq_has_no_receive_queue);
	tcase_add_test(tc, test_LP_7_zero_send_and_recv_wr);
	tcase_add_test(tc, test_RA_RES_1_query_qp_rd_atomic_at_least_asked);
	RTEST(tc, RA_RES_2, test_RA_RES_2_read_with_initiator_depth_zero);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: completion queues (model/verbs/cq.c) — CQ
 * objects, unsignaled WRs, the completions a CQ holds and poll_cq's order,
 * flushed receives (CQ-CREATE-1, CQ-DESTROY-1, CQ-POLL-1, RA-ERR-2).
 */
#include "tests/unit/model_fx.h"

static struct m_op op_poll(int node, int cq, uint32_t max)
{
	struct m_op op = op_obj(M_OP_POLL_CQ, node, cq);

	op.verbs.max_wc = max;
	return op;
}

/* Poll cq and return what the query reports. */
static struct m_qres fx_poll(struct fx *f, int node, int cq, uint32_t max)
{
	struct m_op op = op_poll(node, cq, max);
	struct m_qres q = { 0 };

	fx_do(f, op, ok_());
	ck_assert_int_eq(model_query(&f->m, &f->p, &op, &q), 0);
	return q;
}

/* The value of result key in q (it must be there, exact). */
static uint64_t qv(const struct m_qres *q, const char *key)
{
	for (unsigned i = 0; i < q->n; i++)
		if (strcmp(q->r[i].key, key) == 0) {
			ck_assert_int_eq(q->r[i].mode, M_Q_EXACT);
			return q->r[i].value;
		}
	ck_abort_msg("no result %s", key);
	return 0;
}

/* The mode in which q reports key (it must be there). */
static enum m_qmode qmode(const struct m_qres *q, const char *key)
{
	for (unsigned i = 0; i < q->n; i++)
		if (strcmp(q->r[i].key, key) == 0)
			return (enum m_qmode)q->r[i].mode;
	ck_abort_msg("no result %s", key);
	return M_Q_ANY;
}

/* Two nodes, connected QPs completing into one CQ per node (cqa, cqb). */
struct cqpair { struct pair s; int cqa, cqb; };
static struct cqpair fx_cqpair(struct fx *f, uint32_t depth, int sig_all)
{
	struct cqpair c;

	fx_init(f, 2, "generic");
	c.s.pa = fx_pd(f, 0);
	c.s.pb = fx_pd(f, 1);
	c.s.ma = fx_mr(f, 0, c.s.pa, 4096, RW);
	c.s.mb = fx_mr(f, 1, c.s.pb, 4096, RW);
	c.cqa = fx_cq(f, 0, depth);
	c.cqb = fx_cq(f, 1, depth);
	c.s.qa = fx_qp_cq(f, 0, c.s.pa, c.cqa, sig_all);
	c.s.qb = fx_qp_cq(f, 1, c.s.pb, c.cqb, 0);
	fx_connect(f, 0, c.s.qa, 1, c.s.qb);
	return c;
}

static struct m_op op_write(struct fx *f, const struct pair *s, uint32_t wr_id, int unsignaled)
{
	struct m_op w = op_rdma(f, M_OP_WRITE, 0, s->qa, s->ma, 0, 1, s->mb, 0, 8);

	w.verbs.wr_id = wr_id;
	w.verbs.unsignaled = (uint8_t)unsignaled;
	return w;
}

START_TEST(test_CQ_CREATE_1_depth_zero_is_einval)
{
	struct fx f;
	struct m_op op = { .kind = M_OP_CREATE_CQ, .obj = -1 };
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_CQ_CREATE_1));
	op.verbs.cq_depth = 1;
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_CQ_CREATE_1));
	op.verbs.cq_depth = M_CQ_DEPTH_MAX + 1; /* more than the model holds: malformed */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_DESTROY_1_busy_while_a_qp_uses_it)
{
	struct fx f;
	struct m_pred pr;
	int pd, cq, q;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	cq = fx_cq(&f, 0, 4);
	q = fx_qp_cq(&f, 0, pd, cq, 0);
	pr = fx_predict(&f, op_obj(M_OP_DESTROY_CQ, 0, cq));
	ck_assert(fx_only(pr, err_(EBUSY)));
	ck_assert(fx_rule(pr, err_(EBUSY), M_RULE_CQ_DESTROY_1));
	fx_do(&f, op_obj(M_OP_DESTROY_CQ, 0, cq), err_(EBUSY));
	fx_poll(&f, 0, cq, 1); /* still usable */
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, q), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DESTROY_CQ, 0, cq));
	ck_assert(fx_rule(pr, ok_(), M_RULE_CQ_DESTROY_1));
	fx_do(&f, op_obj(M_OP_DESTROY_CQ, 0, cq), ok_());
	/* A QP cannot be created on a destroyed CQ (malformed for the model: the parser knows it is gone). */
	struct m_op cr = { .kind = M_OP_CREATE_QP, .obj = -1, .verbs.pd = (int16_t)pd, .verbs.scq = (int16_t)(cq + 1) };

	ck_assert_int_eq(model_predict(&f.m, &f.p, &cr, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_POLL_1_signaled_and_failing_wrs_in_order)
{
	struct fx f;
	struct cqpair c = fx_cqpair(&f, 16, 0);
	struct m_op bad;
	struct m_pred pr;
	struct m_qres q;

	fx_do(&f, op_write(&f, &c.s, 1, 0), wc_(M_WC_SUCCESS));
	/* Unsignaled and good: no completion, the post is ok. */
	pr = fx_predict(&f, op_write(&f, &c.s, 2, 1));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_CQ_POLL_1));
	fx_do(&f, op_write(&f, &c.s, 2, 1), ok_());
	/* Unsignaled and failing: a completion all the same (RA-ERR-2). */
	bad = op_write(&f, &c.s, 3, 1);
	bad.verbs.rkey = 0;
	fx_do(&f, bad, wc_(M_WC_REM_ACCESS_ERR));
	q = fx_poll(&f, 0, c.cqa, 1);
	ck_assert_int_eq(qv(&q, "n"), 1);
	ck_assert_int_eq(qv(&q, "wr1"), 1);
	ck_assert_int_eq(qv(&q, "status1"), M_WC_SUCCESS);
	q = fx_poll(&f, 0, c.cqa, 4);
	ck_assert_int_eq(qv(&q, "n"), 1);
	ck_assert_int_eq(qv(&q, "wr1"), 3);
	ck_assert_int_eq(qv(&q, "status1"), M_WC_REM_ACCESS_ERR);
	q = fx_poll(&f, 0, c.cqa, 4);
	ck_assert_int_eq(qv(&q, "n"), 0);
	model_free(&f.m);

	/* sq_sig_all: every WR completes, signaled=no or not. */
	c = fx_cqpair(&f, 16, 1);
	ck_assert(fx_only(fx_predict(&f, op_write(&f, &c.s, 2, 1)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_POLL_1_overrun_is_undefined)
{
	struct fx f;
	struct cqpair c = fx_cqpair(&f, 1, 0);
	struct m_qres q = { 0 };
	struct m_op op = op_poll(0, c.cqa, 4);

	fx_do(&f, op_write(&f, &c.s, 1, 0), wc_(M_WC_SUCCESS));
	fx_do(&f, op_write(&f, &c.s, 2, 0), wc_(M_WC_SUCCESS));
	fx_do(&f, op, ok_());
	ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
	ck_assert_int_eq(q.r[0].mode, M_Q_ANY);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_2_receives_flushed_into_the_recv_cq)
{
	struct fx f;
	struct cqpair c = fx_cqpair(&f, 16, 0);
	struct m_op rv = { .kind = M_OP_RECV, .node = 1, .obj = (int16_t)c.s.qb, .verbs.len = 64 };
	struct m_op snd = op_rdma(&f, M_OP_SEND, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8);
	struct m_op mod = op_obj(M_OP_MODIFY_QP, 1, c.s.qb);
	struct m_qres q;

	rv.verbs.lkey = f.m.node[1].mr[c.s.mb].lkey;
	rv.verbs.laddr = model_mr_laddr(&f.m, 1, c.s.mb, 0);
	for (uint32_t id = 10; id < 13; id++) {
		rv.verbs.wr_id = id;
		fx_do(&f, rv, ok_());
	}
	snd.verbs.wr_id = 5;
	fx_do(&f, snd, wc_(M_WC_SUCCESS)); /* consumes receive 10 */
	mod.verbs.qp_state = M_QPS_ERR;
	fx_do(&f, mod, ok_());
	q = fx_poll(&f, 1, c.cqb, 4);
	ck_assert_int_eq(qv(&q, "n"), 3);
	ck_assert_int_eq(qv(&q, "wr1"), 10);
	ck_assert_int_eq(qv(&q, "status1"), M_WC_SUCCESS);
	ck_assert_int_eq(qv(&q, "wr2"), 11);
	ck_assert_int_eq(qv(&q, "status2"), M_WC_WR_FLUSH_ERR);
	ck_assert_int_eq(qv(&q, "wr3"), 12);
	ck_assert_int_eq(qv(&q, "status3"), M_WC_WR_FLUSH_ERR);
	/* The sender's CQ has its SEND. */
	q = fx_poll(&f, 0, c.cqa, 4);
	ck_assert_int_eq(qv(&q, "n"), 1);
	ck_assert_int_eq(qv(&q, "wr1"), 5);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_5_receive_posted_in_err)
{
	for (int rxe = 0; rxe <= 1; rxe++) {
		struct fx f;
		struct cqpair c = fx_cqpair(&f, 16, 0);
		struct m_op rv = { .kind = M_OP_RECV, .node = 1, .obj = (int16_t)c.s.qb, .verbs.len = 64, .verbs.wr_id = 9 };
		struct m_op mod = op_obj(M_OP_MODIFY_QP, 1, c.s.qb);
		struct m_qres q;

		ck_assert_int_eq(m_profile_get(rxe ? "rxe" : "generic", 0, &f.p), 0);
		rv.verbs.lkey = f.m.node[1].mr[c.s.mb].lkey;
		rv.verbs.laddr = model_mr_laddr(&f.m, 1, c.s.mb, 0);
		mod.verbs.qp_state = M_QPS_ERR;
		fx_do(&f, mod, ok_());
		fx_do(&f, rv, ok_());
		q = fx_poll(&f, 1, c.cqb, 4);
		/* generic: flushed at once; rxe 6.1: no completion, it stays posted */
		ck_assert_int_eq(qv(&q, "n"), rxe ? 0 : 1);
		ck_assert_int_eq(f.m.node[1].qp[c.s.qb].nrecv, rxe ? 1 : 0);
		if (!rxe)
			ck_assert_int_eq(qv(&q, "status1"), M_WC_WR_FLUSH_ERR);
		model_free(&f.m);
	}
}
END_TEST

/* A successful completion reports its opcode and, where defined, byte_len; an error one neither. */
START_TEST(test_RA_ERR_4_error_completion_promises_no_opcode_or_length)
{
	struct fx f;
	struct cqpair c = fx_cqpair(&f, 16, 0);
	struct m_op rd = op_rdma(&f, M_OP_READ, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 64);
	struct m_op bad = op_write(&f, &c.s, 3, 0);
	struct m_op rv = { .kind = M_OP_RECV, .node = 1, .obj = (int16_t)c.s.qb, .verbs.len = 64, .verbs.wr_id = 20 };
	struct m_op snd = op_rdma(&f, M_OP_SEND, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 24);
	struct m_qres q;

	rv.verbs.lkey = f.m.node[1].mr[c.s.mb].lkey;
	rv.verbs.laddr = model_mr_laddr(&f.m, 1, c.s.mb, 0);
	fx_do(&f, rv, ok_());
	fx_do(&f, rv, ok_());
	rd.verbs.wr_id = 1;
	fx_do(&f, rd, wc_(M_WC_SUCCESS));
	fx_do(&f, op_write(&f, &c.s, 2, 0), wc_(M_WC_SUCCESS));
	snd.verbs.wr_id = 4;
	fx_do(&f, snd, wc_(M_WC_SUCCESS)); /* the first receive: 24 bytes */
	bad.verbs.rkey = 0;
	fx_do(&f, bad, wc_(M_WC_REM_ACCESS_ERR)); /* both QPs to ERR: the second receive flushed */
	ck_assert(!fx_rule(fx_predict(&f, op_poll(0, c.cqa, 3)), ok_(), M_RULE_RA_ERR_4)); /* all successful */
	ck_assert(fx_rule(fx_predict(&f, op_poll(0, c.cqa, 4)), ok_(), M_RULE_RA_ERR_4));
	q = fx_poll(&f, 0, c.cqa, 4);
	ck_assert_int_eq(qv(&q, "n"), 4);
	ck_assert_int_eq(qv(&q, "opcode1"), M_WCO_RDMA_READ);
	ck_assert_int_eq(qv(&q, "byte_len1"), 64);
	ck_assert_int_eq(qv(&q, "opcode2"), M_WCO_RDMA_WRITE);
	ck_assert_int_eq(qmode(&q, "byte_len2"), M_Q_ANY); /* a WRITE's send completion states none */
	ck_assert_int_eq(qv(&q, "opcode3"), M_WCO_SEND);
	ck_assert_int_eq(qv(&q, "status4"), M_WC_REM_ACCESS_ERR);
	ck_assert_int_eq(qmode(&q, "opcode4"), M_Q_ANY);
	ck_assert_int_eq(qmode(&q, "byte_len4"), M_Q_ANY);
	q = fx_poll(&f, 1, c.cqb, 4);
	ck_assert_int_eq(qv(&q, "n"), 2);
	ck_assert_int_eq(qv(&q, "opcode1"), M_WCO_RECV);
	ck_assert_int_eq(qv(&q, "byte_len1"), 24);
	ck_assert_int_eq(qv(&q, "status2"), M_WC_WR_FLUSH_ERR);
	ck_assert_int_eq(qmode(&q, "opcode2"), M_Q_ANY);
	ck_assert_int_eq(qmode(&q, "byte_len2"), M_Q_ANY);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_RESIZE_1_at_least_what_it_holds)
{
	struct fx f;
	struct cqpair c = fx_cqpair(&f, 3, 0);
	struct m_op rs = op_obj(M_OP_RESIZE_CQ, 0, c.cqa);
	struct m_qres q = { 0 };

	rs.verbs.cq_depth = 1;
	ck_assert(fx_rule(fx_predict(&f, rs), ok_(), M_RULE_CQ_RESIZE_1));
	ck_assert(fx_only(fx_predict(&f, rs), ok_()));
	fx_do(&f, rs, ok_());
	ck_assert_int_eq(model_query(&f.m, &f.p, &rs, &q), 0);
	ck_assert_int_eq(qmode(&q, "cqe"), M_Q_ATLEAST);
	ck_assert_uint_eq(q.r[0].value, 1);
	rs.verbs.cq_depth = 0;
	ck_assert(fx_only(fx_predict(&f, rs), err_(EINVAL)));
	rs.verbs.cq_depth = 7;
	fx_do(&f, rs, ok_());
	/* Two completions not polled: resizing to one is EINVAL, or taken when the harness took them. */
	fx_do(&f, op_write(&f, &c.s, 1, 0), wc_(M_WC_SUCCESS));
	fx_do(&f, op_write(&f, &c.s, 2, 0), wc_(M_WC_SUCCESS));
	rs.verbs.cq_depth = 1;
	ck_assert(fx_has(fx_predict(&f, rs), err_(EINVAL)));
	ck_assert(fx_has(fx_predict(&f, rs), ok_()));
	rs.verbs.cq_depth = 2;
	ck_assert(fx_only(fx_predict(&f, rs), ok_()));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_cq(void)
{
	Suite *s = suite_create("model_cq");
	TCase *tc = tcase_create("cq");

	RTEST(tc, CQ_CREATE_1, test_CQ_CREATE_1_depth_zero_is_einval);
	RTEST(tc, CQ_DESTROY_1, test_CQ_DESTROY_1_busy_while_a_qp_uses_it);
	RTEST(tc, CQ_POLL_1, test_CQ_POLL_1_signaled_and_failing_wrs_in_order);
	RTEST(tc, CQ_POLL_1, test_CQ_POLL_1_overrun_is_undefined);
	RTEST(tc, CQ_RESIZE_1, test_CQ_RESIZE_1_at_least_what_it_holds);
	RTEST(tc, RA_ERR_2, test_RA_ERR_2_receives_flushed_into_the_recv_cq);
	RTEST(tc, RA_ERR_5, test_RA_ERR_5_receive_posted_in_err);
	RTEST(tc, RA_ERR_4, test_RA_ERR_4_error_completion_promises_no_opcode_or_length);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: completion channels and CQ notification
 * (model/verbs/chan.c) — CHAN-1, CQ-CREATE-2, CQ-NOTIFY-1, CQ-EVENT-1.
 */
#include "tests/unit/post_fx.h"

#include <string.h>

static int fx_chan(struct fx *f, int node)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_COMP_CHANNEL, .node = (uint8_t)node, .obj = -1 }, ok_());
}

static int fx_cq_on(struct fx *f, int node, int chan)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_CQ, .node = (uint8_t)node, .obj = -1, .verbs.cq_depth = 10,
				       .verbs.chan1 = (uint8_t)(chan + 1) }, ok_());
}

static void fx_arm(struct fx *f, int node, int cq, int solicited)
{
	struct m_op op = op_obj(M_OP_REQ_NOTIFY_CQ, node, cq);

	op.verbs.solicited = (uint8_t)solicited;
	fx_do(f, op, ok_());
}

/* get_cq_event on chan: its results n and cq (cq 0 when none is reported); *mode the mode of n. */
static unsigned fx_get(struct fx *f, int node, int chan, unsigned *cq, enum m_qmode *mode)
{
	struct m_op op = op_obj(M_OP_GET_CQ_EVENT, node, chan);
	struct m_qres q = { 0 };
	unsigned n = 99;

	fx_do(f, op, ok_());
	ck_assert_int_eq(model_query(&f->m, &f->p, &op, &q), 0);
	*cq = 0;
	for (unsigned i = 0; i < q.n; i++) {
		if (strcmp(q.r[i].key, "n") == 0) {
			n = (unsigned)q.r[i].value;
			*mode = (enum m_qmode)q.r[i].mode;
		} else if (strcmp(q.r[i].key, "cq") == 0) {
			*cq = (unsigned)q.r[i].value;
		}
	}
	ck_assert_uint_ne(n, 99);
	return n;
}

/* Two nodes, a channel and a CQ on it per node, connected QPs completing into them. */
struct chpair { struct pair s; int cha, chb, cqa, cqb; };
static struct chpair fx_chpair(struct fx *f)
{
	struct chpair c;

	fx_init(f, 2, "generic");
	c.s.pa = fx_pd(f, 0);
	c.s.pb = fx_pd(f, 1);
	c.s.ma = fx_mr(f, 0, c.s.pa, 4096, RW);
	c.s.mb = fx_mr(f, 1, c.s.pb, 4096, RW);
	c.cha = fx_chan(f, 0);
	c.chb = fx_chan(f, 1);
	c.cqa = fx_cq_on(f, 0, c.cha);
	c.cqb = fx_cq_on(f, 1, c.chb);
	c.s.qa = fx_qp_cq(f, 0, c.s.pa, c.cqa, 0);
	c.s.qb = fx_qp_cq(f, 1, c.s.pb, c.cqb, 0);
	fx_connect(f, 0, c.s.qa, 1, c.s.qb);
	return c;
}

/* A receive at b, then a SEND from a (solicited or not) that it takes. */
static void fx_sendrecv(struct fx *f, const struct chpair *c, int solicited)
{
	struct m_op snd = op_send(f, 0, c->s.qa, c->s.ma, 64);

	fx_do(f, op_recv(f, 1, c->s.qb, c->s.mb, 64), ok_());
	snd.verbs.solicited = (uint8_t)solicited;
	fx_do(f, snd, wc_(M_WC_SUCCESS));
}

START_TEST(test_CHAN_1_destroy_while_a_cq_is_on_it)
{
	struct fx f;
	int ch, cq;

	fx_init(&f, 1, "generic");
	ch = fx_chan(&f, 0);
	cq = fx_cq_on(&f, 0, ch);
	ck_assert(fx_rule(fx_predict(&f, op_obj(M_OP_DESTROY_COMP_CHANNEL, 0, ch)), err_(EBUSY), M_RULE_CHAN_1));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DESTROY_COMP_CHANNEL, 0, ch)), err_(EBUSY)));
	fx_do(&f, op_obj(M_OP_DESTROY_CQ, 0, cq), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DESTROY_COMP_CHANNEL, 0, ch)), ok_()));
	fx_do(&f, op_obj(M_OP_DESTROY_COMP_CHANNEL, 0, ch), ok_());
	/* A destroyed channel takes no CQ. */
	struct m_pred pr;

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CREATE_CQ, .obj = -1, .verbs.cq_depth = 4,
		.verbs.chan1 = (uint8_t)(ch + 1) }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_CREATE_2_comp_vector)
{
	struct fx f;
	struct m_op op = { .kind = M_OP_CREATE_CQ, .obj = -1, .verbs.cq_depth = 10 };

	fx_init(&f, 1, "generic");
	op.verbs.comp_vec = M_VEC_ZERO;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	op.verbs.comp_vec = M_VEC_LAST;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_CQ_CREATE_2));
	op.verbs.comp_vec = M_VEC_PAST;
	ck_assert(fx_rule(fx_predict(&f, op), err_(EINVAL), M_RULE_CQ_CREATE_2));
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	op.verbs.comp_vec = M_VEC_MINUS1;
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_NOTIFY_1_one_event_per_arm)
{
	struct fx f;
	struct chpair c = fx_chpair(&f);
	unsigned cq;
	enum m_qmode mode;

	/* Not armed: a completion gives no event. */
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 0);
	ck_assert_int_eq(mode, M_Q_EXACT);
	/* Armed: one event of that CQ (its place on the node: 1), and the arm is spent. */
	fx_arm(&f, 0, c.cqa, 0);
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 0); /* nothing before the completion */
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 1);
	ck_assert_uint_eq(cq, (unsigned)c.cqa + 1);
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 0);
	/* Two arms, two completions: two events. */
	fx_arm(&f, 0, c.cqa, 0);
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	fx_arm(&f, 0, c.cqa, 0);
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 1);
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 1);
	ck_assert_int_eq(mode, M_Q_EXACT);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_NOTIFY_1_solicited_only)
{
	struct fx f;
	struct chpair c = fx_chpair(&f);
	unsigned cq;
	enum m_qmode mode;

	/* Solicited only: an unsolicited receive gives none, nor the sender's completion. */
	fx_arm(&f, 1, c.cqb, 1);
	fx_arm(&f, 0, c.cqa, 1);
	fx_sendrecv(&f, &c, 0);
	ck_assert_uint_eq(fx_get(&f, 1, c.chb, &cq, &mode), 0);
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 0);
	/* Still armed: a solicited one gives the event. */
	fx_sendrecv(&f, &c, 1);
	ck_assert_uint_eq(fx_get(&f, 1, c.chb, &cq, &mode), 1);
	ck_assert_uint_eq(cq, (unsigned)c.cqb + 1);
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 0);
	/* Armed for the next, then for solicited: still for the next (a downgrade is ignored). */
	fx_arm(&f, 1, c.cqb, 0);
	fx_arm(&f, 1, c.cqb, 1);
	fx_sendrecv(&f, &c, 0);
	ck_assert_uint_eq(fx_get(&f, 1, c.chb, &cq, &mode), 1);
	/* Solicited, then next: upgraded. */
	fx_arm(&f, 1, c.cqb, 1);
	fx_arm(&f, 1, c.cqb, 0);
	fx_sendrecv(&f, &c, 0);
	ck_assert_uint_eq(fx_get(&f, 1, c.chb, &cq, &mode), 1);
	ck_assert_int_eq(mode, M_Q_EXACT);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_NOTIFY_1_error_under_solicited_is_open)
{
	struct fx f;
	struct chpair c = fx_chpair(&f);
	unsigned cq;
	enum m_qmode mode;

	/* A receive flushed by the QP's move to ERR under a solicited arm: an event or none. */
	fx_arm(&f, 1, c.cqb, 1);
	fx_do(&f, op_recv(&f, 1, c.s.qb, c.s.mb, 64), ok_());
	struct m_op err = op_obj(M_OP_MODIFY_QP, 1, c.s.qb);

	err.verbs.qp_state = M_QPS_ERR;
	fx_do(&f, err, ok_());
	fx_get(&f, 1, c.chb, &cq, &mode);
	ck_assert_int_eq(mode, M_Q_ANY);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_EVENT_1_ack_before_destroy)
{
	struct fx f;
	struct chpair c = fx_chpair(&f);
	struct m_pred pr;
	struct m_op ack = op_obj(M_OP_ACK_CQ_EVENTS, 0, c.cqa);
	unsigned cq;
	enum m_qmode mode;

	ack.verbs.nack = 1;
	/* Nothing taken: an ack would make the CQ's destroy wait for ever. */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &ack, &pr), -EDEADLK);
	fx_arm(&f, 0, c.cqa, 0);
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 1);
	/* A QP on it: EBUSY before any wait. */
	ck_assert(fx_rule(fx_predict(&f, op_obj(M_OP_DESTROY_CQ, 0, c.cqa)), err_(EBUSY), M_RULE_CQ_DESTROY_1));
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, c.s.qa), ok_());
	/* No QP, the event not acknowledged: ibv_destroy_cq would wait for ever. */
	struct m_op destroy = op_obj(M_OP_DESTROY_CQ, 0, c.cqa);

	ck_assert_int_eq(model_predict(&f.m, &f.p, &destroy, &pr), -EDEADLK);
	ck_assert(fx_rule(fx_predict(&f, ack), ok_(), M_RULE_CQ_EVENT_1));
	fx_do(&f, ack, ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DESTROY_CQ, 0, c.cqa)), ok_()));
	ack.verbs.nack = 2;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &ack, &pr), -EDEADLK);
	model_free(&f.m);
}
END_TEST

START_TEST(test_CQ_EVENT_1_outstanding_wr_makes_it_open)
{
	struct fx f;
	struct chpair c = fx_chpair(&f);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8);
	unsigned cq;
	enum m_qmode mode;

	fx_arm(&f, 0, c.cqa, 0);
	w.verbs.nowait = 1;
	fx_do(&f, w, ok_());
	fx_get(&f, 0, c.cha, &cq, &mode);
	ck_assert_int_eq(mode, M_Q_ANY); /* its completion's event may have come or not */
	model_free(&f.m);
}
END_TEST

/* More events than the model keeps (M_CHAN_EV_MAX): the oldest it kept are still known, in order,
 * each exactly; only once they are taken is the channel open (the ones it lost follow). */
START_TEST(test_CQ_EVENT_1_more_events_than_kept)
{
	struct fx f;
	struct chpair c = fx_chpair(&f);
	int cq32 = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_CQ, .node = 0, .obj = -1, .verbs.cq_depth = 32,
					     .verbs.chan1 = (uint8_t)(c.cha + 1) }, ok_());
	int q = fx_qp_cq(&f, 0, c.s.pa, cq32, 0);
	int qb = fx_qp_cq(&f, 1, c.s.pb, c.cqb, 0);
	unsigned cq;
	enum m_qmode mode;

	fx_connect(&f, 0, q, 1, qb);
	for (int i = 0; i < M_CHAN_EV_MAX + 4; i++) {
		fx_arm(&f, 0, cq32, 0);
		fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, q, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	}
	for (int i = 0; i < M_CHAN_EV_MAX; i++) {
		ck_assert_uint_eq(fx_get(&f, 0, c.cha, &cq, &mode), 1);
		ck_assert_int_eq(mode, M_Q_EXACT);
		ck_assert_uint_eq(cq, (unsigned)cq32 + 1);
	}
	/* An event after the lost ones is not put in front of them. */
	fx_arm(&f, 0, cq32, 0);
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, q, c.s.ma, 0, 1, c.s.mb, 0, 8), wc_(M_WC_SUCCESS));
	fx_get(&f, 0, c.cha, &cq, &mode);
	ck_assert_int_eq(mode, M_Q_ANY);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_chan(void)
{
	Suite *s = suite_create("test_model_chan");
	TCase *tc = tcase_create("chan");

	RTEST(tc, CHAN_1, test_CHAN_1_destroy_while_a_cq_is_on_it);
	RTEST(tc, CQ_CREATE_2, test_CQ_CREATE_2_comp_vector);
	RTEST(tc, CQ_NOTIFY_1, test_CQ_NOTIFY_1_one_event_per_arm);
	RTEST(tc, CQ_NOTIFY_1, test_CQ_NOTIFY_1_solicited_only);
	RTEST(tc, CQ_NOTIFY_1, test_CQ_NOTIFY_1_error_under_solicited_is_open);
	RTEST(tc, CQ_EVENT_1, test_CQ_EVENT_1_ack_before_destroy);
	RTEST(tc, CQ_EVENT_1, test_CQ_EVENT_1_outstanding_wr_makes_it_open);
	RTEST(tc, CQ_EVENT_1, test_CQ_EVENT_1_more_events_than_kept);
	suite_add_tcase(s, tc);
	return s;
}

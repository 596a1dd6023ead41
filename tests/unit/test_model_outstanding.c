/*
 * Unit tests of the model: WRs outstanding at the stack while later steps
 * run (model/verbs/outstanding.c) — a post with wait=no, the wait step that
 * takes its completion, deregistration under it (MR-DEREG-3), a send queue
 * it keeps full (LP-7), and the steps the model refuses meanwhile.
 */
#include "tests/unit/model_fx.h"

#include <string.h>

/* Two nodes: a 1 MiB RW MR each, connected QPs completing into a CQ per node; node 0's QP has
 * a send queue of max_send WRs (0: the default). */
struct opair { struct pair s; int cqa, cqb; };
static struct opair fx_opair(struct fx *f, const char *profile, uint32_t max_send)
{
	struct opair c;
	struct m_op qa;

	fx_init(f, 2, profile);
	c.s.pa = fx_pd(f, 0);
	c.s.pb = fx_pd(f, 1);
	c.s.ma = fx_mr(f, 0, c.s.pa, 1u << 20, RW);
	c.s.mb = fx_mr(f, 1, c.s.pb, 1u << 20, RW);
	c.cqa = fx_cq(f, 0, 16);
	c.cqb = fx_cq(f, 1, 16);
	qa = (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)c.s.pa, .verbs.access = QP_ALL,
			    .verbs.scq = (int16_t)(c.cqa + 1), .verbs.rcq = (int16_t)(c.cqa + 1),
			    .verbs.max_send_wr = max_send };
	c.s.qa = fx_do(f, qa, ok_());
	c.s.qb = fx_qp_cq(f, 1, c.s.pb, c.cqb, 0);
	fx_connect(f, 0, c.s.qa, 1, c.s.qb);
	return c;
}

/* A READ of len bytes of node 1's MR into node 0's, wr_id id, not waited for. */
static struct m_op op_nowait(struct fx *f, const struct opair *c, enum m_op_kind k, uint32_t id, uint64_t len)
{
	struct m_op op = op_rdma(f, k, 0, c->s.qa, c->s.ma, 0, 1, c->s.mb, 0, len);

	op.verbs.wr_id = id;
	op.verbs.nowait = 1;
	return op;
}

static struct m_op op_wait(const struct opair *c, uint32_t id)
{
	struct m_op op = op_obj(M_OP_WAIT, 0, c->s.qa);

	op.verbs.wr_id = id;
	return op;
}

static int has_unknown(const struct fx *f, int node, int mr, uint64_t off, uint64_t len)
{
	for (uint64_t i = off; i < off + len; i++)
		if (model_mr_unknown(&f->m, node, mr, i))
			return 1;
	return 0;
}

static int fx_einval(struct fx *f, struct m_op op)
{
	struct m_pred pr;

	return model_predict(&f->m, &f->p, &op, &pr) == -EINVAL;
}

/* Nothing runs meanwhile: the wait gives what the WR gives; bytes known again after it. */
START_TEST(test_CQ_POLL_1_nowait_post_then_wait)
{
	struct fx f;
	struct opair c = fx_opair(&f, "generic", 0);
	struct m_pred pr;

	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 1, .obj = (int16_t)c.s.mb, .verbs.byte = 0x5a }, ok_());
	pr = fx_predict(&f, op_nowait(&f, &c, M_OP_READ, 7, 4096));
	ck_assert(fx_only(pr, ok_()));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_OUTSTANDING);
	fx_do(&f, op_nowait(&f, &c, M_OP_READ, 7, 4096), ok_());
	ck_assert(has_unknown(&f, 0, c.s.ma, 0, 1)); /* it may have landed, or not yet */
	pr = fx_predict(&f, op_wait(&c, 7));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_CQ_POLL_1));
	fx_do(&f, op_wait(&c, 7), wc_(M_WC_SUCCESS));
	ck_assert(!has_unknown(&f, 0, c.s.ma, 0, 4096));
	ck_assert_int_eq(model_mr_byte(&f.m, 0, c.s.ma, 4095), 0x5a);
	ck_assert(fx_einval(&f, op_wait(&c, 7))); /* taken */
	model_free(&f.m);
}
END_TEST

/* rdma-unit-test MrLoopbackTest.OutstandingRead: the READ's own MR deregistered under it. */
START_TEST(test_MR_DEREG_3_local_dereg_under_outstanding_read)
{
	struct fx f;
	struct opair c = fx_opair(&f, "generic", 0);
	struct m_pred pr;

	fx_do(&f, op_nowait(&f, &c, M_OP_READ, 1, 4096), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DEREG_MR, 0, c.s.ma));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_DEREG_3));
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, c.s.ma), ok_());
	pr = fx_predict(&f, op_wait(&c, 1));
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));      /* it ran before the dereg */
	ck_assert(fx_has(pr, wc_(M_WC_LOC_PROT_ERR))); /* after: its lkey is dead */
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_MR_DEREG_3));
	ck_assert(!fx_has(pr, ok_()));
	fx_do(&f, op_wait(&c, 1), wc_(M_WC_SUCCESS));
	ck_assert(has_unknown(&f, 0, c.s.ma, 0, 4096)); /* two statuses were possible: what landed is unknown */
	model_free(&f.m);

	/* Another MR deregistered: not MR-DEREG-3, the READ is unaffected. */
	c = fx_opair(&f, "generic", 0);
	int other = fx_mr(&f, 0, c.s.pa, 4096, RW);

	fx_do(&f, op_nowait(&f, &c, M_OP_READ, 1, 4096), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DEREG_MR, 0, other));
	ck_assert(!fx_rule(pr, ok_(), M_RULE_MR_DEREG_3));
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, other), ok_());
	ck_assert(fx_only(fx_predict(&f, op_wait(&c, 1)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

/* The target deregistered under an outstanding WRITE (rxe re-checks the key in flight). */
START_TEST(test_MR_DEREG_3_remote_dereg_under_outstanding_write)
{
	struct fx f;
	struct opair c = fx_opair(&f, "generic", 0);
	struct m_pred pr;

	fx_do(&f, op_nowait(&f, &c, M_OP_WRITE, 2, 65536), ok_());
	ck_assert(has_unknown(&f, 1, c.s.mb, 0, 65536));
	fx_do(&f, op_obj(M_OP_DEREG_MR, 1, c.s.mb), ok_());
	pr = fx_predict(&f, op_wait(&c, 2));
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	/* done at the requester, the responder may still meet the dead key: it alone to ERR */
	int peer_err = 0;

	for (unsigned i = 0; i < pr.n; i++)
		peer_err |= pr.alt[i].out.code == M_WC_SUCCESS && pr.alt[i].effect == M_EFF_PEER_ERR;
	ck_assert(peer_err);
	fx_do(&f, op_wait(&c, 2), wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, c.s.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, c.s.qb), M_QPS_ERR);
	ck_assert(has_unknown(&f, 1, c.s.mb, 0, 65536)); /* part of it may have landed */
	model_free(&f.m);
}
END_TEST

/* The READ's source deregistered at the responder: MR-DEREG-3 decides the dereg step, and the rxe 6.1
 * profile declares the WARN that step makes in rxe_completer (model/kwarn.c); other kernels none. */
START_TEST(test_MR_DEREG_3_responder_dereg_under_outstanding_read_declared_warn)
{
	struct fx f;
	struct opair c = fx_opair(&f, "rxe", 0);
	struct m_profile p61, p68;
	const struct m_kwarn *w;
	struct m_pred pr;

	fx_do(&f, op_nowait(&f, &c, M_OP_READ, 3, 65536), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, c.s.mb));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_DEREG_3));
	fx_do(&f, op_obj(M_OP_DEREG_MR, 1, c.s.mb), ok_());
	pr = fx_predict(&f, op_wait(&c, 3));
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p61), 0);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &p68), 0);
	w = m_profile_kwarn(&p61, M_RULE_MR_DEREG_3, 0);
	ck_assert_ptr_nonnull(w);
	ck_assert_str_eq(w->where, "rxe_comp.c:756 rxe_completer");
	ck_assert_uint_eq(w->step_ms, 0); /* no slow path: the usual budget */
	ck_assert_ptr_nonnull(strstr(w->citation, "ea4c990fa9e1"));
	ck_assert_ptr_null(m_profile_kwarn(&p61, M_RULE_MR_DEREG_3, 1));
	ck_assert_ptr_null(m_profile_kwarn(&p68, M_RULE_MR_DEREG_3, 0));
}
END_TEST

/* rdma-unit-test LoopbackRcQpTest.FullSubmissionQueue: WRs that do not complete keep the queue full. */
START_TEST(test_LP_7_outstanding_wrs_fill_the_send_queue)
{
	struct fx f;
	struct opair c = fx_opair(&f, "generic", 1);
	struct m_op mod = op_obj(M_OP_MODIFY_QP, 0, c.s.qa);
	struct m_pred pr;

	fx_do(&f, op_obj(M_OP_DESTROY_QP, 1, c.s.qb), ok_()); /* nobody answers: it retries */
	pr = fx_predict(&f, op_nowait(&f, &c, M_OP_WRITE, 1, 8));
	ck_assert(fx_only(pr, ok_()));
	fx_do(&f, op_nowait(&f, &c, M_OP_WRITE, 1, 8), ok_());
	pr = fx_predict(&f, op_nowait(&f, &c, M_OP_WRITE, 2, 8));
	ck_assert(fx_has(pr, err_(ENOMEM)));
	ck_assert(fx_rule(pr, err_(ENOMEM), M_RULE_LP_7));
	ck_assert(fx_has(pr, ok_())); /* unless the first completed meanwhile */
	fx_do(&f, op_nowait(&f, &c, M_OP_WRITE, 2, 8), err_(ENOMEM));
	mod.verbs.qp_state = M_QPS_ERR;
	fx_do(&f, mod, ok_());
	pr = fx_predict(&f, op_wait(&c, 1));
	ck_assert(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)));
	ck_assert(fx_has(pr, wc_(M_WC_RETRY_EXC_ERR)));
	ck_assert(!fx_has(pr, err_(EINVAL))); /* it was posted: a completion, never the post's errno */
	fx_do(&f, op_wait(&c, 1), wc_(M_WC_WR_FLUSH_ERR));
	model_free(&f.m);
}
END_TEST

/* What the model refuses to follow while a WR is outstanding, and what it leaves open. */
START_TEST(test_CQ_POLL_1_steps_beside_an_outstanding_wr)
{
	struct fx f;
	struct opair c = fx_opair(&f, "generic", 0);
	struct m_op q = op_obj(M_OP_QUERY_QP, 1, c.s.qb), w2 = op_nowait(&f, &c, M_OP_READ, 2, 8);
	struct m_op waited = op_rdma(&f, M_OP_WRITE, 0, c.s.qa, c.s.ma, 0, 1, c.s.mb, 0, 8);
	struct m_op peer = op_rdma(&f, M_OP_WRITE, 1, c.s.qb, c.s.mb, 0, 0, c.s.ma, 0, 8);
	struct m_op rtr = op_obj(M_OP_MODIFY_QP, 0, c.s.qa);
	struct m_qres qr = { 0 };
	struct m_op unsig = op_nowait(&f, &c, M_OP_READ, 3, 8);

	unsig.verbs.unsignaled = 1;
	ck_assert(fx_einval(&f, unsig)); /* its completion must come */
	fx_do(&f, op_nowait(&f, &c, M_OP_READ, 1, 8), ok_());
	ck_assert(fx_einval(&f, waited)); /* a waited post behind it */
	ck_assert(fx_einval(&f, peer));   /* the peer QP may be in ERR already */
	rtr.verbs.qp_state = M_QPS_RESET;
	ck_assert(fx_einval(&f, rtr));
	fx_do(&f, w2, ok_()); /* another that does not wait: fine */
	ck_assert(fx_einval(&f, op_wait(&c, 2))); /* the oldest completes first */
	fx_do(&f, q, ok_());
	ck_assert_int_eq(model_query(&f.m, &f.p, &q, &qr), 0);
	ck_assert_int_eq(qr.r[0].mode, M_Q_ANY);
	fx_do(&f, op_wait(&c, 1), wc_(M_WC_SUCCESS));
	fx_do(&f, op_wait(&c, 2), wc_(M_WC_SUCCESS));
	fx_do(&f, waited, wc_(M_WC_SUCCESS)); /* nothing outstanding any more */
	model_free(&f.m);

	/* Its QP destroyed under it: its completion came, or never will; the CQ is undefined. */
	c = fx_opair(&f, "generic", 0);
	fx_do(&f, op_nowait(&f, &c, M_OP_READ, 1, 8), ok_());
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, c.s.qa), ok_());
	ck_assert(fx_einval(&f, op_wait(&c, 1)));
	ck_assert(f.m.node[0].cq.cq[c.cqa].overrun);
	model_free(&f.m);

	/* wait=no needs a CQ object to leave its completion in. */
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op nw = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);

	nw.verbs.nowait = 1;
	ck_assert(fx_einval(&f, nw));
	model_free(&f.m);
}
END_TEST

/* rdma-unit-test QpStateTest.PostSendInit: a READ refused in INIT that rxe keeps completes at the doorbell. */
START_TEST(test_QP_STATE_1_kept_wr_completes_at_the_doorbell)
{
	for (int rxe = 0; rxe <= 1; rxe++) {
		struct fx f;
		struct opair c = fx_opair(&f, rxe ? "rxe" : "generic", 0);
		struct m_op mod = op_obj(M_OP_MODIFY_QP, 0, c.s.qa), rd = op_nowait(&f, &c, M_OP_READ, 1, 8);
		struct m_op bell = op_nowait(&f, &c, M_OP_READ, 2, 8), poll = op_obj(M_OP_POLL_CQ, 0, c.cqa);
		struct m_qres q = { 0 };

		rd.verbs.nowait = bell.verbs.nowait = 0;
		bell.verbs.laddr += 64;
		mod.verbs.qp_state = M_QPS_RESET;
		fx_do(&f, mod, ok_());
		mod.verbs.qp_state = M_QPS_INIT;
		fx_do(&f, mod, ok_());
		fx_do(&f, rd, err_(EINVAL)); /* refused (QP-STATE-1); rxe keeps it queued */
		mod.verbs.qp_state = M_QPS_RTR;
		mod.verbs.peer_node = 1;
		mod.verbs.peer_qp = (int16_t)c.s.qb;
		fx_do(&f, mod, ok_());
		mod.verbs.qp_state = M_QPS_RTS;
		fx_do(&f, mod, ok_());
		fx_do(&f, bell, wc_(M_WC_SUCCESS));
		poll.verbs.max_wc = 4;
		fx_do(&f, poll, ok_());
		ck_assert_int_eq(model_query(&f.m, &f.p, &poll, &q), 0);
		ck_assert_int_eq(q.r[0].mode, M_Q_EXACT);
		ck_assert_int_eq(q.r[0].value, rxe ? 2 : 1); /* rxe: the kept READ's completion first */
		ck_assert_int_eq(q.r[1].value, rxe ? 1 : 2);
		model_free(&f.m);
	}
}
END_TEST

Suite *suite_test_model_outstanding(void)
{
	Suite *s = suite_create("model_outstanding");
	TCase *tc = tcase_create("outstanding");

	RTEST(tc, CQ_POLL_1, test_CQ_POLL_1_nowait_post_then_wait);
	RTEST(tc, MR_DEREG_3, test_MR_DEREG_3_local_dereg_under_outstanding_read);
	RTEST(tc, MR_DEREG_3, test_MR_DEREG_3_remote_dereg_under_outstanding_write);
	RTEST(tc, MR_DEREG_3, test_MR_DEREG_3_responder_dereg_under_outstanding_read_declared_warn);
	RTEST(tc, LP_7, test_LP_7_outstanding_wrs_fill_the_send_queue);
	RTEST(tc, CQ_POLL_1, test_CQ_POLL_1_steps_beside_an_outstanding_wr);
	RTEST(tc, QP_STATE_1, test_QP_STATE_1_kept_wr_completes_at_the_doorbell);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * cq.c — completion queues (model/verbs/cq.h): create_cq, destroy_cq and
 * poll_cq; which QP completes into which CQ; the completions a committed
 * alternative leaves in them (a send WR's, a consumed receive's, the flushed
 * receives of a QP that goes to ERR); an unsignaled WR that succeeds, which
 * leaves none (CQ-POLL-1).
 */
#include "model/verbs/internal.h"
#include "model/verbs/recvwc.h"

#include <string.h>

/* A post to the send queue: what completes on the send CQ. */
static int send_wr(enum m_op_kind k)
{
	return k == M_OP_WRITE || k == M_OP_READ || k == M_OP_CAS || k == M_OP_FADD || k == M_OP_SEND ||
	       k == M_OP_WRITE_IMM || k == M_OP_BIND_MW || k == M_OP_LOCAL_INV;
}

static int cq_live(const struct m_cq_node *c, int h)
{
	return h >= 0 && h < c->ncq && c->cq[h].live;
}

/* wc_flags or flags on a plain create_cq, or bits that name no flag (CQ-EX-1): the model refuses it. */
static int cq_ex_args_bad(const struct m_verbs_args *v)
{
	if (!v->cq_ex)
		return v->wc_flags || v->cq_flags;
	return (v->wc_flags & ~M_WC_EX_ALL) || (v->cq_flags & ~M_CQ_FLAGS_ALL);
}

/* An extended create asking for what a provider may not support: taken or EOPNOTSUPP (CQ-EX-1). */
static int cq_ex_optional(const struct m_verbs_args *v)
{
	return v->cq_ex && ((v->wc_flags & ~M_WC_EX_STANDARD) || v->cq_flags);
}

/* An extended CQ whose completions give no byte_len (CQ-EX-2). */
static int cq_no_len(const struct m_cq_node *c, int h)
{
	return c->cq[h].ex && !(c->cq[h].wc_flags & M_WC_EX_BYTE_LEN);
}

/* A CQ a QP may not take as its receive CQ: extended without BYTE_LEN, IMM and QP_NUM (CQ-EX-2). */
static int cq_no_recv(const struct m_cq_node *c, int h)
{
	return c->cq[h].ex && (c->cq[h].wc_flags & M_WC_EX_RECV) != M_WC_EX_RECV;
}

int m_cq_check_qp(const struct model *m, const struct m_op *op)
{
	const struct m_cq_node *c = &m->node[op->node].cq;

	if ((op->verbs.scq && !cq_live(c, op->verbs.scq - 1)) || (op->verbs.rcq && !cq_live(c, op->verbs.rcq - 1)))
		return -EINVAL;
	if (op->verbs.rcq && cq_no_recv(c, op->verbs.rcq - 1))
		return -EINVAL;
	return 0;
}

int m_pred_cq(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_cq_node *c = &m->node[op->node].cq;
	struct m_why why = { 0 };

	switch ((enum m_op_kind)op->kind) {
	case M_OP_CREATE_CQ: {
		if (op->verbs.cq_depth > M_CQ_DEPTH_MAX || op->verbs.comp_vec > M_VEC_MINUS1 ||
		    (op->verbs.chan1 && !m_chan_live(c, op->verbs.chan1 - 1)) || cq_ex_args_bad(&op->verbs) ||
		    (op->verbs.lim_max & op->verbs.lim_past) || ((op->verbs.lim_max | op->verbs.lim_past) & ~M_LIMK_CQE))
			return -EINVAL;
		m_why_add(&why, M_RULE_CQ_CREATE_1);
		if (op->verbs.chan1 || op->verbs.comp_vec != M_VEC_ZERO)
			m_why_add(&why, M_RULE_CQ_CREATE_2);
		if (op->verbs.cq_ex)
			m_why_add(&why, M_RULE_CQ_EX_1);
		if (m_lim_pred(p, op, &why, out)) {
			/* refused at the limit (LIM-1) */
		} else if (op->verbs.comp_vec == M_VEC_PAST || op->verbs.comp_vec == M_VEC_MINUS1) {
			struct m_set s = DECIDE(p, CQ_CREATE_2, PART_STEP, O_ERR(EINVAL));

			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else if (op->verbs.cq_depth == 0 && !(op->verbs.lim_max & M_LIMK_CQE)) {
			struct m_set s = DECIDE(p, CQ_CREATE_1, PART_STEP, O_ERR(EINVAL));

			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else {
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		/* A flag the provider may not support: refused in user space before the kernel looks. */
		if (cq_ex_optional(&op->verbs))
			m_alt_add(out, O_ERR(EOPNOTSUPP), M_EFF_NONE, &why, -1);
		return 0;
	}
	case M_OP_DESTROY_CQ:
		if (!cq_live(c, op->obj))
			return -EINVAL;
		/* Events taken and not acknowledged: ibv_destroy_cq would wait for ever (CQ-EVENT-1). */
		if (c->cq[op->obj].unacked && !c->cq[op->obj].usecnt)
			return -EDEADLK;
		m_why_add(&why, M_RULE_CQ_DESTROY_1);
		if (c->cq[op->obj].usecnt) {
			struct m_set s = DECIDE(p, CQ_DESTROY_1, PART_STEP, O_ERR(EBUSY));

			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else {
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		return 0;
	case M_OP_RESIZE_CQ: {
		const struct m_cq *cq;

		if (!cq_live(c, op->obj) || op->verbs.cq_depth > M_CQ_DEPTH_MAX)
			return -EINVAL;
		cq = &c->cq[op->obj];
		m_why_add(&why, M_RULE_CQ_RESIZE_1);
		if (op->verbs.cq_depth == 0) {
			struct m_set s = DECIDE(p, CQ_RESIZE_1, PART_STEP, O_ERR(EINVAL));

			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
			return 0;
		}
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		/* Fewer than it may hold (the harness may have taken some while it waited): EINVAL too. */
		if (cq->overrun || cq->n > op->verbs.cq_depth)
			m_alt_add(out, O_ERR(EINVAL), M_EFF_NONE, &why, -1);
		return 0;
	}
	case M_OP_POLL_CQ:
		if (!cq_live(c, op->obj) || op->verbs.max_wc < 1 || op->verbs.max_wc > M_POLL_MAX)
			return -EINVAL;
		m_why_add(&why, M_RULE_CQ_POLL_1);
		for (unsigned j = 0; j < c->cq[op->obj].n && j < op->verbs.max_wc; j++)
			if (c->cq[op->obj].e[j].status != M_WC_SUCCESS)
				m_why_add(&why, M_RULE_RA_ERR_4); /* it takes an error completion: wr_id and status only */
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	default:
		return -EINVAL;
	}
}

void m_cq_unsignaled_any(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;

	if (!send_wr((enum m_op_kind)op->kind) || !m_post_unsignaled(&m->node[op->node], op))
		return;
	for (unsigned i = 0; i < out->n; i++) {
		struct m_alt *a = &out->alt[i];

		/* no completion: the post succeeded silently (CQ-POLL-1), or a WR the profile says
		 * never completes (M_OUT_HANG: LP-8's, RA-RES-2's on rxe 6.1) looks the same */
		if (!(a->out.kind == M_OUT_WC && a->out.code == M_WC_SUCCESS) && a->out.kind != M_OUT_HANG)
			continue;
		a->out = O_OK;
		if (a->nrules < M_RULES_MAX)
			a->rules[a->nrules++] = M_RULE_CQ_POLL_1;
	}
}

/*
 * What the completion of send WR op reports besides its status (RA-ERR-4):
 * its opcode, and byte_len where ibv_poll_cq(3) gives one to a send
 * completion (a READ's length, an atomic's 8 bytes).
 */
static struct m_cqe send_cqe(const struct m_op *op)
{
	struct m_cqe e = { .wr_id = op->verbs.wr_id, .opcode = (uint8_t)m_send_wc_opcode(op->kind) };

	if (op->kind == M_OP_READ || op->kind == M_OP_CAS || op->kind == M_OP_FADD) {
		e.has_len = 1;
		e.byte_len = op->kind == M_OP_READ ? (uint32_t)op->verbs.len : 8;
	}
	return e;
}

/*
 * The completion of receive wr_id consumed by op (a SEND or a WRITE with
 * immediate) at QP pq: its opcode and byte_len as recvwc.h computes them.
 */
static struct m_cqe recv_cqe(const struct m_op *op, const struct m_qp *pq, uint32_t wr_id)
{
	struct m_recv_wc w;

	m_recv_wc_of(op, pq->type == M_QPT_UD, &w);
	return (struct m_cqe){ .wr_id = wr_id, .has_len = 1, .opcode = w.opcode, .byte_len = w.byte_len };
}

/*
 * Completion e with status st arrives at CQ handle+1 cq1 of node n (0: an
 * untracked CQ); sol: whether it is a solicited one, for the event it may
 * put on the CQ's channel (CQ-NOTIFY-1).
 */
static void cq_push(struct model *m, unsigned n, uint8_t cq1, struct m_cqe e, enum m_wc_status st,
		    enum m_chan_sol sol)
{
	struct m_cq *cq;

	if (!cq1)
		return;
	cq = &m->node[n].cq.cq[cq1 - 1];
	if (!cq->overrun && (cq->n >= cq->depth || cq->n >= M_CQE_MAX))
		cq->overrun = 1; /* the provider may hold more than asked for: undefined from here */
	m_chan_completion(m, n, cq1, st == M_WC_SUCCESS ? sol : M_SOL_UNKNOWN);
	if (cq->overrun)
		return;
	e.status = (uint8_t)st;
	cq->e[cq->n++] = e;
	cq->pushes++;
}

/* QP qh of node n goes to ERR: its posted receives from the first-th are flushed into its receive CQ. */
static void flush_recvs(struct model *m, unsigned n, int qh, unsigned first)
{
	const struct m_qp *q;

	if (qh < 0 || qh >= m->node[n].nqp)
		return;
	q = &m->node[n].qp[qh];
	if (q->state == M_QPS_ERR)
		return; /* flushed when it entered ERR */
	for (unsigned j = first; j < q->nrecv; j++)
		cq_push(m, n, m->node[n].cq.rcq[qh], (struct m_cqe){ .wr_id = q->recv[j].wr_id }, M_WC_WR_FLUSH_ERR,
			M_SOL_UNKNOWN);
}

void m_cq_note(struct model *m, const struct m_pred *pred, size_t i)
{
	const struct m_op *op = &pred->op;
	const struct m_alt *a = &pred->alt[i];
	const struct m_resolved *r = &pred->res;
	int qh = m_acting_qp(op), consumed = 0;
	struct m_node *nd = &m->node[op->node];

	if (qh < 0 || qh >= nd->nqp)
		return;
	/* The nodes with channels, in order (a node without any has nothing to start). */
	for (unsigned bits = m->chan_nodes; bits; bits &= bits - 1)
		m_chan_step_begin(m, (unsigned)__builtin_ctz(bits));
	if (send_wr((enum m_op_kind)op->kind) && a->out.kind == M_OUT_WC && nd->cq.scq[qh]) /* (else untracked) */
		cq_push(m, op->node, nd->cq.scq[qh], send_cqe(op), (enum m_wc_status)a->out.code, M_SOL_NO);
	if (op->kind == M_OP_RECV && a->out.kind == M_OUT_OK && a->effect == M_EFF_NONE && nd->qp[qh].state == M_QPS_ERR)
		cq_push(m, op->node, nd->cq.rcq[qh], (struct m_cqe){ .wr_id = op->verbs.wr_id },
			M_WC_WR_FLUSH_ERR, M_SOL_UNKNOWN); /* RA-ERR-5: flushed at once */
	if (a->peer_recv >= 0 && r->peer_node >= 0 && r->peer_qp >= 0) {
		const struct m_recv *rq = m_rq_head(&m->node[r->peer_node], r->peer_qp); /* its own or its SRQ's */

		if (rq) {
			cq_push(m, (unsigned)r->peer_node, m->node[r->peer_node].cq.rcq[r->peer_qp],
				recv_cqe(op, &m->node[r->peer_node].qp[r->peer_qp], rq->wr_id),
				(enum m_wc_status)a->peer_recv, op->verbs.solicited ? M_SOL_YES : M_SOL_NO);
			consumed = 1;
		}
	}
	switch ((enum m_effect)a->effect) {
	case M_EFF_QP_ERR:
	case M_EFF_BOTH_ERR: {
		const struct m_qp *q = &nd->qp[qh];

		flush_recvs(m, op->node, qh, 0);
		if (a->effect == M_EFF_BOTH_ERR && q->peer_node >= 0)
			flush_recvs(m, (unsigned)q->peer_node, q->peer_qp,
				    consumed && q->peer_node == r->peer_node && q->peer_qp == r->peer_qp);
		break;
	}
	case M_EFF_PEER_ERR:
		if (r->peer_node >= 0)
			flush_recvs(m, (unsigned)r->peer_node, r->peer_qp, (unsigned)consumed);
		break;
	case M_EFF_DO:
		if (op->kind == M_OP_MODIFY_QP && op->verbs.qp_state == M_QPS_ERR)
			flush_recvs(m, op->node, qh, 0);
		break;
	default:
		break;
	}
}

void m_cq_after(struct model *m, const struct m_pred *pred, size_t i, int created)
{
	const struct m_op *op = &pred->op;
	struct m_node *nd = &m->node[op->node];
	struct m_cq_node *c = &nd->cq;

	if (pred->alt[i].effect != M_EFF_DO)
		return;
	if (op->kind == M_OP_CREATE_QP && created >= 0 && created < M_MAX_QP) {
		c->scq[created] = (uint8_t)op->verbs.scq;
		c->rcq[created] = (uint8_t)op->verbs.rcq;
		c->sig_all[created] = op->verbs.sig_all;
		c->max_send[created] = (op->verbs.lim_max & M_LIMK_SEND_WR) ? 0 /* deeper than the model tracks */
					: (op->verbs.zero_wr & M_ZERO_SEND_WR) ? M_SEND_DEPTH_ZERO
					: (uint8_t)(op->verbs.max_send_wr ? op->verbs.max_send_wr : M_SEND_DEPTH_DEFAULT);
		if (op->verbs.scq)
			c->cq[op->verbs.scq - 1].usecnt++;
		if (op->verbs.rcq)
			c->cq[op->verbs.rcq - 1].usecnt++;
	} else if (op->kind == M_OP_DESTROY_QP && op->obj >= 0 && op->obj < M_MAX_QP) {
		if (c->scq[op->obj])
			c->cq[c->scq[op->obj] - 1].usecnt--;
		if (c->rcq[op->obj])
			c->cq[c->rcq[op->obj] - 1].usecnt--;
	}
}

int m_cq_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	struct m_cq_node *c = &m->node[op->node].cq;

	if (pred->alt[i].effect != M_EFF_DO)
		return 0;
	switch ((enum m_op_kind)op->kind) {
	case M_OP_CREATE_CQ:
		if (c->ncq >= M_MAX_CQ)
			return -ENOSPC;
		c->cq[c->ncq] = (struct m_cq){ .live = 1, .ever = 1,
					       .depth = (op->verbs.lim_max & M_LIMK_CQE) ? M_LIM_MAX : op->verbs.cq_depth,
					       .chan1 = op->verbs.chan1, .ex = op->verbs.cq_ex,
					       .wc_flags = op->verbs.wc_flags };
		if (op->verbs.chan1)
			c->ch[op->verbs.chan1 - 1].refs++;
		*created = c->ncq++;
		return 0;
	case M_OP_RESIZE_CQ:
		c->cq[op->obj].depth = op->verbs.cq_depth;
		return 0;
	case M_OP_DESTROY_CQ:
		c->cq[op->obj].live = 0;
		if (c->cq[op->obj].chan1)
			c->ch[c->cq[op->obj].chan1 - 1].refs--;
		return 0;
	case M_OP_POLL_CQ: {
		struct m_cq *cq = &c->cq[op->obj];
		unsigned k = cq->n < op->verbs.max_wc ? cq->n : op->verbs.max_wc;

		memcpy(cq->polled, cq->e, sizeof(cq->e[0]) * k);
		memmove(cq->e, cq->e + k, sizeof(cq->e[0]) * (cq->n - k));
		cq->n = (uint8_t)(cq->n - k);
		cq->npolled = (uint8_t)k;
		return 0;
	}
	default:
		return -EINVAL;
	}
}

int m_cq_query(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	static const char *const wr_key[M_POLL_MAX] = { "wr1", "wr2", "wr3", "wr4" };
	static const char *const st_key[M_POLL_MAX] = { "status1", "status2", "status3", "status4" };
	static const char *const op_key[M_POLL_MAX] = { "opcode1", "opcode2", "opcode3", "opcode4" };
	static const char *const len_key[M_POLL_MAX] = { "byte_len1", "byte_len2", "byte_len3", "byte_len4" };
	const struct m_cq_node *c = &m->node[op->node].cq;
	const struct m_cq *cq;
	enum m_qmode mode;

	if (op->obj < 0 || op->obj >= c->ncq)
		return -EINVAL;
	cq = &c->cq[op->obj];
	if (op->kind == M_OP_RESIZE_CQ) {
		m_qres_add(out, "cqe", M_Q_ATLEAST, cq->depth, M_RULE_CQ_RESIZE_1);
		return 0;
	}
	mode = cq->overrun ? M_Q_ANY : M_Q_EXACT;
	m_qres_add(out, "n", mode, cq->npolled, M_RULE_CQ_POLL_1);
	for (unsigned j = 0; j < cq->npolled; j++) {
		m_qres_add(out, wr_key[j], mode, cq->polled[j].wr_id, M_RULE_CQ_POLL_1);
		m_qres_add(out, st_key[j], mode, cq->polled[j].status, M_RULE_CQ_POLL_1);
		/* An error completion's opcode and byte_len mean nothing (RA-ERR-4). */
		const struct m_cqe *e = &cq->polled[j];
		int ok = mode == M_Q_EXACT && e->status == M_WC_SUCCESS;

		m_qres_add(out, op_key[j], ok ? M_Q_EXACT : M_Q_ANY, e->opcode, M_RULE_RA_ERR_4);
		if (cq_no_len(c, op->obj)) /* not asked for at create: not read (CQ-EX-2) */
			m_qres_add(out, len_key[j], M_Q_ANY, 0, M_RULE_CQ_EX_2);
		else
			m_qres_add(out, len_key[j], ok && e->has_len ? M_Q_EXACT : M_Q_ANY, e->byte_len,
				   M_RULE_RA_ERR_4);
	}
	return 0;
}

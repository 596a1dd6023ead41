/*
 * outstanding.c — send WRs outstanding at the stack while later steps run
 * (outstanding.h). A `wait=no` post gives only what ibv_post_send says (ok,
 * or its errno); the WR runs at some moment before the `wait` step that
 * takes its completion, so that step allows every status the WR could have
 * had in any state since its post: each verbs step records the statuses it
 * could have in the state the step was predicted in (struct m_pred.wr_seen).
 * Bytes it moves are unknown while it is outstanding, and stay unknown when
 * more than one status was possible or other steps moved bytes meanwhile.
 *
 * A send WR refused below RTS that the provider kept (QP-STATE-1, a
 * profile's M_EFF_SQ_KEPT) is remembered on a QP with a send CQ object: at
 * the QP's first doorbell once RTS it runs before the WR that rang, and its
 * completion is in the CQ (alone on its QP, with the status it could have
 * then; with others kept, the CQ's contents are undefined).
 *
 * What the model cannot follow while a WR is outstanding is refused as a
 * step it cannot run (-EINVAL): another post on its QP that waits, any post
 * on its peer QP (the WR may already have put both in ERR), a transition of
 * either QP other than to ERR, and a wait for any but the QP's oldest WR.
 */
#include "model/verbs/internal.h"

#include <string.h>

static int nowait_kind(enum m_op_kind k)
{
	return k == M_OP_WRITE || k == M_OP_READ || k == M_OP_CAS || k == M_OP_FADD;
}

/* A post of a WR on a QP's queue (the QP: acting_qp). */
static int post_kind(enum m_op_kind k)
{
	return nowait_kind(k) || k == M_OP_SEND || k == M_OP_WRITE_IMM || k == M_OP_RECV || k == M_OP_LOCAL_INV ||
	       k == M_OP_BIND_MW;
}

/* WR w as the post it was, one that waits. */
static struct m_op wr_op(const struct m_wr_out *w)
{
	struct m_op op = { .kind = w->kind, .node = w->node, .obj = w->qp };

	op.verbs = w->a;
	op.verbs.nowait = 0;
	return op;
}

/* Predict w in m's current state into *out. */
static int pred_wr(const struct model *m, const struct m_profile *p, const struct m_wr_out *w, struct m_pred *out)
{
	struct m_op op = wr_op(w);

	m_pred_init(out, &op);
	return m_pred_post(m, p, out);
}

/* The completion statuses among pr's alternatives, as bits. */
static uint32_t wc_bits(const struct m_pred *pr)
{
	uint32_t b = 0;

	for (unsigned i = 0; i < pr->n; i++)
		if (pr->alt[i].out.kind == M_OUT_WC && pr->alt[i].out.code >= 0 && pr->alt[i].out.code < 32)
			b |= 1u << pr->alt[i].out.code;
	return b;
}

/* w's QP's peer (node, QP) as it was connected; 0, or -1 when it has none. */
static int wr_peer(const struct model *m, const struct m_wr_out *w, int *pn, int *pq)
{
	const struct m_qp *q = &m->node[w->node].qp[w->qp];

	*pn = q->peer_node;
	*pq = q->peer_qp;
	return q->peer_node < 0 ? -1 : 0;
}

/* w, live, is done with: no longer outstanding. */
static void wr_end(struct model *m, struct m_wr_out *w)
{
	w->live = 0;
	m->outst.nlive--;
}

/* The oldest live WR of QP qp on node n: its index, or -1. */
static int oldest_on(const struct model *m, unsigned n, int qp)
{
	const struct m_outst_model *o = &m->outst;
	int k = -1;

	for (int i = 0; o->nlive && i < M_OUTST_MAX; i++)
		if (o->w[i].live && !o->w[i].kept && o->w[i].node == n && o->w[i].qp == qp &&
		    (k < 0 || o->w[i].seq < o->w[k].seq))
			k = i;
	return k;
}

/* How many live WRs QP qp of node n has. */
static unsigned count_on(const struct model *m, unsigned n, int qp)
{
	unsigned c = 0;

	for (int i = 0; m->outst.nlive && i < M_OUTST_MAX; i++)
		c += m->outst.w[i].live && !m->outst.w[i].kept && m->outst.w[i].node == n && m->outst.w[i].qp == qp;
	return c;
}

/* Whether a live WR has QP qp of node n as its peer (2), else is on it (1), else 0. */
static int touches(const struct model *m, unsigned n, int qp)
{
	int t = 0;

	for (int i = 0; m->outst.nlive && i < M_OUTST_MAX; i++) {
		const struct m_wr_out *w = &m->outst.w[i];
		int pn, pq;

		if (!w->live || w->kept)
			continue; /* a kept WR has not run yet */
		if (wr_peer(m, w, &pn, &pq) == 0 && pn == (int)n && pq == qp)
			return 2;
		if (w->node == n && w->qp == qp)
			t = 1;
	}
	return t;
}

int m_outst_on_qp(const struct model *m, unsigned n, int qp)
{
	return touches(m, n, qp) != 0;
}

int m_outst_check_any(const struct model *m, const struct m_op *op)
{
	enum m_op_kind k = (enum m_op_kind)op->kind;
	int qh = m_acting_qp(op);

	if (op->verbs.nowait) {
		/* wait=no: an RDMA WRITE, READ or atomic, signaled, not chained, on a QP whose send CQ is a
		 * CQ object (its completion waits there for the wait step) */
		if (!nowait_kind(k) || op->verbs.unsignaled || op->verbs.chain_pos || qh < 0 || qh >= M_MAX_QP ||
		    !m->node[op->node].cq.scq[qh])
			return -EINVAL;
	}
	if (post_kind(k) && qh >= 0 && qh < M_MAX_QP) {
		int t = touches(m, op->node, qh);

		if (t == 2 || (t == 1 && !op->verbs.nowait))
			return -EINVAL;
	}
	if ((k == M_OP_MODIFY_QP && op->verbs.qp_state != M_QPS_ERR) || k == M_OP_CONNECT)
		if (op->obj >= 0 && touches(m, op->node, op->obj))
			return -EINVAL;
	return 0;
}

void m_outst_seen_any(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	for (int i = 0; m->outst.nlive && i < M_OUTST_MAX; i++) {
		struct m_pred w;
		unsigned n = 0;

		if (!m->outst.w[i].live || pred_wr(m, p, &m->outst.w[i], &w))
			continue;
		/* A kept WR runs first at the doorbell: not after kept WRs (m_kept_alts, QP-STATE-1). */
		for (unsigned j = 0; j < w.n; j++)
			if (!m->outst.w[i].kept || !m_alt_has_rule(&w.alt[j], M_RULE_QP_STATE_1))
				w.alt[n++] = w.alt[j];
		w.n = (uint8_t)n;
		out->wr_seen[i] = wc_bits(&w);
	}
}

/* The rules of alternative a as a struct m_why. */
static struct m_why why_of(const struct m_alt *a)
{
	struct m_why w = { 0 };

	for (unsigned k = 0; k < a->nrules; k++)
		m_why_add(&w, (enum m_rule)a->rules[k]);
	return w;
}

void m_outst_nowait_any(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	struct m_alt old[M_ALT_MAX];
	struct m_why ok = { 0 };
	unsigned n = out->n;
	uint32_t bits = 0, depth;
	int qh = m_acting_qp(op);

	memcpy(old, out->alt, sizeof(old[0]) * n);
	out->n = 0;
	m_why_add(&ok, M_RULE_CQ_POLL_1);
	for (unsigned i = 0; i < n; i++) {
		struct m_why w = why_of(&old[i]);

		if (old[i].out.kind != M_OUT_WC) {
			m_alt_add(out, old[i].out, (enum m_effect)old[i].effect, &w, -1);
			continue;
		}
		bits |= 1u << old[i].out.code;
		for (unsigned k = 0; k < w.n; k++)
			m_why_add(&ok, (enum m_rule)w.r[k]);
	}
	if (bits)
		m_alt_add(out, O_OK, M_EFF_OUTSTANDING, &ok, -1); /* handed over: what it does comes later */
	out->wr_seen[M_OUTST_MAX] = bits;
	out->res.peer_node = out->res.peer_qp = -1; /* the peer is the wait step's to observe */
	/* The WRs outstanding on the QP fill its send queue unless they completed meanwhile (LP-7). */
	depth = m->node[op->node].cq.max_send[qh];
	if (depth && depth != M_SEND_DEPTH_ZERO && count_on(m, op->node, qh) >= depth) {
		struct m_set s = DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM), O_OK);
		struct m_why w = { 0 };

		m_why_add(&w, M_RULE_LP_7);
		for (unsigned i = 0; i < s.n; i++)
			if (s.o[i].kind != M_OUT_OK)
				m_alt_add(out, s.o[i], M_EFF_NONE, &w, -1);
	}
}

/* The effect an error status s had on the QPs if the WR ran before the state the wait sees. */
static enum m_effect early_effect(enum m_wc_status s)
{
	switch (s) {
	case M_WC_SUCCESS: return M_EFF_DO;
	case M_WC_WR_FLUSH_ERR: return M_EFF_NONE;
	case M_WC_REM_ACCESS_ERR: case M_WC_REM_INV_REQ_ERR: case M_WC_REM_OP_ERR: return M_EFF_BOTH_ERR;
	default: return M_EFF_QP_ERR;
	}
}

/* The live WR a wait op names (the oldest of its QP), or -1. */
static int waited(const struct model *m, const struct m_op *op)
{
	int k = op->obj >= 0 ? oldest_on(m, op->node, op->obj) : -1;

	return k >= 0 && m->outst.w[k].a.wr_id == op->verbs.wr_id ? k : -1;
}

int m_pred_wait(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	int k = waited(m, &out->op), rc;
	const struct m_wr_out *w;
	struct m_pred now;
	uint32_t bits;
	struct m_why base = { 0 };

	if (k < 0)
		return -EINVAL;
	w = &m->outst.w[k];
	if ((rc = pred_wr(m, p, w, &now)))
		return rc;
	out->res = now.res;
	m_why_add(&base, M_RULE_CQ_POLL_1);
	if (w->dereg)
		m_why_add(&base, M_RULE_MR_DEREG_3);
	/* Ran now: what the current state gives (a post's errno is no completion: it was posted). */
	for (unsigned i = 0; i < now.n; i++) {
		struct m_why why = why_of(&now.alt[i]);
		unsigned first = out->n;

		if (now.alt[i].out.kind == M_OUT_ERRNO)
			continue;
		for (unsigned r = 0; r < base.n; r++)
			m_why_add(&why, (enum m_rule)base.r[r]);
		m_alt_add(out, now.alt[i].out, (enum m_effect)now.alt[i].effect, &why, -1);
		for (unsigned j = first; j < out->n; j++) {
			out->alt[j].target_unknown = now.alt[i].target_unknown;
			out->alt[j].remote_done = now.alt[i].remote_done;
		}
	}
	if (!out->n)
		m_alt_add(out, O_WC(M_WC_WR_FLUSH_ERR), M_EFF_NONE, &base, -1); /* refused now: flushed */
	/* Ran earlier: every status a state since the post allowed. */
	bits = w->seen & ~wc_bits(out);
	for (int s = 0; s < 32; s++)
		if (bits & (1u << s))
			m_alt_add(out, O_WC(s), early_effect((enum m_wc_status)s), &base, -1);
	/* Done at the requester before the responder's MR went, the responder may still meet the dead
	 * key afterwards (a request retried): it goes to ERR alone (seen on rxe 6.1.0-56: a 1 MiB READ
	 * whose source was deregistered completed SUCCESS, the responder QP in ERR). */
	if (w->dereg && (w->seen & 1u << M_WC_SUCCESS))
		for (unsigned i = 0; i < now.n; i++)
			if (now.alt[i].effect == M_EFF_BOTH_ERR) {
				m_alt_add(out, O_WC(M_WC_SUCCESS), M_EFF_PEER_ERR, &base, -1);
				break;
			}
	return 0;
}

/* The registration (live or not) of node nd whose key (lkey, or rkey when remote) is key, or -1. */
static int mr_ever_by_key(const struct m_node *nd, uint32_t key, int remote)
{
	for (int i = 0; i < nd->nmr; i++)
		if (nd->mr[i].ever && (remote ? nd->mr[i].rkey : nd->mr[i].lkey) == key)
			return i;
	return -1;
}

/* Bytes [a, a+len) of mr's address space starting at base become unknown (clipped to the MR). */
static void unknown_range(struct m_mr *mr, uint64_t base, uint64_t a, uint64_t len)
{
	uint64_t lo, hi;

	if (!mr->mem || a >= base + mr->len || a + len <= base || a + len < a)
		return;
	lo = a > base ? a - base : 0;
	hi = a + len - base < mr->len ? a + len - base : mr->len;
	m_mr_unknown(mr, lo, hi - lo);
}

/* What w writes (a READ's and an atomic's local buffer, a WRITE's and an atomic's target) is unknown. */
static void unknown_dest(struct model *m, const struct m_wr_out *w)
{
	uint64_t len = w->kind == M_OP_CAS || w->kind == M_OP_FADD ? 8 : w->a.len;
	struct m_node *nd = &m->node[w->node];
	int pn, pq, h;

	if (w->kind != M_OP_WRITE && !w->a.no_sge && (h = mr_ever_by_key(nd, w->a.lkey, 0)) >= 0)
		unknown_range(&nd->mr[h], nd->mr[h].addr, w->a.laddr, len);
	if (w->kind == M_OP_READ || wr_peer(m, w, &pn, &pq))
		return;
	struct m_node *peer = &m->node[pn];

	if ((h = mr_ever_by_key(peer, w->a.rkey, 1)) >= 0) {
		unknown_range(&peer->mr[h], peer->mr[h].iova, w->a.raddr, len);
		return;
	}
	for (int i = 0; i < peer->nmw; i++) {
		const struct m_mw *mw = &peer->mw[i];

		if (mw->ever && mw->rkey == w->a.rkey && mw->mr >= 0 && w->a.raddr <= UINT64_MAX - mw->start)
			unknown_range(&peer->mr[mw->mr], peer->mr[mw->mr].iova,
				      w->a.raddr + (mw->zero_based ? mw->start : 0), len);
	}
}

/* Does w name MR h of node n (its local lkey, or the rkey it targets)? */
static int names_mr(const struct model *m, const struct m_wr_out *w, unsigned n, int h)
{
	const struct m_mr *mr = &m->node[n].mr[h];
	int pn, pq;

	return (n == w->node && !w->a.no_sge && mr->lkey == w->a.lkey) ||
	       (wr_peer(m, w, &pn, &pq) == 0 && pn == (int)n && mr->rkey == w->a.rkey);
}

int m_outst_names_mr(const struct model *m, unsigned n, int h)
{
	for (int i = 0; m->outst.nlive && i < M_OUTST_MAX; i++)
		if (m->outst.w[i].live && names_mr(m, &m->outst.w[i], n, h))
			return 1;
	return 0;
}

/* The CQ handle + 1 w completes into. */
static uint8_t wr_cq(const struct model *m, const struct m_wr_out *w)
{
	return m->node[w->node].cq.scq[w->qp];
}

/* The wait step: w's commit as the post it was, then what stays unknown. Returns model_apply's. */
static int resolve(struct model *m, const struct m_pred *pred, size_t i, int k)
{
	struct m_wr_out *w = &m->outst.w[k];
	struct m_op op = wr_op(w);
	struct m_cq *cq = &m->node[w->node].cq.cq[wr_cq(m, w) - 1];
	uint32_t pushes = cq->pushes, bits = w->seen | pred->wr_seen[k];
	int created, rc;

	wr_end(m, w);
	op.verbs.nowait = 1; /* committed as w itself: no race with the younger WRs of its QP */
	rc = m_verbs_step_apply(m, &op, &pred->res, &pred->alt[i], &created);
	cq->pushes = pushes; /* its own completion counts as arriving when it ran */
	/* Completions that arrived meanwhile (or may arrive, of another QP's outstanding WRs) came
	 * before or after it: the CQ's order is unknown. */
	for (int j = 0; m->outst.nlive && j < M_OUTST_MAX; j++)
		if (m->outst.w[j].live && m->outst.w[j].node == w->node && wr_cq(m, &m->outst.w[j]) == wr_cq(m, w) &&
		    m->outst.w[j].qp != w->qp)
			cq->overrun = 1;
	if (pushes != w->pushes)
		cq->overrun = 1;
	if (w->raced || (bits & (bits - 1)))
		unknown_dest(m, w);
	return rc;
}

/* w was posted (effect M_EFF_OUTSTANDING): remember it; what it writes is unknown from now on. */
static int hand_over(struct model *m, const struct m_pred *pred)
{
	const struct m_op *op = &pred->op;
	struct m_outst_model *o = &m->outst;

	for (int k = 0; k < M_OUTST_MAX; k++) {
		struct m_wr_out *w = &o->w[k];

		if (w->live)
			continue;
		*w = (struct m_wr_out){ .live = 1, .kind = op->kind, .node = op->node, .qp = op->obj, .a = op->verbs,
					.seen = pred->wr_seen[M_OUTST_MAX], .seq = o->seq++ };
		o->nlive++;
		w->pushes = m->node[op->node].cq.cq[wr_cq(m, w) - 1].pushes;
		m_chan_unfollowed(m, op->node, wr_cq(m, w)); /* its completion's event is not followed */
		unknown_dest(m, w);
		return 0;
	}
	return -ENOSPC;
}

/* A send WR refused below RTS (effect M_EFF_SQ_KEPT) on a QP with a send CQ object: kept. */
static void keep(struct model *m, const struct m_op *op)
{
	int qh = m_acting_qp(op);

	if (qh < 0 || qh >= M_MAX_QP || !m->node[op->node].cq.scq[qh])
		return;
	if (!nowait_kind((enum m_op_kind)op->kind)) {
		m->node[op->node].cq.cq[m->node[op->node].cq.scq[qh] - 1].overrun = 1; /* its completion: not followed */
		return;
	}
	for (int k = 0; k < M_OUTST_MAX; k++)
		if (!m->outst.w[k].live) {
			m->outst.w[k] = (struct m_wr_out){ .live = 1, .kept = 1, .kind = op->kind, .node = op->node,
							  .qp = (int16_t)qh, .a = op->verbs, .seq = m->outst.seq++ };
			m->outst.w[k].a.nowait = 0;
			m->outst.nlive++;
			return;
		}
}

/*
 * The doorbell pred rings on QP qh of node n (RTS, WRs kept): they run first, oldest first. Alone,
 * one completes with the status it could have in the state the doorbell was predicted in (what it
 * moved unknown); with others, or several statuses, its CQ's contents are undefined (the QP's fate
 * is the doorbell's alternative, m_kept_alts).
 */
static void ring(struct model *m, const struct m_pred *pred, unsigned n, int qh)
{
	unsigned kept = 0;

	m->node[n].qp[qh].sq_kept = 0;
	for (int k = 0; m->outst.nlive && k < M_OUTST_MAX; k++)
		kept += m->outst.w[k].live && m->outst.w[k].kept && m->outst.w[k].node == n && m->outst.w[k].qp == qh;
	for (int k = 0; k < M_OUTST_MAX; k++) {
		struct m_wr_out *w = &m->outst.w[k];
		uint32_t bits = pred->wr_seen[k];
		int created;

		if (!w->live || !w->kept || w->node != n || w->qp != qh)
			continue;
		wr_end(m, w);
		if (kept == 1 && bits && !(bits & (bits - 1))) {
			int s = __builtin_ctz(bits);
			struct m_op op = wr_op(w);
			struct m_alt a = { .out = O_WC(s), .effect = (uint8_t)early_effect((enum m_wc_status)s),
					   .peer_recv = -1 };

			m_verbs_step_apply(m, &op, NULL, &a, &created);
		} else {
			m->node[n].cq.cq[wr_cq(m, w) - 1].overrun = 1;
		}
		unknown_dest(m, w);
	}
}

/* A kept WR on QP qh of node n that op (alternative a) ends before it ran: forgotten (1), or 0. */
static int unkept(struct model *m, const struct m_op *op, const struct m_alt *a, struct m_wr_out *w)
{
	if (!w->kept || a->effect != M_EFF_DO || w->node != op->node || w->qp != op->obj)
		return 0;
	if (op->kind == M_OP_DESTROY_QP || (op->kind == M_OP_MODIFY_QP && op->verbs.qp_state == M_QPS_RESET))
		return 1; /* the queue is gone: no completion */
	if (op->kind == M_OP_MODIFY_QP && op->verbs.qp_state == M_QPS_ERR) {
		m->node[w->node].cq.cq[wr_cq(m, w) - 1].overrun = 1; /* flushed, or never run */
		return 1;
	}
	return 0;
}

/* Does committing op (alternative a) move bytes that outstanding WR w may move too? */
static int races(const struct m_op *op, const struct m_alt *a, const struct m_wr_out *w, const struct model *m)
{
	enum m_op_kind k = (enum m_op_kind)op->kind;
	int qh = m_acting_qp(op), j;

	if (k == M_OP_FILL)
		return 1;
	if (a->effect == M_EFF_NONE || a->out.kind == M_OUT_ERRNO)
		return 0;
	if (k == M_OP_WAIT)
		return (j = waited(m, op)) >= 0 && (m->outst.w[j].node != w->node || m->outst.w[j].qp != w->qp);
	if (!nowait_kind(k) && k != M_OP_SEND && k != M_OP_WRITE_IMM)
		return 0;
	return !(op->verbs.nowait && op->node == w->node && qh == w->qp); /* same QP: runs after w */
}

int m_outst_apply_any(struct model *m, const struct m_pred *pred, size_t i, int *handled)
{
	const struct m_op *op = &pred->op;
	const struct m_alt *a = &pred->alt[i];
	int k;

	*handled = 0;
	for (int j = 0; m->outst.nlive && j < M_OUTST_MAX; j++) {
		struct m_wr_out *w = &m->outst.w[j];

		if (!w->live)
			continue;
		if (unkept(m, op, a, w)) {
			wr_end(m, w);
			continue; /* forgotten */
		}
		if (w->kept)
			continue;
		w->seen |= pred->wr_seen[j];
		w->raced |= (uint8_t)races(op, a, w, m);
		if (op->kind == M_OP_DEREG_MR && a->effect == M_EFF_DO && names_mr(m, w, op->node, op->obj))
			w->dereg = 1;
		if (op->kind == M_OP_POLL_CQ && w->node == op->node && wr_cq(m, w) == op->obj + 1)
			m->node[w->node].cq.cq[op->obj].overrun = 1; /* it took the WR's completion, or not yet */
		if (op->kind == M_OP_DESTROY_QP && a->effect == M_EFF_DO && w->node == op->node && w->qp == op->obj) {
			/* its completion came before the QP went, or never */
			m->node[w->node].cq.cq[wr_cq(m, w) - 1].overrun = 1;
			wr_end(m, w);
		}
	}
	if (post_kind((enum m_op_kind)op->kind) && op->kind != M_OP_RECV) {
		int qh = m_acting_qp(op);

		if (a->effect == M_EFF_SQ_KEPT)
			keep(m, op);
		else if (a->effect != M_EFF_NONE && qh >= 0 && qh < m->node[op->node].nqp &&
			 m->node[op->node].qp[qh].state == M_QPS_RTS && m->node[op->node].qp[qh].sq_kept)
			ring(m, pred, op->node, qh); /* the doorbell: kept WRs run first */
	}
	if (op->kind == M_OP_WAIT) {
		*handled = 1;
		return (k = waited(m, op)) < 0 ? -EINVAL : resolve(m, pred, i, k);
	}
	if (a->effect == M_EFF_OUTSTANDING) {
		*handled = 1;
		return hand_over(m, pred);
	}
	return 0;
}

/* apply.c — the verbs family's commit: one predicted alternative into the model's state. */
#include "model/verbs/internal.h"

#include <stdlib.h>
#include <string.h>

void m_qp_to_err(struct m_qp *q)
{
	q->state = M_QPS_ERR;
	q->nrecv = 0; /* posted receives are flushed (RA-ERR-2) */
}

static uint64_t load64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static void store64(uint8_t *b, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		b[i] = (uint8_t)v;
}

/*
 * The responder's half of a CAS/FADD (RA-ATOM-3): update the 8 bytes at
 * t+toff and return their original value (*unknown: it was unspecified).
 */
static uint64_t atomic_at_target(const struct m_op *op, struct m_mr *t, uint64_t toff, int *unknown)
{
	uint8_t b[8];
	uint64_t old, nv;

	*unknown = 0;
	if (!t->mem)
		return 0;
	m_mem_get(t->mem, t->moff + toff, b, 8, unknown);
	old = load64(b);
	nv = op->kind == M_OP_FADD ? old + op->verbs.swap : (old == op->verbs.compare ? op->verbs.swap : old);
	store64(b, nv);
	/* the bytes written keep their marks; a CAS of unknown bytes: whether it swapped is unknown */
	for (uint64_t i = 0; i < 8; i++) {
		const uint8_t *pb, *pu;

		model_mem_at(t->mem, t->moff + toff + i, 1, &pb, &pu);
		m_mr_put(t, toff + i, b + i, 1, *pu || (op->kind == M_OP_CAS && *unknown));
	}
	return old;
}

/* Copy len bytes (with their known/unknown marks) between two MRs. */
static void copy_bytes(struct m_mr *dst, uint64_t doff, const struct m_mr *src, uint64_t soff, uint64_t len)
{
	if (dst->mem && src->mem)
		m_mem_copy(dst->mem, dst->moff + doff, src->mem, src->moff + soff, len);
}

/* A new buffer of len bytes at page offset off for MR h: its memory and address. */
static int new_buffer(struct m_node *nd, struct m_mr *mr, int h, uint64_t len, uint64_t off, uint8_t prot)
{
	int rc = m_mem_new(&mr->mem, len);

	if (rc)
		return rc;
	mr->moff = 0;
	mr->buf = (int16_t)h;
	mr->prot = prot;
	mr->addr = nd->next_va + off;
	nd->next_va += (off + len + M_PAGE - 1) / M_PAGE * M_PAGE + M_PAGE; /* a guard page between buffers */
	return 0;
}

/* MR mr registers len bytes of MR o's buffer from its byte off: the same memory. */
static void same_buffer(struct m_node *nd, struct m_mr *mr, const struct m_mr *o, uint64_t off)
{
	const struct m_mr *own = &nd->mr[o->buf];
	uint64_t rel = o->addr + off - own->addr;

	mr->buf = o->buf;
	mr->prot = o->prot;
	mr->addr = o->addr + off;
	mr->mem = own->mem;
	mr->moff = own->moff + rel;
}

/* rereg_mr buf= (MR-REREG-10): MR op->obj is len bytes of MR op->verbs.mr's buffer from buf_off now,
 * its own bytes (no other registration's, pred_rereg_mr checked) freed; its address is the new one. */
static void rereg_new_buffer(struct m_node *nd, const struct m_op *op)
{
	struct m_mr *mr = &nd->mr[op->obj];

	if (mr->buf == op->obj)
		m_mem_drop(mr->mem);
	same_buffer(nd, mr, &nd->mr[op->verbs.mr], op->verbs.buf_off);
	mr->len = op->verbs.len;
	mr->iova = mr->addr;
}

/* len bytes from src (NULL: bytes the model does not know, an inline post's
 * from memory it never had: LP-3) land in dst at doff. */
void m_land(struct m_mr *dst, uint64_t doff, const struct m_mr *src, uint64_t soff, uint64_t len)
{
	if (src)
		copy_bytes(dst, doff, src, soff, len);
	else
		m_mr_unknown(dst, doff, len);
}

static int apply_reg_mr(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node];
	struct m_mr *mr;
	int rc, s = m_slot_mr(m, op->node, op->verbs.in_buf ? op->verbs.mr : -1);

	if (s < 0)
		return s;
	mr = &nd->mr[s];
	memset(mr, 0, sizeof(*mr));
	if (op->verbs.in_buf)
		same_buffer(nd, mr, &nd->mr[op->verbs.mr], op->verbs.buf_off);
	else if ((rc = new_buffer(nd, mr, s, op->verbs.len, op->verbs.offset, op->verbs.prot)))
		return rc;
	mr->live = mr->ever = 1;
	mr->pd = op->verbs.pd;
	mr->access = op->verbs.access & ~M_ACC_OPTIONAL_RANGE;
	mr->len = op->verbs.len;
	mr->iova = op->verbs.has_iova ? op->verbs.iova : mr->addr;
	mr->lkey = m_new_key(nd);
	mr->rkey = m_new_key(nd);
	nd->pd[op->verbs.pd].usecnt++;
	*created = s;
	nd->nmr += s == nd->nmr;
	return 0;
}

static void apply_bind_mw(struct model *m, const struct m_op *op)
{
	struct m_node *nd = &m->node[op->node];
	struct m_mw *mw = &nd->mw[op->obj];

	if (mw->bound)
		nd->mr[mw->mr].nbound--;
	mw->bound = 0;
	if (op->verbs.len == 0 && mw->type == M_MW_TYPE_1)
		return; /* MW-INV-1: unbound; the rkey dies with the next key below */
	mw->bound = 1;
	mw->mr = op->verbs.mr;
	mw->start = op->verbs.offset;
	mw->len = op->verbs.len;
	mw->access = op->verbs.access;
	mw->zero_based = (uint8_t)(op->verbs.zero_based & 1);
	mw->bind_qp = op->verbs.qp;
	mw->rkey = m_new_key(nd); /* MW-KEY-1: the previous rkey dies */
	nd->mr[op->verbs.mr].nbound++;
}

static void unbind_mw(struct m_node *nd, struct m_mw *mw)
{
	if (mw->bound)
		nd->mr[mw->mr].nbound--;
	mw->bound = 0;
}

/* The first posted receive of q is used up (a SEND, a WRITE with immediate). */
void m_consume_recv(struct m_qp *q)
{
	memmove(&q->recv[0], &q->recv[1], sizeof(q->recv[0]) * (size_t)(q->nrecv - 1));
	q->nrecv--;
}

/* The successful effect of a posted WR (M_EFF_DO). */
static void apply_post(struct model *m, const struct m_pred *pr)
{
	const struct m_op *op = &pr->op;
	const struct m_resolved *r = &pr->res;
	struct m_node *nd = &m->node[op->node];
	struct m_mr *l = r->lmr >= 0 ? &nd->mr[r->lmr] : NULL;
	struct m_node *pn = r->peer_node >= 0 ? &m->node[r->peer_node] : NULL;
	struct m_mr *t = pn && r->tmr >= 0 ? &pn->mr[r->tmr] : NULL;

	switch ((enum m_op_kind)op->kind) {
	case M_OP_WRITE:
	case M_OP_WRITE_IMM:
		if (t && op->verbs.len)
			m_sge_gather(nd, pr, t, r->toff);
		if (op->kind == M_OP_WRITE_IMM) /* it consumes the peer's first receive (RA-WRITE-2) */
			m_rq_consume(pn, r->peer_qp);
		break;
	case M_OP_READ:
		if (t && op->verbs.len)
			m_sge_scatter(nd, pr, t, r->toff);
		break;
	case M_OP_CAS:
	case M_OP_FADD: {
		if (!t || !l)
			break;
		int unknown = 0;
		uint8_t b[8];

		store64(b, atomic_at_target(op, t, r->toff, &unknown));
		m_sge_scatter_bytes(nd, pr, b, unknown);
		break;
	}
	case M_OP_SEND: {
		const struct m_recv *rq = m_rq_head(pn, r->peer_qp);

		if (rq && rq->nmore && op->verbs.len) /* into the receive's SGEs in turn */
			m_recv_scatter(nd, pr, pn, rq);
		else if (r->rmr >= 0 && op->verbs.len)
			m_sge_gather(nd, pr, &pn->mr[r->rmr], r->roff);
		m_rq_consume(pn, r->peer_qp);
		if (r->inv_mw >= 0)
			unbind_mw(pn, &pn->mw[r->inv_mw]);
		break;
	}
	case M_OP_RECV: {
		struct m_qp *q = &nd->qp[op->obj];

		if (m_recv_store(nd, op, &q->recv[q->nrecv]) == 0)
			q->nrecv++;
		break;
	}
	case M_OP_LOCAL_INV:
		if (r->inv_mw >= 0)
			unbind_mw(nd, &nd->mw[r->inv_mw]);
		break;
	case M_OP_BIND_MW:
		apply_bind_mw(m, op);
		break;
	default:
		break;
	}
}

static int apply_do(struct model *m, const struct m_pred *pr, int *created)
{
	const struct m_op *op = &pr->op;
	struct m_node *nd = &m->node[op->node];
	int s;

	switch ((enum m_op_kind)op->kind) {
	case M_OP_ALLOC_PD:
		if ((s = m_slot_pd(m, op->node)) < 0)
			return s;
		nd->pd[s] = (struct m_pd){ .live = 1, .ever = 1 };
		*created = s;
		nd->npd += s == nd->npd;
		return 0;
	case M_OP_DEALLOC_PD:
		nd->pd[op->obj].live = 0;
		return 0;
	case M_OP_REG_MR:
		return apply_reg_mr(m, op, created);
	case M_OP_DEREG_MR:
		nd->mr[op->obj].live = 0;
		nd->pd[nd->mr[op->obj].pd].usecnt--;
		return 0;
	case M_OP_REREG_MR: {
		struct m_mr *mr = &nd->mr[op->obj];

		if (op->verbs.rereg_flags & M_REREG_CHANGE_PD) {
			nd->pd[mr->pd].usecnt--;
			mr->pd = op->verbs.pd;
			nd->pd[mr->pd].usecnt++;
		}
		if (op->verbs.rereg_flags & M_REREG_CHANGE_ACCESS)
			mr->access = op->verbs.access & ~M_ACC_OPTIONAL_RANGE;
		if (op->verbs.in_buf)
			rereg_new_buffer(nd, op);
		return 0;
	}
	case M_OP_ALLOC_MW:
		if ((s = m_slot_mw(m, op->node)) < 0)
			return s;
		nd->mw[s] = (struct m_mw){ .live = 1, .ever = 1, .type = (uint8_t)op->verbs.mw_type,
						 .pd = op->verbs.pd, .mr = -1, .bind_qp = -1,
						 .rkey = m_new_key(nd) };
		nd->pd[op->verbs.pd].usecnt++;
		*created = s;
		nd->nmw += s == nd->nmw;
		return 0;
	case M_OP_DEALLOC_MW: {
		struct m_mw *mw = &nd->mw[op->obj];

		unbind_mw(nd, mw);
		mw->live = 0;
		nd->pd[mw->pd].usecnt--;
		return 0;
	}
	case M_OP_CREATE_QP:
		if ((s = m_slot_qp(m, op->node)) < 0)
			return s;
		nd->qp[s] = (struct m_qp){ .live = 1, .ever = 1, .state = M_QPS_RESET, .pd = op->verbs.pd,
						 .max_recv = (op->verbs.lim_max & M_LIMK_RECV_WR) ? M_MAX_RECV
							: (op->verbs.zero_wr & M_ZERO_RECV_WR) ? 0
							: (uint8_t)(op->verbs.max_recv_wr ? op->verbs.max_recv_wr : M_RECV_DEPTH_DEFAULT),
						 .max_inline = (uint16_t)op->verbs.max_inline, .type = op->verbs.qp_type,
						 .max_send_sge = (op->verbs.lim_max & M_LIMK_SEND_SGE) ? M_SGE_MAX /* all a WR may give */
							: op->verbs.max_send_sge ? op->verbs.max_send_sge : 1,
						 .max_recv_sge = (op->verbs.lim_max & M_LIMK_RECV_SGE) ? M_SGE_MAX
							: op->verbs.max_recv_sge ? op->verbs.max_recv_sge : 1,
						 .access = op->verbs.access, .peer_node = -1, .peer_qp = -1,
						 .qpn = 0x11 + (uint32_t)s };
		nd->pd[op->verbs.pd].usecnt++;
		nd->ud.qkey[s] = 0;      /* a reused slot: its UD and SRQ state start over */
		m_srq_attach(nd, s, op->verbs.srq1);
		*created = s;
		nd->nqp += s == nd->nqp;
		return 0;
	case M_OP_CONNECT: {
		struct m_qp *a = &nd->qp[op->obj], *b = &m->node[op->verbs.peer_node].qp[op->verbs.peer_qp];

		a->state = b->state = M_QPS_RTS;
		a->no_rd_atomic = b->no_rd_atomic = op->verbs.no_rd_atomic;
		m_qp_rd_atomic_connected(a, b, op);
		a->peer_node = op->verbs.peer_node;
		a->peer_qp = op->verbs.peer_qp;
		b->peer_node = op->node;
		b->peer_qp = op->obj;
		return 0;
	}
	case M_OP_MODIFY_QP:
		m_apply_modify_qp(m, op);
		return 0;
	case M_OP_CREATE_AH:
	case M_OP_DESTROY_AH:
		return m_apply_ah(m, op, created);
	case M_OP_CREATE_SRQ:
	case M_OP_DESTROY_SRQ:
	case M_OP_POST_SRQ_RECV:
	case M_OP_MODIFY_SRQ:
	case M_OP_QUERY_SRQ:
		return m_apply_srq(m, op, created);
	case M_OP_FIELDS:
		return 0; /* a read of the struct: nothing changes */
	case M_OP_DESTROY_QP:
		m_srq_attach(nd, op->obj, 0);
		nd->qp[op->obj].live = 0;
		nd->pd[nd->qp[op->obj].pd].usecnt--;
		return 0;
	case M_OP_FILL: {
		struct m_mr *mr = &nd->mr[op->obj];
		uint64_t len = op->verbs.len ? op->verbs.len : mr->len - op->verbs.offset;

		if (mr->mem)
			m_mem_fill(mr->mem, mr->moff + op->verbs.offset, op->verbs.byte, len);
		return 0;
	}
	default:
		apply_post(m, pr);
		return 0;
	}
}

/* A post to the send queue (what rings the doorbell of kept WRs, M_EFF_SQ_KEPT)? */
static int send_post(enum m_op_kind k)
{
	return k == M_OP_WRITE || k == M_OP_READ || k == M_OP_CAS || k == M_OP_FADD || k == M_OP_SEND ||
	       k == M_OP_BIND_MW || k == M_OP_LOCAL_INV;
}

static int verbs_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	const struct m_alt *a = &pred->alt[i];

	if (send_post((enum m_op_kind)op->kind)) {
		struct m_qp *q = &m->node[op->node].qp[m_acting_qp(op)];

		if (a->effect == M_EFF_SQ_KEPT)
			q->sq_kept |= m_kept_kind(&m->node[op->node], op);
		else if (a->effect != M_EFF_NONE)
			q->sq_kept = 0; /* the doorbell ran the kept WRs first (NONE: state untouched) */
	}

	if (a->target_unknown && pred->res.tmr >= 0 && pred->res.peer_node >= 0) {
		/* RA-WRITE-1: the part of the refused range inside the MR is unspecified. */
		struct m_mr *t = &m->node[pred->res.peer_node].mr[pred->res.tmr];
		uint64_t start = op->verbs.raddr > t->iova ? op->verbs.raddr - t->iova : 0;

		if (start < t->len)
			m_mr_unknown(t, start, t->len - start < op->verbs.len ? t->len - start : op->verbs.len);
	}
	if (op->kind == M_OP_SEND && (a->effect == M_EFF_DO || a->effect == M_EFF_PEER_ERR) &&
	    m->node[op->node].qp[op->obj].type == M_QPT_UD) {
		m_apply_ud_send(m, pred, a); /* what the destination made of it (ud.c) */
		return 0;
	}
	switch ((enum m_effect)a->effect) {
	case M_EFF_NONE:
	case M_EFF_SQ_KEPT:
	case M_EFF_OUTSTANDING: /* outstanding.c took it */
		return 0;
	case M_EFF_DO:
		return apply_do(m, pred, created);
	case M_EFF_QP_ERR:
	case M_EFF_BOTH_ERR: {
		int qh = m_acting_qp(op);
		struct m_qp *q = &m->node[op->node].qp[qh];

		m_qp_to_err(q);
		if (a->remote_done && pred->res.tmr >= 0 && pred->res.peer_node >= 0) {
			int unknown;

			atomic_at_target(op, &m->node[pred->res.peer_node].mr[pred->res.tmr], pred->res.toff,
					 &unknown);
		}
		if (a->effect == M_EFF_BOTH_ERR && q->peer_node >= 0) {
			if (op->kind == M_OP_SEND) /* a receive with several SGEs may be partly written */
				m_recv_failed(&m->node[q->peer_node], q->peer_qp, op->verbs.len);
			m_qp_to_err(&m->node[q->peer_node].qp[q->peer_qp]);
		}
		return 0;
	}
	case M_EFF_PEER_ERR: {
		const struct m_resolved *r = &pred->res;
		struct m_node *pn = &m->node[r->peer_node];

		/* The payload may have landed before the responder failed. */
		if (!m_recv_failed(pn, r->peer_qp, op->verbs.len) && r->rmr >= 0 && op->verbs.len)
			m_mr_unknown(&pn->mr[r->rmr], r->roff, op->verbs.len);
		m_qp_to_err(&pn->qp[r->peer_qp]);
		return 0;
	}
	case M_EFF_CRASH:
		m->crashed = 1;
		return 0;
	}
	return -EINVAL;
}

int m_verbs_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_alt *a = &pred->alt[i];
	int made = -1, rc, handled;

	if ((rc = m_outst_apply(m, pred, i, &handled)) || handled)
		return rc;
	if (m_cq_op((enum m_op_kind)pred->op.kind))
		rc = m_cq_apply(m, pred, i, &made);
	else if (m_chan_op((enum m_op_kind)pred->op.kind))
		rc = m_chan_apply(m, pred, i, &made);
	else if (a->out.kind == M_OUT_ERRNO && a->effect == M_EFF_NONE && a->peer_recv < 0 && !a->target_unknown)
		rc = 0; /* a call refused that changes nothing: no completion, no state (most steps) */
	else {
		m_cq_note(m, pred, i); /* what it completes into CQs, before the receive queues change */
		rc = verbs_apply(m, pred, i, &made);
		if (rc == 0)
			m_cq_after(m, pred, i, made);
	}
	if (created)
		*created = made;
	return rc;
}

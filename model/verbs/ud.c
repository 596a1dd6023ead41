/*
 * ud.c — UD QPs: address handles (create_ah, destroy_ah; an AH holds its
 * PD, PD-3), what a post on a UD QP may do (UD-SEND-*, UD-AH-1, RA-ATOM-4,
 * MW-BIND-4) and the commit of a UD SEND (the GRH in front of the payload).
 */
#include "model/verbs/internal.h"

#include <string.h>

#define WC_ERR(s) O_WC(M_WC_##s)
#define QKEY_OWN 0x80000000u /* a WR Q_Key with the high bit set: the QP's own is sent */

int m_pred_ah(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	(void)p;
	if (op->kind == M_OP_CREATE_AH) {
		if (op->verbs.pd < 0 || op->verbs.pd >= nd->npd || !nd->pd[op->verbs.pd].live ||
		    op->verbs.ah_node >= m->nnodes)
			return -EINVAL;
	} else if (op->obj < 0 || op->obj >= nd->ud.nah || !nd->ud.ah[op->obj].live) {
		return -EINVAL;
	}
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

int m_apply_ah(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node];

	if (op->kind == M_OP_DESTROY_AH) {
		nd->ud.ah[op->obj].live = 0;
		nd->pd[nd->ud.ah[op->obj].pd].usecnt--;
		return 0;
	}
	if (nd->ud.nah >= M_MAX_AH)
		return -ENOSPC;
	nd->ud.ah[nd->ud.nah] = (struct m_ah){ .live = 1, .ever = 1, .node = op->verbs.ah_node, .pd = op->verbs.pd };
	nd->pd[op->verbs.pd].usecnt++;
	*created = nd->ud.nah++;
	return 0;
}

/* Outcomes of set s: the WCs take the QP to ERR, errnos change nothing. */
static void refuse(struct m_pred *out, const struct m_set *s, const struct m_why *why)
{
	for (unsigned i = 0; i < s->n; i++)
		m_alt_add(out, s->o[i], s->o[i].kind == M_OUT_WC ? M_EFF_QP_ERR : M_EFF_NONE, why, -1);
}

/* The destination's answer to a UD SEND that left the requester (UD-SEND-1, UD-SEND-3, LP-4). */
static void ud_deliver(const struct model *m, const struct m_profile *p, uint32_t qkey, struct m_pred *out,
		       struct m_why why)
{
	const struct m_op *op = &out->op;

	if (out->res.peer_qp < 0) {
		m_why_add(&why, M_RULE_UD_SEND_3); /* no QP of that number */
		m_alt_add(out, WC_ERR(SUCCESS), M_EFF_NONE, &why, -1);
		return;
	}
	const struct m_node *pn = &m->node[out->res.peer_node];
	const struct m_qp *pq = &pn->qp[out->res.peer_qp];

	const struct m_recv *rq = m_rq_head(pn, out->res.peer_qp);

	if (!pq->live || pq->type != M_QPT_UD || pq->state < M_QPS_RTR || pq->state == M_QPS_ERR ||
	    pn->ud.qkey[out->res.peer_qp] != qkey || !rq) {
		m_why_add(&why, M_RULE_UD_SEND_3);
		m_alt_add(out, WC_ERR(SUCCESS), M_EFF_NONE, &why, -1);
		return;
	}
	enum m_rule rr;

	if (!m_sge_valid(pn, pq->pd, rq->lkey, rq->addr, rq->len, 1, &out->res.rmr, &out->res.roff, &rr)) {
		/* A malformed receive WQE (class A): the responder QP to ERR, what of the
		 * buffer lies in its MR may be written; no ACK on UD. */
		struct m_set r = DECIDE(p, LP_4, PART_PEER_RECV, WC_ERR(LOC_PROT_ERR), WC_ERR(LOC_QP_OP_ERR));

		m_why_add(&why, rr);
		m_why_add(&why, M_RULE_LP_4);
		for (unsigned i = 0; i < r.n; i++)
			m_alt_add(out, WC_ERR(SUCCESS), M_EFF_PEER_ERR, &why, r.o[i].code);
		return;
	}
	if (op->verbs.len + M_UD_GRH > rq->len) {
		/* Too short for GRH and payload: dropped with the receive left posted (a
		 * SUCCESS here), or the receive completes in error and the QP goes to ERR;
		 * the buffer may be partly written either way (m_apply_ud_send). */
		struct m_set r = DECIDE(p, UD_SEND_3, PART_PEER_RECV, WC_ERR(SUCCESS), WC_ERR(LOC_LEN_ERR));

		m_why_add(&why, M_RULE_UD_SEND_3);
		for (unsigned i = 0; i < r.n; i++)
			m_alt_add(out, WC_ERR(SUCCESS), r.o[i].code == M_WC_SUCCESS ? M_EFF_DO : M_EFF_PEER_ERR, &why,
				  r.o[i].code == M_WC_SUCCESS ? -1 : r.o[i].code);
		return;
	}
	m_why_add(&why, M_RULE_UD_SEND_1);
	m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, M_WC_SUCCESS);
}

/* A SEND on a UD QP q of node nd, in RTS: MTU, the local SGE, the AH, then the destination. */
static int ud_send(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
		   struct m_why why)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	int qh = op->obj;

	if (op->verbs.with_inv || op->verbs.ah < 0 || op->verbs.ah >= nd->ud.nah || !nd->ud.ah[op->verbs.ah].live)
		return -EINVAL; /* SEND_WITH_INV is RC's; a destroyed AH is a freed pointer */
	const struct m_ah *ah = &nd->ud.ah[op->verbs.ah];

	if (op->verbs.peer_qp >= 0 && op->verbs.peer_node != ah->node)
		return -EINVAL; /* the AH addresses another node than the destination QP's */
	if (op->verbs.len > M_UD_MTU_MIN) {
		/* Over any MTU, or over some (the port's MTU decides; ok: it fits). A SUCCESS
		 * completion (a profile's) is a message sent and lost. */
		struct m_set s = op->verbs.len > M_UD_MTU_MAX
					 ? DECIDE(p, UD_SEND_2, PART_STEP, O_ERR(EINVAL), WC_ERR(LOC_LEN_ERR))
					 : DECIDE(p, UD_SEND_2, PART_RANGE, O_ERR(EINVAL), WC_ERR(LOC_LEN_ERR), O_OK);
		struct m_why w = why;

		m_why_add(&w, M_RULE_UD_SEND_2);
		for (unsigned i = 0; i < s.n; i++)
			if (s.o[i].kind == M_OUT_WC && s.o[i].code == M_WC_SUCCESS)
				m_alt_add(out, s.o[i], M_EFF_NONE, &w, -1);
			else if (s.o[i].kind != M_OUT_OK)
				refuse(out, &(struct m_set){ .n = 1, .o = { s.o[i] } }, &w);
		if (!m_set_has(&s, O_OK))
			return 0;
	}
	if (op->verbs.send_inline ? !m_inline_data(p, nd, q, out, &why)
				  : !m_sge_check(p, nd, q->pd, op, op->verbs.len, 0, M_RULE_LP_1, out, &why))
		return 0;
	out->res.peer_node = op->verbs.peer_qp >= 0 ? ah->node : -1; /* a raw QP number: no QP */
	out->res.peer_qp = op->verbs.peer_qp;
	if (ah->pd != q->pd) {
		struct m_set s = DECIDE(p, UD_AH_1, PART_STEP, WC_ERR(LOC_QP_OP_ERR), WC_ERR(SUCCESS));
		struct m_why w = why;

		m_why_add(&w, M_RULE_UD_AH_1);
		m_why_add(&why, M_RULE_UD_AH_1);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].code == M_WC_SUCCESS ? M_EFF_NONE : M_EFF_QP_ERR, &w, -1);
		if (!m_set_has(&s, WC_ERR(SUCCESS)))
			return 0;
	}
	/* A WR Q_Key with the high bit set: the QP's own is sent (IBA 10.2.5), or the
	 * WR's as it is (rxe: KRXE rxe_req init_req_packet copies remote_qkey). */
	ud_deliver(m, p, (op->verbs.qkey & QKEY_OWN) ? nd->ud.qkey[qh] : op->verbs.qkey, out, why);
	if (op->verbs.qkey & QKEY_OWN)
		ud_deliver(m, p, op->verbs.qkey, out, why);
	return 0;
}

int m_pred_ud_post(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
		   struct m_why why)
{
	struct m_set s;

	switch ((enum m_op_kind)out->op.kind) {
	case M_OP_SEND:
		return ud_send(m, p, q, out, why);
	case M_OP_BIND_MW:
		/* MW-BIND-4: windows are bound on RC and UC QPs only. */
		s = DECIDE(p, MW_BIND_4, PART_STEP, O_ERR(EINVAL), WC_ERR(MW_BIND_ERR), WC_ERR(LOC_QP_OP_ERR));
		m_why_add(&why, M_RULE_MW_BIND_4);
		break;
	case M_OP_READ: case M_OP_WRITE: case M_OP_WRITE_IMM: case M_OP_CAS: case M_OP_FADD:
		/* RA-ATOM-4: UD has SEND only. */
		s = DECIDE(p, RA_ATOM_4, PART_STEP, O_ERR(EINVAL), WC_ERR(LOC_QP_OP_ERR));
		m_why_add(&why, M_RULE_RA_ATOM_4);
		break;
	default:
		return -EINVAL; /* LOCAL_INV on UD: not in the model */
	}
	refuse(out, &s, &why);
	return 0;
}

/* The bytes of receive rq that lie in the MR its lkey names (if any) become unknown. */
static void recv_unknown(struct m_node *pn, const struct m_recv *rq)
{
	int h = m_mr_by_lkey(pn, rq->lkey);

	if (h < 0)
		return;
	struct m_mr *mr = &pn->mr[h];
	uint64_t lo = rq->addr > mr->addr ? rq->addr : mr->addr;
	uint64_t hi = rq->addr + rq->len < mr->addr + mr->len ? rq->addr + rq->len : mr->addr + mr->len;

	if (lo < hi)
		m_mr_unknown(mr, lo - mr->addr, hi - lo);
}

void m_apply_ud_send(struct model *m, const struct m_pred *pr, const struct m_alt *a)
{
	const struct m_op *op = &pr->op;
	const struct m_resolved *r = &pr->res;

	if (r->peer_qp < 0)
		return;
	struct m_node *pn = &m->node[r->peer_node];
	struct m_qp *pq = &pn->qp[r->peer_qp];
	const struct m_recv *rq = m_rq_head(pn, r->peer_qp);
	const struct m_mr *l = r->lmr >= 0 ? &m->node[op->node].mr[r->lmr] : NULL;

	if (a->peer_recv != M_WC_SUCCESS) {
		/* Not taken (UD-SEND-3: too short), or the receive failed (LP-4, a too-short
		 * receive on some stacks): its buffer may be partly written. */
		recv_unknown(pn, rq);
		if (a->effect == M_EFF_PEER_ERR)
			m_qp_to_err(pq);
		return;
	}
	m_mr_unknown(&pn->mr[r->rmr], r->roff, M_UD_GRH);
	if (op->verbs.len)
		m_land(&pn->mr[r->rmr], r->roff + M_UD_GRH, l, r->loff, op->verbs.len);
	m_rq_consume(pn, r->peer_qp);
}

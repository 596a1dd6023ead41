/*
 * chain.c — a chain of send WRs posted in one ibv_post_send: the WRs before
 * the one the post refuses are posted (and predicted as any WR), the refused
 * one gives the call's errno, and those after it are never posted (LP-7:
 * *bad_wr names the first that failed). This file predicts the last kind,
 * and the refusal of a WR the chain's earlier WRs left no room for (every
 * step before a chain waited for its WRs: the send queue was empty).
 */
#include "model/verbs/internal.h"

int m_pred_unposted(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	int qh = m_acting_qp(op);
	struct m_why why = { 0 };

	if (qh < 0 || qh >= nd->nqp || !nd->qp[qh].live || op->kind == M_OP_RECV || op->verbs.chain_errno < 0)
		return -EINVAL;
	m_why_add(&why, M_RULE_LP_7);
	m_alt_add(out, O_ERR(op->verbs.chain_errno), M_EFF_NONE, &why, -1);
	return 0;
}

void m_pred_sq_full_any(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	int qh = m_acting_qp(op);
	uint32_t depth;
	struct m_why why = { 0 };
	struct m_set s;

	if (op->kind == M_OP_RECV || qh < 0 || qh >= M_MAX_QP)
		return;
	depth = m->node[op->node].cq.max_send[qh];
	if (!depth)
		return;
	if (depth == M_SEND_DEPTH_ZERO)
		depth = 0; /* asked as 0: full from the first WR */
	else if (op->verbs.chain_pos < depth)
		return;
	m_why_add(&why, M_RULE_LP_7);
	s = op->verbs.chain_pos >= 2 * depth ? DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM))
					     : DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM), O_OK);
	if (!m_set_has(&s, O_OK))
		out->n = 0; /* the queue is full: nothing else can happen */
	for (unsigned i = 0; i < s.n; i++)
		if (s.o[i].kind != M_OUT_OK)
			m_alt_add(out, s.o[i], M_EFF_NONE, &why, -1);
}

/*
 * chain.c — a chain of send WRs posted in one ibv_post_send: the WRs before
 * the one the post refuses are posted (and predicted as any WR), the refused
 * one gives the call's errno, and those after it are never posted (LP-7:
 * *bad_wr names the first that failed). This file predicts the last kind.
 */
#include "model/verbs/internal.h"

int m_pred_unposted(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	int qh = op->kind == M_OP_BIND_MW ? op->verbs.qp : op->obj;
	struct m_why why = { 0 };

	if (qh < 0 || qh >= nd->nqp || !nd->qp[qh].live || op->kind == M_OP_RECV || op->verbs.chain_errno < 0)
		return -EINVAL;
	m_why_add(&why, M_RULE_LP_7);
	m_alt_add(out, O_ERR(op->verbs.chain_errno), M_EFF_NONE, &why, -1);
	return 0;
}

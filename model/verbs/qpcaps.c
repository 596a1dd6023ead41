/*
 * qpcaps.c — the capabilities query_qp reports (struct ibv_qp_cap). The QP has
 * at least what create_qp asked for: ibv_create_qp(3) lets the provider give
 * more ("greater than or equal to the values requested"), so each is an
 * M_Q_ATLEAST result, judged whatever expect says: the send queue's depth and
 * the receive queue's, whose room LP-7 counts (a QP on an SRQ has no receive
 * queue of its own: anything), one SGE each (the harness asks for one), and
 * max_inline_data, LP-3's limit.
 */
#include "model/verbs/internal.h"

void m_qp_caps_query(const struct m_node *nd, int qh, struct m_qres *out)
{
	const struct m_qp *q = &nd->qp[qh];

	m_qres_add(out, "max_send_wr", M_Q_ATLEAST, nd->cq.max_send[qh] ? nd->cq.max_send[qh] : M_SEND_DEPTH_DEFAULT,
		   M_RULE_LP_7);
	m_qres_add(out, "max_recv_wr", nd->ud.qp_srq[qh] ? M_Q_ANY : M_Q_ATLEAST, q->max_recv, M_RULE_LP_7);
	m_qres_add(out, "max_send_sge", M_Q_ATLEAST, 1, M_RULE_LP_7);
	m_qres_add(out, "max_recv_sge", nd->ud.qp_srq[qh] ? M_Q_ANY : M_Q_ATLEAST, 1, M_RULE_LP_7);
	m_qres_add(out, "max_inline", M_Q_ATLEAST, q->max_inline, M_RULE_LP_3);
}

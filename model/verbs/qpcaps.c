/*
 * qpcaps.c — the capabilities query_qp reports (struct ibv_qp_cap). The QP has
 * at least what create_qp asked for: ibv_create_qp(3) lets the provider give
 * more ("greater than or equal to the values requested"), so each is an
 * M_Q_ATLEAST result, judged whatever expect says: the send queue's depth and
 * the receive queue's, whose room LP-7 counts (a QP on an SRQ has no receive
 * queue of its own: anything), one SGE each (the harness asks for one), and
 * max_inline_data, LP-3's limit. An RC QP's max_rd_atomic and
 * max_dest_rd_atomic are at least what its RTS and RTR transitions set
 * (connect's options, else 1; rxe rounds them up to a power of two), READ
 * and atomic resources RA-RES-1 counts; before they are set, or on other
 * QP types: anything. The same moves set an RC/UC QP's path MTU (LP-8's first
 * packet): connect's `mtu`, else the harness's 1024 (M_PATH_MTU_DEFAULT).
 */
#include "model/verbs/internal.h"

void m_qp_caps_query(const struct m_node *nd, int qh, struct m_qres *out)
{
	const struct m_qp *q = &nd->qp[qh];

	uint8_t ms = nd->cq.max_send[qh];

	m_qres_add(out, "max_send_wr", M_Q_ATLEAST, ms == M_SEND_DEPTH_ZERO ? 0 : ms ? ms : M_SEND_DEPTH_DEFAULT,
		   M_RULE_LP_7);
	m_qres_add(out, "max_recv_wr", nd->ud.qp_srq[qh] ? M_Q_ANY : M_Q_ATLEAST, q->max_recv, M_RULE_LP_7);
	m_qres_add(out, "max_send_sge", M_Q_ATLEAST, 1, M_RULE_LP_7);
	m_qres_add(out, "max_recv_sge", nd->ud.qp_srq[qh] ? M_Q_ANY : M_Q_ATLEAST, 1, M_RULE_LP_7);
	m_qres_add(out, "max_inline", M_Q_ATLEAST, q->max_inline, M_RULE_LP_3);
	m_qres_add(out, "max_rd_atomic", (q->rd_known & M_RD_KNOWN_RD) ? M_Q_ATLEAST : M_Q_ANY, q->rd_atomic,
		   M_RULE_RA_RES_1);
	m_qres_add(out, "max_dest_rd_atomic", (q->rd_known & M_RD_KNOWN_DEST) ? M_Q_ATLEAST : M_Q_ANY,
		   q->dest_rd_atomic, M_RULE_RA_RES_1);
}

void m_qp_rd_atomic_connected(struct m_qp *a, struct m_qp *b, const struct m_op *op)
{
	struct m_qp *qp[2] = { a, b };

	for (int i = 0; i < 2; i++)
		if (qp[i]->type == M_QPT_RC) {
			qp[i]->rd_atomic = op->verbs.max_rd_atomic;
			qp[i]->dest_rd_atomic = op->verbs.max_dest_rd_atomic;
			qp[i]->rd_known = M_RD_KNOWN_RD | M_RD_KNOWN_DEST;
		}
	for (int i = 0; i < 2; i++)
		qp[i]->pmtu = qp[i]->type == M_QPT_UD ? 0 : op->verbs.path_mtu;
}

void m_qp_rd_atomic_moved(struct m_qp *q, enum m_qp_state to)
{
	if (to == M_QPS_RESET) {
		q->rd_known = 0;
		q->pmtu = 0;
	}
	if (to == M_QPS_RTR && q->state == M_QPS_INIT && q->type != M_QPT_UD)
		q->pmtu = M_PATH_MTU_DEFAULT; /* modify_qp names none */
	if (q->type != M_QPT_RC)
		return;
	if (to == M_QPS_RTR && q->state == M_QPS_INIT) {
		q->dest_rd_atomic = M_RD_ATOMIC_DEFAULT;
		q->rd_known |= M_RD_KNOWN_DEST;
	} else if (to == M_QPS_RTS && q->state == M_QPS_RTR) {
		q->rd_atomic = M_RD_ATOMIC_DEFAULT;
		q->rd_known |= M_RD_KNOWN_RD;
	}
}

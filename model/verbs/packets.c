/*
 * packets.c — what a requester has sent before the local SGE fails (LP-8):
 * a WRITE or SEND longer than the smallest path MTU goes out packet by
 * packet, each gathered from the local SGE as it is built, so when the SGE
 * runs past its MR only after the first packet, the responder's verdict on
 * the packets before (a remote error, the peer's state, no receive) may come
 * before the local error.
 */
#include "model/verbs/internal.h"

#include <string.h>


uint64_t m_first_packet(const struct m_qp *q)
{
	return q->pmtu ? q->pmtu : MIN_PMTU;
}

int m_later_packet_fails(const struct m_node *nd, const struct m_qp *q, const struct m_op *op)
{
	/* A bad key or PD fails the first packet that needs its SGE; a range at its first byte
	 * past the MR. A one-packet message fails whole. */
	uint64_t bad = m_sge_first_bad(nd, q->pd, op);

	return bad != UINT64_MAX && bad >= m_first_packet(q);
}

void m_keep_remote_errors(struct m_pred *out, unsigned from)
{
	unsigned k = from;

	for (unsigned i = from; i < out->n; i++)
		if (out->alt[i].effect != M_EFF_DO) /* the request went through: the local error follows */
			out->alt[k++] = out->alt[i];
	out->n = (uint8_t)k;
}

void m_local_after_remote_error(struct m_pred *out, unsigned local)
{
	int refused = 0;

	for (unsigned i = local; i < out->n; i++)
		refused |= out->alt[i].effect == M_EFF_BOTH_ERR;
	if (!refused)
		return;
	for (unsigned i = 0; i < local; i++) {
		const struct m_alt a = out->alt[i];
		struct m_why w = { .n = a.nrules };

		if (a.effect != M_EFF_QP_ERR)
			continue;
		memcpy(w.r, a.rules, sizeof(w.r));
		m_why_add(&w, M_RULE_LP_8);
		m_alt_add(out, a.out, M_EFF_BOTH_ERR, &w, a.peer_recv);
	}
}

void m_later_packet_rnr(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
			struct m_why why)
{
	const struct m_qp *pq;
	struct m_set s;

	/* the bad byte past the second packet of q's path MTU: two packets out before the bad one
	 * (rxe 6.1 ends a SEND bad from its second packet on at once, LOC_PROT_ERR: the deviation's
	 * citation) */
	if (out->op.kind != M_OP_SEND || q->type != M_QPT_RC || q->peer_node < 0 ||
	    m_sge_first_bad(&m->node[out->op.node], q->pd, &out->op) / m_first_packet(q) < 2 ||
	    !m_later_packet_fails(&m->node[out->op.node], q, &out->op))
		return;
	pq = &m->node[q->peer_node].qp[q->peer_qp];
	if (!pq->live || pq->state < M_QPS_RTR || pq->state == M_QPS_ERR || m_rq_head(&m->node[q->peer_node], q->peer_qp))
		return;
	s = m_decide(p, M_RULE_LP_8, PART_LATER_RNR, NULL, 0);
	why.dev = s.dev;
	m_alts_add(out, &s, M_EFF_NONE, &why, -1);
}

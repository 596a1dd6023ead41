/*
 * qpstate.c — modify_qp: the QP state machine a scenario walks one
 * transition at a time (RESET, INIT, RTR, RTS; ERR and RESET from
 * anywhere), the attributes each transition requires, and its commit.
 * connect (obj.c) is the RESET-to-RTS walk of two QPs in one step.
 */
#include "model/verbs/internal.h"

/* Handle h of a live QP on nd? */
static int qp_live(const struct m_node *nd, int h)
{
	return h >= 0 && h < nd->nqp && nd->qp[h].live;
}

/* Is from -> to in the core's transition table (qp_state_table)? ERR and RESET are decided apart. */
static int transition_ok(enum m_qp_state from, enum m_qp_state to)
{
	switch (to) {
	case M_QPS_INIT: return from == M_QPS_RESET || from == M_QPS_INIT;
	case M_QPS_RTR: return from == M_QPS_INIT;
	case M_QPS_RTS: return from == M_QPS_RTR || from == M_QPS_RTS;
	default: return 0;
	}
}

/* The attributes transition from -> to of a QP of type t requires (QP-STATE-4; req_param). */
static uint32_t required_attrs(enum m_qp_state from, enum m_qp_state to, enum m_qp_type t)
{
	if (from == M_QPS_RESET && to == M_QPS_INIT)
		return M_QPA_PKEY_INDEX | M_QPA_PORT | (t == M_QPT_UD ? M_QPA_QKEY : M_QPA_ACCESS_FLAGS);
	if (from == M_QPS_INIT && to == M_QPS_RTR) {
		if (t == M_QPT_UD)
			return 0;
		return M_QPA_AV | M_QPA_PATH_MTU | M_QPA_DEST_QPN | M_QPA_RQ_PSN |
		       (t == M_QPT_RC ? M_QPA_MAX_DEST_RD_ATOMIC | M_QPA_MIN_RNR_TIMER : 0);
	}
	if (from == M_QPS_RTR && to == M_QPS_RTS)
		return M_QPA_SQ_PSN | (t == M_QPT_RC ? M_QPA_TIMEOUT | M_QPA_RETRY_CNT | M_QPA_RNR_RETRY |
							   M_QPA_MAX_QP_RD_ATOMIC : 0);
	return 0;
}

/*
 * The attributes modify_qp sends for a transition to `to` (those of the step
 * from the state below it) that from -> to does not take: RTS to RTS takes
 * none of RTR to RTS's (only ACCESS_FLAGS, MIN_RNR_TIMER, QKEY, paths).
 */
static uint32_t refused_attrs(enum m_qp_state from, enum m_qp_state to, enum m_qp_type t)
{
	return from == M_QPS_RTS && to == M_QPS_RTS ? required_attrs(M_QPS_RTR, M_QPS_RTS, t) : 0;
}

/* modify_qp to ERR or RESET (QP-STATE-2, RA-ERR-2): the transitions every state has. */
static int pred_err_reset(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_qp *q = &m->node[op->node].qp[op->obj];
	struct m_why why = { 0 };

	if (op->verbs.qp_state == M_QPS_ERR && q->state == M_QPS_RESET) {
		/* QP-STATE-2: the transition table may lack RESET to ERR. */
		struct m_set s = DECIDE(p, QP_STATE_2, PART_STEP, O_ERR(EINVAL), O_OK);

		m_why_add(&why, M_RULE_QP_STATE_2);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->verbs.qp_state == M_QPS_ERR)
		m_why_add(&why, M_RULE_RA_ERR_2);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

/*
 * The remote QP of an RC/UC QP's RTR (peer_node, peer_qp): a live QP of the
 * same type on another node. Without one the step is malformed, unless the
 * scenario left out the address or the QP number (then QP-STATE-4 refuses it).
 */
static int rtr_peer_ok(const struct model *m, const struct m_op *op, const struct m_qp *q)
{
	if (q->type == M_QPT_UD || op->verbs.qp_state != M_QPS_RTR ||
	    (op->verbs.qp_omit & (M_QPA_AV | M_QPA_DEST_QPN)))
		return 1;
	if (op->verbs.peer_node < 0 || op->verbs.peer_node >= m->nnodes || op->verbs.peer_node == op->node)
		return 0;
	const struct m_node *pn = &m->node[op->verbs.peer_node];

	return qp_live(pn, op->verbs.peer_qp) && pn->qp[op->verbs.peer_qp].type == q->type;
}

int m_pred_modify_qp(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	enum m_qp_state to = (enum m_qp_state)op->verbs.qp_state;

	if (!qp_live(nd, op->obj) || (to != M_QPS_ERR && to != M_QPS_RESET && to != M_QPS_INIT &&
				      to != M_QPS_RTR && to != M_QPS_RTS))
		return -EINVAL;
	if (to == M_QPS_ERR || to == M_QPS_RESET)
		return pred_err_reset(m, p, out);
	const struct m_qp *q = &nd->qp[op->obj];

	if (!rtr_peer_ok(m, op, q))
		return -EINVAL;
	if (!transition_ok((enum m_qp_state)q->state, to)) {
		struct m_set s = DECIDE(p, QP_STATE_3, PART_STEP, O_ERR(EINVAL));

		m_why_add(&why, M_RULE_QP_STATE_3);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_QP_STATE_4);
	if ((op->verbs.qp_omit & required_attrs((enum m_qp_state)q->state, to, (enum m_qp_type)q->type)) ||
	    (~op->verbs.qp_omit & refused_attrs((enum m_qp_state)q->state, to, (enum m_qp_type)q->type))) {
		struct m_set s = DECIDE(p, QP_STATE_4, PART_STEP, O_ERR(EINVAL));

		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

void m_apply_modify_qp(struct model *m, const struct m_op *op)
{
	struct m_node *nd = &m->node[op->node];
	struct m_qp *q = &nd->qp[op->obj];
	enum m_qp_state to = (enum m_qp_state)op->verbs.qp_state;

	if (to == M_QPS_ERR || to == M_QPS_RESET) {
		q->sq_kept = 0; /* kept send WRs are flushed (ERR) or dropped (RESET) */
		q->state = (uint8_t)to;
		q->nrecv = 0;   /* posted receives are flushed (RA-ERR-2) or gone */
		if (to == M_QPS_RESET)
			q->peer_node = q->peer_qp = -1;
		m_qp_rd_atomic_moved(q, to);
		return;
	}
	if (to == M_QPS_INIT && q->state == M_QPS_RESET)
		nd->ud.qkey[op->obj] = op->verbs.qkey;
	if (to == M_QPS_RTR && q->type != M_QPT_UD) {
		q->peer_node = op->verbs.peer_node;
		q->peer_qp = op->verbs.peer_qp;
	}
	m_qp_rd_atomic_moved(q, to);
	q->state = (uint8_t)to; /* kept send WRs stay queued: they run once the QP is RTS */
}

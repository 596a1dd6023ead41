/*
 * fields.c — the `fields` step: what the struct a verbs call returned holds
 * (pd->context, mr->pd, qp->srq, cq->cqe …), as libibverbs fills it in at
 * the call (FIELDS-1: the context and the objects it was made with; FIELDS-2:
 * its numbers). Objects are reported as their model handles, or M_QREF_NONE
 * (NULL) and M_QREF_OWN (a QP's CQs the harness made); the harness gives them
 * as scenario objects.
 */
#include "model/verbs/internal.h"

/* Is object h of class cls (M_FLD_*) live on nd? */
static int fields_live(const struct m_node *nd, unsigned cls, int h)
{
	if (h < 0)
		return 0;
	switch (cls) {
	case M_FLD_PD: return h < nd->npd && nd->pd[h].live;
	case M_FLD_MR: return h < nd->nmr && nd->mr[h].live;
	case M_FLD_MW: return h < nd->nmw && nd->mw[h].live;
	case M_FLD_QP: return h < nd->nqp && nd->qp[h].live;
	case M_FLD_CQ: return h < nd->cq.ncq && nd->cq.cq[h].live;
	case M_FLD_AH: return h < nd->ud.nah && nd->ud.ah[h].live;
	case M_FLD_SRQ: return h < nd->ud.nsrq && nd->ud.srq[h].live;
	case M_FLD_CHAN: return h < nd->cq.nch && nd->cq.ch[h].live;
	default: return 0;
	}
}

int m_pred_fields(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	struct m_why why = { 0 };

	if (!fields_live(&m->node[op->node], op->verbs.fields_of, op->obj))
		return -EINVAL;
	m_why_add(&why, M_RULE_FIELDS_1);
	m_alt_add(out, O_OK, M_EFF_NONE, &why, -1);
	return 0;
}

/* A handle + 1 (0: none) as a reference result. */
static uint64_t ref1(unsigned h1, uint64_t none)
{
	return h1 ? (uint64_t)(h1 - 1) : none;
}

int m_fields_query(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];
	int h = op->obj;

	if (!fields_live(nd, op->verbs.fields_of, h))
		return -EINVAL;
	m_qres_add(out, "context", M_Q_EXACT, 1, M_RULE_FIELDS_1); /* the node's own device context */
	switch (op->verbs.fields_of) {
	case M_FLD_MR:
		m_qres_add(out, "pd", M_Q_EXACT, (uint64_t)nd->mr[h].pd, M_RULE_FIELDS_1);
		m_qres_add(out, "addr", M_Q_EXACT, nd->mr[h].addr, M_RULE_FIELDS_2);
		m_qres_add(out, "length", M_Q_EXACT, nd->mr[h].len, M_RULE_FIELDS_2);
		break;
	case M_FLD_MW:
		m_qres_add(out, "pd", M_Q_EXACT, (uint64_t)nd->mw[h].pd, M_RULE_FIELDS_1);
		m_qres_add(out, "type", M_Q_EXACT, nd->mw[h].type, M_RULE_FIELDS_2);
		break;
	case M_FLD_QP:
		m_qres_add(out, "pd", M_Q_EXACT, (uint64_t)nd->qp[h].pd, M_RULE_FIELDS_1);
		m_qres_add(out, "send_cq", M_Q_EXACT, ref1(nd->cq.scq[h], M_QREF_OWN), M_RULE_FIELDS_1);
		m_qres_add(out, "recv_cq", M_Q_EXACT, ref1(nd->cq.rcq[h], M_QREF_OWN), M_RULE_FIELDS_1);
		m_qres_add(out, "srq", M_Q_EXACT, ref1(nd->ud.qp_srq[h], M_QREF_NONE), M_RULE_FIELDS_1);
		m_qres_add(out, "qp_type", M_Q_EXACT, nd->qp[h].type, M_RULE_FIELDS_2);
		break;
	case M_FLD_CQ:
		m_qres_add(out, "channel", M_Q_EXACT, ref1(nd->cq.cq[h].chan1, M_QREF_NONE), M_RULE_FIELDS_1);
		m_qres_add(out, "cqe", M_Q_ATLEAST, nd->cq.cq[h].depth, M_RULE_FIELDS_2);
		break;
	case M_FLD_AH:
		m_qres_add(out, "pd", M_Q_EXACT, (uint64_t)nd->ud.ah[h].pd, M_RULE_FIELDS_1);
		break;
	case M_FLD_SRQ:
		m_qres_add(out, "pd", M_Q_EXACT, (uint64_t)nd->ud.srq[h].pd, M_RULE_FIELDS_1);
		break;
	default: /* PD, channel: the context alone */
		break;
	}
	return 0;
}

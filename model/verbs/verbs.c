/*
 * verbs.c — the verbs family's registry row (m_family_verbs): its state's
 * start, the dispatch of its predictions to obj.c (objects) and post.c
 * (work requests), and its query (query_qp). Its commit is apply.c.
 */
#include "model/verbs/internal.h"

#define VA_BASE 0x10000000ull

static void verbs_init(struct model *m)
{
	for (unsigned i = 0; i < m->nnodes; i++) {
		/* Distinct key spaces per node make a key relayed to the wrong node fail. */
		m->node[i].next_key = 0x100u * (i + 1) * 0x1000u + 1;
		m->node[i].next_va = VA_BASE;
	}
}

static int predict_op(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	int rc;

	if (out->op.verbs.garble)
		return m_pred_garbled(m, p, out);
	switch (out->op.kind) {
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD: case M_OP_WRITE_IMM:
	case M_OP_SEND: case M_OP_RECV: case M_OP_LOCAL_INV: case M_OP_BIND_MW:
		if (out->op.verbs.chain_errno)
			return m_pred_unposted(m, out);
		if (out->op.verbs.wr_api == M_WR_ABORT)
			return m_pred_wr_abort(m, p, out); /* ibv_wr_abort: never posted (wrpost.c) */
		if ((rc = m_pred_post(m, p, out)) == 0) {
			m_cq_unsignaled(m, out);
			m_pred_sq_full(m, p, out);
			m_outst_nowait(m, p, out);
			if (out->op.verbs.wr_api)
				m_wr_post_alts(p, out); /* through the ibv_wr_* API (wrpost.c) */
		}
		return rc;
	case M_OP_WAIT:
		return m_pred_wait(m, p, out);
	case M_OP_CREATE_CQ: case M_OP_DESTROY_CQ: case M_OP_POLL_CQ: case M_OP_RESIZE_CQ:
		return m_pred_cq(m, p, out);
	case M_OP_CREATE_COMP_CHANNEL: case M_OP_DESTROY_COMP_CHANNEL: case M_OP_REQ_NOTIFY_CQ:
	case M_OP_GET_CQ_EVENT: case M_OP_ACK_CQ_EVENTS:
		return m_pred_chan(m, p, out);
	case M_OP_QUERY_DEVICE: case M_OP_QUERY_PORT: case M_OP_QUERY_GID: case M_OP_QUERY_GID_TABLE:
	case M_OP_QUERY_PKEY: case M_OP_GET_PKEY_INDEX:
		return m_pred_device(m, p, out);
	case M_OP_CREATE_QP:
		if ((rc = m_cq_check_qp(m, &out->op)))
			return rc;
		return m_pred_qpex(m, p, out);
	default:
		return m_pred_obj(m, p, out);
	}
}

int m_verbs_predict(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	int rc = m_outst_check(m, &out->op);

	if (rc || (rc = predict_op(m, p, out)))
		return rc;
	if (out->op.kind == M_OP_DEREG_MR && out->op.obj >= 0 && m_outst_names_mr(m, out->op.node, out->op.obj))
		for (unsigned i = 0; i < out->n; i++)
			if (out->alt[i].nrules < M_RULES_MAX)
				out->alt[i].rules[out->alt[i].nrules++] = M_RULE_MR_DEREG_3; /* a WR outstanding names it */
	m_outst_seen(m, p, out);
	return 0;
}

/* query_qp: the state, and the access flags once the QP left RESET. */
static int query_qp(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	if (op->obj < 0 || op->obj >= nd->nqp)
		return -EINVAL;
	const struct m_qp *q = &nd->qp[op->obj];

	/* A WR outstanding on it or its peer may have put it in ERR already. */
	m_qres_add(out, "state", m_outst_on_qp(m, op->node, op->obj) ? M_Q_ANY : M_Q_EXACT, q->state, M_RULE_QP_CONN_1);
	/* qp_access_flags are set by the RESET->INIT transition (connect). */
	m_qres_add(out, "access", q->state == M_QPS_RESET || q->type == M_QPT_UD ? M_Q_ANY : M_Q_EXACT, q->access,
		   M_RULE_QP_CONN_1); /* a UD QP has no access flags (its INIT sets the Q_Key) */
	m_qp_caps_query(nd, op->obj, out);
	return 0;
}

static int verbs_query(const struct model *m, const struct m_profile *p, const struct m_op *op,
		       struct m_qres *out)
{
	(void)p;
	if (op->kind == M_OP_POLL_CQ || op->kind == M_OP_RESIZE_CQ)
		return m_cq_query(m, op, out);
	if (op->kind == M_OP_GET_CQ_EVENT)
		return m_chan_query(m, op, out);
	if (op->kind == M_OP_QUERY_SRQ)
		return m_srq_query(m, op, out);
	if (op->kind == M_OP_FIELDS)
		return m_fields_query(m, op, out);
	if (m_device_op((enum m_op_kind)op->kind))
		return m_device_query(m, op, out);
	return op->kind == M_OP_QUERY_QP ? query_qp(m, op, out) : -EINVAL;
}

const struct m_family_ops m_family_verbs = {
	.init = verbs_init,
	.predict = m_verbs_predict,
	.apply = m_verbs_apply,
	.query = verbs_query,
};

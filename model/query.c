/* query.c — what a query operation must report (model_query). */
#include "model/internal.h"

void m_qres_add(struct m_qres *q, const char *key, enum m_qmode mode, uint64_t value, enum m_rule rule)
{
	if (q->n >= M_QRES_MAX)
		return;
	q->r[q->n].key = key;
	q->r[q->n].mode = (uint8_t)mode;
	q->r[q->n].value = value;
	q->r[q->n].rule = (uint16_t)rule;
	q->n++;
}

int model_qres_ok(const struct m_qres *q, size_t i, uint64_t v)
{
	if (i >= q->n)
		return 0;
	switch ((enum m_qmode)q->r[i].mode) {
	case M_Q_ANY: return 1;
	case M_Q_EXACT: return v == q->r[i].value;
	case M_Q_ZERO: return v == 0;
	case M_Q_NONZERO: return v != 0;
	}
	return 0;
}

/* query_qp: the state, and the access flags once the QP left RESET. */
static int query_qp(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	if (op->obj < 0 || op->obj >= nd->nqp)
		return -EINVAL;
	const struct m_qp *q = &nd->qp[op->obj];

	m_qres_add(out, "state", M_Q_EXACT, q->state, M_RULE_QP_CONN_1);
	/* qp_access_flags are set by the RESET->INIT transition (connect). */
	m_qres_add(out, "access", q->state == M_QPS_RESET ? M_Q_ANY : M_Q_EXACT, q->access, M_RULE_QP_CONN_1);
	return 0;
}

int model_query(const struct model *m, const struct m_profile *p, const struct m_op *op,
		struct m_qres *out)
{
	out->n = 0;
	if (op->node >= m->nnodes)
		return -EINVAL;
	if (op->kind == M_OP_QUERY_QP)
		return query_qp(m, op, out);
	if (M_OP_IS_RPMA(op->kind))
		return m_query_rpma(m, p, op, out);
	if (M_OP_IS_DAT(op->kind))
		return m_query_dat(m, p, op, out);
	return -EINVAL;
}

/*
 * qpex.c — create_qp ex=yes (ibv_create_qp_ex, model/verbs/qpex.h): the
 * QP create_qp makes, with the send_ops_flags asked for checked against
 * what its type carries (QP-EX-1). Posts on it are ibv_post_send's, as on
 * any QP, or through the ibv_wr_* API with wr=yes (wrpost.c, WR-POST-1).
 */
#include "model/verbs/internal.h"
#include "model/verbs/qpex.h"

/* What every provider of the type takes: the operations IBTA gives the transport. */
static unsigned sure_ops(enum m_qp_type t)
{
	switch (t) {
	case M_QPT_RC:
		return M_SOPS_RDMA_WRITE | M_SOPS_RDMA_WRITE_WITH_IMM | M_SOPS_SEND | M_SOPS_SEND_WITH_IMM |
		       M_SOPS_RDMA_READ | M_SOPS_ATOMIC_CMP_AND_SWP | M_SOPS_ATOMIC_FETCH_AND_ADD |
		       M_SOPS_LOCAL_INV | M_SOPS_BIND_MW | M_SOPS_SEND_WITH_INV;
	case M_QPT_UC:
		return M_SOPS_RDMA_WRITE | M_SOPS_RDMA_WRITE_WITH_IMM | M_SOPS_SEND | M_SOPS_SEND_WITH_IMM |
		       M_SOPS_BIND_MW | M_SOPS_SEND_WITH_INV;
	default:
		return M_SOPS_SEND | M_SOPS_SEND_WITH_IMM;
	}
}

/* What a provider of the type may take or refuse: the optional operations of the transport. */
static unsigned maybe_ops(enum m_qp_type t)
{
	switch (t) {
	case M_QPT_RC: return M_SOPS_ATOMIC_WRITE | M_SOPS_FLUSH;
	case M_QPT_UC: return M_SOPS_LOCAL_INV;
	default: return 0;
	}
}

/* Add rule r to every alternative of out. */
static void add_rule(struct m_pred *out, enum m_rule r)
{
	for (unsigned i = 0; i < out->n; i++)
		if (out->alt[i].nrules < M_RULES_MAX)
			out->alt[i].rules[out->alt[i].nrules++] = (uint16_t)r;
}

int m_pred_qpex(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	enum m_qp_type t = (enum m_qp_type)op->verbs.qp_type;
	unsigned ops = op->verbs.send_ops;
	int rc;

	if (!op->verbs.qp_ex)
		return ops ? -EINVAL : m_pred_obj(m, p, out); /* send_ops= on a plain create_qp */
	if (ops & ~M_SOPS_ALL)
		return -EINVAL;
	if ((rc = m_pred_obj(m, p, out)))
		return rc;
	if (ops & ~(sure_ops(t) | maybe_ops(t))) {
		struct m_why why = { 0 };

		m_why_add(&why, M_RULE_QP_EX_1);
		out->n = 0;
		m_alt_add(out, O_ERR(EOPNOTSUPP), M_EFF_NONE, &why, -1);
		return 0;
	}
	add_rule(out, M_RULE_QP_EX_1);
	if (ops & maybe_ops(t)) {
		struct m_why why = { 0 };

		m_why_add(&why, M_RULE_QP_EX_1);
		m_alt_add(out, O_ERR(EOPNOTSUPP), M_EFF_NONE, &why, -1);
	}
	return 0;
}

/*
 * dat.c — the uDAPL family's registry row (m_family_dat): the dispatch of
 * its calls to obj.c and ep.c (commits: apply.c; what they share: shared.c)
 * and dat_lmr_query (dat/internal.h).
 */
#include "model/dat/internal.h"

static int dat_predict(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	switch ((enum m_op_kind)op->kind) {
	case M_OP_DAT_IA_OPEN:
		return m_dat_pred_ia_open(nd, out);
	case M_OP_DAT_PZ_CREATE:
		if (!m_dat_ia_check(nd, out, why))
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_DAT_PZ_FREE:
		return m_dat_pred_pz_free(m, p, out);
	case M_OP_DAT_LMR_CREATE:
		return m_dat_pred_lmr_create(m, p, out);
	case M_OP_DAT_LMR_QUERY:
		if (!VALID(nd->mr, nd->nmr, op->obj) || nd->mr[op->obj].api != M_FAM_DAT)
			return -EINVAL;
		if (!nd->mr[op->obj].live) {
			m_dat_stale(out, M_RULE_DAT_HANDLE_1);
			return 0;
		}
		m_why_add(&why, M_RULE_DAT_LMR_8);
		m_why_add(&why, M_RULE_DAT_LMR_9);
		m_alt_add(out, O_OK, M_EFF_NONE, &why, -1);
		return 0;
	case M_OP_DAT_LMR_FREE:
		return m_dat_pred_lmr_free(m, p, out);
	case M_OP_DAT_RMR_CREATE:
		return m_dat_pred_rmr_create(m, p, out);
	case M_OP_DAT_RMR_FREE:
		return m_dat_pred_rmr_free(m, p, out);
	case M_OP_DAT_RMR_BIND:
		return m_dat_pred_rmr_bind(m, p, out);
	case M_OP_DAT_EP_CONNECT:
		return m_dat_pred_ep_connect(m, out);
	case M_OP_DAT_EP_DISCONNECT:
	case M_OP_DAT_EP_FREE:
		return m_dat_pred_ep_act(m, out);
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ:
		return m_dat_pred_dto(m, p, out);
	default:
		return -EINVAL;
	}
}


/* dat_lmr_query (DAT-LMR-8, DAT-LMR-9). */
static int query_lmr(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	if (!VALID(nd->mr, nd->nmr, op->obj) || nd->mr[op->obj].api != M_FAM_DAT)
		return -EINVAL;
	const struct m_mr *mr = &nd->mr[op->obj];

	/* The contexts are the provider's numbers: the model's keys are its own. */
	m_qres_add(out, "lmr_context", M_Q_ANY, mr->lkey, M_RULE_DAT_LMR_8);
	m_qres_add(out, "rmr_context", (mr->usage & DAT_REMOTE_PRIV) ? M_Q_NONZERO : M_Q_ZERO,
		   (mr->usage & DAT_REMOTE_PRIV) ? mr->rkey : 0, M_RULE_DAT_LMR_8);
	m_qres_add(out, "registered_size", M_Q_ANY, mr->len, M_RULE_DAT_LMR_9);
	m_qres_add(out, "registered_address", M_Q_ANY, mr->addr, M_RULE_DAT_LMR_9);
	m_qres_add(out, "mem_priv", M_Q_EXACT, mr->usage, M_RULE_DAT_LMR_2);
	return 0;
}

static int dat_query(const struct model *m, const struct m_profile *p, const struct m_op *op, struct m_qres *out)
{
	(void)p;
	if (op->kind == M_OP_DAT_LMR_QUERY)
		return query_lmr(m, op, out);
	return -EINVAL;
}

const struct m_family_ops m_family_dat = {
	.predict = dat_predict,
	.apply = m_dat_apply,
	.query = dat_query,
};

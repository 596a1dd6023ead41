/*
 * step.c — the verbs underneath another family (m_verbs_step_predict /
 * m_verbs_step_apply, model/internal.h): librpma and uDAPL steps translated
 * into the verbs operation they stand for, predicted and committed by the
 * verbs family directly.
 */
#include "model/verbs/internal.h"

int m_verbs_step_predict(const struct model *m, const struct m_profile *p, const struct m_op *vop,
			 struct m_pred *vp)
{
	m_pred_init(vp, vop);
	if (vop->node >= m->nnodes || m_op_family((enum m_op_kind)vop->kind) != M_FAM_VERBS)
		return -EINVAL;
	return m_verbs_predict(m, p, vp);
}

int m_verbs_step_apply(struct model *m, const struct m_op *vop, const struct m_resolved *res,
		       const struct m_alt *a, int *created)
{
	struct m_pred vp;

	m_pred_init(&vp, vop);
	if (res)
		vp.res = *res;
	vp.n = 1;
	if (a)
		vp.alt[0] = *a;
	else
		vp.alt[0] = (struct m_alt){ .out = O_OK, .effect = M_EFF_DO, .peer_recv = -1 };
	*created = -1;
	return m_verbs_apply(m, &vp, 0, created);
}

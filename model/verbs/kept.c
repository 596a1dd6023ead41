/*
 * kept.c — send WRs a provider kept queued although it refused them below
 * RTS (QP-STATE-1, PART_KEPT; M_EFF_SQ_KEPT): they run at the first doorbell
 * once the QP is RTS, before the WR that rang it.
 */
#include "model/verbs/internal.h"

void m_kept_outcomes(const struct m_profile *p, struct m_set *s)
{
	m_decide_into(s, p, M_RULE_QP_STATE_1, PART_KEPT, NULL, 0);
}

uint8_t m_kept_kind(const struct m_node *nd, const struct m_op *op)
{
	int w = op->kind == M_OP_LOCAL_INV ? m_mw_by_rkey(nd, op->verbs.rkey) : -1;

	return (uint8_t)(M_KEPT_ANY | (w >= 0 && nd->mw[w].type == M_MW_TYPE_2 && !nd->mw[w].bound ? M_KEPT_INV_T2 : 0));
}

void m_kept_alts(const struct m_profile *p, const struct m_qp *q, struct m_pred *out)
{
	struct m_set s;
	struct m_why why = { 0 };

	m_kept_outcomes(p, &s);
	m_why_add(&why, M_RULE_QP_STATE_1);
	m_why_add(&why, M_RULE_RA_ERR_2);
	/* The kept WR failed locally (its QP to ERR) or at the responder (both). */
	m_alts_add(out, &s, M_EFF_QP_ERR, &why, -1);
	m_alts_add(out, &s, M_EFF_BOTH_ERR, &why, -1);
	if (q->sq_kept & M_KEPT_INV_T2) {
		/* A kept LOCAL_INV of an unbound type-2 window: what invalidating it does
		 * when it runs (MW-INV-3's part for kept WRs; generic: nothing more). */
		s = m_decide(p, M_RULE_MW_INV_3, PART_KEPT_T2, NULL, 0);
		m_why_add(&why, M_RULE_MW_INV_3);
		m_alts_add(out, &s, M_EFF_QP_ERR, &why, -1);
	}
}

/*
 * post_mw.c — the memory-window work requests of post.c: a bind (type 1 by
 * ibv_bind_mw, type 2 by a BIND_MW work request), a LOCAL_INV, and the
 * alternatives of an invalidation through another QP than the window's
 * (LOCAL_INV and SEND_WITH_INV).
 */
#include "model/verbs/internal.h"

#define WC_ERR(s) O_WC(M_WC_##s)

/*
 * The alternatives of an invalidation of a bound type-2 window through a QP
 * other than the one it was bound on (MW-INV-5): a SUCCESS in set s (a
 * profile's) invalidates it with effect ok; every error has effect err, the
 * peer's receive completing peer_wc (-1: none).
 */
void m_inv_other_qp_alts(struct m_pred *out, const struct m_set *s, const struct m_why *why,
			 enum m_effect ok, enum m_effect err, int peer_wc)
{
	for (unsigned i = 0; i < s->n; i++) {
		int success = s->o[i].kind == M_OUT_WC && s->o[i].code == M_WC_SUCCESS;

		m_alt_add(out, s->o[i], success ? ok : err, why, success && peer_wc >= 0 ? M_WC_SUCCESS : peer_wc);
	}
}

/* LOCAL_INV of the rkey in op (MW-INV-2, MW-INV-3, MW-INV-4). */
void m_post_local_inv(const struct m_profile *p, const struct m_node *nd, const struct m_qp *q,
		      struct m_pred *out, struct m_why why)
{
	const struct m_op *op = &out->op;
	int w = m_mw_by_rkey(nd, op->verbs.rkey);
	struct m_set s;

	if (w >= 0 && nd->mw[w].type == M_MW_TYPE_2 && nd->mw[w].bound && nd->mw[w].pd == q->pd) {
		out->res.inv_mw = (int16_t)w;
		if (nd->mw[w].bind_qp == op->obj) {
			m_why_add(&why, M_RULE_MW_INV_2);
			m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, -1);
			return;
		}
		s = DECIDE(p, MW_INV_5, PART_STEP, WC_ERR(MW_BIND_ERR), WC_ERR(LOC_QP_OP_ERR));
		m_why_add(&why, M_RULE_MW_INV_5);
		m_inv_other_qp_alts(out, &s, &why, M_EFF_DO, M_EFF_QP_ERR, -1);
		return;
	}
	if (w < 0 && m_mr_by_rkey(nd, op->verbs.rkey) >= 0) {
		s = DECIDE(p, MW_INV_4, PART_STEP, WC_ERR(LOC_QP_OP_ERR), WC_ERR(LOC_PROT_ERR), WC_ERR(MW_BIND_ERR));
		m_why_add(&why, M_RULE_MW_INV_4);
	} else {
		int unbound_t2 = w >= 0 && nd->mw[w].type == M_MW_TYPE_2 && !nd->mw[w].bound;

		s = m_decide(p, M_RULE_MW_INV_3, unbound_t2 ? PART_UNBOUND_T2 : PART_STEP,
			     (const struct m_outcome[]){ WC_ERR(LOC_QP_OP_ERR), WC_ERR(MW_BIND_ERR) }, 2);
		m_why_add(&why, M_RULE_MW_INV_3);
	}
	m_why_add(&why, M_RULE_RA_ERR_2);
	m_alts_add(out, &s, M_EFF_QP_ERR, &why, -1);
}

/* A memory-window bind: type 1 (ibv_bind_mw) or type 2 (a BIND_MW work request). */
int m_post_bind_mw(const struct model *m, const struct m_profile *p, const struct m_qp *q,
		   struct m_pred *out, struct m_why why)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	const struct m_mw *mw = &nd->mw[op->obj];
	const struct m_mr *mr = &nd->mr[op->verbs.mr];
	int zero_based = op->verbs.zero_based & 1;
	struct m_set s;
	enum m_rule r = M_RULE_COUNT_;

	if (mw->type == M_MW_TYPE_1 && zero_based) {
		/* The access flags are checked before the length (rxe: an unbind too). */
		s = DECIDE(p, MW_BIND_8, PART_STEP, O_ERR(EINVAL), WC_ERR(MW_BIND_ERR));
		m_why_add(&why, M_RULE_MW_BIND_8);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_WC ? M_EFF_QP_ERR : M_EFF_NONE, &why, -1);
		return 0;
	}
	if (mw->type == M_MW_TYPE_1 && op->verbs.len == 0) {
		m_why_add(&why, M_RULE_MW_INV_1); /* an unbind */
		m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, -1);
		return 0;
	}
	if (mw->type == M_MW_TYPE_2 && (mw->bound || mw->pd != q->pd || op->verbs.len == 0 || mr->pd != mw->pd))
		r = M_RULE_MW_BIND_10;
	else if (!(mr->access & M_ACC_MW_BIND) && !op->verbs.mr_bindable)
		r = M_RULE_MW_BIND_5;
	else if ((op->verbs.access & (M_ACC_REMOTE_WRITE | M_ACC_REMOTE_ATOMIC)) && !(mr->access & M_ACC_LOCAL_WRITE))
		r = M_RULE_MW_BIND_6;
	else if (!m_range_ok(op->verbs.offset, op->verbs.len, mr->iova, mr->len))
		r = M_RULE_MW_BIND_7;
	if (r != M_RULE_COUNT_) {
		s = m_decide(p, r, PART_STEP, &WC_ERR(MW_BIND_ERR), 1);
		m_why_add(&why, r);
		m_why_add(&why, M_RULE_RA_ERR_2);
		m_alts_add(out, &s, M_EFF_QP_ERR, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_MW_BIND_11);
	m_why_add(&why, M_RULE_MW_KEY_1);
	if (mr->iova == 0 && mr->addr != 0) {
		/* MW-BIND-9: binding to a zero-based MR. */
		s = DECIDE(p, MW_BIND_9, PART_STEP, WC_ERR(MW_BIND_ERR), WC_ERR(SUCCESS));
		m_why_add(&why, M_RULE_MW_BIND_9);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].code == M_WC_SUCCESS ? M_EFF_DO : M_EFF_QP_ERR, &why, -1);
		return 0;
	}
	m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, -1);
	return 0;
}

/*
 * MW-BIND-3: a type-1 bind (an unbind too: the MR is named) of an MR of
 * another PD than the window's. ibv_bind_mw (verbs.h, inline) returns EPERM
 * before calling the provider, so this is decided before the QP's state.
 */
int m_bind_pd_mismatch(const struct m_node *nd, const struct m_op *op)
{
	const struct m_mw *mw = &nd->mw[op->obj];

	return mw->type == M_MW_TYPE_1 && nd->mr[op->verbs.mr].pd != mw->pd;
}

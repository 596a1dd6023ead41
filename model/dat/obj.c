/* obj.c — uDAPL predictions for the IA, PZs, LMRs and RMRs (catalog area C; dat/internal.h). */
#include "model/dat/internal.h"

int m_dat_pred_ia_open(const struct m_node *nd, struct m_pred *out)
{
	struct m_why why = { 0 };

	if (nd->dat.ia_open)
		return -EINVAL; /* one IA per node: open it once */
	m_why_add(&why, M_RULE_DAT_IA_1);
	if (out->op.dat.ia == M_DAT_IA_UNKNOWN)
		m_alt_add(out, DAT(PROVIDER_NOT_FOUND), M_EFF_NONE, &why, -1);
	else if (out->op.dat.ia == M_DAT_IA_CMA || out->op.dat.ia == M_DAT_IA_SCM)
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	else
		return -EINVAL;
	return 0;
}

/*
 * A free that OFA carries out as verbs op v underneath: predict v and add each
 * of its alternatives with the DAT rules why first, its outcome through map
 * (NULL: as it is) and its verbs effect. Returns m_verbs_step_predict's.
 */
static int free_underneath(const struct model *m, const struct m_profile *p, const struct m_op *v,
			   const struct m_why *why, struct m_outcome (*map)(struct m_outcome), struct m_pred *out)
{
	struct m_pred vp;
	int rc = m_verbs_step_predict(m, p, v, &vp);

	if (rc)
		return rc;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = m_dat_why_of(&vp.alt[i], why);

		m_alt_add(out, map ? map(vp.alt[i].out) : vp.alt[i].out, vp.alt[i].effect, &w, -1);
	}
	return 0;
}

/* dat_pz_free: a refused ibv_dealloc_pd is a PZ in use. */
static struct m_outcome pz_free_outcome(struct m_outcome o)
{
	return o.kind == M_OUT_OK ? O_OK : DAT(INVALID_STATE);
}

/* dat_lmr_free: a verbs refusal is converted (dapl_convert_errno); the LMR stays. */
static struct m_outcome lmr_free_outcome(struct m_outcome o)
{
	return o.kind == M_OUT_ERRNO ? O_DAT(m_dat_errno(o.code)) : o;
}

int m_dat_pred_pz_free(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	if (!VALID(nd->pd, nd->npd, op->obj) || nd->pd[op->obj].api != M_FAM_DAT)
		return -EINVAL;
	if (!nd->pd[op->obj].live) {
		m_dat_stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	m_why_add(&why, M_RULE_DAT_PZ_1);
	if (nd->pd[op->obj].usecnt) {
		struct m_set s = DECIDE(p, DAT_PZ_1, PART_STEP, DAT(INVALID_STATE));

		m_dat_add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	/* Unused: the verbs PD is deallocated underneath (PD-2). */
	struct m_op v = { .kind = M_OP_DEALLOC_PD, .node = op->node, .obj = op->obj };

	return free_underneath(m, p, &v, &why, pz_free_outcome, out);
}

/* Map the verbs registration's alternatives to dat_lmr_create's (DAT-LMR-3, DAT-LMR-4). */
static void lmr_outcomes(const struct m_profile *p, const struct m_pred *vp, struct m_pred *out, struct m_why why,
			 enum m_rule success_rule)
{
	for (unsigned i = 0; i < vp->n; i++) {
		const struct m_alt *a = &vp->alt[i];
		struct m_why w = m_dat_why_of(a, &why);
		struct m_set s;

		if (a->out.kind == M_OUT_OK) {
			s = m_decide(p, success_rule, PART_STEP, &O_OK, 1);
			m_why_add(&w, success_rule);
			for (unsigned k = 0; k < s.n; k++)
				m_alt_add(out, s.o[k], s.o[k].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &w, -1);
		} else if (a->out.kind == M_OUT_CRASH) {
			m_alt_add(out, O_CRASH, M_EFF_CRASH, &w, -1);
		} else if (m_alt_has_rule(a, M_RULE_MR_ACC_1)) {
			/* Success here means a provider that adds local write (apply). */
			s = DECIDE(p, DAT_LMR_3, PART_STEP, DAT(INSUFFICIENT_RESOURCES), O_OK, DAT(INVALID_PARAMETER));
			m_why_add(&w, M_RULE_DAT_LMR_3);
			for (unsigned k = 0; k < s.n; k++)
				m_alt_add(out, s.o[k], s.o[k].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &w, -1);
		} else {
			s = DECIDE(p, DAT_LMR_4, PART_STEP, DAT(INSUFFICIENT_RESOURCES));
			m_why_add(&w, M_RULE_DAT_LMR_4);
			m_dat_add_set(out, &s, M_EFF_NONE, &w);
		}
	}
}

int m_dat_pred_lmr_create(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	struct m_set s;
	int rc;

	m_why_add(&why, M_RULE_DAT_LMR_1);
	if (m_dat_ia_check(nd, out, why))
		return 0;
	if (!VALID(nd->pd, nd->npd, op->dat.pz) || nd->pd[op->dat.pz].api != M_FAM_DAT)
		return -EINVAL;
	if (!nd->pd[op->dat.pz].live) {
		m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->dat.mem_type != M_DAT_MEM_VIRTUAL && op->dat.mem_type != M_DAT_MEM_LMR &&
	    op->dat.mem_type != M_DAT_MEM_SHARED_VIRTUAL) {
		m_alt_add(out, DAT(INVALID_PARAMETER), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->dat.lmr >= 0 && (!VALID(nd->mr, nd->nmr, op->dat.lmr) || nd->mr[op->dat.lmr].api != M_FAM_DAT ||
			    (op->dat.mem_type == M_DAT_MEM_VIRTUAL && op->dat.len > nd->mr[op->dat.lmr].len)))
		return -EINVAL; /* from= names an LMR of this node, and a VIRTUAL one stays inside its buffer */
	if (op->dat.mem_type == M_DAT_MEM_LMR && op->dat.lmr < 0)
		return -EINVAL;
	why.n = 0;
	m_why_add(&why, M_RULE_DAT_LMR_2);
	if (op->dat.mem_type == M_DAT_MEM_LMR) {
		/* DAT-LMR-7: the original must be a live LMR. */
		if (!nd->mr[op->dat.lmr].live) {
			struct m_why w = { 0 };

			m_why_add(&w, M_RULE_DAT_LMR_7);
			m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &w, -1);
			return 0;
		}
	} else if (op->dat.zero_based) {
		/* DAT-LMR-5: zero-based addressing is for iWARP devices only. */
		s = DECIDE(p, DAT_LMR_5, PART_STEP, DAT(NOT_IMPLEMENTED));
		m_why_add(&why, M_RULE_DAT_LMR_5);
		m_dat_add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	struct m_op v = m_dat_lmr_reg_op(m, op);

	rc = m_verbs_step_predict(m, p, &v, &vp);
	if (rc)
		return rc;
	lmr_outcomes(p, &vp, out, why,
		     op->dat.mem_type == M_DAT_MEM_LMR ? M_RULE_DAT_LMR_7
		     : op->dat.mem_type == M_DAT_MEM_SHARED_VIRTUAL ? M_RULE_DAT_LMR_6 : M_RULE_DAT_LMR_2);
	if (op->dat.mem_type == M_DAT_MEM_LMR) {
		/* DAT-LMR-7: a provider whose LMR over an LMR is a stub answers before the
		 * privileges are turned into a registration (what a profile sets instead of ok). */
		struct m_why w = { 0 };

		m_why_add(&w, M_RULE_DAT_LMR_7);
		s = m_decide(p, M_RULE_DAT_LMR_7, PART_STEP, &O_OK, 1);
		for (unsigned k = 0; k < s.n; k++)
			if (s.o[k].kind != M_OUT_OK && model_pred_find(out, s.o[k]) < 0)
				m_alt_add(out, s.o[k], M_EFF_NONE, &w, -1);
	}
	if (op->dat.mem_type == M_DAT_MEM_SHARED_VIRTUAL) {
		/* DAT-LMR-6: a provider may not implement shared memory at all. */
		struct m_why w = { 0 };

		m_why_add(&w, M_RULE_DAT_LMR_6);
		s = DECIDE(p, DAT_LMR_6, PART_STEP, DAT(NOT_IMPLEMENTED), DAT(MODEL_NOT_SUPPORTED));
		m_dat_add_set(out, &s, M_EFF_NONE, &w);
	}
	return 0;
}

int m_dat_pred_lmr_free(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_set s;

	if (!VALID(nd->mr, nd->nmr, op->obj) || nd->mr[op->obj].api != M_FAM_DAT)
		return -EINVAL;
	m_why_add(&why, M_RULE_DAT_FREE_1);
	if (!nd->mr[op->obj].live) {
		s = DECIDE(p, DAT_FREE_1, PART_STEP, DAT(INVALID_HANDLE));
		m_dat_add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	if (nd->mr[op->obj].nbound) {
		s = DECIDE(p, DAT_FREE_1, PART_REMOTE, DAT(INVALID_STATE));
		m_dat_add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	struct m_op v = { .kind = M_OP_DEREG_MR, .node = op->node, .obj = op->obj };

	return free_underneath(m, p, &v, &why, lmr_free_outcome, out);
}

int m_dat_pred_rmr_create(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	int rc;

	if (!VALID(nd->pd, nd->npd, op->dat.pz) || nd->pd[op->dat.pz].api != M_FAM_DAT)
		return -EINVAL;
	m_why_add(&why, M_RULE_DAT_RMR_1);
	if (!nd->pd[op->dat.pz].live) {
		m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
		return 0;
	}
	/* A type-1 window in the PZ's PD (MW-ALLOC-*). */
	struct m_op v = { .kind = M_OP_ALLOC_MW, .node = op->node, .verbs.pd = op->dat.pz, .verbs.mw_type = M_MW_TYPE_1 };

	rc = m_verbs_step_predict(m, p, &v, &vp);
	if (rc)
		return rc;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = m_dat_why_of(&vp.alt[i], &why);

		if (vp.alt[i].out.kind == M_OUT_OK) {
			struct m_set s = DECIDE(p, DAT_RMR_1, PART_STEP, O_OK);

			for (unsigned k = 0; k < s.n; k++)
				m_alt_add(out, s.o[k], s.o[k].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &w, -1);
		} else {
			/* No windows underneath: dapl_rmr_create's resource error. */
			m_alt_add(out, DAT(INSUFFICIENT_RESOURCES), M_EFF_NONE, &w, -1);
		}
	}
	return 0;
}

int m_dat_pred_rmr_free(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	if (!VALID(nd->mw, nd->nmw, op->obj))
		return -EINVAL;
	if (!nd->mw[op->obj].live) {
		m_dat_stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	struct m_op v = { .kind = M_OP_DEALLOC_MW, .node = op->node, .obj = op->obj };

	return free_underneath(m, p, &v, &why, NULL, out);
}

/* Is conn h of node nd a uDAPL EP created at some time? */

/*
 * sge.c — the local SGEs of a work request: whether each names a live MR of
 * the QP's PD that covers it (LP-1, LP-2, PD-4; LP-6 when the SGE is written:
 * a READ's or atomic's destination, a receive buffer).
 */
#include "model/verbs/internal.h"

#define WC_ERR(s) O_WC(M_WC_##s)

/*
 * The local SGE check (LP-1, LP-2, PD-4; LP-6 when the SGE is written, e.g. a
 * READ's or atomic's destination or a receive buffer): resolves lkey on node
 * nd to a live MR of the QP's PD covering [addr, addr+len), with LOCAL_WRITE
 * if need_write. Returns 1 if valid, 0 if not; mr and off receive the target.
 */
int sge_valid(const struct m_node *nd, int pd, uint32_t lkey, uint64_t addr, uint64_t len,
		     int need_write, int16_t *mr, uint64_t *off, enum m_rule *why)
{
	int h = m_mr_by_lkey(nd, lkey);

	*mr = -1;
	if (h < 0) {
		*why = M_RULE_LP_1;
		return 0;
	}
	if (nd->mr[h].pd != pd) {
		*why = M_RULE_PD_4;
		return 0;
	}
	if (!m_range_ok(addr, len, nd->mr[h].addr, nd->mr[h].len)) {
		*why = M_RULE_MR_ADDR_1;
		return 0;
	}
	if (need_write && !(nd->mr[h].access & M_ACC_LOCAL_WRITE)) {
		*why = M_RULE_LP_6;
		return 0;
	}
	*mr = (int16_t)h;
	*off = addr - nd->mr[h].addr;
	return 1;
}

/*
 * Send-side gather SGE (LP-1, LP-2): adds the failure alternatives (QP to
 * ERR) and returns whether the operation may go on.
 */
int sge_check(const struct m_profile *p, const struct m_node *nd, int pd,
		     const struct m_op *op, uint64_t len, int need_write, enum m_rule fail_rule,
		     struct m_pred *out, struct m_why *why)
{
	enum m_rule r;
	int ok;

	if (op->verbs.no_sge) {
		out->res.lmr = -1; /* num_sge 0: nothing to gather or scatter, no key */
		return 1;
	}
	ok = sge_valid(nd, pd, op->verbs.lkey, op->verbs.laddr, len, need_write, &out->res.lmr, &out->res.loff, &r);

	if (ok)
		return 1;
	struct m_why w = *why;

	m_why_add(&w, r);
	m_why_add(&w, fail_rule);
	m_why_add(&w, M_RULE_RA_ERR_2);
	if (len == 0) {
		/* LP-2: a zero-length SGE is skipped, or validated. */
		struct m_set s = DECIDE(p, LP_2, PART_STEP, WC_ERR(SUCCESS), WC_ERR(LOC_PROT_ERR),
					WC_ERR(LOC_QP_OP_ERR));

		m_why_add(&w, M_RULE_LP_2);
		for (unsigned i = 0; i < s.n; i++)
			if (s.o[i].code != M_WC_SUCCESS)
				m_alt_add(out, s.o[i], M_EFF_QP_ERR, &w, -1);
		m_why_add(why, M_RULE_LP_2);
		return m_set_has(&s, WC_ERR(SUCCESS));
	}
	/* LP-1 decides apart for a bad key and for a range outside the MR. */
	struct m_set s = fail_rule == M_RULE_LP_6
				 ? DECIDE(p, LP_6, PART_STEP, WC_ERR(LOC_PROT_ERR))
				 : DECIDE(p, LP_1, r == M_RULE_MR_ADDR_1 ? PART_RANGE : PART_STEP,
					  WC_ERR(LOC_PROT_ERR), WC_ERR(LOC_QP_OP_ERR));
	m_alts_add(out, &s, M_EFF_QP_ERR, &w, -1);
	return 0;
}

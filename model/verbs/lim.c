/*
 * lim.c — creates sized at the device's own limits: a create_qp, create_srq
 * or create_cq key asked as `max` (ibv_query_device's max_qp_wr, max_srq_wr,
 * max_srq_sge, max_cqe) succeeds (LIM-2), one asked as `max+1` fails and
 * makes nothing (LIM-1). The model needs no number: the agent resolves the
 * limit on the device, and a queue made at it is deeper than any the model
 * tracks (DEV-QUERY-1: every max_* is at least what a scenario may create).
 */
#include "model/verbs/internal.h"

#include <errno.h>

int m_lim_pred(const struct m_profile *p, const struct m_op *op, struct m_why *why, struct m_pred *out)
{
	if (op->verbs.lim_max)
		m_why_add(why, M_RULE_LIM_2);
	if (!op->verbs.lim_past) {
		if (op->kind != M_OP_CREATE_SRQ || (op->verbs.lim_max & (M_LIMK_RECV_WR | M_LIMK_SGE)) !=
							     (M_LIMK_RECV_WR | M_LIMK_SGE))
			return 0;
		/* An SRQ of max_srq_wr WQEs of max_srq_sge SGEs each: made (a profile may say that queue
		 * does not fit the machine). */
		struct m_set s = DECIDE(p, LIM_2, PART_LIM_SRQ, O_OK);

		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, why, -1);
		return 1;
	}
	m_why_add(why, M_RULE_LIM_1);
	struct m_set s = DECIDE(p, LIM_1, PART_STEP, O_ERR(EINVAL), O_ERR(ENOMEM));

	m_alts_add(out, &s, M_EFF_NONE, why, -1);
	return 1;
}

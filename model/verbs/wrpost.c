/*
 * wrpost.c — send WRs posted through the ibv_wr_* API of an extended QP
 * (wr=yes: ibv_wr_start, the operation's builder and setters,
 * ibv_wr_complete; ibv_wr_post(3)). The WR is the one ibv_post_send would
 * post (the same opcode, SGEs, flags and destination): it executes, completes
 * and reaches the peer as ibv_post_send's does, and a QP not in RTS gives
 * ibv_wr_complete the errno ibv_post_send gives (WR-POST-1). What the library
 * refuses for the WR itself (more SGEs than max_send_sge, a full send queue)
 * the builders and setters record, and ibv_wr_complete returns the
 * provider's errno for it, the WR not posted (WR-POST-2). A WR built and
 * then abandoned with ibv_wr_abort (wr=abort) is never posted: no
 * completion, no effect at either end (WR-POST-3).
 */
#include "model/verbs/internal.h"

/* Whether alternative a was decided by rule r. */
static int decided_by(const struct m_alt *a, enum m_rule r)
{
	for (unsigned i = 0; i < a->nrules; i++)
		if (a->rules[i] == r)
			return 1;
	return 0;
}

/* Rule r added to alternative a (once, while it has room). */
static void add_rule(struct m_alt *a, enum m_rule r)
{
	if (!decided_by(a, r) && a->nrules < M_RULES_MAX)
		a->rules[a->nrules++] = (uint16_t)r;
}

void m_wr_post_alts(const struct m_profile *p, struct m_pred *out)
{
	unsigned n = out->n;

	for (unsigned i = 0; i < n; i++) {
		struct m_alt *a = &out->alt[i];

		add_rule(a, M_RULE_WR_POST_1);
		if (a->out.kind != M_OUT_ERRNO || !decided_by(a, M_RULE_LP_7) || decided_by(a, M_RULE_QP_STATE_1))
			continue;
		/* ibv_post_send's EINVAL (num_sge) or ENOMEM (full queue): the setter's or builder's errno */
		struct m_set s = DECIDE(p, WR_POST_2, PART_STEP, O_ERR(ENOSPC), O_ERR(ENOMEM));
		struct m_why why = { .n = 0 };

		add_rule(a, M_RULE_WR_POST_2);
		for (unsigned r = 0; r < a->nrules; r++)
			m_why_add(&why, (enum m_rule)a->rules[r]);
		a->out = s.o[0];
		for (unsigned k = 1; k < s.n; k++)
			m_alt_add(out, s.o[k], (enum m_effect)a->effect, &why, a->peer_recv);
	}
}

int m_pred_wr_abort(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	struct m_why why = { 0 };
	int rc = m_pred_post(m, p, out); /* the WR as the builders make it: a malformed one stays malformed */

	if (rc)
		return rc;
	out->n = 0;
	m_why_add(&why, M_RULE_WR_POST_3);
	m_alt_add(out, O_OK, M_EFF_NONE, &why, -1);
	return 0;
}

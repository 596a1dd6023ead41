/*
 * dat.c — the uDAPL personality (catalog area C): privileges to access,
 * DAT_RETURN codes, PZ lifetime, LMR contexts, RMRs, endpoints, and DTOs
 * carried out by the verbs rules underneath (DAT-DTO-1 maps their status).
 * (Skeleton: every operation is refused as malformed until it is encoded.)
 */
#include "model/internal.h"

int m_pred_dat(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	(void)m;
	(void)p;
	(void)out;
	return -EOPNOTSUPP;
}

int m_apply_dat(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	(void)m;
	(void)pred;
	(void)i;
	(void)created;
	return -EOPNOTSUPP;
}

int m_query_dat(const struct model *m, const struct m_profile *p, const struct m_op *op,
		 struct m_qres *out)
{
	(void)m;
	(void)p;
	(void)op;
	(void)out;
	return -EOPNOTSUPP;
}

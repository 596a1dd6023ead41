/*
 * rpma.c — the librpma personality (catalog area B): usage to access,
 * argument checks with their RPMA_E_* codes, descriptors, connections, and
 * read/write/flush carried out by the verbs rules underneath.
 * (Skeleton: every operation is refused as malformed until it is encoded.)
 */
#include "model/internal.h"

int m_pred_rpma(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	(void)m;
	(void)p;
	(void)out;
	return -EOPNOTSUPP;
}

int m_apply_rpma(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	(void)m;
	(void)pred;
	(void)i;
	(void)created;
	return -EOPNOTSUPP;
}

int model_rpma_descriptor(const struct model *m, unsigned n, int remote, int h, uint8_t out[M_RPMA_DESC_SIZE])
{
	(void)m;
	(void)n;
	(void)remote;
	(void)h;
	(void)out;
	return -EINVAL;
}

int m_query_rpma(const struct model *m, const struct m_profile *p, const struct m_op *op,
		 struct m_qres *out)
{
	(void)m;
	(void)p;
	(void)op;
	(void)out;
	return -EOPNOTSUPP;
}

/*
 * model_rpmem.c — a librpmem call's arguments as its model operation
 * (family.h: model_op; struct m_rpmem_args), and the bytes the model holds
 * for a pool handle (model_buf): the target's pool, which the real stack
 * reads from the part files.
 */
#include "harness/api/rpmem/api_rpmem.h"
#include "harness/run/be_model.h"

int model_op_rpmem(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	(void)bm;
	op->rpmem = c->rpmem.a; /* the handle acted on is op->obj (model/rpmem/rpmem.c) */
	return 0;
}

int model_buf_rpmem(const struct be_model *bm, int32_t obj, int16_t h, struct bm_buf *out)
{
	const struct m_rpmem_model *s = &bm->m.rpmem;
	const struct m_rpmem_handle *hd;
	const struct m_rpmem_set *st;

	(void)obj;
	if (h < 0 || h >= s->nh || !(hd = &s->h[h])->ever || hd->target >= M_RPMEM_TARGETS)
		return 0;
	st = &s->target[hd->target].set[hd->set];
	if (!st->exists || !st->data)
		return 0; /* removed, or more than the model holds bytes for */
	*out = (struct bm_buf){ .bytes = st->data, .unknown = st->unknown,
				.len = st->span < hd->pool_size ? st->span : hd->pool_size };
	return 1;
}

/*
 * rpmem.c — the librpmem family's registry row (model/families.def
 * FAMILY(RPMEM, rpmem)): its operations (model/ops.def rows rpmem_*, in
 * enum m_rpmem_kind's order) onto the module's predict/apply
 * (model/rpmem/predict.c, apply.c) on the domain-wide state struct
 * model.rpmem, and the clone/free hooks for the pools' bytes that state owns.
 *
 * Translation: the op's kind gives struct m_rpmem_args.kind, the op's obj
 * the handle acted on (a.h; -1 for create/open/remove/poolset); target is the
 * node index of the target (set by the caller).
 */
#include "model/rpmem/internal.h"

#include <string.h>

_Static_assert(M_OP_RPMEM_POOLSET - M_OP_RPMEM_CREATE == M_RPMEM_POOLSET,
	       "model/ops.def's rpmem rows follow enum m_rpmem_kind");

static struct m_rpmem_args op_args(const struct m_op *op)
{
	struct m_rpmem_args a = op->rpmem;

	a.kind = (uint8_t)(op->kind - M_OP_RPMEM_CREATE);
	a.h = op->obj;
	return a;
}

static void rpmem_init(struct model *m)
{
	/* model_init zeroed the domain-wide state: only the targets to set up. */
	m_rpmem_init_zeroed(&m->rpmem, m->nnodes < M_RPMEM_TARGETS ? m->nnodes : M_RPMEM_TARGETS);
}

static int rpmem_predict(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	struct m_op op = out->op;
	struct m_rpmem_args a = op_args(&op);
	int rc = m_rpmem_predict(&m->rpmem, p, &a, out);

	out->op = op; /* m_rpmem_predict leaves op zero */
	return rc;
}

static int rpmem_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	struct m_rpmem_args a = op_args(&pred->op);

	return m_rpmem_apply(&m->rpmem, &a, pred, i, created);
}

static int rpmem_query(const struct model *m, const struct m_profile *p, const struct m_op *op, struct m_qres *out)
{
	struct m_rpmem_args a = op_args(op);

	(void)p;
	return m_rpmem_query(&m->rpmem, &a, out);
}

static int rpmem_clone(struct model *dst, const struct model *src)
{
	/* model_clone copied the domain-wide state: only the buffers to share. */
	(void)src;
	m_rpmem_share_bytes(&dst->rpmem);
	return 0;
}

static void rpmem_free(struct model *m)
{
	m_rpmem_free(&m->rpmem);
}

const struct m_family_ops m_family_rpmem = {
	.init = rpmem_init,
	.predict = rpmem_predict,
	.apply = rpmem_apply,
	.query = rpmem_query,
	.clone = rpmem_clone,
	.free = rpmem_free,
};

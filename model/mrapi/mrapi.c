/*
 * mrapi.c — the MRAPI family's registry row (m_family_mrapi): a model
 * operation (op kind M_OP_MRAPI_*, struct m_mrapi_args) as the call the
 * family's own model predicts and commits over struct model's member mrapi
 * (pred.c, state.c), plus the local buffer a read or write names (a buffer
 * the calling node created, struct m_mrapi_args.local): a write's bytes come
 * from it, a read's land in it (RMEM-RW-2, m_mrapi_read_image).
 */
#include "model/mrapi/internal.h"

#include <string.h>

_Static_assert(M_OP_MRAPI_LOCAL_STORE - M_OP_MRAPI_INITIALIZE == M_MRAPI_LOCAL_STORE,
	       "model/ops.def lists the MRAPI ops in enum m_mrapi_call's order");

/* The access types the library under test supports (lib/mrapi: DEFAULT and DMA). */
#define ATYPES (1u << M_MRAPI_ATYPE_DEFAULT | 1u << M_MRAPI_ATYPE_DMA)

static void mrapi_init(struct model *m)
{
	unsigned n = m->nnodes < M_MRAPI_NODES ? m->nnodes : M_MRAPI_NODES;

	m_mrapi_init_zeroed(&m->mrapi, n, ATYPES); /* model_init zeroed it */
}

/* The first attribute struct never initialised: the one init_attributes makes (-1: none left). */
static int free_attrs(const struct m_mrapi_model *st)
{
	for (int i = 0; i < M_MRAPI_ATTRS; i++)
		if (!st->attrs[i].inited)
			return i;
	return -1;
}

/* Is every byte of the write's transfers from local seg g known? */
static int local_known(const struct m_mrapi_seg *g, const struct m_mrapi_args *a)
{
	for (uint32_t i = 0; i < a->nstrides; i++) {
		uint64_t roff, loff;

		m_mrapi_transfer(a, i, &roff, &loff);
		for (uint64_t b = 0; b < a->bytes; b++)
			if (loff + b >= M_MRAPI_BYTES || loff + b >= g->size || g->unknown[loff + b])
				return 0;
	}
	return 1;
}

/*
 * op as the family's call on m: call and node from the op, the handle acted
 * on in its place, a write's bytes from its local buffer. -EINVAL for an op
 * the family cannot take (a node past M_MRAPI_NODES, a local buffer that is
 * not the caller's).
 */
static int args_of(const struct model *m, const struct m_op *op, struct m_mrapi_args *a)
{
	const struct m_mrapi_model *st = &m->mrapi;

	*a = op->mrapi;
	a->call = (uint8_t)(op->kind - M_OP_MRAPI_INITIALIZE);
	a->node = op->node;
	if (op->node >= st->nnodes)
		return -EINVAL;
	switch ((enum m_mrapi_call)a->call) {
	case M_MRAPI_TEST: case M_MRAPI_WAIT: case M_MRAPI_CANCEL:
		a->req = op->obj;
		break;
	case M_MRAPI_SET_ATTRIBUTE:
		a->attrs = op->obj;
		break;
	case M_MRAPI_INIT_ATTRIBUTES:
		if (!(a->nulls & M_MRAPI_NULL_ATTRS) && (a->attrs = (int16_t)free_attrs(st)) < 0)
			return -EINVAL;
		break;
	case M_MRAPI_INITIALIZE: case M_MRAPI_FINALIZE: case M_MRAPI_CREATE: case M_MRAPI_GET:
	case M_MRAPI_READ_I: case M_MRAPI_WRITE_I: case M_MRAPI_WAIT_ANY:
		break;
	default:
		a->rmem = op->obj;
		break;
	}
	if (a->local >= 0 && (a->call == M_MRAPI_READ || a->call == M_MRAPI_READ_I || a->call == M_MRAPI_WRITE ||
			      a->call == M_MRAPI_WRITE_I)) {
		const struct m_mrapi_seg *g;

		if (a->local >= st->nsegs || st->seg[a->local].owner != op->node)
			return -EINVAL;
		g = &st->seg[a->local];
		if (a->call == M_MRAPI_WRITE || a->call == M_MRAPI_WRITE_I) {
			a->data = local_known(g, a) ? g->bytes : NULL;
			a->data_len = g->size < M_MRAPI_BYTES ? g->size : M_MRAPI_BYTES;
		}
	}
	return 0;
}

static int mrapi_predict(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	struct m_mrapi_args a;
	struct m_op op = out->op;
	int rc = args_of(m, &op, &a);

	if (rc)
		return rc;
	rc = m_mrapi_predict(&m->mrapi, p, &a, out);
	out->op = op; /* m_mrapi_predict zeroes the prediction */
	out->res = (struct m_resolved){ .lmr = -1, .tmr = -1, .inv_mw = -1, .rmr = -1, .peer_node = -1,
					.peer_qp = -1 };
	return rc;
}

/* RMEM-RW-2: what a read that took effect puts into its local buffer. */
static void read_into_local(struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	struct m_mrapi_seg *g = &st->seg[a->local];
	uint8_t bytes[M_MRAPI_BYTES], known[M_MRAPI_BYTES];
	size_t n = g->size < M_MRAPI_BYTES ? (size_t)g->size : M_MRAPI_BYTES;

	memcpy(bytes, g->bytes, n);
	for (size_t k = 0; k < n; k++)
		known[k] = !g->unknown[k];
	if (m_mrapi_read_image(st, a, bytes, known, n) < 0)
		return;
	memcpy(g->bytes, bytes, n);
	for (size_t k = 0; k < n; k++)
		g->unknown[k] = !known[k];
}

static int mrapi_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	struct m_mrapi_args a;
	const struct m_alt *alt = &pred->alt[i];
	int rc = args_of(m, &pred->op, &a);

	if (rc)
		return rc;
	rc = m_mrapi_apply(&m->mrapi, &a, pred, i, created);
	if (rc)
		return rc;
	if (a.call == M_MRAPI_INIT_ATTRIBUTES && alt->out.kind == M_OUT_MRAPI && alt->out.code == M_MRAPI_SUCCESS)
		*created = a.attrs;
	if ((a.call == M_MRAPI_READ || a.call == M_MRAPI_READ_I) && a.local >= 0 && alt->effect == M_EFF_DO &&
	    alt->out.kind == M_OUT_MRAPI && alt->out.code == M_MRAPI_SUCCESS)
		read_into_local(&m->mrapi, &a);
	return 0;
}

static int mrapi_query(const struct model *m, const struct m_profile *p, const struct m_op *op, struct m_qres *out)
{
	struct m_mrapi_args a;
	int rc = args_of(m, op, &a);

	return rc ? rc : m_mrapi_query(&m->mrapi, p, &a, out);
}

const struct m_family_ops m_family_mrapi = {
	.init = mrapi_init,
	.predict = mrapi_predict,
	.apply = mrapi_apply,
	.query = mrapi_query,
};

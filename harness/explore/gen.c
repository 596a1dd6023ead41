/* gen.c — random model operations (see gen.h). */
#include "harness/explore/gen.h"

#include <errno.h>
#include <string.h>

void model_gen_seed(struct model_gen *g, uint64_t seed)
{
	g->state = seed ? seed : 0x9e3779b97f4a7c15ull;
}

uint64_t model_gen_next(struct model_gen *g)
{
	uint64_t x = g->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->state = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint32_t model_gen_below(struct model_gen *g, uint32_t n)
{
	return (uint32_t)((model_gen_next(g) >> 32) * n >> 32);
}

static const uint32_t accesses[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 21, 31, M_ACC_ZERO_BASED | 1, 1u << 20, 1u << 15,
};


static int pick_live_mr(struct model_gen *g, const struct m_node *nd)
{
	for (int t = 0; t < 4 && nd->nmr > 0; t++) {
		int c = (int)model_gen_below(g, nd->nmr);

		if (nd->mr[c].live)
			return c;
	}
	return -1;
}

static int pick(struct model_gen *g, unsigned n, const uint8_t *live, size_t stride, int want_live)
{
	for (int t = 0; t < 4 && n > 0; t++) {
		unsigned c = model_gen_below(g, n);

		if (!want_live || live[c * stride])
			return (int)c;
	}
	return -1;
}
#define PICK_OBJ(g, arr, n, want_live) \
	pick(g, (n), &(arr)[0].live, sizeof((arr)[0]), want_live)

/* A key: usually some object's current key, sometimes a made-up one. */
static uint32_t pick_key(struct model_gen *g, const struct m_node *nd, int remote)
{
	uint32_t r = model_gen_below(g, 10);

	if (r < 6 && nd->nmr) {
		const struct m_mr *mr = &nd->mr[model_gen_below(g, nd->nmr)];
		return remote ? mr->rkey : mr->lkey;
	}
	if (r < 9 && nd->nmw)
		return nd->mw[model_gen_below(g, nd->nmw)].rkey;
	return (uint32_t)model_gen_next(g);
}

int model_gen_op(struct model_gen *g, const struct model *m, struct m_op *op)
{
	unsigned node = model_gen_below(g, m->nnodes);
	const struct m_node *nd = &m->node[node];
	uint32_t k = model_gen_below(g, 100);

	memset(op, 0, sizeof(*op));
	op->node = (uint8_t)node;
	if (k < 4 || nd->npd == 0) {
		if (nd->npd >= M_MAX_PD)
			return -EAGAIN;
		op->kind = M_OP_ALLOC_PD;
		return 0;
	}
	if (k < 7) {
		op->kind = M_OP_DEALLOC_PD;
		op->obj = (int16_t)PICK_OBJ(g, nd->pd, nd->npd, 1);
		return op->obj < 0 ? -EAGAIN : 0;
	}
	if (k < 18) {
		if (nd->nmr >= M_MAX_MR)
			return -EAGAIN;
		op->kind = M_OP_REG_MR;
		op->verbs.pd = (int16_t)PICK_OBJ(g, nd->pd, nd->npd, 1);
		op->verbs.len = model_gen_below(g, 4) ? 64u << model_gen_below(g, 4) : model_gen_below(g, 3);
		op->verbs.offset = model_gen_below(g, 3) ? 0 : model_gen_below(g, M_PAGE);
		op->verbs.access = accesses[model_gen_below(g, sizeof(accesses) / sizeof(accesses[0]))];
		op->verbs.prot = (uint8_t)(model_gen_below(g, 8) == 0 ? model_gen_below(g, 3) : M_PROT_RW);
		if (model_gen_below(g, 8) == 0) {
			op->verbs.has_iova = 1;
			op->verbs.iova = model_gen_below(g, 2) ? 0 : op->verbs.offset + M_PAGE * model_gen_below(g, 4);
		}
		return op->verbs.pd < 0 ? -EAGAIN : 0;
	}
	if (k < 23) {
		op->kind = M_OP_DEREG_MR;
		op->obj = (int16_t)pick_live_mr(g, nd);
		return op->obj < 0 ? -EAGAIN : 0;
	}
	if (k < 26) {
		op->kind = M_OP_REREG_MR;
		op->obj = (int16_t)pick_live_mr(g, nd); /* a dead one: use after free */
		op->verbs.rereg_flags = model_gen_below(g, 9);
		op->verbs.access = accesses[model_gen_below(g, sizeof(accesses) / sizeof(accesses[0]))];
		op->verbs.pd = (int16_t)PICK_OBJ(g, nd->pd, nd->npd, 1);
		op->verbs.len = model_gen_below(g, 2) * 64;
		return op->obj < 0 || op->verbs.pd < 0 ? -EAGAIN : 0;
	}
	if (k < 30) {
		if (nd->nmw >= M_MAX_MW)
			return -EAGAIN;
		op->kind = M_OP_ALLOC_MW;
		op->verbs.pd = (int16_t)PICK_OBJ(g, nd->pd, nd->npd, 1);
		op->verbs.mw_type = 1 + model_gen_below(g, 3) / 2;
		op->verbs.mw_type += model_gen_below(g, 16) == 0 ? 5 : 0;
		return op->verbs.pd < 0 ? -EAGAIN : 0;
	}
	if (k < 32) {
		op->kind = M_OP_DEALLOC_MW;
		op->obj = (int16_t)PICK_OBJ(g, nd->mw, nd->nmw, 1);
		return op->obj < 0 ? -EAGAIN : 0;
	}
	if (k < 38) {
		if (nd->nqp >= M_MAX_QP)
			return -EAGAIN;
		op->kind = M_OP_CREATE_QP;
		op->verbs.pd = (int16_t)PICK_OBJ(g, nd->pd, nd->npd, 1);
		op->verbs.access = model_gen_below(g, 4) ? 14 : model_gen_below(g, 16);
		return op->verbs.pd < 0 ? -EAGAIN : 0;
	}
	int qp = PICK_OBJ(g, nd->qp, nd->nqp, 1);

	if (qp < 0)
		return -EAGAIN;
	op->obj = (int16_t)qp;
	if (k < 44) {
		unsigned peer = model_gen_below(g, m->nnodes);
		const struct m_node *pn = &m->node[peer];

		if (peer == node)
			return -EAGAIN;
		op->kind = M_OP_CONNECT;
		op->verbs.peer_node = (int16_t)peer;
		op->verbs.peer_qp = (int16_t)PICK_OBJ(g, pn->qp, pn->nqp, 1);
		return op->verbs.peer_qp < 0 ? -EAGAIN : 0;
	}
	if (k < 46) {
		op->kind = M_OP_MODIFY_QP;
		op->verbs.qp_state = model_gen_below(g, 2) ? M_QPS_ERR : M_QPS_RESET;
		return 0;
	}
	if (k < 47) {
		op->kind = M_OP_DESTROY_QP;
		return 0;
	}
	if (k < 49) {
		op->kind = M_OP_QUERY_QP;
		return 0;
	}
	if (k < 55) {
		op->kind = M_OP_BIND_MW;
		op->verbs.qp = (int16_t)qp;
		op->obj = (int16_t)PICK_OBJ(g, nd->mw, nd->nmw, 1);
		op->verbs.mr = (int16_t)pick_live_mr(g, nd);
		if (op->obj < 0 || op->verbs.mr < 0)
			return -EAGAIN;
		op->verbs.offset = nd->mr[op->verbs.mr].iova + model_gen_below(g, 3) * 32;
		op->verbs.len = model_gen_below(g, 4) * 32;
		op->verbs.access = model_gen_below(g, 16) & 0xe;
		op->verbs.zero_based = model_gen_below(g, 4) == 0;
		return 0;
	}
	if (k < 58) {
		op->kind = M_OP_LOCAL_INV;
		op->verbs.rkey = pick_key(g, nd, 1);
		return 0;
	}
	/* Posts: the local SGE in one of the node's MRs, the remote target on the peer. */
	const struct m_qp *q = &nd->qp[qp];
	static const uint8_t posts[] = { M_OP_WRITE, M_OP_WRITE, M_OP_READ, M_OP_READ, M_OP_CAS,
					 M_OP_FADD, M_OP_SEND, M_OP_RECV, M_OP_RECV };
	op->kind = posts[model_gen_below(g, sizeof(posts))];
	op->verbs.len = model_gen_below(g, 5) ? 8u << model_gen_below(g, 4) : model_gen_below(g, 2) * 4;
	if (op->kind == M_OP_CAS || op->kind == M_OP_FADD)
		op->verbs.len = model_gen_below(g, 8) ? 8 : 4;
	if (nd->nmr) {
		const struct m_mr *l = &nd->mr[model_gen_below(g, nd->nmr)];

		op->verbs.lkey = model_gen_below(g, 10) ? l->lkey : (uint32_t)model_gen_next(g);
		op->verbs.laddr = l->addr + model_gen_below(g, 4) * 8;
	}
	op->verbs.compare = model_gen_below(g, 4);
	op->verbs.swap = model_gen_next(g);
	if (q->peer_node >= 0) {
		const struct m_node *pn = &m->node[q->peer_node];

		op->verbs.rkey = pick_key(g, pn, 1);
		if (pn->nmr) {
			const struct m_mr *t = &pn->mr[model_gen_below(g, pn->nmr)];

			op->verbs.raddr = t->iova + model_gen_below(g, 8) * 4;
		}
		if (op->kind == M_OP_SEND && model_gen_below(g, 4) == 0)
			op->verbs.with_inv = 1;
	}
	return 0;
}

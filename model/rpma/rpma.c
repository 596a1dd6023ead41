/*
 * rpma.c — the librpma family's registry row (m_family_rpma): its state's
 * start, the dispatch of its calls to mr.c and conn.c, and how a verbs
 * outcome underneath becomes librpma's (see rpma/internal.h).
 */
#include "model/rpma/internal.h"

#include <string.h>

/* RPMA-REG-3: src/peer.c rpma_peer_usage2access (RoCE: READ_DST adds no REMOTE_WRITE). */
uint32_t m_rpma_usage2access(uint32_t usage)
{
	uint32_t a = 0;

	if (usage & (M_RPMA_READ_SRC | M_RPMA_USAGE_FLUSH_VISIBILITY | M_RPMA_USAGE_FLUSH_PERSISTENT))
		a |= M_ACC_REMOTE_READ;
	if (usage & (M_RPMA_READ_DST | M_RPMA_WRITE_SRC | M_RPMA_RECV))
		a |= M_ACC_LOCAL_WRITE;
	if (usage & M_RPMA_WRITE_DST)
		a |= M_ACC_REMOTE_WRITE | M_ACC_LOCAL_WRITE;
	return a;
}

/* Give node n its librpma peer's PD if it has none yet, in its next PD slot (mr.c predicts
 * a first registration on that slot). Returns 0 or -ENOSPC. */
int m_rpma_ensure_peer(struct model *m, unsigned n)
{
	struct m_node *nd = &m->node[n];

	if (nd->rpma.pd >= 0)
		return 0;
	if (nd->npd >= M_MAX_PD)
		return -ENOSPC;
	nd->pd[nd->npd] = (struct m_pd){ .live = 1, .ever = 1, .api = M_FAM_RPMA };
	nd->rpma.pd = (int16_t)nd->npd++;
	return 0;
}

/*
 * How librpma reports a verbs alternative: a failed verbs call is
 * RPMA_E_PROVIDER; the success of an unsignaled WR (on_error) gives no
 * completion, so the call's own `ok` stands (RPMA-OP-3); the rest as is.
 */
static struct m_outcome map_outcome(struct m_outcome o, int on_error)
{
	if (o.kind == M_OUT_ERRNO)
		return O_RPMA(M_RPMA_E_PROVIDER);
	if (on_error && o.kind == M_OUT_WC && o.code == M_WC_SUCCESS)
		return O_OK;
	return o;
}

/*
 * Add the verbs prediction v to out through map_outcome, with the rules of
 * lead first (then on_errno for a failed verbs call, then the verbs rules),
 * and take over what v resolved. An alternative keeps its verbs effect.
 */
void m_rpma_map_verbs(struct m_pred *out, const struct m_pred *v, int on_error, const struct m_why *lead,
		      enum m_rule on_errno)
{
	out->res = v->res;
	for (unsigned j = 0; j < v->n; j++) {
		const struct m_alt *va = &v->alt[j];
		struct m_why w = *lead;
		unsigned before = out->n;

		if (va->out.kind == M_OUT_ERRNO)
			m_why_add(&w, on_errno);
		for (unsigned r = 0; r < va->nrules; r++)
			m_why_add(&w, (enum m_rule)va->rules[r]);
		m_alt_add(out, map_outcome(va->out, on_error), (enum m_effect)va->effect, &w, va->peer_recv);
		if (out->n > before) {
			out->alt[before].target_unknown = va->target_unknown;
			out->alt[before].remote_done = va->remote_done;
		}
	}
}

/* One alternative decided by rule r alone. */
void m_rpma_alt1(struct m_pred *out, struct m_outcome o, enum m_effect e, enum m_rule r)
{
	struct m_why w = { 0 };

	m_why_add(&w, r);
	m_alt_add(out, o, e, &w, -1);
}

static int rpma_predict(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	switch (out->op.kind) {
	case M_OP_RPMA_MR_REG:
		return m_rpma_pred_reg(m, p, out);
	case M_OP_RPMA_MR_DEREG:
		return m_rpma_pred_dereg(m, p, out);
	case M_OP_RPMA_MR_GET_DESC:
		return m_rpma_pred_desc(m, out, M_RULE_RPMA_DESC_2);
	case M_OP_RPMA_MR_GET_DESC_SIZE:
		return m_rpma_pred_desc(m, out, M_RULE_RPMA_DESC_1);
	case M_OP_RPMA_REMOTE_FROM_DESC:
		return m_rpma_pred_from_desc(p, out);
	case M_OP_RPMA_REMOTE_GET_SIZE:
	case M_OP_RPMA_REMOTE_GET_FLUSH_TYPE:
		return m_rpma_pred_remote_query(m, out);
	case M_OP_RPMA_CONNECT:
		return m_rpma_pred_connect(m, out);
	case M_OP_RPMA_DISCONNECT:
		return m_rpma_pred_disconnect(m, out);
	case M_OP_RPMA_READ:
	case M_OP_RPMA_WRITE:
		return m_rpma_pred_io(m, p, out);
	case M_OP_RPMA_ATOMIC_WRITE:
		return m_rpma_pred_atomic_write(m, p, out);
	case M_OP_RPMA_FLUSH:
		return m_rpma_pred_flush(m, p, out);
	default:
		return -EINVAL;
	}
}

static int rpma_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_alt *a = &pred->alt[i];

	if (a->effect == M_EFF_CRASH) {
		m->crashed = 1;
		return 0;
	}
	if (a->effect == M_EFF_NONE)
		return 0;
	switch (pred->op.kind) {
	case M_OP_RPMA_MR_REG:
		return m_rpma_apply_reg(m, pred, i, created);
	case M_OP_RPMA_MR_DEREG: {
		struct m_op vop = { .kind = M_OP_DEREG_MR, .node = pred->op.node, .obj = pred->op.obj,
				    .verbs = { .pd = -1, .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1 } };

		return m_verbs_step_apply(m, &vop, &pred->res, a, created);
	}
	case M_OP_RPMA_REMOTE_FROM_DESC:
		return m_rpma_apply_from_desc(m, &pred->op, created);
	case M_OP_RPMA_CONNECT:
		return m_rpma_apply_connect(m, &pred->op, created);
	case M_OP_RPMA_DISCONNECT:
		return m_rpma_apply_disconnect(m, &pred->op);
	case M_OP_RPMA_READ:
	case M_OP_RPMA_WRITE:
	case M_OP_RPMA_ATOMIC_WRITE:
	case M_OP_RPMA_FLUSH:
		return m_rpma_io_apply(m, pred, i);
	default:
		return 0;
	}
}

static void rpma_init(struct model *m)
{
	for (unsigned i = 0; i < m->nnodes; i++)
		m->node[i].rpma.pd = -1;
}

const struct m_family_ops m_family_rpma = {
	.init = rpma_init,
	.predict = rpma_predict,
	.apply = rpma_apply,
	.query = m_rpma_query,
};

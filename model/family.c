/*
 * family.c — the registry of API families and the public entry points that
 * dispatch through it: model_init, model_predict, model_apply, model_query.
 * A family is a row of model/families.def (its hooks: struct m_family_ops in
 * model/internal.h; NULL for a family the model has no operations of), its
 * operations rows of model/ops.def.
 */
#include "model/internal.h"

#include <string.h>

static const struct m_family_ops *const families[M_FAM_COUNT_] = {
#define M_FAMILY_ROW_0(name) NULL
#define M_FAMILY_ROW_1(name) &m_family_##name
#define FAMILY(sym, name, model) [M_FAM_##sym] = M_FAMILY_ROW_##model(name),
#include "model/families.def"
#undef FAMILY
#undef M_FAMILY_ROW_0
#undef M_FAMILY_ROW_1
};

static const uint8_t op_family[M_OP_COUNT_] = {
#define OP(fam, sym, name) [M_OP_##sym] = M_FAM_##fam,
#include "model/ops.def"
#undef OP
};

enum m_family m_op_family(enum m_op_kind k)
{
	return (unsigned)k < M_OP_COUNT_ ? (enum m_family)op_family[k] : M_FAM_COUNT_;
}

int model_init(struct model *m, unsigned nnodes)
{
	/* First, so that a model refused here is still safe to model_free: the
	 * header, the domain-wide state and the model's own nodes (model.h: the
	 * nodes past them are no part of it; not zeroing them saves most of the
	 * struct's 0.5 MB for a model of a few nodes). */
	unsigned own = nnodes >= 1 && nnodes <= M_MAX_NODES ? nnodes : 0;

	memset(m, 0, offsetof(struct model, node) + own * sizeof(m->node[0]));
	/* Each family's domain-wide state: its fixed part (the entries past a count are no part of it). */
#define MODEL_STATE(name) memset(&m->name, 0, m_##name##_model_fixed());
#include "model/state.def"
	if (!own)
		return -EINVAL;
	m->nnodes = (uint8_t)nnodes;
	for (unsigned f = 0; f < M_FAM_COUNT_; f++)
		if (families[f] && families[f]->init)
			families[f]->init(m);
	return 0;
}

int m_families_clone(struct model *dst, const struct model *src)
{
	int rc = 0;

	/* Every hook runs even after a failure, so no family is left aliasing src. */
	for (unsigned f = 0; f < M_FAM_COUNT_; f++)
		if (families[f] && families[f]->clone) {
			int r = families[f]->clone(dst, src);

			if (r && !rc)
				rc = r;
		}
	return rc;
}

void m_families_free(struct model *m)
{
	for (unsigned f = 0; f < M_FAM_COUNT_; f++)
		if (families[f] && families[f]->free)
			families[f]->free(m);
}

void m_pred_init(struct m_pred *pred, const struct m_op *op)
{
	/* Member by member: the alternatives are written as they are added (alt_add), and a memset
	 * of the whole (0.7 KB) before the op's copy was a fifth of a step's time. The op (0.3 KB)
	 * in 16-byte pieces: the compiler's own copy of the struct is a rep movsq, whose start-up
	 * was most of model_predict's own time. */
	const unsigned char *src = (const unsigned char *)op;
	unsigned char *dst = (unsigned char *)&pred->op;

#pragma GCC unroll 32
	for (size_t i = 0; i + 16 <= sizeof(*op); i += 16)
		memcpy(dst + i, src + i, 16);
	if (sizeof(*op) % 16)
		memcpy(dst + sizeof(*op) - sizeof(*op) % 16, src + sizeof(*op) - sizeof(*op) % 16, sizeof(*op) % 16);
	pred->res = (struct m_resolved){ .lmr = -1, .tmr = -1, .inv_mw = -1, .rmr = -1, .peer_node = -1,
					 .peer_qp = -1 };
	memset(pred->wr_seen, 0, sizeof(pred->wr_seen));
	pred->n = 0;
}

int model_predict(const struct model *m, const struct m_profile *p, const struct m_op *op,
		  struct m_pred *out)
{
	m_pred_init(out, op);
	if (op->node >= m->nnodes || op->kind >= M_OP_COUNT_)
		return -EINVAL;
	if (m->crashed) {
		struct m_why why = { 0 };

		m_alt_add(out, O_CRASH, M_EFF_CRASH, &why, -1);
		return 0;
	}
	int rc = families[op_family[op->kind]]->predict(m, p, out);

	/* The peer QP's state after each alternative (a secondary effect); the peer read once (the
	 * byte-wide stores below may alias anything: the compiler would read it again each time). */
	int16_t pn = out->res.peer_node;
	uint8_t now = pn < 0 || out->res.peer_qp < 0 ? M_NO_PEER : m->node[pn].qp[out->res.peer_qp].state;

	for (unsigned i = 0, n = out->n; i < n; i++) {
		struct m_alt *a = &out->alt[i];

		a->peer_state = pn >= 0 && (a->effect == M_EFF_BOTH_ERR || a->effect == M_EFF_PEER_ERR) ? M_QPS_ERR : now;
	}
	return rc;
}

int model_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	int dummy;

	if (!created)
		created = &dummy;
	*created = -1;
	if (i >= pred->n || pred->op.kind >= M_OP_COUNT_)
		return -EINVAL;
	return families[op_family[pred->op.kind]]->apply(m, pred, i, created);
}

int model_query(const struct model *m, const struct m_profile *p, const struct m_op *op,
		struct m_qres *out)
{
	const struct m_family_ops *f;

	out->n = 0;
	if (op->node >= m->nnodes || op->kind >= M_OP_COUNT_)
		return -EINVAL;
	f = families[op_family[op->kind]];
	return f->query ? f->query(m, p, op, out) : -EINVAL;
}

/* mr.c — librpma registration, descriptors and remote MRs (catalog area B; rpma/internal.h). */
#include "model/rpma/internal.h"

/* ------------------------------------------------------ registration -- */

/*
 * The ibv_reg_mr librpma makes for rpma_mr_reg op: in the peer's PD, or,
 * before the node has one, in the PD m_rpma_ensure_peer makes first (the
 * node's next PD slot; verbs pd_next).
 */
static void reg_to_verbs(const struct model *m, const struct m_op *op, struct m_op *vop)
{
	const struct m_node *nd = &m->node[op->node];
	int next = nd->rpma.pd < 0;

	*vop = (struct m_op){ .kind = M_OP_REG_MR, .node = op->node, .obj = -1,
			      .verbs = { .pd = next ? nd->npd : nd->rpma.pd, .pd_next = (uint8_t)next, .mr = -1,
					 .qp = -1, .peer_node = -1, .peer_qp = -1, .len = op->rpma.len,
					 .access = m_rpma_usage2access(op->rpma.usage), .offset = op->rpma.offset,
					 .prot = op->rpma.prot } };
	if (op->rpma.mr >= 0) {
		/* Registering another rpma MR's buffer again: the same memory. */
		vop->verbs.in_buf = 1;
		vop->verbs.mr = op->rpma.mr;
	}
}

int m_rpma_pred_reg(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct m_pred vp;
	int rc;

	if (op->rpma.mr >= 0 && (!EVER(nd->mr, nd->nmr, op->rpma.mr) || nd->mr[op->rpma.mr].api != M_FAM_RPMA ||
			    op->rpma.len > nd->mr[op->rpma.mr].len))
		return -EINVAL;
	if ((op->rpma.nulls & (A0 | A1 | A2)) || op->rpma.len == 0) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_REG_1);
		return 0;
	}
	if (op->rpma.usage == 0 || (op->rpma.usage & ~USAGE_ALL_ALLOWED)) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_REG_2);
		return 0;
	}
	reg_to_verbs(m, op, &vop);
	rc = m_verbs_step_predict(m, p, &vop, &vp);
	if (rc)
		return rc;
	m_why_add(&lead, M_RULE_RPMA_REG_3);
	m_rpma_map_verbs(out, &vp, 0, &lead, M_RULE_RPMA_REG_4);
	return 0;
}

int m_rpma_apply_reg(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	struct m_node *nd = &m->node[op->node];
	struct m_op vop;
	int rc = m_rpma_ensure_peer(m, op->node);

	if (rc)
		return rc;
	reg_to_verbs(m, op, &vop);
	rc = m_verbs_step_apply(m, &vop, &pred->res, &pred->alt[i], created);
	if (rc || *created < 0)
		return rc;
	struct m_mr *mr = &nd->mr[*created];

	mr->api = M_FAM_RPMA;
	mr->usage = op->rpma.usage;
	return 0;
}

/* A live-or-dead rpma MR of node n. */
int m_rpma_mr_ok(const struct m_node *nd, int h)
{
	return EVER(nd->mr, nd->nmr, h) && nd->mr[h].api == M_FAM_RPMA;
}

int m_rpma_pred_dereg(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct m_pred vp;
	int rc;

	if (!m_rpma_mr_ok(nd, op->obj))
		return -EINVAL;
	if (op->rpma.nulls & A0) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_DEREG_1);
		return 0;
	}
	if ((op->rpma.nulls & A1) || !nd->mr[op->obj].live) {
		/* *mr_ptr is NULL: librpma NULLed it at the earlier dereg. */
		m_rpma_alt1(out, O_OK, M_EFF_NONE, M_RULE_RPMA_DEREG_1);
		return 0;
	}
	vop = (struct m_op){ .kind = M_OP_DEREG_MR, .node = op->node, .obj = op->obj,
			     .verbs = { .pd = -1, .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1 } };
	rc = m_verbs_step_predict(m, p, &vop, &vp);
	if (rc)
		return rc;
	m_why_add(&lead, M_RULE_RPMA_DEREG_1);
	/* A refused ibv_dereg_mr: RPMA_E_PROVIDER (the code then frees and NULLs
	 * *mr_ptr anyway; no scenario can bind a window to an rpma MR, so the
	 * model keeps the MR as verbs does). */
	for (unsigned j = 0; j < vp.n; j++)
		if (vp.alt[j].effect != M_EFF_DO)
			vp.alt[j].effect = M_EFF_NONE;
	m_rpma_map_verbs(out, &vp, 0, &lead, M_RULE_RPMA_DEREG_1);
	return 0;
}

/* ------------------------------------------------------- descriptors -- */

static uint64_t le_get(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | b[n];
	return v;
}

void m_rpma_le_put(uint8_t *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		b[i] = (uint8_t)v;
}

static void encode(uint8_t out[M_RPMA_DESC_SIZE], uint64_t addr, uint64_t len, uint32_t rkey, uint8_t usage)
{
	m_rpma_le_put(out, addr, 8);
	m_rpma_le_put(out + 8, len, 8);
	m_rpma_le_put(out + 16, rkey, 4);
	out[20] = usage;
}

int model_rpma_descriptor(const struct model *m, unsigned n, int remote, int h, uint8_t out[M_RPMA_DESC_SIZE])
{
	const struct m_node *nd;

	if (n >= m->nnodes)
		return -EINVAL;
	nd = &m->node[n];
	if (!remote && m_rpma_mr_ok(nd, h)) {
		/* RPMA-DESC-2: ibv_mr->addr (the MR's own address), length, rkey,
		 * usage. A deregistered MR keeps its last descriptor (a stale one). */
		const struct m_mr *mr = &nd->mr[h];

		encode(out, mr->addr, mr->len, mr->rkey, (uint8_t)mr->usage);
		return 0;
	}
	if (remote && EVER(nd->rpma.rremote, nd->rpma.nrremote, h)) {
		const struct m_rremote *r = &nd->rpma.rremote[h];

		encode(out, r->addr, r->len, r->rkey, r->usage);
		return 0;
	}
	return -EINVAL;
}

/* rpma_mr_get_descriptor / _size: (mr, desc) must be non-NULL, mr registered. */
int m_rpma_pred_desc(const struct model *m, struct m_pred *out, enum m_rule r)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];

	if (!m_rpma_mr_ok(nd, op->obj))
		return -EINVAL;
	if ((op->rpma.nulls & (A0 | A1)) || !nd->mr[op->obj].live)
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, r);
	else
		m_rpma_alt1(out, O_OK, M_EFF_NONE, r);
	return 0;
}

int m_rpma_pred_from_desc(const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	struct m_why why = { 0 };

	m_why_add(&why, M_RULE_RPMA_DESC_3);
	if ((op->rpma.nulls & (A0 | A1)) || op->rpma.size < M_RPMA_DESC_SIZE) {
		m_alt_add(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->rpma.desc[20] == 0) {
		/* "does not represent a valid memory region" (the man page). */
		struct m_set s = DECIDE(p, RPMA_DESC_3, PART_RPMA_USAGE0, O_RPMA(M_RPMA_E_NOSUPP));

		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

int m_rpma_apply_from_desc(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node];

	if (nd->rpma.nrremote >= M_MAX_RREMOTE)
		return -ENOSPC;
	nd->rpma.rremote[nd->rpma.nrremote] = (struct m_rremote){ .live = 1, .ever = 1, .usage = op->rpma.desc[20],
						       .addr = le_get(op->rpma.desc, 8), .len = le_get(op->rpma.desc + 8, 8),
						       .rkey = (uint32_t)le_get(op->rpma.desc + 16, 4) };
	*created = nd->rpma.nrremote++;
	return 0;
}

/* rpma_mr_remote_get_size / _get_flush_type: (mr, out) non-NULL. */
int m_rpma_pred_remote_query(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];

	if (!EVER(nd->rpma.rremote, nd->rpma.nrremote, op->obj))
		return -EINVAL;
	m_rpma_alt1(out, (op->rpma.nulls & (A0 | A1)) ? O_RPMA(M_RPMA_E_INVAL) : O_OK, M_EFF_NONE, M_RULE_RPMA_DESC_4);
	return 0;
}

int m_rpma_query(const struct model *m, const struct m_profile *p, const struct m_op *op,
		 struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	(void)p;
	switch (op->kind) {
	case M_OP_RPMA_MR_GET_DESC_SIZE:
		if (!m_rpma_mr_ok(nd, op->obj))
			return -EINVAL;
		m_qres_add(out, "size", M_Q_EXACT, M_RPMA_DESC_SIZE, M_RULE_RPMA_DESC_1);
		return 0;
	case M_OP_RPMA_REMOTE_GET_SIZE:
	case M_OP_RPMA_REMOTE_GET_FLUSH_TYPE:
		if (!EVER(nd->rpma.rremote, nd->rpma.nrremote, op->obj))
			return -EINVAL;
		if (op->kind == M_OP_RPMA_REMOTE_GET_SIZE)
			m_qres_add(out, "size", M_Q_EXACT, nd->rpma.rremote[op->obj].len, M_RULE_RPMA_DESC_4);
		else
			m_qres_add(out, "flush_type", M_Q_EXACT,
				   nd->rpma.rremote[op->obj].usage &
					   (M_RPMA_USAGE_FLUSH_VISIBILITY | M_RPMA_USAGE_FLUSH_PERSISTENT),
				   M_RULE_RPMA_DESC_4);
		return 0;
	default:
		return -EINVAL;
	}
}


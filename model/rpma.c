/*
 * rpma.c — the librpma 1.2.0 personality (catalog area B): usage flags to
 * access rights, the argument checks of every call with their RPMA_E_* codes,
 * descriptors, connections, and read/write/atomic write/flush carried out by
 * the verbs rules underneath.
 *
 * A librpma MR is a verbs MR (mr[], api M_API_RPMA) registered in the PD of
 * the node's librpma peer (rpma_pd, made at the first librpma step that needs
 * it, as rpma_peer_new allocates one). A connection (conn[]) is an RC QP pair
 * in the two peers' PDs plus the internal 8-byte MR the APM flush reads into
 * (src/flush.c). Whatever librpma hands to libibverbs is predicted by
 * translating it into the verbs operation and asking the verbs predictors,
 * so a librpma step fires the same rule IDs as the verbs step that does the
 * same thing; this file adds the library's own rules in front and maps the
 * outcomes (a failed verbs call is RPMA_E_PROVIDER; the success of an
 * unsignaled WR gives no completion, so the call's `ok` stands).
 */
#include "model/internal.h"

#include <stdlib.h>
#include <string.h>

#define USAGE_ALL_ALLOWED 0xffu /* the 8 RPMA_MR_USAGE_* bits (src/mr.c) */
#define F_ON_SUCCESS 2u         /* RPMA_F_COMPLETION_ALWAYS & ~RPMA_F_COMPLETION_ON_ERROR */
#define AUX_LEN 8               /* the APM flush's read-after-write MR (src/flush.c RAW_SIZE) */
#define QP_RIGHTS (M_ACC_REMOTE_WRITE | M_ACC_REMOTE_READ | M_ACC_REMOTE_ATOMIC)
#define A0 M_RPMA_NULL_ARG0
#define A1 M_RPMA_NULL_ARG1
#define A2 M_RPMA_NULL_ARG2

/* Handle h of a table with cnt entries, created at some time. */
#define EVER(arr, cnt, h) ((h) >= 0 && (h) < (cnt) && (arr)[h].ever)

/* RPMA-REG-3: src/peer.c rpma_peer_usage2access (RoCE: READ_DST adds no REMOTE_WRITE). */
static uint32_t usage2access(uint32_t usage)
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

/* Give node n its librpma peer's PD if it has none yet. Returns 0 or -ENOSPC. */
static int ensure_peer(struct model *m, unsigned n)
{
	struct m_node *nd = &m->node[n];

	if (nd->rpma_pd >= 0)
		return 0;
	if (nd->npd >= M_MAX_PD)
		return -ENOSPC;
	nd->pd[nd->npd] = (struct m_pd){ .live = 1, .ever = 1, .api = M_API_RPMA };
	nd->rpma_pd = (int16_t)nd->npd++;
	return 0;
}

/* An empty verbs prediction of vop (nothing resolved yet). */
static void vpred_init(struct m_pred *vp, const struct m_op *vop)
{
	memset(vp, 0, sizeof(*vp));
	vp->op = *vop;
	vp->res = (struct m_resolved){ .lmr = -1, .tmr = -1, .inv_mw = -1, .rmr = -1, .peer_node = -1,
				       .peer_qp = -1 };
}

/*
 * Commit a verbs operation with the effect and resolution of an alternative
 * of ours (a, res; NULL: the plain success of vop). Returns model_apply's.
 */
static int do_verbs(struct model *m, const struct m_op *vop, const struct m_resolved *res,
		    const struct m_alt *a, int *created)
{
	struct m_pred vp;

	vpred_init(&vp, vop);
	if (res)
		vp.res = *res;
	vp.n = 1;
	if (a)
		vp.alt[0] = *a;
	else
		vp.alt[0].effect = M_EFF_DO;
	return model_apply(m, &vp, 0, created);
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
static void map_verbs(struct m_pred *out, const struct m_pred *v, int on_error, const struct m_why *lead,
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
static void alt1(struct m_pred *out, struct m_outcome o, enum m_effect e, enum m_rule r)
{
	struct m_why w = { 0 };

	m_why_add(&w, r);
	m_alt_add(out, o, e, &w, -1);
}

/* ------------------------------------------------------ registration -- */

/* The ibv_reg_mr librpma makes for rpma_mr_reg op (the peer PD must exist). */
static void reg_to_verbs(const struct model *m, const struct m_op *op, struct m_op *vop)
{
	const struct m_node *nd = &m->node[op->node];

	*vop = (struct m_op){ .kind = M_OP_REG_MR, .node = op->node, .obj = -1, .pd = nd->rpma_pd, .mr = -1,
			      .qp = -1, .peer_node = -1, .peer_qp = -1, .len = op->len,
			      .access = usage2access(op->access), .offset = op->offset, .prot = op->prot };
	if (op->mr >= 0) {
		/* Registering another rpma MR's buffer again: its page offset, and
		 * (a limit of the model, which keeps no page protection per MR)
		 * read-write pages. */
		vop->offset = nd->mr[op->mr].addr % M_PAGE;
		vop->prot = M_PROT_RW;
	}
}

static int pred_reg(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct m_pred vp;
	struct model *tmp = NULL;
	int rc;

	if (op->mr >= 0 && (!EVER(nd->mr, nd->nmr, op->mr) || nd->mr[op->mr].api != M_API_RPMA ||
			    op->len > nd->mr[op->mr].len))
		return -EINVAL;
	if ((op->nulls & (A0 | A1 | A2)) || op->len == 0) {
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_REG_1);
		return 0;
	}
	if (op->access == 0 || (op->access & ~USAGE_ALL_ALLOWED)) {
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_REG_2);
		return 0;
	}
	if (nd->rpma_pd < 0) {
		/* Predict on a scratch copy that has the peer (prediction is pure). */
		tmp = malloc(sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		memcpy(tmp, m, sizeof(*tmp));
		if (ensure_peer(tmp, op->node)) {
			free(tmp);
			return -EINVAL;
		}
		m = tmp;
	}
	reg_to_verbs(m, op, &vop);
	rc = model_predict(m, p, &vop, &vp);
	free(tmp);
	if (rc)
		return rc;
	m_why_add(&lead, M_RULE_RPMA_REG_3);
	map_verbs(out, &vp, 0, &lead, M_RULE_RPMA_REG_4);
	return 0;
}

static int apply_reg(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	struct m_node *nd = &m->node[op->node];
	struct m_op vop;
	int rc = ensure_peer(m, op->node);

	if (rc)
		return rc;
	reg_to_verbs(m, op, &vop);
	rc = do_verbs(m, &vop, &pred->res, &pred->alt[i], created);
	if (rc || *created < 0)
		return rc;
	struct m_mr *mr = &nd->mr[*created];

	mr->api = M_API_RPMA;
	mr->usage = op->access;
	if (op->mr >= 0) {
		/* The same buffer: its address, and its bytes as they are now
		 * (later writes through one are not seen through the other). */
		const struct m_mr *src = &nd->mr[op->mr];

		mr->addr = mr->iova = src->addr;
		memcpy(mr->bytes, src->bytes, mr->len);
		memcpy(mr->unknown, src->unknown, mr->len);
	}
	return 0;
}

/* A live-or-dead rpma MR of node n. */
static int rpma_mr_ok(const struct m_node *nd, int h)
{
	return EVER(nd->mr, nd->nmr, h) && nd->mr[h].api == M_API_RPMA;
}

static int pred_dereg(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct m_pred vp;
	int rc;

	if (!rpma_mr_ok(nd, op->obj))
		return -EINVAL;
	if (op->nulls & A0) {
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_DEREG_1);
		return 0;
	}
	if ((op->nulls & A1) || !nd->mr[op->obj].live) {
		/* *mr_ptr is NULL: librpma NULLed it at the earlier dereg. */
		alt1(out, O_OK, M_EFF_NONE, M_RULE_RPMA_DEREG_1);
		return 0;
	}
	vop = (struct m_op){ .kind = M_OP_DEREG_MR, .node = op->node, .obj = op->obj, .pd = -1, .mr = -1,
			     .qp = -1, .peer_node = -1, .peer_qp = -1 };
	rc = model_predict(m, p, &vop, &vp);
	if (rc)
		return rc;
	m_why_add(&lead, M_RULE_RPMA_DEREG_1);
	/* A refused ibv_dereg_mr: RPMA_E_PROVIDER (the code then frees and NULLs
	 * *mr_ptr anyway; no scenario can bind a window to an rpma MR, so the
	 * model keeps the MR as verbs does). */
	for (unsigned j = 0; j < vp.n; j++)
		if (vp.alt[j].effect != M_EFF_DO)
			vp.alt[j].effect = M_EFF_NONE;
	map_verbs(out, &vp, 0, &lead, M_RULE_RPMA_DEREG_1);
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

static void le_put(uint8_t *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		b[i] = (uint8_t)v;
}

static void encode(uint8_t out[M_RPMA_DESC_SIZE], uint64_t addr, uint64_t len, uint32_t rkey, uint8_t usage)
{
	le_put(out, addr, 8);
	le_put(out + 8, len, 8);
	le_put(out + 16, rkey, 4);
	out[20] = usage;
}

int model_rpma_descriptor(const struct model *m, unsigned n, int remote, int h, uint8_t out[M_RPMA_DESC_SIZE])
{
	const struct m_node *nd;

	if (n >= m->nnodes)
		return -EINVAL;
	nd = &m->node[n];
	if (!remote && rpma_mr_ok(nd, h)) {
		/* RPMA-DESC-2: ibv_mr->addr (the MR's own address), length, rkey,
		 * usage. A deregistered MR keeps its last descriptor (a stale one). */
		const struct m_mr *mr = &nd->mr[h];

		encode(out, mr->addr, mr->len, mr->rkey, (uint8_t)mr->usage);
		return 0;
	}
	if (remote && EVER(nd->rremote, nd->nrremote, h)) {
		const struct m_rremote *r = &nd->rremote[h];

		encode(out, r->addr, r->len, r->rkey, r->usage);
		return 0;
	}
	return -EINVAL;
}

/* rpma_mr_get_descriptor / _size: (mr, desc) must be non-NULL, mr registered. */
static int pred_desc(const struct model *m, struct m_pred *out, enum m_rule r)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];

	if (!rpma_mr_ok(nd, op->obj))
		return -EINVAL;
	if ((op->nulls & (A0 | A1)) || !nd->mr[op->obj].live)
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, r);
	else
		alt1(out, O_OK, M_EFF_NONE, r);
	return 0;
}

static int pred_from_desc(const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	struct m_why why = { 0 };

	m_why_add(&why, M_RULE_RPMA_DESC_3);
	if ((op->nulls & (A0 | A1)) || op->size < M_RPMA_DESC_SIZE) {
		m_alt_add(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->desc[20] == 0) {
		/* "does not represent a valid memory region" (the man page). */
		struct m_set s = DECIDE(p, RPMA_DESC_3, PART_RPMA_USAGE0, O_RPMA(M_RPMA_E_NOSUPP));

		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

static int apply_from_desc(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node];

	if (nd->nrremote >= M_MAX_RREMOTE)
		return -ENOSPC;
	nd->rremote[nd->nrremote] = (struct m_rremote){ .live = 1, .ever = 1, .usage = op->desc[20],
						       .addr = le_get(op->desc, 8), .len = le_get(op->desc + 8, 8),
						       .rkey = (uint32_t)le_get(op->desc + 16, 4) };
	*created = nd->nrremote++;
	return 0;
}

/* rpma_mr_remote_get_size / _get_flush_type: (mr, out) non-NULL. */
static int pred_remote_query(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];

	if (!EVER(nd->rremote, nd->nrremote, op->obj))
		return -EINVAL;
	alt1(out, (op->nulls & (A0 | A1)) ? O_RPMA(M_RPMA_E_INVAL) : O_OK, M_EFF_NONE, M_RULE_RPMA_DESC_4);
	return 0;
}

int m_query_rpma(const struct model *m, const struct m_profile *p, const struct m_op *op,
		 struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	(void)p;
	switch (op->kind) {
	case M_OP_RPMA_MR_GET_DESC_SIZE:
		if (!rpma_mr_ok(nd, op->obj))
			return -EINVAL;
		m_qres_add(out, "size", M_Q_EXACT, M_RPMA_DESC_SIZE, M_RULE_RPMA_DESC_1);
		return 0;
	case M_OP_RPMA_REMOTE_GET_SIZE:
	case M_OP_RPMA_REMOTE_GET_FLUSH_TYPE:
		if (!EVER(nd->rremote, nd->nrremote, op->obj))
			return -EINVAL;
		if (op->kind == M_OP_RPMA_REMOTE_GET_SIZE)
			m_qres_add(out, "size", M_Q_EXACT, nd->rremote[op->obj].len, M_RULE_RPMA_DESC_4);
		else
			m_qres_add(out, "flush_type", M_Q_EXACT,
				   nd->rremote[op->obj].usage &
					   (M_RPMA_USAGE_FLUSH_VISIBILITY | M_RPMA_USAGE_FLUSH_PERSISTENT),
				   M_RULE_RPMA_DESC_4);
		return 0;
	default:
		return -EINVAL;
	}
}

/* -------------------------------------------------------- connections -- */

static int pred_connect(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	struct m_why why = { 0 };

	if (op->peer_node < 0 || op->peer_node >= m->nnodes || op->peer_node == op->node)
		return -EINVAL;
	m_why_add(&why, M_RULE_RPMA_CONN_1);
	m_why_add(&why, M_RULE_QP_CONN_1);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

/* A QP of node n in its peer's PD with all remote rights; its handle in *qp. */
static int make_qp(struct model *m, unsigned n, int *qp)
{
	struct m_op vop = { .kind = M_OP_CREATE_QP, .node = (uint8_t)n, .obj = -1, .pd = m->node[n].rpma_pd,
			    .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1, .access = QP_RIGHTS };

	return do_verbs(m, &vop, NULL, NULL, qp);
}

static int apply_connect(struct model *m, const struct m_op *op, int *created)
{
	unsigned cn = op->node, sn = (unsigned)op->peer_node;
	struct m_node *c = &m->node[cn], *s = &m->node[sn];
	int cq, sq, aux, rc;

	if (c->nconn >= M_MAX_CONN || s->nconn >= M_MAX_CONN || c->nqp >= M_MAX_QP || s->nqp >= M_MAX_QP ||
	    c->nmr >= M_MAX_MR)
		return -ENOSPC;
	if ((rc = ensure_peer(m, cn)) || (rc = ensure_peer(m, sn)) || (rc = make_qp(m, cn, &cq)) ||
	    (rc = make_qp(m, sn, &sq)))
		return rc;
	struct m_op con = { .kind = M_OP_CONNECT, .node = (uint8_t)cn, .obj = (int16_t)cq, .pd = -1, .mr = -1,
			    .qp = -1, .peer_node = (int16_t)sn, .peer_qp = (int16_t)sq };
	struct m_op reg = { .kind = M_OP_REG_MR, .node = (uint8_t)cn, .obj = -1, .pd = c->rpma_pd, .mr = -1,
			    .qp = -1, .peer_node = -1, .peer_qp = -1, .len = AUX_LEN,
			    .access = usage2access(M_RPMA_READ_DST) };
	int dummy;

	if ((rc = do_verbs(m, &con, NULL, NULL, &dummy)) || (rc = do_verbs(m, &reg, NULL, NULL, &aux)))
		return rc;
	c->mr[aux].api = M_API_RPMA;
	c->mr[aux].usage = M_RPMA_READ_DST;
	c->conn[c->nconn] = (struct m_conn){ .live = 1, .ever = 1, .api = M_API_RPMA, .qp = (int16_t)cq,
					     .peer_node = (int16_t)sn, .peer_qp = (int16_t)sq,
					     .peer_conn = (int16_t)s->nconn, .pmem = (uint8_t)(op->type == 1),
					     .aux_mr = (int16_t)aux };
	s->conn[s->nconn] = (struct m_conn){ .live = 1, .ever = 1, .api = M_API_RPMA, .qp = (int16_t)sq,
					     .peer_node = (int16_t)cn, .peer_qp = (int16_t)cq,
					     .peer_conn = (int16_t)c->nconn, .aux_mr = -1 };
	s->nconn++;
	*created = c->nconn++;
	return 0;
}

/* A connection handle of node n made by librpma. */
static int conn_ok(const struct m_node *nd, int h)
{
	return EVER(nd->conn, nd->nconn, h) && nd->conn[h].api == M_API_RPMA && nd->conn[h].aux_mr >= 0;
}

static int pred_disconnect(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];

	if (!conn_ok(nd, op->obj))
		return -EINVAL;
	if ((op->nulls & A0) || !nd->conn[op->obj].live)
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_CONN_1);
	else
		alt1(out, O_OK, M_EFF_DO, M_RULE_RPMA_CONN_1);
	return 0;
}

/* Both halves go: the QPs (rpma_conn_delete) and the flush MR. */
static int apply_disconnect(struct model *m, const struct m_op *op)
{
	struct m_conn *c = &m->node[op->node].conn[op->obj];
	struct m_conn *s = &m->node[c->peer_node].conn[c->peer_conn];
	struct m_op dq = { .kind = M_OP_DESTROY_QP, .node = op->node, .obj = c->qp, .pd = -1, .mr = -1, .qp = -1,
			   .peer_node = -1, .peer_qp = -1 };
	struct m_op dm = dq;
	int dummy, rc;

	dm.kind = M_OP_DEREG_MR;
	dm.obj = c->aux_mr;
	if ((rc = do_verbs(m, &dq, NULL, NULL, &dummy)) || (rc = do_verbs(m, &dm, NULL, NULL, &dummy)))
		return rc;
	dq.node = (uint8_t)c->peer_node;
	dq.obj = c->peer_qp;
	if ((rc = do_verbs(m, &dq, NULL, NULL, &dummy)))
		return rc;
	c->live = s->live = 0;
	return 0;
}

/* ---------------------------------------------------------------- I/O -- */

/* What an I/O step names, with librpma's NULLs resolved. */
struct io {
	const struct m_conn *c;
	const struct m_mr *l;      /* the local MR, NULL when passed as NULL */
	const struct m_rremote *r; /* the remote MR, NULL when passed as NULL */
	int no_conn;
};

/*
 * Resolve the handles of an I/O op (-EINVAL if malformed). nulls bits: conn,
 * then the remote/local pointer bits lbit and rbit of this call. A connection
 * after rpma_conn_disconnect and an MR after rpma_mr_dereg are NULL handles
 * (librpma NULLs them).
 */
static int io_resolve(const struct m_node *nd, const struct m_op *op, unsigned lbit, unsigned rbit,
		      struct io *io)
{
	if (!conn_ok(nd, op->obj) || (op->mr >= 0 && !rpma_mr_ok(nd, op->mr)) ||
	    (op->remote >= 0 && !EVER(nd->rremote, nd->nrremote, op->remote)))
		return -EINVAL;
	io->c = &nd->conn[op->obj];
	io->no_conn = (op->nulls & A0) || !io->c->live;
	io->l = op->mr >= 0 && !(op->nulls & lbit) && nd->mr[op->mr].live ? &nd->mr[op->mr] : NULL;
	io->r = op->remote >= 0 && !(op->nulls & rbit) ? &nd->rremote[op->remote] : NULL;
	return 0;
}

/*
 * The work request librpma posts: kind k on the connection's QP, from/to the
 * local MR (or, with no MR, a zero-length SGE on the internal MR, which
 * every check accepts as librpma's SGE-less 0-byte form is), to/from the
 * remote MR at roff, len bytes.
 */
static void io_to_verbs(const struct model *m, const struct m_op *op, const struct io *io, enum m_op_kind k,
			uint64_t len, struct m_op *vop)
{
	const struct m_node *nd = &m->node[op->node];
	const struct m_mr *aux = &nd->mr[io->c->aux_mr];

	*vop = (struct m_op){ .kind = (uint8_t)k, .node = op->node, .obj = io->c->qp, .pd = -1, .mr = -1,
			      .qp = -1, .peer_node = -1, .peer_qp = -1, .len = io->l ? len : 0 };
	vop->lkey = io->l ? io->l->lkey : aux->lkey;
	vop->laddr = io->l ? io->l->addr + op->offset : aux->addr;
	if (io->r) {
		vop->rkey = io->r->rkey;
		vop->raddr = io->r->addr + op->roff;
	}
}

/* Predict vop and map it with lead's rules (ON_ERROR: flags lack ON_SUCCESS). */
static int io_post(const struct model *m, const struct m_profile *p, struct m_pred *out, const struct m_op *vop,
		   const struct m_why *lead, enum m_rule on_errno)
{
	struct m_pred vp;
	int rc = model_predict(m, p, vop, &vp);

	if (rc)
		return rc;
	map_verbs(out, &vp, !(out->op.flags & F_ON_SUCCESS), lead, on_errno);
	return 0;
}

static int pred_io(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	int read = op->kind == M_OP_RPMA_READ;
	struct m_why lead = { 0 };
	struct m_op vop;
	struct io io;

	/* rpma_read(conn, dst = local, src = remote); rpma_write(conn, dst = remote, src = local). */
	if (io_resolve(&m->node[op->node], op, read ? A1 : A2, read ? A2 : A1, &io))
		return -EINVAL;
	if (io.no_conn || op->flags == 0 ||
	    ((!io.l || !io.r) && (io.l || io.r || op->offset || op->roff || op->len))) {
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_OP_1);
		return 0;
	}
	/* sge.length = (uint32_t)len: no usage or bounds check here (RPMA-OP-2). */
	io_to_verbs(m, op, &io, read ? M_OP_READ : M_OP_WRITE, (uint32_t)op->len, &vop);
	m_why_add(&lead, M_RULE_RPMA_OP_2);
	m_why_add(&lead, M_RULE_RPMA_OP_3);
	return io_post(m, p, out, &vop, &lead, M_RULE_RPMA_OP_1);
}

static int pred_atomic_write(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct io io;
	int rc;

	/* rpma_atomic_write(conn, dst, dst_offset, src[8], ...): src is the value. */
	if (op->mr >= 0 || io_resolve(nd, op, 0, A1, &io))
		return -EINVAL;
	if (io.no_conn || !io.r || (op->nulls & A2) || op->flags == 0 || op->roff % 8) {
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_AW_1);
		return 0;
	}
	/* Without native atomic write: an 8-byte INLINE WRITE (no lkey: the
	 * model's SGE is the internal MR, which always passes). */
	io.l = &nd->mr[io.c->aux_mr];
	io_to_verbs(m, op, &io, M_OP_WRITE, 8, &vop);
	vop.laddr = io.l->addr;
	m_why_add(&lead, M_RULE_RPMA_AW_1);
	m_why_add(&lead, M_RULE_RPMA_OP_3);
	rc = io_post(m, p, out, &vop, &lead, M_RULE_RPMA_AW_1);
	if (rc || !(p->caps & M_CAP_ATOMIC_WRITE) || vop.raddr % 8 == 0)
		return rc;
	/* A stack with native atomic write (librpma uses it when built with
	 * it): the responder refuses an unaligned target that the WRITE would
	 * have reached (rxe_mr_do_atomic_write). */
	for (unsigned i = 0; i < out->n; i++)
		if ((out->alt[i].out.kind == M_OUT_WC && out->alt[i].out.code == M_WC_SUCCESS) ||
		    out->alt[i].out.kind == M_OUT_OK) {
			struct m_why w = lead;

			m_why_add(&w, M_RULE_RA_ERR_1);
			m_why_add(&w, M_RULE_RA_ERR_2);
			m_why_add(&w, M_RULE_RA_ERR_3);
			m_alt_add(out, O_WC(M_WC_REM_INV_REQ_ERR), M_EFF_BOTH_ERR, &w, -1);
			break;
		}
	return 0;
}

static int pred_flush(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct io io;

	if (op->mr >= 0 || io_resolve(nd, op, 0, A1, &io))
		return -EINVAL;
	if (io.no_conn || !io.r || op->flags == 0) {
		alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_FLUSH_1);
		return 0;
	}
	if ((op->type == M_RPMA_FLUSH_PERSISTENT &&
	     (!io.c->pmem || !(io.r->usage & M_RPMA_USAGE_FLUSH_PERSISTENT))) ||
	    (op->type == M_RPMA_FLUSH_VISIBILITY && !(io.r->usage & M_RPMA_USAGE_FLUSH_VISIBILITY))) {
		alt1(out, O_RPMA(M_RPMA_E_NOSUPP), M_EFF_NONE, M_RULE_RPMA_FLUSH_1);
		return 0;
	}
	m_why_add(&lead, M_RULE_RPMA_FLUSH_2);
	m_why_add(&lead, M_RULE_RPMA_OP_3);
	if (op->type != M_RPMA_FLUSH_PERSISTENT && op->type != M_RPMA_FLUSH_VISIBILITY) {
		/* An unknown type: RPMA_E_INVAL by the man page. A profile may let
		 * the flush go on: any outcome in its set that is not an RPMA_E_*
		 * (ok, a completion status) means the APM READ is posted. */
		struct m_set s = DECIDE(p, RPMA_FLUSH_1, PART_RPMA_FLUSH_TYPE, O_RPMA(M_RPMA_E_INVAL));
		int go_on = 0;

		m_why_add(&lead, M_RULE_RPMA_FLUSH_1);
		for (unsigned i = 0; i < s.n; i++) {
			if (s.o[i].kind == M_OUT_RPMA)
				alt1(out, s.o[i], M_EFF_NONE, M_RULE_RPMA_FLUSH_1);
			else
				go_on = 1;
		}
		if (!go_on)
			return 0;
	}
	/* RPMA-FLUSH-2: READ 8 bytes at dst_offset into the internal MR; len ignored. */
	io.l = &nd->mr[io.c->aux_mr];
	io_to_verbs(m, op, &io, M_OP_READ, AUX_LEN, &vop);
	vop.laddr = io.l->addr;
	return io_post(m, p, out, &vop, &lead, M_RULE_RPMA_FLUSH_1);
}

/* The verbs WR of an I/O op (predicted to reach verbs) for apply. */
static int io_apply(struct model *m, const struct m_pred *pred, size_t i)
{
	const struct m_op *op = &pred->op;
	struct m_node *nd = &m->node[op->node];
	int read = op->kind == M_OP_RPMA_READ;
	struct m_op vop;
	struct io io;
	int dummy;

	switch (op->kind) {
	case M_OP_RPMA_READ:
	case M_OP_RPMA_WRITE:
		if (io_resolve(nd, op, read ? A1 : A2, read ? A2 : A1, &io))
			return -EINVAL;
		io_to_verbs(m, op, &io, read ? M_OP_READ : M_OP_WRITE, (uint32_t)op->len, &vop);
		break;
	default: /* atomic write, flush: through the internal MR */
		if (io_resolve(nd, op, 0, A1, &io))
			return -EINVAL;
		io.l = &nd->mr[io.c->aux_mr];
		io_to_verbs(m, op, &io, op->kind == M_OP_RPMA_FLUSH ? M_OP_READ : M_OP_WRITE, 8, &vop);
		vop.laddr = io.l->addr;
		if (op->kind == M_OP_RPMA_ATOMIC_WRITE) {
			struct m_mr *aux = &nd->mr[io.c->aux_mr];

			le_put(aux->bytes, op->swap, 8);
			memset(aux->unknown, 0, 8);
		}
		break;
	}
	return do_verbs(m, &vop, &pred->res, &pred->alt[i], &dummy);
}

/* --------------------------------------------------------- dispatch -- */

int m_pred_rpma(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	switch (out->op.kind) {
	case M_OP_RPMA_MR_REG:
		return pred_reg(m, p, out);
	case M_OP_RPMA_MR_DEREG:
		return pred_dereg(m, p, out);
	case M_OP_RPMA_MR_GET_DESC:
		return pred_desc(m, out, M_RULE_RPMA_DESC_2);
	case M_OP_RPMA_MR_GET_DESC_SIZE:
		return pred_desc(m, out, M_RULE_RPMA_DESC_1);
	case M_OP_RPMA_REMOTE_FROM_DESC:
		return pred_from_desc(p, out);
	case M_OP_RPMA_REMOTE_GET_SIZE:
	case M_OP_RPMA_REMOTE_GET_FLUSH_TYPE:
		return pred_remote_query(m, out);
	case M_OP_RPMA_CONNECT:
		return pred_connect(m, out);
	case M_OP_RPMA_DISCONNECT:
		return pred_disconnect(m, out);
	case M_OP_RPMA_READ:
	case M_OP_RPMA_WRITE:
		return pred_io(m, p, out);
	case M_OP_RPMA_ATOMIC_WRITE:
		return pred_atomic_write(m, p, out);
	case M_OP_RPMA_FLUSH:
		return pred_flush(m, p, out);
	default:
		return -EINVAL;
	}
}

int m_apply_rpma(struct model *m, const struct m_pred *pred, size_t i, int *created)
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
		return apply_reg(m, pred, i, created);
	case M_OP_RPMA_MR_DEREG: {
		struct m_op vop = { .kind = M_OP_DEREG_MR, .node = pred->op.node, .obj = pred->op.obj, .pd = -1,
				    .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1 };

		return do_verbs(m, &vop, &pred->res, a, created);
	}
	case M_OP_RPMA_REMOTE_FROM_DESC:
		return apply_from_desc(m, &pred->op, created);
	case M_OP_RPMA_CONNECT:
		return apply_connect(m, &pred->op, created);
	case M_OP_RPMA_DISCONNECT:
		return apply_disconnect(m, &pred->op);
	case M_OP_RPMA_READ:
	case M_OP_RPMA_WRITE:
	case M_OP_RPMA_ATOMIC_WRITE:
	case M_OP_RPMA_FLUSH:
		return io_apply(m, pred, i);
	default:
		return 0;
	}
}

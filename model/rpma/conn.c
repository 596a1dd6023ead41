/* conn.c — librpma connections and I/O: read, write, atomic write, flush (catalog area B; rpma/internal.h). */
#include "model/rpma/internal.h"

#include <string.h>

/* -------------------------------------------------------- connections -- */

int m_rpma_pred_connect(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	struct m_why why = { 0 };

	if (op->rpma.peer_node < 0 || op->rpma.peer_node >= m->nnodes || op->rpma.peer_node == op->node)
		return -EINVAL;
	m_why_add(&why, M_RULE_RPMA_CONN_1);
	m_why_add(&why, M_RULE_QP_CONN_1);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

/* A QP of node n in its peer's PD with all remote rights; its handle in *qp. */
static int make_qp(struct model *m, unsigned n, int *qp)
{
	struct m_op vop = { .kind = M_OP_CREATE_QP, .node = (uint8_t)n, .obj = -1,
			    .verbs = { .pd = m->node[n].rpma.pd, .mr = -1, .qp = -1, .peer_node = -1,
				       .peer_qp = -1, .access = QP_RIGHTS } };

	return m_verbs_step_apply(m, &vop, NULL, NULL, qp);
}

int m_rpma_apply_connect(struct model *m, const struct m_op *op, int *created)
{
	unsigned cn = op->node, sn = (unsigned)op->rpma.peer_node;
	struct m_node *c = &m->node[cn], *s = &m->node[sn];
	int cq, sq, aux, rc;

	if (c->nconn >= M_MAX_CONN || s->nconn >= M_MAX_CONN || c->nqp >= M_MAX_QP || s->nqp >= M_MAX_QP ||
	    c->nmr >= M_MAX_MR)
		return -ENOSPC;
	if ((rc = m_rpma_ensure_peer(m, cn)) || (rc = m_rpma_ensure_peer(m, sn)) || (rc = make_qp(m, cn, &cq)) ||
	    (rc = make_qp(m, sn, &sq)))
		return rc;
	struct m_op con = { .kind = M_OP_CONNECT, .node = (uint8_t)cn, .obj = (int16_t)cq,
			    .verbs = { .pd = -1, .mr = -1, .qp = -1, .peer_node = (int16_t)sn,
				       .peer_qp = (int16_t)sq, .max_rd_atomic = M_RD_ATOMIC_DEFAULT,
				       .max_dest_rd_atomic = M_RD_ATOMIC_DEFAULT } };
	/* (librpma asks rdma_cm for the device's READ depths, at least one each: RA-RES-1, RA-RES-2) */
	struct m_op reg = { .kind = M_OP_REG_MR, .node = (uint8_t)cn, .obj = -1,
			    .verbs = { .pd = c->rpma.pd, .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1,
				       .len = AUX_LEN, .access = m_rpma_usage2access(M_RPMA_READ_DST) } };
	int dummy;

	if ((rc = m_verbs_step_apply(m, &con, NULL, NULL, &dummy)) || (rc = m_verbs_step_apply(m, &reg, NULL, NULL, &aux)))
		return rc;
	c->mr[aux].api = M_FAM_RPMA;
	c->mr[aux].usage = M_RPMA_READ_DST;
	c->conn[c->nconn] = (struct m_conn){ .live = 1, .ever = 1, .api = M_FAM_RPMA, .qp = (int16_t)cq,
					     .peer_node = (int16_t)sn, .peer_qp = (int16_t)sq,
					     .peer_conn = (int16_t)s->nconn, .pmem = op->rpma.pmem,
					     .aux_mr = (int16_t)aux };
	s->conn[s->nconn] = (struct m_conn){ .live = 1, .ever = 1, .api = M_FAM_RPMA, .qp = (int16_t)sq,
					     .peer_node = (int16_t)cn, .peer_qp = (int16_t)cq,
					     .peer_conn = (int16_t)c->nconn, .aux_mr = -1 };
	s->nconn++;
	*created = c->nconn++;
	return 0;
}

/* A connection handle of node n made by librpma. */
static int conn_ok(const struct m_node *nd, int h)
{
	return EVER(nd->conn, nd->nconn, h) && nd->conn[h].api == M_FAM_RPMA && nd->conn[h].aux_mr >= 0;
}

int m_rpma_pred_disconnect(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];

	if (!conn_ok(nd, op->obj))
		return -EINVAL;
	if ((op->rpma.nulls & A0) || !nd->conn[op->obj].live)
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_CONN_1);
	else
		m_rpma_alt1(out, O_OK, M_EFF_DO, M_RULE_RPMA_CONN_1);
	return 0;
}

/* Both halves go: the QPs (rpma_conn_delete) and the flush MR. */
int m_rpma_apply_disconnect(struct model *m, const struct m_op *op)
{
	struct m_conn *c = &m->node[op->node].conn[op->obj];
	struct m_conn *s = &m->node[c->peer_node].conn[c->peer_conn];
	struct m_op dq = { .kind = M_OP_DESTROY_QP, .node = op->node, .obj = c->qp,
			   .verbs = { .pd = -1, .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1 } };
	struct m_op dm = dq;
	int dummy, rc;

	dm.kind = M_OP_DEREG_MR;
	dm.obj = c->aux_mr;
	if ((rc = m_verbs_step_apply(m, &dq, NULL, NULL, &dummy)) || (rc = m_verbs_step_apply(m, &dm, NULL, NULL, &dummy)))
		return rc;
	dq.node = (uint8_t)c->peer_node;
	dq.obj = c->peer_qp;
	if ((rc = m_verbs_step_apply(m, &dq, NULL, NULL, &dummy)))
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
	if (!conn_ok(nd, op->obj) || (op->rpma.mr >= 0 && !m_rpma_mr_ok(nd, op->rpma.mr)) ||
	    (op->rpma.remote >= 0 && !EVER(nd->rpma.rremote, nd->rpma.nrremote, op->rpma.remote)))
		return -EINVAL;
	io->c = &nd->conn[op->obj];
	io->no_conn = (op->rpma.nulls & A0) || !io->c->live;
	io->l = op->rpma.mr >= 0 && !(op->rpma.nulls & lbit) && nd->mr[op->rpma.mr].live ? &nd->mr[op->rpma.mr] : NULL;
	io->r = op->rpma.remote >= 0 && !(op->rpma.nulls & rbit) ? &nd->rpma.rremote[op->rpma.remote] : NULL;
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

	*vop = (struct m_op){ .kind = (uint8_t)k, .node = op->node, .obj = io->c->qp,
			      .verbs = { .pd = -1, .mr = -1, .qp = -1, .peer_node = -1, .peer_qp = -1,
					 .len = io->l ? len : 0 } };
	vop->verbs.lkey = io->l ? io->l->lkey : aux->lkey;
	vop->verbs.laddr = io->l ? io->l->addr + op->rpma.offset : aux->addr;
	if (io->r) {
		vop->verbs.rkey = io->r->rkey;
		vop->verbs.raddr = io->r->addr + op->rpma.roff;
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
	m_rpma_map_verbs(out, &vp, !(out->op.rpma.flags & F_ON_SUCCESS), lead, on_errno);
	return 0;
}

int m_rpma_pred_io(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	int read = op->kind == M_OP_RPMA_READ;
	struct m_why lead = { 0 };
	struct m_op vop;
	struct io io;

	/* rpma_read(conn, dst = local, src = remote); rpma_write(conn, dst = remote, src = local). */
	if (io_resolve(&m->node[op->node], op, read ? A1 : A2, read ? A2 : A1, &io))
		return -EINVAL;
	if (io.no_conn || op->rpma.flags == 0 ||
	    ((!io.l || !io.r) && (io.l || io.r || op->rpma.offset || op->rpma.roff || op->rpma.len))) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_OP_1);
		return 0;
	}
	/* sge.length = (uint32_t)len: no usage or bounds check here (RPMA-OP-2). */
	io_to_verbs(m, op, &io, read ? M_OP_READ : M_OP_WRITE, (uint32_t)op->rpma.len, &vop);
	m_why_add(&lead, M_RULE_RPMA_OP_2);
	m_why_add(&lead, M_RULE_RPMA_OP_3);
	return io_post(m, p, out, &vop, &lead, M_RULE_RPMA_OP_1);
}

int m_rpma_pred_atomic_write(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct io io;
	int rc;

	/* rpma_atomic_write(conn, dst, dst_offset, src[8], ...): src is the value. */
	if (op->rpma.mr >= 0 || io_resolve(nd, op, 0, A1, &io))
		return -EINVAL;
	if (io.no_conn || !io.r || (op->rpma.nulls & A2) || op->rpma.flags == 0 || op->rpma.roff % 8) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_AW_1);
		return 0;
	}
	/* Without native atomic write: an 8-byte INLINE WRITE (no lkey: the
	 * model's SGE is the internal MR, which always passes). */
	io.l = &nd->mr[io.c->aux_mr];
	io_to_verbs(m, op, &io, M_OP_WRITE, 8, &vop);
	vop.verbs.laddr = io.l->addr;
	m_why_add(&lead, M_RULE_RPMA_AW_1);
	m_why_add(&lead, M_RULE_RPMA_OP_3);
	rc = io_post(m, p, out, &vop, &lead, M_RULE_RPMA_AW_1);
	if (rc || !(p->caps & M_CAP_ATOMIC_WRITE) || vop.verbs.raddr % 8 == 0)
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

int m_rpma_pred_flush(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why lead = { 0 };
	struct m_op vop;
	struct io io;

	if (op->rpma.mr >= 0 || io_resolve(nd, op, 0, A1, &io))
		return -EINVAL;
	if (io.no_conn || !io.r || op->rpma.flags == 0) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_INVAL), M_EFF_NONE, M_RULE_RPMA_FLUSH_1);
		return 0;
	}
	if ((op->rpma.flush_type == M_RPMA_FLUSH_PERSISTENT &&
	     (!io.c->pmem || !(io.r->usage & M_RPMA_USAGE_FLUSH_PERSISTENT))) ||
	    (op->rpma.flush_type == M_RPMA_FLUSH_VISIBILITY && !(io.r->usage & M_RPMA_USAGE_FLUSH_VISIBILITY))) {
		m_rpma_alt1(out, O_RPMA(M_RPMA_E_NOSUPP), M_EFF_NONE, M_RULE_RPMA_FLUSH_1);
		return 0;
	}
	m_why_add(&lead, M_RULE_RPMA_FLUSH_2);
	m_why_add(&lead, M_RULE_RPMA_OP_3);
	if (op->rpma.flush_type != M_RPMA_FLUSH_PERSISTENT && op->rpma.flush_type != M_RPMA_FLUSH_VISIBILITY) {
		/* An unknown type: RPMA_E_INVAL by the man page. A profile may let
		 * the flush go on: any outcome in its set that is not an RPMA_E_*
		 * (ok, a completion status) means the APM READ is posted. */
		struct m_set s = DECIDE(p, RPMA_FLUSH_1, PART_RPMA_FLUSH_TYPE, O_RPMA(M_RPMA_E_INVAL));
		int go_on = 0;

		m_why_add(&lead, M_RULE_RPMA_FLUSH_1);
		for (unsigned i = 0; i < s.n; i++) {
			if (s.o[i].kind == M_OUT_RPMA)
				m_rpma_alt1(out, s.o[i], M_EFF_NONE, M_RULE_RPMA_FLUSH_1);
			else
				go_on = 1;
		}
		if (!go_on)
			return 0;
	}
	/* RPMA-FLUSH-2: READ 8 bytes at dst_offset into the internal MR; len ignored. */
	io.l = &nd->mr[io.c->aux_mr];
	io_to_verbs(m, op, &io, M_OP_READ, AUX_LEN, &vop);
	vop.verbs.laddr = io.l->addr;
	return io_post(m, p, out, &vop, &lead, M_RULE_RPMA_FLUSH_1);
}

/* The verbs WR of an I/O op (predicted to reach verbs) for apply. */
int m_rpma_io_apply(struct model *m, const struct m_pred *pred, size_t i)
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
		io_to_verbs(m, op, &io, read ? M_OP_READ : M_OP_WRITE, (uint32_t)op->rpma.len, &vop);
		break;
	default: /* atomic write, flush: through the internal MR */
		if (io_resolve(nd, op, 0, A1, &io))
			return -EINVAL;
		io.l = &nd->mr[io.c->aux_mr];
		io_to_verbs(m, op, &io, op->kind == M_OP_RPMA_FLUSH ? M_OP_READ : M_OP_WRITE, 8, &vop);
		vop.verbs.laddr = io.l->addr;
		if (op->kind == M_OP_RPMA_ATOMIC_WRITE) {
			struct m_mr *aux = &nd->mr[io.c->aux_mr];

			uint8_t v[8];

			m_rpma_le_put(v, op->rpma.value, 8);
			m_mr_put(aux, 0, v, 8, 0);
		}
		break;
	}
	return m_verbs_step_apply(m, &vop, &pred->res, &pred->alt[i], &dummy);
}


/*
 * dat.c — the uDAPL personality (catalog area C): the IA, privileges to
 * access (DAT-LMR-2), DAT_RETURN codes, PZ lifetime, LMR contexts, RMRs,
 * endpoints, and DTOs carried out by the verbs rules underneath.
 *
 * A PZ is a verbs PD (pd[]), an LMR a verbs MR (mr[], api M_API_DAT, usage
 * = the privileges asked for), an RMR a type-1 memory window (mw[]), an EP
 * a connection (conn[]) over an RC QP pair in qp[]. Every uDAPL step that
 * OFA carries out with verbs is predicted by translating it into that verbs
 * operation and asking m_pred_obj/m_pred_post (so the same rule IDs decide
 * underneath); the DAT layer then maps the verbs outcome (DAT-LMR-3/4,
 * DAT-DTO-1) and adds its own decisions. apply rebuilds the translation
 * (the state has not changed since predict) and commits the verbs
 * alternative with model_apply, then the DAT state.
 */
#include "model/internal.h"

#include <stdlib.h>
#include <string.h>

#define DAT(e) O_DAT(M_DAT_##e)
#define DTO(s) O_DTO(M_DTO_##s)
#define VALID(arr, cnt, h) ((h) >= 0 && (h) < (cnt) && (arr)[h].ever)
#define DAT_REMOTE_PRIV (M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_REMOTE_WRITE | M_DAT_PRIV_REMOTE_ATOMIC)

/* DAT-LMR-2: dapls_convert_privileges. LOCAL_READ is always on; other bits are dropped. */
static uint32_t priv_access(uint32_t priv)
{
	uint32_t a = 0;

	if (priv & M_DAT_PRIV_LOCAL_WRITE)
		a |= M_ACC_LOCAL_WRITE;
	if (priv & M_DAT_PRIV_REMOTE_WRITE)
		a |= M_ACC_REMOTE_WRITE;
	if (priv & M_DAT_PRIV_REMOTE_READ)
		a |= M_ACC_REMOTE_READ;
	if (priv & M_DAT_PRIV_REMOTE_ATOMIC)
		a |= M_ACC_REMOTE_ATOMIC;
	return a;
}

/*
 * The verbs access an LMR is registered with: exactly OFA's mapping. (An LMR
 * takes RMR binds by the spec; a provider implementing RMRs would register
 * for them with MW_BIND, see pred_rmr_bind. OFA implements none and asks for
 * none, which also lets read-only pages register: MW_BIND counts as writable.)
 */
static uint32_t lmr_access(uint32_t priv)
{
	return priv_access(priv);
}

/* DAT-DTO-1: the ib_status_map of the OFA providers. */
static int32_t dto_status(int32_t wc)
{
	switch ((enum m_wc_status)wc) {
	case M_WC_SUCCESS: return M_DTO_SUCCESS;
	case M_WC_LOC_LEN_ERR: return M_DTO_ERR_LOCAL_LENGTH;
	case M_WC_LOC_QP_OP_ERR: return M_DTO_ERR_LOCAL_EP;
	case M_WC_LOC_PROT_ERR: case M_WC_LOC_ACCESS_ERR: case M_WC_LOC_RDD_VIOL_ERR:
		return M_DTO_ERR_LOCAL_PROTECTION;
	case M_WC_WR_FLUSH_ERR: return M_DTO_ERR_FLUSHED;
	case M_WC_MW_BIND_ERR: return M_DTO_RMR_OPERATION_FAILED;
	case M_WC_BAD_RESP_ERR: return M_DTO_ERR_BAD_RESPONSE;
	case M_WC_REM_ACCESS_ERR: return M_DTO_ERR_REMOTE_ACCESS;
	case M_WC_REM_INV_REQ_ERR: case M_WC_REM_OP_ERR: case M_WC_REM_INV_RD_REQ_ERR: case M_WC_REM_ABORT_ERR:
		return M_DTO_ERR_REMOTE_RESPONDER;
	case M_WC_RNR_RETRY_EXC_ERR: case M_WC_RESP_TIMEOUT_ERR: return M_DTO_ERR_RECEIVER_NOT_READY;
	default: return M_DTO_ERR_TRANSPORT; /* LOC_EEC_OP, RETRY_EXC, INV_EEC*, FATAL, GENERAL */
	}
}

/* dapl_convert_errno (openib_common): a refused verbs call's errno as a DAT_RETURN. */
static int32_t dto_errno(int32_t e)
{
	switch (e) {
	case EOVERFLOW: return M_DAT_LENGTH_ERROR;
	case EACCES: return M_DAT_PRIVILEGES_VIOLATION;
	case EPERM: return M_DAT_PROTECTION_VIOLATION;
	case EINVAL: return M_DAT_INVALID_HANDLE;
	case ETIMEDOUT: return M_DAT_TIMEOUT_EXPIRED;
	case ENOMEM: return M_DAT_INSUFFICIENT_RESOURCES;
	case EAGAIN: return M_DAT_QUEUE_EMPTY;
	case EINTR: return M_DAT_INTERRUPTED_CALL;
	default: return M_DAT_INTERNAL_ERROR;
	}
}

/* ------------------------------------------------- verbs underneath -- */

/* Predict verbs op vop on a scratch prediction (as model_predict would). */
static int vpredict(const struct model *m, const struct m_profile *p, const struct m_op *vop, struct m_pred *vp)
{
	memset(vp, 0, sizeof(*vp));
	vp->op = *vop;
	vp->res = (struct m_resolved){ .lmr = -1, .tmr = -1, .inv_mw = -1, .rmr = -1, .peer_node = -1,
				       .peer_qp = -1 };
	switch (vop->kind) {
	case M_OP_WRITE: case M_OP_READ: case M_OP_BIND_MW:
		return m_pred_post(m, p, vp);
	default:
		return m_pred_obj(m, p, vp);
	}
}

/* Commit verbs op vop with the effects of alternative a (res: what predict resolved). */
static int vapply(struct model *m, const struct m_op *vop, const struct m_alt *a, const struct m_resolved *res,
		  int *created)
{
	struct m_pred vp;

	memset(&vp, 0, sizeof(vp));
	vp.op = *vop;
	vp.res = *res;
	vp.n = 1;
	vp.alt[0] = *a;
	return model_apply(m, &vp, 0, created);
}

/* Commit verbs op vop as a plain success. */
static int vapply_ok(struct model *m, const struct m_op *vop, int *created)
{
	struct m_alt a = { .out = O_OK, .effect = M_EFF_DO, .peer_recv = -1 };
	struct m_resolved res = { .lmr = -1, .tmr = -1, .inv_mw = -1, .rmr = -1, .peer_node = -1, .peer_qp = -1 };

	return vapply(m, vop, &a, &res, created);
}

/* The rules of verbs alternative a, then the DAT ones in why. */
static struct m_why why_of(const struct m_alt *a, const struct m_why *dat)
{
	struct m_why w = *dat;

	for (unsigned i = 0; i < a->nrules; i++)
		m_why_add(&w, (enum m_rule)a->rules[i]);
	return w;
}

/* Does verbs alternative a name rule r? */
static int alt_has_rule(const struct m_alt *a, enum m_rule r)
{
	for (unsigned i = 0; i < a->nrules; i++)
		if (a->rules[i] == r)
			return 1;
	return 0;
}

/* Add one alternative per outcome of set, all with effect; rules why. */
static void add_set(struct m_pred *out, const struct m_set *s, enum m_effect eff, const struct m_why *why)
{
	m_alts_add(out, s, eff, why, -1);
}

/* ------------------------------------------------------ translations -- */

/* The verbs registration an lmr_create stands for (DAT-LMR-2). */
static struct m_op lmr_reg_op(const struct model *m, const struct m_op *op)
{
	const struct m_node *nd = &m->node[op->node];
	struct m_op v = { .kind = M_OP_REG_MR, .node = op->node, .obj = -1, .pd = op->pd, .mr = -1, .qp = -1,
			  .access = lmr_access(op->access), .len = op->len, .offset = op->offset, .prot = op->prot,
			  .peer_node = -1, .peer_qp = -1, .remote = -1, .peer_pd = -1 };

	if (op->mr >= 0 && op->mr < nd->nmr) {
		/* Over another LMR's memory: its buffer, page offset and (type LMR) length. */
		const struct m_mr *o = &nd->mr[op->mr];

		v.offset = o->addr % M_PAGE;
		v.prot = M_PROT_RW;
		if (op->type == M_DAT_MEM_LMR)
			v.len = o->len;
	}
	return v;
}

/* The verbs post a DTO stands for: the raw triplets on the EP's QP. */
static struct m_op dto_op(const struct model *m, const struct m_op *op)
{
	const struct m_conn *c = &m->node[op->node].conn[op->obj];

	return (struct m_op){ .kind = op->kind == M_OP_DAT_RDMA_WRITE ? M_OP_WRITE : M_OP_READ, .node = op->node,
			      .obj = c->qp, .pd = -1, .mr = -1, .qp = -1, .len = op->len, .lkey = op->lkey,
			      .laddr = op->laddr, .rkey = op->rkey, .raddr = op->raddr, .peer_node = -1,
			      .peer_qp = -1, .remote = -1, .peer_pd = -1 };
}

/* The verbs type-1 bind an rmr_bind stands for. */
static struct m_op bind_op(const struct model *m, const struct m_op *op)
{
	const struct m_conn *c = &m->node[op->node].conn[op->qp];

	return (struct m_op){ .kind = M_OP_BIND_MW, .node = op->node, .obj = op->obj, .pd = -1, .mr = op->mr,
			      .qp = c->qp, .access = priv_access(op->access), .type = 1, .len = op->len,
			      .offset = op->offset, .peer_node = -1, .peer_qp = -1, .remote = -1, .peer_pd = -1 };
}

/* ------------------------------------------------------- predictions -- */

/* DAT-IA-2: the call needs the node's IA. Adds the refusal and returns 1 if it is not open. */
static int ia_check(const struct m_node *nd, struct m_pred *out, struct m_why why)
{
	if (nd->ia_open)
		return 0;
	m_why_add(&why, M_RULE_DAT_IA_2);
	m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
	return 1;
}

/* DAT-HANDLE-1 (or the given rule): a freed object. */
static void stale(struct m_pred *out, enum m_rule r)
{
	struct m_why why = { 0 };

	m_why_add(&why, r);
	m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
}

static int pred_ia_open(const struct m_node *nd, struct m_pred *out)
{
	struct m_why why = { 0 };

	if (nd->ia_open)
		return -EINVAL; /* one IA per node: open it once */
	m_why_add(&why, M_RULE_DAT_IA_1);
	if (out->op.type == M_DAT_IA_UNKNOWN)
		m_alt_add(out, DAT(PROVIDER_NOT_FOUND), M_EFF_NONE, &why, -1);
	else if (out->op.type == M_DAT_IA_CMA || out->op.type == M_DAT_IA_SCM)
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	else
		return -EINVAL;
	return 0;
}

static int pred_pz_free(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	int rc;

	if (!VALID(nd->pd, nd->npd, op->obj) || nd->pd[op->obj].api != M_API_DAT)
		return -EINVAL;
	if (!nd->pd[op->obj].live) {
		stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	m_why_add(&why, M_RULE_DAT_PZ_1);
	if (nd->pd[op->obj].usecnt) {
		struct m_set s = DECIDE(p, DAT_PZ_1, PART_STEP, DAT(INVALID_STATE));

		add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	/* Unused: the verbs PD is deallocated underneath (PD-2). */
	struct m_op v = { .kind = M_OP_DEALLOC_PD, .node = op->node, .obj = op->obj };

	rc = vpredict(m, p, &v, &vp);
	if (rc)
		return rc;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = why_of(&vp.alt[i], &why);

		m_alt_add(out, vp.alt[i].out.kind == M_OUT_OK ? O_OK : DAT(INVALID_STATE), vp.alt[i].effect, &w, -1);
	}
	return 0;
}

/* Map the verbs registration's alternatives to dat_lmr_create's (DAT-LMR-3, DAT-LMR-4). */
static void lmr_outcomes(const struct m_profile *p, const struct m_pred *vp, struct m_pred *out, struct m_why why,
			 enum m_rule success_rule)
{
	for (unsigned i = 0; i < vp->n; i++) {
		const struct m_alt *a = &vp->alt[i];
		struct m_why w = why_of(a, &why);
		struct m_set s;

		if (a->out.kind == M_OUT_OK) {
			s = m_decide(p, success_rule, PART_STEP, &O_OK, 1);
			m_why_add(&w, success_rule);
			for (unsigned k = 0; k < s.n; k++)
				m_alt_add(out, s.o[k], s.o[k].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &w, -1);
		} else if (a->out.kind == M_OUT_CRASH) {
			m_alt_add(out, O_CRASH, M_EFF_CRASH, &w, -1);
		} else if (alt_has_rule(a, M_RULE_MR_ACC_1)) {
			/* Success here means a provider that adds local write (apply). */
			s = DECIDE(p, DAT_LMR_3, PART_STEP, DAT(INSUFFICIENT_RESOURCES), O_OK, DAT(INVALID_PARAMETER));
			m_why_add(&w, M_RULE_DAT_LMR_3);
			for (unsigned k = 0; k < s.n; k++)
				m_alt_add(out, s.o[k], s.o[k].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &w, -1);
		} else {
			s = DECIDE(p, DAT_LMR_4, PART_STEP, DAT(INSUFFICIENT_RESOURCES));
			m_why_add(&w, M_RULE_DAT_LMR_4);
			add_set(out, &s, M_EFF_NONE, &w);
		}
	}
}

static int pred_lmr_create(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	struct m_set s;
	int rc;

	m_why_add(&why, M_RULE_DAT_LMR_1);
	if (ia_check(nd, out, why))
		return 0;
	if (!VALID(nd->pd, nd->npd, op->pd) || nd->pd[op->pd].api != M_API_DAT)
		return -EINVAL;
	if (!nd->pd[op->pd].live) {
		m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->type != M_DAT_MEM_VIRTUAL && op->type != M_DAT_MEM_LMR && op->type != M_DAT_MEM_SHARED_VIRTUAL) {
		m_alt_add(out, DAT(INVALID_PARAMETER), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (op->mr >= 0 && (!VALID(nd->mr, nd->nmr, op->mr) || nd->mr[op->mr].api != M_API_DAT ||
			    (op->type == M_DAT_MEM_VIRTUAL && op->len > nd->mr[op->mr].len)))
		return -EINVAL; /* from= names an LMR of this node, and a VIRTUAL one stays inside its buffer */
	if (op->type == M_DAT_MEM_LMR && op->mr < 0)
		return -EINVAL;
	why.n = 0;
	m_why_add(&why, M_RULE_DAT_LMR_2);
	if (op->type == M_DAT_MEM_LMR) {
		/* DAT-LMR-7: the original must be a live LMR. */
		if (!nd->mr[op->mr].live) {
			struct m_why w = { 0 };

			m_why_add(&w, M_RULE_DAT_LMR_7);
			m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &w, -1);
			return 0;
		}
	} else if (op->flags & 1) {
		/* DAT-LMR-5: zero-based addressing is for iWARP devices only. */
		s = DECIDE(p, DAT_LMR_5, PART_STEP, DAT(NOT_IMPLEMENTED));
		m_why_add(&why, M_RULE_DAT_LMR_5);
		add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	struct m_op v = lmr_reg_op(m, op);

	rc = vpredict(m, p, &v, &vp);
	if (rc)
		return rc;
	lmr_outcomes(p, &vp, out, why,
		     op->type == M_DAT_MEM_LMR ? M_RULE_DAT_LMR_7
		     : op->type == M_DAT_MEM_SHARED_VIRTUAL ? M_RULE_DAT_LMR_6 : M_RULE_DAT_LMR_2);
	if (op->type == M_DAT_MEM_SHARED_VIRTUAL) {
		/* DAT-LMR-6: a provider may not implement shared memory at all. */
		struct m_why w = { 0 };

		m_why_add(&w, M_RULE_DAT_LMR_6);
		s = DECIDE(p, DAT_LMR_6, PART_STEP, DAT(NOT_IMPLEMENTED), DAT(MODEL_NOT_SUPPORTED));
		add_set(out, &s, M_EFF_NONE, &w);
	}
	return 0;
}

static int pred_lmr_free(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	struct m_set s;
	int rc;

	if (!VALID(nd->mr, nd->nmr, op->obj) || nd->mr[op->obj].api != M_API_DAT)
		return -EINVAL;
	m_why_add(&why, M_RULE_DAT_FREE_1);
	if (!nd->mr[op->obj].live) {
		s = DECIDE(p, DAT_FREE_1, PART_STEP, DAT(INVALID_HANDLE));
		add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	if (nd->mr[op->obj].nbound) {
		s = DECIDE(p, DAT_FREE_1, PART_REMOTE, DAT(INVALID_STATE));
		add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	struct m_op v = { .kind = M_OP_DEREG_MR, .node = op->node, .obj = op->obj };

	rc = vpredict(m, p, &v, &vp);
	if (rc)
		return rc;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = why_of(&vp.alt[i], &why);

		/* A verbs refusal is converted (dapl_convert_errno); the LMR stays. */
		m_alt_add(out, vp.alt[i].out.kind == M_OUT_ERRNO ? O_DAT(dto_errno(vp.alt[i].out.code)) : vp.alt[i].out,
			  vp.alt[i].effect, &w, -1);
	}
	return 0;
}

static int pred_rmr_create(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	int rc;

	if (!VALID(nd->pd, nd->npd, op->pd) || nd->pd[op->pd].api != M_API_DAT)
		return -EINVAL;
	m_why_add(&why, M_RULE_DAT_RMR_1);
	if (!nd->pd[op->pd].live) {
		m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
		return 0;
	}
	/* A type-1 window in the PZ's PD (MW-ALLOC-*). */
	struct m_op v = { .kind = M_OP_ALLOC_MW, .node = op->node, .pd = op->pd, .type = M_MW_TYPE_1 };

	rc = vpredict(m, p, &v, &vp);
	if (rc)
		return rc;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = why_of(&vp.alt[i], &why);

		if (vp.alt[i].out.kind == M_OUT_OK) {
			struct m_set s = DECIDE(p, DAT_RMR_1, PART_STEP, O_OK);

			for (unsigned k = 0; k < s.n; k++)
				m_alt_add(out, s.o[k], s.o[k].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &w, -1);
		} else {
			/* No windows underneath: dapl_rmr_create's resource error. */
			m_alt_add(out, DAT(INSUFFICIENT_RESOURCES), M_EFF_NONE, &w, -1);
		}
	}
	return 0;
}

static int pred_rmr_free(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	int rc;

	if (!VALID(nd->mw, nd->nmw, op->obj))
		return -EINVAL;
	if (!nd->mw[op->obj].live) {
		stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	struct m_op v = { .kind = M_OP_DEALLOC_MW, .node = op->node, .obj = op->obj };

	rc = vpredict(m, p, &v, &vp);
	if (rc)
		return rc;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = why_of(&vp.alt[i], &why);

		m_alt_add(out, vp.alt[i].out, vp.alt[i].effect, &w, -1);
	}
	return 0;
}

/* Is conn h of node nd a uDAPL EP created at some time? */
static int ep_valid(const struct m_node *nd, int h)
{
	return VALID(nd->conn, nd->nconn, h) && nd->conn[h].api == M_API_DAT;
}

/* Is the EP connected (its QP still RTS)? */
static int ep_connected(const struct m_node *nd, int h)
{
	const struct m_conn *c = &nd->conn[h];

	return c->live && nd->qp[c->qp].live && nd->qp[c->qp].state == M_QPS_RTS;
}

static int pred_ep_connect(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	if (op->peer_node < 0 || op->peer_node >= m->nnodes || op->peer_node == op->node)
		return -EINVAL;
	const struct m_node *pn = &m->node[op->peer_node];

	/* Both PZs must be live: a connection is set up between two open IAs. */
	if (!VALID(nd->pd, nd->npd, op->pd) || !nd->pd[op->pd].live || nd->pd[op->pd].api != M_API_DAT ||
	    !VALID(pn->pd, pn->npd, op->peer_pd) || !pn->pd[op->peer_pd].live || pn->pd[op->peer_pd].api != M_API_DAT)
		return -EINVAL;
	/* DAT-EP-4: private data up to the IA's limit; beyond it OFA misbehaves
	 * in ways no outcome expresses, so the model predicts nothing there. */
	if (op->len > (nd->ia_open == 1 + M_DAT_IA_SCM ? M_DAT_PDATA_SCM : M_DAT_PDATA_CMA))
		return -EINVAL;
	if (op->len)
		m_why_add(&why, M_RULE_DAT_EP_4);
	m_why_add(&why, M_RULE_DAT_EP_1);
	m_why_add(&why, M_RULE_QP_CONN_1);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

static int pred_ep_act(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	if (!ep_valid(nd, op->obj))
		return -EINVAL;
	if (!nd->conn[op->obj].live) {
		stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	if (op->kind == M_OP_DAT_EP_FREE) {
		m_why_add(&why, M_RULE_DAT_EP_3);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_DAT_EP_2);
	if (ep_connected(nd, op->obj))
		m_why_add(&why, M_RULE_RA_ERR_2);
	m_alt_add(out, O_OK, ep_connected(nd, op->obj) ? M_EFF_DO : M_EFF_NONE, &why, -1);
	return 0;
}

/* Is rkey the rmr_context of an LMR on node nd that has been freed? (DAT-FREE-2) */
static int freed_lmr_key(const struct m_node *nd, uint32_t key, int local)
{
	for (int i = 0; i < nd->nmr; i++)
		if (nd->mr[i].ever && !nd->mr[i].live && nd->mr[i].api == M_API_DAT &&
		    (local ? nd->mr[i].lkey : nd->mr[i].rkey) == key && key)
			return 1;
	return 0;
}

/* Map one verbs alternative of a DTO (or bind) to the DAT outcome it gives. */
static void dto_alt(struct m_pred *out, const struct m_alt *a, const struct m_why *dat, struct m_outcome o)
{
	struct m_why w = why_of(a, dat);
	uint8_t eff = a->effect;
	unsigned first = out->n;

	if (o.kind == M_OUT_DTO && o.code != M_DTO_SUCCESS && o.code != M_DTO_ERR_FLUSHED &&
	    (eff == M_EFF_QP_ERR || eff == M_EFF_BOTH_ERR)) {
		/* DAT-DTO-4: the provider disconnects the broken connection. */
		eff = M_EFF_BOTH_ERR;
		m_why_add(&w, M_RULE_DAT_DTO_4);
	}
	m_alt_add(out, o, (enum m_effect)eff, &w, -1);
	for (unsigned i = first; i < out->n; i++) {
		out->alt[i].target_unknown = a->target_unknown;
		out->alt[i].remote_done = a->remote_done;
	}
}

/*
 * The DAT outcome of a verbs one: a completion status through DAT-DTO-1; a
 * post the verbs layer refuses returns dapl_convert_errno of its errno (no
 * uDAPL step reaches that today: a DISCONNECTED EP's posts are flushed,
 * DAT-EP-2, and a bind is checked by the DAT layer first, DAT-RMR-2).
 */
static struct m_outcome dat_of(struct m_outcome v, struct m_why *w)
{
	if (v.kind == M_OUT_WC) {
		m_why_add(w, M_RULE_DAT_DTO_1);
		return O_DTO(dto_status(v.code));
	}
	if (v.kind == M_OUT_ERRNO)
		return O_DAT(dto_errno(v.code));
	return v;
}

static int pred_dto(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_pred vp;
	struct m_why dat = { 0 };
	struct m_set narrow = { 0 };
	int rc;

	if (!ep_valid(nd, op->obj))
		return -EINVAL;
	if (!nd->conn[op->obj].live) {
		stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	const struct m_conn *c = &nd->conn[op->obj];
	struct m_op v = dto_op(m, op);

	rc = vpredict(m, p, &v, &vp);
	if (rc)
		return rc;
	out->res = vp.res;
	if (!ep_connected(nd, op->obj)) {
		/* DAT-EP-2: a DISCONNECTED EP accepts the DTO and flushes it. */
		m_why_add(&dat, M_RULE_DAT_EP_2);
		narrow = DECIDE(p, DAT_EP_2, PART_STEP, DTO(ERR_FLUSHED));
	} else if (op->len == 0) {
		/* DAT-DTO-2: nothing to move, nothing looked at. */
		m_why_add(&dat, M_RULE_DAT_DTO_2);
		narrow = DECIDE(p, DAT_DTO_2, PART_STEP, DTO(SUCCESS));
	}
	int stale_local = op->len && freed_lmr_key(nd, op->lkey, 1);
	int stale_remote = op->len && c->peer_node >= 0 && freed_lmr_key(&m->node[c->peer_node], op->rkey, 0);

	for (unsigned i = 0; i < vp.n; i++) {
		const struct m_alt *a = &vp.alt[i];
		struct m_why w = dat;
		struct m_outcome o = dat_of(a->out, &w);

		if (narrow.n && !m_set_has(&narrow, o))
			continue;
		if (stale_local && o.kind == M_OUT_DTO &&
		    (o.code == M_DTO_ERR_LOCAL_PROTECTION || o.code == M_DTO_ERR_LOCAL_EP)) {
			/* DAT-FREE-2: a freed lmr_context is a protection violation. */
			struct m_set s = DECIDE(p, DAT_FREE_2, PART_STEP, DTO(ERR_LOCAL_PROTECTION));

			m_why_add(&w, M_RULE_DAT_FREE_2);
			if (!m_set_has(&s, o))
				continue;
		} else if (stale_remote && o.kind == M_OUT_DTO && o.code == M_DTO_ERR_REMOTE_ACCESS) {
			m_why_add(&w, M_RULE_DAT_FREE_2);
		}
		dto_alt(out, a, &w, o);
	}
	if (stale_local && out->n == 0) {
		/* Every verbs outcome was a status DAT-FREE-2 does not allow: the rule's own. */
		struct m_why w = dat;
		struct m_set s = DECIDE(p, DAT_FREE_2, PART_STEP, DTO(ERR_LOCAL_PROTECTION));

		m_why_add(&w, M_RULE_DAT_FREE_2);
		for (unsigned k = 0; k < s.n; k++)
			for (unsigned i = 0; i < vp.n; i++) {
				struct m_why w2 = w;
				struct m_outcome o = dat_of(vp.alt[i].out, &w2);

				if (o.kind == M_OUT_DTO && o.code != M_DTO_SUCCESS)
					dto_alt(out, &vp.alt[i], &w2, s.o[k]);
			}
	}
	if (narrow.n && out->n == 0)
		for (unsigned k = 0; k < narrow.n; k++)
			m_alt_add(out, narrow.o[k], M_EFF_NONE, &dat, -1);
	return 0;
}

static int pred_rmr_bind(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	struct m_set s;
	int rc;

	if (!VALID(nd->mw, nd->nmw, op->obj) || !ep_valid(nd, op->qp) || !VALID(nd->mr, nd->nmr, op->mr) ||
	    nd->mr[op->mr].api != M_API_DAT)
		return -EINVAL;
	if (!nd->mw[op->obj].live || !nd->conn[op->qp].live) {
		stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	const struct m_mw *mw = &nd->mw[op->obj];
	const struct m_mr *lmr = &nd->mr[op->mr];
	const struct m_qp *q = &nd->qp[nd->conn[op->qp].qp];

	m_why_add(&why, M_RULE_DAT_RMR_2);
	if (op->len && !lmr->live) {
		/* The lmr_context is not registered (any more). */
		m_alt_add(out, DAT(INVALID_PARAMETER), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (!ep_connected(nd, op->qp)) {
		s = DECIDE(p, DAT_RMR_2, PART_STEP, DAT(INVALID_STATE), DTO(ERR_FLUSHED));
		add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	if (op->len && (!m_range_ok(op->offset, op->len, lmr->iova, lmr->len) || lmr->pd != mw->pd ||
			q->pd != mw->pd)) {
		m_alt_add(out, DAT(INVALID_PARAMETER), M_EFF_NONE, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_DAT_RMR_4);
	if (op->len && (((op->access & M_DAT_PRIV_REMOTE_WRITE) && !(lmr->usage & M_DAT_PRIV_LOCAL_WRITE)) ||
			((op->access & M_DAT_PRIV_REMOTE_READ) && !(lmr->usage & M_DAT_PRIV_LOCAL_READ)))) {
		/* DAT-RMR-3: refused at once, or the bind completes in error (MW-BIND-6 underneath). */
		struct m_why w = why;

		m_why_add(&w, M_RULE_DAT_RMR_3);
		s = DECIDE(p, DAT_RMR_3, PART_STEP, DAT(PRIVILEGES_VIOLATION), DTO(RMR_OPERATION_FAILED));
		for (unsigned k = 0; k < s.n; k++)
			if (s.o[k].kind != M_OUT_DTO)
				m_alt_add(out, s.o[k], M_EFF_NONE, &w, -1);
		if (!m_set_has(&s, DTO(RMR_OPERATION_FAILED)))
			return 0;
		why = w;
	}
	struct m_op v = bind_op(m, op);
	/* The spec lets any LMR take binds: predict the verbs bind as if the
	 * MR had been registered with MW_BIND (a scratch copy of the state). */
	struct model *tmp = malloc(sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, m, sizeof(*tmp));
	tmp->node[op->node].mr[op->mr].access |= M_ACC_MW_BIND;
	rc = vpredict(tmp, p, &v, &vp);
	free(tmp);
	if (rc)
		return rc;
	out->res = vp.res;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = why;
		struct m_outcome o = dat_of(vp.alt[i].out, &w);

		dto_alt(out, &vp.alt[i], &w, o);
	}
	return 0;
}

int m_pred_dat(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	switch ((enum m_op_kind)op->kind) {
	case M_OP_DAT_IA_OPEN:
		return pred_ia_open(nd, out);
	case M_OP_DAT_PZ_CREATE:
		if (!ia_check(nd, out, why))
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_DAT_PZ_FREE:
		return pred_pz_free(m, p, out);
	case M_OP_DAT_LMR_CREATE:
		return pred_lmr_create(m, p, out);
	case M_OP_DAT_LMR_QUERY:
		if (!VALID(nd->mr, nd->nmr, op->obj) || nd->mr[op->obj].api != M_API_DAT)
			return -EINVAL;
		if (!nd->mr[op->obj].live) {
			stale(out, M_RULE_DAT_HANDLE_1);
			return 0;
		}
		m_why_add(&why, M_RULE_DAT_LMR_8);
		m_why_add(&why, M_RULE_DAT_LMR_9);
		m_alt_add(out, O_OK, M_EFF_NONE, &why, -1);
		return 0;
	case M_OP_DAT_LMR_FREE:
		return pred_lmr_free(m, p, out);
	case M_OP_DAT_RMR_CREATE:
		return pred_rmr_create(m, p, out);
	case M_OP_DAT_RMR_FREE:
		return pred_rmr_free(m, p, out);
	case M_OP_DAT_RMR_BIND:
		return pred_rmr_bind(m, p, out);
	case M_OP_DAT_EP_CONNECT:
		return pred_ep_connect(m, out);
	case M_OP_DAT_EP_DISCONNECT:
	case M_OP_DAT_EP_FREE:
		return pred_ep_act(m, out);
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ:
		return pred_dto(m, p, out);
	default:
		return -EINVAL;
	}
}

/* ------------------------------------------------------------- apply -- */

/*
 * Registrations over one buffer (mem_type LMR, or VIRTUAL from= another
 * LMR) share its bytes: the model keeps a copy per MR and makes them equal
 * again after a uDAPL step changed one (from: node n, MR h).
 */
static void sync_aliases(struct model *m, int n, int h)
{
	struct m_node *nd;

	if (n < 0 || h < 0)
		return;
	nd = &m->node[n];
	for (int i = 0; i < nd->nmr; i++) {
		struct m_mr *d = &nd->mr[i], *s = &nd->mr[h];

		if (i == h || !d->ever || d->api != M_API_DAT || s->api != M_API_DAT || !d->bytes ||
		    d->addr + d->len <= s->addr || s->addr + s->len <= d->addr)
			continue;
		/* Copy the overlap of [s->addr, +len) and [d->addr, +len). */
		uint64_t lo = d->addr > s->addr ? d->addr : s->addr;
		uint64_t hi = d->addr + d->len < s->addr + s->len ? d->addr + d->len : s->addr + s->len;

		memcpy(d->bytes + (lo - d->addr), s->bytes + (lo - s->addr), hi - lo);
		memcpy(d->unknown + (lo - d->addr), s->unknown + (lo - s->addr), hi - lo);
	}
}

static int apply_lmr_create(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	struct m_node *nd = &m->node[op->node];
	struct m_op v = lmr_reg_op(m, op);
	int rc;

	if (pred->alt[i].effect != M_EFF_DO)
		return 0;
	/* A provider that accepts REMOTE_WRITE without LOCAL_WRITE adds local write (DAT-LMR-3). */
	if (alt_has_rule(&pred->alt[i], M_RULE_DAT_LMR_3))
		v.access |= M_ACC_LOCAL_WRITE;
	rc = vapply_ok(m, &v, created);
	if (rc || *created < 0)
		return rc;
	struct m_mr *mr = &nd->mr[*created];

	mr->api = M_API_DAT;
	mr->usage = op->access;
	/* The contexts the model hands out: rmr_context is the lmr_context, as
	 * OFA over a verbs stack that keys both alike reports it (any non-zero
	 * rmr_context would do: DAT-LMR-8 judges reality by zero or not). */
	if (op->access & DAT_REMOTE_PRIV)
		mr->rkey = mr->lkey;
	if (op->mr >= 0) {
		/* Over another LMR's memory: the same addresses and bytes. */
		const struct m_mr *o = &nd->mr[op->mr];

		mr->addr = mr->iova = o->addr;
		sync_aliases(m, op->node, op->mr);
	}
	return 0;
}

static int apply_ep_connect(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node], *pn = &m->node[op->peer_node];
	int qa, qb, dummy, rc;

	if (nd->nconn >= M_MAX_CONN || pn->nconn >= M_MAX_CONN || nd->nqp >= M_MAX_QP || pn->nqp >= M_MAX_QP)
		return -ENOSPC;
	struct m_op v = { .kind = M_OP_CREATE_QP, .node = op->node, .pd = op->pd, .access = M_ACC_REMOTE_ANY };

	rc = vapply_ok(m, &v, &qa);
	v.node = (uint8_t)op->peer_node;
	v.pd = op->peer_pd;
	if (rc == 0)
		rc = vapply_ok(m, &v, &qb);
	if (rc)
		return rc;
	v = (struct m_op){ .kind = M_OP_CONNECT, .node = op->node, .obj = (int16_t)qa, .peer_node = op->peer_node,
			   .peer_qp = (int16_t)qb };
	rc = vapply_ok(m, &v, &dummy);
	if (rc)
		return rc;
	int ca = nd->nconn++, cb = pn->nconn++;

	nd->conn[ca] = (struct m_conn){ .live = 1, .ever = 1, .api = M_API_DAT, .qp = (int16_t)qa,
					 .peer_node = op->peer_node, .peer_qp = (int16_t)qb, .peer_conn = (int16_t)cb,
					 .aux_mr = -1 };
	pn->conn[cb] = (struct m_conn){ .live = 1, .ever = 1, .api = M_API_DAT, .qp = (int16_t)qb,
					 .peer_node = op->node, .peer_qp = (int16_t)qa, .peer_conn = (int16_t)ca,
					 .aux_mr = -1 };
	*created = ca;
	return 0;
}

/* Disconnect (state ERR) or destroy both QPs of EP h on node n and its peer's. */
static int apply_ep_act(struct model *m, const struct m_op *op)
{
	struct m_node *nd = &m->node[op->node];
	struct m_conn *c = &nd->conn[op->obj];
	int dummy, rc = 0;
	struct m_op v = { .kind = op->kind == M_OP_DAT_EP_FREE ? M_OP_DESTROY_QP : M_OP_MODIFY_QP,
			  .type = M_QPS_ERR };

	for (int side = 0; side < 2 && rc == 0; side++) {
		int n = side ? c->peer_node : op->node;
		int q = side ? c->peer_qp : c->qp;

		if (n < 0 || q < 0 || !m->node[n].qp[q].live)
			continue;
		if (v.kind == M_OP_MODIFY_QP && m->node[n].qp[q].state == M_QPS_ERR)
			continue;
		v.node = (uint8_t)n;
		v.obj = (int16_t)q;
		rc = vapply_ok(m, &v, &dummy);
	}
	if (op->kind == M_OP_DAT_EP_FREE) {
		c->live = 0;
		if (c->peer_node >= 0 && c->peer_conn >= 0)
			m->node[c->peer_node].conn[c->peer_conn].live = 0;
	}
	return rc;
}

int m_apply_dat(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	const struct m_alt *a = &pred->alt[i];
	struct m_node *nd = &m->node[op->node];

	if (a->effect == M_EFF_CRASH) {
		m->crashed = 1;
		return 0;
	}
	switch ((enum m_op_kind)op->kind) {
	case M_OP_DAT_IA_OPEN:
		if (a->effect == M_EFF_DO)
			nd->ia_open = (uint8_t)(1 + op->type);
		return 0;
	case M_OP_DAT_PZ_CREATE: {
		struct m_op v = { .kind = M_OP_ALLOC_PD, .node = op->node };
		int rc;

		if (a->effect != M_EFF_DO)
			return 0;
		rc = vapply_ok(m, &v, created);
		if (rc == 0 && *created >= 0)
			nd->pd[*created].api = M_API_DAT;
		return rc;
	}
	case M_OP_DAT_PZ_FREE:
	case M_OP_DAT_LMR_FREE:
	case M_OP_DAT_RMR_FREE: {
		static const uint8_t verb[] = { [M_OP_DAT_PZ_FREE] = M_OP_DEALLOC_PD,
						[M_OP_DAT_LMR_FREE] = M_OP_DEREG_MR,
						[M_OP_DAT_RMR_FREE] = M_OP_DEALLOC_MW };
		struct m_op v = { .kind = verb[op->kind], .node = op->node, .obj = op->obj };
		int dummy;

		return a->effect == M_EFF_DO ? vapply_ok(m, &v, &dummy) : 0;
	}
	case M_OP_DAT_LMR_CREATE:
		return apply_lmr_create(m, pred, i, created);
	case M_OP_DAT_RMR_CREATE: {
		struct m_op v = { .kind = M_OP_ALLOC_MW, .node = op->node, .pd = op->pd, .type = M_MW_TYPE_1 };

		return a->effect == M_EFF_DO ? vapply_ok(m, &v, created) : 0;
	}
	case M_OP_DAT_EP_CONNECT:
		return a->effect == M_EFF_DO ? apply_ep_connect(m, op, created) : 0;
	case M_OP_DAT_EP_DISCONNECT:
	case M_OP_DAT_EP_FREE:
		return a->effect == M_EFF_DO ? apply_ep_act(m, op) : 0;
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ: {
		struct m_op v = dto_op(m, op);
		int rc;

		if (a->effect == M_EFF_NONE)
			return 0;
		rc = vapply(m, &v, a, &pred->res, created);
		*created = -1;
		if (rc == 0) {
			sync_aliases(m, op->node, pred->res.lmr);
			sync_aliases(m, pred->res.peer_node, pred->res.tmr);
		}
		return rc;
	}
	case M_OP_DAT_RMR_BIND: {
		struct m_op v = bind_op(m, op);
		int rc;

		if (a->effect == M_EFF_NONE)
			return 0;
		rc = vapply(m, &v, a, &pred->res, created);
		*created = -1;
		return rc;
	}
	case M_OP_DAT_LMR_QUERY:
	default:
		return 0;
	}
}

/* ------------------------------------------------------------- query -- */

/* dat_lmr_query (DAT-LMR-8, DAT-LMR-9). */
static int query_lmr(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	if (!VALID(nd->mr, nd->nmr, op->obj) || nd->mr[op->obj].api != M_API_DAT)
		return -EINVAL;
	const struct m_mr *mr = &nd->mr[op->obj];

	/* The contexts are the provider's numbers: the model's keys are its own. */
	m_qres_add(out, "lmr_context", M_Q_ANY, mr->lkey, M_RULE_DAT_LMR_8);
	m_qres_add(out, "rmr_context", (mr->usage & DAT_REMOTE_PRIV) ? M_Q_NONZERO : M_Q_ZERO,
		   (mr->usage & DAT_REMOTE_PRIV) ? mr->rkey : 0, M_RULE_DAT_LMR_8);
	m_qres_add(out, "registered_size", M_Q_ANY, mr->len, M_RULE_DAT_LMR_9);
	m_qres_add(out, "registered_address", M_Q_ANY, mr->addr, M_RULE_DAT_LMR_9);
	m_qres_add(out, "mem_priv", M_Q_EXACT, mr->usage, M_RULE_DAT_LMR_2);
	return 0;
}

int m_query_dat(const struct model *m, const struct m_profile *p, const struct m_op *op, struct m_qres *out)
{
	(void)p;
	if (op->kind == M_OP_DAT_LMR_QUERY)
		return query_lmr(m, op, out);
	return -EINVAL;
}

/*
 * shared.c — what the uDAPL family's predictions share (dat/internal.h): its
 * translations into verbs (an LMR's registration, a DTO, an RMR bind) and the
 * outcome maps (verbs completions and errnos as DAT returns), the IA check
 * and a stale handle's answer. dat.c, obj.c and ep.c all use them.
 */
#include "model/dat/internal.h"

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
int32_t m_dat_dto_status(int32_t wc)
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
int32_t m_dat_errno(int32_t e)
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

struct m_why m_dat_why_of(const struct m_alt *a, const struct m_why *dat)
{
	struct m_why w = *dat;

	for (unsigned i = 0; i < a->nrules; i++)
		m_why_add(&w, (enum m_rule)a->rules[i]);
	return w;
}

/* Add one alternative per outcome of set, all with effect; rules why. */
void m_dat_add_set(struct m_pred *out, const struct m_set *s, enum m_effect eff, const struct m_why *why)
{
	m_alts_add(out, s, eff, why, -1);
}


/* The verbs registration an lmr_create stands for (DAT-LMR-2). */
struct m_op m_dat_lmr_reg_op(const struct model *m, const struct m_op *op)
{
	const struct m_node *nd = &m->node[op->node];
	struct m_op v = { .kind = M_OP_REG_MR, .node = op->node, .obj = -1,
			  .verbs = { .pd = op->dat.pz, .mr = -1, .qp = -1, .access = lmr_access(op->dat.priv),
				     .len = op->dat.len, .offset = op->dat.offset, .prot = op->dat.prot,
				     .peer_node = -1, .peer_qp = -1 } };

	if (op->dat.lmr >= 0 && op->dat.lmr < nd->nmr) {
		/* Over another LMR's memory: the same buffer and (type LMR) length. */
		v.verbs.in_buf = 1;
		v.verbs.mr = op->dat.lmr;
		if (op->dat.mem_type == M_DAT_MEM_LMR)
			v.verbs.len = nd->mr[op->dat.lmr].len;
	}
	return v;
}

/* The verbs post a DTO stands for: the raw triplets on the EP's QP. */
struct m_op m_dat_dto_op(const struct model *m, const struct m_op *op)
{
	const struct m_conn *c = &m->node[op->node].conn[op->obj];

	return (struct m_op){ .kind = op->kind == M_OP_DAT_RDMA_WRITE ? M_OP_WRITE : M_OP_READ, .node = op->node,
			      .obj = c->qp,
			      .verbs = { .pd = -1, .mr = -1, .qp = -1, .len = op->dat.len, .lkey = op->dat.lkey,
					 .laddr = op->dat.laddr, .rkey = op->dat.rkey, .raddr = op->dat.raddr,
					 .peer_node = -1, .peer_qp = -1 } };
}

/* The verbs type-1 bind an rmr_bind stands for. The spec lets any LMR take
 * binds: its MR counts as registered with MW_BIND (mr_bindable). */
struct m_op m_dat_bind_op(const struct model *m, const struct m_op *op)
{
	const struct m_conn *c = &m->node[op->node].conn[op->dat.ep];

	return (struct m_op){ .kind = M_OP_BIND_MW, .node = op->node, .obj = op->obj,
			      .verbs = { .pd = -1, .mr = op->dat.lmr, .qp = c->qp, .mr_bindable = 1,
					 .access = priv_access(op->dat.priv), .bind_call = 1,
					 .len = op->dat.len, .offset = op->dat.offset, .peer_node = -1,
					 .peer_qp = -1 } };
}


/* DAT-IA-2: the call needs the node's IA. Adds the refusal and returns 1 if it is not open. */
int m_dat_ia_check(const struct m_node *nd, struct m_pred *out, struct m_why why)
{
	if (nd->dat.ia_open)
		return 0;
	m_why_add(&why, M_RULE_DAT_IA_2);
	m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
	return 1;
}

/* DAT-HANDLE-1 (or the given rule): a freed object. */
void m_dat_stale(struct m_pred *out, enum m_rule r)
{
	struct m_why why = { 0 };

	m_why_add(&why, r);
	m_alt_add(out, DAT(INVALID_HANDLE), M_EFF_NONE, &why, -1);
}

/*
 * handle.c — calls given a handle that names no object: one the program
 * garbled (HANDLE-1: rdma-unit-test's HandleGarble XORs the handle member of
 * the library's struct with 0xDEADBEEF; the kernel looks the handle up in the
 * file's table and finds nothing — not a use after free, the object is still
 * there under its true handle), and a memory-window bind without an MR
 * (MW-BIND-2: libibverbs refuses a NULL bind_info.mr with a non-zero range).
 */
#include "model/verbs/internal.h"

#include <strings.h>

static const char *const garble_names[M_GARBLE_COUNT_] = {
	[M_GARBLE_NONE] = "none", [M_GARBLE_SELF] = "self", [M_GARBLE_PD] = "pd", [M_GARBLE_MR] = "mr",
	[M_GARBLE_QP] = "qp", [M_GARBLE_SEND_CQ] = "send_cq", [M_GARBLE_RECV_CQ] = "recv_cq",
	[M_GARBLE_SRQ] = "srq", [M_GARBLE_AH] = "ah",
};

const char *m_garble_str(enum m_garble g)
{
	return (unsigned)g < M_GARBLE_COUNT_ ? garble_names[g] : "?";
}

int m_garble_parse(const char *name, enum m_garble *out)
{
	for (unsigned i = 0; i < M_GARBLE_COUNT_; i++)
		if (strcasecmp(garble_names[i], name) == 0) {
			*out = (enum m_garble)i;
			return 0;
		}
	return -EINVAL;
}

/* Destroying calls: libibverbs sends them as ioctl DESTROY methods. */
static int destroys(enum m_op_kind k)
{
	return k == M_OP_DEALLOC_PD || k == M_OP_DEREG_MR || k == M_OP_DEALLOC_MW || k == M_OP_DESTROY_QP ||
	       k == M_OP_DESTROY_CQ || k == M_OP_DESTROY_SRQ || k == M_OP_DESTROY_AH;
}

/* Does op have the handle it says is garbled? (Only the calls rdma-unit-test garbles.) */
static int garble_fits(const struct m_op *op)
{
	const struct m_verbs_args *v = &op->verbs;

	switch ((enum m_op_kind)op->kind) {
	case M_OP_DEALLOC_PD: case M_OP_DEREG_MR: case M_OP_DEALLOC_MW: case M_OP_DESTROY_QP:
	case M_OP_MODIFY_QP: case M_OP_QUERY_QP: case M_OP_DESTROY_CQ: case M_OP_DESTROY_SRQ: case M_OP_DESTROY_AH:
		return v->garble == M_GARBLE_SELF;
	case M_OP_REG_MR: case M_OP_ALLOC_MW: case M_OP_CREATE_SRQ:
		return v->garble == M_GARBLE_PD;
	case M_OP_CREATE_QP:
		return v->garble == M_GARBLE_PD || (v->garble == M_GARBLE_SEND_CQ && v->scq) ||
		       (v->garble == M_GARBLE_RECV_CQ && v->rcq) || (v->garble == M_GARBLE_SRQ && v->srq1);
	case M_OP_BIND_MW:
		/* Not the QP: rxe's post rings its doorbell with the QP's handle after the WQE is queued. */
		return v->garble == M_GARBLE_SELF || (v->garble == M_GARBLE_MR && v->mr >= 0);
	case M_OP_SEND:
		return v->garble == M_GARBLE_AH && v->ah >= 0; /* a UD send's address handle */
	default:
		return 0;
	}
}

int m_pred_garbled(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	struct m_op *op = &out->op;
	uint8_t g = op->verbs.garble;
	struct m_why why = { 0 };
	struct m_set s;
	int rc;

	if (!garble_fits(op))
		return -EINVAL;
	/* The call as it would be with its true handles: the step must be well formed. */
	op->verbs.garble = M_GARBLE_NONE;
	rc = m_verbs_predict(m, p, out);
	op->verbs.garble = g;
	if (rc)
		return rc;
	m_why_add(&why, M_RULE_HANDLE_1);
	if (op->kind == M_OP_BIND_MW || op->kind == M_OP_SEND) {
		/* A WR is carried out from what it holds (the keys of a bind, the address vector a
		 * UD send's AH was made with): a provider that does not look at the handles (rxe)
		 * does as it would; else the bind or the send fails, the QP to ERR, nothing sent. */
		s = op->kind == M_OP_SEND ? DECIDE(p, HANDLE_1, PART_REMOTE, O_WC(M_WC_LOC_QP_OP_ERR))
					  : DECIDE(p, HANDLE_1, PART_REMOTE, O_WC(M_WC_MW_BIND_ERR));
		m_why_add(&why, M_RULE_RA_ERR_2);
		m_alts_add(out, &s, M_EFF_QP_ERR, &why, -1);
		return 0;
	}
	/* The kernel finds no object under the handle: nothing happens. A destroy (an ioctl
	 * method) answers ENOENT, the lookup's error; a call taking the handle as input the same
	 * (Linux 6.1: every one, observed on rxe), or EINVAL where a write handler turns the
	 * failed lookup (uobj_get_obj_read: NULL) into it. */
	out->n = 0;
	if (destroys((enum m_op_kind)op->kind))
		s = DECIDE(p, HANDLE_1, PART_STEP, O_ERR(ENOENT));
	else
		s = DECIDE(p, HANDLE_1, PART_RANGE, O_ERR(EINVAL), O_ERR(ENOENT));
	m_alts_add(out, &s, M_EFF_NONE, &why, -1);
	return 0;
}

int m_pred_bind_no_mr(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_set s;

	if (op->obj < 0 || op->obj >= nd->nmw || !nd->mw[op->obj].live || op->verbs.qp < 0 ||
	    op->verbs.qp >= nd->nqp || !nd->qp[op->verbs.qp].live)
		return -EINVAL;
	/* ibv_bind_mw (verbs.h, inline) checks the type, then the NULL MR, before the provider;
	 * a type-2 bind WR needs an MR, and a NULL MR with no range goes to the provider,
	 * which the model does not follow. */
	if (!op->verbs.bind_call && nd->mw[op->obj].type != M_MW_TYPE_1)
		return -EINVAL;
	if (nd->mw[op->obj].type != M_MW_TYPE_1) {
		s = DECIDE(p, MW_BIND_1, PART_STEP, O_ERR(EINVAL));
		m_why_add(&why, M_RULE_MW_BIND_1);
	} else if (op->verbs.len || op->verbs.offset) {
		s = DECIDE(p, MW_BIND_2, PART_STEP, O_ERR(EINVAL));
		m_why_add(&why, M_RULE_MW_BIND_2);
	} else {
		return -EINVAL;
	}
	m_alts_add(out, &s, M_EFF_NONE, &why, -1);
	return 0;
}

/*
 * device.c — the device and its port as queries answer them (DEV-QUERY-1,
 * PORT-QUERY-1): ibv_query_device(_ex) and ibv_query_port on the device the
 * harness opened on a node, named by one of its PDs. A correct device's
 * answers, as relations: the values the IBTA or the man pages fix, and every
 * max_* at least what the model lets a scenario create (the model predicts
 * those creations succeed, so a device that reports less contradicts it).
 * Nothing here changes the model's state.
 */
#include "model/verbs/internal.h"
#include "model/verbs/cq.h"
#include "model/verbs/ud.h"

#define M_PAGE 4096u               /* the page the model registers in (pyverbs' PAGE_SIZE) */
#define M_PORT_ACTIVE 4u           /* IBV_PORT_ACTIVE */
#define M_MTU_256 1u               /* IBV_MTU_256 .. IBV_MTU_4096 */
#define M_MTU_4096 5u
#define M_WIDTHS 0x1fu             /* IBV_WIDTH_1X 1, 4X 2, 8X 4, 12X 8, 2X 16 (IBTA LinkWidthActive) */
#define M_SPEEDS 0x1ffu            /* SDR 1, DDR 2, QDR 4, FDR10 8, FDR 16, EDR 32, HDR 64, NDR 128, XDR 256 */
#define M_LINK_LAYER_MAX 2u        /* IBV_LINK_LAYER_UNSPECIFIED 0, INFINIBAND 1, ETHERNET 2 */

int m_device_op(enum m_op_kind k)
{
	return k == M_OP_QUERY_DEVICE || k == M_OP_QUERY_PORT || k == M_OP_QUERY_GID || k == M_OP_QUERY_GID_TABLE ||
	       k == M_OP_QUERY_PKEY || k == M_OP_GET_PKEY_INDEX;
}

/* The rule that decides query kind k, and the refusal it predicts (0: none) for op. */
static enum m_rule device_rule(const struct m_op *op, int *refusal)
{
	*refusal = 0;
	switch ((enum m_op_kind)op->kind) {
	case M_OP_QUERY_DEVICE: return M_RULE_DEV_QUERY_1;
	case M_OP_QUERY_PORT:
		*refusal = op->verbs.port != M_PORT_ONE ? EINVAL : 0;
		return M_RULE_PORT_QUERY_1;
	case M_OP_QUERY_GID:
		*refusal = op->verbs.gid_empty ? ENODATA : 0;
		return M_RULE_GID_QUERY_1;
	case M_OP_QUERY_GID_TABLE:
		*refusal = op->verbs.gid_none ? EINVAL : 0;
		return M_RULE_GID_QUERY_1;
	default: return M_RULE_PKEY_QUERY_1;
	}
}

int m_pred_device(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	enum m_rule rule;
	int refusal;

	/* An empty GID index is asked of ibv_query_gid_ex only (ibv_query_gid reads it as a zero GID). */
	if (op->obj < 0 || op->obj >= nd->npd || !nd->pd[op->obj].live || op->verbs.port > M_PORT_PAST ||
	    (op->verbs.gid_empty && !op->verbs.dev_ex))
		return -EINVAL;
	rule = device_rule(op, &refusal);
	m_why_add(&why, rule);
	if (refusal) {
		const struct m_outcome o = O_ERR(refusal);
		struct m_set s = m_decide(p, rule, PART_STEP, &o, 1);

		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	m_alt_add(out, O_OK, M_EFF_NONE, &why, -1);
	return 0;
}

/* query_device: the results in the order of the call's result list (calls_verbs.c). */
static void device_results(struct m_qres *out)
{
	const enum m_rule r = M_RULE_DEV_QUERY_1;

	m_qres_add(out, "node_guid", M_Q_NONZERO, 0, r);
	m_qres_add(out, "sys_image_guid", M_Q_NONZERO, 0, r);
	m_qres_add(out, "max_mr_size", M_Q_ATLEAST, M_MR_LEN_MAX, r);
	m_qres_add(out, "page_size_cap", M_Q_ATLEAST, M_PAGE, r);
	m_qres_add(out, "vendor_id", M_Q_NONZERO, 0, r);
	m_qres_add(out, "max_qp", M_Q_ATLEAST, M_MAX_QP, r);
	m_qres_add(out, "max_qp_wr", M_Q_ATLEAST, M_SEND_DEPTH_MAX > M_RECV_DEPTH_MAX ? M_SEND_DEPTH_MAX : M_RECV_DEPTH_MAX,
		   r);
	m_qres_add(out, "max_sge", M_Q_ATLEAST, M_SGE_MAX, r);
	m_qres_add(out, "max_sge_rd", M_Q_ANY, 0, r);
	m_qres_add(out, "max_cq", M_Q_ATLEAST, M_MAX_CQ, r);
	m_qres_add(out, "max_cqe", M_Q_ATLEAST, M_CQ_DEPTH_MAX, r);
	m_qres_add(out, "max_mr", M_Q_ATLEAST, M_MAX_MR, r);
	m_qres_add(out, "max_pd", M_Q_ATLEAST, M_MAX_PD, r);
	m_qres_add(out, "max_mw", M_Q_ATLEAST, M_MAX_MW, r);
	m_qres_add(out, "max_ah", M_Q_ATLEAST, M_MAX_AH, r);
	m_qres_add(out, "max_srq", M_Q_ATLEAST, M_MAX_SRQ, r);
	m_qres_add(out, "max_srq_wr", M_Q_ATLEAST, M_RECV_DEPTH_MAX, r);
	m_qres_add(out, "max_pkeys", M_Q_ATLEAST, 1, r);
	m_qres_add(out, "phys_port_cnt", M_Q_ATLEAST, 1, r);
}

/* query_port of port 1: the results in the order of the call's result list. */
static void port_results(struct m_qres *out)
{
	const enum m_rule r = M_RULE_PORT_QUERY_1;

	m_qres_add(out, "state", M_Q_EXACT, M_PORT_ACTIVE, r);
	m_qres_add_range(out, "max_mtu", M_MTU_256, M_MTU_4096, r);
	m_qres_add_range(out, "active_mtu", M_MTU_256, M_MTU_4096, r);
	m_qres_add_flag(out, "active_width", M_WIDTHS, r);
	m_qres_add_flag(out, "active_speed", M_SPEEDS, r);
	m_qres_add_range(out, "link_layer", 0, M_LINK_LAYER_MAX, r);
	m_qres_add(out, "max_msg_sz", M_Q_ATLEAST, M_PAGE + 1, r);
	m_qres_add(out, "gid_tbl_len", M_Q_ATLEAST, 1, r);
	m_qres_add(out, "pkey_tbl_len", M_Q_ATLEAST, 1, r);
}

int m_device_query(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	if (op->obj < 0 || op->obj >= nd->npd || !m_device_op((enum m_op_kind)op->kind))
		return -EINVAL;
	switch ((enum m_op_kind)op->kind) {
	case M_OP_QUERY_DEVICE: device_results(out); break;
	case M_OP_QUERY_PORT:
		if (op->verbs.port == M_PORT_ONE)
			port_results(out);
		break;
	case M_OP_QUERY_GID_TABLE:
		if (!op->verbs.gid_none)
			m_qres_add(out, "n", M_Q_ATLEAST, 1, M_RULE_GID_QUERY_1); /* port 1's default GID at least */
		break;
	case M_OP_QUERY_PKEY: m_qres_add(out, "pkey", M_Q_NONZERO, 0, M_RULE_PKEY_QUERY_1); break;
	case M_OP_GET_PKEY_INDEX: m_qres_add(out, "index", M_Q_EXACT, 0, M_RULE_PKEY_QUERY_1); break;
	default: break; /* query_gid: its outcome alone */
	}
	return 0;
}

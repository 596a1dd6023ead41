/*
 * recvwc.c — the opcode of a successful send-queue completion (ibv_poll_cq(3):
 * IBV_WC_SEND, IBV_WC_RDMA_WRITE, … by the WR's opcode; a WRITE with immediate
 * completes as RDMA_WRITE) and the fields of a successful receive completion (recvwc.h), from
 * the request that consumed the receive: a SEND's opcode is IBV_WC_RECV and
 * its byte_len the bytes sent (LP-5), with the 40 bytes of the GRH ahead on
 * a UD QP (UD-SEND-1); a WRITE with immediate's opcode is
 * IBV_WC_RECV_RDMA_WITH_IMM and its byte_len the bytes written (RA-WRITE-2;
 * ibv_poll_cq(3): byte_len of an RDMA Write with immediate). SEND with
 * immediate and WRITE with immediate set IBV_WC_WITH_IMM with the immediate
 * the sender posted.
 */
#include "model/verbs/internal.h"
#include "model/verbs/ud.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int m_send_wc_opcode(unsigned k)
{
	switch ((enum m_op_kind)k) {
	case M_OP_SEND: return M_WCO_SEND;
	case M_OP_WRITE: case M_OP_WRITE_IMM: return M_WCO_RDMA_WRITE;
	case M_OP_READ: return M_WCO_RDMA_READ;
	case M_OP_CAS: return M_WCO_COMP_SWAP;
	case M_OP_FADD: return M_WCO_FETCH_ADD;
	case M_OP_BIND_MW: return M_WCO_BIND_MW;
	case M_OP_LOCAL_INV: return M_WCO_LOCAL_INV;
	default: return -1;
	}
}

void m_recv_wc_of(const struct m_op *op, int ud, struct m_recv_wc *out)
{
	*out = (struct m_recv_wc){ .known = 1, .opcode = M_WCO_RECV,
				   .byte_len = op->verbs.no_sge ? 0 : (uint32_t)op->verbs.len };
	if (op->kind == M_OP_WRITE_IMM) {
		out->opcode = M_WCO_RECV_RDMA_WITH_IMM;
		out->has_imm = 1;
	} else {
		out->has_imm = op->verbs.with_imm;
		if (ud)
			out->byte_len += M_UD_GRH;
	}
	out->imm = out->has_imm ? op->verbs.imm_data : 0;
}

int m_recv_wc_expect(const struct model *m, const struct m_pred *pred, struct m_recv_wc *out)
{
	const struct m_op *op = &pred->op;
	const struct m_node *nd = &m->node[op->node];

	if (op->kind != M_OP_SEND && op->kind != M_OP_WRITE_IMM)
		return -EINVAL;
	m_recv_wc_of(op, op->obj >= 0 && op->obj < nd->nqp && nd->qp[op->obj].type == M_QPT_UD, out);
	return 0;
}

int m_recv_wc_check(const struct m_recv_wc *want, const struct m_recv_wc *seen, char *why, size_t len)
{
	if (want->opcode != seen->opcode)
		snprintf(why, len, "opcode %s, real %s", m_wc_opcode_str(want->opcode), m_wc_opcode_str(seen->opcode));
	else if (want->byte_len != seen->byte_len)
		snprintf(why, len, "byte_len %u, real %u", want->byte_len, seen->byte_len);
	else if (want->has_imm != seen->has_imm)
		snprintf(why, len, "%s, real %s", want->has_imm ? "IBV_WC_WITH_IMM" : "no immediate",
			 seen->has_imm ? "IBV_WC_WITH_IMM" : "no immediate");
	else if (want->has_imm && want->imm != seen->imm)
		snprintf(why, len, "imm_data %u, real %u", want->imm, seen->imm);
	else
		return 0;
	return -1;
}

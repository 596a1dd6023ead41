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

static const char *const flag_names[] = { "GRH", "WITH_IMM", "IP_CSUM_OK", "WITH_INV" };
#define NFLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

const char *m_wc_flags_str(uint32_t flags, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < NFLAGS && off < len; i++)
		if (flags & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "|" : "", flag_names[i]);
	if (flags >> NFLAGS && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%s0x%x", off ? "|" : "", flags >> NFLAGS << NFLAGS);
	if (!off)
		snprintf(buf, len, "0");
	return buf;
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
		out->has_inv = op->verbs.with_inv;
		if (ud)
			out->byte_len += M_UD_GRH;
	}
	out->imm = out->has_imm ? op->verbs.imm_data : 0;
	out->inv = out->has_inv ? op->verbs.rkey : 0;
	out->flags = (out->has_imm ? M_WCF_WITH_IMM : 0u) | (out->has_inv ? M_WCF_WITH_INV : 0u);
}

/* The flags set s allows, into *must (in every outcome) and *may (in some only); its deciding deviation in *dev. */
static void set_flags(const struct m_set *s, uint32_t *must, uint32_t *may, uint8_t *dev)
{
	uint32_t all = ~0u, any = 0;

	for (unsigned i = 0; i < s->n; i++) {
		all &= (uint32_t)s->o[i].code;
		any |= (uint32_t)s->o[i].code;
	}
	*must |= s->n ? all : 0;
	*may |= s->n ? any & ~all : 0;
	if (s->dev)
		*dev = s->dev;
}

int m_recv_wc_expect(const struct model *m, const struct m_profile *p, const struct m_pred *pred,
		     struct m_recv_wc *out)
{
	const struct m_op *op = &pred->op;
	const struct m_node *nd = &m->node[op->node];
	int ud;
	struct m_set s;

	if (op->kind != M_OP_SEND && op->kind != M_OP_WRITE_IMM)
		return -EINVAL;
	ud = op->obj >= 0 && op->obj < nd->nqp && nd->qp[op->obj].type == M_QPT_UD;
	m_recv_wc_of(op, ud, out);
	/* RECV-WC-1: the flags besides the immediate's and the invalidate's, then the invalidate's own */
	if (ud)
		s = DECIDE(p, RECV_WC_1, PART_WCF_UD, { M_OUT_OK, M_WCF_GRH }, { M_OUT_OK, M_WCF_GRH | M_WCF_IP_CSUM_OK });
	else
		s = DECIDE(p, RECV_WC_1, PART_STEP, { M_OUT_OK, 0 });
	set_flags(&s, &out->flags, &out->flags_may, &out->dev);
	if (out->has_inv) {
		out->flags &= ~(uint32_t)M_WCF_WITH_INV;
		s = DECIDE(p, RECV_WC_1, PART_WCF_INV, { M_OUT_OK, M_WCF_WITH_INV });
		set_flags(&s, &out->flags, &out->flags_may, &out->dev);
	}
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
	else if (seen->flags_known && (seen->flags & ~want->flags_may) != want->flags) {
		char w[64], may[64], r[64];

		m_wc_flags_str(want->flags, w, sizeof(w));
		m_wc_flags_str(want->flags_may, may, sizeof(may));
		snprintf(why, len, "wc_flags %s%s%s%s, real %s", w, want->flags_may ? " (" : "",
			 want->flags_may ? may : "", want->flags_may ? " either way)" : "",
			 m_wc_flags_str(seen->flags, r, sizeof(r)));
	} else if (seen->flags_known && want->has_inv && !seen->has_imm && want->inv != seen->inv)
		snprintf(why, len, "invalidated_rkey 0x%x, real 0x%x", want->inv, seen->inv);
	else
		return 0;
	return -1;
}

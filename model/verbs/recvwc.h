/*
 * recvwc.h — what a successful receive completion reports besides its
 * status (struct ibv_wc): the opcode, byte_len and the immediate data. The
 * model predicts them from the request that consumed the receive (recvwc.c);
 * the run compares them with what the peer's completion really says.
 */
#ifndef RDMACHECK_MODEL_VERBS_RECVWC_H
#define RDMACHECK_MODEL_VERBS_RECVWC_H

#include <stddef.h>
#include <stdint.h>

struct model;
struct m_pred;

/* The opcodes of enum ibv_wc_opcode a scenario's WRs give (any other: OTHER). */
enum m_wc_opcode {
	M_WC_OPC_RECV, M_WC_OPC_RECV_RDMA_WITH_IMM, M_WC_OPC_SEND, M_WC_OPC_RDMA_WRITE, M_WC_OPC_RDMA_READ,
	M_WC_OPC_COMP_SWAP, M_WC_OPC_FETCH_ADD, M_WC_OPC_BIND_MW, M_WC_OPC_LOCAL_INV, M_WC_OPC_OTHER
};

struct m_recv_wc {
	uint8_t known;    /* the engine reported these fields (the model's own engine does not) */
	uint8_t opcode;   /* enum m_wc_opcode */
	uint8_t has_imm;  /* IBV_WC_WITH_IMM is set */
	uint32_t imm;     /* with has_imm: the immediate data, in host order */
	uint32_t byte_len;
};

/* "RECV", "RDMA_WRITE", … (the IBV_WC_ name without its prefix); parse: 0, or -1 for another word. */
const char *m_wc_opcode_str(enum m_wc_opcode o);
int m_wc_opcode_parse(const char *s, enum m_wc_opcode *out);

/*
 * The successful receive completion the request of pred (a SEND, a WRITE with
 * immediate) gives the receive it consumes, into *out (known 1). Returns 0, or
 * -EINVAL when pred's operation consumes no receive.
 */
int m_recv_wc_expect(const struct model *m, const struct m_pred *pred, struct m_recv_wc *out);

/*
 * The opcode of the successful completion of a send-queue WR of kind k (an
 * enum m_op_kind: a WRITE with immediate completes as RDMA_WRITE, a SEND with
 * immediate or invalidate as SEND), or -1 for an operation that is no such WR.
 */
int m_send_wc_opcode(unsigned k);

/*
 * Whether seen is what want predicts. Returns 0 if so; else -1, and the
 * difference ("byte_len 96, real 100") in why (len bytes).
 */
int m_recv_wc_check(const struct m_recv_wc *want, const struct m_recv_wc *seen, char *why, size_t len);

#endif

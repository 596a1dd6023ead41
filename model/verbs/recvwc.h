/*
 * recvwc.h — what a successful receive completion reports besides its
 * status (struct ibv_wc): the opcode, byte_len and the immediate data. The
 * model predicts them from the request that consumed the receive (recvwc.c);
 * the run compares them with what the peer's completion really says.
 */
#ifndef RDMACHECK_MODEL_VERBS_RECVWC_H
#define RDMACHECK_MODEL_VERBS_RECVWC_H

#include "model/verbs/cq.h" /* enum m_wc_opcode */

#include <stddef.h>
#include <stdint.h>

struct model;
struct m_op;
struct m_pred;

struct m_recv_wc {
	uint8_t known;    /* the engine reported these fields (the model's own engine does not) */
	uint8_t opcode;   /* enum m_wc_opcode */
	uint8_t has_imm;  /* IBV_WC_WITH_IMM is set */
	uint32_t imm;     /* with has_imm: the immediate data, in host order */
	uint32_t byte_len;
};

/*
 * The successful receive completion that op (a SEND or a WRITE with
 * immediate; ud: on a UD QP, the GRH's 40 bytes ahead of a SEND's) gives the
 * receive it consumes, into *out (known 1). The one computation of these
 * fields: the model's CQs (cq.c) and the peer's judged completion use it.
 */
void m_recv_wc_of(const struct m_op *op, int ud, struct m_recv_wc *out);

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

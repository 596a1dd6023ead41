/*
 * recvwc.h — what a successful receive completion reports besides its
 * status (struct ibv_wc): the opcode, byte_len, the immediate data, wc_flags
 * and invalidated_rkey. The model predicts them from the request that
 * consumed the receive (recvwc.c); the run compares them with what the
 * peer's completion really says.
 */
#ifndef RDMACHECK_MODEL_VERBS_RECVWC_H
#define RDMACHECK_MODEL_VERBS_RECVWC_H

#include "model/verbs/cq.h" /* enum m_wc_opcode */

#include <stddef.h>
#include <stdint.h>

struct model;
struct m_op;
struct m_pred;

/* The bits of ibv_wc.wc_flags the model speaks of, with libibverbs' values (verbs.h enum ibv_wc_flags). */
enum m_wc_flag {
	M_WCF_GRH = 1 << 0,
	M_WCF_WITH_IMM = 1 << 1,
	M_WCF_IP_CSUM_OK = 1 << 2,
	M_WCF_WITH_INV = 1 << 3,
};
/* flags as "GRH|WITH_IMM" ("0" for none; unknown bits in hex) into buf (len bytes). Returns buf. */
const char *m_wc_flags_str(uint32_t flags, char *buf, size_t len);

struct m_recv_wc {
	uint8_t known;    /* the engine reported these fields (the model's own engine does not) */
	uint8_t opcode;   /* enum m_wc_opcode */
	uint8_t has_imm;  /* IBV_WC_WITH_IMM is set */
	uint32_t imm;     /* with has_imm: the immediate data, in host order */
	uint32_t byte_len;
	uint8_t flags_known; /* reported: wc_flags, and inv unless has_imm (a record made before them: 0) */
	uint32_t flags;   /* wc_flags (enum m_wc_flag bits); a prediction: the bits that are set */
	uint32_t flags_may; /* a prediction: the bits that may be set or not (the set of wc_flags allowed) */
	uint8_t has_inv;  /* a prediction: a SEND_WITH_INV's, whose invalidated_rkey is judged */
	uint32_t inv;     /* invalidated_rkey (a prediction: the rkey the WR named, on the engine that ran it) */
	uint8_t dev;      /* a prediction: 1 + the index in the profile's table of the deviation that decided
	                     the flags (RECV-WC-1), 0 the specification's */
};

/*
 * The successful receive completion that op (a SEND or a WRITE with
 * immediate; ud: on a UD QP, the GRH's 40 bytes ahead of a SEND's) gives the
 * receive it consumes, into *out (known 1), of wc_flags the immediate's and
 * the invalidate's bits only (the others: m_recv_wc_expect, as a profile
 * decides them). The one computation of these fields: the model's CQs
 * (cq.c) and the peer's judged completion use it.
 */
void m_recv_wc_of(const struct m_op *op, int ud, struct m_recv_wc *out);

/*
 * The successful receive completion the request of pred (a SEND, a WRITE with
 * immediate) gives the receive it consumes, into *out (known 1), its wc_flags
 * as profile p decides them (RECV-WC-1; NULL: the specification's). Returns 0,
 * or -EINVAL when pred's operation consumes no receive.
 */
struct m_profile;
int m_recv_wc_expect(const struct model *m, const struct m_profile *p, const struct m_pred *pred,
		     struct m_recv_wc *out);

/*
 * The opcode of the successful completion of a send-queue WR of kind k (an
 * enum m_op_kind: a WRITE with immediate completes as RDMA_WRITE, a SEND with
 * immediate or invalidate as SEND), or -1 for an operation that is no such WR.
 */
int m_send_wc_opcode(unsigned k);

/*
 * Whether seen is what want predicts (wc_flags and invalidated_rkey only when
 * seen reports them). Returns 0 if so; else -1, and the difference
 * ("byte_len 96, real 100") in why (len bytes).
 */
int m_recv_wc_check(const struct m_recv_wc *want, const struct m_recv_wc *seen, char *why, size_t len);

#endif

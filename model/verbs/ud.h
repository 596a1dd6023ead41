/*
 * ud.h — the verbs state of UD QPs, QP stop states and shared receive
 * queues (model/verbs/ud.c, qpstate.c, srq.c): address handles, each QP's
 * Q_Key, SRQs and which QP uses which, kept per node in
 * struct m_node.ud (model/state.def). Included by model/model.h through
 * model/families.h.
 */
#ifndef RDMACHECK_MODEL_VERBS_UD_H
#define RDMACHECK_MODEL_VERBS_UD_H

#include <stdint.h>

#define M_MAX_AH 16
#define M_UD_GRH 40          /* a UD receive buffer starts with the 40-byte GRH (UD-SEND-1) */
#define M_UD_MTU_MIN 256     /* the path MTU of a UD QP is the port's active MTU: at least */
#define M_UD_MTU_MAX 4096    /* IBV_MTU_256 and at most IBV_MTU_4096 (UD-SEND-2) */
#define M_QKEY_DEFAULT 0x11111111u /* the Q_Key of modify_qp state=INIT and of a UD send without qkey= */

/*
 * The attributes of ibv_modify_qp's mask that a transition may require
 * (the IBV_QP_* bits; modify_qp omit= leaves them out): QP-STATE-4.
 */
enum m_qp_attr {
	M_QPA_ACCESS_FLAGS = 1u << 3, M_QPA_PKEY_INDEX = 1u << 4, M_QPA_PORT = 1u << 5,
	M_QPA_QKEY = 1u << 6, M_QPA_AV = 1u << 7, M_QPA_PATH_MTU = 1u << 8, M_QPA_TIMEOUT = 1u << 9,
	M_QPA_RETRY_CNT = 1u << 10, M_QPA_RNR_RETRY = 1u << 11, M_QPA_RQ_PSN = 1u << 12,
	M_QPA_MAX_QP_RD_ATOMIC = 1u << 13, M_QPA_MIN_RNR_TIMER = 1u << 15, M_QPA_SQ_PSN = 1u << 16,
	M_QPA_MAX_DEST_RD_ATOMIC = 1u << 17, M_QPA_DEST_QPN = 1u << 20,
};

/* An address handle: the PD it holds (PD-3) and the node whose port it addresses. */
struct m_ah { uint8_t live, ever, node; int16_t pd; };

#define M_MAX_SRQ 4
/* A shared receive queue: its PD (PD-3), depth, the QPs using it (SRQ-1), its receives. */
struct m_srq {
	uint8_t live, ever, max_recv, nrecv, nqp;
	uint8_t limit;       /* srq_limit while armed, 0 disarmed (SRQ-MOD-1, SRQ-MOD-2) */
	int16_t pd;
	struct m_recv recv[M_MAX_RECV];
};

struct m_ud_node {
	uint8_t nah;                 /* handles given out so far (never reused) */
	struct m_ah ah[M_MAX_AH];
	uint32_t qkey[M_MAX_QP];     /* per QP handle: the Q_Key set at INIT */
	uint8_t nsrq;
	struct m_srq srq[M_MAX_SRQ];
	uint8_t qp_srq[M_MAX_QP];    /* per QP handle: its SRQ's handle + 1, 0 none (SRQ-2) */
};

#endif

/*
 * qpex.h — QPs made by ibv_create_qp_ex (create_qp ex=yes): the
 * send_ops_flags a scenario may ask for (IBV_QP_EX_WITH_*, the same bits)
 * and which of them each QP type carries (QP-EX-1).
 */
#ifndef RDMACHECK_MODEL_VERBS_QPEX_H
#define RDMACHECK_MODEL_VERBS_QPEX_H

#define M_SOPS_RDMA_WRITE (1u << 0)
#define M_SOPS_RDMA_WRITE_WITH_IMM (1u << 1)
#define M_SOPS_SEND (1u << 2)
#define M_SOPS_SEND_WITH_IMM (1u << 3)
#define M_SOPS_RDMA_READ (1u << 4)
#define M_SOPS_ATOMIC_CMP_AND_SWP (1u << 5)
#define M_SOPS_ATOMIC_FETCH_AND_ADD (1u << 6)
#define M_SOPS_LOCAL_INV (1u << 7)
#define M_SOPS_BIND_MW (1u << 8)
#define M_SOPS_SEND_WITH_INV (1u << 9)
#define M_SOPS_TSO (1u << 10)          /* raw packet QPs only */
#define M_SOPS_FLUSH (1u << 11)
#define M_SOPS_ATOMIC_WRITE (1u << 12)
#define M_SOPS_ALL 0x1fffu

#endif

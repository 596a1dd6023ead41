/*
 * agent_wrpost.h — a send WR posted through the ibv_wr_* API of an extended
 * QP (wr=yes, ibv_wr_post(3)) rather than ibv_post_send. Agent side only.
 */
#ifndef RDMACHECK_API_VERBS_AGENT_WRPOST_H
#define RDMACHECK_API_VERBS_AGENT_WRPOST_H

#include <infiniband/verbs.h>

/*
 * Post the one WR wr (its next is ignored) on qp as ibv_wr_start, wr_id and
 * wr_flags, the builder of wr->opcode (ibv_wr_send, _send_imm, _send_inv,
 * _rdma_write, _rdma_write_imm, _rdma_read, _atomic_cmp_swp,
 * _atomic_fetch_add, _bind_mw with wr->bind_mw, _local_inv), then
 * ibv_wr_set_ud_addr for a UD QP, ibv_wr_set_sge for one SGE or
 * ibv_wr_set_sge_list for more (none without SGEs, nor for a bind or a
 * local invalidation; the language posts no inline WR this way) and
 * ibv_wr_complete, or, when abandon is set, ibv_wr_abort (nothing posted).
 * Returns what ibv_wr_complete returned (0 or an errno; 0 after
 * ibv_wr_abort), or EOPNOTSUPP without starting when qp is no extended QP
 * or its provider left that builder NULL (it was not in the QP's
 * send_ops_flags).
 */
int agent_wr_post(struct ibv_qp *qp, const struct ibv_send_wr *wr, int abandon);

#endif

/*
 * agent_qpex.h — the agent's extended QPs (create_qp ex=1): made by
 * ibv_create_qp_ex; their posts are ibv_post_send's, as any QP's, or with
 * wr=yes the ibv_wr_* API's (agent_wrpost.h).
 */
#ifndef RDMACHECK_API_VERBS_AGENT_QPEX_H
#define RDMACHECK_API_VERBS_AGENT_QPEX_H

#include <infiniband/verbs.h>
#include <stdint.h>

/*
 * ibv_create_qp_ex on pd's context with the attributes of qia, comp_mask
 * IBV_QP_INIT_ATTR_PD, and IBV_QP_INIT_ATTR_SEND_OPS_FLAGS with send_ops
 * when send_ops is not 0. Returns the QP, or NULL with errno set as
 * libibverbs left it.
 */
struct ibv_qp *agent_qpex_create(struct ibv_pd *pd, const struct ibv_qp_init_attr *qia, uint64_t send_ops);

#endif

/*
 * agent_cqex.h — the agent's extended CQs (create_cq ex=1): made by
 * ibv_create_cq_ex, their completions taken with ibv_start_poll /
 * ibv_end_poll and the ibv_wc_read_* functions wc_flags asked for.
 */
#ifndef RDMACHECK_API_VERBS_AGENT_CQEX_H
#define RDMACHECK_API_VERBS_AGENT_CQEX_H

#include <infiniband/verbs.h>
#include <stdint.h>

/*
 * ibv_create_cq_ex on ctx with cqe depth, cq_context cq_ctx, channel ch (NULL:
 * none), comp_vector vec, wc_flags and flags (comp_mask
 * IBV_CQ_INIT_ATTR_MASK_FLAGS when flags is not 0). Returns the CQ, or NULL
 * with errno set as libibverbs left it.
 */
struct ibv_cq_ex *agent_cqex_create(struct ibv_context *ctx, int depth, void *cq_ctx, struct ibv_comp_channel *ch,
				    int vec, uint64_t wc_flags, uint32_t flags);
/*
 * Take the oldest completion of extended CQ cq, made with wc_flags, into *wc
 * (a batch of one: start_poll, the reads, end_poll): wr_id, status, opcode,
 * vendor_err and wc_flags always, byte_len, imm_data, qp_num, src_qp, slid, sl
 * and dlid_path_bits only when wc_flags asked for them (else 0). Returns 1, 0
 * when the CQ holds none, or -EIO when start_poll fails otherwise.
 */
int agent_cqex_poll1(struct ibv_cq_ex *cq, uint64_t wc_flags, struct ibv_wc *wc);

#endif

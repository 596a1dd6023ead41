/*
 * agent_cqex.c — extended CQs (agent_cqex.h): ibv_create_cq_ex, and one
 * completion taken with ibv_start_poll / ibv_end_poll. One completion per
 * batch: rdma-core 44's rxe (Debian 12) advances the consumer index and
 * unlocks again in end_poll after a next_poll that found the CQ empty
 * (fixed later: "rxe: fix completion queue consumer index overrun", "rxe: Fix
 * double unlock in cq_ex polling"), so the agent never asks next_poll past
 * the last completion.
 */
#include "harness/api/verbs/agent_cqex.h"

#include <errno.h>

struct ibv_cq_ex *agent_cqex_create(struct ibv_context *ctx, int depth, void *cq_ctx, struct ibv_comp_channel *ch,
				    int vec, uint64_t wc_flags, uint32_t flags)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = (uint32_t)depth,
		.cq_context = cq_ctx,
		.channel = ch,
		.comp_vector = (uint32_t)vec,
		.wc_flags = wc_flags,
		.comp_mask = flags ? IBV_CQ_INIT_ATTR_MASK_FLAGS : 0,
		.flags = flags,
	};

	return ibv_create_cq_ex(ctx, &attr);
}

/* The fields wc_flags asked for, of the completion start_poll points at. */
static void read_asked(struct ibv_cq_ex *cq, uint64_t wc_flags, struct ibv_wc *wc)
{
	if (wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		wc->byte_len = ibv_wc_read_byte_len(cq);
	if ((wc_flags & IBV_WC_EX_WITH_IMM) && (wc->wc_flags & IBV_WC_WITH_IMM))
		wc->imm_data = ibv_wc_read_imm_data(cq);
	else if ((wc_flags & IBV_WC_EX_WITH_IMM) && (wc->wc_flags & IBV_WC_WITH_INV))
		wc->invalidated_rkey = ibv_wc_read_invalidated_rkey(cq);
	if (wc_flags & IBV_WC_EX_WITH_QP_NUM)
		wc->qp_num = ibv_wc_read_qp_num(cq);
	if (wc_flags & IBV_WC_EX_WITH_SRC_QP)
		wc->src_qp = ibv_wc_read_src_qp(cq);
	if (wc_flags & IBV_WC_EX_WITH_SLID)
		wc->slid = (uint16_t)ibv_wc_read_slid(cq);
	if (wc_flags & IBV_WC_EX_WITH_SL)
		wc->sl = ibv_wc_read_sl(cq);
	if (wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		wc->dlid_path_bits = ibv_wc_read_dlid_path_bits(cq);
}

int agent_cqex_poll1(struct ibv_cq_ex *cq, uint64_t wc_flags, struct ibv_wc *wc)
{
	struct ibv_poll_cq_attr attr = { 0 };
	int rc = ibv_start_poll(cq, &attr);

	if (rc == ENOENT)
		return 0;
	if (rc)
		return -EIO; /* start_poll failed: end_poll is not called (ibv_create_cq_ex(3)) */
	*wc = (struct ibv_wc){ .wr_id = cq->wr_id, .status = cq->status, .opcode = ibv_wc_read_opcode(cq),
			       .vendor_err = ibv_wc_read_vendor_err(cq), .wc_flags = ibv_wc_read_wc_flags(cq) };
	read_asked(cq, wc_flags, wc);
	ibv_end_poll(cq);
	return 1;
}

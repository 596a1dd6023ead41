/*
 * profile.c — the built-in profiles. "generic" is the IBTA / man-page reading
 * (no deviations). "rxe" is Linux soft-RoCE: each deviation names its rule,
 * the decision it changes (part), the kernel range and where it was seen.
 * "F" citations are the catalog's section F (observed on Debian 6.1.0-56 under
 * QEMU); "KRXE" ones were read in the kernel source.
 */
#include "model/internal.h"
#include "model/mrapi/mrapi.h"
#include "model/verbs/recvwc.h"

#include <string.h>
#include <threads.h>

#define WC(s) { M_OUT_WC, M_WC_##s }
#define ERRNO(e) { M_OUT_ERRNO, e }
#define WCF(f) { M_OUT_OK, M_WCF_##f } /* RECV-WC-1: wc_flags bits (model/verbs/recvwc.h) */
#define OK_ { M_OUT_OK, 0 }
#define CRASH_ { M_OUT_CRASH, 0 }
#define HANG_ { M_OUT_HANG, 0 }
#define DATR(e) { M_OUT_DAT, M_DAT_##e }
#define DTOS(e) { M_OUT_DTO, M_DTO_##e }
#define ANY_KERNEL 0, KVER(99, 0)
#define KERNEL_RXE NULL
#define LIBRPMA "librpma 1.2.0"
#define LIBDAPL "libdapl2 2.1.10"

static const struct m_deviation rxe_dev[] = {
	/* ---- libdapl2 2.1.10 (catalog C, G): entries with component LIBDAPL ---- */
	{ M_RULE_DAT_LMR_3, PART_STEP, ANY_KERNEL, M_DEV_NARROW, 1, { DATR(INSUFFICIENT_RESOURCES) },
	  "G: REMOTE_WRITE without LOCAL_WRITE gives DAT_INSUFFICIENT_RESOURCES; DAPL dapls_ib_mr_register converts "
	  "every ibv_reg_mr failure as ENOMEM", LIBDAPL },
	{ M_RULE_DAT_LMR_7, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { DATR(NOT_IMPLEMENTED) },
	  "G: DAT_MEM_TYPE_LMR (LMR over an LMR) gives DAT_NOT_IMPLEMENTED; DAPL mem.c dapls_ib_mr_register_shared "
	  "is a stub", LIBDAPL },
	{ M_RULE_DAT_RMR_1, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { DATR(INSUFFICIENT_RESOURCES) },
	  "G: dat_rmr_create gives DAT_INSUFFICIENT_RESOURCES / DAT_RESOURCE_MEMORY_REGION; DAPL mem.c "
	  "dapls_ib_mw_alloc is a stub (NOT_IMPLEMENTED), dapl_rmr_create converts it", LIBDAPL },
	{ M_RULE_DAT_FREE_2, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { DTOS(ERR_LOCAL_EP) },
	  "observed (rdmacheck corpus, 6.1.0-56): an RDMA write with a freed LMR's lmr_context completes "
	  "DAT_DTO_ERR_LOCAL_EP, not a protection violation: rxe completes a bad lkey LOC_QP_OP_ERR (F, LP-1) and "
	  "DAPL's ib_status_map maps that to DAT_DTO_ERR_LOCAL_EP", LIBDAPL },
	{ M_RULE_DAT_LMR_6, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { DATR(INSUFFICIENT_RESOURCES) },
	  "DAPL dapl_lmr_create: VN_MEM_SHARED_VIRTUAL_SUPPORT is 1, so dapli_lmr_create_shared runs and converts "
	  "the NOT_IMPLEMENTED of the dapls_ib_mr_register_shared stub into DAT_INSUFFICIENT_RESOURCES / "
	  "DAT_RESOURCE_MEMORY_REGION", LIBDAPL },
	/* ---- the kernel provider, rxe ---- */
	{ M_RULE_RA_QP_1, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(REM_INV_REQ_ERR) },
	  "F: responder QP lacking the qp_access_flags bit gives REM_INV_REQ_ERR; KRXE check_op_valid", KERNEL_RXE },
	{ M_RULE_LP_1, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(LOC_QP_OP_ERR) },
	  "F: bad lkey on the requester gives LOC_QP_OP_ERR (not LOC_PROT_ERR); KRXE copy_data -EINVAL (a bad, stale "
	  "or other PD's lkey: lookup_mr fails); seen on 6.1.0-57 in verbs/021, 082, 129, 133 (2026-12-04)", KERNEL_RXE },
	{ M_RULE_LP_1, PART_RANGE, 0, KVER(6, 1), M_DEV_REPLACE, 1, { WC(LOC_PROT_ERR) },
	  "observed (rdmacheck oracle self-test, 6.1.0-56): a send SGE reaching past its MR completes "
	  "LOC_PROT_ERR (old mr_check_range returns -EFAULT; newer rxe returns -EINVAL: LOC_QP_OP_ERR)",
	  KERNEL_RXE },
	{ M_RULE_LP_2, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "KRXE copy_data: `if (sge->length) lookup_mr` (a zero-length SGE is skipped)", KERNEL_RXE },
	{ M_RULE_SRQ_3, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "KRXE 6.1 send_data_in: copy_data(qp->pd, ...) checks a receive's SGE against the QP's PD, an SRQ's "
	  "receive too: an MR of the QP's PD lands (rdma-unit-test SrqRecvMrSrqMismatch expects REM_OP_ERR)",
	  KERNEL_RXE },
	{ M_RULE_SRQ_3, PART_SRQ_PD, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(REM_OP_ERR) },
	  "KRXE 6.1 send_data_in: copy_data(qp->pd, ...): an SRQ receive's MR of the SRQ's PD, not the QP's, is "
	  "refused (MALFORMED_WQE, LP-4)", KERNEL_RXE },
	{ M_RULE_LP_4, PART_PEER_RECV, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(LOC_QP_OP_ERR) },
	  "F: receive with a bad lkey: responder LOC_QP_OP_ERR; KRXE RESPST_ERR_MALFORMED_WQE", KERNEL_RXE },
	{ M_RULE_LP_5, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(REM_OP_ERR) },
	  "F: 64-byte send into a 4-byte receive: requester REM_OP_ERR", KERNEL_RXE },
	{ M_RULE_LP_5, PART_PEER_RECV, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(LOC_QP_OP_ERR) },
	  "F: 64-byte send into a 4-byte receive: responder LOC_QP_OP_ERR", KERNEL_RXE },
	{ M_RULE_MR_DEREG_2, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { ERRNO(EINVAL) },
	  "F: dereg of an MR with a bound type-1 window gives EINVAL; KRXE rxe_dereg_mr", KERNEL_RXE },
	{ M_RULE_MW_ACC_2, PART_STEP, ANY_KERNEL, M_DEV_WIDEN, 1, { WC(SUCCESS) },
	  "KRXE check_rkey: mr_check_range on the MR only, no window check (src; F saw REM_ACCESS_ERR past a window that ended with its MR)", KERNEL_RXE },
	{ M_RULE_MR_REREG_7, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { ERRNO(EOPNOTSUPP) },
	  "F: ibv_rereg_mr (any flags) not supported on 6.1 (EOPNOTSUPP); KRXE rxe_rereg_user_mr", KERNEL_RXE },
	{ M_RULE_MR_REREG_9, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { ERRNO(EOPNOTSUPP) },
	  "F: ibv_rereg_mr (any flags) not supported on 6.1 (EOPNOTSUPP)", KERNEL_RXE },
	{ M_RULE_MR_REREG_5, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { ERRNO(EOPNOTSUPP) },
	  "observed (rdmacheck corpus, 6.1.0-56): rereg with flags 0 is EOPNOTSUPP: rxe has no rereg_user_mr, so "
	  "uverbs refuses the command (UAPI_DEF_METHOD_NEEDS_FN) before checking the flags", KERNEL_RXE },
	{ M_RULE_MR_REREG_6, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { ERRNO(EOPNOTSUPP) },
	  "observed (rdmacheck corpus, 6.1.0-56): rereg CHANGE_ACCESS to an invalid access is EOPNOTSUPP: the "
	  "command is refused before ib_check_mr_access", KERNEL_RXE },
	{ M_RULE_MR_MAP_2, PART_PROT_NONE, 0, KVER(6, 1), M_DEV_REPLACE, 1, { OK_ },
	  "observed (rdmacheck corpus, 6.1.0-56; catalog G: READ_SRC on PROT_NONE pages registers): before 6.2 "
	  "ib_umem_get pins non-writable registrations with FOLL_FORCE, which reaches PROT_NONE pages", KERNEL_RXE },
	{ M_RULE_RA_LEN_1, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(REM_ACCESS_ERR) },
	  "observed (rdmacheck corpus, 6.1.0-56): a READ of 2^31+1 bytes completes REM_ACCESS_ERR: 6.1's "
	  "check_length does not test the RETH length, so the rkey/bounds check refuses it", KERNEL_RXE },
	{ M_RULE_MW_INV_2, PART_REMOTE, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "observed (rdmacheck corpus, 6.1.0-56): SEND_WITH_INV naming a type-1 window: the requester completes "
	  "SUCCESS and stays RTS; the responder completes the receive REM_INV_REQ_ERR and goes to ERR "
	  "(KRXE do_complete: the invalidation fails after the SEND was acknowledged, class J)", KERNEL_RXE },
	{ M_RULE_MW_INV_4, PART_REMOTE, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "observed (rdmacheck corpus, 6.1.0-56): SEND_WITH_INV naming an ordinary MR's rkey: requester SUCCESS, "
	  "responder receive REM_INV_REQ_ERR and ERR (rxe_invalidate_mr refuses a non-fast-reg MR after the ACK)", KERNEL_RXE },
	{ M_RULE_MW_INV_3, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(LOC_QP_OP_ERR) },
	  "KRXE rxe_do_local_ops: invalidate failure completes LOC_QP_OP_ERR", KERNEL_RXE },
	{ M_RULE_MW_INV_3, PART_UNBOUND_T2, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { CRASH_ },
	  "F: LOCAL_INV of an unbound type-2 window panics the 6.1 guest (NULL dereference in rxe_invalidate_mw), 3 of 3 tries", KERNEL_RXE },
	{ M_RULE_MW_INV_2, PART_UNBOUND_T2, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { CRASH_ },
	  "F: SEND_WITH_INV after LOCAL_INV (window not bound) panics the 6.1 guest", KERNEL_RXE },
	{ M_RULE_MW_INV_3, PART_KEPT_T2, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { CRASH_ },
	  "observed (rdmacheck explore triage, 6.1.0-56): a LOCAL_INV of an unbound type-2 window posted below RTS "
	  "is kept (QP-STATE-1) and panics the guest when the first post at RTS rings the doorbell (the NULL "
	  "dereference in rxe_invalidate_mw of MW-INV-3's unbound type-2 case); type 1: WR_FLUSH_ERR only", KERNEL_RXE },
	{ M_RULE_MW_INV_4, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(LOC_QP_OP_ERR) },
	  "KRXE rxe_invalidate_mr (type != MEM_REG: EINVAL) -> LOC_QP_OP_ERR", KERNEL_RXE },
	{ M_RULE_MW_INV_5, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "observed (rdmacheck corpus, 6.1.0-56): a LOCAL_INV posted on, or a SEND_WITH_INV arriving on, another "
	  "QP of the window's PD invalidates it: KRXE rxe_check_invalidate_mw checks the state and the type, never mw->qp",
	  KERNEL_RXE },
	{ M_RULE_MW_INV_5, PART_REMOTE, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "observed (rdmacheck corpus, 6.1.0-56): SEND_WITH_INV arriving on another QP than the window's "
	  "invalidates it and the receive completes SUCCESS (rxe_check_invalidate_mw: no QP check)", KERNEL_RXE },
	{ M_RULE_RA_ATOM_1, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { ERRNO(EINVAL) },
	  "F: misaligned CAS/FADD via ibv_post_send: post returns EINVAL; RXEU validate_send_wr", KERNEL_RXE },
	{ M_RULE_RA_ATOM_2, PART_RANGE, ANY_KERNEL, M_DEV_REPLACE, 1, { OK_ },
	  "observed (rdmacheck verbs/261, 6.1.0-56, rdma-core 44): a CMP_SWP whose local SGE is 9 bytes completes "
	  "SUCCESS and swaps: RXEU validate_send_wr refuses an atomic SGE shorter than 8 bytes only (catalog "
	  "RA-ATOM-2: larger totals accepted); rdma-unit-test CompareSwapInvalidSize expects LOC_LEN_ERR", KERNEL_RXE },
	{ M_RULE_RA_ERR_5, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WC(WR_FLUSH_ERR) },
	  "F: after a remote error the next request completes WR_FLUSH_ERR; KRXE rxe_requester (the send queue "
	  "only: a receive posted in ERR is PART_RECV_Q, ibv_post_recv answered ok on 6.1.0-56)", KERNEL_RXE },
	{ M_RULE_RA_ERR_5, PART_RECV_FLUSH, ANY_KERNEL, M_DEV_REPLACE, 1, { OK_ },
	  "observed (verbs/173, 6.1.0-56 with rdma-core 44): a receive posted on a QP in ERR gives no WR_FLUSH_ERR "
	  "completion by the next poll_cq: RXEU rxe_post_recv only writes the shared queue (no doorbell), so the "
	  "responder task that flushes it in ERR (KRXE rxe_responder) does not run again; the receive stays posted",
	  KERNEL_RXE },
	{ M_RULE_QP_STATE_1, PART_KEPT, ANY_KERNEL, M_DEV_WIDEN, 1, { WC(WR_FLUSH_ERR) },
	  "observed (rdmacheck explore, 6.1.0-56): a send WR posted below RTS is EINVAL but still runs later: "
	  "RXEU rxe_post_send queues the WQE (advance_producer) before the doorbell (post_send_db), which "
	  "KRXE rxe_post_send refuses below RTS; the WQE stays and runs at the first doorbell once the QP is "
	  "RTS, so a kept WR that fails moves the QP to ERR and that post completes WR_FLUSH_ERR (a kept WR "
	  "that succeeds takes effect unseen by the model)", KERNEL_RXE },
	{ M_RULE_LIM_1, PART_STEP, ANY_KERNEL, M_DEV_NARROW, 1, { ERRNO(EINVAL) },
	  "KRXE rxe_qp_chk_cap, rxe_srq_chk_init, rxe_cq_chk_attr: a cap, max_wr, max_sge or cqe past the "
	  "device's attr (max_qp_wr, max_send_sge, max_recv_sge, max_srq_wr, max_srq_sge, max_cqe) returns -EINVAL", KERNEL_RXE },
	{ M_RULE_LIM_2, PART_LIM_SRQ, ANY_KERNEL, M_DEV_WIDEN, 1, { ERRNO(ENOMEM) },
	  "observed (rdmacheck verbs/556, 6.1.0-57 under QEMU, 1 GiB guest, 2026-12-02): create_srq at "
	  "max_srq_wr (1048576) and max_srq_sge (27) is ENOMEM, 'vmalloc error: size 1073742208, exceeds total "
	  "pages' from rxe_queue_init (KRXE rxe_srq_from_init): the queue of max_srq_wr WQEs of max_srq_sge SGEs "
	  "is one vmalloc of 1 GiB, which a machine with less memory cannot give (either limit alone is made: "
	  "verbs/559)", KERNEL_RXE },
	{ M_RULE_QP_STATE_2, PART_STEP, ANY_KERNEL, M_DEV_NARROW, 1, { ERRNO(EINVAL) },
	  "observed (rdmacheck explore, 6.1.0-56): modify_qp RESET to ERR gives EINVAL; KRXE rxe_qp_chk_attr calls "
	  "ib_modify_qp_is_ok, whose qp_state_table has no RESET to ERR entry (KCORE verbs.c)", KERNEL_RXE },
	{ M_RULE_RA_WRITE_1, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { OK_ },
	  "G/F: write crossing the end: REM_ACCESS_ERR, no byte written (checked once for the whole length; OK = target unchanged)", KERNEL_RXE },
	{ M_RULE_LP_8, PART_LATER_RNR, KVER(6, 1), KVER(6, 1), M_DEV_WIDEN, 1, { HANG_ },
	  "observed (rdmacheck explore and its triage, verbs/199 and verbs/200, 6.1.0-57, 2026-12-02): an RC SEND "
	  "whose local SGE runs past its MR only after the first packet (8 KiB from a 4 KiB MR), to a peer with no "
	  "receive posted, never completes (rnr_retry 2): no completion in 30 s, three files of three, nor in verbs/200's "
	  "10 s; with rnr_retry 0, "
	  "an SGE inside its MR, a posted receive or a peer in ERR the same SEND ends at once. The RNR NAK's retry "
	  "after the requester failed the later packet (KRXE rxe_requester, rxe_completer: need_retry) is where it "
	  "stays (read, not traced); rdmacheck explore --seed=1 --jobs=4 (2026-12-06): a 4152-byte SEND from byte 8 "
	  "of a 4096-byte MR (the bad byte 4088, the fourth packet at the 1024-byte path MTU connect asks for) "
	  "never ended in 3 cases and completed LOC_PROT_ERR when run alone; SENDs of 2L bytes from an L-byte MR "
	  "at that MTU, twice each (2026-12-06): L 1024 (bad from the second packet) LOC_PROT_ERR, L 2048, 3072 "
	  "and 4096 (from the third, fourth, fifth) never ended", KERNEL_RXE },
	{ M_RULE_MR_KEY_4, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { OK_ },
	  "KRXE rxe_mr_init: a remote-access MR's rkey is its lkey (rkey = access & IB_ACCESS_REMOTE ? lkey : 0), so "
	  "the lkey used as an rkey grants what the rkey grants: observed (rdmacheck explore --seed=1 --stack=vm, "
	  "6.1.0-57, 2026-12-06) an inline 1-byte WRITE with rkey= the target MR's lkey SUCCESS where the model "
	  "said REM_ACCESS_ERR; verbs/651", KERNEL_RXE },
	{ M_RULE_LP_9, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { OK_ },
	  "observed (rdmacheck explore --seed=1, --jobs=4 and 5, 6.1.0-57, 2026-12-06): an inline READ whose SGE "
	  "names a valid lkey is sent as a READ and ends as one would: SUCCESS for zero bytes, REM_INV_REQ_ERR from a "
	  "responder QP without REMOTE_READ, RETRY_EXC_ERR to a peer in ERR, no end at an initiator depth of 0 "
	  "(RA-RES-2): RXEU init_send_wqe copies the inline bytes into wqe->dma.inline_data, which shares its bytes "
	  "with the SGE array (rdma_user_rxe.h rxe_dma_info), for any opcode, and validate_send_wr refuses none",
	  KERNEL_RXE },
	{ M_RULE_LP_9, PART_INLINE_LAND, KVER(6, 1), KVER(6, 1), M_DEV_NARROW, 1, { WC(LOC_PROT_ERR) },
	  "observed (rdmacheck verbs/302, 6.1.0-57): the response of an inline READ of 64 bytes completes "
	  "LOC_PROT_ERR: KRXE rxe_comp do_read copies the payload with copy_data into wqe->dma, whose SGEs are the "
	  "caller's inline bytes (no lkey of an MR), and any copy_data error completes IB_WC_LOC_PROT_ERR",
	  KERNEL_RXE },
	{ M_RULE_RA_RES_2, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { HANG_ },
	  "observed (rdmacheck explore --seed=1 and its triage, verbs/630, 6.1.0-57, 2026-12-04): a READ on an RC QP "
	  "connected with max_rd_atomic=0 never completes (explore's: zero bytes into a 1-byte MR; verbs/630's: 64 "
	  "bytes between valid MRs, a WRITE before it landing): KRXE rxe_qp_from_attr sets the requester's rd_atomic "
	  "credits to max_rd_atomic, and check_init_depth in rxe_requester holds a READ or an atomic until a credit is "
	  "free (the atomic read in the source, not run)", KERNEL_RXE },
	{ M_RULE_UD_SEND_2, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(SUCCESS) },
	  "observed (rdmacheck verbs/156, 6.1.0-56): a 5000-byte UD SEND completes SUCCESS and nothing arrives: "
	  "KRXE rxe_requester fakes a successful send of a UD payload over get_mtu (for UD the port's mtu_cap, "
	  "its active MTU: 1024 on a 1500-byte Ethernet) and emits no packet (IBA C10-93.1.1)", KERNEL_RXE },
	{ M_RULE_UD_SEND_2, PART_RANGE, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 2, { WC(SUCCESS), OK_ },
	  "observed (rdmacheck verbs/156 and verbs/281, 6.1.0-56): KRXE rxe_requester compares a UD payload with "
	  "the port's active MTU (get_mtu: port.mtu_cap), which the model does not know: over it (1100 bytes, "
	  "MTU 1024) the send completes SUCCESS and nothing arrives; within it (1000 bytes) it is sent",
	  KERNEL_RXE },
	{ M_RULE_UD_SEND_3, PART_PEER_RECV, KVER(6, 1), KVER(6, 1), M_DEV_REPLACE, 1, { WC(LOC_QP_OP_ERR) },
	  "observed (rdmacheck verbs/155, 6.1.0-56): a 64-byte UD SEND into a 100-byte receive (GRH + payload do not "
	  "fit): the requester completes SUCCESS, the receive completes LOC_QP_OP_ERR and the responder QP goes to "
	  "ERR (KRXE send_data_in: the copy fails as a malformed WQE, class A)", KERNEL_RXE },
	{ M_RULE_UD_AH_1, PART_STEP, KVER(6, 1), KVER(6, 1), M_DEV_NARROW, 1, { WC(LOC_QP_OP_ERR) },
	  "observed (rdmacheck verbs/157, 6.1.0-56): a UD SEND through an AH of another PD completes LOC_QP_OP_ERR "
	  "(the QP goes to ERR; which rxe check refuses it was not read)", KERNEL_RXE },
	{ M_RULE_RECV_WC_1, PART_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { WCF(GRH) },
	  "KRXE rxe_resp.c do_complete: a user CQ's receive completion starts from wc_flags = IB_WC_GRH on every "
	  "QP type, so an RC or UC receive carries IBV_WC_GRH (ibv_poll_cq(3): valid only for UD QPs; rdma-unit-test "
	  "LoopbackRcQpTest.Send asserts wc_flags 0, its rxe introspection runs no RC test); RXEU rxe_poll_cq copies "
	  "the kernel's CQE as it is", KERNEL_RXE },
	{ M_RULE_RECV_WC_1, PART_WCF_UD, ANY_KERNEL, M_DEV_NARROW, 1, { WCF(GRH) },
	  "KRXE rxe_resp.c do_complete: a user CQ's UD receive completion carries IB_WC_GRH and no checksum flag",
	  KERNEL_RXE },
	{ M_RULE_RECV_WC_1, PART_WCF_INV, ANY_KERNEL, M_DEV_REPLACE, 1, { WCF(IP_CSUM_OK) },
	  "KRXE rxe_resp.c do_complete: a SEND_WITH_INV's receive gets IB_WC_WITH_INVALIDATE, the kernel's 1 << 2 "
	  "(include/rdma/ib_verbs.h), and ex.invalidate_rkey; RXEU rxe_poll_cq copies the CQE as it is, so "
	  "libibverbs reads bit 2 as IBV_WC_IP_CSUM_OK (its IBV_WC_WITH_INV is 1 << 3) and the rkey as "
	  "invalidated_rkey (rdma-unit-test LoopbackRcQpTest.SendWithInvalidate asserts wc_flags IBV_WC_WITH_INV)",
	  KERNEL_RXE },
	{ M_RULE_MW_BIND_4, PART_STEP, ANY_KERNEL, M_DEV_NARROW, 1, { ERRNO(EINVAL) },
	  "observed (rdmacheck verbs/158, 6.1.0-56): bind_mw on a UD QP, type 1 and type 2: EINVAL at the post "
	  "(RXEU validate_send_wr: BIND_MW only on RC and UC)", KERNEL_RXE },
	/* ---- librpma 1.2.0 (catalog B, G): entries with component LIBRPMA ---- */
#define RPMA_E_(e) { M_OUT_RPMA, M_RPMA_E_##e }
	{ M_RULE_RPMA_DESC_3, PART_RPMA_USAGE0, ANY_KERNEL, M_DEV_REPLACE, 1, { RPMA_E_(INVAL) },
	  "G: garbage descriptor bytes are accepted, only usage byte 0 gives RPMA_E_INVAL (the documented "
	  "RPMA_E_NOSUPP is never returned); RPMA src/mr.c rpma_mr_remote_from_descriptor: "
	  "`if (usage == 0) return RPMA_E_INVAL`", LIBRPMA },
	{ M_RULE_RPMA_FLUSH_1, PART_RPMA_FLUSH_TYPE, ANY_KERNEL, M_DEV_REPLACE, 2, { OK_, WC(SUCCESS) },
	  "RPMA src/conn.c rpma_flush (1.2.0): a type that is neither PERSISTENT nor VISIBILITY passes every "
	  "check and the APM READ is posted (rpma_flush(3) says RPMA_E_INVAL; catalog disagreement 12)", LIBRPMA },
#undef RPMA_E_
	/* ---- libmrapi-rdma (lib/mrapi, this project's MRAPI over RDMA; catalog D): where the reference
	 * implementation (ke4harper/MxAPI mca-2.0.3 mrapi, MRAPI_VERSION "FSL 0.9.3.4") and the spec's text
	 * differ and the spec is clear, the model follows the spec (the generic set) and the library gives
	 * the reference's answer, so that programs written for it run unchanged; the profile mca-ref has the
	 * same rows for the reference itself. ---- */
#define LIBMRAPI "libmrapi-rdma 0.2.0"
#define MST(e) { M_OUT_MRAPI, M_MRAPI_##e }
	{ M_RULE_RMEM_RW_4, M_MRAPI_P_STRIDE_ONE, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_STRIDE) },
	  "lib/mrapi rw.c rw_checks follows the reference: ke4harper/MxAPI mca-2.0.3 mrapi/src/Fragments/"
	  "mrapi_rmem.c mrapi_rmem_read/write (and _i) compare rmem_stride and local_stride with bytes_per_access "
	  "whatever num_strides is, and its tests/rmem1.c expects MRAPI_ERR_RMEM_STRIDE with one stride (the "
	  "spec's text: only when num_strides > 1)", LIBMRAPI },
	{ M_RULE_RMEM_DELETE_1, M_MRAPI_P_OTHERS, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "lib/mrapi dir_requests.c do_op follows the reference: ke4harper/MxAPI mca-2.0.3 mrapi/src/mrapi_impl/"
	  "Fragments/mrapi_impl_spec_rmem.c mrapi_impl_rmem_delete has no attach-count check, and its tests/rmem3.c "
	  "deletes while the other thread may still be attached (the spec's text: MRAPI_ERR_RMEM_ATTACH); a node "
	  "still attached may then detach (RMEM-DELETE-2)", LIBMRAPI },
	{ M_RULE_RMEM_DELETE_1, M_MRAPI_P_OWNER_DOMAIN, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "lib/mrapi dir_requests.c do_op follows the reference for a node authenticated in the buffer's own "
	  "domain: ke4harper/MxAPI mca-2.0.3 mrapi/src/mrapi_impl/Fragments/mrapi_impl_spec_rmem.c "
	  "mrapi_impl_rmem_delete has no owner check, and its tests/rmem3.c deletes from whichever thread got "
	  "the buffer (the spec's text, MRAPI V0.9.3 4.4.2.8: MRAPI_ERR_RMEM_NOTOWNER); a node of another "
	  "domain still gets MRAPI_ERR_RMEM_NOTOWNER", LIBMRAPI },
#undef MST
#undef LIBMRAPI
	/* ---- PMDK librpmem 1.12.1 (catalog E): the code's answers where its man pages say otherwise.
	 * WIDEN: a stack running PMDK's own librpmem gives them, this project's librpmem-rpma gives the
	 * man page's (the generic set); both are accepted here and the deviation is printed. Parts are
	 * model/rpmem/predict.c's (1: PART_GUARD_OFF / PART_NOHDRS / PART_PAST_POOL, 2: PART_PAST_REGION). ---- */
#define PMDK_RPMEM "PMDK librpmem 1.12.1"
	{ M_RULE_RPMEM_HDR_2, 1, ANY_KERNEL, M_DEV_WIDEN, 1, { OK_ },
	  "RPMEM rpmem.c rpmem_open: no_headers is set when open_attr is NULL or the returned attributes are "
	  "zero, so rpmem_persist/rpmem_flush below offset 4096 of a header pool pass the guard (rpmem_persist(3) "
	  "says offset must be >= 4096 for such pools; catalog disagreement 15)", PMDK_RPMEM },
	{ M_RULE_RPMEM_DEEP_1, 1, ANY_KERNEL, M_DEV_WIDEN, 1, { ERRNO(EINVAL) },
	  "RPMEM rpmem.c rpmem_deep_persist: `if (offset < RPMEM_HDR_SIZE)` EINVAL without looking at "
	  "no_headers, so NOHDRS pools refuse it too (rpmem_persist(3): works in the same way as rpmem_persist)",
	  PMDK_RPMEM },
	{ M_RULE_RPMEM_READ_1, 1, ANY_KERNEL, M_DEV_WIDEN, 1, { OK_ },
	  "RPMEM rpmem.c rpmem_read: no bounds check against pool_size; a read inside the target's registered "
	  "region succeeds (catalog RPMEM-READ-1, disagreement 15)", PMDK_RPMEM },
	{ M_RULE_RPMEM_READ_1, 2, ANY_KERNEL, M_DEV_WIDEN, 1, { ERRNO(EIO) },
	  "RPMEM rpmem_fip.c rpmem_fip_read: a read beyond the registered region fails in the transport and "
	  "the error is kept (RPMEM-ERR-1); the errno comes from the provider, EIO for a failed completion "
	  "(read in the source, not run: no PMDK build here)", PMDK_RPMEM },
#undef PMDK_RPMEM
};

/*
 * The MCA MRAPI reference implementation (catalog D, "ref-impl divergence";
 * MRR = optimsoc libmca-bare/mrapi, 2010/2013) as it would answer the area-D
 * calls. Readings (M_OUT_OK with an enum m_mrapi_reading code) choose how a
 * rule applies; the other rows replace a status set.
 */
#define MCA_REF "MCA MRAPI reference implementation"
#define MST(e) { M_OUT_MRAPI, M_MRAPI_##e }
#define MREAD(r) { M_OUT_OK, M_MRAPI_R_##r }
static const struct m_deviation mca_ref_dev[] = {
	{ M_RULE_RMEM_0, M_MRAPI_P_ORDER, ANY_KERNEL, M_DEV_REPLACE, 1, { MREAD(FIRST_CHECK) },
	  "MRR mrapi.c: every call tests its conditions one after the other and returns at the first", MCA_REF },
	{ M_RULE_RMEM_CREATE_1, M_MRAPI_P_ORDER, ANY_KERNEL, M_DEV_REPLACE, 1, { MREAD(FIRST_CHECK) },
	  "MRR mrapi.c mrapi_rmem_create: NOTINIT, ID_INVALID, EXISTS, TYPENOTVALID, then MEM_LIMIT", MCA_REF },
	{ M_RULE_RMEM_CREATE_1, M_MRAPI_P_REF_LIMIT, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_MEM_LIMIT) },
	  "MRR mrapi_impl_rmem_create: MRAPI_MAX_RMEMS (10) slots", MCA_REF },
	{ M_RULE_RMEM_CREATE_1, M_MRAPI_P_HUGE, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_create: the size is stored (as mrapi_uint_t), nothing is registered or checked", MCA_REF },
	{ M_RULE_RMEM_CREATE_2, M_MRAPI_P_ANY_AGAIN, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_EXISTS) },
	  "MRR mrapi_impl_rmem_create: MRAPI_RMEM_ID_ANY (0xffffffff) is stored as an ordinary key", MCA_REF },
	{ M_RULE_RMEM_CREATE_3, M_MRAPI_P_PARAM, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_create: mem, size and attributes are not checked", MCA_REF },
	{ M_RULE_RMEM_CREATE_4, M_MRAPI_P_OVERLAP, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_create: no overlap check", MCA_REF },
	{ M_RULE_RMEM_CREATE_6, M_MRAPI_P_ATYPE_ANY, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_TYPENOTVALID) },
	  "MRR mrapi.h: the access types are {DMA, SWCACHE, DUMMY}, no ATYPE_ANY; mrapi_impl_valid_atype", MCA_REF },
	{ M_RULE_RMEM_CREATE_6, M_MRAPI_P_ATYPE_OTHER, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_TYPENOTVALID) },
	  "MRR mrapi_impl_valid_atype: only MRAPI_RMEM_DUMMY (= MRAPI_RMEM_DEFAULT) is valid", MCA_REF },
	{ M_RULE_RMEM_GET_1, M_MRAPI_P_ATYPE_OTHER, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_TYPENOTVALID) },
	  "MRR mrapi.c mrapi_rmem_get: mrapi_impl_valid_atype knows MRAPI_RMEM_DUMMY only", MCA_REF },
	{ M_RULE_RMEM_GET_1, M_MRAPI_P_BAD_ATYPE, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_TYPENOTVALID) },
	  "MRR mrapi.c mrapi_rmem_get: the code returns MRAPI_ERR_RMEM_TYPENOTVALID (its comment says ATYPE_NOTVALID)",
	  MCA_REF },
	{ M_RULE_RMEM_GET_1, M_MRAPI_P_STRICT, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_get: the type is not compared with the creation type (catalog RMEM-GET-2)", MCA_REF },
	{ M_RULE_RMEM_GET_1, M_MRAPI_P_GET_ANY, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_get: ANY is an ordinary key, so get(ANY) finds the buffer created with it", MCA_REF },
	{ M_RULE_RMEM_GET_2, M_MRAPI_P_DELETED, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_get: the key matches without checking that the slot is still valid", MCA_REF },
	{ M_RULE_RMEM_DOM_1, M_MRAPI_P_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_get: the domain is not checked (catalog RMEM-GET-2)", MCA_REF },
	{ M_RULE_RMEM_ATTACH_1, M_MRAPI_P_TWICE, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_attach: attaching twice succeeds", MCA_REF },
	{ M_RULE_RMEM_DETACH_1, M_MRAPI_P_NOTATT, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_detach: no attached check, the count is decremented", MCA_REF },
	{ M_RULE_RMEM_DELETE_1, M_MRAPI_P_OWNER, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_delete: no owner check (FIXME)", MCA_REF },
	{ M_RULE_RMEM_DELETE_1, M_MRAPI_P_OWNER_DOMAIN, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_delete: no owner check (FIXME), a node of the buffer's domain as any other; "
	  "ke4harper/MxAPI mca-2.0.3 mrapi_impl_spec_rmem.c mrapi_impl_rmem_delete the same", MCA_REF },
	{ M_RULE_RMEM_DELETE_1, M_MRAPI_P_OTHERS, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(SUCCESS) },
	  "MRR mrapi_impl_rmem_delete: no attach-count check (FIXME); ke4harper/MxAPI mca-2.0.3 "
	  "mrapi_impl_spec_rmem.c mrapi_impl_rmem_delete the same, tests/rmem3.c relies on it", MCA_REF },
	{ M_RULE_RMEM_RW_4, M_MRAPI_P_ORDER, ANY_KERNEL, M_DEV_REPLACE, 1, { MREAD(FIRST_CHECK) },
	  "MRR mrapi.c mrapi_rmem_read/write: NOTINIT, INVALID, STRIDE, NOTATTACHED in this order", MCA_REF },
	{ M_RULE_RMEM_RW_4, M_MRAPI_P_STRIDE_ONE, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_RMEM_STRIDE) },
	  "MRR mrapi.c mrapi_rmem_read/write: the stride check does not look at num_strides; tests/rmem1.c "
	  "(ke4harper/MxAPI mca-2.0.3 src/Fragments/mrapi_rmem.c mrapi_rmem_read/write the same)", MCA_REF },
	{ M_RULE_RMEM_RW_4, M_MRAPI_P_BOUNDS, ANY_KERNEL, M_DEV_REPLACE, 1, { MREAD(REF_BOUNDS) },
	  "MRR mrapi_impl_spec.c mrapi_impl_rmem_read/write: own bounds formula; on overrun it returns FALSE "
	  "without setting *status, so the API says MRAPI_SUCCESS and nothing is copied", MCA_REF },
	{ M_RULE_RMEM_RW_5, M_MRAPI_P_ERR_AT, ANY_KERNEL, M_DEV_REPLACE, 1, { MREAD(AT_COMPLETION) },
	  "MRR mrapi_impl_rmem_read_i/write_i: the op's status goes into the request, *status = SUCCESS at post",
	  MCA_REF },
	{ M_RULE_RMEM_RW_5, M_MRAPI_P_PENDING, ANY_KERNEL, M_DEV_REPLACE, 1, { MREAD(DONE_AT_POST) },
	  "MRR mrapi_impl_rmem_read_i/write_i: the copy is done before the call returns", MCA_REF },
	{ M_RULE_RMEM_SYNC_1, M_MRAPI_P_STEP, ANY_KERNEL, M_DEV_REPLACE, 1, { MST(ERR_NOT_SUPPORTED) },
	  "MRR mrapi.c mrapi_rmem_flush/sync: NOTINIT, NOTATTACHED, otherwise MRAPI_ERR_NOT_SUPPORTED", MCA_REF },
};
#undef MST
#undef MREAD

static const struct {
	const char *name;
	uint32_t default_kernel;
	uint32_t caps;
	const struct m_deviation *dev;
	size_t ndev;
} profiles[] = {
	{ "generic", 0, M_CAP_MW_TYPE1 | M_CAP_MW_TYPE2 | M_CAP_REREG | M_CAP_ATOMIC_WRITE | M_CAP_FLUSH |
			       M_CAP_ODP | M_CAP_ZERO_BASED_REG | M_CAP_ATOMICS | M_CAP_RPMA | M_CAP_DAPL |
			       M_CAP_DAPL_RMR | M_CAP_MRAPI | M_CAP_RPMEM,
	  NULL, 0 },
	/* rxe on 6.1 (the VM kernel): no rereg, atomic write, flush, ODP or
	 * ZERO_BASED registration (catalog F); librpma 1.2.0; uDAPL (libdapl2
	 * 2.1.10) without RMRs (catalog G); librpmem (this project's
	 * librpmem-rpma over librpma, lib/rpmem). */
	{ "rxe", KVER(6, 1), M_CAP_MW_TYPE1 | M_CAP_MW_TYPE2 | M_CAP_ATOMICS | M_CAP_RPMA | M_CAP_DAPL | M_CAP_MRAPI |
				     M_CAP_RPMEM,
	  rxe_dev, sizeof(rxe_dev) / sizeof(rxe_dev[0]) },
	/* The MCA MRAPI reference implementation (area D only; shared memory, no verbs). */
	{ "mca-ref", 0, M_CAP_MRAPI, mca_ref_dev, sizeof(mca_ref_dev) / sizeof(mca_ref_dev[0]) },
};
#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

/* Each built-in profile's deviations chained by rule, in table order (m_profile_dev_next): every decision
 * asks for its rule's, and a table holds tens of other rules'. Chained by rule and decision part too
 * (m_profile_dev_part_first: m_decide's walk, which visits no deviation of the rule's other decisions).
 * Built once; the tables never change. */
static struct m_dev_walks chains[NPROFILES];
static once_flag chains_once = ONCE_FLAG_INIT;

static void chains_build(void)
{
	for (size_t i = 0; i < NPROFILES; i++) {
		size_t n = profiles[i].ndev;

		chains[i].dev = profiles[i].dev;
		chains[i].ndev = n;
		for (size_t r = 0; r < M_RULE_COUNT_; r++) {
			chains[i].first[r] = (uint16_t)n;
			for (size_t k = 0; k < M_DEV_PARTS; k++)
				chains[i].part_first[r][k] = (uint16_t)n;
		}
		for (size_t d = n; d-- > 0;) {
			unsigned r = (unsigned)profiles[i].dev[d].rule, k = profiles[i].dev[d].part;

			chains[i].next[d] = chains[i].part_next[d] = (uint16_t)n;
			if (r >= M_RULE_COUNT_)
				continue;
			chains[i].next[d] = chains[i].first[r];
			chains[i].first[r] = (uint16_t)d;
			if (k < M_DEV_PARTS) { /* a part past them: found by its rule's chain (m_profile_dev_part_first) */
				chains[i].part_next[d] = chains[i].part_first[r][k];
				chains[i].part_first[r][k] = (uint16_t)d;
			}
		}
	}
}

int m_profile_get(const char *name, uint32_t kernel, struct m_profile *out)
{
	for (size_t i = 0; i < NPROFILES; i++)
		if (strcmp(profiles[i].name, name) == 0) {
			/* Here, not at each decision: a profile whose table is a built-in one
			 * came from here (its tables are no one else's to name). */
			call_once(&chains_once, chains_build);
			out->name = profiles[i].name;
			out->kernel = kernel ? kernel : profiles[i].default_kernel;
			out->caps = profiles[i].caps;
			out->dev = profiles[i].dev;
			out->ndev = profiles[i].ndev;
			out->walks = profiles[i].ndev <= CHAIN_DEV_MAX ? &chains[i] : NULL;
			return 0;
		}
	return -ENOENT;
}

/* The chains of p's table if it is a built-in one (m_profile_get's hint, checked: a copy may have
 * been given another table or length since), else NULL. */
static const struct m_dev_walks *walks_of(const struct m_profile *p)
{
	const struct m_dev_walks *w = p->walks;

	if (m_dev_walks_hold(w, p))
		return w;
	for (size_t i = 0; p->ndev <= CHAIN_DEV_MAX && i < NPROFILES; i++)
		if (p->dev && p->dev == profiles[i].dev && p->ndev == profiles[i].ndev)
			return &chains[i]; /* built: p is m_profile_get's (or a copy) */
	return NULL;
}

size_t m_profile_dev_first(const struct m_profile *p, enum m_rule rule, const uint16_t **chain)
{
	const struct m_dev_walks *w = rule < M_RULE_COUNT_ ? walks_of(p) : NULL;

	*chain = w ? w->next : NULL;
	return w ? w->first[rule] : m_profile_dev_next(p, rule, 0);
}

size_t m_profile_dev_part_scan(const struct m_profile *p, enum m_rule rule, unsigned part, const uint16_t **chain)
{
	const struct m_dev_walks *w = rule < M_RULE_COUNT_ && part < M_DEV_PARTS ? walks_of(p) : NULL;

	if (!w)
		return m_profile_dev_first(p, rule, chain);
	*chain = w->part_next;
	return w->part_first[rule][part];
}

size_t m_profile_dev_next(const struct m_profile *p, enum m_rule rule, size_t d)
{
	const struct m_dev_walks *w = rule < M_RULE_COUNT_ ? walks_of(p) : NULL;

	if (w && d == 0)
		return w->first[rule];
	if (w && d <= p->ndev && p->dev[d - 1].rule == rule)
		return w->next[d - 1];
	/* not where a walk along the chain is: look */
	while (d < p->ndev && p->dev[d].rule != rule)
		d++;
	return d < p->ndev ? d : p->ndev;
}

size_t m_profile_count(void)
{
	return NPROFILES;
}

const char *m_profile_name(size_t i)
{
	return i < NPROFILES ? profiles[i].name : NULL;
}

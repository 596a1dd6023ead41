/*
 * outstanding.h — send WRs outstanding at the stack while later steps run
 * (struct model.outst, model/state.def): an RDMA WRITE, READ or atomic
 * posted with `wait=no` is handed over and not waited for; it runs at some
 * moment between its post and the `wait` step that takes its completion, so
 * its completion may have any status it could have had in any state since
 * its post (model/verbs/outstanding.c). A send WR a provider refused below
 * RTS but kept queued (M_EFF_SQ_KEPT, QP-STATE-1) is one too, on a QP whose
 * send CQ is a CQ object: it runs at the QP's first doorbell once RTS.
 */
#ifndef RDMACHECK_MODEL_VERBS_OUTSTANDING_H
#define RDMACHECK_MODEL_VERBS_OUTSTANDING_H

#include "model/verbs/verbs.h"

#include <stdint.h>

#define M_OUTST_MAX 8 /* WRs outstanding at once, all nodes together */

struct m_wr_out {
	uint8_t live;
	uint8_t kind;            /* the post's enum m_op_kind: write, read, cas, fadd */
	uint8_t node;
	int16_t qp;              /* its QP's handle on node */
	struct m_verbs_args a;   /* the post's arguments (nowait cleared) */
	uint32_t seen;           /* bits 1 << enum m_wc_status: the statuses it could have had in a
	                            state since its post (it may have run in any of them) */
	uint8_t raced;           /* bytes it moves may have changed meanwhile: its destination stays
	                            unknown whatever it completes with */
	uint8_t dereg;           /* an MR it names was deregistered meanwhile (MR-DEREG-3) */
	uint32_t pushes;         /* its send CQ's count of completions at its post (m_cq.pushes) */
	uint32_t seq;            /* posting order (the oldest of a QP completes first) */
	uint8_t kept;            /* refused below RTS, kept queued: waits for the first doorbell at RTS */
};

struct m_outst_model {
	uint32_t seq;            /* the next post's seq */
	uint8_t nlive;           /* how many of w are live (a step with none skips their loops) */
	struct m_wr_out w[M_OUTST_MAX];
};

/* All of it is in use (model_init, model_clone: as m_rpmem_model_used). */
static inline size_t m_outst_model_used(const struct m_outst_model *s)
{
	return sizeof(*s);
}
static inline size_t m_outst_model_fixed(void)
{
	return sizeof(struct m_outst_model);
}

#endif

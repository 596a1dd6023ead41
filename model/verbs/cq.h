/*
 * cq.h — completion queues in the model (struct m_node.cq, model/state.def):
 * CQ objects a scenario creates (create_cq), which QPs complete into which
 * of them (create_qp cq=, send_cq=, recv_cq=), and the completions each
 * holds until poll_cq takes them, oldest first (CQ-POLL-1). A QP created
 * without a CQ has CQs of its own the model does not track: every step that
 * posts on it waits for its completion, as before CQs were objects.
 */
#ifndef RDMACHECK_MODEL_VERBS_CQ_H
#define RDMACHECK_MODEL_VERBS_CQ_H

#include <stdint.h>

#define M_MAX_CQ 16       /* CQs per node (handles are never reused) */
#define M_CQE_MAX 32      /* completions the model keeps per CQ */
#define M_CQ_DEPTH_MAX 4096 /* the largest depth (cqe) a scenario may ask for */
#define M_CQ_DEPTH_DEFAULT 16 /* create_cq without depth= */
#define M_SEND_DEPTH_MAX 16    /* the largest max_send_wr a QP may ask for */
#define M_SEND_DEPTH_DEFAULT 32 /* create_qp without max_send_wr= */
#define M_SEND_DEPTH_ZERO 0xffu /* struct m_cq_node.max_send: cap.max_send_wr asked as 0 */
#define M_POLL_MAX 4      /* completions one poll_cq step takes and reports */
#define M_MAX_CHAN 4      /* completion channels per node (handles are never reused) */
#define M_CHAN_EV_MAX 8   /* events the model keeps per channel before it loses track */
#define M_ACK_MAX 16      /* the most events one ack_cq_events step may acknowledge */

/* What req_notify_cq armed a CQ for (ibv_req_notify_cq's solicited_only). */
enum m_cq_arm { M_ARM_NONE, M_ARM_SOLICITED, M_ARM_NEXT };

/* create_cq's comp_vector, as the scenario names it against the device's num_comp_vectors. */
enum m_comp_vec { M_VEC_ZERO, M_VEC_LAST, M_VEC_PAST, M_VEC_MINUS1 };

/*
 * ibv_create_cq_ex's wc_flags (enum ibv_wc_flags_ex, the same bits): what an
 * extended CQ's completions may be read for beyond wr_id, status, opcode and
 * vendor_err (CQ-EX-1, CQ-EX-2); the first seven are IBV_WC_STANDARD_FLAGS.
 */
#define M_WC_EX_BYTE_LEN (1u << 0)
#define M_WC_EX_RECV 0x7u               /* BYTE_LEN, IMM, QP_NUM: what a receive CQ's completions must give */
#define M_WC_EX_STANDARD 0x7fu          /* BYTE_LEN, IMM, QP_NUM, SRC_QP, SLID, SL, DLID_PATH_BITS */
#define M_WC_EX_ALL 0xfffu              /* and COMPLETION_TIMESTAMP, CVLAN, FLOW_TAG, TM_INFO, _WALLCLOCK */
/* ibv_create_cq_ex's flags (enum ibv_create_cq_attr_flags): SINGLE_THREADED, IGNORE_OVERRUN */
#define M_CQ_FLAGS_ALL 0x3u

/* Whether a completion is a solicited one (what a solicited_only arm waits for). */
enum m_chan_sol { M_SOL_NO, M_SOL_YES, M_SOL_UNKNOWN /* an error completion: not determined */ };

/* What a work completion says was done (IBV_WC_*, ibv_poll_cq's wc.opcode). */
enum m_wc_opcode {
	M_WCO_SEND = 0,
	M_WCO_RDMA_WRITE = 1,
	M_WCO_RDMA_READ = 2,
	M_WCO_COMP_SWAP = 3,
	M_WCO_FETCH_ADD = 4,
	M_WCO_BIND_MW = 5,
	M_WCO_LOCAL_INV = 6,
	M_WCO_RECV = 128,
	M_WCO_RECV_RDMA_WITH_IMM = 129,
};
const char *m_wc_opcode_str(enum m_wc_opcode o);
int m_wc_opcode_parse(const char *name, enum m_wc_opcode *out);

/*
 * One work completion: the WR it belongs to (its wr_id), its status (enum
 * m_wc_status), and what a successful one reports besides (RA-ERR-4: an error
 * completion's other fields mean nothing): its opcode (enum m_wc_opcode) and
 * byte_len when has_len (ibv_poll_cq(3): a receive's, a READ's or an
 * atomic's; a WRITE's or SEND's send completion states none).
 */
struct m_cqe {
	uint32_t wr_id;
	uint8_t status;
	uint8_t opcode;
	uint8_t has_len;
	uint32_t byte_len;
};

struct m_cq {
	uint8_t live, ever;
	uint8_t n;               /* completions held, oldest first in e[] */
	uint8_t overrun;         /* more completions than the depth arrived: its contents are undefined */
	uint8_t npolled;         /* what the last poll_cq took, for its results */
	uint32_t depth;          /* the cqe asked for at create_cq */
	uint32_t usecnt;         /* QPs completing into it (send or receive side, each counted) */
	uint32_t pushes;         /* completions that arrived, ever (but those of outstanding WRs) */
	uint8_t chan1;           /* its completion channel's handle + 1 (0: none) */
	uint8_t arm;             /* enum m_cq_arm: what the next event waits for */
	uint8_t unacked;         /* events get_cq_event gave of it that ack_cq_events has not acknowledged */
	uint8_t ex;              /* made by ibv_create_cq_ex: polled with ibv_start_poll/next_poll/end_poll */
	uint16_t wc_flags;       /* an extended CQ's wc_flags (M_WC_EX_*): the fields its completions give */
	struct m_cqe e[M_CQE_MAX];
	struct m_cqe polled[M_POLL_MAX];
};

/*
 * A completion channel (ibv_create_comp_channel): the events of its CQs,
 * oldest first, each as its CQ's handle + 1 (CQ-NOTIFY-1, CQ-EVENT-1).
 */
struct m_chan {
	uint8_t live, ever;
	uint8_t refs;            /* live CQs created on it */
	uint8_t n;               /* events waiting on it */
	uint8_t vague;           /* an event may be there that the model does not know of, or missing */
	uint8_t lost;            /* events arrived past the M_CHAN_EV_MAX in ev[]: they follow those */
	uint8_t got;             /* the last get_cq_event's CQ handle + 1 (0: none came) */
	uint8_t got_vague;       /* that answer could not be known */
	uint8_t step_adds;       /* events the step being committed put on it */
	uint8_t ev[M_CHAN_EV_MAX];
};

struct m_cq_node {
	uint8_t ncq;
	struct m_cq cq[M_MAX_CQ];
	uint8_t nch;
	struct m_chan ch[M_MAX_CHAN];
	/* Per QP handle: its send and receive CQ (CQ handle + 1; 0: the QP's own, untracked) and
	 * whether it was created with sq_sig_all (every send WR signaled). */
	uint8_t scq[M_MAX_QP], rcq[M_MAX_QP], sig_all[M_MAX_QP];
	uint8_t max_send[M_MAX_QP]; /* its send queue's depth asked for (cap.max_send_wr); 0: not known (no
				       create_qp made it), M_SEND_DEPTH_ZERO: asked as 0 */
};

#endif

/*
 * verbs.h — the verbs family's operation arguments (struct m_op.verbs),
 * included by model/model.h through model/families.h. The verbs objects
 * themselves (struct m_pd, m_mr, m_mw, m_qp) are the state every family
 * shares and stay in model/model.h. The family: model/verbs/.
 */
#ifndef RDMACHECK_MODEL_VERBS_H
#define RDMACHECK_MODEL_VERBS_H

#include <stdint.h>

#define M_INLINE_MAX 256 /* the largest max_inline_data a scenario may ask for */

/* One scatter/gather element of a work request (struct ibv_sge). */
struct m_sge {
	uint32_t lkey;
	uint64_t addr, len;
};
#define M_SGE_MAX 4 /* SGEs in one send WR a scenario may give (sge.c) */
/* The READ/atomic depths (max_rd_atomic, max_dest_rd_atomic) a connection gets when nothing names
 * them: what the harness's connect and modify_qp ask, and the least librpma's and uDAPL's
 * connections carry (RA-RES-1, RA-RES-2). */
#define M_RD_ATOMIC_DEFAULT 1
/* The path MTU in bytes an RC/UC QP's move to RTR (connect, modify_qp) sets when nothing names one,
 * as the harness asks (its agent's default). */
#define M_PATH_MTU_DEFAULT 1024u
/*
 * A create key asked at the device's own limit (the language's `max`: ibv_query_device's
 * max_qp_wr, max_sge, max_cqe, max_srq_wr, max_srq_sge) or one past it (`max+1`), as the value the
 * harness carries for the key; the agent resolves it on the device, the model needs no number
 * (lim.c, LIM-1, LIM-2). struct m_verbs_args.lim_max and lim_past say which keys were so asked.
 */
#define M_LIM_MAX 0xffffffffu
#define M_LIM_PAST 0xfffffffeu
#define M_LIMK_SEND_WR 1u  /* create_qp max_send_wr= */
#define M_LIMK_RECV_WR 2u  /* create_qp max_recv_wr=, create_srq max_wr= */
#define M_LIMK_SGE 4u      /* create_srq max_sge= */
/* fields: the class of the object whose returned struct is read (struct m_verbs_args.fields_of) */
#define M_FLD_PD 0u
#define M_FLD_MR 1u
#define M_FLD_MW 2u
#define M_FLD_QP 3u
#define M_FLD_CQ 4u
#define M_FLD_AH 5u
#define M_FLD_SRQ 6u
#define M_FLD_CHAN 7u
/* modify_srq's attribute mask (struct m_verbs_args.srq_mask), as ibv_srq_attr_mask's bits */
#define M_SRQ_MAX_WR 1u
#define M_SRQ_LIMIT 2u
#define M_LIMK_CQE 8u      /* create_cq depth= */
#define M_LIMK_SEND_SGE 16u /* create_qp max_send_sge= (the device's max_sge) */
#define M_LIMK_RECV_SGE 32u /* create_qp max_recv_sge= (the same) */
/* m_verbs_args.wr_api: how a send WR is posted (the language's wr=yes, wr=abort; wrpost.c) */
#define M_WR_COMPLETE 1
#define M_WR_ABORT 2

/*
 * The handle a call is given garbled (rdma-unit-test's HandleGarble: the
 * handle member of the library's struct, which the kernel looks up, XORed
 * with 0xDEADBEEF): the object acted on (SELF) or one of its inputs.
 * model/verbs/handle.c decides what such a call gives (HANDLE-1).
 */
enum m_garble {
	M_GARBLE_NONE, M_GARBLE_SELF, M_GARBLE_PD, M_GARBLE_MR, M_GARBLE_QP, M_GARBLE_SEND_CQ,
	M_GARBLE_RECV_CQ, M_GARBLE_SRQ, M_GARBLE_AH, M_GARBLE_COUNT_
};
/* struct m_verbs_args.zero_wr */
enum { M_ZERO_SEND_WR = 1, M_ZERO_RECV_WR = 2 };
/* query_port's port_num, as the scenario names it: 1, 0, past (phys_port_cnt + 1) */
enum m_port_sel { M_PORT_ONE, M_PORT_ZERO, M_PORT_PAST };

const char *m_garble_str(enum m_garble g);
int m_garble_parse(const char *name, enum m_garble *out);

/*
 * Arguments of the verbs operations. The handle acted on is struct
 * m_op.obj: the PD, MR, MW or QP of dealloc/dereg/rereg/destroy/modify/
 * query, the MW of bind_mw, the QP of connect and of every post, the MR
 * of fill; -1 for the creating calls. Posts carry the raw numbers a real
 * program puts in its work request (lkey, local address, remote address,
 * rkey), so stale or tampered keys are expressible.
 */
struct m_verbs_args {
	int16_t pd;         /* alloc_mw, reg_mr, create_qp: the PD; rereg_mr: the new PD */
	int16_t mr;         /* bind_mw: the MR (-1: none, a NULL bind_info.mr: MW-BIND-2) */
	int16_t qp;         /* bind_mw: the QP the bind is posted on */
	int16_t peer_node, peer_qp; /* connect: the other side's QP */
	uint32_t access;    /* reg_mr/rereg_mr: IBV_ACCESS_*; bind_mw: the window's access;
	                       create_qp: qp_access_flags */
	uint32_t rereg_flags; /* rereg_mr: IBV_REREG_MR_* (enum m_rereg_flag) */
	uint32_t zero_based; /* bind_mw: bit 0 set = a zero-based window */
	uint32_t bind_call; /* bind_mw: 1 = through the ibv_bind_mw() call (type-1 API),
	                       0 = by the MW's type */
	uint32_t mw_type;   /* alloc_mw: enum m_mw_type */
	uint32_t qp_state;  /* modify_qp: the target state (enum m_qp_state) */
	uint64_t max_recv_wr; /* create_qp: max_recv_wr (0: the default); create_srq, modify_srq: max_wr */
	uint8_t srq_mask;     /* modify_srq: M_SRQ_MAX_WR, M_SRQ_LIMIT (ibv_srq_attr_mask) */
	uint32_t srq_limit;   /* modify_srq: srq_limit (with M_SRQ_LIMIT) */
	uint8_t fields_of;    /* fields: M_FLD_* of the object op->obj (FIELDS-1, FIELDS-2) */
	uint32_t max_inline; /* create_qp: cap.max_inline_data asked for (at most M_INLINE_MAX) */
	uint8_t send_inline; /* write, write_imm, send: IBV_SEND_INLINE (LP-3) */
	uint8_t no_rd_atomic; /* connect: max_dest_rd_atomic 0 on both QPs (RA-RES-1) */
	uint8_t max_rd_atomic, max_dest_rd_atomic; /* connect: the values both QPs get (M_RD_ATOMIC_DEFAULT) */
	uint16_t path_mtu;  /* connect: the path MTU in bytes both QPs get (M_PATH_MTU_DEFAULT) */
	uint8_t qp_type;    /* create_qp: enum m_qp_type */
	uint8_t qp_ex;      /* create_qp: ibv_create_qp_ex (ex=yes), comp_mask PD (and SEND_OPS_FLAGS) */
	uint16_t send_ops;  /* create_qp ex: send_ops_flags (M_SOPS_*, model/verbs/qpex.h) */
	uint64_t len;       /* reg_mr/rereg_mr: length; bind_mw: window length; posts: the
	                       SGE's length; fill: bytes (0: to the MR's end) */
	uint64_t offset;    /* reg_mr: page offset of the buffer; bind_mw: window start (iova
	                       space); fill: the first byte */
	uint64_t iova;      /* reg_mr: hca_va (ibv_reg_mr_iova) when has_iova */
	uint8_t has_iova;
	uint8_t prot;       /* reg_mr: enum m_prot of the pages */
	uint8_t in_buf;     /* reg_mr: 1 = register len bytes of MR mr's buffer from its byte
	                       buf_off (offset and prot are then the buffer's), 0 = a new buffer */
	uint64_t buf_off;
	uint8_t byte;       /* fill: the byte value */
	uint8_t with_inv;   /* send: SEND_WITH_INV */
	uint8_t with_imm;   /* send: SEND_WITH_IMM; not with with_inv */
	uint32_t imm_data;  /* send with imm, write_imm: the immediate data its receive completion carries */
	uint32_t lkey;      /* posts: the local SGE's lkey, */
	uint64_t laddr;     /*        and address */
	uint32_t rkey;      /* write/read/cas/fadd: the remote key; send with_inv and
	                       local_inv: the rkey to invalidate */
	uint64_t raddr;     /* write/read/cas/fadd: the remote address */
	uint64_t compare;   /* cas: the compare value */
	uint64_t swap;      /* cas: the swap value; fadd: the value added */
	/* QP states and UD (model/verbs/qpstate.c, ud.c). peer_node/peer_qp above are also
	 * modify_qp state=RTR's remote QP (-1: none given) and a UD send's destination QP
	 * (-1: the raw dest_qpn) */
	uint32_t qp_omit;   /* modify_qp: the attributes left out of the mask (enum m_qp_attr) */
	uint32_t qkey;      /* modify_qp state=INIT of a UD QP: its Q_Key; UD send: the remote Q_Key */
	int16_t ah;         /* UD send: the address handle */
	uint8_t ah_node;    /* create_ah: the node whose port the AH addresses */
	uint32_t dest_qpn;  /* UD send with peer_qp -1: a QP number no QP of the AH's node has */
	uint8_t srq1;       /* create_qp: its SRQ's handle + 1 (0: none) */
	int16_t scq, rcq;   /* create_qp: the send and receive CQ handles + 1 (0: the QP's own CQs,
			       untracked; other families' QPs leave them 0) */
	uint8_t sig_all;    /* create_qp: sq_sig_all (every send WR signaled) */
	uint8_t unsignaled; /* send posts: IBV_SEND_SIGNALED left out */
	uint32_t wr_id;     /* posts and recv: the WR's wr_id, as its completion reports it */
	uint32_t cq_depth;  /* create_cq, resize_cq: cqe */
	uint8_t chan1;      /* create_cq: its completion channel's handle + 1 (0: none) */
	uint8_t comp_vec;   /* create_cq: enum m_comp_vec */
	uint8_t cq_ex;      /* create_cq: ibv_create_cq_ex (ex=yes) */
	uint16_t wc_flags;  /* create_cq ex: wc_flags (M_WC_EX_*) */
	uint8_t cq_flags;   /* create_cq ex: flags (M_CQ_FLAGS_ALL's bits; comp_mask FLAGS when any) */
	uint8_t port;       /* query_port: enum m_port_sel */
	uint8_t dev_ex;     /* query_device, query_gid: the _ex call (query_device_ex: its orig_attr) */
	uint8_t gid_empty;  /* query_gid: an index within gid_tbl_len the GID table does not hold */
	uint8_t gid_none;   /* query_gid_table: max_entries 0 */
	uint8_t solicited;  /* req_notify_cq: solicited_only; send, write_imm: IBV_SEND_SOLICITED */
	uint8_t nack;       /* ack_cq_events: nevents */
	uint32_t max_wc;    /* poll_cq: num_entries (1..M_POLL_MAX) */
	uint8_t no_sge;     /* write, write_imm, send, recv: num_sge 0 (len 0; lkey and laddr unused) */
	int32_t chain_errno; /* send posts: chained after a WR its ibv_post_send refused with this
	                        errno (LP-7: not posted); 0 none */
	uint32_t chain_pos; /* send posts: the WR's place in its chain (0: first, or no chain): the
	                       WRs before it fill the send queue */
	uint32_t max_send_wr; /* create_qp: cap.max_send_wr (0: the default, M_SEND_DEPTH_DEFAULT) */
	uint8_t nowait;     /* write, read, cas, fadd: wait=no, handed over and not waited for
	                       (model/verbs/outstanding.h); its completion is a later wait step's */
	uint8_t garble;     /* enum m_garble: the handle given garbled (HANDLE-1), 0 none */
	uint8_t wr_api;     /* send posts: 0 ibv_post_send, M_WR_COMPLETE through the ibv_wr_* API (wr=yes,
	                       WR-POST-1), M_WR_ABORT built so and abandoned by ibv_wr_abort (wr=abort, WR-POST-3) */
	/* write, write_imm, send, read, cas, fadd, recv: the SGEs after the first (lkey, laddr above),
	 * num_sge = 1 + nsge_more; len above is then the WR's length, the sum of every SGE's, and
	 * the first SGE's own length is len minus theirs (model/verbs/sge.c) */
	uint8_t nsge_more;
	struct m_sge sge_more[M_SGE_MAX - 1];
	uint8_t max_send_sge; /* create_qp: cap.max_send_sge (0: 1) */
	uint8_t max_recv_sge; /* create_qp: cap.max_recv_sge (0: 1) */
	uint8_t lim_max;    /* create_qp, create_cq, create_srq: the keys (M_LIMK_*) asked at the device's max */
	uint8_t lim_past;   /* the same: the keys asked one past it (their values above are then 0) */
	uint8_t zero_wr;    /* create_qp: M_ZERO_SEND_WR, M_ZERO_RECV_WR: cap.max_send_wr, max_recv_wr asked
	                       as 0 (QpTest.ZeroSendWr); without them a 0 above is the default */
	/* Set only by another family's translation of its step (model/internal.h,
	 * m_verbs_step_predict), 0 from every other caller: the state that family
	 * creates or assumes around the call, predicted on without a copy of the model */
	uint8_t pd_next;    /* reg_mr: pd is the PD the family creates at this call, first (the
	                       node's next PD slot, not in the model yet; none free: -EINVAL) */
	uint8_t mr_bindable; /* bind_mw: the MR takes binds as if registered with MW_BIND */
};

#endif

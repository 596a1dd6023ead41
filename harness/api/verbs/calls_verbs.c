/*
 * calls_verbs.c — the libibverbs calls a scenario can make (without the ibv_
 * prefix), with the keys they take and the outcomes they can produce. Data
 * only; scenarios/README.md documents each entry.
 */
#include "harness/api/verbs/api_verbs.h"
#include "harness/lang/scn_callspec.h"

#define O_VERB (O(OK) | O(ERRNO) | O(CRASH))
#define O_POST (O(ERRNO) | O(WC) | O(CRASH) | O(OK)) /* ok: an unsignaled WR that succeeded */
#define O_QUERY (O(OK) | O(ERRNO) | O(CRASH) | SCN_OUTS_QUERY)

/* remote= an MR or MW reference, or a raw address (a number, NAME.ATTR) with rkey=; lkey= the
 * SGE's lkey in place of the local MR's */
#define RDMA_ARGS(...) RDMA_ARGS_L(REQ("local", ADDR(SCN_C_MR)), __VA_ARGS__)
/* write, write_imm: without local=, num_sge 0 */
#define RDMA_ARGS_L(local, ...) ARGS(local, \
			    REQ("remote", .kinds = SCN_V_ADDR | SCN_V_INT | SCN_V_ATTR, .cls = SCN_C_MR | SCN_C_MW), \
			    __VA_ARGS__, OPT("rkey", NUM), OPT("lkey", NUM), WR_ARGS, CHAIN_ARG, SGE_LIST)

/* the SGEs after the first, in order: local2= len2= [lkey2=] up to local4= */
#define SGE_ARGS(n) OPT("local" #n, ADDR(SCN_C_MR)), OPT("len" #n, NUM), OPT("lkey" #n, NUM)
#define SGE_LIST SGE_ARGS(2), SGE_ARGS(3), SGE_ARGS(4)

/* a send WR posted in one ibv_post_send with the next step's (LP-7) */
#define CHAIN_ARG OPT("chain", BARE)

/* every post: the WR's wr_id (default: the step's line) and, on the send queue, signaled=no; wr=yes posts
 * it through the ibv_wr_* API of a QP create_qp ex=yes made (ibv_wr_start, the operation's builder, its
 * setters, ibv_wr_complete: WR-POST-1); wr=abort builds it so and ends in ibv_wr_abort (WR-POST-3) */
#define WR_ARGS OPT("id", RANGE(0, 0xffffffffu)), OPT("signaled", WORD(SCN_T_YESNO)), OPT("wr", WORD(SCN_T_WR_API))

/* write, read, cas, fadd: wait=no hands the WR over without waiting for its completion (a later wait step's) */
#define WAIT_ARG OPT("wait", WORD(SCN_T_YESNO))
/* the handle given garbled (HANDLE-1): self (NAME) or an input's key */
#define GARBLE_ARG OPT("garble", WORD(SCN_T_GARBLE))

/* write, write_imm, send: IBV_SEND_INLINE; read: the same flag, which it cannot carry (LP-9) */
#define INLINE_ARGS OPT("inline", BARE)

/* poll_cq's results of its J-th completion */
#define WC_RESULTS(j) OPT("wr" #j, NUM), OPT("status" #j, WORD(SCN_T_WC)), OPT("opcode" #j, WORD(SCN_T_WC_OPCODE)), \
		      OPT("byte_len" #j, NUM)

/* write_imm, send: the immediate data (send: SEND_WITH_IMM), as the receiver's completion gives it */
#define IMM_ARG OPT("imm_data", RANGE(0, 0xffffffffu))
/* write_imm, send: IBV_SEND_SOLICITED (the receive completion a solicited_only arm waits for) */
#define SOLICITED_ARG OPT("solicited", WORD(SCN_T_YESNO))

/* fields: the classes whose struct it reads; a result that points to an object (or none, own, other) */
#define FIELDS_CLASSES (SCN_C_PD | SCN_C_MR | SCN_C_MW | SCN_C_QP | SCN_C_CQ | SCN_C_AH | SCN_C_SRQ | SCN_C_CHAN)
#define OBJREF(c) .kinds = SCN_V_OBJ | SCN_V_WORD, .table = SCN_T_OBJREF, .cls = (c)

const struct scn_call api_verbs_calls[] = {
	CALL("alloc_pd", VERBS, CREATE, SCN_C_PD, 0, O_VERB, NOARGS),
	CALL("dealloc_pd", VERBS, ACT, SCN_C_PD, 1, O_VERB, ARGS(GARBLE_ARG)),
	CALL("reg_mr", VERBS, CREATE, SCN_C_MR, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), REQ("len", NUM), OPT("access", FLAGS(SCN_T_ACCESS)),
		  OPT("iova", NUM), OPT("offset", RANGE(0, 4095)), OPT("prot", WORD(SCN_T_PROT)),
		  { .key = "buf", .flags = SCN_A_OWN, ADDR(SCN_C_MR) }, GARBLE_ARG)),
	CALL("dereg_mr", VERBS, ACT, SCN_C_MR, 1, O_VERB, ARGS(GARBLE_ARG)),
	CALL("rereg_mr", VERBS, ACT, SCN_C_MR, 0, O_VERB,
	     ARGS(OPT("pd", OBJ(SCN_C_PD)), OPT("access", FLAGS(SCN_T_ACCESS)),
		  OPT("flags", FLAGS(SCN_T_REREG)), OPT("len", NUM), { .key = "buf", .flags = SCN_A_OWN, ADDR(SCN_C_MR) })),
	CALL("alloc_mw", VERBS, CREATE, SCN_C_MW, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), REQ("type", RANGE(0, 255)), GARBLE_ARG)),
	CALL("bind_mw", VERBS, POST, SCN_C_MW, 0, O_POST,
	     ARGS(REQ("qp", OBJ(SCN_C_QP)), OPT("mr", ADDR(SCN_C_MR)), REQ("len", NUM),
		  REQ("access", FLAGS(SCN_T_ACCESS)), OPT("zero_based", BARE), OPT("call", BARE), WR_ARGS,
		  GARBLE_ARG)),
	CALL("dealloc_mw", VERBS, ACT, SCN_C_MW, 1, O_VERB, ARGS(GARBLE_ARG)),
	CALL("create_qp", VERBS, CREATE, SCN_C_QP, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), OPT("access", FLAGS(SCN_T_ACCESS)),
		  OPT("max_recv_wr", LIMIT(0, M_RECV_DEPTH_MAX)), OPT("max_inline", RANGE(0, M_INLINE_MAX)),
		  OPT("max_send_wr", LIMIT(0, M_SEND_DEPTH_MAX)), OPT("max_send_sge", LIMIT(1, M_SGE_MAX)),
		  OPT("max_recv_sge", LIMIT(1, M_SGE_MAX)), OPT("type", WORD(SCN_T_QPT)), OPT("cq", OBJ(SCN_C_CQ)), OPT("send_cq", OBJ(SCN_C_CQ)),
		  OPT("recv_cq", OBJ(SCN_C_CQ)), OPT("sig_all", BARE), OPT("srq", OBJ(SCN_C_SRQ)), GARBLE_ARG,
		  OPT("ex", WORD(SCN_T_YESNO)), OPT("send_ops", FLAGS(SCN_T_SEND_OPS)))),
	CALL("destroy_qp", VERBS, ACT, SCN_C_QP, 1, O_VERB, ARGS(GARBLE_ARG)),
	/* state=INIT|RTR|RTS one transition at a time: peer= the remote QP of an RC/UC RTR, omit= attributes
	 * left out of the mask, qkey= a UD QP's Q_Key at INIT */
	CALL("modify_qp", VERBS, ACT, SCN_C_QP, 0, O_VERB,
	     ARGS(REQ("state", WORD(SCN_T_QPS_MODIFY)), OPT("peer", OBJ(SCN_C_QP)), OPT("omit", FLAGS(SCN_T_QP_ATTR)),
		  OPT("qkey", NUM), GARBLE_ARG)),
	CALL("connect", VERBS, CONNECT, SCN_C_QP, 0, O_VERB,
	     ARGS(POS("peer", OBJ(SCN_C_QP)), OPT("mtu", RANGE(256, 4096)), OPT("timeout", RANGE(0, 31)),
		  OPT("retry_cnt", RANGE(0, 7)), OPT("rnr_retry", RANGE(0, 7)),
		  OPT("min_rnr_timer", RANGE(0, 31)), OPT("max_rd_atomic", RANGE(0, 255)),
		  OPT("max_dest_rd_atomic", RANGE(0, 255)))),
	CALL("write", VERBS, POST, SCN_C_QP, 0, O_POST,
	     RDMA_ARGS_L(OPT("local", ADDR(SCN_C_MR)), REQ("len", NUM), INLINE_ARGS, WAIT_ARG)),
	CALL("read", VERBS, POST, SCN_C_QP, 0, O_POST, RDMA_ARGS(REQ("len", NUM), INLINE_ARGS, WAIT_ARG)),
	/* RDMA WRITE with immediate (immediate data 0): consumes a receive of the peer */
	CALL("write_imm", VERBS, POST, SCN_C_QP, 0, O_POST,
	     RDMA_ARGS_L(OPT("local", ADDR(SCN_C_MR)), REQ("len", NUM), INLINE_ARGS, IMM_ARG, SOLICITED_ARG)),
	CALL("cas", VERBS, POST, SCN_C_QP, 0, O_POST,
	     RDMA_ARGS(REQ("compare", NUM), REQ("swap", NUM), OPT("len", NUM), WAIT_ARG)),
	CALL("fadd", VERBS, POST, SCN_C_QP, 0, O_POST, RDMA_ARGS(REQ("add", NUM), OPT("len", NUM), WAIT_ARG)),
	/* the completion of the QP's oldest WR posted with wait=no, id= its wr_id */
	CALL("wait", VERBS, POST, SCN_C_QP, 0, O_POST, ARGS(REQ("id", RANGE(0, 0xffffffffu)))),
	/* recv only posts: ok or the post's errno; its completion is the peer SEND's secondary effect;
	 * lkey= the SGE's lkey in place of the local MR's; local2= len2= [lkey2=] up to local4=: more SGEs */
	CALL("recv", VERBS, POST, SCN_C_QP, 0, O_VERB,
	     ARGS(OPT("local", ADDR(SCN_C_MR)), REQ("len", NUM), OPT("id", RANGE(0, 0xffffffffu)), OPT("lkey", NUM),
		  SGE_LIST)),
	CALL("send", VERBS, POST, SCN_C_QP, 0, O_POST,
	     ARGS(OPT("local", ADDR(SCN_C_MR)), REQ("len", NUM), OPT("inv", OBJ(SCN_C_MW | SCN_C_MR)), INLINE_ARGS,
		  OPT("lkey", NUM), OPT("imm", BARE), IMM_ARG, WR_ARGS, CHAIN_ARG, OPT("ah", OBJ(SCN_C_AH)),
		  OPT("dest", OBJ(SCN_C_QP)), OPT("qpn", NUM), OPT("qkey", NUM), SGE_LIST, GARBLE_ARG, SOLICITED_ARG)),
	CALL("local_inv", VERBS, POST, SCN_C_QP, 0, O_POST,
	     ARGS(POS("mw", OBJ(SCN_C_MW)), OPT("rkey", NUM), WR_ARGS, CHAIN_ARG)),
	QUERY("query_qp", VERBS, SCN_C_QP, O_QUERY, ARGS(GARBLE_ARG),
	      ARGS(OPT("state", WORD(SCN_T_QPS)), OPT("access", FLAGS(SCN_T_ACCESS)), OPT("max_send_wr", NUM),
		   OPT("max_recv_wr", NUM), OPT("max_send_sge", NUM), OPT("max_recv_sge", NUM), OPT("max_inline", NUM),
		   OPT("max_rd_atomic", NUM), OPT("max_dest_rd_atomic", NUM))),
	/* channel= its completion channel; vector= comp_vector: 0, last (num_comp_vectors - 1), past
	 * (num_comp_vectors), -1; ex=yes: ibv_create_cq_ex, with its wc_flags= and flags= */
	CALL("create_cq", VERBS, CREATE, SCN_C_CQ, 0, O_VERB,
	     ARGS(OPT("depth", LIMIT(0, M_CQ_DEPTH_MAX)), OPT("channel", OBJ(SCN_C_CHAN)),
		  OPT("vector", WORD(SCN_T_COMP_VEC)), OPT("ex", WORD(SCN_T_YESNO)),
		  OPT("wc_flags", FLAGS(SCN_T_WC_EX)), OPT("flags", FLAGS(SCN_T_CQ_FLAGS)))),
	CALL("destroy_cq", VERBS, ACT, SCN_C_CQ, 1, O_VERB, ARGS(GARBLE_ARG)),
	/* takes up to max completions, oldest first: n, and the wr_id, status, opcode and byte_len of each */
	QUERY("poll_cq", VERBS, SCN_C_CQ, O_QUERY, ARGS(OPT("max", RANGE(1, M_POLL_MAX))),
	      ARGS(OPT("n", NUM), WC_RESULTS(1), WC_RESULTS(2), WC_RESULTS(3), WC_RESULTS(4))),
	/* completion channels: create_cq channel= puts a CQ's events on one; req_notify_cq arms a CQ
	 * (solicited=yes: solicited_only); get_cq_event waits a bounded time for the channel's oldest
	 * event: n (1, or 0 when none came) and cq (the CQ's place among the node's CQs, 1 the first
	 * made); ack_cq_events acknowledges n= of a CQ's events */
	CALL("create_comp_channel", VERBS, CREATE, SCN_C_CHAN, 0, O_VERB, NOARGS),
	CALL("destroy_comp_channel", VERBS, ACT, SCN_C_CHAN, 1, O_VERB, NOARGS),
	CALL("req_notify_cq", VERBS, ACT, SCN_C_CQ, 0, O_VERB, ARGS(OPT("solicited", WORD(SCN_T_YESNO)))),
	QUERY("get_cq_event", VERBS, SCN_C_CHAN, O_QUERY, NOARGS, ARGS(OPT("n", NUM), OPT("cq", NUM))),
	CALL("ack_cq_events", VERBS, ACT, SCN_C_CQ, 0, O_VERB, ARGS(OPT("n", RANGE(1, M_ACK_MAX)))),
	/* ibv_resize_cq to depth= entries: cqe, what the CQ then holds */
	QUERY("resize_cq", VERBS, SCN_C_CQ, O_QUERY, ARGS(REQ("depth", RANGE(0, M_CQ_DEPTH_MAX))), ARGS(OPT("cqe", NUM))),
	/* UD address handles: to= the node whose port the AH addresses */
	CALL("create_ah", VERBS, CREATE, SCN_C_AH, 0, O_VERB, ARGS(REQ("pd", OBJ(SCN_C_PD)), REQ("to", NODE))),
	CALL("destroy_ah", VERBS, ACT, SCN_C_AH, 1, O_VERB, ARGS(GARBLE_ARG)),
	/* shared receive queues: create_qp srq= takes its receives from one */
	CALL("create_srq", VERBS, CREATE, SCN_C_SRQ, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), OPT("max_wr", LIMIT(1, M_RECV_DEPTH_MAX)),
		  OPT("max_sge", LIMIT(1, 1)), GARBLE_ARG)),
	CALL("destroy_srq", VERBS, ACT, SCN_C_SRQ, 1, O_VERB, ARGS(GARBLE_ARG)),
	CALL("post_srq_recv", VERBS, POST, SCN_C_SRQ, 0, O_VERB, ARGS(REQ("local", ADDR(SCN_C_MR)), REQ("len", NUM))),
	/* ibv_modify_srq: max_wr= resizes (IBV_SRQ_MAX_WR), srq_limit= arms (IBV_SRQ_LIMIT; 0 disarms); the
	 * mask is the keys given. ibv_query_srq: max_wr, max_sge, srq_limit */
	CALL("modify_srq", VERBS, ACT, SCN_C_SRQ, 0, O_VERB,
	     ARGS(OPT("max_wr", RANGE(0, M_MAX_RECV)), OPT("srq_limit", RANGE(0, 255)))),
	QUERY("query_srq", VERBS, SCN_C_SRQ, O_QUERY, NOARGS,
	      ARGS(OPT("max_wr", NUM), OPT("max_sge", NUM), OPT("srq_limit", NUM))),
	/* the struct the call that made the object returned (FIELDS-1, FIELDS-2): context 1 (the node's own
	 * device context); the objects it points to (none: NULL; own: a QP's CQ the harness made);
	 * mr->addr (judged as an offset in the MR's own buffer: addr=NAME.va), length; mw->type;
	 * qp->qp_type; cq->cqe */
	QUERY("fields", VERBS, FIELDS_CLASSES, O_QUERY, NOARGS,
	      ARGS(OPT("context", NUM), OPT("pd", OBJREF(SCN_C_PD)), { .key = "addr", .flags = SCN_A_VA, NUM }, OPT("length", NUM),
		   OPT("type", NUM), OPT("send_cq", OBJREF(SCN_C_CQ)), OPT("recv_cq", OBJREF(SCN_C_CQ)),
		   OPT("srq", OBJREF(SCN_C_SRQ)), OPT("qp_type", WORD(SCN_T_QPT)), OPT("channel", OBJREF(SCN_C_CHAN)),
		   OPT("cqe", NUM))),
	/* the device the harness opened on the node, named by one of its PDs (DEV-QUERY-1, PORT-QUERY-1):
	 * ibv_query_device (ex: ibv_query_device_ex, its orig_attr) and ibv_query_port (port= 1, 0, past) */
	QUERY("query_device", VERBS, SCN_C_PD, O_QUERY, ARGS(OPT("ex", BARE)),
	      ARGS(OPT("node_guid", NUM), OPT("sys_image_guid", NUM), OPT("max_mr_size", NUM), OPT("page_size_cap", NUM),
		   OPT("vendor_id", NUM), OPT("max_qp", NUM), OPT("max_qp_wr", NUM), OPT("max_sge", NUM),
		   OPT("max_sge_rd", NUM), OPT("max_cq", NUM), OPT("max_cqe", NUM), OPT("max_mr", NUM), OPT("max_pd", NUM),
		   OPT("max_mw", NUM), OPT("max_ah", NUM), OPT("max_srq", NUM), OPT("max_srq_wr", NUM),
		   OPT("max_pkeys", NUM), OPT("phys_port_cnt", NUM))),
	QUERY("query_port", VERBS, SCN_C_PD, O_QUERY, ARGS(OPT("port", WORD(SCN_T_PORT))),
	      ARGS(OPT("state", NUM), OPT("max_mtu", NUM), OPT("active_mtu", NUM), OPT("active_width", NUM),
		   OPT("active_speed", NUM), OPT("link_layer", NUM), OPT("max_msg_sz", NUM), OPT("gid_tbl_len", NUM),
		   OPT("pkey_tbl_len", NUM))),
	/* port 1's GID table and P_Key table: query_gid (index 0; ex: ibv_query_gid_ex, empty: an index within
	 * gid_tbl_len the table does not hold), query_gid_table (room for every entry; max=0: none), query_pkey
	 * (index 0), get_pkey_index (of the P_Key the kernel lists at index 0) */
	CALL("query_gid", VERBS, ACT, SCN_C_PD, 0, O_VERB, ARGS(OPT("ex", BARE), OPT("empty", BARE))),
	QUERY("query_gid_table", VERBS, SCN_C_PD, O_QUERY, ARGS(OPT("max", RANGE(0, 0))), ARGS(OPT("n", NUM))),
	QUERY("query_pkey", VERBS, SCN_C_PD, O_QUERY, NOARGS, ARGS(OPT("pkey", NUM))),
	QUERY("get_pkey_index", VERBS, SCN_C_PD, O_QUERY, NOARGS, ARGS(OPT("index", NUM))),
	{ 0 },
};
CALLS_COUNT(api_verbs_calls);

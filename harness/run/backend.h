/*
 * backend.h — the one table of operations every engine implements: the
 * reference model (be_model.c) and the real stack through node agents
 * (stack.c). The coordinator (runner.c) drives a scenario through two of
 * them side by side, as sqllogictest runs one script on any engine.
 *
 * A step reaches a backend as a struct hcall: the operation, scenario object
 * indexes (scn_file.objs) and numbers. References in a scenario (local=M+8,
 * remote=b.W+0, rkey=b.M.rkey) are resolved by the coordinator through the
 * same backend's ref/attr operations, so each engine sees its own addresses
 * and keys: the model its abstract ones, the real stack the real ones.
 *
 * Errors follow HACKING.md: 0 or a negative errno. An *outcome* of the stack
 * (EINVAL from ibv_reg_mr, REM_ACCESS_ERR, …) is not an error: it is returned
 * in struct hres. A negative return means the engine itself failed
 * (-ETIMEDOUT: no answer within the step timeout; -EPIPE: an agent died;
 * -ENOENT: an object the call needs does not exist in this engine).
 */
#ifndef RDMACHECK_BACKEND_H
#define RDMACHECK_BACKEND_H

#include "harness/lang/scn.h"
#include "model/model.h"

#include <stddef.h>
#include <stdint.h>

/* connect options, in this order (hcall.conn). */
enum hconn { HC_MTU, HC_TIMEOUT, HC_RETRY_CNT, HC_RNR_RETRY, HC_MIN_RNR_TIMER, HC_MAX_RD_ATOMIC,
	     HC_MAX_DEST_RD_ATOMIC, HC_COUNT_ };
/* The scenario key (and agent field) of a connect option: "mtu", …; "?" out of range. */
const char *hconn_key(enum hconn k);

/* libibverbs calls (harness/api/verbs/). Scenario objects are indexes, -1 none. */
struct hc_verbs {
	int32_t pd;               /* reg_mr, alloc_mw, create_qp: the PD; rereg_mr: the new PD */
	int32_t mr, qp;           /* bind_mw: the MR, and the QP the bind is posted on */
	int32_t peer;             /* connect: the peer QP */
	uint8_t peer_node;        /* connect: its node */
	uint32_t access;          /* reg/rereg: access; bind_mw: the window's access; create_qp: qp_access */
	uint32_t rereg_flags;     /* rereg_mr: IBV_REREG_* (enum m_rereg_flag) */
	uint32_t mw_type;         /* alloc_mw: 1 or 2 */
	uint32_t qp_state;        /* modify_qp: the target state (enum m_qp_state) */
	uint8_t bind_call;        /* bind_mw: through ibv_bind_mw() whatever the type */
	uint8_t zero_based;       /* bind_mw: a zero-based window */
	uint64_t len;             /* reg/rereg/bind: length; post: the SGE's length */
	uint64_t max_recv_wr;     /* create_qp (0: asked as 0; the resolver gives the default) */
	uint32_t max_send_wr;     /* create_qp: cap.max_send_wr (the same) */
	uint8_t srq_mask;         /* modify_srq: M_SRQ_MAX_WR (max_wr= given, in max_recv_wr), M_SRQ_LIMIT */
	uint32_t srq_limit;       /* modify_srq: srq_limit= */
	uint8_t fields_of;        /* fields: M_FLD_* of the object's class */
	uint32_t srq_max_sge;     /* create_srq: max_sge; it, the two above and cq_depth may be M_LIM_MAX
	                             or M_LIM_PAST, the device's own limit or one past it (the agent resolves) */
	uint32_t max_inline;      /* create_qp: cap.max_inline_data */
	uint8_t qp_type;          /* create_qp: enum m_qp_type */
	uint8_t qp_ex;            /* create_qp: ex=yes, ibv_create_qp_ex */
	uint16_t send_ops;        /* create_qp ex: send_ops= (IBV_QP_EX_WITH_*) */
	uint8_t send_inline;      /* write, write_imm, send: IBV_SEND_INLINE */
	uint64_t offset;          /* reg_mr: the buffer's page offset */
	uint64_t start;           /* bind_mw: the window's start, in the MR's address space */
	uint64_t iova;            /* reg_mr: hca_va when has_iova */
	uint8_t has_iova, prot;   /* reg_mr: iova given; enum m_prot of the pages */
	uint8_t in_buf;           /* reg_mr buf=: the memory is MR mr's buffer from byte buf_off */
	uint64_t buf_off;
	uint32_t lkey, rkey;      /* post: the SGE's key, the remote key */
	uint64_t laddr, raddr;    /* post: the SGE's address, the remote address */
	uint64_t compare, swap;   /* cas: compare, swap; fadd: both the addend */
	uint8_t with_inv;         /* send: SEND_WITH_INV */
	uint8_t with_imm;         /* send: SEND_WITH_IMM */
	uint32_t imm_data;        /* send with imm, write_imm: the immediate data (imm_data=, default 0) */
	uint32_t inv_rkey;        /* send with inv, local_inv: the rkey to invalidate */
	uint32_t conn_set;        /* connect: bits (1 << enum hconn) given */
	uint32_t conn[HC_COUNT_]; /* connect: the options given */
	int32_t scq, rcq;         /* create_qp: its send and receive CQ objects (-1: CQs of its own) */
	uint8_t sig_all;          /* create_qp: sq_sig_all */
	uint8_t unsignaled;       /* send posts: signaled=no */
	uint8_t nowait;           /* write, read, cas, fadd: wait=no (its completion is a wait step's) */
	uint8_t wr_api;           /* send posts: wr=yes 1, through the ibv_wr_* API (ibv_wr_start .. ibv_wr_complete);
	                             wr=abort 2, ended by ibv_wr_abort */
	uint32_t wr_id;           /* posts, recv: the WR's wr_id (id=, else the step's line) */
	uint32_t cq_depth;        /* create_cq, resize_cq: cqe */
	int32_t chan;             /* create_cq: its completion channel object (-1: none) */
	uint8_t comp_vec;         /* create_cq: enum m_comp_vec */
	uint8_t cq_ex;            /* create_cq: ex=yes, ibv_create_cq_ex */
	uint16_t wc_flags;        /* create_cq ex: wc_flags= (M_WC_EX_*) */
	uint8_t cq_flags;         /* create_cq ex: flags= (ibv_create_cq_attr_flags) */
	uint8_t port;             /* query_port: enum m_port_sel */
	uint8_t dev_ex;           /* query_device, query_gid: ex (the _ex call) */
	uint8_t gid_empty;        /* query_gid: empty (an index the GID table does not hold) */
	uint8_t gid_none;         /* query_gid_table: max=0 */
	uint8_t solicited;        /* req_notify_cq: solicited_only; send, write_imm: IBV_SEND_SOLICITED */
	uint8_t nack;             /* ack_cq_events: nevents */
	uint32_t max_wc;          /* poll_cq: num_entries */
	uint8_t no_sge;           /* write, write_imm, send, recv without local=: num_sge 0 */
	/* QP states, UD (model/verbs/ud.h): modify_qp RTR's peer= and a UD send's dest= are peer/peer_node */
	uint32_t qp_omit;         /* modify_qp: attributes left out (enum m_qp_attr) */
	uint32_t qkey;            /* modify_qp INIT: the UD QP's Q_Key; UD send: the remote Q_Key */
	int32_t ah;               /* UD send: the AH, -1 none */
	uint8_t ah_node;          /* create_ah: the node it addresses */
	uint8_t raw_qpn;          /* UD send: dest_qpn is a raw number (qpn=), not dest='s */
	uint32_t dest_qpn;
	int32_t srq;              /* create_qp: its SRQ, -1 none */
	uint8_t garble;           /* enum m_garble: the handle given garbled (garble=), 0 none */
	uint8_t nsge_more;        /* post, recv: SGEs after the first (local2=, len2=, lkey2=, ...); len is the WR's */
	struct m_sge sge_more[M_SGE_MAX - 1];
	uint32_t max_send_sge;    /* create_qp: cap.max_send_sge (or M_LIM_MAX, M_LIM_PAST) */
	uint32_t max_recv_sge;    /* create_qp: cap.max_recv_sge (the same) */
};

/* The harness's fill (harness/api/mem/). */
struct hc_fill {
	uint8_t byte;
	uint64_t off, len;
};

/* librpma calls (harness/api/rpma/; struct m_op says what the model makes of them). */
struct hc_rpma {
	int32_t mr;               /* rpma_mr_reg: the MR whose buffer to register again (-1 new); I/O: the local MR */
	uint64_t offset;          /* rpma_mr_reg: the buffer's page offset; I/O: the local offset */
	uint64_t len;
	uint32_t usage;           /* rpma_mr_reg: RPMA_MR_USAGE_* (enum m_rpma_usage) */
	uint8_t prot;             /* rpma_mr_reg: enum m_prot of the pages */
	int32_t remote;           /* I/O: the remote MR */
	uint64_t roff;            /* I/O: the offset in it */
	uint32_t flags;           /* I/O: RPMA_F_* */
	uint32_t flush_type;      /* rpma_flush: enum m_rpma_flush_type */
	uint64_t value;           /* rpma_atomic_write: the 8 bytes, little-endian */
	uint8_t peer_node;        /* rpma_connect: the server's node */
	uint8_t pmem;             /* rpma_connect: the server's peer cfg says direct write to pmem */
	uint8_t nulls;            /* pointer arguments passed as NULL (enum m_rpma_null) */
	uint8_t ndesc;            /* rpma_mr_remote_from_descriptor: the descriptor's bytes */
	uint8_t desc[32];
	uint32_t size;            /* the descriptor size passed (size=N; default ndesc or 21) */
};

/* uDAPL calls (harness/api/dat/; struct m_op says what the model makes of them). */
struct hc_dat {
	int32_t pz;               /* lmr_create, rmr_create, ep_connect: the PZ */
	char name[64];            /* ia_open: the provider name ("" the node's default) */
	uint32_t ia;              /* ia_open: which IA the name is (enum m_dat_ia) */
	int32_t lmr;              /* lmr_create: the LMR it is made from (-1 none); rmr_bind, DTO: the local LMR */
	int32_t ep;               /* rmr_bind: the EP */
	uint64_t len;             /* lmr_create, rmr_bind, DTO: the length */
	uint32_t priv;            /* lmr_create, rmr_bind: DAT_MEM_PRIV_* (enum m_dat_priv) */
	uint32_t mem_type;        /* lmr_create: enum m_dat_mem_type */
	uint32_t va_type;         /* lmr_create: DAT_VA_TYPE */
	uint64_t offset;          /* lmr_create: the buffer's page offset */
	uint64_t start;           /* rmr_bind: the window's start, in the LMR's address space */
	uint8_t prot;             /* lmr_create: enum m_prot of the pages */
	int32_t peer_pz;          /* ep_connect: the PZ on the peer */
	int32_t accept;           /* ep_connect: the EP the peer accepts with, when named (accept=); -1 */
	uint64_t pdata;           /* ep_connect: private data bytes */
	uint8_t peer_node;        /* ep_connect: the peer; DTO: the remote LMR's node */
	uint32_t lkey, rkey;      /* DTO: lmr_context and rmr_context as passed */
	uint64_t laddr, raddr;    /* DTO: the local and remote addresses as passed */
	int32_t remote;           /* DTO: the remote LMR named (-1 none) */
	uint64_t roff;            /* DTO: the offset in it */
};

/* MRAPI calls (harness/api/mrapi/; struct m_mrapi_args says what the model makes of them). */
struct hc_mrapi {
	uint32_t domain, node_id;  /* initialize */
	uint32_t id, atype;        /* create, get: the rmem id (0xffffffff: ANY), enum m_mrapi_atype */
	uint64_t size;             /* create: the buffer's size */
	int32_t over;              /* create: the rmem of this node whose buffer to use again (-1 a new one) */
	uint64_t over_off;         /* create: the offset in it */
	int32_t attrs;             /* create: the attributes (-1 NULL) */
	int32_t rmem;              /* the _i calls: the rmem (the others act on obj) */
	int32_t local;             /* read/write(_i): local_buf, an rmem this node created */
	uint64_t local_size;       /* read(_i): local_buf_size (default: local's size) */
	uint32_t local_offset, rmem_offset, bytes, nstrides, rmem_stride, local_stride;
	uint32_t attr_num;         /* set/get_attribute: enum m_mrapi_attr (any number) */
	uint64_t attr_size;        /* set/get_attribute: the size passed (default: the attribute's) */
	uint64_t attr_value;       /* set_attribute */
	uint32_t timeout;          /* wait */
	uint8_t nulls;             /* pointer arguments passed as NULL (enum m_mrapi_null) */
	uint8_t byte;              /* local_store: the byte stored */
	uint64_t off, len;         /* local_store: the range */
	uint8_t stored[M_MRAPI_BYTES]; /* local_store: the bytes stored (byte, len times, up to what the
	                              model tracks), for the model operation to point at */
};

/*
 * librpmem calls (harness/api/rpmem/): the model's arguments as they are
 * (model/rpmem/rpmem.h documents each field; target is a node index, h is
 * filled by the engine), and what only the real stack needs.
 */
struct hc_rpmem {
	struct m_rpmem_args a;
	uint8_t nattr;            /* create/set_attr: attribute bytes given (attr=HEX), 0 none */
};

/*
 * One call as an engine runs it: what every call has, then the arguments of
 * its family (the member of the union its call's api names: verbs, fill,
 * rpma, dat), each field with one meaning.
 */
struct hcall {
	uint16_t call;            /* the scenario call (index in the call table) */
	uint8_t op;               /* enum m_op_kind */
	uint8_t node;
	int32_t obj;              /* object created or acted on (post: the QP); -1 none */
	uint8_t nprefer;          /* simulating engines: take an alternative with one of these */
	struct m_outcome prefer[SCN_OUTCOMES_MAX]; /* outcomes first (the step's expect) */
	uint8_t prefer_success;   /* simulating engines: else a success (a query's expect KEY=VALUE) */
	int32_t refused_errno;    /* a WR chained after one its post refused (LP-7): that errno; 0 none */
	uint8_t chain_pos;        /* a WR's place in its chain of WRs (0: first, or none) */
	uint32_t extra_ms;        /* budget beyond the engine's step budget: a slow kernel path the profile
	                             declares for the step (struct m_kwarn.step_ms; runner.c); 0 none */
	union {
		struct hc_verbs verbs;
		struct hc_fill fill;
		struct hc_rpma rpma;
		struct hc_dat dat;
		struct hc_rpmem rpmem;
		struct hc_mrapi mrapi;
	};
};

/*
 * What a call answered. Queries fill q[i] for the i-th result of the call's
 * query list (scn_call.query) and set bit i of qset; words (state=RTS) are
 * their table values, flags their bits.
 */
struct hres {
	struct m_outcome out;
	uint8_t has_opcode;       /* a post's completion reported its opcode: */
	uint8_t wc_opcode;        /* enum m_wc_opcode */
	uint32_t qset;
	uint64_t q[32]; /* one per bit of qset */
};

/* What a peer QP shows after a step (secondary effects). */
struct hpeer {
	int state;                /* enum m_qp_state, or -1 when it could not be read */
	int recv;                 /* status of one receive completion, or -1 none */
	struct m_recv_wc wc;      /* that completion's opcode, byte_len, immediate (wc.known 0: not reported) */
};

/*
 * What an engine knows of one object, for ref and attr (both engines answer
 * from such a view, so references mean the same everywhere): a buffer's
 * local address, the address peers use and its length and keys; a window's
 * start (in its MR's address space), length and rkey; a QP's number.
 */
struct hview {
	uint32_t cls;              /* enum scn_class */
	uint8_t zero_based;        /* a window bound zero-based */
	uint64_t addr, iova, len, start;
	uint32_t lkey, rkey, qpn;
};

/* backend_ops.ref over a view: see there. -EINVAL for a class without addresses. */
int hview_ref(const struct hview *v, uint64_t off, int remote, uint64_t *addr, uint32_t *key);
/* backend_ops.attr over a view: -EINVAL for an attribute the class has not. */
int hview_attr(const struct hview *v, enum scn_attr a, uint64_t *out);

struct backend_ops {
	const char *name;
	/* Run one call; *r receives the stack's outcome. */
	int (*exec)(void *be, const struct hcall *c, struct hres *r);
	/* Post the n WRs c[0..n) (steps with `chain`, and the step after them) in one call; r[i]
	 * receives WR i's outcome: a refused WR's errno, also for the WRs after it (not posted).
	 * Optional: without it the runner calls exec for each, the refused errno carried on. */
	int (*exec_chain)(void *be, const struct hcall *c, size_t n, struct hres *r);
	/*
	 * Address and key of byte off of object obj as the SGE (remote = 0:
	 * local address, lkey) or a remote request (remote = 1: the address a
	 * peer uses, rkey; for a window: its start + off) would carry them.
	 */
	int (*ref)(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key);
	/* The attribute a of obj (scenario NAME.ATTR). */
	int (*attr)(void *be, int32_t obj, enum scn_attr a, uint64_t *v);
	/* Bytes [off, off+len) of MR obj's buffer (also after dereg). */
	int (*read)(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf);
	/* State of QP obj and one receive completion (waited for up to wait_ms). */
	int (*peer)(void *be, int32_t qp, int wait_ms, struct hpeer *out);
	/*
	 * The bytes object obj hands to a peer (a librpma MR's or remote MR's
	 * descriptor) into buf (cap bytes), their count in *len. -EINVAL for an
	 * object that exports none.
	 */
	int (*blob)(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len);
	/* The reason of the engine's last failure (which node, what), or NULL; optional. */
	const char *(*why)(void *be);
	/*
	 * Run-ahead (optional; runner.c): send c's request now, before the
	 * answers of the calls sent ahead of it; c's exec, later and in the same
	 * order, takes its answer. 0 when sent; -EAGAIN when c cannot go ahead
	 * (its family's say, requests of another node in flight, the queue
	 * full): it is then sent by its exec. The caller sends only calls whose
	 * hcall cannot change until their exec.
	 */
	int (*ahead)(void *be, const struct hcall *c);
	/*
	 * Wait ms between two looks at a peer QP (run_peer.c); optional: NULL
	 * sleeps. An engine that answers from a record (tape.h) has no time to
	 * let pass.
	 */
	void (*pause)(void *be, int ms);
};

#endif

/*
 * model.h — rdmacheck's reference model of verbs memory registration and
 * access semantics: an executable specification.
 *
 * For any sequence of verbs operations on up to M_MAX_NODES nodes, the model
 * says which outcomes a correct stack may produce (a *set*), what state follows
 * each of them, which rules decided, and what memory then holds. Rules come
 * from ../shared/reference/rule-catalog.md (area A); every decision names its
 * rule (model/rules.def). Implementation-defined rules return every allowed
 * outcome; a profile (model/profile.c) replaces, widens or narrows a rule's set
 * for one implementation (e.g. rxe on Linux 6.1) — deviations are data.
 *
 * Use: fill a struct m_op, call model_predict() (pure: the model is const),
 * pick the alternative that matches reality (or any, to simulate), and commit
 * it with model_apply(). Pure C11: no I/O, no global state, deterministic.
 * Enum values equal libibverbs' (IBV_ACCESS_*, IBV_QPS_*, IBV_WC_*), so a
 * real backend can pass them through unchanged.
 *
 * API families (verbs, librpma, uDAPL, ...) are rows of a registry
 * (model/families.def, model/ops.def, model/state.def); each family's
 * values, operation arguments and state are in model/<family>/<family>.h,
 * included here through model/families.h. HACKING.md: "Adding an API family".
 */
#ifndef RDMACHECK_MODEL_H
#define RDMACHECK_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define M_MAX_NODES 16
#define M_MAX_PD 16
#define M_MAX_MR 32
#define M_MAX_MW 16
#define M_MAX_QP 16
#define M_MAX_RECV 32    /* posted receive WRs per QP the model tracks */
#define M_RECV_DEPTH_MAX 16 /* the largest max_recv_wr a QP may ask for (a provider
                             may round it up, to less than twice: LP-7) */
#define M_RECV_DEPTH_DEFAULT 16
#define M_ALT_MAX 8      /* alternatives in one prediction */
#define M_RULES_MAX 10   /* rules named by one alternative (an API step: its rules and the verbs ones) */
#define M_MR_LEN_MAX (1ull << 30) /* the longest registration the model holds (the agents' largest buffer) */
#define M_MR_BYTES_MAX (16u << 20) /* model memory of a scenario: the pages its buffers hold where they were
                                    written (model/mem.c), all nodes, every buffer made (a destroyed one's
                                    pages are kept) */
#define M_MEM_WHOLE (1u << 20) /* a buffer up to this long is compared whole with reality; a longer one
                                  where the model holds pages (model_mem_held_from) */
#define M_PAGE 4096u
#define M_NO_PEER 0xff

/* ------------------------------------------------------------ enums -- */

/* Access flags: the IBV_ACCESS_* values. */
enum m_access {
	M_ACC_LOCAL_WRITE = 1,
	M_ACC_REMOTE_WRITE = 2,
	M_ACC_REMOTE_READ = 4,
	M_ACC_REMOTE_ATOMIC = 8,
	M_ACC_MW_BIND = 16,
	M_ACC_ZERO_BASED = 32,
	M_ACC_ON_DEMAND = 64,
	M_ACC_HUGETLB = 128,
	M_ACC_FLUSH_GLOBAL = 256,
	M_ACC_FLUSH_PERSISTENT = 512,
	M_ACC_RELAXED_ORDERING = 1 << 20, /* IBV_ACCESS_OPTIONAL_FIRST */
};
#define M_ACC_REMOTE_ANY (M_ACC_REMOTE_WRITE | M_ACC_REMOTE_READ | M_ACC_REMOTE_ATOMIC)
#define M_ACC_OPTIONAL_RANGE 0x3ff00000u /* IBV_ACCESS_OPTIONAL_RANGE */

/* ibv_rereg_mr flags: the IBV_REREG_MR_* values. */
enum m_rereg_flag {
	M_REREG_CHANGE_TRANSLATION = 1,
	M_REREG_CHANGE_PD = 2,
	M_REREG_CHANGE_ACCESS = 4,
};

/* QP states: the IBV_QPS_* values. */
enum m_qp_state {
	M_QPS_RESET, M_QPS_INIT, M_QPS_RTR, M_QPS_RTS, M_QPS_SQD, M_QPS_SQE, M_QPS_ERR,
};

/* Work completion status: the IBV_WC_* values. */
enum m_wc_status {
	M_WC_SUCCESS, M_WC_LOC_LEN_ERR, M_WC_LOC_QP_OP_ERR, M_WC_LOC_EEC_OP_ERR,
	M_WC_LOC_PROT_ERR, M_WC_WR_FLUSH_ERR, M_WC_MW_BIND_ERR, M_WC_BAD_RESP_ERR,
	M_WC_LOC_ACCESS_ERR, M_WC_REM_INV_REQ_ERR, M_WC_REM_ACCESS_ERR, M_WC_REM_OP_ERR,
	M_WC_RETRY_EXC_ERR, M_WC_RNR_RETRY_EXC_ERR, M_WC_LOC_RDD_VIOL_ERR,
	M_WC_REM_INV_RD_REQ_ERR, M_WC_REM_ABORT_ERR, M_WC_INV_EECN_ERR,
	M_WC_INV_EEC_STATE_ERR, M_WC_FATAL_ERR, M_WC_RESP_TIMEOUT_ERR, M_WC_GENERAL_ERR,
	M_WC_COUNT_
};

/* What kind of answer an operation gave. */
enum m_outcome_kind {
	M_OUT_OK,     /* a call returned success (creation calls: the object exists) */
	M_OUT_ERRNO,  /* a verb call or a post failed with code = errno value */
	M_OUT_WC,     /* a posted WR completed with code = enum m_wc_status */
	M_OUT_CRASH,  /* the kernel under test died (a known provider defect) */
	M_OUT_RPMA,   /* a librpma call failed with code = RPMA_E_* (negative, librpma.h's value) */
	M_OUT_DAT,    /* a uDAPL call returned code = the DAT_RETURN major type (dat_error.h's
	                 value, e.g. 0x00060000 DAT_INVALID_PARAMETER; subtypes are not compared) */
	M_OUT_DTO,    /* a uDAPL DTO completed with code = DAT_DTO_COMPLETION_STATUS (dat.h) */
	M_OUT_MRAPI,  /* an MRAPI call gave code = index of the status name (no header here) */
	M_OUT_HANG,   /* the step never ended: no answer within the step's budget (a known provider
	                 defect a profile declares; the runner's TIMEOUT, "TIMEOUT"; code 0) */
	M_OUT_COUNT_
};

/* Memory protection of the pages under a registration (MR-MAP-*). */
/* Memory under a registration (MR-MAP-*): read-write, read-only, mapped without
 * any access (PROT_NONE), or not mapped at all. */
enum m_prot { M_PROT_RW, M_PROT_RO, M_PROT_NONE, M_PROT_UNMAPPED };
/* IBV_QPT_*: the QP types the model has (RC: the default). */
enum m_qp_type { M_QPT_RC, M_QPT_UC, M_QPT_UD };

enum m_mw_type { M_MW_TYPE_1 = 1, M_MW_TYPE_2 = 2 };

/* The API families (model/families.def): M_FAM_VERBS, M_FAM_MEM, M_FAM_RPMA, ... */
enum m_family {
#define FAMILY(sym, name, model) M_FAM_##sym,
#include "model/families.def"
#undef FAMILY
	M_FAM_COUNT_
};

/* Operation kinds (model/ops.def): M_OP_ALLOC_PD, ..., M_OP_RPMA_MR_REG, ... */
enum m_op_kind {
#define OP(fam, sym, name) M_OP_##sym,
#include "model/ops.def"
#undef OP
	M_OP_COUNT_
};

/* The family op kind k belongs to (M_FAM_COUNT_ for a value out of range). */
enum m_family m_op_family(enum m_op_kind k);

/* A posted receive WR (a QP's or a shared receive queue's): its SGE (none: no_sge, num_sge 0),
 * and its wr_id. */
/* A posted receive: its first SGE (lkey, addr; len: the whole WR's, every SGE's), and nmore SGEs
 * after it kept in slot of its node's pool (model/verbs/recvsge.h; nmore 0: none, slot unused). */
struct m_recv { uint8_t no_sge, nmore, slot; uint32_t lkey; uint64_t addr; uint32_t len; uint32_t wr_id; };

/* Each family's values, operation arguments and state (model/<family>/<family>.h). */
#include "model/families.h"

/* Capabilities a profile declares (scenario `require` lines). */
enum m_cap {
	M_CAP_MW_TYPE1 = 1u << 0,
	M_CAP_MW_TYPE2 = 1u << 1,
	M_CAP_REREG = 1u << 2,
	M_CAP_ATOMIC_WRITE = 1u << 3,
	M_CAP_FLUSH = 1u << 4,
	M_CAP_ODP = 1u << 5,
	M_CAP_ZERO_BASED_REG = 1u << 6,
	M_CAP_ATOMICS = 1u << 7,
	M_CAP_RPMA = 1u << 8,   /* librpma over this stack */
	M_CAP_DAPL = 1u << 9,   /* uDAPL over this stack */
	M_CAP_DAPL_RMR = 1u << 10, /* uDAPL RMRs (memory windows): dat_rmr_create and dat_rmr_bind work */
	M_CAP_MRAPI = 1u << 11, /* MRAPI remote memory (lib/mrapi, libmrapi-rdma) over this stack */
	M_CAP_RPMEM = 1u << 12, /* librpmem (lib/rpmem over librpma, the rpmemd-rpma target) on this stack */
};

/* Rule identifiers: M_RULE_PD_1 ... (generated from model/rules.def). */
enum m_rule {
#define RULE(sym, id, sec, status, fn, summary, cite) M_RULE_##sym,
#include "model/rules.def"
#undef RULE
	M_RULE_COUNT_
};

/* -------------------------------------------------------- enum names -- */

/*
 * Names without the C prefix, as the scenario language writes them
 * ("REMOTE_READ", "RTS", "REM_ACCESS_ERR", "EINVAL", "reg_mr"). Each *_str
 * returns "?" for a value it does not know; each *_parse is case-insensitive,
 * returns 0 and sets *out, or -EINVAL.
 */
const char *m_access_str(enum m_access bit);
int m_access_parse(const char *name, enum m_access *out);
/* Format a flag set as "A|B" (or "0") into buf; returns buf. */
char *m_access_set_str(uint32_t flags, char *buf, size_t len);
/* Parse "A|B|C" or "0" or a number; returns 0 or -EINVAL. */
int m_access_set_parse(const char *text, uint32_t *out);
const char *m_rereg_flag_str(enum m_rereg_flag f);
int m_rereg_flag_parse(const char *name, enum m_rereg_flag *out);
const char *m_qp_state_str(enum m_qp_state s);
int m_qp_state_parse(const char *name, enum m_qp_state *out);
const char *m_wc_status_str(enum m_wc_status s);
int m_wc_status_parse(const char *name, enum m_wc_status *out);
const char *m_outcome_kind_str(enum m_outcome_kind k);
int m_outcome_kind_parse(const char *name, enum m_outcome_kind *out);
const char *m_errno_str(int code);          /* "EINVAL"; the errnos the model uses */
int m_errno_parse(const char *name, int *out);
const char *m_prot_str(enum m_prot p);
int m_prot_parse(const char *name, enum m_prot *out);
const char *m_qp_type_str(enum m_qp_type t);   /* "RC", "UC", "UD" */
int m_qp_type_parse(const char *name, enum m_qp_type *out);
const char *m_op_kind_str(enum m_op_kind k);
int m_op_kind_parse(const char *name, enum m_op_kind *out);
const char *m_family_str(enum m_family f);     /* "verbs", "rpma", "dat" */
int m_family_parse(const char *name, enum m_family *out);
const char *m_cap_str(enum m_cap c);
int m_cap_parse(const char *name, enum m_cap *out);
const char *m_mw_type_str(enum m_mw_type t);
int m_mw_type_parse(const char *name, enum m_mw_type *out);

/* ------------------------------------------------------------- rules -- */

enum m_rule_status { M_ENCODED, M_NOT_ENCODED };

struct m_rule_info {
	const char *id;        /* "MR-ACC-1" */
	const char *section;   /* "A.2" */
	enum m_rule_status status;
	const char *function;  /* model function that decides it, or the reason it is not encoded */
	const char *summary;
	const char *citation;
};

const char *m_rule_status_str(enum m_rule_status s);
int m_rule_status_parse(const char *name, enum m_rule_status *out);

/* The rule table entry for r; NULL if out of range. */
const struct m_rule_info *m_rule_info(enum m_rule r);
/* Look a rule up by its catalog ID ("RA-KEY-1"); returns 0 and *out, or -ENOENT. */
int m_rule_find(const char *id, enum m_rule *out);

/* ---------------------------------------------------------- profiles -- */

enum m_dev_kind {
	M_DEV_REPLACE, /* the implementation gives exactly these outcomes */
	M_DEV_WIDEN,   /* these outcomes are allowed too */
	M_DEV_NARROW,  /* only the intersection with these outcomes is allowed */
};

struct m_outcome {
	uint8_t kind;  /* enum m_outcome_kind */
	int32_t code;  /* see enum m_outcome_kind; 0 for OK and CRASH */
};

#define M_DEV_OUTS_MAX 4
struct m_deviation {
	enum m_rule rule;
	uint8_t part;                      /* which decision of the rule (0: the step's outcome) */
	uint32_t kernel_min, kernel_max;   /* KVER(major, minor), inclusive */
	enum m_dev_kind kind;
	uint8_t n;
	struct m_outcome outs[M_DEV_OUTS_MAX];
	const char *citation;              /* where the deviation was seen or read */
	const char *component;             /* NULL: the kernel provider; else the library and
	                                      version it belongs to ("librpma 1.2.0") */
};
#define KVER(maj, min) ((uint32_t)(maj) * 1000u + (uint32_t)(min))
const char *m_dev_kind_str(enum m_dev_kind k);
int m_dev_kind_parse(const char *name, enum m_dev_kind *out);

struct m_dev_walks;
struct m_profile {
	const char *name;        /* "generic", "rxe" */
	uint32_t kernel;         /* KVER of the stack under test (0: any) */
	uint32_t caps;           /* enum m_cap bits */
	size_t ndev;
	const struct m_deviation *dev;
	/* m_profile_get's: its built-in table's deviations chained by rule and decision (model/profile.c),
	 * used while dev and ndev are still that table's; NULL (a profile built by hand): dev is scanned */
	const struct m_dev_walks *walks;
};

/*
 * The built-in profiles: "generic" (IBTA / man pages) and "rxe" (Linux
 * soft-RoCE; its deviations carry kernel ranges). kernel selects the version
 * (KVER; 0 = the newest the profile knows). Returns 0 and fills *out, or
 * -ENOENT for an unknown name.
 */
int m_profile_get(const char *name, uint32_t kernel, struct m_profile *out);

/*
 * A kernel WARN a profile declares (model/kwarn.c): on the stack under test,
 * a step that rule decides makes the kernel WARN at `where` (matched in the
 * WARN line: "FILE:LINE FUNC"), as data with its citation and kernel range.
 * A declared WARN is not a finding in a scenario where such a step ran; any
 * other WARN still is. step_ms: how long such a step may take (a declared
 * slow kernel path, not a hang); 0 the usual step budget.
 */
struct m_kwarn {
	enum m_rule rule;
	uint32_t kernel_min, kernel_max;   /* KVER, inclusive */
	const char *where;
	uint32_t step_ms;
	const char *citation;
};
/* The i-th (from 0) WARN profile p declares for rule r at p's kernel, or NULL past the last. */
const struct m_kwarn *m_profile_kwarn(const struct m_profile *p, enum m_rule r, size_t i);
/* Number of built-in profiles and the name of the i-th. */
size_t m_profile_count(void);
const char *m_profile_name(size_t i);

/* ------------------------------------------------------------- state -- */

/* m_qp.sq_kept: some send WR kept; one of them a LOCAL_INV of an unbound type-2 window. */
#define M_KEPT_ANY 1u
#define M_KEPT_INV_T2 2u

struct m_pd { uint8_t live, ever, api; uint32_t usecnt; };

struct m_mr {
	uint8_t live, ever;
	int16_t pd;
	uint32_t access;
	uint64_t addr;       /* virtual address of the first byte */
	uint64_t len;
	uint64_t iova;       /* the address remote peers use for the first byte */
	uint32_t lkey, rkey;
	uint32_t nbound;     /* memory windows bound to it */
	uint8_t api;         /* enum m_family */
	uint32_t usage;      /* RPMA: the usage flags; DAT: the privileges asked for */
	uint8_t prot;        /* enum m_prot of the buffer's pages */
	int16_t buf;         /* the MR (of this node) that owns the buffer's memory: itself, or
	                        the first registration of the buffer, which bytes and unknown
	                        then point into (every registration over one buffer sees the
	                        same bytes; model_clone and model_free know) */
	struct m_mem *mem;   /* the buffer's contents (kept after dereg; every registration of the buffer
	                        points at its owner's, model/mem.c), or NULL */
	uint64_t moff;       /* where this MR's first byte is in mem */
};

struct m_mw {
	uint8_t live, ever, type, bound, zero_based;
	int16_t pd, mr, bind_qp;  /* bind_qp: the QP a type-2 bind happened on */
	uint32_t access;
	uint64_t start;           /* window start, in the MR's iova space */
	uint64_t len;
	uint32_t rkey;
};


#define M_RD_KNOWN_DEST 1u /* struct m_qp.rd_known: max_dest_rd_atomic is set */
#define M_RD_KNOWN_RD 2u   /* max_rd_atomic is set */

struct m_qp {
	uint8_t live, ever, state;
	int16_t pd;
	uint32_t access;           /* qp_access_flags */
	int16_t peer_node, peer_qp;
	uint8_t nrecv;
	uint8_t max_recv;          /* the receive queue depth asked for at create_qp */
	uint8_t sq_kept;           /* send WRs refused below RTS but kept queued (M_EFF_SQ_KEPT): M_KEPT_* bits */
	uint16_t max_inline;       /* the max_inline_data asked for at create_qp */
	uint8_t no_rd_atomic;      /* connected with max_dest_rd_atomic 0: no READ/atomic responder resources */
	uint8_t rd_atomic, dest_rd_atomic, rd_known; /* RC: max_rd_atomic (set at RTS), max_dest_rd_atomic (RTR);
	                              rd_known bits M_RD_KNOWN_* say which are set */
	uint8_t type;              /* enum m_qp_type */
	uint8_t max_send_sge;      /* the cap.max_send_sge asked for at create_qp (at least 1) */
	uint8_t max_recv_sge;      /* the cap.max_recv_sge asked for at create_qp (at least 1) */
	uint16_t pmtu;             /* RC/UC: the path MTU in bytes its move to RTR set; 0 before RTR, after RESET */
	struct m_recv recv[M_MAX_RECV];
	uint32_t qpn;
};

/*
 * A connection of a higher-level API (a librpma connection, a uDAPL
 * endpoint): a connected RC QP pair underneath, qp here and peer_qp on
 * peer_node (both in qp[]), plus what the API keeps.
 */
struct m_conn {
	uint8_t live, ever, api;    /* enum m_family */
	int16_t qp;
	int16_t peer_node, peer_qp, peer_conn; /* peer_conn: the other side's m_conn, or -1 */
	uint8_t pmem;               /* RPMA: a peer cfg with direct write to pmem was applied */
	int16_t aux_mr;             /* RPMA: the internal 8-byte MR flush reads into, or -1 */
};

#define M_MAX_CONN 8

struct m_node {
	uint32_t next_key;          /* keys are never reused: stale keys stay stale */
	uint64_t next_va;
	uint8_t npd, nmr, nmw, nqp; /* slots used so far (a full table reuses a free one: verbs/slot.c) */
	uint8_t nconn;
	struct m_pd pd[M_MAX_PD];
	struct m_mr mr[M_MAX_MR];
	struct m_mw mw[M_MAX_MW];
	struct m_qp qp[M_MAX_QP];
	struct m_conn conn[M_MAX_CONN];
	/* Each family's own state (model/state.def): rpma, dat, ... */
#define NODE_STATE(name) struct m_##name##_node name;
#include "model/state.def"
};

struct model {
	uint8_t nnodes;
	uint8_t crashed;            /* a kernel died: nothing more is predicted */
	uint16_t chan_nodes;        /* bit n: node n has created a completion channel (verbs/chan.c):
	                               the nodes whose channels each step starts (m_cq_note) */
	/* node[nnodes..] are not part of the model: never read; model_init and
	 * model_clone leave them as they were (a model of a few nodes is made
	 * and copied in a fraction of the struct's 0.5 MB). So are the entries of
	 * a domain-wide state past its count (m_<name>_model_used: librpmem's
	 * handles, MRAPI's segments). */
	struct m_node node[M_MAX_NODES];
	/* Each family's domain-wide state (model/state.def). */
#define MODEL_STATE(name) struct m_##name##_model name;
#include "model/state.def"
};

/*
 * Initialise an empty model of nnodes nodes (1..M_MAX_NODES). Returns 0 or
 * -EINVAL (the model is then empty too: model_free is safe). The model owns
 * MR contents; release them with model_free().
 */
int model_init(struct model *m, unsigned nnodes);
/* Release what the model owns; the struct may be initialised again. */
void model_free(struct model *m);
/* Deep copy of src into dst (dst uninitialised; its nodes past src's not written). Returns 0 or -ENOMEM. */
int model_clone(struct model *dst, const struct model *src);

/* ---------------------------------------------------------- operations -- */

/*
 * One operation on one node: which (kind), where (node), on what (obj: the
 * handle of the object acted on, or -1 for a creating call), and the
 * arguments of its family (the union member named after the family; each
 * field's meaning is documented where its struct is declared, in
 * model/<family>/<family>.h). Handles are per-node indexes given out by the
 * creating operation; once a verbs table is full, a creation takes the slot of
 * a destroyed object nothing refers to (model/verbs/slot.c).
 */
struct m_op {
	uint8_t kind;       /* enum m_op_kind */
	uint8_t node;
	int16_t obj;
	union {
#define M_FAMILY_ARGS_0(name)
#define M_FAMILY_ARGS_1(name) struct m_##name##_args name;
#define FAMILY(sym, name, model) M_FAMILY_ARGS_##model(name)
#include "model/families.def"
#undef FAMILY
#undef M_FAMILY_ARGS_0
#undef M_FAMILY_ARGS_1
	};
};

/* Side effects an alternative has besides its outcome. */
enum m_effect {
	M_EFF_NONE,        /* nothing changes */
	M_EFF_DO,          /* the operation takes effect */
	M_EFF_QP_ERR,      /* the acting QP goes to ERR (local error); receives flushed */
	M_EFF_BOTH_ERR,    /* acting and peer QP go to ERR (remote error); receives flushed */
	M_EFF_PEER_ERR,    /* the requester succeeded, the responder failed after acknowledging
	                      (IBTA class J): only the peer QP goes to ERR, the receive buffer
	                      the SEND consumed is unspecified */
	M_EFF_CRASH,       /* the kernel died: the model stops */
	M_EFF_SQ_KEPT,     /* refused at post (EINVAL), but the provider kept the send WR queued:
	                      it runs at the first post once the QP is RTS (QP-STATE-1, rxe) */
	M_EFF_OUTSTANDING, /* a post that does not wait (wait=no): handed over, it runs later
	                      (model/verbs/outstanding.h) */
};

const char *m_effect_str(enum m_effect e);
int m_effect_parse(const char *name, enum m_effect *out);

struct m_alt {
	struct m_outcome out;
	uint8_t effect;          /* enum m_effect */
	uint8_t target_unknown;  /* RA-WRITE-1: the target range becomes unspecified */
	uint8_t remote_done;     /* an atomic failed locally after the responder executed it (LP-6) */
	int8_t peer_recv;        /* the peer's receive completion: -1 none, else m_wc_status */
	int8_t detail;           /* a family's own datum of this alternative, -1 none (MRAPI: the status
	                            an _i call's request will report, the request wait_any completed) */
	uint8_t peer_state;      /* the peer QP's state afterwards; M_NO_PEER if no peer is involved */
	uint8_t nrules;
	uint8_t dev;             /* 1 + the index in the profile's table (struct m_profile.dev) of the
	                            deviation that decided this alternative, 0 none recorded (then the
	                            deviation is found by rule and outcome: run_deviation) */
	uint16_t rules[M_RULES_MAX]; /* enum m_rule that decided */
};

/* What predict resolved, for apply (handles on the acting node / the peer). */
struct m_resolved {
	int16_t lmr;        /* local MR of the SGE, -1 if none */
	uint64_t loff;      /* byte offset in it */
	int16_t peer_node, peer_qp;
	int16_t tmr;        /* target MR on the peer (through an MW too), -1 if none */
	uint64_t toff;
	int16_t inv_mw;     /* MW invalidated (local_inv: local; send with inv: peer), -1 */
	int16_t rmr;        /* send: the receive buffer's MR on the peer, -1 */
	uint64_t roff;
};

struct m_pred {
	struct m_op op;
	struct m_resolved res;
	/* Bits 1 << enum m_wc_status: the statuses outstanding WR k (struct m_outst_model.w[k]) could
	 * complete with in the state this prediction was made in; [M_OUTST_MAX]: the post's own (wait=no) */
	uint32_t wr_seen[M_OUTST_MAX + 1];
	uint8_t n;
	struct m_alt alt[M_ALT_MAX];
};

/*
 * Predict op on m under profile p: every allowed alternative with its rules.
 * Returns 0 (out->n >= 1), or -EINVAL when the op is malformed for the model
 * (unknown node, handle out of range, a handle that was never created), or
 * -EDEADLK for a call the library would never return from (CQ-EVENT-1: a
 * destroy_cq with events not acknowledged) — a scenario error, not a stack
 * outcome. Pure: m is not changed.
 */
int model_predict(const struct model *m, const struct m_profile *p, const struct m_op *op,
		  struct m_pred *out);

/*
 * Commit alternative i of pred (made by model_predict on this m). For a
 * creating operation whose alternative succeeded, *created (if not NULL)
 * receives the new handle, else -1. Returns 0, -EINVAL (bad index), or -ENOSPC
 * when a per-node table is full.
 */
int model_apply(struct model *m, const struct m_pred *pred, size_t i, int *created);

/*
 * Whether the model can hold a memory registration of len bytes at page
 * offset off: at most M_MR_LEN_MAX bytes (held in pages where written: the
 * limit on those is M_MR_BYTES_MAX, model_mem_check), or a length no buffer can have
 * (addr+len wraps: MR-LEN-2, predicted EINVAL). Every MR, librpma MR and DAT
 * LMR is one; the scenario parser refuses the others where they are written.
 */
int model_mr_len_holds(uint64_t len, uint64_t off);

/* Index of the alternative whose outcome equals o, or -1. */
int model_pred_find(const struct m_pred *pred, struct m_outcome o);

/*
 * The name of o as scenarios write it: "ok", "EINVAL", "REM_ACCESS_ERR",
 * "KERNEL_CRASH", "RPMA_E_INVAL", "DAT_INVALID_PARAMETER",
 * "DAT_DTO_ERR_REMOTE_ACCESS", "MRAPI_ERR_RMEM_EXISTS"; "?" for a value
 * without a name. m_outcome_str copies it into buf and returns buf.
 */
const char *m_outcome_name(struct m_outcome o);
char *m_outcome_str(struct m_outcome o, char *buf, size_t len);
/* Parse those names back (case-insensitive). Returns 0 or -EINVAL. */
int m_outcome_parse(const char *name, struct m_outcome *out);
/* Every outcome name in turn (for hints and documentation); NULL past the end. */
const char *m_outcome_nth(size_t i, struct m_outcome *o);

/* ------------------------------------------------------------ queries -- */

/* How much the model knows of a value a query reports. */
enum m_qmode {
	M_Q_ANY,      /* implementation-defined: anything */
	M_Q_EXACT,    /* exactly value */
	M_Q_ZERO,     /* 0 */
	M_Q_NONZERO,  /* anything but 0 */
	M_Q_ATLEAST,  /* value or more (a capability a provider may round up) */
	M_Q_RANGE,    /* from value to hi (rpmem_open's *nlanes: 1 to what was allowed) */
	M_Q_ONEFLAG,  /* one of the flags of hi (a single bit hi has: query_port's active_width);
	                 value: the lowest of them, the model's own report */
};
const char *m_qmode_str(enum m_qmode q);
int m_qmode_parse(const char *name, enum m_qmode *out);

/* A result that is a pointer to an object (fields: pd=, srq=; FIELDS-1): the model handle of
 * the object of that class on the node, or one of these. */
#define M_QREF_NONE UINT64_MAX         /* NULL */
#define M_QREF_OWN (UINT64_MAX - 1)    /* an object the harness made for it (a QP's CQs without cq=) */
#define M_QREF_OTHER (UINT64_MAX - 2)  /* none of the node's objects (reality only) */

#define M_QRES_MAX 20 /* poll_cq: n and four results of each of M_POLL_MAX completions */
struct m_qres {
	uint8_t n;
	struct {
		const char *key;      /* the scenario's result name ("state", "rmr_context") */
		uint8_t mode;         /* enum m_qmode */
		uint64_t value;       /* M_Q_EXACT: the value; else what the model itself reports
		                         as a simulated stack (its own keys, sizes) */
		uint16_t rule;        /* enum m_rule that decides it, M_RULE_COUNT_ if none */
		uint64_t hi;          /* M_Q_RANGE: the largest value allowed */
	} r[M_QRES_MAX];
};

/*
 * What query op (query_qp, rpma_mr_remote_get_size, dat_lmr_query; a call
 * with results, rpmem_open) reports on m as it is (call after applying the
 * call's alternative), per result.
 * Returns 0, or -EINVAL when op is not a query the model answers.
 */
int model_query(const struct model *m, const struct m_profile *p, const struct m_op *op,
		struct m_qres *out);
/* Does value v satisfy entry i of q? */
int model_qres_ok(const struct m_qres *q, size_t i, uint64_t v);
/*
 * Is o a call's success: ok, or a status that names success (MRAPI_SUCCESS,
 * DAT_SUCCESS, a completion's SUCCESS)? A query reports its results (what
 * model_query answers, what `expect KEY=VALUE` names) with its success only.
 */
int model_outcome_success(struct m_outcome o);

/* ----------------------------------------------------------- memory -- */

/* Remote address of byte off of MR h on node n (iova + off). */
uint64_t model_mr_raddr(const struct model *m, unsigned n, int h, uint64_t off);
/* Local address of byte off of MR h on node n (addr + off). */
uint64_t model_mr_laddr(const struct model *m, unsigned n, int h, uint64_t off);
/*
 * Compare len bytes of MR h on node n from off with real[]; bytes the model
 * marks unspecified match anything. Returns -1 if equal, else the first
 * differing offset (relative to off).
 */
long model_mr_compare(const struct model *m, unsigned n, int h, uint64_t off,
		      const uint8_t *real, size_t len);
/*
 * The same over any bytes the model holds (bytes[], unknown[] 1 where
 * unspecified, len of each): -1 if real[] matches, else the first differing index.
 */
long model_bytes_compare(const uint8_t *bytes, const uint8_t *unknown, const uint8_t *real, size_t len);

/*
 * A buffer's contents (struct m_mr.mem), held in M_PAGE-byte pages where
 * written (model/mem.c); bytes outside them are 0 and known.
 * model_mem_at: *bytes and *unknown (1 where unspecified) at offset off of
 * mem, valid for the returned count (1..len: up to the end of off's page;
 * len >= 1). Read-only views: the model's own storage, or zeros.
 */
struct m_mem;
size_t model_mem_at(const struct m_mem *mem, uint64_t off, size_t len, const uint8_t **bytes,
		    const uint8_t **unknown);
/* The first offset >= off that lies in a page mem holds (off itself if its page is held), or UINT64_MAX. */
uint64_t model_mem_held_from(const struct m_mem *mem, uint64_t off);
/*
 * Whether m holds its buffers' memory: 0, or -EFBIG when the pages held,
 * all buffers together, pass M_MR_BYTES_MAX (or a write found no memory:
 * the model then no longer knows what it wrote). *held (if not NULL): the
 * bytes of the pages held.
 */
int model_mem_check(const struct model *m, uint64_t *held);
/* Byte off of MR h on node n (its contents) and whether it is unspecified (1/0); -1 past its end. */
int model_mr_byte(const struct model *m, unsigned n, int h, uint64_t off);
int model_mr_unknown(const struct model *m, unsigned n, int h, uint64_t off);
/* Whether MR h on node n holds the same contents (and marks) in a as in b. */
int model_mr_same(const struct model *a, const struct model *b, unsigned n, int h);
/* Set len bytes of MR h on node n from off to byte, known (what `fill` does). 0, -EINVAL, or -EFBIG (full). */
int model_mr_set(struct model *m, unsigned n, int h, uint64_t off, int byte, uint64_t len);

#endif

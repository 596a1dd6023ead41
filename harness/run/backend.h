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

struct hcall {
	uint16_t call;            /* the scenario call (index in the call table) */
	uint8_t op;               /* enum m_op_kind */
	uint8_t node;
	int32_t obj;              /* object created or acted on (post: the QP); -1 none */
	int32_t pd, mr, qp, peer; /* reg/alloc/create: pd; bind: mr, qp; connect: peer QP */
	uint8_t peer_node;
	uint32_t access;          /* reg/rereg access, bind mw_access, create_qp qp_access */
	uint32_t flags;           /* rereg flags */
	uint32_t type;            /* alloc_mw type; modify_qp state (enum m_qp_state) */
	uint64_t len;
	uint64_t offset;          /* reg: page offset; bind: window start (MR address space);
	                             fill/check: byte offset */
	uint64_t iova;
	uint8_t has_iova, prot, byte, zero_based, with_inv;
	uint32_t lkey, rkey, inv_rkey;
	uint64_t laddr, raddr, compare, swap;
	uint32_t conn_set;        /* bits (1 << enum hconn) given */
	uint32_t conn[HC_COUNT_];
	uint8_t nprefer;          /* simulating engines: take an alternative with one of these */
	struct m_outcome prefer[SCN_OUTCOMES_MAX]; /* outcomes first (the step's expect) */
	/* Higher-level APIs (librpma, uDAPL); see struct m_op for their meaning. */
	int32_t remote;           /* RPMA: the remote MR; DAT: the peer's LMR (object); -1 none */
	uint64_t roff;            /* offset in it */
	uint32_t rflags;          /* RPMA_F_* */
	uint8_t nulls;            /* pointer arguments passed as NULL (bit i: the i-th) */
	uint8_t ndesc;            /* a descriptor given literally (bytes=HEX), else 0 */
	uint8_t desc[32];
	uint32_t size;            /* the descriptor size to pass (size=N; default ndesc or 21) */
	char name[64];            /* dat_ia_open: the provider name ("" the node's default) */
};

/*
 * What a call answered. Queries fill q[i] for the i-th result of the call's
 * query list (scn_call.query) and set bit i of qset; words (state=RTS) are
 * their table values, flags their bits.
 */
struct hres {
	struct m_outcome out;
	uint32_t qset;
	uint64_t q[SCN_ARGS_MAX];
};

/* What a peer QP shows after a step (secondary effects). */
struct hpeer {
	int state;                /* enum m_qp_state, or -1 when it could not be read */
	int recv;                 /* status of one receive completion, or -1 none */
};

/*
 * What an engine knows of one object, for ref and attr (both engines answer
 * from such a view, so references mean the same everywhere): a buffer's
 * local address, the address peers use and its length and keys; a window's
 * start (in its MR's address space), length and rkey; a QP's number.
 */
struct hview {
	uint16_t cls;              /* enum scn_class */
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
};

#endif

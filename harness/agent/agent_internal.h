/*
 * agent_internal.h — what the node agent's files share (not a public API):
 * the agent, its objects, request helpers, and the per-API request tables.
 *
 * agent.c is the core: the request loop, objects and their buffers, fill and
 * read. Each API family adds its requests in harness/api/<family>/agent_*.c
 * and names its request table and teardown in its registry row (family.h):
 * the loop looks requests up through the registry.
 * An object created by an API may keep API state in ext, released by its
 * release function when the agent ends.
 */
#ifndef RDMACHECK_AGENT_INTERNAL_H
#define RDMACHECK_AGENT_INTERNAL_H

#include "harness/agent/agent.h"
#include "harness/run/family.h"
#include "harness/run/proto.h"

#include <infiniband/verbs.h>
#include <stddef.h>
#include <stdint.h>

enum aobj_kind {
	AO_NONE, AO_PD, AO_MR, AO_MW, AO_QP, AO_CQ, /* verbs (a CQ object keeps its CQ in scq) */
	AO_RPMA_MR, AO_RPMA_REMOTE, AO_RPMA_CONN, /* librpma */
	AO_DAT_PZ, AO_DAT_LMR, AO_DAT_RMR, AO_DAT_EP, /* uDAPL */
	AO_MRAPI_RMEM, AO_MRAPI_REQ, AO_MRAPI_ATTRS,  /* MRAPI */
	AO_RPMEM_POOL,                                /* librpmem */
	AO_AH,                                        /* verbs address handles (ext: the ibv_ah) */
	AO_SRQ,                                       /* verbs shared receive queues (ext: the ibv_srq) */
	AO_CHAN,                                      /* verbs completion channels (ext: the ibv_comp_channel) */
};

struct agent;

/*
 * The mapping behind one or more registrations' buffers (an MR, a librpma MR,
 * a DAT LMR, and every registration made over the same bytes: from=, buf=).
 * It is owned by the objects that reference it and unmapped when the last
 * reference goes (agent_buffer_drop), so re-creating one name never takes
 * bytes away from another.
 */
struct abuf {
	uint8_t *map;             /* NULL: no bytes (unmapped on purpose) */
	size_t maplen;
	int prot;                 /* the pages' protection (PROT_*) */
	unsigned refs;
};

struct aobj {
	uint8_t kind, live;
	/* A buffer (MR, librpma MR, DAT LMR): it outlives the registration. */
	struct abuf *mem;         /* a reference to the mapping, or NULL */
	uint8_t *buf;             /* this object's bytes within mem */
	size_t len;
	/* verbs */
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_mw *mw;
	uint32_t mw_rkey;
	struct ibv_qp *qp;
	struct ibv_cq *scq, *rcq;
	uint32_t qp_access;
	uint8_t qp_uc;            /* a UC QP (else RC) */
	uint8_t qp_ud;            /* a UD QP */
	uint8_t cq_given;         /* a QP's scq/rcq that are CQ objects' (AGENT_CQ_SEND|RECV), not its own */
	/* Other APIs: their own state, and how to release it (at the end only). */
	void *ext;
	void (*release)(struct agent *a, struct aobj *o);
};

struct agent {
	int fd, step_ms;
	struct proto_rd rd;        /* fd's read buffer */
	const struct agent_node *node;
	struct agent_node self;    /* node with the name a reset gave (agent_serve's until then) */
	char name[64];
	char driver[32];           /* the device's driver and the kernel's release, for the greeting */
	char kernel[65];
	struct ibv_context *ctx;
	union ibv_gid gid;
	uint64_t next_wr;
	unsigned cqs_made;         /* verbs CQ objects made since the last reset (get_cq_event's cq=) */
	struct aobj obj[AGENT_OBJS_MAX];
	char msg[PROTO_LINE_MAX];
	/* Each API family's per-node state (state[its enum m_family]), NULL until
	 * its first use; released by its agent_end (family.h). */
	void *state[API_FAMILIES_MAX];
	/* Families with per-node state (an agent_end) that served a request since
	 * the last reset (bit: enum m_family): their libraries may keep process
	 * state no release undoes, so a reset reports them (agent.h: reset). */
	uint32_t fams;
};

/*
 * The reset request (agent.h): release every object and every family's state
 * as at the agent's end, then count into *objs what is still held (objects
 * live, buffers, API state, families' per-node state) and into *fams the
 * families with per-node state (an agent_end) that served a request since the
 * last reset, whose libraries may keep process state no release undoes. Both
 * 0: the agent is as a fresh one (its object slots emptied). a->fams restarts.
 */
void agent_reset(struct agent *a, unsigned *objs, unsigned *fams);

/* Answer "err errno=N msg=TEXT" (err a positive errno). Returns 0. */
int agent_reply_err(struct agent *a, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The object named by field key of the request, of kind k (live, if need_live), or NULL. */
struct aobj *agent_field_obj(struct agent *a, const char *key, enum aobj_kind k, int need_live);
/* The request's id field as a fresh slot for a new object, or NULL. What a
 * former object of that id kept (its ext) is released first; its buffer stays
 * until the new object makes or shares one. */
struct aobj *agent_new_obj(struct agent *a);
/*
 * Between two polls of a completion (or any state the kernel will change)
 * that started at since_ms (proto_now_ms): for the first AGENT_SPIN_MS only a
 * yield of the CPU — rxe completes a small request in tens of µs, where a
 * 200 µs sleep costs far more under TCG — then 200 µs sleeps. The answers
 * held back (proto_hold) stay held while it yields and are written before
 * its first sleep.
 */
void agent_poll_pause(int64_t since_ms);
/* What agent_poll_pause does at now_ms for a poll that started at since_ms: 0 (a yield), or a sleep of that many ns. */
long agent_poll_pause_ns(int64_t since_ms, int64_t now_ms);
#define AGENT_SPIN_MS 5

/* The request's numeric field key, or dflt. */
uint64_t agent_num(struct agent *a, const char *key, uint64_t dflt);

/* The names of a completion status, a completion opcode ("?" for one the
 * model does not name) and a QP state as answers carry them: the model's
 * (model/names.c), whose enums follow libibverbs' numbering. */
const char *agent_wc_status_str(enum ibv_wc_status s);
const char *agent_wc_opcode_str(enum ibv_wc_opcode o);
const char *agent_qp_state_str(enum ibv_qp_state s);

/*
 * Give o a buffer of len bytes at page offset off (< page size) whose pages
 * have protection prot (0 RW, 1 RO, 2 none, 3 not mapped: see enum m_prot),
 * dropping o's reference to a buffer it had. Returns 0 or -errno.
 */
int agent_buffer(struct aobj *o, uint64_t len, uint64_t off, int prot);
/* Make o use from's buffer (the same bytes, len of them), dropping o's own. */
void agent_buffer_share(struct aobj *o, const struct aobj *from, size_t len);
/* Drop o's reference to its buffer (unmapped with the last one). */
void agent_buffer_drop(struct aobj *o);
#define AGENT_BUF_MAX (1ull << 30) /* the largest buffer agent_buffer makes */

#endif

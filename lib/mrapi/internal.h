/*
 * internal.h — what the files of libmrapi-rdma share (not a public API).
 *
 * A node is a thread: its state (struct lib) is one of the process's
 * MRAPI_MAX_LOCAL_NODES slots, found through a thread-local pointer set by
 * mrapi_initialize. Each node has its own directory connection, transport,
 * handles and requests; its mutex is taken by every public call of it (a
 * node's state is only ever touched under it). The table of slots is
 * guarded by one process-wide mutex (taken to claim and release a slot).
 * Internal functions follow the project's error convention (0 or a negative
 * errno); the public calls turn results into MRAPI statuses.
 */
#ifndef MRAPI_INTERNAL_H
#define MRAPI_INTERNAL_H

#include "lib/mrapi/dir.h"
#include "lib/mrapi/mrapi.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define LIB_MAX_HANDLES 64
#define ATTR_MAGIC 0x6d724174u  /* "mrAt": an initialised mrapi_rmem_attributes_t */
#define DIR_TIMEOUT_MS 5000
#define CONNECT_TIMEOUT_MS 5000
#define BOUNCE_SIZE (64u * 1024u)
#define BATCH_WR 32u            /* work requests per posted batch (the send queue depth) */

/* ---- transport.c: verbs + rdma_cm ---- */
struct tp_node;  /* this node's device, PD, rdma_cm listener and its thread */
struct tp_conn;  /* an attachment: an RC QP connected to the owner, a bounce buffer */
struct tp_mr;    /* a registered rmem buffer */

/* Open the device that owns ip, listen there (port chosen by the stack), start the listener thread. */
int tp_open(const char *ip, struct tp_node **out, char *err, size_t errlen);
/* Stop the thread, disconnect every peer, release everything. */
void tp_close(struct tp_node *t);
unsigned tp_port(const struct tp_node *t);
/* Register [mem, mem+len) for remote read and write. */
int tp_reg(struct tp_node *t, void *mem, size_t len, struct tp_mr **out, uint32_t *rkey);
void tp_dereg(struct tp_mr *m);
/* Connect to the owner's listener at ip:port. */
int tp_connect(struct tp_node *t, const char *ip, unsigned port, struct tp_conn **out);
void tp_disconnect(struct tp_conn *c);
/* The connection's bounce buffer (BOUNCE_SIZE bytes, registered). */
uint8_t *tp_bounce(struct tp_conn *c);
/* One RDMA READ (write 0) or WRITE (1) per piece: bounce[loff..+len) <-> raddr. At most BATCH_WR. */
struct tp_piece { uint32_t loff, len; uint64_t raddr; };
int tp_post(struct tp_conn *c, int write, const struct tp_piece *p, unsigned n, uint32_t rkey);
/*
 * Poll for the posted batch: 1 done (all succeeded), 0 still under way,
 * -EIO a work request failed (the owner deregistered or went away: the
 * connection is dead), another negative errno.
 */
int tp_poll(struct tp_conn *c);
/* A connection that failed once stays failed. */
int tp_dead(const struct tp_conn *c);

/* ---- rmem.c: handles ---- */
enum h_kind { H_FREE, H_OWN, H_REMOTE };

struct handle {
	uint8_t kind;
	uint32_t slot_gen;      /* part of the public handle: a freed slot's old handles stay dead */
	uint32_t id, gen;       /* directory identity */
	uint32_t atype, shared, error_ext, domain;
	uint64_t addr, size;    /* owner's address of the buffer (H_OWN: the local one) */
	uint32_t rkey;
	unsigned port;
	char ip[48];
	struct tp_mr *mr;       /* H_OWN */
	struct tp_conn *conn;   /* attached: the connection (H_REMOTE, or H_OWN attached to itself) */
	int attached;           /* this node attached (the directory counts it) */
	int busy;               /* a request is using conn */
	int dead;               /* deleted or withdrawn: every call gives RMEM_INVALID */
};

/* ---- request.c ---- */
struct request {
	uint8_t live, canceled, done;
	uint32_t gen;
	int h;                  /* the handle's slot */
	int write;
	uint8_t *local;         /* the caller's buffer (read: written back at completion) */
	const uint8_t *wsrc;
	uint32_t rmem_offset, local_offset, bytes, nstrides, rmem_stride, local_stride;
	uint64_t next;          /* bytes of the whole transfer done so far */
	uint64_t inflight_from; /* batch under way: from this byte, for inflight bytes */
	uint32_t inflight;
	int posted;
	mrapi_status_t status;  /* the result, once done */
};

struct lib {
	pthread_mutex_t lock;
	int init;
	uint32_t domain, node;
	uint32_t magic;         /* per node (16 bits, never 0, unlike any other live node's): part of every handle */
	int dir_fd;
	char ip[48];            /* MRAPI_RDMA_ADDR */
	struct tp_node *tp;     /* opened at the first call that needs RDMA */
	struct handle h[LIB_MAX_HANDLES];
	struct request rq[MRAPI_MAX_REQUESTS];
	uint32_t next_gen;
	mrapi_status_t *call_status; /* the public call under way (lib_enter .. lib_leave), for debug output */
	const char *call;
};

/* The calling thread's node (set by lib_enter; only valid between lib_enter and lib_leave). */
extern _Thread_local struct lib *lib_cur;
#define lib_state (*lib_cur)

/*
 * Lock the calling thread's node, and report NODE_NOTINIT (returning 0)
 * unless the thread is an initialized node. call names the public call
 * (for mrapi_set_debug_level's output).
 */
int lib_enter_call(mrapi_status_t *status, const char *call);
#define lib_enter(status) lib_enter_call((status), __func__)
/* Unlock; with debug output on, report the call's status if it is not SUCCESS. */
void lib_leave(void);
/* The debug level (mrapi_set_debug_level). */
int lib_debug_level(void);
/* The slot of handle v, or -1. Dead handles are found (the caller reports them invalid). */
int h_find(mrapi_rmem_hndl_t v);
mrapi_rmem_hndl_t h_value(int slot);
/* The transport, opened on first use. 0 or -errno. */
int lib_transport(struct tp_node **out);
/* Fail and end every request on slot h (its connection died or it was withdrawn). */
void rq_abort_handle(int h, mrapi_status_t st);
/* Drive request r (blocking: until done). Returns 1 done, 0 under way. */
int rq_progress(struct request *r, int blocking);
/* The public value of request slot. */
mrapi_request_t rq_value(int slot);
/*
 * A handle of another node's buffer that this node is not attached to (so no
 * connection tells it) may have been deleted: ask the directory. Returns 1
 * (the handle is marked dead) if its (id, gen) is gone, else 0.
 */
int h_withdrawn(int h);
/* Release handle slot h's resources (connection, registration). */
void h_release(int h);

#endif

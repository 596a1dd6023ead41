/*
 * node.h — a node's state (not a public API): its handles and requests as
 * data, and the calls every public call makes (node.c). Above the
 * transport; request.h, then rmem.h build on it (includes go one way:
 * transport.h <- node.h <- request.h <- rmem.h).
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
#ifndef MRAPI_NODE_H
#define MRAPI_NODE_H

#include "lib/mrapi/dir.h"
#include "lib/mrapi/mrapi.h"
#include "lib/mrapi/transport.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define LIB_MAX_HANDLES 64
#define ATTR_MAGIC 0x6d724174u  /* "mrAt": an initialised mrapi_rmem_attributes_t */
#define DIR_TIMEOUT_MS 5000

/* A handle slot (rmem.c keeps them). */
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

/* A request slot (request.c keeps them). */
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
/* Give node n's slot back (mrapi_finalize, once the node is closed). */
void lib_node_release(struct lib *n);
/* The transport, opened on first use. 0 or -errno. */
int lib_transport(struct tp_node **out);

#endif

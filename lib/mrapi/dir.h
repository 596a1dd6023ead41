/*
 * dir.h — the rmem directory: one small TCP service per set of nodes that
 * share an address (MRAPI_RDMA_DIR), holding every live rmem id with its
 * owner, type, attributes, RDMA address (addr, rkey, the owner's rdma_cm
 * address) and who is attached. It makes ids domain-wide and create atomic:
 * the service is one single-threaded poll loop, so of two CREATEs of one id
 * exactly one gets OK.
 *
 * Who runs it: the first node to call mrapi_initialize finds nothing
 * listening, binds the address itself (a second node racing it gets
 * EADDRINUSE and simply connects) and forks the service as a process of its
 * own (double fork, new session), so it outlives that node. The service ends
 * LINGER_MS after its last node left (or if no node ever arrives).
 *
 * Protocol: each node keeps one TCP connection for its lifetime; the
 * connection *is* the node's membership: when it closes (finalize, exit,
 * crash) the service drops the node's segments and attachments. Requests and
 * replies are single lines (< DIR_LINE bytes, '\n'-terminated, fields
 * separated by one space, numbers decimal, ip a dotted quad):
 *
 *   HELLO domain node                       OK | ERR NODE_INITIALIZED
 *   CREATE id|ANY atype shared addr size rkey port ip
 *                                           OK id gen | ERR EXISTS | ERR MEM_LIMIT | ERR ID_INVALID
 *   GET id                                  OK id gen atype shared domain addr size rkey port ip
 *                                           | ERR ID_INVALID
 *   ATTACH id gen   DETACH id gen   DELETE id gen
 *                                           OK | ERR INVALID | ERR ATTACHED | ERR NOTATTACHED
 *                                           | ERR NOTOWNER | ERR ATTACH
 *
 * A request that does not parse gets "ERR PROTO". gen tells two lives of one
 * id apart, so a stale handle never reaches a new buffer. The client side
 * waits at most the timeout given to dir_open for any reply.
 */
#ifndef MRAPI_DIR_H
#define MRAPI_DIR_H

#include <stddef.h>
#include <stdint.h>

#define DIR_LINE 256
#define DIR_MAX_NODES 32
#define DIR_MAX_SEGS 12         /* = MRAPI_MAX_RMEMS */
#define DIR_LINGER_MS 2000
#define DIR_ANY_FIRST 0x10000u  /* where ANY ids start (skipping ids in use) */
#define DIR_MAX_USER_ID 0xfffffffeu  /* = MRAPI_MAX_USER_RMEM_ID: every id but ANY */

/* What GET answers. */
struct dir_seg {
	uint32_t id, gen, atype, shared, domain;
	uint64_t addr, size;
	uint32_t rkey, port;
	char ip[48];
};

/* ---- wire.c: the line codec (async-signal-safe: the forked service uses it) ---- */
struct wline { char buf[DIR_LINE]; size_t len; int over; };
void wl_init(struct wline *w);
void wl_str(struct wline *w, const char *s);
void wl_u64(struct wline *w, uint64_t v);     /* " 123" (a space first unless empty) */
void wl_end(struct wline *w);                 /* the '\n'; w->over if it did not fit */
/* Split s (NUL-terminated, no '\n') in place at spaces; up to max fields. Returns the count. */
int wl_split(char *s, char **argv, int max);
/* Decimal without sign, no overflow; returns 0 or -EINVAL. */
int wl_u64_parse(const char *s, uint64_t *out);

/* ---- dir_server.c ---- */
/*
 * Bind host:port and fork the service onto it. Returns 0 (it runs),
 * -EADDRINUSE (someone else bound it first) or another negative errno.
 */
int dir_spawn(const char *host, unsigned port);
/* Serve on listening socket lfd until the last node leaves; never returns. */
void dir_serve(int lfd);

/* ---- dir_client.c ---- */
/*
 * Connect to the directory at host:port (spawning it when nothing listens)
 * and say HELLO for (domain, node). Returns 0 and *fd, -EEXIST (the node is
 * initialized already), -ETIMEDOUT / another negative errno.
 */
int dir_open(const char *host, unsigned port, uint32_t domain, uint32_t node, unsigned timeout_ms, int *fd);
/* Send one request line, read the reply line (without '\n') into reply. 0 or -errno. */
int dir_call(int fd, const struct wline *req, char *reply, size_t len);
/* The reply's meaning: 0 for "OK ...", else the MRAPI status its "ERR NAME" stands for. */
int dir_status(const char *reply);
int dir_create(int fd, uint32_t id, uint32_t atype, int shared, uint64_t addr, uint64_t size, uint32_t rkey,
	       unsigned port, const char *ip, uint32_t *id_out, uint32_t *gen);
int dir_get(int fd, uint32_t id, struct dir_seg *out);
/* ATTACH, DETACH or DELETE ("ATTACH" ...) of (id, gen). */
int dir_op(int fd, const char *verb, uint32_t id, uint32_t gen);

#endif

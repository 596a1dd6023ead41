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
 * DIR_LINGER_MS after its last connection left (or if no node ever arrives).
 *
 * Authentication (README "The directory"): MRAPI_RDMA_KEYS names a keyring
 * file (a regular file of mode 0600 or stricter; lines "DOMAIN SECRET", the
 * secret DIR_KEY_MIN..DIR_KEY_MAX printable bytes without spaces; '#' lines
 * and blank lines ignored). The service takes the keyring of the node that
 * started it (it inherits it, keyed, across the fork); every node proves it
 * holds its domain's secret and the service proves it holds it too (mutual
 * HMAC-SHA256 over both sides' nonces, domain and node). A service started
 * without MRAPI_RDMA_KEYS is open: it takes every HELLO on its word (for a
 * single trusted machine or test topology), and a node that has a keyring
 * refuses it.
 *
 * Protocol: each node keeps one TCP connection for its lifetime; the
 * connection *is* the node's membership: when it closes (finalize, exit,
 * crash) the service drops the node's segments and attachments. Lines are
 * < DIR_LINE bytes, '\n'-terminated, fields separated by one space, numbers
 * decimal, ip a dotted quad, nonces and MACs lowercase hex:
 *
 *   (service, on accept)                    DIR 1 nonce_s
 *   HELLO domain node [nonce_c mac_c]       OK [mac_s] | ERR NODE_INITIALIZED | ERR AUTH | ERR LIMIT
 *     mac_c = HMAC(secret of domain, "node DOMAIN NODE nonce_s nonce_c")
 *     mac_s = HMAC(secret of domain, "dir DOMAIN NODE nonce_c nonce_s")
 *   CREATE id|ANY atype shared addr size rkey port ip
 *                                           OK id gen | ERR EXISTS | ERR MEM_LIMIT | ERR ID_INVALID
 *   GET id                                  OK id gen atype shared domain addr size rkey port ip
 *                                           | ERR ID_INVALID | ERR NOTSHARED
 *   ATTACH id gen   DETACH id gen   DELETE id gen
 *                                           OK | ERR INVALID | ERR ATTACHED | ERR NOTATTACHED
 *                                           | ERR NOTOWNER | ERR NOTSHARED
 *   (DELETE is not refused while other nodes are attached, nor to a node of the
 *   segment's domain that did not create it, as in the reference implementation;
 *   NOTOWNER: a node of another domain. A node still attached to a deleted
 *   segment may DETACH it once.)
 *
 * Nothing but HELLO is served before HELLO succeeded ("ERR PROTO"); a failed
 * HELLO ends the connection. A request that does not parse gets "ERR PROTO".
 * gen tells two lives of one id apart, so a stale handle never reaches a new
 * buffer.
 *
 * What a node may do: the owner, domain and node of a segment are those its
 * CREATE's connection authenticated as, never fields of the request, so no
 * node can publish a buffer as another's. A segment created with
 * DOMAIN_SHARED false is its domain's only: another domain's GET is told
 * NOTSHARED and nothing else (no address, no key, no gen), and its ATTACH,
 * DETACH and DELETE find nothing (INVALID). A shared one is there for every
 * authenticated domain of the directory (MRAPI's DOMAIN_SHARED).
 *
 * Limits (the service never blocks on one peer): non-blocking sockets; an
 * input line of < DIR_LINE bytes; at most DIR_OUTQ bytes of replies queued
 * per connection (a connection's input is not read while its queue is full)
 * and a connection whose queued replies make no progress for DIR_WRITE_MS is
 * dropped; a line must be complete DIR_MSG_MS after its first byte, HELLO
 * must succeed DIR_HELLO_MS after accept; DIR_MAX_NODES nodes, and up to
 * DIR_MAX_PENDING connections before HELLO, the oldest of them closed when
 * another arrives. The client waits at most the timeout given to dir_open for
 * any reply.
 */
#ifndef MRAPI_DIR_H
#define MRAPI_DIR_H

#include <stddef.h>
#include <stdint.h>

#define DIR_LINE 256
#define DIR_MAX_NODES 32
#define DIR_MAX_PENDING 64
#define DIR_SLOTS (DIR_MAX_NODES + DIR_MAX_PENDING)
#define DIR_OUTQ 2048
#define DIR_HELLO_MS 2000
#define DIR_MSG_MS 2000
#define DIR_WRITE_MS 1000
#define DIR_MAX_SEGS 12         /* = MRAPI_MAX_RMEMS */
#define DIR_LINGER_MS 2000
#define DIR_ANY_FIRST 0x10000u  /* where ANY ids start (skipping ids in use) */
#define DIR_MAX_USER_ID 0xfffffffeu  /* = MRAPI_MAX_USER_RMEM_ID: every id but ANY */
#define DIR_MAX_DOMAINS 16      /* lines of a keyring */
#define DIR_KEY_MIN 16
#define DIR_KEY_MAX 128
#define DIR_HEX 65              /* a nonce (32 bytes) or an HMAC-SHA256 in hex, and the NUL */

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

/* ---- dir_auth.c: the keyring and the handshake's MACs ---- */
/* One domain's secret, as a keyed HMAC context (the secret itself is not kept). */
struct dir_key { uint32_t domain; void *mac; };
struct dir_keys { int n; struct dir_key k[DIR_MAX_DOMAINS]; };
/*
 * Read the keyring at path into *keys (n = 0: empty; free with
 * dir_keys_free). 0, or a negative errno with the reason in err
 * ("FILE:LINE:COL: ..." for what is wrong inside the file).
 */
int dir_keys_load(const char *path, struct dir_keys *keys, char *err, size_t errlen);
void dir_keys_free(struct dir_keys *keys);
/* Domain's key, or NULL. */
const struct dir_key *dir_key_of(const struct dir_keys *keys, uint32_t domain);
/* 32 random bytes in hex. 0 or -EIO. */
int dir_nonce(char out[DIR_HEX]);
/*
 * HMAC(key, "ROLE DOMAIN NODE n1 n2") in hex. 0 or -EIO. Safe in the forked
 * service: it only duplicates the context keyed before the fork (no
 * algorithm fetch, no lock of OpenSSL's), which allocates.
 */
int dir_mac(const struct dir_key *k, const char *role, uint32_t domain, uint32_t node, const char *n1,
	    const char *n2, char out[DIR_HEX]);
/* Two hex MACs are equal (in time that does not depend on where they differ). */
int dir_mac_same(const char *a, const char *b);

/* ---- dir_server.c ---- */
/*
 * Bind host:port and fork the service onto it, serving the domains of keys
 * (n = 0: open). Returns 0 (it runs), -EADDRINUSE (someone else bound it
 * first) or another negative errno.
 */
int dir_spawn(const char *host, unsigned port, const struct dir_keys *keys);
/* Serve on listening socket lfd until the last connection leaves; never returns. */
void dir_serve(int lfd, const struct dir_keys *keys);

/* ---- dir_client.c ---- */
/*
 * Connect to the directory at host:port (spawning it when nothing listens)
 * and authenticate as (domain, node) with the keyring MRAPI_RDMA_KEYS names
 * (none: open). Returns 0 and *fd, -EEXIST (the node is initialized
 * already), -EACCES (refused, or the directory could not prove it holds the
 * domain's secret), -EINVAL (a bad keyring: said on stderr), -ETIMEDOUT /
 * another negative errno.
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

/*
 * transport.h — libmrapi-rdma's RDMA transport (transport.c, verbs +
 * rdma_cm): a node's device, PD and rdma_cm listener, connections to an
 * owner with their bounce buffer, registrations, batches of RDMA READ /
 * WRITE. The lowest layer of lib/mrapi (not a public API): it knows nothing
 * of nodes, handles or requests. Functions return 0 or a negative errno.
 */
#ifndef MRAPI_TRANSPORT_H
#define MRAPI_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#define CONNECT_TIMEOUT_MS 5000
#define BOUNCE_SIZE (64u * 1024u)
#define BATCH_WR 32u            /* work requests per posted batch (the send queue depth) */

struct tp_node;  /* this node's device, PD, rdma_cm listener and its thread */
struct tp_conn;  /* an attachment: an RC QP connected to the owner, a bounce buffer */
struct tp_mr;    /* a registered rmem buffer */

/* Open the device that owns ip, listen there (port chosen by the stack), start the listener thread. */
int tp_open(const char *ip, struct tp_node **out, char *err, size_t errlen);
/* Stop the thread, disconnect every peer, release everything. */
void tp_close(struct tp_node *t);
unsigned tp_port(const struct tp_node *t);
/* Register [mem, mem+len) for remote read and write, in a PD of its own; no attach is accepted yet. */
int tp_reg(struct tp_node *t, void *mem, size_t len, struct tp_mr **out, uint32_t *rkey);
/* The buffer is published as (id, gen) (gen != 0, the directory's): attachers claiming it are accepted. */
void tp_publish(struct tp_mr *m, uint32_t id, uint32_t gen);
/* Disconnect the peers attached to it, deregister it. */
void tp_dereg(struct tp_mr *m);
/*
 * Connect to the owner's listener at ip:port, claiming its buffer (id, gen,
 * rkey); -ECONNREFUSED when the owner has no such buffer.
 */
int tp_connect(struct tp_node *t, const char *ip, unsigned port, uint32_t id, uint32_t gen, uint32_t rkey,
	       struct tp_conn **out);
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

#endif

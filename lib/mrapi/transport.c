/*
 * transport.c — libmrapi-rdma's RDMA: the node's device and PD (found from
 * its address, MRAPI_RDMA_ADDR), a passive rdma_cm listener whose thread
 * accepts attaching nodes (an RC QP each, nothing posted: the peers use RDMA
 * READ and WRITE), registrations of rmem buffers, and the active side of an
 * attachment (an RC QP to the owner and a registered bounce buffer).
 *
 * The owner checks each attaching node's claim: the connect request's
 * private data names the buffer (id, generation, rkey), and the listener
 * accepts it only when that is a buffer this node registered and published
 * under that id and generation (tp_publish, with what the directory gave
 * its create). Each buffer has a PD of its own, and an accepted QP is made
 * in the PD of the buffer it claimed: it reaches that buffer and no other.
 * A node that published a false endpoint (another node's address and rkey
 * under an id of its own) leads its attachers to a refusal.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RD_ATOMIC 16    /* outstanding RDMA READs each way */
#define LAST_WR 1       /* wr_id of a batch's signaled, last work request */

struct tp_mr {
	struct tp_node *t;
	struct ibv_pd *pd; /* the buffer's own */
	struct ibv_mr *mr;
	uint32_t id, gen;  /* tp_publish's; gen 0: not published yet, no claim matches */
	struct tp_mr *next;
};

struct peer {
	struct rdma_cm_id *id;
	struct ibv_cq *cq;
	struct tp_mr *m; /* the buffer it claimed */
	struct peer *next;
};

struct tp_node {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen;
	struct ibv_pd *pd;
	pthread_t thr;
	int stop[2];
	pthread_mutex_t lock; /* peers, mrs */
	struct peer *peers;
	struct tp_mr *mrs;
	unsigned port;
	char ip[48];
};


struct tp_conn {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_cq *cq;
	struct ibv_mr *bmr;
	uint8_t *bounce;
	int posted;
	int dead;
};

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ? -errno : 0;
}

static int sockaddr_of(const char *ip, unsigned port, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -EINVAL;
}

/* ------------------------------------------------------- passive side -- */

static void peer_free(struct peer *p)
{
	if (p->id->qp)
		rdma_destroy_qp(p->id);
	if (p->cq)
		ibv_destroy_cq(p->cq);
	rdma_destroy_id(p->id);
	free(p);
}

/* The claim of a connect request's private data: magic, id, gen, rkey (big-endian 32-bit words). */
#define CLAIM_MAGIC 0x4d524331u /* "MRC1" */
#define CLAIM_LEN 16

static void claim_put(uint8_t *b, uint32_t id, uint32_t gen, uint32_t rkey)
{
	uint32_t w[4] = { htonl(CLAIM_MAGIC), htonl(id), htonl(gen), htonl(rkey) };

	memcpy(b, w, CLAIM_LEN);
}

/* The published buffer the claim in priv names, or NULL; with t->lock held. */
static struct tp_mr *claimed(struct tp_node *t, const uint8_t *priv, size_t len)
{
	uint32_t w[4];

	if (!priv || len < CLAIM_LEN)
		return NULL;
	memcpy(w, priv, CLAIM_LEN);
	if (ntohl(w[0]) != CLAIM_MAGIC || ntohl(w[2]) == 0)
		return NULL;
	for (struct tp_mr *m = t->mrs; m; m = m->next)
		if (m->gen && m->id == ntohl(w[1]) && m->gen == ntohl(w[2]) && m->mr->rkey == ntohl(w[3]))
			return m;
	return NULL;
}

/*
 * A node attaches: if its claim names one of our published buffers, an RC
 * QP in that buffer's PD, accepted with RDMA READ resources; otherwise
 * rejected. The lock is held throughout, so tp_dereg never frees the
 * buffer's PD under an accept.
 */
static void on_connect_request(struct tp_node *t, struct rdma_cm_id *id, const uint8_t *priv, size_t len)
{
	struct rdma_conn_param cp = { .responder_resources = RD_ATOMIC, .initiator_depth = RD_ATOMIC };
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
				       .cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct peer *p = calloc(1, sizeof(*p));

	pthread_mutex_lock(&t->lock);
	if (!p || !(p->m = claimed(t, priv, len)))
		goto reject;
	p->id = id;
	if (!(p->cq = ibv_create_cq(id->verbs, 2, NULL, NULL, 0)))
		goto free_peer;
	qa.send_cq = qa.recv_cq = p->cq;
	if (rdma_create_qp(id, p->m->pd, &qa))
		goto free_peer;
	if (rdma_accept(id, &cp))
		goto free_peer;
	p->next = t->peers;
	t->peers = p;
	pthread_mutex_unlock(&t->lock);
	return;
free_peer:
	if (id->qp)
		rdma_destroy_qp(id);
	if (p->cq)
		ibv_destroy_cq(p->cq);
reject:
	pthread_mutex_unlock(&t->lock);
	free(p);
	rdma_reject(id, NULL, 0);
	rdma_destroy_id(id);
}

/* The peer on id went away: release it (the event is acknowledged first). */
static void on_disconnected(struct tp_node *t, struct rdma_cm_id *id)
{
	struct peer **pp, *p = NULL;

	pthread_mutex_lock(&t->lock);
	for (pp = &t->peers; *pp; pp = &(*pp)->next)
		if ((*pp)->id == id) {
			p = *pp;
			*pp = p->next;
			break;
		}
	pthread_mutex_unlock(&t->lock);
	if (p)
		peer_free(p);
}

static void *listener(void *arg)
{
	struct tp_node *t = arg;
	struct pollfd pf[2] = { { .fd = t->ch->fd, .events = POLLIN }, { .fd = t->stop[0], .events = POLLIN } };

	for (;;) {
		struct rdma_cm_event *ev;

		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			break;
		while (rdma_get_cm_event(t->ch, &ev) == 0) {
			enum rdma_cm_event_type type = ev->event;
			struct rdma_cm_id *id = ev->id;

			if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
				uint8_t priv[CLAIM_LEN];
				size_t len = ev->param.conn.private_data_len;

				len = len < CLAIM_LEN ? len : CLAIM_LEN;
				if (ev->param.conn.private_data)
					memcpy(priv, ev->param.conn.private_data, len);
				else
					len = 0;
				rdma_ack_cm_event(ev);
				on_connect_request(t, id, priv, len);
			} else if (type == RDMA_CM_EVENT_DISCONNECTED) {
				rdma_ack_cm_event(ev);
				on_disconnected(t, id);
			} else {
				rdma_ack_cm_event(ev);
			}
		}
	}
	return NULL;
}

int tp_open(const char *ip, struct tp_node **out, char *err, size_t errlen)
{
	struct tp_node *t = calloc(1, sizeof(*t));
	struct sockaddr_in sa;
	int rc = -ENOMEM;

	if (!t)
		return -ENOMEM;
	t->stop[0] = t->stop[1] = -1;
	snprintf(t->ip, sizeof(t->ip), "%s", ip);
	pthread_mutex_init(&t->lock, NULL);
	if ((rc = sockaddr_of(ip, 0, &sa))) {
		snprintf(err, errlen, "MRAPI_RDMA_ADDR '%s' is not an IPv4 address", ip);
		goto free_t;
	}
	if (!(t->ch = rdma_create_event_channel())) {
		rc = -errno;
		snprintf(err, errlen, "rdma_create_event_channel: %s", strerror(errno));
		goto free_t;
	}
	if (rdma_create_id(t->ch, &t->listen, t, RDMA_PS_TCP)) {
		rc = -errno;
		goto destroy_ch;
	}
	if (rdma_bind_addr(t->listen, (struct sockaddr *)&sa) || rdma_listen(t->listen, 16)) {
		rc = -errno;
		snprintf(err, errlen, "rdma_bind_addr/listen on %s: %s", ip, strerror(errno));
		goto destroy_id;
	}
	if (!t->listen->verbs) {
		rc = -ENODEV;
		snprintf(err, errlen, "no RDMA device has address %s", ip);
		goto destroy_id;
	}
	if (!(t->pd = ibv_alloc_pd(t->listen->verbs))) {
		rc = -errno;
		goto destroy_id;
	}
	t->port = ntohs(rdma_get_src_port(t->listen));
	if (pipe(t->stop) < 0 || (rc = set_nonblock(t->ch->fd))) {
		rc = rc ? rc : -errno;
		goto dealloc_pd;
	}
	if ((rc = -pthread_create(&t->thr, NULL, listener, t)))
		goto close_pipe;
	*out = t;
	return 0;
close_pipe:
	close(t->stop[0]);
	close(t->stop[1]);
dealloc_pd:
	ibv_dealloc_pd(t->pd);
destroy_id:
	rdma_destroy_id(t->listen);
destroy_ch:
	rdma_destroy_event_channel(t->ch);
free_t:
	pthread_mutex_destroy(&t->lock);
	free(t);
	return rc;
}

void tp_close(struct tp_node *t)
{
	struct peer *p;

	if (!t)
		return;
	if (write(t->stop[1], "x", 1) != 1)
		return; /* cannot stop the thread: leak rather than free under it */
	pthread_join(t->thr, NULL);
	while ((p = t->peers)) {
		t->peers = p->next;
		rdma_disconnect(p->id);
		peer_free(p);
	}
	rdma_destroy_id(t->listen);
	ibv_dealloc_pd(t->pd);
	rdma_destroy_event_channel(t->ch);
	close(t->stop[0]);
	close(t->stop[1]);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

unsigned tp_port(const struct tp_node *t)
{
	return t->port;
}

int tp_reg(struct tp_node *t, void *mem, size_t len, struct tp_mr **out, uint32_t *rkey)
{
	struct tp_mr *m = calloc(1, sizeof(*m));
	int rc;

	if (!m)
		return -ENOMEM;
	m->t = t;
	if (!(m->pd = ibv_alloc_pd(t->listen->verbs)))
		goto fail;
	m->mr = ibv_reg_mr(m->pd, mem, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	if (!m->mr)
		goto fail;
	pthread_mutex_lock(&t->lock);
	m->next = t->mrs;
	t->mrs = m;
	pthread_mutex_unlock(&t->lock);
	*rkey = m->mr->rkey;
	*out = m;
	return 0;
fail:
	rc = errno ? -errno : -ENOMEM;
	if (m->pd)
		ibv_dealloc_pd(m->pd);
	free(m);
	return rc;
}

void tp_publish(struct tp_mr *m, uint32_t id, uint32_t gen)
{
	pthread_mutex_lock(&m->t->lock);
	m->id = id;
	m->gen = gen;
	pthread_mutex_unlock(&m->t->lock);
}

void tp_dereg(struct tp_mr *m)
{
	struct tp_node *t;
	struct peer *gone = NULL, **pp;
	struct tp_mr **mp;

	if (!m)
		return;
	t = m->t;
	/* out of the list, with the peers that claimed it: no accept can reach it any more */
	pthread_mutex_lock(&t->lock);
	for (mp = &t->mrs; *mp; mp = &(*mp)->next)
		if (*mp == m) {
			*mp = m->next;
			break;
		}
	for (pp = &t->peers; *pp;) {
		struct peer *p = *pp;

		if (p->m == m) {
			*pp = p->next;
			p->next = gone;
			gone = p;
		} else {
			pp = &p->next;
		}
	}
	pthread_mutex_unlock(&t->lock);
	/* their QPs are in the buffer's PD: disconnected (their next transfer fails) and gone first */
	while (gone) {
		struct peer *p = gone;

		gone = p->next;
		rdma_disconnect(p->id);
		peer_free(p);
	}
	ibv_dereg_mr(m->mr);
	ibv_dealloc_pd(m->pd);
	free(m);
}

/* --------------------------------------------------------- active side -- */

/* The next event on c's channel within CONNECT_TIMEOUT_MS; it must be want. */
static int wait_event(struct tp_conn *c, enum rdma_cm_event_type want)
{
	struct pollfd pf = { .fd = c->ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int rc;

	rc = poll(&pf, 1, CONNECT_TIMEOUT_MS);
	if (rc <= 0)
		return rc == 0 ? -ETIMEDOUT : -errno;
	if (rdma_get_cm_event(c->ch, &ev))
		return -errno;
	rc = ev->event == want ? 0 : ev->event == RDMA_CM_EVENT_REJECTED ? -ECONNREFUSED : -EHOSTUNREACH;
	rdma_ack_cm_event(ev);
	return rc;
}

static int conn_qp(struct tp_node *t, struct tp_conn *c)
{
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
				       .cap = { .max_send_wr = BATCH_WR, .max_recv_wr = 1, .max_send_sge = 1,
						.max_recv_sge = 1 } };

	if (c->id->verbs != t->listen->verbs)
		return -EXDEV; /* routed out of another device than the node's own */
	if (!(c->cq = ibv_create_cq(c->id->verbs, (int)BATCH_WR * 2, NULL, NULL, 0)))
		return -errno;
	qa.send_cq = qa.recv_cq = c->cq;
	if (rdma_create_qp(c->id, t->pd, &qa))
		return -errno;
	if (posix_memalign((void **)&c->bounce, 4096, BOUNCE_SIZE))
		return -ENOMEM;
	if (!(c->bmr = ibv_reg_mr(t->pd, c->bounce, BOUNCE_SIZE, IBV_ACCESS_LOCAL_WRITE)))
		return -errno;
	return 0;
}

static void conn_free(struct tp_conn *c)
{
	if (c->bmr)
		ibv_dereg_mr(c->bmr);
	free(c->bounce);
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->id)
		rdma_destroy_id(c->id);
	if (c->ch)
		rdma_destroy_event_channel(c->ch);
	free(c);
}

int tp_connect(struct tp_node *t, const char *ip, unsigned port, uint32_t id, uint32_t gen, uint32_t rkey,
	       struct tp_conn **out)
{
	uint8_t claim[CLAIM_LEN];
	struct rdma_conn_param cp = { .responder_resources = RD_ATOMIC, .initiator_depth = RD_ATOMIC,
				      .retry_count = 3, .rnr_retry_count = 3, .private_data = claim,
				      .private_data_len = CLAIM_LEN };
	struct sockaddr_in src, dst;
	struct tp_conn *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	claim_put(claim, id, gen, rkey);
	if ((rc = sockaddr_of(t->ip, 0, &src)) || (rc = sockaddr_of(ip, port, &dst)))
		goto fail;
	if (!(c->ch = rdma_create_event_channel()) || rdma_create_id(c->ch, &c->id, c, RDMA_PS_TCP))
		goto fail_errno;
	if (rdma_resolve_addr(c->id, (struct sockaddr *)&src, (struct sockaddr *)&dst, CONNECT_TIMEOUT_MS))
		goto fail_errno;
	if ((rc = wait_event(c, RDMA_CM_EVENT_ADDR_RESOLVED)))
		goto fail;
	if (rdma_resolve_route(c->id, CONNECT_TIMEOUT_MS))
		goto fail_errno;
	if ((rc = wait_event(c, RDMA_CM_EVENT_ROUTE_RESOLVED)) || (rc = conn_qp(t, c)))
		goto fail;
	if (rdma_connect(c->id, &cp))
		goto fail_errno;
	if ((rc = wait_event(c, RDMA_CM_EVENT_ESTABLISHED)) || (rc = set_nonblock(c->ch->fd)))
		goto fail;
	*out = c;
	return 0;
fail_errno:
	rc = errno ? -errno : -EIO;
fail:
	conn_free(c);
	return rc;
}

void tp_disconnect(struct tp_conn *c)
{
	if (!c)
		return;
	rdma_disconnect(c->id);
	conn_free(c);
}

uint8_t *tp_bounce(struct tp_conn *c)
{
	return c->bounce;
}

int tp_dead(const struct tp_conn *c)
{
	return c->dead;
}

/* A DISCONNECTED event on the connection marks it dead. */
static void check_events(struct tp_conn *c)
{
	struct rdma_cm_event *ev;

	while (rdma_get_cm_event(c->ch, &ev) == 0) {
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED || ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			c->dead = 1;
		rdma_ack_cm_event(ev);
	}
}

int tp_post(struct tp_conn *c, int write, const struct tp_piece *p, unsigned n, uint32_t rkey)
{
	struct ibv_send_wr wr[BATCH_WR], *bad;
	struct ibv_sge sge[BATCH_WR];

	check_events(c);
	if (c->dead)
		return -EIO;
	if (n == 0 || n > BATCH_WR || c->posted)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)(c->bounce + p[i].loff), .length = p[i].len,
					   .lkey = c->bmr->lkey };
		wr[i] = (struct ibv_send_wr){ .wr_id = i + 1 == n ? LAST_WR : 0, .sg_list = &sge[i], .num_sge = 1,
					      .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
					      .send_flags = i + 1 == n ? IBV_SEND_SIGNALED : 0,
					      .next = i + 1 < n ? &wr[i + 1] : NULL };
		wr[i].wr.rdma.remote_addr = p[i].raddr;
		wr[i].wr.rdma.rkey = rkey;
	}
	if (ibv_post_send(c->id->qp, wr, &bad))
		return -EIO;
	c->posted = 1;
	return 0;
}

int tp_poll(struct tp_conn *c)
{
	struct ibv_wc wc[BATCH_WR];
	int n;

	if (!c->posted) {
		check_events(c);
		return c->dead ? -EIO : 1;
	}
	n = ibv_poll_cq(c->cq, BATCH_WR, wc);
	if (n < 0)
		return -EIO;
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			c->dead = 1;
			c->posted = 0;
			return -EIO;
		}
		if (wc[i].wr_id == LAST_WR) {
			c->posted = 0;
			return 1;
		}
	}
	return 0;
}

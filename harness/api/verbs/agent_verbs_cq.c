/*
 * agent_verbs_cq.c — the agent's CQ objects: create_cq, destroy_cq, poll_cq;
 * completion channels and their events: create_comp_channel,
 * destroy_comp_channel, req_notify_cq, get_cq_event, ack_cq_events (agent_cq.h).
 */
#include "harness/api/verbs/agent_cq.h"
#include "harness/api/verbs/agent_cqex.h"
#include "harness/api/verbs/agent_device.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STASH_MAX 256     /* completions kept per CQ between polls */
#define POLL_SETTLE_MS 100 /* poll_cq: how long the CQ must stay quiet before fewer than max are taken */
#define POLL_MAX 4
#define TAKEN_MAX 64      /* completions poll_cq took, kept for a wait that comes after it */
#define EVENT_WAIT_MS 200 /* get_cq_event: how long it waits for an event before it answers none */
#define ACK_MAX 16        /* ack_cq_events: the most one request acknowledges */

/* What a CQ object gave and the scenario has not polled yet, oldest first. */
struct stash {
	size_t n;
	struct ibv_wc wc[STASH_MAX];
	uint8_t seen[STASH_MAX];  /* a peer's observation looked at it (agent_cq_peek_recv) */
	uint8_t waited[STASH_MAX]; /* a wait (or a post that waits) answered with it (agent_cq_wait) */
	size_t ntaken;            /* completions poll_cq took, the last TAKEN_MAX in taken[i % TAKEN_MAX] */
	struct ibv_wc taken[TAKEN_MAX];
	uint8_t twaited[TAKEN_MAX]; /* waited[] of each, carried over */
	unsigned ord;             /* its place among the CQs made since the reset, 1 the first */
	unsigned unacked;         /* events get_cq_event took of it, not acknowledged yet */
	uint8_t armed;            /* req_notify_cq asked an event of it (once, ever: get_cq_event's wait) */
	struct ibv_cq_ex *ex;     /* made by ibv_create_cq_ex (ex=1): polled through it (agent_cqex.h) */
	uint64_t wc_flags;        /* its wc_flags */
};

/* One completion of CQ object c into *wc: 1, 0 when it holds none, -EIO. */
static int poll1(struct aobj *c, struct ibv_wc *wc)
{
	struct stash *s = c->ext;
	int k;

	if (s->ex)
		return agent_cqex_poll1(s->ex, s->wc_flags, wc);
	k = ibv_poll_cq(c->scq, 1, wc);
	return k < 0 ? -EIO : k;
}

static void release_cq(struct agent *a, struct aobj *o)
{
	struct stash *s = o->ext;

	(void)a;
	/* ibv_destroy_cq waits for every event taken to be acknowledged: acknowledge them first. */
	if (s && s->unacked && o->live && o->scq)
		ibv_ack_cq_events(o->scq, s->unacked);
	free(o->ext);
	o->ext = NULL;
}

struct aobj *agent_cq_of(struct agent *a, struct ibv_cq *cq)
{
	for (int i = 0; cq && i < AGENT_OBJS_MAX; i++)
		if (a->obj[i].kind == AO_CQ && a->obj[i].live && a->obj[i].scq == cq)
			return &a->obj[i];
	return NULL;
}

/* Take what the CQ holds into the stash. Returns how many came, or -EIO. */
static int drain(struct aobj *c)
{
	struct stash *s = c->ext;
	int got = 0;

	for (;;) {
		struct ibv_wc wc;
		int k = poll1(c, &wc);

		if (k < 0)
			return -EIO;
		if (k == 0)
			return got;
		got++;
		if (s->n < STASH_MAX) {
			s->seen[s->n] = 0;
			s->waited[s->n] = 0;
			s->wc[s->n++] = wc;
		}
	}
}

static void nap(void)
{
	nanosleep(&(struct timespec){ 0, 200000 }, NULL);
}

/*
 * Wait up to wait_ms for a kept completion of CQ object c that match accepts
 * (ctx its argument): its index in the stash, -ETIMEDOUT, or -EIO.
 */
static int find(struct aobj *c, int wait_ms, int (*match)(const struct stash *s, size_t i, const void *ctx),
		const void *ctx)
{
	int64_t deadline = proto_now_ms() + wait_ms;
	struct stash *s = c->ext;

	for (;;) {
		if (drain(c) < 0)
			return -EIO;
		for (size_t i = 0; i < s->n; i++)
			if (match(s, i, ctx))
				return (int)i;
		if (proto_now_ms() >= deadline)
			return -ETIMEDOUT;
		nap();
	}
}

/* A send WR: its QP's number and its wr_id. */
struct wr_key {
	uint32_t qpn;
	uint64_t wr_id;
};

/*
 * Completion wc (waited: a wait answered with it already) is one of send WR k
 * (its QP's: a CQ object may be shared) that no wait has answered with yet:
 * WRs of one wr_id are waited for oldest first.
 */
static int wc_of_wr(const struct ibv_wc *wc, uint8_t waited, const struct wr_key *k)
{
	return !waited && wc->wr_id == k->wr_id && wc->qp_num == k->qpn;
}

/* find's match: the stash's completion i is one of send WR *key not waited for yet (wc_of_wr). */
static int is_wr(const struct stash *s, size_t i, const void *key)
{
	return wc_of_wr(&s->wc[i], s->waited[i], key);
}

/* A receive completion of QP *qpn not observed yet. */
static int is_new_recv(const struct stash *s, size_t i, const void *qpn)
{
	return !s->seen[i] && s->wc[i].qp_num == *(const uint32_t *)qpn && (s->wc[i].wr_id & AGENT_WR_RECV);
}

int agent_cq_wait(struct aobj *c, uint32_t qpn, uint64_t wr_id, int budget_ms, struct ibv_wc *wc)
{
	const struct wr_key key = { .qpn = qpn, .wr_id = wr_id };
	int i = find(c, budget_ms, is_wr, &key);

	if (i < 0)
		return i;
	((struct stash *)c->ext)->waited[i] = 1;
	*wc = ((struct stash *)c->ext)->wc[i];
	return 0;
}

int agent_cq_peek_recv(struct aobj *c, uint32_t qpn, int wait_ms, struct ibv_wc *wc)
{
	struct stash *s = c->ext;
	int i = find(c, wait_ms, is_new_recv, &qpn);

	if (i == -ETIMEDOUT)
		return 0;
	if (i < 0)
		return i;
	s->seen[i] = 1;
	*wc = s->wc[i];
	return 1;
}

#define NO_CHANNEL ((struct ibv_comp_channel *)&no_channel)
static const char no_channel;

/*
 * create_cq's chan= (a completion channel object, -1 none: NO_CHANNEL) and
 * vec= (enum m_comp_vec: 0, the device's last, one past it, -1) into *vec.
 * NULL: chan= names no live channel.
 */
static struct ibv_comp_channel *comp_channel(struct agent *a, int *vec)
{
	int64_t id = (int64_t)agent_num(a, "chan", UINT64_MAX);
	struct aobj *c;

	switch (agent_num(a, "vec", 0)) {
	case 1: *vec = a->ctx->num_comp_vectors - 1; break;
	case 2: *vec = a->ctx->num_comp_vectors; break;
	case 3: *vec = -1; break;
	default: *vec = 0; break;
	}
	if (id < 0)
		return NO_CHANNEL;
	c = agent_field_obj(a, "chan", AO_CHAN, 1);
	return c ? c->ext : NULL;
}

int agent_do_create_cq(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);
	struct ibv_comp_channel *ch;
	struct stash *s;
	int vec, ex = agent_num(a, "ex", 0) != 0;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad create_cq request");
	*o = (struct aobj){ .kind = AO_CQ, .mem = o->mem, .buf = o->buf };
	s = calloc(1, sizeof(*s));
	if (!s)
		return agent_reply_err(a, ENOMEM, "create_cq: no memory");
	if (!(ch = comp_channel(a, &vec))) {
		free(s);
		return agent_reply_err(a, EINVAL, "create_cq: no such live completion channel");
	}
	/* cq_context: the object itself, which get_cq_event checks the event's against */
	if (ex) {
		s->wc_flags = agent_num(a, "wc", 0);
		s->ex = agent_cqex_create(a->ctx, (int)agent_limit(a, "depth", 16, AGENT_LIM_CQE), o, ch == NO_CHANNEL ? NULL : ch, vec,
					  s->wc_flags, (uint32_t)agent_num(a, "cqf", 0));
		o->scq = s->ex ? ibv_cq_ex_to_cq(s->ex) : NULL;
	} else {
		o->scq = ibv_create_cq(a->ctx, (int)agent_limit(a, "depth", 16, AGENT_LIM_CQE), o, ch == NO_CHANNEL ? NULL : ch, vec);
	}
	if (!o->scq) {
		int e = errno;

		free(s);
		return agent_reply_err(a, e, "%s: %s", ex ? "ibv_create_cq_ex" : "ibv_create_cq", strerror(e));
	}
	s->ord = ++a->cqs_made;
	o->ext = s;
	o->release = release_cq;
	o->live = 1;
	return proto_send(a->fd, "ok");
}

/* Does a live QP object complete into cq (its send or receive CQ)? */
static int cq_in_use(struct agent *a, const struct ibv_cq *cq)
{
	for (int i = 0; i < AGENT_OBJS_MAX; i++)
		if (a->obj[i].kind == AO_QP && a->obj[i].live && (a->obj[i].scq == cq || a->obj[i].rcq == cq))
			return 1;
	return 0;
}

int agent_do_destroy_cq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CQ, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live CQ");
	/* Events not acknowledged: the kernel's refusal (a QP completes into it, EBUSY) comes before
	 * libibverbs' wait for them; without one ibv_destroy_cq would wait for ever. */
	if (((struct stash *)o->ext)->unacked && !cq_in_use(a, o->scq))
		return agent_reply_err(a, EDEADLK, "destroy_cq: events not acknowledged, ibv_destroy_cq would wait for ever");
	rc = ibv_destroy_cq(o->scq);
	if (rc)
		return agent_reply_err(a, rc, "ibv_destroy_cq: %s", strerror(rc));
	o->scq = NULL;
	o->live = 0;
	return proto_send(a->fd, "ok");
}

int agent_do_poll_cq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CQ, 1);
	size_t max = (size_t)agent_num(a, "max", POLL_MAX), k, off = 0;
	int64_t deadline = proto_now_ms() + a->step_ms, quiet = proto_now_ms() + POLL_SETTLE_MS;
	char line[768];
	struct stash *s;

	if (!o || max < 1 || max > POLL_MAX)
		return agent_reply_err(a, EINVAL, "bad poll_cq request");
	s = o->ext;
	/* Completions may still be coming (a flush, a peer's answer): take the CQ's until it stays quiet.
	 * Into a CQ no live QP completes into nothing more can come: what it holds is taken at once. */
	for (int settle = cq_in_use(a, o->scq);;) {
		int got = drain(o);

		if (got < 0)
			return agent_reply_err(a, EIO, "ibv_poll_cq failed");
		if (got)
			quiet = proto_now_ms() + POLL_SETTLE_MS;
		if (!settle || s->n >= max || proto_now_ms() >= quiet || proto_now_ms() >= deadline)
			break;
		nap();
	}
	k = s->n < max ? s->n : max;
	off += (size_t)snprintf(line, sizeof(line), "ok n=%zu", k);
	for (size_t i = 0; i < k && off < sizeof(line); i++) {
		off += (size_t)snprintf(line + off, sizeof(line) - off, " wr%zu=%llu status%zu=%s opcode%zu=%s byte_len%zu=%u",
					i + 1, (unsigned long long)(s->wc[i].wr_id & ~AGENT_WR_RECV), i + 1,
					agent_wc_status_str(s->wc[i].status), i + 1,
					agent_wc_opcode_str(s->wc[i].opcode), i + 1, s->wc[i].byte_len);
	}
	for (size_t i = 0; i < k; i++) {
		s->twaited[s->ntaken % TAKEN_MAX] = s->waited[i];
		s->taken[s->ntaken++ % TAKEN_MAX] = s->wc[i];
	}
	memmove(s->wc, s->wc + k, sizeof(s->wc[0]) * (s->n - k));
	memmove(s->seen, s->seen + k, s->n - k);
	memmove(s->waited, s->waited + k, s->n - k);
	s->n -= k;
	return proto_send(a->fd, "%s", line);
}

int agent_do_wait(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 0), *c;
	uint64_t wr_id = agent_num(a, "wr", 0);
	struct ibv_wc wc;
	struct wr_key key;
	struct stash *s;
	int rc = -ETIMEDOUT;

	if (!q || !(q->cq_given & AGENT_CQ_SEND) || !(c = agent_cq_of(a, q->scq)))
		return agent_reply_err(a, EINVAL, "bad wait request: no QP with a send CQ object");
	key = (struct wr_key){ .qpn = q->qp->qp_num, .wr_id = wr_id };
	s = c->ext;
	/* the oldest completion of wr_id no wait answered with yet: among those poll_cq took, then the CQ's */
	for (size_t i = s->ntaken > TAKEN_MAX ? s->ntaken - TAKEN_MAX : 0; rc && i < s->ntaken; i++)
		if (wc_of_wr(&s->taken[i % TAKEN_MAX], s->twaited[i % TAKEN_MAX], &key)) {
			s->twaited[i % TAKEN_MAX] = 1;
			wc = s->taken[i % TAKEN_MAX];
			rc = 0;
		}
	if (rc)
		rc = agent_cq_wait(c, key.qpn, key.wr_id, a->step_ms, &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion in time", ETIMEDOUT);
	if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	return proto_send(a->fd, "ok status=%s vendor_err=%u", agent_wc_status_str(wc.status), wc.vendor_err);
}

int agent_do_resize_cq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CQ, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live CQ");
	rc = ibv_resize_cq(o->scq, (int)agent_num(a, "depth", 0));
	if (rc)
		return agent_reply_err(a, rc, "ibv_resize_cq: %s", strerror(rc));
	return proto_send(a->fd, "ok cqe=%d", o->scq->cqe);
}

int agent_do_create_comp_channel(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);

	if (!o)
		return agent_reply_err(a, EINVAL, "bad create_comp_channel request");
	*o = (struct aobj){ .kind = AO_CHAN, .mem = o->mem, .buf = o->buf };
	o->ext = ibv_create_comp_channel(a->ctx);
	if (!o->ext) {
		int e = errno;

		return agent_reply_err(a, e, "ibv_create_comp_channel: %s", strerror(e));
	}
	o->live = 1;
	return proto_send(a->fd, "ok");
}

int agent_do_destroy_comp_channel(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CHAN, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live completion channel");
	rc = ibv_destroy_comp_channel(o->ext);
	if (rc)
		return agent_reply_err(a, rc, "ibv_destroy_comp_channel: %s", strerror(rc));
	o->ext = NULL;
	o->live = 0;
	return proto_send(a->fd, "ok");
}

int agent_do_req_notify_cq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CQ, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live CQ");
	rc = ibv_req_notify_cq(o->scq, agent_num(a, "sol", 0) ? 1 : 0);
	if (rc)
		return agent_reply_err(a, rc, "ibv_req_notify_cq: %s", strerror(rc));
	((struct stash *)o->ext)->armed = 1;
	return proto_send(a->fd, "ok");
}

/* Whether a live CQ object of channel ch was ever armed (req_notify_cq): the only source of its events. */
static int channel_armed(struct agent *a, const struct ibv_comp_channel *ch)
{
	for (int i = 0; i < AGENT_OBJS_MAX; i++) {
		const struct aobj *c = &a->obj[i];

		if (c->kind == AO_CQ && c->live && c->scq && c->scq->channel == ch && c->ext &&
		    ((const struct stash *)c->ext)->armed)
			return 1;
	}
	return 0;
}

int agent_do_get_cq_event(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CHAN, 1), *c;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	void *ctx;
	int wait_ms = a->step_ms < EVENT_WAIT_MS ? a->step_ms : EVENT_WAIT_MS;
	struct pollfd pfd;
	int k;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live completion channel");
	ch = o->ext;
	if (!channel_armed(a, ch))
		wait_ms = 0; /* no CQ of it asked for an event: none can come, only one already there is taken */
	pfd = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	do
		k = poll(&pfd, 1, wait_ms); /* bounded: ibv_get_cq_event itself would block for ever */
	while (k < 0 && errno == EINTR);
	if (k < 0)
		return agent_reply_err(a, errno, "poll on the channel: %s", strerror(errno));
	if (k == 0 || !(pfd.revents & POLLIN))
		return proto_send(a->fd, "ok n=0");
	if (ibv_get_cq_event(ch, &cq, &ctx))
		return agent_reply_err(a, EIO, "ibv_get_cq_event failed");
	c = agent_cq_of(a, cq);
	if (!c || ctx != c) {
		if (c && c->ext)
			((struct stash *)c->ext)->unacked++;
		else
			ibv_ack_cq_events(cq, 1); /* not one of ours: nothing will destroy it waiting */
		return agent_reply_err(a, EPROTO, "ibv_get_cq_event: a CQ or cq_context that is not the CQ object's");
	}
	((struct stash *)c->ext)->unacked++;
	return proto_send(a->fd, "ok n=1 cq=%u", ((struct stash *)c->ext)->ord);
}

int agent_do_ack_cq_events(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CQ, 1);
	unsigned n = (unsigned)agent_num(a, "n", 1);
	struct stash *s;

	if (!o || n < 1 || n > ACK_MAX)
		return agent_reply_err(a, EINVAL, "bad ack_cq_events request");
	s = o->ext;
	if (n > s->unacked) /* the CQ's destroy would then wait for ever */
		return agent_reply_err(a, EINVAL, "ack_cq_events: more events than were taken (%u)", s->unacked);
	ibv_ack_cq_events(o->scq, n);
	s->unacked -= n;
	return proto_send(a->fd, "ok");
}

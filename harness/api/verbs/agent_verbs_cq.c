/* agent_verbs_cq.c — the agent's CQ objects: create_cq, destroy_cq, poll_cq (agent_cq.h). */
#include "harness/api/verbs/agent_cq.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STASH_MAX 256     /* completions kept per CQ between polls */
#define POLL_SETTLE_MS 100 /* poll_cq: how long the CQ must stay quiet before fewer than max are taken */
#define POLL_MAX 4
#define TAKEN_MAX 64      /* completions poll_cq took, kept for a wait that comes after it */

/* What a CQ object gave and the scenario has not polled yet, oldest first. */
struct stash {
	size_t n;
	struct ibv_wc wc[STASH_MAX];
	uint8_t seen[STASH_MAX];  /* a peer's observation looked at it (agent_cq_peek_recv) */
	size_t ntaken;            /* completions poll_cq took, the last TAKEN_MAX in taken[i % TAKEN_MAX] */
	struct ibv_wc taken[TAKEN_MAX];
};

static void release_cq(struct agent *a, struct aobj *o)
{
	(void)a;
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
		int k = ibv_poll_cq(c->scq, 1, &wc);

		if (k < 0)
			return -EIO;
		if (k == 0)
			return got;
		got++;
		if (s->n < STASH_MAX) {
			s->seen[s->n] = 0;
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

static int is_wr(const struct stash *s, size_t i, const void *wr_id)
{
	return s->wc[i].wr_id == *(const uint64_t *)wr_id;
}

/* A receive completion of QP *qpn not observed yet. */
static int is_new_recv(const struct stash *s, size_t i, const void *qpn)
{
	return !s->seen[i] && s->wc[i].qp_num == *(const uint32_t *)qpn && (s->wc[i].wr_id & AGENT_WR_RECV);
}

int agent_cq_wait(struct aobj *c, uint64_t wr_id, int budget_ms, struct ibv_wc *wc)
{
	int i = find(c, budget_ms, is_wr, &wr_id);

	if (i < 0)
		return i;
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

int agent_do_create_cq(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);
	struct stash *s;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad create_cq request");
	*o = (struct aobj){ .kind = AO_CQ, .mem = o->mem, .buf = o->buf };
	s = calloc(1, sizeof(*s));
	if (!s)
		return agent_reply_err(a, ENOMEM, "create_cq: no memory");
	o->scq = ibv_create_cq(a->ctx, (int)agent_num(a, "depth", 16), NULL, NULL, 0);
	if (!o->scq) {
		int e = errno;

		free(s);
		return agent_reply_err(a, e, "ibv_create_cq: %s", strerror(e));
	}
	o->ext = s;
	o->release = release_cq;
	o->live = 1;
	return proto_send(a->fd, "ok");
}

int agent_do_destroy_cq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_CQ, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live CQ");
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
	/* Completions may still be coming (a flush, a peer's answer): take the CQ's until it stays quiet. */
	for (;;) {
		int got = drain(o);

		if (got < 0)
			return agent_reply_err(a, EIO, "ibv_poll_cq failed");
		if (got)
			quiet = proto_now_ms() + POLL_SETTLE_MS;
		if (s->n >= max || proto_now_ms() >= quiet || proto_now_ms() >= deadline)
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
	for (size_t i = 0; i < k; i++)
		s->taken[s->ntaken++ % TAKEN_MAX] = s->wc[i];
	memmove(s->wc, s->wc + k, sizeof(s->wc[0]) * (s->n - k));
	memmove(s->seen, s->seen + k, s->n - k);
	s->n -= k;
	return proto_send(a->fd, "%s", line);
}

int agent_do_wait(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 0), *c;
	uint64_t wr_id = agent_num(a, "wr", 0);
	struct ibv_wc wc;
	struct stash *s;
	int rc = -ETIMEDOUT;

	if (!q || !(q->cq_given & AGENT_CQ_SEND) || !(c = agent_cq_of(a, q->scq)))
		return agent_reply_err(a, EINVAL, "bad wait request: no QP with a send CQ object");
	s = c->ext;
	for (size_t i = s->ntaken > TAKEN_MAX ? s->ntaken - TAKEN_MAX : 0; i < s->ntaken; i++)
		if (s->taken[i % TAKEN_MAX].wr_id == wr_id) {
			wc = s->taken[i % TAKEN_MAX];
			rc = 0;
		}
	if (rc)
		rc = agent_cq_wait(c, wr_id, a->step_ms, &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion in time", ETIMEDOUT);
	if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	return proto_send(a->fd, "ok status=%s vendor_err=%u", agent_wc_status_str(wc.status), wc.vendor_err);
}

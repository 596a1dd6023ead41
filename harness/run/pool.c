/* pool.c — agents kept from one scenario to the next (pool.h). */
#define _GNU_SOURCE /* POLLRDHUP */
#include "harness/run/pool.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stack_pool_init(struct stack_pool *p, const struct topo *t, int step_ms)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->step_ms = step_ms;
	for (unsigned i = 0; i < SCN_NODES_MAX; i++)
		p->ag[i].fd = -1;
}

/* Stop agent ag (not kept), saying why. */
static void drop(struct stack_pool *p, struct stack_agent *ag, unsigned node, const char *why)
{
	snprintf(p->why, sizeof(p->why), "agent of topology node %u: %s", node, why);
	stack_agents_quit(ag, 1);
	p->dropped++;
}

/* Whether nothing waits to be read from ag: no buffered bytes, none on its socket. */
static int quiet(const struct stack_agent *ag)
{
	struct pollfd pf = { .fd = ag->fd, .events = POLLIN | POLLRDHUP };

	return ag->rd.off == ag->rd.len && poll(&pf, 1, 0) == 0;
}

/* Kept agent i greets again as f's node i: 0 with it moved into st, or it is dropped. */
static int rehello_sent(struct stack_pool *p, const struct scn_file *f, unsigned i)
{
	if (proto_send(p->ag[i].fd, "hello node=%s", f->nodes[i]) == 0)
		return 0;
	drop(p, &p->ag[i], i, "cannot send hello");
	return -EPIPE;
}

static void rehello_take(struct stack_pool *p, struct stack *st, unsigned i)
{
	char reply[PROTO_LINE_MAX];
	int rc = proto_recv(p->ag[i].fd, &p->ag[i].rd, reply, sizeof(reply), p->step_ms + STACK_SLACK_MS);

	if (rc < 0 || !proto_is(reply, "ok") || proto_get(reply, "gid", p->ag[i].gid, sizeof(p->ag[i].gid))) {
		drop(p, &p->ag[i], i, rc < 0 ? "no answer to hello" : "a bad answer to hello");
		return;
	}
	st->ag[i] = p->ag[i];
	memset(&p->ag[i], 0, sizeof(p->ag[i]));
	p->ag[i].fd = -1;
}

int stack_pool_start(struct stack_pool *p, struct stack *st, const struct scn_file *f)
{
	uint8_t need[SCN_NODES_MAX] = { 0 }, asked[SCN_NODES_MAX] = { 0 };
	int rc = 0;

	memset(st, 0, sizeof(*st));
	st->f = f;
	st->step_ms = p->step_ms;
	for (unsigned i = 0; i < SCN_NODES_MAX; i++)
		st->ag[i].fd = -1;
	if (f->nnodes > p->t->n) {
		snprintf(st->err, sizeof(st->err), "the topology has %zu nodes, the scenario needs %zu", p->t->n,
			 f->nnodes);
		return -ERANGE;
	}
	st->n = (unsigned)f->nnodes;
	if (!p->tmp[0])
		rc = stack_tmp_make(p->tmp, sizeof(p->tmp), st->err, sizeof(st->err));
	snprintf(st->tmp, sizeof(st->tmp), "%s", p->tmp); /* the TMPDIR of agents started here */
	for (unsigned i = 0; i < st->n && rc == 0; i++) /* every kept one asked first: they answer together */
		asked[i] = p->ag[i].fd >= 0 && rehello_sent(p, f, i) == 0;
	for (unsigned i = 0; i < st->n && rc == 0; i++)
		if (asked[i])
			rehello_take(p, st, i);
	for (unsigned i = 0; i < st->n && rc == 0; i++)
		if (st->ag[i].fd < 0) {
			need[i] = 1;
			rc = stack_agent_spawn(st, i, &p->t->node[i]);
			p->started++;
		}
	for (unsigned i = 0; i < st->n && rc == 0; i++) /* greetings read once all started */
		if (need[i])
			rc = stack_agent_greeted(st, i, &p->t->node[i]);
	st->tmp[0] = '\0'; /* the pool's: stack_stop must not remove it */
	if (rc)
		stack_agents_quit(st->ag, st->n);
	return rc;
}

int stack_pool_prestart(struct stack_pool *p, unsigned n)
{
	struct scn_file *f = calloc(1, sizeof(*f));
	struct stack *st = calloc(1, sizeof(*st));
	int rc = f && st ? 0 : -ENOMEM;

	if (n > p->t->n || n > SCN_NODES_MAX)
		rc = -ERANGE;
	for (unsigned i = 0; i < n && rc == 0; i++) /* the topology's names until a scenario's hello */
		snprintf(f->nodes[i], sizeof(f->nodes[i]), "%s", p->t->node[i].name);
	for (unsigned i = 0; i < n && rc == 0; i++)
		if (p->t->node[i].agent[0] && !p->keep_remote)
			n = 0; /* another kernel's agents: each scenario dials its own */
	if (rc == 0 && n) {
		f->nnodes = n;
		rc = stack_pool_start(p, st, f); /* the pool's agents and new ones, started together */
	}
	if (rc == 0 && n) {
		memcpy(p->ag, st->ag, n * sizeof(st->ag[0]));
		for (unsigned i = 0; i < n; i++)
			st->ag[i].fd = -1;
	} else if (rc && st) {
		snprintf(p->why, sizeof(p->why), "%s", st->err);
	}
	free(st);
	free(f);
	return rc;
}

/* Whether agent i of st may be reset and kept: alive, forked, nothing pending. */
static int keepable(struct stack_pool *p, struct stack *st, unsigned i)
{
	struct stack_agent *ag = &st->ag[i];
	const char *why = ag->fd < 0 || ag->dead ? "it ended" : ag->remote && !p->keep_remote ? "it is on another kernel" :
			  ag->stale ? "a request timed out" : !quiet(ag) ? "bytes nobody asked for" : NULL;

	if (!why && proto_send(ag->fd, "reset") == 0)
		return 1;
	if (ag->fd >= 0 && (!ag->remote || p->keep_remote))
		snprintf(p->why, sizeof(p->why), "agent of node %s: %s", st->f->nodes[i], why ? why : "cannot send reset");
	return 0;
}

/* The answer to reset: 1 when the agent holds nothing and used no library with process state. */
static int reset_clean(struct stack_pool *p, struct stack *st, unsigned i)
{
	char reply[PROTO_LINE_MAX];
	uint64_t objs = 1, fams = 1;
	int rc = proto_recv(st->ag[i].fd, &st->ag[i].rd, reply, sizeof(reply), p->step_ms + STACK_SLACK_MS);

	if (rc >= 0 && proto_is(reply, "ok") && proto_get_u64(reply, "objs", &objs) == 0 &&
	    proto_get_u64(reply, "fams", &fams) == 0 && objs == 0 && fams == 0)
		return 1;
	snprintf(p->why, sizeof(p->why), "agent of node %s: reset answered '%.120s'", st->f->nodes[i],
		 rc < 0 ? "nothing" : reply);
	return 0;
}

int stack_pool_stop(struct stack_pool *p, struct stack *st)
{
	uint8_t keep[SCN_NODES_MAX] = { 0 };
	int rc;

	for (unsigned i = 0; i < st->n; i++) /* every reset asked first: they release together */
		keep[i] = (uint8_t)keepable(p, st, i);
	for (unsigned i = 0; i < st->n; i++) {
		if (keep[i] && reset_clean(p, st, i) && p->ag[i].fd < 0) {
			p->ag[i] = st->ag[i];
			memset(&st->ag[i], 0, sizeof(st->ag[i]));
			st->ag[i].fd = -1;
			p->kept++;
		} else if (st->ag[i].fd >= 0 || st->ag[i].pid > 0) {
			p->dropped++;
		}
	}
	rc = stack_agents_end(st); /* the others: each answers its quit, or had ended */
	st->tmp[0] = '\0';
	stack_tmp_clear(p->tmp);
	return rc;
}

void stack_pool_close(struct stack_pool *p)
{
	stack_agents_quit(p->ag, SCN_NODES_MAX);
	stack_tmp_remove(p->tmp);
}

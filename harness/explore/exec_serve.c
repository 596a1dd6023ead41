/* exec_serve.c — the in-guest executor's side: cases in, each run over its kept local agents and recorded (exec.h). */
#define _GNU_SOURCE /* accept4 */
#include "harness/corpus/crash_pred.h"
#include "harness/explore/exec.h"
#include "harness/run/pool.h"
#include "harness/run/tape.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define EXEC_SEND_S 30 /* an answer's write: a host that stopped reading is dropped */

/* The stack's own error after an ERROR's reason, unless said (as explore's agents and `run` add it). */
static void add_err(struct result *r, const struct stack *st)
{
	size_t l = strlen(r->reason);

	if (r->v == V_ERROR && st->err[0] && !strstr(r->reason, st->err))
		snprintf(r->reason + l, sizeof(r->reason) - l, " (%.300s)", st->err);
}

/* Start f's agents from the pool: 0, or 1 with *r the ERROR that says why. */
static int start(struct ex_exec_pool *x, struct stack *st, const struct scn_file *f, struct result *r)
{
	if (!stack_pool_start(x->pool, st, f))
		return 0;
	memset(r, 0, sizeof(*r));
	r->v = V_ERROR;
	snprintf(r->reason, sizeof(r->reason), "cannot start the agents: %.440s", st->err);
	return 1;
}

int ex_exec_pool_run(void *ctx, const struct scn_file *f, const struct run_opts *o, struct result *r, char **lines)
{
	struct ex_exec_pool *x = ctx;
	struct stack *st = calloc(1, sizeof(*st));
	struct run_opts ro = *o;
	struct tape_rec tr;
	int rc = 0, up;

	*lines = NULL;
	memset(r, 0, sizeof(*r));
	if (!st)
		return -ENOMEM;
	if (start(x, st, f, r)) {
		free(st);
		return 0;
	}
	tape_rec_init(&tr, &stack_ops, st, &ro, f); /* what reality answered (tape.h) */
	rc = run_scenario(f, &tr.ops, &tr, &ro, r);
	up = 1;
	if (!rc && r->rerun) { /* run-ahead could not judge a step exactly: again without it, as `run` does */
		up = 0;
		if (stack_pool_stop(x->pool, st)) { /* an agent died: its ERROR, not a second run that would hide it */
			r->v = V_ERROR;
			r->rerun = 0;
			add_err(r, st);
		} else {
			result_clear(r);
			ro.ahead = 0;
			tape_rec_drop(&tr);
			tape_rec_init(&tr, &stack_ops, st, &ro, f);
			if (!start(x, st, f, r)) {
				rc = run_scenario(f, &tr.ops, &tr, &ro, r);
				up = 1;
			}
		}
	}
	if (up) {
		add_err(r, st);
		stack_pool_stop(x->pool, st); /* reset: each agent confirms it holds nothing */
	}
	rc = rc ? rc : tape_rec_finish(&tr, r);
	if (rc)
		tape_rec_drop(&tr);
	else if (!(*lines = tape_take(r)))
		rc = -ENOMEM;
	free(st);
	return rc;
}

/* An answer: header line, body. 0 or -errno of the write. */
static int answer(int fd, const char *head, const char *body, size_t len)
{
	int rc = proto_send(fd, "%s %zu", head, len);

	return rc ? rc : proto_send_bytes(fd, body, len);
}

/* The ERROR answer of case id: why, as its body. */
static int answer_error(int fd, uint64_t id, const char *why)
{
	char head[64];

	snprintf(head, sizeof(head), "error %llu", (unsigned long long)id);
	return answer(fd, head, why, strlen(why));
}

/* Parse and run case c with run(ctx), and answer it. 0 or -errno (-ENOMEM, or the write's). */
static int serve_case(int fd, const struct ex_exec_case *c, ex_exec_run_fn run, void *ctx)
{
	struct run_opts o = { .mode = RUN_REAL, .allow_crash = c->crash };
	struct scn_diags d;
	struct scn_file *f = NULL;
	struct cli_pred pred;
	struct result r = { 0 };
	char why[600], head[64], *lines = NULL;
	int rc;

	if (m_profile_get(c->profile, c->kver, &o.prof)) {
		snprintf(why, sizeof(why), "no profile %s for kernel %u here", c->profile, c->kver);
		return answer_error(fd, c->id, why);
	}
	rc = scn_parse_text(c->text, c->len, "explore.scn", &f, &d);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		snprintf(why, sizeof(why), "the case does not parse: line %u, col %u: %.400s", d.n ? d.d[0].line : 0,
			 d.n ? d.d[0].col : 0, d.n ? d.d[0].msg : "?");
		return answer_error(fd, c->id, why);
	}
	o.ahead = c->ahead; /* the host's: no step may kill the kernel (a step sent ahead runs even when an
	                       earlier one ends the scenario) */
	if (!c->crash) { /* a kernel that must survive: refused as `run` skips it (the host sends no such case) */
		cli_predict(f, &o.prof, NULL, &pred);
		if (cli_crash_reason(f, &pred, why, sizeof(why))) {
			scn_free(f);
			return answer_error(fd, c->id, why);
		}
	}
	rc = run(ctx, f, &o, &r, &lines);
	scn_free(f);
	if (rc) {
		result_clear(&r);
		return rc;
	}
	if (lines) {
		snprintf(head, sizeof(head), "record %llu %s", (unsigned long long)c->id, verdict_str(r.v));
		rc = answer(fd, head, lines, strlen(lines));
	} else {
		rc = answer_error(fd, c->id, r.reason);
	}
	free(lines);
	result_clear(&r);
	return rc;
}

int ex_exec_serve_conn(int fd, int lfd, ex_exec_run_fn run, void *ctx)
{
	struct timeval tv = { .tv_sec = EXEC_SEND_S };
	struct proto_rd rd = { 0 };
	char err[300];

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (proto_send(fd, "exec 1"))
		return 0;
	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = lfd, .events = POLLIN } };
		struct ex_exec_case c;
		int rc;

		if (rd.len == rd.off) { /* nothing buffered: wait for the peer, or a new one */
			if (poll(p, lfd >= 0 ? 2 : 1, -1) < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			if (lfd >= 0 && p[1].revents)
				return 1; /* a new connection replaces this one */
		}
		rc = ex_exec_read_case(fd, &rd, ex_exec_msg_ms, &c, err, sizeof(err));
		if (rc == -EPIPE || rc == -ETIMEDOUT)
			return 0;
		if (rc == -EPROTO) {
			fprintf(stderr, "rdmacheck exec: refused the host's request: %s\n", err);
			proto_send(fd, "refused %s", err);
			return 0;
		}
		if (rc == 0)
			rc = serve_case(fd, &c, run, ctx);
		free(c.text);
		if (rc) {
			fprintf(stderr, "rdmacheck exec: the connection ends: %s\n", strerror(-rc));
			return 0;
		}
	}
}

int ex_exec_serve(int lfd, const struct remote_key *key, ex_exec_run_fn run, void *ctx)
{
	for (;;) {
		char why[300];
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC), rc;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN)
				continue;
			return -errno;
		}
		remote_nodelay(fd);
		if (remote_accept(fd, key, why, sizeof(why))) {
			close(fd);
			continue; /* a probe (ci/vm-agents' wait for the listener) or a peer without the secret */
		}
		rc = ex_exec_serve_conn(fd, lfd, run, ctx);
		close(fd);
		if (rc < 0)
			return rc;
	}
}

/* exec_host.c — the host's side of the in-guest executor: cases out, several in flight, records judged as they come (exec.h). */
#include "harness/explore/exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define EXEC_DIAL_MS 10000
#define EXEC_SEND_S 30

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ex_exec_link_open(struct ex_exec_link *l, const char *hostport, const char *token_path)
{
	struct timeval tv = { .tv_sec = EXEC_SEND_S };
	char err[400];
	int rc;

	l->fd = -1;
	proto_rd_reset(&l->rd);
	snprintf(l->hostport, sizeof(l->hostport), "%s", hostport);
	rc = remote_key_read(token_path, &l->key, err, sizeof(err));
	if (rc) {
		snprintf(l->err, sizeof(l->err), "the executor's secret: %s", err);
		return rc;
	}
	rc = ex_exec_dial(hostport, &l->key, EXEC_DIAL_MS, err, sizeof(err));
	if (rc < 0) {
		snprintf(l->err, sizeof(l->err), "the executor at %s: %s", hostport, err);
		return rc;
	}
	l->fd = rc;
	setsockopt(l->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)); /* a guest that stopped reading: the send fails */
	return 0;
}

void ex_exec_link_close(struct ex_exec_link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	proto_rd_reset(&l->rd);
}

/* The executor is lost: cases [from, m) are, the connection closed, why in l->err. */
static void lose(struct ex_exec_link *l, size_t from, size_t m, uint8_t *lost, const char *what, const char *why)
{
	snprintf(l->err, sizeof(l->err), "the executor at %s: %s: %.400s", l->hostport, what, why);
	for (size_t k = from; k < m; k++)
		lost[k] = 1;
	l->lost += m - from;
	ex_exec_link_close(l);
}

/* Judge answer a of case k into rs[k]. 0 or -ENOMEM. */
static int take(struct ex_exec_link *l, const struct m_profile *prof, struct scn_file *f, const struct ex_exec_answer *a,
		struct result *r)
{
	double t0 = now_s();
	int rc = 0;

	if (!a->ran) { /* nothing ran: the executor's reason is the case's ERROR */
		memset(r, 0, sizeof(*r));
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "the executor: %.490s", a->lines);
	} else {
		rc = ex_exec_judge(f, prof, a->lines, r);
		if (!rc && r->v != a->v && r->v != V_ERROR) { /* one runner, one model: both ends judge alike */
			char was[sizeof(r->reason)];

			snprintf(was, sizeof(was), "%s", r->reason);
			snprintf(r->reason, sizeof(r->reason), "the guest judged the run %s, its record here %s: %.400s",
				 verdict_str(a->v), verdict_str(r->v), was);
			r->v = V_ERROR;
		}
	}
	l->cases++;
	l->secs_judge += now_s() - t0;
	return rc;
}

int ex_exec_run(struct ex_exec_link *l, const struct m_profile *prof, int crash, int step_ms, char *const *texts,
		struct scn_file *const *files, size_t m, struct result *rs, uint8_t *lost)
{
	size_t sent = 0, done = 0, bytes = 0;
	uint64_t base = l->next_id;
	int rc = 0;

	memset(lost, 0, m);
	if (l->fd < 0) {
		lose(l, 0, m, lost, "not connected", l->err[0] ? l->err : "never dialled");
		return 0;
	}
	l->next_id += m;
	while (done < m && !rc) {
		struct ex_exec_answer a;
		char err[400];
		double t0;
		long budget;
		int r;

		while (sent < m && (sent == done || (sent - done < EX_EXEC_WINDOW && bytes + strlen(texts[sent]) <=
										   EX_EXEC_INFLIGHT))) {
			size_t len = strlen(texts[sent]);

			r = ex_exec_send_case(l->fd, base + sent, prof, crash, 1, texts[sent], len);
			if (r) {
				lose(l, done, m, lost, "cannot send a case", strerror(-r));
				return 0;
			}
			bytes += len;
			sent++;
		}
		budget = ((long)files[done]->nsteps + 4) * (long)step_ms;
		t0 = now_s();
		r = ex_exec_read_answer(l->fd, &l->rd, budget > 600000 ? 600000 : (int)budget, &a, err, sizeof(err));
		l->secs_wait += now_s() - t0;
		if (r || a.id != base + done) {
			if (!r)
				snprintf(err, sizeof(err), "the answer of case %llu where %llu's was due",
					 (unsigned long long)a.id, (unsigned long long)(base + done));
			free(a.lines);
			lose(l, done, m, lost, r == -ETIMEDOUT ? "no answer in time" : r == -EPIPE ? "the connection ended" :
				 "a bad answer", r == -ETIMEDOUT || r == -EPIPE ? strerror(-r) : err);
			return 0;
		}
		rc = take(l, prof, files[done], &a, &rs[done]);
		free(a.lines);
		bytes -= strlen(texts[done]);
		done++;
	}
	return rc;
}

/* round.c — one inner run of `rdmacheck run` through ci/stack, and its end (round.h). */
#define _GNU_SOURCE /* setpgid, kill */
#include "harness/suite/round.h"
#include "harness/suite/careful.h"
#include "harness/lang/scn.h"
#include "harness/nodes/console.h"
#include "harness/nodes/death.h"
#include "harness/suite/interrupt.h"
#include "harness/suite/jobs.h"
#include "harness/base/guard.h"
#include "harness/base/proc.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HANG_SLACK_S 120 /* boot, topology and agent start beyond the step timeout */
#define HANG_GRACE_S 10  /* what a hung inner runner gets to clean up before SIGKILL */

void round_init(struct round *r, const char *dir, long pid, const char *suffix, unsigned jobs, unsigned slot)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->rec, sizeof(r->rec), "%s/records-%ld%s.txt", dir, pid, suffix);
	snprintf(r->list, sizeof(r->list), "%s/list-%ld%s.nul", dir, pid, suffix);
	snprintf(r->console, sizeof(r->console), "%s/console-%ld%s.log", dir, pid, suffix);
	snprintf(r->stacklog, sizeof(r->stacklog), "%s/stack-%ld%s.log", dir, pid, suffix);
	r->jobs = jobs;
	r->slot = slot;
	r->only = ROUND_ALL;
}

/* Read what is new in the records of every stream of r's inner run (jobs.h). */
static void read_records(struct outer *o, struct round *r)
{
	char path[sizeof(r->rec) + 16];

	for (unsigned s = 0; s < r->jobs && s < JOBS_MAX; s++)
		if (jobs_records_path(r->rec, s, path, sizeof(path)) == 0)
			rec_read_more(&r->cur[s], path, o->rs, o->st, o->fl.n);
}

/* The bytes r's streams' records files hold together: a growing sum means the inner run lives. */
static off_t records_size(const struct round *r)
{
	char path[sizeof(r->rec) + 16];
	struct stat sb;
	off_t sum = 0;

	for (unsigned s = 0; s < r->jobs; s++)
		if (jobs_records_path(r->rec, s, path, sizeof(path)) == 0 && stat(path, &sb) == 0)
			sum += sb.st_size;
	return sum;
}

void round_remove(struct round *r)
{
	char path[sizeof(r->rec) + 16];

	for (unsigned s = 0; s < JOBS_MAX; s++) {
		if (jobs_records_path(r->rec, s, path, sizeof(path)) == 0)
			unlink(path);
		rec_cursor_reset(&r->cur[s]); /* a next start writes the files anew */
	}
	unlink(r->list);
	unlink(r->console);
}

/* Whether round r runs scenario i (not finished; the main round leaves a side round's to it). */
static int round_runs(const struct outer *o, const struct round *r, size_t i)
{
	if (o->st[i].finished || !o->staged[i])
		return 0;
	return r->only == ROUND_ALL ? !o->st[i].deferred : i == r->only;
}

/* The end of r's scenarios [r->from, end): the list's for the main round, its one's for a side round. */
static size_t round_end(const struct outer *o, const struct round *r)
{
	return r->only == ROUND_ALL ? o->fl.n : r->only + 1;
}

/* r's list: NUL-terminated names from r->from on ("" for one not to run; a name may hold newlines). */
static int write_list(struct outer *o, const struct round *r)
{
	size_t end = round_end(o, r);
	FILE *lf = fopen(r->list, "w");
	int rc;

	if (!lf) {
		rc = -errno;
		fprintf(stderr, "rdmacheck: cannot write %s: %s\n", r->list, strerror(-rc));
		return rc;
	}
	for (size_t i = r->from; i < end; i++) {
		const char *name = round_runs(o, r, i) ? o->staged[i] : "";

		fwrite(name, 1, strlen(name) + 1, lf);
	}
	if (fclose(lf) != 0) {
		rc = -errno;
		fprintf(stderr, "rdmacheck: cannot write %s: %s\n", r->list, strerror(-rc));
		return rc;
	}
	return 0;
}

/* The guest memory (MiB) r's scenarios [r->from, end) need, or 0 when ci/vm's default holds them (round.h). */
static unsigned round_mem_mb(const struct outer *o, const struct round *r, size_t end)
{
	uint64_t top[JOBS_MAX] = { 0 }, most = 0, step = (uint64_t)ROUND_VM_PIN_MB << 20;
	unsigned k = r->jobs < 1 ? 1 : r->jobs > JOBS_MAX ? JOBS_MAX : r->jobs;

	/* its streams run k scenarios side by side: the k largest together */
	for (size_t i = r->from; i < end; i++) {
		uint64_t b = round_runs(o, r, i) && o->files[i] ? scn_registered_bytes(o->files[i]) : 0;

		for (unsigned j = 0; j < k; j++)
			if (b > top[j]) {
				uint64_t t = top[j];

				top[j] = b;
				b = t;
			}
	}
	for (unsigned j = 0; j < k; j++)
		most += top[j];
	if (most <= step)
		return 0;
	return ROUND_VM_MEM_MB + (unsigned)((most + step - 1) / step * ROUND_VM_PIN_MB);
}

int round_start(struct outer *o, struct round *r, size_t from, size_t only, int defer)
{
	char stack_opt[64], timeout_opt[32], base_opt[32], rec_opt[PATH_MAX + 80], list_opt[PATH_MAX + 80];
	char profile_opt[96], console_opt[PATH_MAX + 96], exe[PATH_MAX], cistack[PATH_MAX + 16], jobs_opt[32];
	char careful_opt[1024], smp_opt[48], mem_opt[48];
	size_t end;
	int rc;
	pid_t pid, self = getpid();

	r->from = only == ROUND_ALL ? from : only;
	r->only = only;
	if (only != ROUND_ALL)
		r->jobs = 1;
	end = round_end(o, r);
	if ((rc = self_exe(exe, sizeof(exe))) != 0) {
		fprintf(stderr, "rdmacheck: cannot find this executable: %s\n", strerror(-rc));
		return rc;
	}
	round_remove(r); /* what a round before left under these names */
	if ((rc = write_list(o, r)) != 0)
		return rc;
	for (size_t i = r->from; i < end; i++) /* what a round before began and did not end runs again */
		if (round_runs(o, r, i))
			o->st[i].started = 0;
	snprintf(cistack, sizeof(cistack), "%s/ci/stack", o->root);
	snprintf(stack_opt, sizeof(stack_opt), "--stack=%s", o->a->stack);
	unsigned mem_mb = round_mem_mb(o, r, end);
	/* one step timeout more per ROUND_VM_PIN_MB the guest holds beyond its default (round.h) */
	unsigned pin_steps = mem_mb ? (mem_mb - ROUND_VM_MEM_MB) / ROUND_VM_PIN_MB : 0;

	snprintf(timeout_opt, sizeof(timeout_opt), "--timeout=%d", o->a->step_s * (int)(1 + pin_steps));
	snprintf(base_opt, sizeof(base_opt), "--base=%zu", r->from);
	snprintf(rec_opt, sizeof(rec_opt), "--records=%s", r->rec);
	snprintf(list_opt, sizeof(list_opt), "--inner-list=%s", r->list);
	snprintf(profile_opt, sizeof(profile_opt), "--profile=%s", o->a->profile);
	snprintf(console_opt, sizeof(console_opt), "--vm-opt=--console=%s", r->console);
	snprintf(jobs_opt, sizeof(jobs_opt), "--jobs=%u", r->jobs);
	/* a side round's guest runs one scenario: one CPU (ci/stack passes it to ci/vm only) */
	snprintf(smp_opt, sizeof(smp_opt), "--vm-opt=--smp=%d",
		 only == ROUND_ALL && o->a->vm_cpus ? o->a->vm_cpus : ROUND_VM_CPUS);
	char *argv[24];
	size_t opt = 0;

	snprintf(mem_opt, sizeof(mem_opt), "--vm-opt=--mem=%u", mem_mb);
	argv[opt++] = cistack;
	argv[opt++] = stack_opt;
	argv[opt++] = console_opt;
	argv[opt++] = smp_opt;
	if (mem_mb)
		argv[opt++] = mem_opt;
	argv[opt++] = "--";
	argv[opt++] = exe;
	argv[opt++] = "run";
	argv[opt++] = "--inner";
	argv[opt++] = rec_opt;
	argv[opt++] = list_opt;
	argv[opt++] = base_opt;
	argv[opt++] = timeout_opt;
	argv[opt++] = profile_opt;
	argv[opt++] = jobs_opt;
	argv[opt++] = "--trace"; /* the trace goes to the results directory */
	if (o->careful && careful_option(o->careful, r->from, end, careful_opt, sizeof(careful_opt))[0])
		argv[opt++] = careful_opt;
	if (o->a->fresh_agents)
		argv[opt++] = "--fresh-agents";
	if (defer)
		argv[opt++] = "--defer-crashes";
	argv[opt] = NULL;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		fprintf(stderr, "rdmacheck: cannot start %s: %s\n", cistack, strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* this run's death stops the round: SIGTERM to ci/stack (the run's guard stops its whole group) */
		if (proc_die_with(self, SIGTERM) == -ESRCH)
			_exit(127);
		if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) ||
		    !freopen(r->stacklog, "a", stderr))
			_exit(127);
		execv(cistack, argv);
		_exit(127);
	}
	setpgid(pid, pid);
	guard_group(pid, 1);
	interrupt_watch_slot(r->slot, pid);
	r->pid = pid;
	r->last = -1;
	r->last_change = proto_now_s();
	return 0;
}

/* r has ended with wait status st: its last records, and its exit status. */
static int round_ended(struct outer *o, struct round *r, int st)
{
	interrupt_watch_slot(r->slot, 0);
	guard_group(r->pid, 0);
	r->pid = 0;
	read_records(o, r);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int round_poll(struct outer *o, struct round *r)
{
	int st = 0, hang_s = o->a->step_s * 4 + HANG_SLACK_S;
	off_t size;
	pid_t w;

	w = waitpid(r->pid, &st, WNOHANG);
	read_records(o, r);
	if (w == r->pid)
		return round_ended(o, r, st);
	if ((size = records_size(r)) != r->last) {
		r->last = size;
		r->last_change = proto_now_s();
	}
	if (proto_now_s() - r->last_change > hang_s) {
		/* SIGTERM first: a host's inner runner takes its topology down */
		interrupt_stop(r->pid, r->pid, HANG_GRACE_S, &st);
		round_ended(o, r, st);
		return 121;
	}
	return -1;
}

int round_probe(const struct outer *o, const char *log, char *where, size_t len)
{
	char cistack[PATH_MAX + 16];
	char *argv[] = { cistack, "--stack=auto", "--probe", NULL };
	pid_t pid;
	int st;

	snprintf(cistack, sizeof(cistack), "%s/ci/stack", o->root);
	where[0] = '\0';
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		st = -errno;
		fprintf(stderr, "rdmacheck: cannot start %s: %s\n", cistack, strerror(-st));
		return st;
	}
	if (pid == 0) {
		if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) || !freopen(log, "a", stderr))
			_exit(127);
		execv(cistack, argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		outer_stack_choice(log, where, len);
	return 0;
}

void round_stop(struct outer *o, struct round *r)
{
	int st = 0;

	if (!r->pid)
		return;
	interrupt_stop(r->pid, r->pid, INTERRUPT_GRACE_S, &st);
	round_ended(o, r, st);
}

int round_failed(struct outer *o, struct round *r, int st)
{
	char why[512];

	if (st == 0) {
		if (r->only != ROUND_ALL && !o->st[r->only].finished) {
			o->rs[r->only].v = V_ERROR;
			snprintf(o->rs[r->only].reason, sizeof(o->rs[r->only].reason), "%s", ROUND_NO_RESULT);
			o->st[r->only].finished = 1;
		}
		return 0;
	}
	console_stack_reason(r->stacklog, st, why, sizeof(why));
	for (size_t i = r->from; i < round_end(o, r); i++)
		if (round_runs(o, r, i)) {
			o->rs[i].v = st == 77 ? V_SKIP : V_ERROR;
			snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "%s", why);
			o->st[i].finished = 1;
		}
	if (st != 77)
		fprintf(stderr, "rdmacheck: %s\n", why);
	return st != 77;
}

size_t round_running(const struct outer *o, size_t from, int side)
{
	size_t k = from;

	for (size_t i = from; i < o->fl.n; i++)
		if (o->st[i].started && !o->st[i].finished && o->st[i].deferred == side)
			return i;
	while (k < o->fl.n && (o->st[k].finished || o->st[k].deferred != side))
		k++;
	return k;
}

/*
 * When streams ran several at once (--jobs), which one killed the machine is
 * not known: none is judged, and the rest runs one at a time, so the one that
 * kills it again is. A batched scenario's records do not say at which step:
 * it runs again, careful (careful.h).
 */
size_t round_death(struct outer *o, struct round *r, int status)
{
	int side = r->only != ROUND_ALL;
	size_t from = r->from, k = side ? r->only : round_running(o, from, 0), running = 0;

	for (size_t i = from; !side && i < o->fl.n; i++)
		running += o->st[i].started && !o->st[i].finished && !o->st[i].deferred;
	if (running > 1 && r->jobs > 1) {
		r->jobs = 1;
		return from;
	}
	if (k >= o->fl.n || o->st[k].finished)
		return from;
	if (o->st[k].started && o->st[k].batched && o->careful && !o->careful[k]) {
		o->careful[k] = 1; /* again, careful: a side round's (a held one: batched) in a side round again */
		o->st[k].started = 0;
		return from;
	}
	death_judge(&o->rs[k], &o->st[k], status == 120, "", r->console, &o->console_txt[k]);
	if (o->careful && o->careful[k])
		careful_note(&o->rs[k].detail, CAREFUL_NOTE); /* out of memory: the verdict without its note */
	o->st[k].finished = 1;
	return from; /* the next round: every scenario still unfinished */
}

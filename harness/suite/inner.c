/*
 * inner.c — `rdmacheck run --inner`: the inner runner, where the real
 * stack is (this host or the disposable VM). It reads the outer runner's list
 * of scenario files, builds one topology big enough for all of them, runs them
 * one by one (one agent process per node, kept from one scenario to the next
 * after a confirmed reset: harness/run/pool.h; in the VM, those the model predicts
 * may kill the kernel after all the others, and those to run careful:
 * careful.h) and streams records (records.h) to the file the outer runner
 * reads (outer.c).
 */
#define _GNU_SOURCE /* setpgid, kill, getline */
#include "harness/run/be_model.h"
#include "harness/run/proto.h"
#include "harness/run/pool.h"
#include "harness/run/stack.h"
#include "harness/run/tape.h"
#include "harness/suite/careful.h"
#include "harness/base/exits.h"
#include "harness/base/proc.h"
#include "harness/corpus/load.h"
#include "harness/suite/inner.h"
#include "harness/nodes/console.h"
#include "harness/base/proc.h"
#include "harness/report/coverage.h"
#include "harness/corpus/crash_pred.h"
#include "harness/nodes/device.h"
#include "harness/suite/interrupt.h"
#include "harness/suite/jobs.h"
#include "harness/report/cov_html.h"
#include "harness/nodes/records.h"
#include "harness/report/report.h"
#include "harness/report/results.h"
#include "harness/suite/args.h"
#include "harness/suite/stage.h"
#include "netns/topo.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ inner -- */

#define INNER_KWARN_MAX 8

struct inner_ctx {
	FILE *rec;
	size_t idx;
	const struct m_profile *prof;
	const struct m_kwarn *warn[INNER_KWARN_MAX]; /* the kernel WARNs declared for the steps run */
	size_t nwarn;
	int batch;   /* the step records are a beat only (records.h: rec_step_beat) */
	double beat;
};

static void inner_on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
			  const struct m_pred *prof, int crash)
{
	struct inner_ctx *ic = ctx;
	char note[512] = "";

	(void)gen;
	ic->nwarn = run_kwarn_add(ic->prof, prof, ic->warn, ic->nwarn, INNER_KWARN_MAX);
	if (ic->batch) {
		rec_step_beat(ic->rec, ic->idx, f->steps[si].line, &ic->beat);
		return;
	}
	if (crash)
		run_crash_note(ic->prof, prof, note, sizeof(note));
	rec_step(ic->rec, ic->idx, f->steps[si].line, crash, note);
}

/* Start f's agents: the pool's (pool.h), or all anew with --fresh-agents. */
static int inner_start(const struct run_args *a, struct stack_pool *pool, struct stack *st, const struct scn_file *f)
{
	return a->fresh_agents ? stack_start(st, f, pool->t, pool->step_ms) : stack_pool_start(pool, st, f);
}

/* r: an ERROR saying which agent ended unnoticed before the scenario's end (st->err, stack_agents_end). */
static void inner_died(struct result *r, const struct stack *st)
{
	r->v = V_ERROR;
	r->line = 0;
	snprintf(r->reason, sizeof(r->reason), "at the scenario's end: %.450s", st->err);
}

/*
 * Stop f's agents: back to the pool after their reset (pool.h), or all of
 * them with --fresh-agents. Every one must answer its reset or its quit: one
 * that had ended unnoticed (after the last step's look at the agents, or
 * while it was reset) makes a verdict that would pass an ERROR naming it
 * (stack_agents_end). Returns 1 when it did.
 */
static int inner_stop(const struct run_args *a, struct stack_pool *pool, struct stack *st, struct result *r)
{
	int rc = a->fresh_agents ? stack_stop(st) : stack_pool_stop(pool, st); /* reset: what the kernel says of it is this scenario's */

	if (!rc)
		return 0;
	if (r->v == V_PASS || r->v == V_XFAIL) /* a FAIL or an ERROR already says the run did not pass */
		inner_died(r, st);
	return 1;
}

/*
 * Run-ahead could not judge a step of f exactly (result.rerun): run it again
 * on fresh agents without run-ahead, its result replacing *r with the careful
 * note (careful.h), recorded anew in *tr; unless an agent of the first run had
 * ended unnoticed: then *r is the ERROR naming it. 0, or -ENOMEM.
 */
static int inner_again(const struct run_args *a, struct stack_pool *pool, struct stack *st, const struct scn_file *f,
		       struct run_opts *o, struct result *r, struct tape_rec *tr)
{
	if (inner_stop(a, pool, st, r)) { /* an agent died: its ERROR, not a second run that would hide it */
		inner_died(r, st);
		r->rerun = 0;
		return 0;
	}
	result_clear(r);
	o->ahead = 0;
	tape_rec_drop(tr); /* the record is of the run that judges */
	tape_rec_init(tr, &stack_ops, st, o, f);
	if (inner_start(a, pool, st, f)) {
		memset(r, 0, sizeof(*r));
		r->v = V_ERROR;
		snprintf(r->reason, sizeof(r->reason), "cannot start the agents again: %.430s", st->err);
	} else if (run_scenario(f, &tr->ops, tr, o, r)) {
		return -ENOMEM;
	}
	return careful_note(&r->detail, CAREFUL_AHEAD_NOTE);
}

/* Run scenario f (record index k) on the pool's topology, and record its result. */
int cli_inner_one(const struct run_args *a, const struct m_profile *prof, const struct cli_pred *pred,
		  struct stack_pool *pool, FILE *rec, size_t k, const struct scn_file *f, int allow_crash, unsigned how)
{
	struct result r = { 0 };
	struct stack *st = calloc(1, sizeof(*st));
	int calm = f && pred->crash_si < 0 && !(how & INNER_CAREFUL); /* no step predicted to kill the kernel */
	struct inner_ctx ic = { rec, k, prof, { NULL }, 0, calm && (how & INNER_BATCH), 0 };
	int kfd = -1;
	struct tape_rec tr;
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof, .allow_crash = allow_crash, .trace = a->trace,
			      .on_step = inner_on_step, .ctx = &ic };

	if (ic.batch)
		rec_start_batched(rec, k);
	else
		rec_start(rec, k);
	o.ahead = calm; /* a step sent ahead runs even if an earlier one ends the scenario */
	tape_rec_init(&tr, &stack_ops, st, &o, f); /* what reality answered, to judge again (tape.h) */
	if (!f || !st) {
		snprintf(r.reason, sizeof(r.reason), "%s", st ? "cannot parse" : "out of memory");
		r.v = V_ERROR;
	} else if (run_unsupported(f, prof->caps, r.reason, sizeof(r.reason))) {
		r.v = V_SKIP;
	} else if (!allow_crash && cli_crash_reason(f, pred, r.reason, sizeof(r.reason))) {
		r.v = V_SKIP; /* a kernel that must survive: not one step of it runs */
	} else if ((kfd = kmsg_open()) /* the kernel's lines from here on */, inner_start(a, pool, st, f)) {
		r.v = V_ERROR;
		snprintf(r.reason, sizeof(r.reason), "cannot start the agents: %.440s", st->err);
	} else {
		if (run_scenario(f, &tr.ops, &tr, &o, &r) || (r.rerun && inner_again(a, pool, st, f, &o, &r, &tr))) {
			r.v = V_ERROR;
			snprintf(r.reason, sizeof(r.reason), "out of memory");
		}
		if (r.v == V_ERROR && interrupt_caught()) { /* its agents ended with the run */
			char why[sizeof(r.reason)];

			snprintf(why, sizeof(why), "%s", r.reason);
			snprintf(r.reason, sizeof(r.reason), "interrupted (%s): %.400s", strsignal(interrupt_caught()), why);
		}
		if (r.v == V_ERROR && st->err[0] && !strstr(r.reason, st->err)) { /* not said by the runner */
			size_t l = strlen(r.reason);

			snprintf(r.reason + l, sizeof(r.reason) - l, " (%s)", st->err);
		}
		inner_stop(a, pool, st, &r);
	}
	tape_rec_finish(&tr, &r); /* none made (no memory): the file has no record (rejudge says so); the verdict stands */
	if (kfd >= 0) { /* the kernel's lines during the scenario: to the results, and a WARN is a finding */
		char *lines = kmsg_take(kfd);
		int splat = lines ? console_finding(&r, lines, ic.warn, ic.nwarn) : 0;

		close(kfd);
		if ((how & INNER_SHARED) && splat != 0) { /* one it does not declare, maybe another stream's: */
			free(lines);                       /* it runs again alone (jobs.h) */
			result_clear(&r);
			free(st);
			return 1;
		}
		rec_kernel(rec, k, lines);
		free(lines);
	}
	if ((how & INNER_CAREFUL) && careful_note(&r.detail, CAREFUL_NOTE)) {
		r.v = V_ERROR;
		snprintf(r.reason, sizeof(r.reason), "out of memory");
	}
	rec_result(rec, k, &r);
	result_clear(&r);
	free(st);
	return 0;
}

/*
 * Start netns/topology up|down for nodes nodes (mode from
 * RDMACHECK_TOPOLOGY_MODE), its description in topo_file: its pid (spawn_finish
 * waits for it), or -errno.
 */
static int inner_topology(const char *root, const char *verb, size_t nodes, const char *topo_file)
{
	const char *mode = getenv("RDMACHECK_TOPOLOGY_MODE");
	char topology[PATH_MAX + 32], fileopt[PATH_MAX + 80], n[24], modeopt[64] = "", owneropt[40];
	char *up[] = { topology, "up", n, fileopt, owneropt, "-q", NULL, NULL };
	char *down[] = { topology, "down", fileopt, "-q", NULL };

	snprintf(topology, sizeof(topology), "%s/netns/topology", root);
	snprintf(fileopt, sizeof(fileopt), "--file=%s", topo_file);
	snprintf(n, sizeof(n), "%zu", nodes);
	snprintf(owneropt, sizeof(owneropt), "--owner=%ld", (long)getpid()); /* kept by a concurrent `down` */
	if (mode && (strcmp(mode, "netns") == 0 || strcmp(mode, "routed") == 0 || strcmp(mode, "auto") == 0)) {
		snprintf(modeopt, sizeof(modeopt), "--mode=%s", mode);
		up[6] = modeopt;
	}
	return spawn_start(strcmp(verb, "up") == 0 ? up : down, 1);
}

/*
 * --defer-crashes (the outer runner asks for it when it can run a round beside
 * this one, round.h): of the scenarios the model says may kill the kernel, this
 * run keeps the first in list order (its panic ends this guest after every
 * other scenario, jobs.h) and defers the others, not to run here: the outer
 * runner runs each in a guest of its own while this one runs, instead of
 * booting a guest for each after this one has died.
 */
static void inner_defer(const struct run_args *a, struct jobs_board *b)
{
	int kept = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (b->kind[i] != JOBS_ALONE || b->pred[i].crash_si < 0 || careful_has(a->careful, a->base + i))
			continue;
		if (kept++)
			b->kind[i] = JOBS_DEFERRED;
	}
}

/*
 * Tell the outer runner which scenarios this run deferred (records.h: defer),
 * once stream 0 has run out of work: its side rounds' guests boot and run
 * then, beside this guest's last scenarios (the corpus's verbs/290 waits 50 s
 * in the kernel), not beside its busy part (measured on 2 CPUs, the corpus:
 * told at once 74.3 s and 87 CPU-s, told then 74.2 s and 83 CPU-s; before
 * side rounds 81.6 s and 76 CPU-s).
 */
static void inner_announce(const struct run_args *a, const struct jobs_board *b, FILE *rec)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->kind[i] == JOBS_DEFERRED)
			rec_defer(rec, a->base + i);
}

/*
 * Run every scenario of b that stream s may take, on pool, recording into rec;
 * shared: other streams run beside this one (a scenario the kernel logged a
 * splat during is handed back to run alone, jobs.h).
 */
static void inner_stream(const struct run_args *a, const struct m_profile *prof, struct stack_pool *pool, FILE *rec,
			 struct jobs_board *b, unsigned s, struct scn_file **files, int allow_crash, int shared)
{
	size_t cursor = 0, i;

	while (!interrupt_caught() && (i = jobs_take(b, s, &cursor)) < b->n) {
		if (cli_inner_one(a, prof, &b->pred[i], pool, rec, a->base + i, files[i], allow_crash,
				  INNER_BATCH | (shared ? INNER_SHARED : 0)))
			jobs_again(b, i);
		else
			jobs_done(b, i);
	}
}

/* A pool of agents on t for up to nodes nodes, started before the first scenario (pool.h). */
static void inner_pool(const struct run_args *a, struct stack_pool *pool, const struct topo *t, size_t nodes)
{
	stack_pool_init(pool, t, a->step_s * 1000);
	if (!a->fresh_agents) /* ready before the first scenario (one that cannot start them says why) */
		stack_pool_prestart(pool, (unsigned)(nodes < t->n ? nodes : t->n));
}

/*
 * Fork stream s (1..): a process with a pool of its own, recording into its own
 * file (jobs.h). Returns its pid, or -errno (its scenarios are left to the others).
 */
static pid_t inner_fork_stream(const struct run_args *a, const struct m_profile *prof, const struct topo *t,
			       size_t nodes, struct jobs_board *b, unsigned s, struct scn_file **files, int allow_crash)
{
	char path[PATH_MAX + 96];
	struct stack_pool pool;
	FILE *rec;
	pid_t pid, self = getpid();

	if (jobs_records_path(a->records, s, path, sizeof(path)))
		return -ENAMETOOLONG;
	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid < 0 ? -errno : pid;
	if (proc_die_with(self, SIGTERM) == -ESRCH) /* a killed inner runner's streams stop (interrupt.h) */
		_exit(EXIT_INFRA);
	rec = fopen(path, "a");
	if (!rec) {
		fprintf(stderr, "rdmacheck: stream %u: cannot open %s: %s\n", s, path, strerror(errno));
		_exit(EXIT_INFRA);
	}
	inner_pool(a, &pool, t, nodes);
	inner_stream(a, prof, &pool, rec, b, s, files, allow_crash, 1);
	stack_pool_close(&pool);
	fclose(rec);
	_exit(0);
}

/*
 * Wait for the forked streams; a scenario one of them took and did not finish
 * (it died) gets an ERROR saying so, in rec.
 */
static void inner_reap(struct jobs_board *b, const pid_t *pids, unsigned n, FILE *rec, size_t base)
{
	int ws, died = 0;

	for (unsigned s = 1; s < n; s++)
		if (pids[s] > 0 && waitpid(pids[s], &ws, 0) == pids[s] && !(WIFEXITED(ws) && WEXITSTATUS(ws) == 0))
			died = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
	for (size_t i = 0; died && i < b->n; i++)
		if (b->state[i] == JOBS_TAKEN) {
			struct result r = { .v = V_ERROR };

			snprintf(r.reason, sizeof(r.reason), "the stream of the inner runner running it ended (status %d)",
				 died);
			rec_result(rec, base + i, &r);
		}
}

/*
 * The scenarios of b: those streams may share in a->jobs streams at once
 * (stream 0 here, the others forked), then the crash-predicted ones one at a
 * time (jobs.h). Records of stream 0 and of that last phase go to rec.
 */
static void inner_all(const struct run_args *a, const struct m_profile *prof, const struct topo *t, size_t nodes,
		      struct jobs_board *b, FILE *rec, struct scn_file **files, int allow_crash)
{
	unsigned n = jobs_streams(b, a->jobs ? (unsigned)a->jobs : JOBS_DEFAULT);
	pid_t pids[JOBS_MAX] = { 0 };
	struct stack_pool pool;
	size_t cursor = 0, i;

	for (unsigned s = 1; s < n; s++) /* before this process has agents: they are not the streams' */
		pids[s] = inner_fork_stream(a, prof, t, nodes, b, s, files, allow_crash);
	inner_pool(a, &pool, t, nodes);
	inner_stream(a, prof, &pool, rec, b, 0, files, allow_crash, n > 1);
	inner_announce(a, b, rec);
	inner_reap(b, pids, n, rec, a->base);
	jobs_streams_ended(b); /* a stream that died held its families: what of them it left, stream 0 runs */
	inner_stream(a, prof, &pool, rec, b, 0, files, allow_crash, 0);
	/*
	 * In the VM, the scenarios the profile says may kill the kernel run after
	 * all the others: a panic ends the guest, and then only them (the outer
	 * run resumes with the first one not finished; see outer.c).
	 */
	while (!interrupt_caught() && (i = jobs_take(b, JOBS_STREAM_ALONE, &cursor)) < b->n) {
		cli_inner_one(a, prof, &b->pred[i], &pool, rec, a->base + i, files[i], allow_crash,
			      careful_has(a->careful, a->base + i) ? INNER_CAREFUL : INNER_BATCH);
		jobs_done(b, i);
	}
	stack_pool_close(&pool);
}

int cli_run_inner(const struct run_args *a)
{
	char root[PATH_MAX], topo_file[PATH_MAX + 64], err[512], **paths;
	struct scn_file **files;
	struct topo t;
	struct jobs_board b;
	struct m_profile prof, stack_prof;
	const struct m_profile *stack; /* the stack's own, when not prof (crash_pred.h) */
	FILE *list, *rec;
	size_t maxn, n;
	int rc, up, allow_crash = getenv("RDMACHECK_STACK") && strcmp(getenv("RDMACHECK_STACK"), "vm") == 0;

	if (cli_find_root(root, sizeof(root)) || !a->records || !a->list) {
		fprintf(stderr, "rdmacheck: --inner needs --records and --inner-list, and the checkout\n");
		return EXIT_INFRA;
	}
	if (cli_profile(a->profile, &prof))
		return EXIT_USAGE;
	interrupt_install(); /* the outer run's SIGTERM: stop after this scenario, topology down */
	if (!strchr(a->profile, ':') && cli_running_kernel())
		prof.kernel = cli_running_kernel();
	stack = cli_stack_profile(&prof, "rxe", &stack_prof); /* the nodes netns/topology builds are rxe */
	list = fopen(a->list, "r");
	rec = fopen(a->records, "a");
	if (!list || !rec) {
		fprintf(stderr, "rdmacheck: cannot open %s or %s: %s\n", a->list, a->records, strerror(errno));
		return EXIT_INFRA;
	}
	stage_load(list, &paths, &files, &n, &maxn);
	fclose(list);
	/* named after the outer run's records: the outer run removes it, even after a panic */
	snprintf(topo_file, sizeof(topo_file), "%s.topo", a->records);
	up = inner_topology(root, "up", maxn, topo_file); /* built while the model walks the scenarios, below */
	if (jobs_board_init(&b, n)) {
		fprintf(stderr, "rdmacheck: out of memory\n");
		spawn_finish(up);
		spawn_finish(inner_topology(root, "down", maxn, topo_file));
		stage_unload(paths, files, n);
		fclose(rec);
		return EXIT_INFRA;
	}
	for (size_t i = 0; i < n; i++) { /* the others are the outer run's: unparsed, or finished */
		b.pred[i] = (struct cli_pred){ .crash_si = -1 };
		if (files[i]) /* one walk of the model per profile, for the kind and for cli_inner_one */
			cli_predict(files[i], &prof, stack, &b.pred[i]);
		b.fams[i] = jobs_families(files[i]);
		b.kind[i] = (uint8_t)(!paths[i]			       ? JOBS_NONE
				      : careful_has(a->careful, a->base + i) ? JOBS_ALONE /* careful.h: with the last */
									      : jobs_kind_of(files[i], &b.pred[i], allow_crash));
	}
	for (size_t i = 0; i < n; i++)
		if (paths[i] && !files[i]) /* given, does not parse here: its ERROR from cli_inner_one */
			b.kind[i] = JOBS_FIRST;
	if (a->defer_crashes && allow_crash)
		inner_defer(a, &b);
	rc = spawn_finish(up);
	if (rc != 0 || topo_load(topo_file, &t, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck: netns/topology up %zu failed (%d)\n", maxn, rc);
		spawn_finish(inner_topology(root, "down", maxn, topo_file));
		jobs_board_free(&b);
		stage_unload(paths, files, n);
		fclose(rec);
		return EXIT_INFRA;
	}
	inner_all(a, &prof, &t, maxn, &b, rec, files, allow_crash);
	spawn_finish(inner_topology(root, "down", maxn, topo_file));
	unlink(topo_file);
	jobs_board_free(&b);
	stage_unload(paths, files, n);
	fclose(rec);
	return interrupt_caught() ? EXIT_INTERRUPTED : 0;
}

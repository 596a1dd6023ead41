/*
 * outer.c — `rdmacheck run`'s outer runner (on the machine the user started
 * it on; harness/cli/run.c reads the command line, inner.c is the inner
 * runner, where the real stack is: this host or the disposable VM).
 *
 * The outer runner (here; the inner one is inner.c) parses every scenario, then starts the inner runner through
 * ci/stack (which picks host or VM) with the list of scenario files still to
 * run. The inner runner builds one topology big enough for all of them, runs
 * them one by one (one agent process per node; in the VM those the profile
 * says may kill the kernel last) and streams records (records.h)
 * to a file in the checkout. The outer runner reads that file while it grows,
 * printing each result as it arrives. When the guest kernel panics (ci/vm exit
 * 120) or hangs (no record for too long, or ci/vm exit 121), the scenario
 * that was running gets KERNEL_CRASH or TIMEOUT with the console excerpt, a
 * fresh guest is booted and the run goes on with the scenarios not finished.
 * Ctrl-C or SIGTERM (interrupt.h) stops the inner runner (the guest goes,
 * the host's agents and topology are removed), marks the scenario that was
 * running, reports what ran and exits 130; a second one kills at once.
 */
#define _GNU_SOURCE /* setpgid, kill, getline */
#include "harness/run/be_model.h"
#include "harness/run/proto.h"
#include "harness/run/pool.h"
#include "harness/run/stack.h"
#include "harness/run/tape.h"
#include "harness/base/exits.h"
#include "harness/base/proc.h"
#include "harness/corpus/held.h"
#include "harness/corpus/history.h"
#include "harness/corpus/load.h"
#include "harness/lang/scn.h"
#include "harness/suite/careful.h"
#include "harness/suite/inner.h"
#include "harness/nodes/console.h"
#include "harness/nodes/death.h"
#include "harness/base/proc.h"
#include "harness/report/coverage.h"
#include "harness/suite/interrupt.h"
#include "harness/suite/jobs.h"
#include "harness/report/cov_html.h"
#include "harness/nodes/records.h"
#include "harness/report/report.h"
#include "harness/report/results.h"
#include "harness/suite/round.h"
#include "harness/suite/args.h"
#include "harness/suite/rundir.h"
#include "harness/suite/stage.h"
#include "harness/nodes/vms.h"
#include "harness/suite/suite.h"
#include "netns/topo.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


/* ------------------------------------------------------------ outer -- */


/*
 * The progress line while the real stack runs: the scenario awaited and the
 * time it has taken, or before it started what ci/stack / ci/vm said last
 * ("ci/vm: booting the guest (tcg, ...)"). Redrawn only when it changes.
 */
static void show_status(struct outer *o)
{
	char what[300], line[400];
	size_t k = round_running(o, o->printed, 0); /* not always the next to print: crash-predicted ones run last */

	if (k >= o->fl.n)
		return;
	if (o->wait_k != k + 1) { /* a new scenario awaited: its clock starts */
		o->wait_k = k + 1;
		o->wait_t0 = proto_now_s();
	}
	if (o->st[k].started || !console_last_line(o->stacklog, NULL, what, sizeof(what)))
		snprintf(what, sizeof(what), "%s", o->fl.v[k]);
	snprintf(line, sizeof(line), "%s (%.0f s)", what, proto_now_s() - o->wait_t0);
	report_progress(o->printed, o->fl.n, line);
}

/* mkdir dir (an existing directory is fine); 0, or -errno said on stderr. */
static int make_dir(const char *dir)
{
	struct stat sb;

	if (mkdir(dir, 0755) == 0 || (errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)))
		return 0;
	int rc = errno == EEXIST ? -ENOTDIR : -errno;

	fprintf(stderr, "rdmacheck: cannot make the directory %s: %s%s\n", dir, strerror(-rc),
		rc == -EACCES || rc == -EPERM || rc == -EROFS ? " (the run writes its records into the checkout: "
								"run as its owner, or make it writable)" : "");
	return rc;
}

/* --stack=model: every scenario on the model engine, simulating the profile's stack. */
static void outer_model(struct outer *o, const struct m_profile *prof)
{
	for (size_t i = 0; i < o->fl.n && !interrupt_caught(); i++) {
		struct be_model eng;
		struct cli_first_disagree md = { .path = o->fl.v[i] };
		/* The model simulates the profile's stack: its capabilities only; what the
		 * file says against the model is said as lint says it. */
		struct run_opts ro = { .mode = RUN_REAL, .prof = *prof, .trace = 1, /* for the results */
				       .model_engine = 1, .on_disagree = cli_first_disagree, .ctx = &md };

		if (o->st[i].finished) { /* does not parse */
			outer_print_ready(o);
			continue;
		}
		if (bm_init(&eng, o->files[i], prof) == 0) {
			struct tape_rec tr;

			tape_rec_init(&tr, &be_model_ops, &eng, &ro, o->files[i]); /* recorded as a real run is (tape.h) */
			if (run_scenario(o->files[i], &tr.ops, &tr, &ro, &o->rs[i]) == 0) {
				tape_rec_finish(&tr, &o->rs[i]);
				cli_first_disagree_result(&md, &o->rs[i]);
			}
			tape_rec_drop(&tr);
			snprintf(o->rs[i].file, sizeof(o->rs[i].file), "%s", o->fl.v[i]);
		}
		bm_free(&eng);
		o->st[i].finished = 1;
		outer_print_ready(o);
	}
	outer_mark_interrupted(o);
	outer_print_ready(o);
}

/*
 * Copy every file to run into the checkout (stage.h): the VM sees no host
 * /tmp. A file that cannot be copied is an ERROR saying why.
 */
static void stage_files(struct outer *o, struct stage *sg)
{
	char err[512], dst[PATH_MAX + 32];
	int open_rc = stage_open(sg, o->root, err, sizeof(err));

	for (size_t i = 0; i < o->fl.n; i++) {
		if (o->st[i].finished)
			continue;
		if (open_rc || stage_add(sg, i, o->fl.v[i], dst, sizeof(dst), err, sizeof(err))) {
			o->rs[i].v = V_ERROR;
			snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "not run: %.480s", err);
			o->st[i].finished = 1;
			continue;
		}
		o->staged[i] = strdup(dst);
	}
}

/*
 * The scenarios the kernel holds (held.h), by the durations --times names
 * (else the checkout's record; none when it is not there) and by the memory
 * each file registers (scn_registered_bytes), into o->held, when a run on the
 * real stack may give them guests of their own (--jobs above 1, not
 * --stack=host, not on nodes that exist). 0, or EXIT_USAGE (said on stderr)
 * when --times cannot be read; EXIT_INFRA when out of memory.
 */
static int outer_held(struct outer *o)
{
	char root[PATH_MAX], path[PATH_MAX + 64], err[PATH_MAX + 128];
	struct shard_times t = { 0 };
	const char *stack = o->a->stack ? o->a->stack : "auto";
	uint64_t *pinned;

	if (o->jobs < 2 || o->a->device || o->a->topology || (strcmp(stack, "vm") != 0 && strcmp(stack, "auto") != 0))
		return 0;
	path[0] = '\0';
	if (o->a->times) {
		if (hist_path(o->a->times, path, sizeof(path)) != 0) {
			fprintf(stderr, "rdmacheck: --times: %s: the name is too long\n", o->a->times);
			return EXIT_USAGE;
		}
	} else if (cli_find_root(root, sizeof(root)) == 0) {
		snprintf(path, sizeof(path), "%s/%s", root, HELD_RECORD);
		if (access(path, R_OK) != 0)
			path[0] = '\0'; /* a checkout without its record: no duration is known */
	}
	if (path[0] && shard_times_read(path, &t, err, sizeof(err)) != 0) {
		fprintf(stderr, "rdmacheck: --times: %s\n", err);
		return EXIT_USAGE;
	}
	pinned = calloc(o->fl.n ? o->fl.n : 1, sizeof(*pinned));
	o->held = calloc(o->fl.n ? o->fl.n : 1, 1);
	if (!pinned || !o->held) {
		free(pinned);
		shard_times_free(&t);
		return EXIT_INFRA;
	}
	for (size_t i = 0; i < o->fl.n; i++)
		pinned[i] = o->files[i] ? scn_registered_bytes(o->files[i]) : 0;
	if (held_pick(o->fl.n, o->fl.v, path[0] ? &t : NULL, pinned, o->held) == 0) {
		free(o->held);
		o->held = NULL;
	}
	free(pinned);
	shard_times_free(&t);
	return 0;
}

/*
 * Defer the held scenarios to side rounds, each a guest of its own started
 * with the main round (outer_stack), when the stack is the VM (--stack=auto:
 * ci/stack's probe says so, its lines to log); the main round's list leaves
 * them out.
 */
static void defer_held(struct outer *o, const char *log)
{
	char where[16] = "vm";

	if (!o->held || interrupt_caught())
		return;
	if (strcmp(o->a->stack ? o->a->stack : "auto", "vm") != 0 && round_probe(o, log, where, sizeof(where)) != 0)
		return;
	if (strcmp(where, "vm") != 0)
		return;
	for (size_t i = 0; i < o->fl.n; i++)
		if (o->held[i] && !o->st[i].finished && o->staged[i])
			o->st[i].deferred = 1;
}

/* Whether the main round has a scenario to run from `from` on (not finished, not a side round's). */
static int main_has_work(const struct outer *o, size_t from)
{
	for (size_t i = from; i < o->fl.n; i++)
		if (!o->st[i].finished && !o->st[i].deferred)
			return 1;
	return 0;
}

/* Whether scenario i is one the kernel holds (held.h), deferred by the outer runner itself (defer_held). */
static int is_held(const struct outer *o, size_t i)
{
	return o->held && o->held[i];
}

/*
 * The scenario the next side round runs: deferred (by the main round, or
 * held), not finished, no side round's; a crash-predicted one only while
 * fewer than ROUND_CRASH_SIDES side rounds run those; o->fl.n: none.
 */
static size_t next_deferred(const struct outer *o, const struct round *sr)
{
	unsigned crash_sides = 0;

	for (unsigned j = 0; j < ROUND_SIDES; j++)
		crash_sides += sr[j].pid && !is_held(o, sr[j].only);
	for (size_t i = 0; i < o->fl.n; i++) {
		int taken = 0;

		for (unsigned j = 0; j < ROUND_SIDES; j++)
			taken |= sr[j].pid && sr[j].only == i;
		if (o->st[i].deferred && !o->st[i].finished && !taken &&
		    (is_held(o, i) || crash_sides < ROUND_CRASH_SIDES))
			return i;
	}
	return o->fl.n;
}

/* The files of the rounds (the main one, then ROUND_SIDES side ones) into the results directory, then away. */
static void rounds_done(struct outer *o, struct round *rounds)
{
	for (unsigned j = 0; j <= ROUND_SIDES && !o->ran_where[0]; j++)
		outer_stack_choice(rounds[j].stacklog, o->ran_where, sizeof(o->ran_where)); /* what ran: outer_ran_on */
	for (unsigned j = 0; o->res.jsonl && j <= ROUND_SIDES; j++) {
		char name[32];

		snprintf(name, sizeof(name), j ? "stack-side%u.log" : "stack.log", j);
		results_file(&o->res, name, rounds[j].stacklog);
		snprintf(name, sizeof(name), j ? "console-side%u.log" : "console.log", j);
		results_file(&o->res, name, rounds[j].console);
	}
	for (unsigned j = 0; j <= ROUND_SIDES; j++) {
		struct round *r = &rounds[j];
		char topo[sizeof(r->rec) + 8];

		round_remove(r); /* the guest's console too: what a report needs of it is in the results directory */
		unlink(r->stacklog);
		snprintf(topo, sizeof(topo), "%.*s.topo", (int)sizeof(r->rec), r->rec); /* the inner run's, left by a guest that died */
		unlink(topo);
	}
}

/*
 * The real stack: rounds of the inner runner (ci/stack, round.h), the main
 * one resuming after the scenario that killed the one before, a side round
 * beside it for each scenario it deferred (--jobs above 1); a stack that is
 * not there skips the rest, with ci/stack's reason. Returns 1 on an
 * infrastructure failure.
 */
static int outer_stack(struct outer *o)
{
	char dir[PATH_MAX + 16];
	size_t from = 0, k;
	int infra = 0, main_done = 0, st;
	struct stage sg;
	struct round rounds[1 + ROUND_SIDES], *sr = rounds + 1, *mr = rounds;
	char suffix[16];

	snprintf(dir, sizeof(dir), "%s/build", o->root);
	if (make_dir(dir))
		return 1;
	snprintf(dir, sizeof(dir), "%s/build/run", o->root);
	if (make_dir(dir))
		return 1;
	rundir_claim(dir);
	for (unsigned j = 0; j <= ROUND_SIDES; j++) {
		suffix[0] = '\0';
		if (j)
			snprintf(suffix, sizeof(suffix), "-side%u", j);
		round_init(&rounds[j], dir, (long)getpid(), suffix, j ? 1 : o->jobs, j);
		unlink(rounds[j].stacklog);
	}
	snprintf(o->stacklog, sizeof(o->stacklog), "%.*s", (int)sizeof(o->stacklog) - 1, mr->stacklog); /* show_status */
	stage_files(o, &sg);
	defer_held(o, mr->stacklog);
	while (!interrupt_caught()) {
		int running = 0;

		if (!mr->pid && !main_done) {
			while (from < o->fl.n && o->st[from].finished)
				from++; /* nothing to run there (does not parse): no guest booted for it */
			if (!main_has_work(o, from))
				main_done = 1;
			else if (round_start(o, mr, from, ROUND_ALL, o->jobs > 1) < 0) { /* said why: nothing ran */
				outer_finish_rest(o, from, V_ERROR, "not run: the runner on the real stack could not start");
				infra = main_done = 1;
			}
		}
		for (unsigned j = 0; j < ROUND_SIDES && !infra; j++)
			if (!sr[j].pid && (k = next_deferred(o, sr)) < o->fl.n && round_start(o, &sr[j], k, k, 0) < 0) {
				outer_finish_rest(o, k, V_ERROR, "not run: the runner on the real stack could not start");
				infra = main_done = 1;
			}
		if (mr->pid && (st = round_poll(o, mr)) >= 0) {
			if (st == 120 || st == 121) {
				from = round_death(o, mr, st);
			} else {
				main_done = 1;
				infra |= round_failed(o, mr, st);
			}
		}
		for (unsigned j = 0; j < ROUND_SIDES; j++)
			if (sr[j].pid && (st = round_poll(o, &sr[j])) >= 0) {
				if (st == 120 || st == 121)
					round_death(o, &sr[j], st);
				else
					infra |= round_failed(o, &sr[j], st);
			}
		outer_print_ready(o);
		show_status(o);
		for (unsigned j = 0; j <= ROUND_SIDES; j++)
			running |= rounds[j].pid != 0;
		if (!running && main_done && (infra || next_deferred(o, sr) >= o->fl.n))
			break; /* (after an infrastructure failure no side round starts: what is left is not run) */
		if (running)
			nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	}
	for (unsigned j = 0; j <= ROUND_SIDES; j++)
		round_stop(o, &rounds[j]); /* after Ctrl-C or SIGTERM: what still runs */
	outer_mark_interrupted(o);
	outer_finish_rest(o, 0, V_ERROR, ROUND_NO_RESULT);
	outer_print_ready(o);
	rounds_done(o, rounds);
	stage_close(&sg);
	return infra;
}

/* The end of a run: the report's summary, semantic coverage, JUnit. Returns 1 if the JUnit file failed. */
static int outer_report(struct outer *o, const struct m_profile *prof, double secs)
{
	struct rule_cov cov, walk;
	/* the reports are of what ran: the results without the not-run ones (outer_mark_interrupted) */
	size_t nran = o->fl.n - o->not_run, m = 0;
	struct result *w = calloc(o->fl.n ? o->fl.n : 1, sizeof(*w));
	struct result *ran = calloc(nran + 1, sizeof(*ran));
	struct cov_case *cc = calloc(o->fl.n ? o->fl.n : 1, sizeof(*cc));
	int rc, bad = 0;

	for (size_t i = 0; ran && i < o->fl.n; i++)
		if (!o->st[i].not_run)
			ran[m++] = o->rs[i]; /* a shallow copy: o->rs keeps what it points to */
	report_end(stdout, o->a->format, ran ? ran : o->rs, ran ? nran : o->fl.n, secs);
	if (o->not_run)
		report_not_run(stdout, o->a->format, o->not_run, o->fl.n, strsignal(interrupt_caught()));
	cov_init(&cov);
	cov_init(&walk);
	m = 0;
	for (size_t i = 0; w && cc && i < o->fl.n; i++) {
		if (o->st[i].not_run)
			continue;
		cov_add(&cov, &o->rs[i], i);
		if (o->files[i]) { /* what `rdmacheck coverage` counts, for the same files */
			cli_walk(o->files[i], prof, NULL, NULL, NULL, &w[i]);
			cov_add(&walk, &w[i], i);
		}
		cc[m++] = (struct cov_case){ o->fl.v[i], o->files[i], &o->rs[i], o->files[i] ? &w[i] : NULL };
	}
	cov_print_compare(stdout, &cov, &walk, o->fl.v, o->a->format == REPORT_TAP ? "# " : "");
	if (o->res.jsonl && w && cc) { /* the picture: rules x families, deviations (cov_html.h) */
		char page[PATH_MAX + 32], ran_on[512];

		snprintf(page, sizeof(page), "%s/coverage.html", o->res.dir);
		outer_ran_on(o, prof, ran_on, sizeof(ran_on));
		if ((rc = cov_html(page, cc, m, ran_on, prof)) != 0)
			fprintf(stderr, "rdmacheck: %s: %s\n", page, strerror(-rc));
	}
	for (size_t i = 0; w && i < o->fl.n; i++)
		result_clear(&w[i]);
	free(w);
	free(cc);
	if (o->res.jsonl) {
		if ((rc = results_close(&o->res)) != 0)
			fprintf(stderr, "rdmacheck: results in %s incomplete: cannot write %s: %s\n", o->res.dir,
				o->res.werr_path, strerror(-rc));
		fprintf(stdout, "%sresults: %s\n", o->a->format == REPORT_TAP ? "# " : "", o->res.dir);
		bad = rc != 0;
	}
	if (ran && o->not_run) /* one case says it: the JUnit of an interrupted run is not green */
		report_not_run_case(&ran[nran++], o->not_run, o->fl.n, strsignal(interrupt_caught()));
	if (o->a->junit && (rc = report_junit(o->a->junit, ran ? ran : o->rs, ran ? nran : o->fl.n, secs)) != 0) {
		fprintf(stderr, "rdmacheck: --junit=%s: %s\n", o->a->junit, strerror(-rc));
		bad = 1;
	}
	free(ran);
	return bad;
}

/*
 * Open the results directory: --results=DIR, or the default in the checkout (else ./build/results).
 * 0, or -EBUSY when another run writes it (said on stderr; this one must not run).
 */
static int outer_results(struct outer *o)
{
	char root[PATH_MAX], dir[PATH_MAX], err[512];

	if (o->a->results)
		snprintf(dir, sizeof(dir), "%s", o->a->results);
	else if (cli_find_root(root, sizeof(root)) || results_default(root, dir, sizeof(dir)))
		results_default(".", dir, sizeof(dir));
	if (results_open(&o->res, dir, !o->a->results, err, sizeof(err)) == -EBUSY) {
		fprintf(stderr, "rdmacheck: --results: %s\n", err);
		return -EBUSY;
	} else if (!o->res.jsonl) {
		fprintf(stderr, "rdmacheck: no results directory: %s\n", err);
	}
	return 0;
}

/* suite_run: the run (its files in build/run removed), then the claim on build/run released (rundir.h). */
static int suite_run_all(const struct run_args *a, int npaths, char **paths)
{
	struct outer o = { .a = a, .jobs = a->jobs ? (unsigned)a->jobs : JOBS_DEFAULT };
	double t0 = proto_now_s();
	size_t c[V_COUNT_], n, unparsed = 0;
	int rc, infra = 0, none;
	struct m_profile prof;
	struct topo dev_topo;

	if (cli_profile(a->profile, &prof))
		return EXIT_USAGE;
	interrupt_install();
	if (a->device && (rc = outer_device_start(&o, &prof, &dev_topo)) != 0)
		return rc;
	if (a->topology && (rc = outer_topology_start(&o, &prof, &dev_topo)) != 0)
		return rc;
	rc = sel_load(&a->sel, a->rerun_failed, npaths, paths, &prof, &o.fl, &o.files, &o.diags, &none);
	if (rc == SEL_STOPPED) {
		fprintf(stderr, "rdmacheck: interrupted (%s) while loading the scenarios: nothing ran\n",
			strsignal(interrupt_caught()));
		return EXIT_INTERRUPTED;
	}
	if (rc)
		return rc == SEL_NONE ? none : rc;
	if (a->sel.shuffle)
		fprintf(stderr, "rdmacheck: shuffled with --seed=%llu\n", (unsigned long long)a->sel.seed);
	if (a->show_list) {
		sel_list(stdout, &o.fl, o.files);
		cli_unload_diags(o.fl.n, o.diags);
		cli_unload(&o.fl, o.files);
		return 0;
	}
	if ((rc = outer_held(&o)) != 0 || outer_results(&o)) {
		free(o.held);
		cli_unload_diags(o.fl.n, o.diags);
		cli_unload(&o.fl, o.files);
		return rc ? rc : EXIT_USAGE;
	}
	o.rs = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.rs));
	o.st = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.st));
	o.careful = calloc(o.fl.n ? o.fl.n : 1, 1);
	o.staged = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.staged));
	o.console_txt = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.console_txt));
	if (!o.rs || !o.st || !o.staged || !o.console_txt)
		return EXIT_INFRA;
	for (size_t i = 0; i < o.fl.n; i++) {
		snprintf(o.rs[i].file, sizeof(o.rs[i].file), "%s", o.fl.v[i]);
		snprintf(o.rs[i].title, sizeof(o.rs[i].title), "%s", o.files[i] ? o.files[i]->title : "");
		o.rs[i].v = V_ERROR;
		snprintf(o.rs[i].reason, sizeof(o.rs[i].reason), "not run");
	}
	for (size_t i = 0; i < o.fl.n; i++)
		if (!o.files[i]) /* does not parse: an ERROR with its diagnostics, the run goes on */
			o.st[i].finished = cli_parse_error(&o.rs[i], o.diags[i]) == 0;
	report_begin(stdout, a->format, o.fl.n);
	if (strcmp(a->stack, "model") == 0) {
		outer_model(&o, &prof);
	} else if (strcmp(a->stack, "vms") == 0) {
		infra = outer_vms(&o, &prof);
	} else if (a->device || a->topology) {
		infra = outer_device(&o, &prof, &dev_topo, NULL);
	} else if (cli_find_root(o.root, sizeof(o.root))) {
		fprintf(stderr, "rdmacheck: cannot find the checkout (ci/stack) above this executable\n");
		outer_finish_rest(&o, 0, V_ERROR, "not run: cannot find the checkout (ci/stack) above this executable");
		outer_print_ready(&o);
		infra = 1;
	} else {
		infra = outer_stack(&o);
	}
	infra |= outer_report(&o, &prof, proto_now_s() - t0);
	report_count(o.rs, n = o.fl.n, c);
	for (size_t i = 0; i < o.fl.n; i++)
		unparsed += !o.files[i];
	for (size_t i = 0; i < o.fl.n; i++) {
		result_clear(&o.rs[i]);
		free(o.staged[i]);
		free(o.console_txt[i]);
		rec_state_clear(&o.st[i]);
	}
	free(o.rs);
	free(o.st);
	free(o.careful);
	free(o.held);
	free(o.staged);
	free(o.console_txt);
	cli_unload_diags(o.fl.n, o.diags);
	cli_unload(&o.fl, o.files);
	if (interrupt_caught())
		return EXIT_INTERRUPTED;
	if (c[V_FAIL])
		return EXIT_FAILED;
	if (unparsed) /* as lint: the files are what is wrong, not the stack */
		return EXIT_USAGE;
	if (infra || c[V_ERROR])
		return EXIT_INFRA;
	return n && c[V_SKIP] == n ? EXIT_SKIP : 0; /* nothing ran: skipped, as automake reads it */
}

int suite_run(const struct run_args *a, int npaths, char **paths)
{
	int rc = suite_run_all(a, npaths, paths);

	rundir_release();
	return rc;
}

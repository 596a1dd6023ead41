/*
 * cli_run.c — `rdmacheck run`: the outer runner (on the machine the user
 * started it on) and the inner runner (where the real stack is: this host or
 * the disposable VM).
 *
 * The outer runner (here; the inner one is cli_inner.c) parses every scenario, then starts the inner runner through
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
#include "harness/cli/cli.h"
#include "harness/cli/careful.h"
#include "harness/cli/cli_inner.h"
#include "harness/cli/console.h"
#include "harness/cli/death.h"
#include "harness/cli/proc.h"
#include "harness/cli/coverage.h"
#include "harness/cli/interrupt.h"
#include "harness/cli/jobs.h"
#include "harness/cli/cov_html.h"
#include "harness/cli/records.h"
#include "harness/cli/report.h"
#include "harness/cli/results.h"
#include "harness/cli/run_args.h"
#include "harness/cli/stage.h"
#include "harness/cli/vms.h"
#include "harness/cli/outer.h"
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

#define HANG_SLACK_S 120 /* boot, topology and agent start beyond the step timeout */
#define HANG_GRACE_S 10  /* what a hung inner runner gets to clean up before SIGKILL */


/* ------------------------------------------------------------ outer -- */


/* Print every result that arrived, in order. */
void outer_print_ready(struct outer *o)
{
	while (o->printed < o->fl.n && o->st[o->printed].finished) {
		size_t k = o->printed;
		char *trace = results_take_trace(&o->rs[k], o->a->trace); /* every run traces: for the results */

		if (o->res.jsonl)
			results_scenario(&o->res, k, &o->rs[k], trace, o->st[k].kernel, o->console_txt[k]);
		free(trace);
		report_progress(o->fl.n, o->fl.n, "");
		report_result(stdout, o->a->format, k, &o->rs[k]);
		o->printed++;
	}
}

/*
 * The progress line while the real stack runs: the scenario awaited and the
 * time it has taken, or before it started what ci/stack / ci/vm said last
 * ("ci/vm: booting the guest (tcg, ...)"). Redrawn only when it changes.
 */
static size_t running_one(const struct outer *o, size_t from);

static void show_status(struct outer *o)
{
	char what[300], line[400];
	size_t k = running_one(o, o->printed); /* not always the next to print: crash-predicted ones run last */

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

/* Read the records of every stream of the inner run (jobs.h). */
static void read_records(struct outer *o)
{
	char path[sizeof(o->rec) + 16];

	for (unsigned s = 0; s < o->jobs; s++)
		if (jobs_records_path(o->rec, s, path, sizeof(path)) == 0)
			rec_read(path, o->rs, o->st, o->fl.n);
}

/* The bytes the streams' records files hold together: a growing sum means the inner run lives. */
static off_t records_size(const struct outer *o)
{
	char path[sizeof(o->rec) + 16];
	struct stat sb;
	off_t sum = 0;

	for (unsigned s = 0; s < o->jobs; s++)
		if (jobs_records_path(o->rec, s, path, sizeof(path)) == 0 && stat(path, &sb) == 0)
			sum += sb.st_size;
	return sum;
}

/* Remove the records files of every stream an inner run may have had. */
static void unlink_records(const struct outer *o)
{
	char path[sizeof(o->rec) + 16];

	for (unsigned s = 0; s < JOBS_MAX; s++)
		if (jobs_records_path(o->rec, s, path, sizeof(path)) == 0)
			unlink(path);
}

/* One inner run over scenarios [from, n). Returns the exit status of ci/stack (ci/vm), 121 for a hang. */
static int one_round(struct outer *o, size_t from)
{
	char stack_opt[64], timeout_opt[32], base_opt[32], rec_opt[PATH_MAX + 80], list_opt[PATH_MAX + 80];
	char profile_opt[96], console_opt[PATH_MAX + 96], exe[PATH_MAX], cistack[PATH_MAX + 16], jobs_opt[32];
	FILE *lf = fopen(o->list, "w");
	off_t last = -1;
	double last_change = proto_now_s();
	int hang_s = o->a->step_s * 4 + HANG_SLACK_S, st = 0, rc;
	pid_t pid;

	if (!lf) {
		rc = -errno;
		fprintf(stderr, "rdmacheck: cannot write %s: %s\n", o->list, strerror(-rc));
		return rc;
	}
	if ((rc = self_exe(exe, sizeof(exe))) != 0) {
		fclose(lf);
		fprintf(stderr, "rdmacheck: cannot find this executable: %s\n", strerror(-rc));
		return rc;
	}
	for (size_t i = from; i < o->fl.n; i++) { /* NUL-terminated: a name may hold newlines */
		const char *name = o->st[i].finished || !o->staged[i] ? "" : o->staged[i];

		fwrite(name, 1, strlen(name) + 1, lf);
	}
	fclose(lf);
	unlink_records(o);
	unlink(o->console);
	for (size_t i = from; i < o->fl.n; i++) /* what a round before began and did not end runs again */
		o->st[i].started = o->st[i].finished ? o->st[i].started : 0;
	snprintf(cistack, sizeof(cistack), "%s/ci/stack", o->root);
	snprintf(stack_opt, sizeof(stack_opt), "--stack=%s", o->a->stack);
	snprintf(timeout_opt, sizeof(timeout_opt), "--timeout=%d", o->a->step_s);
	snprintf(base_opt, sizeof(base_opt), "--base=%zu", from);
	snprintf(rec_opt, sizeof(rec_opt), "--records=%s", o->rec);
	snprintf(list_opt, sizeof(list_opt), "--inner-list=%s", o->list);
	snprintf(profile_opt, sizeof(profile_opt), "--profile=%s", o->a->profile);
	snprintf(console_opt, sizeof(console_opt), "--vm-opt=--console=%s", o->console);
	snprintf(jobs_opt, sizeof(jobs_opt), "--jobs=%u", o->jobs);
	char careful_opt[1024];
	char *argv[] = { cistack, stack_opt, console_opt, "--", exe, "run", "--inner", rec_opt, list_opt, base_opt,
			 timeout_opt, profile_opt, jobs_opt, "--trace", NULL, NULL, NULL };
	/* the trace goes to the results directory */
	size_t opt = 14;

	if (o->careful && careful_option(o->careful, from, o->fl.n, careful_opt, sizeof(careful_opt))[0])
		argv[opt++] = careful_opt;
	if (o->a->fresh_agents)
		argv[opt++] = "--fresh-agents";

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		fprintf(stderr, "rdmacheck: cannot start %s: %s\n", cistack, strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) ||
		    !freopen(o->stacklog, "a", stderr))
			_exit(127);
		execv(cistack, argv);
		_exit(127);
	}
	setpgid(pid, pid);
	interrupt_watch(pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		read_records(o);
		outer_print_ready(o);
		show_status(o);
		if (w == pid)
			break;
		if (interrupt_caught()) {
			interrupt_stop(pid, pid, INTERRUPT_GRACE_S, &st);
			interrupt_watch(0);
			read_records(o);
			return EXIT_INTERRUPTED;
		}
		if (records_size(o) != last) {
			last = records_size(o);
			last_change = proto_now_s();
		}
		if (proto_now_s() - last_change > hang_s) {
			/* SIGTERM first: a host's inner runner takes its topology down */
			interrupt_stop(pid, pid, HANG_GRACE_S, &st);
			interrupt_watch(0);
			return 121;
		}
		nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	}
	interrupt_watch(0);
	read_records(o);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * The scenario running when the machine died: the one started and not
 * finished (the inner runner runs crash-predicted scenarios last, so it need
 * not be the first unfinished one), else the first unfinished one.
 */
static size_t running_one(const struct outer *o, size_t from)
{
	size_t k = from;

	for (size_t i = from; i < o->fl.n; i++)
		if (o->st[i].started && !o->st[i].finished)
			return i;
	while (k < o->fl.n && o->st[k].finished)
		k++;
	return k;
}

/*
 * The scenario running when the machine died: record KERNEL_CRASH / TIMEOUT
 * for it. When streams ran several at once (--jobs), which one killed it is
 * not known: none is judged, and the rest runs one at a time, so the one that
 * kills it again is. Returns where to resume.
 */
static size_t record_death(struct outer *o, size_t from, int status)
{
	size_t k = running_one(o, from), running = 0;

	for (size_t i = from; i < o->fl.n; i++)
		running += o->st[i].started && !o->st[i].finished;
	if (running > 1 && o->jobs > 1) {
		o->jobs = 1;
		return from;
	}
	if (k >= o->fl.n)
		return k;
	if (o->st[k].started && o->st[k].batched && o->careful && !o->careful[k]) {
		o->careful[k] = 1; /* its records do not say at which step: again, careful (careful.h) */
		o->st[k].started = 0;
		return from;
	}
	death_judge(&o->rs[k], &o->st[k], status == 120, "", o->console, &o->console_txt[k]);
	if (o->careful && o->careful[k])
		careful_note(&o->rs[k].detail, CAREFUL_NOTE); /* out of memory: the verdict without its note */
	o->st[k].finished = 1;
	return from; /* the next round: every scenario still unfinished */
}

/*
 * After Ctrl-C or SIGTERM (interrupt.h): the scenario that was running is an
 * ERROR at the step it had reached, those after it were not run.
 */
void outer_mark_interrupted(struct outer *o)
{
	int sig = interrupt_caught();
	size_t k = running_one(o, 0);

	if (!sig)
		return;
	for (size_t i = k; i < o->fl.n; i++) {
		struct result *r = &o->rs[i];

		if (o->st[i].finished)
			continue;
		r->v = i == k && o->st[i].started ? V_ERROR : V_SKIP;
		r->line = i == k ? o->st[i].step_line : 0;
		if (r->v == V_ERROR)
			snprintf(r->reason, sizeof(r->reason), "line %u: interrupted (%s)", r->line, strsignal(sig));
		else
			snprintf(r->reason, sizeof(r->reason), "not run: the run was interrupted (%s)", strsignal(sig));
		o->st[i].finished = 1;
	}
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
		/* The model simulates the profile's stack: its capabilities only. */
		struct run_opts ro = { .mode = RUN_REAL, .prof = *prof, .trace = 1 }; /* for the results */

		if (o->st[i].finished) { /* does not parse */
			outer_print_ready(o);
			continue;
		}
		if (bm_init(&eng, o->files[i], prof) == 0) {
			run_scenario(o->files[i], &be_model_ops, &eng, &ro, &o->rs[i]);
			snprintf(o->rs[i].file, sizeof(o->rs[i].file), "%s", o->fl.v[i]);
		}
		bm_free(&eng);
		o->st[i].finished = 1;
		outer_print_ready(o);
	}
	outer_mark_interrupted(o);
	outer_print_ready(o);
}

/* Every scenario from `from` on that has no result yet gets verdict v and reason. */
void outer_finish_rest(struct outer *o, size_t from, enum verdict v, const char *reason)
{
	for (size_t i = from; i < o->fl.n; i++)
		if (!o->st[i].finished) {
			o->rs[i].v = v;
			snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "%s", reason);
			o->st[i].finished = 1;
		}
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
 * The real stack: rounds of the inner runner (ci/stack), each resuming after
 * the scenario that killed the previous one; a stack that is not there skips
 * the rest, with ci/stack's reason. Returns 1 on an infrastructure failure.
 */
static int outer_stack(struct outer *o)
{
	char dir[PATH_MAX + 16], why[512];
	size_t from = 0;
	int infra = 0;
	struct stage sg;

	snprintf(o->rec, sizeof(o->rec), "%s/build/run/records-%ld.txt", o->root, (long)getpid());
	snprintf(o->list, sizeof(o->list), "%s/build/run/list-%ld.nul", o->root, (long)getpid());
	snprintf(o->console, sizeof(o->console), "%s/build/run/console-%ld.log", o->root, (long)getpid());
	snprintf(o->stacklog, sizeof(o->stacklog), "%s/build/run/stack-%ld.log", o->root, (long)getpid());
	snprintf(dir, sizeof(dir), "%s/build", o->root);
	if (make_dir(dir))
		return 1;
	snprintf(dir, sizeof(dir), "%s/build/run", o->root);
	if (make_dir(dir))
		return 1;
	unlink(o->stacklog);
	stage_files(o, &sg);
	for (;;) {
		int st;

		while (from < o->fl.n && o->st[from].finished)
			from++; /* nothing to run there (does not parse): no guest booted for it */
		if (from >= o->fl.n || interrupt_caught())
			break;
		st = one_round(o, from);
		if (st < 0) { /* said why: nothing ran */
			outer_finish_rest(o, from, V_ERROR, "not run: the runner on the real stack could not start");
			infra = 1;
			break;
		}
		if (interrupt_caught())
			break;

		if (st == 120 || st == 121) {
			from = record_death(o, from, st);
			outer_print_ready(o);
			continue;
		}
		if (st != 0) {
			console_stack_reason(o->stacklog, st, why, sizeof(why));
			outer_finish_rest(o, from, st == 77 ? V_SKIP : V_ERROR, why);
			if (st != 77) {
				fprintf(stderr, "rdmacheck: %s\n", why);
				infra = 1;
			}
		}
		break;
	}
	outer_mark_interrupted(o);
	outer_finish_rest(o, 0, V_ERROR, "not run: the runner on the real stack gave no result for it");
	outer_print_ready(o);
	if (o->res.jsonl) {
		results_file(&o->res, "stack.log", o->stacklog);
		results_file(&o->res, "console.log", o->console);
	}
	stage_close(&sg);
	unlink_records(o);
	unlink(o->list);
	unlink(o->stacklog);
	unlink(o->console); /* the guest's; what a report needs of it is in the results directory */
	{
		char topo[sizeof(o->rec) + 8];

		snprintf(topo, sizeof(topo), "%s.topo", o->rec); /* the inner run's, left by a guest that died */
		unlink(topo);
	}
	return infra;
}

/* The end of a run: the report's summary, semantic coverage, JUnit. Returns 1 if the JUnit file failed. */
static int outer_report(struct outer *o, const struct m_profile *prof, double secs)
{
	struct rule_cov cov, walk;
	struct result *w = calloc(o->fl.n ? o->fl.n : 1, sizeof(*w));
	struct cov_case *cc = calloc(o->fl.n ? o->fl.n : 1, sizeof(*cc));
	int rc;

	report_end(stdout, o->a->format, o->rs, o->fl.n, secs);
	cov_init(&cov);
	cov_init(&walk);
	for (size_t i = 0; w && cc && i < o->fl.n; i++) {
		cov_add(&cov, &o->rs[i], i);
		if (o->files[i]) { /* what `rdmacheck coverage` counts, for the same files */
			cli_walk(o->files[i], prof, NULL, NULL, NULL, &w[i]);
			cov_add(&walk, &w[i], i);
		}
		cc[i] = (struct cov_case){ o->fl.v[i], o->files[i], &o->rs[i], o->files[i] ? &w[i] : NULL };
	}
	cov_print_compare(stdout, &cov, &walk, o->fl.v, o->a->format == REPORT_TAP ? "# " : "");
	if (o->res.jsonl && w && cc) { /* the picture: rules x families, deviations (cov_html.h) */
		char page[PATH_MAX + 32];

		snprintf(page, sizeof(page), "%s/coverage.html", o->res.dir);
		if ((rc = cov_html(page, cc, o->fl.n, o->a->stack, prof)) != 0)
			fprintf(stderr, "rdmacheck: %s: %s\n", page, strerror(-rc));
	}
	for (size_t i = 0; w && i < o->fl.n; i++)
		result_clear(&w[i]);
	free(w);
	free(cc);
	if (o->res.jsonl) {
		if ((rc = results_close(&o->res)) != 0)
			fprintf(stderr, "rdmacheck: results in %s incomplete: %s\n", o->res.dir, strerror(-rc));
		fprintf(stdout, "%sresults: %s\n", o->a->format == REPORT_TAP ? "# " : "", o->res.dir);
	}
	if (o->a->junit && (rc = report_junit(o->a->junit, o->rs, o->fl.n, secs)) != 0) {
		fprintf(stderr, "rdmacheck: --junit=%s: %s\n", o->a->junit, strerror(-rc));
		return 1;
	}
	return 0;
}

/* Open the results directory: --results=DIR, or the default in the checkout (else ./build/results). */
static void outer_results(struct outer *o)
{
	char root[PATH_MAX], dir[PATH_MAX], err[512];

	if (o->a->results)
		snprintf(dir, sizeof(dir), "%s", o->a->results);
	else if (cli_find_root(root, sizeof(root)) || results_default(root, dir, sizeof(dir)))
		results_default(".", dir, sizeof(dir));
	if (results_open(&o->res, dir, !o->a->results, err, sizeof(err)))
		fprintf(stderr, "rdmacheck: no results directory: %s\n", err);
}

/* o->root, build/run in it, and o->rec there (records-PID.txt). 0 or EXIT_INFRA. */
int outer_records_here(struct outer *o, char *dir, size_t len)
{
	if (cli_find_root(o->root, sizeof(o->root)) != 0 && !getcwd(o->root, sizeof(o->root)))
		return EXIT_INFRA;
	snprintf(dir, len, "%s/build", o->root);
	mkdir(dir, 0755);
	snprintf(dir, len, "%s/build/run", o->root);
	mkdir(dir, 0755);
	snprintf(o->rec, sizeof(o->rec), "%s/records-%ld.txt", dir, (long)getpid());
	return 0;
}

static int run_outer(const struct run_args *a, int npaths, char **paths)
{
	struct outer o = { .a = a, .jobs = a->jobs ? (unsigned)a->jobs : JOBS_DEFAULT };
	double t0 = proto_now_s();
	size_t c[V_COUNT_], n;
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
	o.rs = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.rs));
	o.st = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.st));
	o.careful = calloc(o.fl.n ? o.fl.n : 1, 1);
	o.staged = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.staged));
	o.console_txt = calloc(o.fl.n ? o.fl.n : 1, sizeof(*o.console_txt));
	if (!o.rs || !o.st || !o.staged || !o.console_txt)
		return EXIT_INFRA;
	outer_results(&o);
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
	for (size_t i = 0; i < o.fl.n; i++) {
		result_clear(&o.rs[i]);
		free(o.staged[i]);
		free(o.console_txt[i]);
		rec_state_clear(&o.st[i]);
	}
	free(o.rs);
	free(o.st);
	free(o.careful);
	free(o.staged);
	free(o.console_txt);
	cli_unload_diags(o.fl.n, o.diags);
	cli_unload(&o.fl, o.files);
	if (interrupt_caught())
		return EXIT_INTERRUPTED;
	if (c[V_FAIL])
		return EXIT_FAILED;
	if (infra || c[V_ERROR])
		return EXIT_INFRA;
	return n && c[V_SKIP] == n ? EXIT_SKIP : 0; /* nothing ran: skipped, as automake reads it */
}

int cli_run(int argc, char **argv)
{
	struct run_args a = { .stack = "auto", .profile = "rxe", .format = REPORT_TEXT, .step_s = 10, .vm_mem = VMS_MEM_MB };
	int first = run_parse(argc, argv, &a);

	if (first < 0)
		return first == -1 ? 0 : EXIT_USAGE;
	if (a.inner)
		return cli_run_inner(&a);
	return run_outer(&a, argc - first, argv + first);
}

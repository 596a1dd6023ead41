/*
 * cli_run.c — `rdmacheck run`: the outer runner (on the machine the user
 * started it on) and the inner runner (where the real stack is: this host or
 * the disposable VM).
 *
 * The outer runner parses every scenario, then starts the inner runner through
 * ci/stack (which picks host or VM) with the list of scenario files still to
 * run. The inner runner builds one topology big enough for all of them, runs
 * them one by one (one agent process per node) and streams records (records.h)
 * to a file in the checkout. The outer runner reads that file while it grows,
 * printing each result as it arrives. When the guest kernel panics (ci/vm exit
 * 120) or hangs (no record for too long, or ci/vm exit 121), the scenario
 * that was running gets KERNEL_CRASH or TIMEOUT with the console excerpt, a
 * fresh guest is booted and the run goes on with the next scenario.
 * Ctrl-C or SIGTERM (interrupt.h) stops the inner runner (the guest goes,
 * the host's agents and topology are removed), marks the scenario that was
 * running, reports what ran and exits 130; a second one kills at once.
 */
#define _GNU_SOURCE /* setpgid, kill, getline */
#include "harness/run/be_model.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"
#include "harness/cli/cli.h"
#include "harness/cli/coverage.h"
#include "harness/cli/interrupt.h"
#include "harness/cli/records.h"
#include "harness/cli/report.h"
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

static const char usage_run[] =
	"usage: rdmacheck run [--stack=auto|host|vm|model] [--format=text|tap] [--junit=FILE]\n"
	"                     [--timeout=S] [--profile=NAME[:MAJ.MIN]] [--trace] PATH...\n"
	"Run scenarios (files, or directories searched for *.scn) on the real stack and on the\n"
	"reference model side by side, and report every step where reality leaves the allowed set.\n"
	"  --stack    auto (default): this host if its rxe works in network namespaces, else\n"
	"             the disposable VM (ci/stack); host, vm: insist; model: the model alone\n"
	"  --format   text (default): a line per scenario, details for failures; tap: TAP 13\n"
	"  --junit    also write JUnit XML to FILE\n"
	"  --timeout  seconds one step may take (default 10)\n"
	"  --profile  the stack's declared deviations (default rxe, the running kernel's version)\n"
	"  --trace    print every step with what reality answered (writing and debugging scenarios)\n"
	"Verdicts: pass, fail, xfail (a declared deviation of the profile), skip, error.\n"
	"Exit: 0 nothing failed, 1 a scenario failed, 2 usage or parse error, 3 infrastructure.\n";

#define HANG_SLACK_S 120 /* boot, topology and agent start beyond the step timeout */
#define HANG_GRACE_S 10  /* what a hung inner runner gets to clean up before SIGKILL */

struct run_args {
	const char *stack, *junit, *records, *list, *profile;
	enum report_format format;
	int step_s, inner, first, trace;
	size_t base;
};

/*
 * This executable's path. When it was rebuilt while running, the link says
 * "PATH (deleted)": the later rounds use what stands at PATH now.
 */
static int self_exe(char *exe, size_t len)
{
	static const char deleted[] = " (deleted)";
	ssize_t n = readlink("/proc/self/exe", exe, len - 1);
	size_t dl = sizeof(deleted) - 1;

	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	if ((size_t)n > dl && strcmp(exe + n - dl, deleted) == 0)
		exe[n - dl] = '\0';
	return 0;
}

/* The checkout: the nearest directory above this executable with ci/stack. */
static int find_root(char *root, size_t len)
{
	char exe[PATH_MAX];

	if (self_exe(exe, sizeof(exe)))
		return -errno;
	for (char *slash; (slash = strrchr(exe, '/')) != NULL;) {
		char probe[PATH_MAX + 16];

		*slash = '\0';
		snprintf(probe, sizeof(probe), "%s/ci/stack", exe);
		if (access(probe, X_OK) == 0) {
			snprintf(root, len, "%s", exe[0] ? exe : "/");
			return 0;
		}
	}
	return -ENOENT;
}

/* Run argv (no shell) and wait. Returns its exit status, or -errno. */
static int spawn_wait(char *const argv[], int quiet)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (quiet && !freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* ------------------------------------------------------------ inner -- */

struct inner_ctx {
	FILE *rec;
	size_t idx;
	const struct m_profile *prof;
};

static void inner_on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
			  const struct m_pred *prof, int crash)
{
	struct inner_ctx *ic = ctx;
	char note[512] = "";

	(void)gen;
	if (crash) {
		for (unsigned i = 0; i < prof->n; i++)
			if (prof->alt[i].out.kind == M_OUT_CRASH) {
				const struct m_deviation *d = run_deviation(ic->prof, prof, prof->alt[i].out);

				snprintf(note, sizeof(note), "%s: %s", d ? m_rule_info(d->rule)->id : "?",
					 d ? d->citation : "?");
			}
	}
	rec_step(ic->rec, ic->idx, f->steps[si].line, crash, note);
}

/* The kernel version the profile should take (KVER of uname -r). */
static uint32_t running_kernel(void)
{
	struct utsname u;
	unsigned maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return 0;
	return KVER(maj, min);
}

/* Read the --list file's paths into fl and parse them (NULL: a file that does not parse); *maxn: most nodes. */
static struct scn_file **inner_load(FILE *list, struct filelist *fl, size_t *maxn)
{
	char *line = NULL, err[512];
	size_t cap = 0;
	ssize_t len;

	while ((len = getdelim(&line, &cap, '\0', list)) > 0) { /* the outer run's NUL-terminated list */
		if (line[len - 1] != '\0')
			break; /* cut short: not a whole name */
		if (files_add(fl, line, err, sizeof(err)))
			fprintf(stderr, "rdmacheck: %s\n", err);
	}
	free(line);
	struct scn_file **files = calloc(fl->n ? fl->n : 1, sizeof(*files));

	*maxn = 1;
	for (size_t i = 0; files && i < fl->n; i++) {
		struct scn_diags d;

		if (scn_parse_file(fl->v[i], &files[i], &d) == 0 && files[i]->nnodes > *maxn)
			*maxn = files[i]->nnodes;
	}
	return files;
}

/* Run scenario f (record index k) on topology t with its own agents, and record its result. */
static void inner_one(const struct run_args *a, const struct m_profile *prof, const struct topo *t, FILE *rec,
		      size_t k, const struct scn_file *f, int allow_crash)
{
	struct result r = { 0 };
	struct stack *st = calloc(1, sizeof(*st));
	struct inner_ctx ic = { rec, k, prof };
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof, .allow_crash = allow_crash, .trace = a->trace,
			      .on_step = inner_on_step, .ctx = &ic };

	rec_start(rec, k);
	if (!f || !st) {
		snprintf(r.reason, sizeof(r.reason), "%s", st ? "cannot parse" : "out of memory");
		r.v = V_ERROR;
	} else if (run_unsupported(f, prof->caps, r.reason, sizeof(r.reason))) {
		r.v = V_SKIP;
	} else if (stack_start(st, f, t, a->step_s * 1000) != 0) {
		r.v = V_ERROR;
		snprintf(r.reason, sizeof(r.reason), "cannot start the agents: %.440s", st->err);
	} else {
		if (run_scenario(f, &stack_ops, st, &o, &r)) {
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
		stack_stop(st);
	}
	rec_result(rec, k, &r);
	result_clear(&r);
	free(st);
}

/* netns/topology up|down for nodes nodes (mode from RDMACHECK_TOPOLOGY_MODE), its description in topo_file. */
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
	return spawn_wait(strcmp(verb, "up") == 0 ? up : down, 1);
}

static int run_inner(const struct run_args *a)
{
	char root[PATH_MAX], topo_file[PATH_MAX + 64], err[512];
	struct filelist fl = { 0 };
	struct scn_file **files;
	struct topo t;
	struct m_profile prof;
	FILE *list, *rec;
	size_t maxn;
	int rc, allow_crash = getenv("RDMACHECK_STACK") && strcmp(getenv("RDMACHECK_STACK"), "vm") == 0;

	if (find_root(root, sizeof(root)) || !a->records || !a->list) {
		fprintf(stderr, "rdmacheck: --inner needs --records and --list, and the checkout\n");
		return EXIT_INFRA;
	}
	if (cli_profile(a->profile, &prof))
		return EXIT_USAGE;
	interrupt_install(); /* the outer run's SIGTERM: stop after this scenario, topology down */
	if (!strchr(a->profile, ':') && running_kernel())
		prof.kernel = running_kernel();
	list = fopen(a->list, "r");
	rec = fopen(a->records, "a");
	if (!list || !rec) {
		fprintf(stderr, "rdmacheck: cannot open %s or %s: %s\n", a->list, a->records, strerror(errno));
		return EXIT_INFRA;
	}
	files = inner_load(list, &fl, &maxn);
	fclose(list);
	/* named after the outer run's records: the outer run removes it, even after a panic */
	snprintf(topo_file, sizeof(topo_file), "%s.topo", a->records);
	rc = inner_topology(root, "up", maxn, topo_file);
	if (rc != 0 || topo_load(topo_file, &t, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck: netns/topology up %zu failed (%d)\n", maxn, rc);
		inner_topology(root, "down", maxn, topo_file);
		cli_unload(&fl, files);
		fclose(rec);
		return EXIT_INFRA;
	}
	for (size_t i = 0; files && i < fl.n && !interrupt_caught(); i++)
		inner_one(a, &prof, &t, rec, a->base + i, files[i], allow_crash);
	inner_topology(root, "down", maxn, topo_file);
	unlink(topo_file);
	cli_unload(&fl, files);
	fclose(rec);
	return interrupt_caught() ? EXIT_INTERRUPTED : 0;
}

/* ------------------------------------------------------------ outer -- */

struct outer {
	const struct run_args *a;
	struct filelist fl;
	struct scn_file **files;
	struct result *rs;
	struct rec_state *st;
	size_t printed;
	char root[PATH_MAX], rec[PATH_MAX + 64], list[PATH_MAX + 64], console[PATH_MAX + 64];
};

/* Print every result that arrived, in order. */
static void print_ready(struct outer *o)
{
	while (o->printed < o->fl.n && o->st[o->printed].finished) {
		report_progress(o->fl.n, o->fl.n, "");
		report_result(stdout, o->a->format, o->printed, &o->rs[o->printed]);
		o->printed++;
	}
	if (o->printed < o->fl.n)
		report_progress(o->printed, o->fl.n, o->fl.v[o->printed]);
}

/*
 * One inner run over scenarios [from, n). Returns the exit status of ci/stack
 * (ci/vm), 121 for a hang, 130 when interrupted, or -errno (said on stderr)
 * when it could not start.
 */
static int one_round(struct outer *o, size_t from)
{
	char stack_opt[64], timeout_opt[32], base_opt[32], rec_opt[PATH_MAX + 80], list_opt[PATH_MAX + 80];
	char profile_opt[96], console_opt[PATH_MAX + 96], exe[PATH_MAX], cistack[PATH_MAX + 16];
	FILE *lf = fopen(o->list, "w");
	struct stat sb;
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
	for (size_t i = from; i < o->fl.n; i++)
		fwrite(o->fl.v[i], 1, strlen(o->fl.v[i]) + 1, lf); /* NUL-terminated: a name may hold newlines */
	fclose(lf);
	unlink(o->rec);
	unlink(o->console);
	snprintf(cistack, sizeof(cistack), "%s/ci/stack", o->root);
	snprintf(stack_opt, sizeof(stack_opt), "--stack=%s", o->a->stack);
	snprintf(timeout_opt, sizeof(timeout_opt), "--timeout=%d", o->a->step_s);
	snprintf(base_opt, sizeof(base_opt), "--base=%zu", from);
	snprintf(rec_opt, sizeof(rec_opt), "--records=%s", o->rec);
	snprintf(list_opt, sizeof(list_opt), "--list=%s", o->list);
	snprintf(profile_opt, sizeof(profile_opt), "--profile=%s", o->a->profile);
	snprintf(console_opt, sizeof(console_opt), "--vm-opt=--console=%s", o->console);
	char *argv[] = { cistack, stack_opt, console_opt, "--", exe, "run", "--inner", rec_opt, list_opt, base_opt,
			 timeout_opt, profile_opt, o->a->trace ? "--trace" : NULL, NULL };

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		fprintf(stderr, "rdmacheck: cannot start %s: %s\n", cistack, strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(cistack, argv);
		_exit(127);
	}
	setpgid(pid, pid);
	interrupt_watch(pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		rec_read(o->rec, o->rs, o->st, o->fl.n);
		print_ready(o);
		if (w == pid)
			break;
		if (interrupt_caught()) {
			interrupt_stop(pid, pid, INTERRUPT_GRACE_S, &st);
			interrupt_watch(0);
			rec_read(o->rec, o->rs, o->st, o->fl.n);
			return EXIT_INTERRUPTED;
		}
		if (stat(o->rec, &sb) == 0 && sb.st_size != last) {
			last = sb.st_size;
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
	rec_read(o->rec, o->rs, o->st, o->fl.n);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The scenario running when the machine died: record KERNEL_CRASH / TIMEOUT for it. */
static size_t record_death(struct outer *o, size_t from, int status)
{
	size_t k = from;
	char excerpt[2048];

	while (k < o->fl.n && o->st[k].finished)
		k++;
	if (k >= o->fl.n)
		return k;
	struct result *r = &o->rs[k];
	struct rec_state *s = &o->st[k];

	rec_console_excerpt(o->console, excerpt, sizeof(excerpt));
	free(r->detail);
	r->detail = strdup(excerpt[0] ? excerpt : "  (no console lines about it)\n");
	r->line = s->step_line;
	if (status == 120 && s->step_crash) {
		r->v = V_XFAIL;
		snprintf(r->reason, sizeof(r->reason), "line %u: KERNEL_CRASH, declared deviation %.400s", s->step_line,
			 s->step_note);
	} else {
		r->v = V_FAIL;
		snprintf(r->reason, sizeof(r->reason), "line %u: %s%s", s->step_line,
			 status == 120 ? "KERNEL_CRASH (the guest kernel died; no profile predicts it)" :
					 "TIMEOUT (the guest stopped answering)",
			 s->started ? "" : " before the scenario started");
	}
	s->finished = 1;
	return k + 1;
}

/*
 * After Ctrl-C or SIGTERM (interrupt.h): the scenario that was running is an
 * ERROR at the step it had reached, those after it were not run.
 */
static void mark_interrupted(struct outer *o)
{
	int sig = interrupt_caught();
	size_t k = 0;

	if (!sig)
		return;
	while (k < o->fl.n && o->st[k].finished)
		k++;
	for (size_t i = k; i < o->fl.n; i++) {
		struct result *r = &o->rs[i];

		r->v = i == k && o->st[i].started ? V_ERROR : V_SKIP;
		r->line = i == k ? o->st[i].step_line : 0;
		if (r->v == V_ERROR)
			snprintf(r->reason, sizeof(r->reason), "line %u: interrupted (%s)", r->line, strsignal(sig));
		else
			snprintf(r->reason, sizeof(r->reason), "not run: the run was interrupted (%s)", strsignal(sig));
		o->st[i].finished = 1;
	}
}

/* --stack=model: every scenario on the model engine, simulating the profile's stack. */
static void outer_model(struct outer *o, const struct m_profile *prof)
{
	for (size_t i = 0; i < o->fl.n && !interrupt_caught(); i++) {
		struct be_model eng;
		/* The model simulates the profile's stack: its capabilities only. */
		struct run_opts ro = { .mode = RUN_REAL, .prof = *prof, .trace = o->a->trace };

		if (bm_init(&eng, o->files[i], prof) == 0) {
			run_scenario(o->files[i], &be_model_ops, &eng, &ro, &o->rs[i]);
			snprintf(o->rs[i].file, sizeof(o->rs[i].file), "%s", o->fl.v[i]);
		}
		bm_free(&eng);
		o->st[i].finished = 1;
		print_ready(o);
	}
	mark_interrupted(o);
	print_ready(o);
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

/*
 * The real stack: rounds of the inner runner (ci/stack), each resuming after
 * the scenario that killed the previous one; a stack that is not there skips
 * the rest. Returns 1 on an infrastructure failure.
 */
static int outer_stack(struct outer *o)
{
	char dir[PATH_MAX + 16];
	size_t from = 0;
	int infra = 0;

	snprintf(o->rec, sizeof(o->rec), "%s/build/run/records-%ld.txt", o->root, (long)getpid());
	snprintf(o->list, sizeof(o->list), "%s/build/run/list-%ld.nul", o->root, (long)getpid());
	snprintf(o->console, sizeof(o->console), "%s/build/run/console-%ld.log", o->root, (long)getpid());
	snprintf(dir, sizeof(dir), "%s/build", o->root);
	if (make_dir(dir))
		return 1;
	snprintf(dir, sizeof(dir), "%s/build/run", o->root);
	if (make_dir(dir))
		return 1;
	while (from < o->fl.n && !interrupt_caught()) {
		int st = one_round(o, from);

		if (st < 0) { /* said why: nothing ran */
			infra = 1;
			break;
		}
		if (interrupt_caught())
			break;
		if (st == 120 || st == 121) {
			from = record_death(o, from, st);
			print_ready(o);
			continue;
		}
		if (st == 77) {
			for (size_t i = from; i < o->fl.n; i++)
				if (!o->st[i].finished) {
					o->rs[i].v = V_SKIP;
					snprintf(o->rs[i].reason, sizeof(o->rs[i].reason),
						 "no real RDMA stack here (ci/stack said why)");
					o->st[i].finished = 1;
				}
		} else if (st != 0) {
			fprintf(stderr, "rdmacheck: the runner on the real stack failed (exit %d)\n", st);
			infra = 1;
		}
		break;
	}
	mark_interrupted(o);
	for (size_t i = 0; i < o->fl.n; i++)
		o->st[i].finished = 1;
	print_ready(o);
	unlink(o->rec);
	unlink(o->list);
	{
		char topo[sizeof(o->rec) + 8];

		snprintf(topo, sizeof(topo), "%s.topo", o->rec); /* the inner run's, left by a guest that died */
		unlink(topo);
	}
	return infra;
}

/* The end of a run: the report's summary, semantic coverage, JUnit. Returns 1 if the JUnit file failed. */
static int outer_report(struct outer *o, double secs)
{
	struct rule_cov cov;
	int rc;

	report_end(stdout, o->a->format, o->rs, o->fl.n, secs);
	cov_init(&cov);
	for (size_t i = 0; i < o->fl.n; i++)
		cov_add(&cov, &o->rs[i], i);
	cov_print(stdout, &cov, NULL, o->a->format == REPORT_TAP ? "# " : "");
	if (o->a->junit && (rc = report_junit(o->a->junit, o->rs, o->fl.n, secs)) != 0) {
		fprintf(stderr, "rdmacheck: --junit=%s: %s\n", o->a->junit, strerror(-rc));
		return 1;
	}
	return 0;
}

static int run_outer(const struct run_args *a, int npaths, char **paths)
{
	struct outer o = { .a = a };
	double t0 = proto_now_s();
	size_t c[V_COUNT_];
	int rc = cli_load(npaths, paths, &o.fl, &o.files), infra = 0;
	struct m_profile prof;

	if (rc)
		return rc;
	interrupt_install();
	if (cli_profile(a->profile, &prof)) {
		cli_unload(&o.fl, o.files);
		return EXIT_USAGE;
	}
	o.rs = calloc(o.fl.n, sizeof(*o.rs));
	o.st = calloc(o.fl.n, sizeof(*o.st));
	if (!o.rs || !o.st)
		return EXIT_INFRA;
	for (size_t i = 0; i < o.fl.n; i++) {
		snprintf(o.rs[i].file, sizeof(o.rs[i].file), "%s", o.fl.v[i]);
		snprintf(o.rs[i].title, sizeof(o.rs[i].title), "%s", o.files[i]->title);
		o.rs[i].v = V_ERROR;
		snprintf(o.rs[i].reason, sizeof(o.rs[i].reason), "not run");
	}
	report_begin(stdout, a->format, o.fl.n);
	if (strcmp(a->stack, "model") == 0) {
		outer_model(&o, &prof);
	} else if (find_root(o.root, sizeof(o.root))) {
		fprintf(stderr, "rdmacheck: cannot find the checkout (ci/stack) above this executable\n");
		infra = 1;
	} else {
		infra = outer_stack(&o);
	}
	infra |= outer_report(&o, proto_now_s() - t0);
	report_count(o.rs, o.fl.n, c);
	for (size_t i = 0; i < o.fl.n; i++)
		result_clear(&o.rs[i]);
	free(o.rs);
	free(o.st);
	cli_unload(&o.fl, o.files);
	if (interrupt_caught())
		return EXIT_INTERRUPTED;
	return c[V_FAIL] ? EXIT_FAILED : (infra || c[V_ERROR]) ? EXIT_INFRA : 0;
}

int cli_run(int argc, char **argv)
{
	struct run_args a = { .stack = "auto", .profile = "rxe", .format = REPORT_TEXT, .step_s = 10 };
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *v = strchr(argv[i], '=');

		v = v ? v + 1 : "";
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage_run, stdout);
			return 0;
		} else if (strncmp(argv[i], "--stack=", 8) == 0) {
			if (strcmp(v, "auto") && strcmp(v, "host") && strcmp(v, "vm") && strcmp(v, "model"))
				goto bad;
			a.stack = v;
		} else if (strncmp(argv[i], "--format=", 9) == 0) {
			if (report_format_parse(v, &a.format))
				goto bad;
		} else if (strncmp(argv[i], "--junit=", 8) == 0 && *v) {
			a.junit = v;
		} else if (strncmp(argv[i], "--timeout=", 10) == 0) {
			char *end;
			long s = strtol(v, &end, 10);

			if (*end || s < 1 || s > 3600)
				goto bad;
			a.step_s = (int)s;
		} else if (strncmp(argv[i], "--profile=", 10) == 0 && *v) {
			a.profile = v;
		} else if (strcmp(argv[i], "--trace") == 0) {
			a.trace = 1;
		} else if (strcmp(argv[i], "--inner") == 0) {
			a.inner = 1;
		} else if (strncmp(argv[i], "--records=", 10) == 0) {
			a.records = v;
		} else if (strncmp(argv[i], "--list=", 7) == 0) {
			a.list = v;
		} else if (strncmp(argv[i], "--base=", 7) == 0) {
			a.base = strtoul(v, NULL, 10);
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else {
			goto bad;
		}
	}
	if (a.inner)
		return run_inner(&a);
	return run_outer(&a, argc - i, argv + i);
bad:
	fprintf(stderr, "rdmacheck run: bad option '%s'\n%s", argv[i], usage_run);
	return EXIT_USAGE;
}

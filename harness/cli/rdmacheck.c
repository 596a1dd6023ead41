/*
 * rdmacheck.c — the command: `rdmacheck run|lint|predict …` (see cli.h and
 * scenarios/README.md). lint and predict need no root and no RDMA: they walk
 * a scenario on the reference model alone.
 */
#include "harness/run/be_model.h"
#include "harness/cli/cli.h"
#include "harness/corpus/load.h"
#include "harness/report/coverage.h"
#include "harness/cli/explain.h"
#include "harness/base/opts.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_main[] =
	"usage: rdmacheck COMMAND [OPTIONS] PATH...\n"
	"  run       run scenarios on the real stack and the model side by side\n"
	"  lint      parse scenarios and check every expect against the model (no root, no RDMA)\n"
	"  predict   print the model's allowed outcomes for every step of one scenario\n"
	"  coverage  which rules of the model the scenarios exercise (semantic coverage)\n"
	"  explain   a rule: what it says, its citation, its deviations, the scenarios exercising it\n"
	"  explore   random scenarios judged by the model; divergences shrunk to .scn files\n"
	"  exec      explore --stack=vm's executor in the guest (started by ci/vm-agents)\n"
	"  merge     join the results of several runs (run --shard=I/N) into one report\n"
	"  rejudge   judge a recorded real run again against today's model, without the stack\n"
	"rdmacheck COMMAND --help for the command's options; rdmacheck --version.\n"
	"Exit: 0 nothing failed, 1 a scenario failed, 2 usage or parse error, 3 infrastructure error,\n"
	"77 (run) every scenario skipped, 130 (run) interrupted.\n";

static const char usage_lint[] =
	"usage: rdmacheck lint [--profile=NAME[:MAJ.MIN]] PATH...\n"
	"Parse every scenario (files, or directories searched for *.scn) and walk it on the\n"
	"model: every outcome an `expect` names must be allowed by the specification (the\n"
	"generic model). A disagreement means the scenario or the model is wrong: a human\n"
	"must decide which. Every file must also keep the corpus conventions: a `title`\n"
	"line and at least one `cite rule ID` naming a rule of the model.\n"
	"Exit 0 clean, 1 disagreements or conventions broken, 2 parse errors.\n";

static const char usage_coverage[] =
	"usage: rdmacheck coverage [--profile=NAME[:MAJ.MIN]] [--strict] PATH...\n"
	"Walk every scenario on the model (as lint does) and print, for every rule of\n"
	"model/rules.def, how many scenarios exercise it (the rule decided an outcome the\n"
	"walk followed) and the first of them, or why the rule is not encoded; then one\n"
	"line per catalog area. --strict: exit 1 when an encoded rule is not exercised.\n";

static const char usage_predict[] =
	"usage: rdmacheck predict [--profile=NAME[:MAJ.MIN]] FILE\n"
	"Print, for every step, the outcomes the specification allows and, where it differs,\n"
	"what the profile (default rxe, kernel 6.1) allows, with the deciding rule IDs.\n";

enum { OPT_PROFILE = 256, OPT_STRICT, OPT_VERSION };

/*
 * The options of lint, predict and coverage (coverage alone takes --strict:
 * strict NULL refuses it). Returns the index of the first path, -1 after
 * --help or --version (exit 0), or -2 on a usage error (printed).
 */
static int model_opts(int argc, char **argv, const char *usage, struct m_profile *prof, int *strict)
{
	static const struct option lopts[] = {
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	m_profile_get("rxe", 0, prof);
	while ((c = cli_getopt(argc, argv, argv[0], "h", lopts)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return -1;
		case OPT_VERSION:
			cli_version();
			return -1;
		case OPT_PROFILE:
			if (cli_profile(optarg, prof))
				return -2;
			break;
		case OPT_STRICT:
			if (strict) {
				*strict = 1;
				break;
			}
			fprintf(stderr, "rdmacheck %s: --strict is coverage's option\n", argv[0]);
			return -2;
		default:
			return -2;
		}
	}
	return optind;
}

/* model_opts' result as an exit status for the command to return, or -1 to go on. */
static int opts_exit(int first)
{
	return first == -1 ? 0 : first == -2 ? EXIT_USAGE : -1;
}

struct predict_ctx {
	const struct m_profile *prof;
};

/* What alternative a does beyond its outcome, in words ("" when nothing): QP states, the peer's receive. */
static void alt_effects(const struct m_alt *a, char *buf, size_t len)
{
	static const char *const eff[] = {
		[M_EFF_QP_ERR] = "its QP goes to ERR (receives flushed)",
		[M_EFF_BOTH_ERR] = "its QP and the peer's go to ERR",
		[M_EFF_PEER_ERR] = "the peer's QP goes to ERR",
		[M_EFF_CRASH] = "the kernel dies",
		[M_EFF_SQ_KEPT] = "the WR stays queued and runs once the QP is RTS",
	};
	size_t off = 0;
	char o[48];

	buf[0] = '\0';
	if (a->effect < sizeof(eff) / sizeof(eff[0]) && eff[a->effect])
		off += (size_t)snprintf(buf + off, len - off, "%s", eff[a->effect]);
	if (a->peer_recv >= 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%sthe peer's receive completes %s", off ? "; " : "",
					m_outcome_str((struct m_outcome){ M_OUT_WC, a->peer_recv }, o, sizeof(o)));
	if (a->peer_state != M_NO_PEER && a->effect != M_EFF_BOTH_ERR && a->effect != M_EFF_PEER_ERR && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%sthe peer's QP is %s", off ? "; " : "",
					m_qp_state_str((enum m_qp_state)a->peer_state));
	if (a->target_unknown && off < len)
		snprintf(buf + off, len - off, "%sthe target bytes become unspecified", off ? "; " : "");
}

static void print_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		       const struct m_pred *prof, int crash)
{
	const struct predict_ctx *pc = ctx;
	const struct scn_step *s = &f->steps[si];
	char step[512], g[1024], p[1024], e[256], o[48];

	(void)crash;
	scn_step_format(f, s, step, sizeof(step));
	run_format_set(gen, NULL, g, sizeof(g));
	run_format_set(prof, NULL, p, sizeof(p));
	printf("%4u  %s\n      allowed: %s\n", s->line, step, g);
	for (unsigned i = 0; i < gen->n; i++) { /* effects: what else each outcome does */
		alt_effects(&gen->alt[i], e, sizeof(e));
		if (e[0])
			printf("        %s: %s\n", m_outcome_str(gen->alt[i].out, o, sizeof(o)), e);
	}
	if (strcmp(g, p) != 0)
		printf("      %s %u.%u: %s\n", pc->prof->name, pc->prof->kernel / 1000, pc->prof->kernel % 1000, p);
}

/* The corpus conventions (scn_meta_check) of f, printed like parse errors. Returns 1 if broken. */
static int lint_meta(const char *path, const struct scn_file *f)
{
	struct scn_diags d = { 0 };

	if (!scn_meta_check(f, &d))
		return 0;
	for (size_t k = 0; k < d.n; k++)
		cli_diag_print(stdout, path, &d.d[k]);
	return 1;
}

/* One file's lint walk: its disagreements so far, and the objects they touched. */
struct lint_ctx {
	const char *path;
	size_t n;
	uint32_t first_line;       /* the first disagreement's line */
	uint8_t *touched;          /* per object of the file: named by a disagreeing step */
};

/* Mark the objects step s names (NAME and object arguments); returns 1 if one was marked before. */
static int touch(struct lint_ctx *lc, const struct scn_file *f, const struct scn_step *s)
{
	int seen = 0;

	if (s->obj >= 0 && (size_t)s->obj < f->nobjs) {
		seen |= lc->touched[s->obj];
		lc->touched[s->obj] = 1;
	}
	for (size_t a = 0; a < s->nargs; a++) {
		int32_t o = s->args[a].v.obj;

		if ((s->args[a].v.kind & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR)) && o >= 0 && (size_t)o < f->nobjs) {
			seen |= lc->touched[o];
			lc->touched[o] = 1;
		}
	}
	return seen;
}

/*
 * A disagreement (run_opts.on_disagree), printed like a parse error: the
 * source line and a caret under the outcome it is about. One on a step that
 * names an object an earlier disagreement touched says it may follow from
 * that one (the walk went on along the model's reading, not the file's).
 */
static void lint_disagree(void *ctx, const struct scn_file *f, size_t step, uint32_t line, uint32_t col,
			  const char *msg, const char *word)
{
	struct lint_ctx *lc = ctx;
	struct scn_diag d;

	cli_disagree_diag(lc->path, line, col, msg, word, &d);
	if (touch(lc, f, &f->steps[step]) && lc->n)
		snprintf(d.hint, sizeof(d.hint), "an object here took part in the disagreement at line %u, where the "
			 "walk followed the model: this one may follow from that", lc->first_line);
	if (lc->n++ == 0)
		lc->first_line = line;
	cli_diag_print(stdout, lc->path, &d);
}

/* Lint one file: every disagreement with the model printed. Returns 1 if it has any (or the walk failed). */
static int lint_file(const char *path, const struct scn_file *f, const struct m_profile *prof, size_t *skipped)
{
	struct lint_ctx lc = { .path = path, .touched = calloc(f->nobjs ? f->nobjs : 1, 1) };
	struct result r;
	int bad = 0;

	if (!lc.touched) {
		printf("%s: not checked: out of memory\n", path);
		return 1;
	}
	switch (cli_walk(f, prof, NULL, lint_disagree, &lc, &r)) {
	case V_SKIP:
		printf("%s: not checked: %s\n", path, r.reason);
		(*skipped)++;
		break;
	case V_PASS:
	case V_XFAIL:
		break;
	default:
		bad = 1;
		if (lc.n == 0) { /* not a disagreement: the model could not walk the file */
			struct scn_diag d = { .line = r.line, .col = 1 };
			const char *why = r.reason;

			if (strncmp(why, "line ", 5) == 0 && strstr(why, ": "))
				why = strstr(why, ": ") + 2;
			snprintf(d.msg, sizeof(d.msg), "%.399s", why);
			for (size_t s = 0; s < f->nsteps; s++)
				if (f->steps[s].line == r.line)
					d.col = f->steps[s].col;
			cli_diag_print(stdout, path, &d);
		}
		break;
	}
	if (lc.n > 1)
		printf("%s: %zu disagreements with the model\n", path, lc.n);
	result_clear(&r);
	free(lc.touched);
	return bad;
}

static int cmd_lint(int argc, char **argv)
{
	struct m_profile prof;
	struct filelist fl;
	struct scn_file **files;
	int first = model_opts(argc, argv, usage_lint, &prof, NULL), rc, bad = 0;
	size_t skipped = 0;

	if (first < 0)
		return opts_exit(first);
	rc = cli_load(argc - first, argv + first, &fl, &files);
	if (rc)
		return rc;
	for (size_t i = 0; i < fl.n; i++) {
		int meta = lint_meta(fl.v[i], files[i]);

		bad += lint_file(fl.v[i], files[i], &prof, &skipped) || meta;
	}
	printf("lint: %zu %s, %d with disagreements, %zu not checked\n", fl.n, cli_plural(fl.n, "file", "files"), bad,
	       skipped);
	cli_unload(&fl, files);
	return bad ? EXIT_FAILED : 0;
}

static int cmd_coverage(int argc, char **argv)
{
	struct m_profile prof;
	struct filelist fl;
	struct scn_file **files;
	struct rule_cov cov;
	struct result *rs;
	int strict = 0, first, rc;

	first = model_opts(argc, argv, usage_coverage, &prof, &strict);
	if (first < 0)
		return opts_exit(first);
	rc = cli_load(argc - first, argv + first, &fl, &files);
	if (rc)
		return rc;
	rs = calloc(fl.n ? fl.n : 1, sizeof(*rs));
	if (!rs) {
		cli_unload(&fl, files);
		return EXIT_INFRA;
	}
	cov_init(&cov);
	for (size_t i = 0; i < fl.n; i++) {
		cli_walk(files[i], &prof, NULL, NULL, NULL, &rs[i]);
		cov_add(&cov, &rs[i], i);
	}
	cov_print(stdout, &cov, rs, "");
	rc = strict && cov_missing(&cov) ? EXIT_FAILED : 0;
	if (rc)
		printf("coverage: %zu encoded %s not exercised\n", cov_missing(&cov),
		       cli_plural(cov_missing(&cov), "rule", "rules"));
	for (size_t i = 0; i < fl.n; i++)
		result_clear(&rs[i]);
	free(rs);
	cli_unload(&fl, files);
	return rc;
}

static int cmd_predict(int argc, char **argv)
{
	struct m_profile prof;
	struct filelist fl;
	struct scn_file **files;
	int first = model_opts(argc, argv, usage_predict, &prof, NULL), rc;
	struct result r;

	if (first < 0)
		return opts_exit(first);
	if (argc - first != 1) {
		fputs(usage_predict, stderr);
		return EXIT_USAGE;
	}
	rc = cli_load(1, argv + first, &fl, &files);
	if (rc)
		return rc;
	printf("%s: %s (profile %s %u.%u)\n", fl.v[0], files[0]->title, prof.name, prof.kernel / 1000,
	       prof.kernel % 1000);
	cli_walk(files[0], &prof, print_step, NULL, &(struct predict_ctx){ &prof }, &r);
	if (r.v != V_PASS && r.v != V_XFAIL)
		printf("%s: %s%s%s\n", verdict_str(r.v), r.reason, r.detail ? "\n" : "", r.detail ? r.detail : "");
	rc = r.v == V_PASS || r.v == V_XFAIL ? 0 : r.v == V_SKIP ? 0 : EXIT_FAILED;
	result_clear(&r);
	cli_unload(&fl, files);
	return rc;
}

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cli_run },
	{ "lint", cmd_lint },
	{ "predict", cmd_predict },
	{ "coverage", cmd_coverage },
	{ "explain", cmd_explain },
	{ "explore", cmd_explore },
	{ "exec", cmd_exec },
	{ "merge", cmd_merge },
	{ "rejudge", cmd_rejudge },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int main(int argc, char **argv)
{
	const char *names[NCOMMANDS], *near;

	/* A dead agent must show up as -EPIPE from a write, not kill the run. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(usage_main, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		cli_version();
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
		names[i] = commands[i].name;
	}
	near = cli_closest(argv[1], names, NCOMMANDS);
	fprintf(stderr, "rdmacheck: unknown command '%s'%s%s%s\n%s", argv[1], near ? " (did you mean '" : "",
		near ? near : "", near ? "'?)" : "", usage_main);
	return EXIT_USAGE;
}

/*
 * rdmacheck.c — the command: `rdmacheck run|lint|predict …` (see cli.h and
 * scenarios/README.md). lint and predict need no root and no RDMA: they walk
 * a scenario on the reference model alone.
 */
#include "harness/run/be_model.h"
#include "harness/cli/cli.h"
#include "harness/cli/coverage.h"

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
	"  explore   random scenarios judged by the model; divergences shrunk to .scn files\n"
	"rdmacheck COMMAND --help for the command's options.\n"
	"Exit: 0 nothing failed, 1 a scenario failed, 2 usage or parse error, 3 infrastructure error.\n";

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

void cli_unload(struct filelist *fl, struct scn_file **files)
{
	for (size_t i = 0; files && i < fl->n; i++)
		scn_free(files[i]);
	free(files);
	files_free(fl);
}

int cli_load(int npaths, char **paths, struct filelist *fl, struct scn_file ***files)
{
	char err[512];
	int bad = 0;

	memset(fl, 0, sizeof(*fl));
	*files = NULL;
	if (npaths == 0) {
		fprintf(stderr, "rdmacheck: no scenario given\n");
		return EXIT_USAGE;
	}
	for (int i = 0; i < npaths; i++)
		if (files_add(fl, paths[i], err, sizeof(err))) {
			fprintf(stderr, "rdmacheck: %s\n", err);
			files_free(fl);
			return EXIT_USAGE;
		}
	for (size_t i = 0; i < fl->nnotes; i++)
		fprintf(stderr, "rdmacheck: %s\n", fl->notes[i]);
	*files = calloc(fl->n, sizeof(**files));
	if (!*files) {
		files_free(fl);
		return EXIT_INFRA;
	}
	for (size_t i = 0; i < fl->n; i++) {
		struct scn_diags d;

		if (scn_parse_file(fl->v[i], &(*files)[i], &d) == 0)
			continue;
		bad = 1;
		for (size_t k = 0; k < d.n; k++) {
			char buf[1024];

			scn_diag_format(&d.d[k], fl->v[i], buf, sizeof(buf));
			fputs(buf, stderr);
		}
		if (d.dropped)
			fprintf(stderr, "%s: %zu more errors not shown\n", fl->v[i], d.dropped);
	}
	if (bad) {
		cli_unload(fl, *files);
		*files = NULL;
		return EXIT_USAGE;
	}
	return 0;
}

int cli_profile(const char *arg, struct m_profile *out)
{
	char name[64];
	unsigned maj = 0, min = 0;
	const char *colon = strchr(arg, ':');

	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
	if (colon && sscanf(colon + 1, "%u.%u", &maj, &min) != 2) {
		fprintf(stderr, "rdmacheck: --profile=%s: the kernel is MAJOR.MINOR (rxe:6.1)\n", arg);
		return -EINVAL;
	}
	if (m_profile_get(name, colon ? KVER(maj, min) : 0, out)) {
		fprintf(stderr, "rdmacheck: unknown profile '%s' (known:", name);
		for (size_t i = 0; i < m_profile_count(); i++)
			fprintf(stderr, " %s", m_profile_name(i));
		fprintf(stderr, ")\n");
		return -EINVAL;
	}
	return 0;
}

uint32_t cli_all_caps(void)
{
	struct m_profile g;

	m_profile_get("generic", 0, &g);
	return g.caps;
}

/* Parse the options lint and predict share; returns the index of the first path or -1. */
static int lint_opts(int argc, char **argv, const char *usage, struct m_profile *prof)
{
	int i;

	m_profile_get("rxe", 0, prof);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			exit(0);
		} else if (strncmp(argv[i], "--profile=", 10) == 0) {
			if (cli_profile(argv[i] + 10, prof))
				return -1;
		} else if (strcmp(argv[i], "--") == 0) {
			return i + 1;
		} else {
			fprintf(stderr, "rdmacheck: unknown option '%s'\n%s", argv[i], usage);
			return -1;
		}
	}
	return i;
}

struct predict_ctx {
	const struct m_profile *prof;
};

static void print_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		       const struct m_pred *prof, int crash)
{
	const struct predict_ctx *pc = ctx;
	const struct scn_step *s = &f->steps[si];
	char step[512], g[1024], p[1024];

	(void)crash;
	scn_step_format(f, s, step, sizeof(step));
	run_format_set(gen, NULL, g, sizeof(g));
	run_format_set(prof, NULL, p, sizeof(p));
	printf("%4u  %s\n      allowed: %s\n", s->line, step, g);
	if (strcmp(g, p) != 0)
		printf("      %s %u.%u: %s\n", pc->prof->name, pc->prof->kernel / 1000, pc->prof->kernel % 1000, p);
}

/* Walk f on the model (lint mode); prints problems. Returns the result's verdict. */
static enum verdict lint_one(const struct scn_file *f, const struct m_profile *prof,
			     void (*on_step)(void *, const struct scn_file *, size_t, const struct m_pred *,
					     const struct m_pred *, int), void *ctx, struct result *r)
{
	struct m_profile gen;
	struct be_model eng;
	struct run_opts o = { .mode = RUN_LINT, .prof = *prof, .engine_caps = cli_all_caps(),
			      .on_step = on_step, .ctx = ctx };

	m_profile_get("generic", 0, &gen);
	if (bm_init(&eng, f, &gen) || run_scenario(f, &be_model_ops, &eng, &o, r)) {
		snprintf(r->reason, sizeof(r->reason), "out of memory");
		r->v = V_ERROR;
	}
	bm_free(&eng);
	return r->v;
}

/* The corpus conventions (scn_meta_check) of f, printed like parse errors. Returns 1 if broken. */
static int lint_meta(const char *path, const struct scn_file *f)
{
	struct scn_diags d = { 0 };

	if (!scn_meta_check(f, &d))
		return 0;
	for (size_t k = 0; k < d.n; k++) {
		char buf[1024];

		scn_diag_format(&d.d[k], path, buf, sizeof(buf));
		fputs(buf, stdout);
	}
	return 1;
}

static int cmd_lint(int argc, char **argv)
{
	struct m_profile prof;
	struct filelist fl;
	struct scn_file **files;
	int first = lint_opts(argc, argv, usage_lint, &prof), rc, bad = 0;
	size_t skipped = 0;

	if (first < 0)
		return EXIT_USAGE;
	rc = cli_load(argc - first, argv + first, &fl, &files);
	if (rc)
		return rc;
	for (size_t i = 0; i < fl.n; i++) {
		struct result r;
		int meta = lint_meta(fl.v[i], files[i]);

		bad += meta;
		switch (lint_one(files[i], &prof, NULL, NULL, &r)) {
		case V_SKIP:
			printf("%s: not checked: %s\n", fl.v[i], r.reason);
			skipped++;
			break;
		case V_PASS:
		case V_XFAIL:
			break;
		default:
			printf("%s:%u: %s\n", fl.v[i], r.line, r.reason);
			bad += !meta;
			break;
		}
		result_clear(&r);
	}
	printf("lint: %zu files, %d with disagreements, %zu not checked\n", fl.n, bad, skipped);
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

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--strict") == 0) {
			strict = 1;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i - 1) * sizeof(*argv));
			argc--;
			break;
		}
	first = lint_opts(argc, argv, usage_coverage, &prof);
	if (first < 0)
		return EXIT_USAGE;
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
		lint_one(files[i], &prof, NULL, NULL, &rs[i]);
		cov_add(&cov, &rs[i], i);
	}
	cov_print(stdout, &cov, rs, "");
	rc = strict && cov_missing(&cov) ? EXIT_FAILED : 0;
	if (rc)
		printf("coverage: %zu encoded rules not exercised\n", cov_missing(&cov));
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
	int first = lint_opts(argc, argv, usage_predict, &prof), rc;
	struct result r;

	if (first < 0)
		return EXIT_USAGE;
	if (argc - first != 1) {
		fputs(usage_predict, stderr);
		return EXIT_USAGE;
	}
	rc = cli_load(1, argv + first, &fl, &files);
	if (rc)
		return rc;
	printf("%s: %s (profile %s %u.%u)\n", fl.v[0], files[0]->title, prof.name, prof.kernel / 1000,
	       prof.kernel % 1000);
	lint_one(files[0], &prof, print_step, &(struct predict_ctx){ &prof }, &r);
	if (r.v != V_PASS && r.v != V_XFAIL)
		printf("%s: %s%s%s\n", verdict_str(r.v), r.reason, r.detail ? "\n" : "", r.detail ? r.detail : "");
	rc = r.v == V_PASS || r.v == V_XFAIL ? 0 : r.v == V_SKIP ? 0 : EXIT_FAILED;
	result_clear(&r);
	cli_unload(&fl, files);
	return rc;
}

int main(int argc, char **argv)
{
	/* A dead agent must show up as -EPIPE from a write, not kill the run. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(usage_main, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (strcmp(argv[1], "run") == 0)
		return cli_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "lint") == 0)
		return cmd_lint(argc - 1, argv + 1);
	if (strcmp(argv[1], "predict") == 0)
		return cmd_predict(argc - 1, argv + 1);
	if (strcmp(argv[1], "coverage") == 0)
		return cmd_coverage(argc - 1, argv + 1);
	if (strcmp(argv[1], "explore") == 0)
		return cmd_explore(argc - 1, argv + 1);
	fprintf(stderr, "rdmacheck: unknown command '%s'\n%s", argv[1], usage_main);
	return EXIT_USAGE;
}

/*
 * merge.c — `rdmacheck merge`: the results of several runs (the shards of
 * `run --shard=I/N`, each a results directory or its results.jsonl) as one
 * run: one report (text or TAP), one JUnit file, one semantic coverage, and
 * optionally one results directory holding every line of the inputs.
 */
#include "harness/cli/cli.h"
#include "harness/corpus/load.h"
#include "harness/report/coverage.h"
#include "harness/corpus/history.h"
#include "harness/base/opts.h"
#include "harness/report/report.h"
#include "harness/report/results.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_merge[] =
	"usage: rdmacheck merge [--format=text|tap] [--junit=FILE] [--results=DIR] RESULTS...\n"
	"Join the results of several runs (each RESULTS a results directory or its\n"
	"results.jsonl, e.g. the shards of run --shard=I/N) into one report, one JUnit file\n"
	"and one semantic coverage; --results writes the joined results.jsonl into DIR.\n"
	"A scenario file that appears in two of the inputs is an error (the shards overlap).\n"
	"Exit: 0 nothing failed, 1 a scenario failed, 2 usage, unreadable input or overlap,\n"
	"3 a scenario errored.\n";

struct merge {
	struct result *rs;
	size_t n, cap;
	size_t *from;             /* the input each result came from */
	size_t input;             /* the input being read */
	char *const *inputs;
	FILE *out;                /* the joined results.jsonl, or NULL */
	unsigned overlap;         /* files found in two inputs */
};

#define MERGE_SAY_MAX 10          /* overlapping files named; then a count */

/* The input a result of file was read from before this one, or (size_t)-1. */
static size_t seen_in(const struct merge *m, const char *file)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->from[i] != m->input && strcmp(m->rs[i].file, file) == 0)
			return m->from[i];
	return (size_t)-1;
}

/* hist_fn: keep a scenario, copy every line. */
static int take(void *ctx, const struct result *r, const char *text)
{
	struct merge *m = ctx;

	if (m->out && (fputs(text, m->out) == EOF || fputc('\n', m->out) == EOF))
		return -EIO;
	if (!r)
		return 0;
	size_t before = seen_in(m, r->file);

	if (before != (size_t)-1 && m->overlap++ < MERGE_SAY_MAX)
		fprintf(stderr, "rdmacheck merge: %s is in both %s and %s: the shards overlap\n", r->file,
			m->inputs[before], m->inputs[m->input]);
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct result *rs = realloc(m->rs, cap * sizeof(*rs));
		size_t *from = rs ? realloc(m->from, cap * sizeof(*from)) : NULL;

		if (rs)
			m->rs = rs;
		if (!from)
			return -ENOMEM;
		m->from = from;
		m->cap = cap;
	}
	m->rs[m->n] = *r;
	m->from[m->n++] = m->input;
	return 0;
}

struct merge_args {
	enum report_format format;
	const char *junit, *results;
};

/* Options; the index of the first input, -1 after --help/--version, -2 on a usage error. */
static int merge_opts(int argc, char **argv, struct merge_args *a)
{
	enum { OPT_FORMAT = 256, OPT_JUNIT, OPT_RESULTS, OPT_VERSION };
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "results", required_argument, NULL, OPT_RESULTS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = cli_getopt(argc, argv, "merge", "h", lopts)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_merge, stdout);
			return -1;
		case OPT_VERSION:
			cli_version();
			return -1;
		case OPT_FORMAT:
			if (report_format_parse(optarg, &a->format)) {
				fprintf(stderr, "rdmacheck merge: --format is text or tap, not '%s'\n", optarg);
				return -2;
			}
			break;
		case OPT_JUNIT:
		case OPT_RESULTS:
			if (!*optarg) {
				fprintf(stderr, "rdmacheck merge: --%s needs a path\n", c == OPT_JUNIT ? "junit" : "results");
				return -2;
			}
			*(c == OPT_JUNIT ? &a->junit : &a->results) = optarg;
			break;
		default:
			return -2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "rdmacheck merge: no results to merge\n%s", usage_merge);
		return -2;
	}
	return optind;
}

/* Read every input into m. 0, or EXIT_USAGE (said on stderr). */
static int read_all(struct merge *m, int n, char *const *inputs)
{
	char path[PATH_MAX], err[PATH_MAX + 128];

	m->inputs = inputs;
	for (m->input = 0; m->input < (size_t)n; m->input++) {
		size_t skipped = 0;
		int rc = hist_path(inputs[m->input], path, sizeof(path));

		if (rc == 0)
			rc = hist_read(path, take, m, &skipped, err, sizeof(err));
		else
			snprintf(err, sizeof(err), "%s: the name is too long", inputs[m->input]);
		if (rc == -ENOMEM || rc == -EIO)
			snprintf(err, sizeof(err), "%s while reading %s", rc == -EIO ? "a write failed" : "out of memory",
				 path);
		if (rc) {
			fprintf(stderr, "rdmacheck merge: %s\n", err);
			return EXIT_USAGE;
		}
		if (skipped)
			fprintf(stderr, "rdmacheck merge: %s: %zu %s that %s not results skipped\n", path, skipped,
				cli_plural(skipped, "line", "lines"), skipped == 1 ? "is" : "are");
	}
	return 0;
}

/* The joined report, JUnit and coverage; the exit status. */
static int report_all(const struct merge *m, const struct merge_args *a)
{
	struct rule_cov cov;
	size_t c[V_COUNT_];
	double secs = 0;
	int rc = 0;

	cov_init(&cov);
	report_begin(stdout, a->format, m->n);
	for (size_t i = 0; i < m->n; i++) {
		report_result(stdout, a->format, i, &m->rs[i]);
		cov_add(&cov, &m->rs[i], i);
		secs += m->rs[i].secs;
	}
	report_end(stdout, a->format, m->rs, m->n, secs);
	cov_print(stdout, &cov, NULL, a->format == REPORT_TAP ? "# " : "");
	if (a->junit && (rc = report_junit(a->junit, m->rs, m->n, secs)) != 0) {
		fprintf(stderr, "rdmacheck merge: cannot write %s: %s\n", a->junit, strerror(-rc));
		rc = EXIT_INFRA;
	}
	report_count(m->rs, m->n, c);
	if (m->overlap > MERGE_SAY_MAX)
		fprintf(stderr, "rdmacheck merge: and %u more files in two inputs\n", m->overlap - MERGE_SAY_MAX);
	if (m->overlap)
		return EXIT_USAGE;
	if (c[V_FAIL])
		return EXIT_FAILED;
	return c[V_ERROR] ? EXIT_INFRA : rc;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args a = { .format = REPORT_TEXT };
	struct merge m = { 0 };
	struct results rd = { 0 };
	char err[PATH_MAX + 128];
	int first = merge_opts(argc, argv, &a), rc;

	if (first < 0)
		return first == -1 ? 0 : EXIT_USAGE;
	if (a.results) {
		if (results_open(&rd, a.results, 0, err, sizeof(err))) {
			fprintf(stderr, "rdmacheck merge: %s\n", err);
			return EXIT_USAGE;
		}
		m.out = rd.jsonl;
	}
	rc = read_all(&m, argc - first, argv + first);
	if (rc == 0)
		rc = report_all(&m, &a);
	if (a.results && results_close(&rd) && rc == 0) {
		fprintf(stderr, "rdmacheck merge: writing %s/results.jsonl failed\n", a.results);
		rc = EXIT_INFRA;
	}
	free(m.rs);
	free(m.from);
	return rc;
}

/* select.c — choosing and ordering the scenarios to run (select.h). */
#define _GNU_SOURCE /* strdup */
#include <limits.h>
#include "harness/corpus/select.h"
#include "harness/base/exits.h"
#include "harness/corpus/load.h"
#include "harness/base/opts.h"
#include "harness/corpus/history.h"
#include "harness/corpus/rerun.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sel_match(const char *pattern, const char *text)
{
	char glob[PATH_MAX + 3];

	if (!strpbrk(pattern, "*?["))
		return strstr(text, pattern) != NULL;
	snprintf(glob, sizeof(glob), "*%s*", pattern); /* anywhere in the text, as a substring is */
	return fnmatch(glob, text, 0) == 0;
}

uint64_t sel_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int any_match(const char *const *pats, size_t n, const char *path, const char *title)
{
	for (size_t i = 0; i < n; i++)
		if (sel_match(pats[i], path) || sel_match(pats[i], title))
			return 1;
	return 0;
}

/* f cites one of s's rules, or its walk on the model under prof exercises one. */
static int rule_match(const struct cli_select *s, const struct m_profile *prof, const struct scn_file *f)
{
	struct result r;
	int hit = 0;

	for (size_t i = 0; i < s->nrule; i++)
		for (size_t c = 0; c < f->nrules; c++)
			if (strcmp(f->rules[c].id, m_rule_info(s->rule[i])->id) == 0)
				return 1;
	cli_walk(f, prof, NULL, NULL, NULL, &r);
	for (size_t i = 0; i < s->nrule && !hit; i++)
		hit = result_rule_has(&r, s->rule[i]);
	result_clear(&r);
	return hit;
}

/* path is one of the files in only: the same name, or the same file (device and inode). */
static int in_list(const struct filelist *only, const char *path)
{
	struct stat a, b;
	int have = stat(path, &a) == 0;

	for (size_t i = 0; i < only->n; i++) {
		if (strcmp(only->v[i], path) == 0)
			return 1;
		if (have && stat(only->v[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return 1;
	}
	return 0;
}

/* f NULL: a file that does not parse, matched by its path (and never by a rule). */
static int keep(const struct cli_select *s, const struct m_profile *prof, const char *path,
		const struct scn_file *f)
{
	const char *title = f ? f->title : "";

	if (s->nkeep && !any_match(s->keep, s->nkeep, path, title))
		return 0;
	if (any_match(s->drop, s->ndrop, path, title))
		return 0;
	if (s->only && !in_list(s->only, path))
		return 0;
	return !s->nrule || (f && rule_match(s, prof, f));
}

/* Every file s->repeat times (each copy parsed anew: a file is owned once; a file that does not parse keeps
 * a copy of its errors). */
static int repeat(const struct cli_select *s, struct filelist *fl, struct scn_file ***files, char ***diags)
{
	size_t n = fl->n * s->repeat;
	char **v = calloc(n ? n : 1, sizeof(*v)), **dg = calloc(n ? n : 1, sizeof(*dg));
	struct scn_file **f = calloc(n ? n : 1, sizeof(*f));
	size_t k = 0;
	int rc = -ENOMEM;

	if (!v || !f || !dg)
		goto oom;
	for (size_t r = 0; r < s->repeat; r++)
		for (size_t i = 0; i < fl->n; i++, k++) {
			if (s->stop && s->stop()) {
				rc = -EINTR;
				goto oom;
			}
			struct scn_diags d;
			const char *err = (*diags)[i];

			v[k] = r == 0 ? fl->v[i] : strdup(fl->v[i]);
			f[k] = r == 0 ? (*files)[i] : NULL;
			dg[k] = r == 0 || !err ? (char *)err : strdup(err);
			if (!v[k] || (r && err && !dg[k]) || (r && !err && scn_parse_file(v[k], &f[k], &d)))
				goto oom; /* it parsed a moment ago: only memory fails it now */
		}
	free(fl->v);
	free(*files);
	free(*diags);
	fl->v = v;
	fl->n = fl->cap = n;
	*files = f;
	*diags = dg;
	return 0;
oom:
	for (size_t i = fl->n; v && f && dg && i < n; i++) { /* the copies made so far; the rest are NULL */
		free(v[i]);
		free(dg[i]);
		if (f[i])
			scn_free(f[i]);
	}
	free(v);
	free(f);
	free(dg);
	return rc;
}

/* mine[i]: file i is the shard's (every file when not sharded). 0 or -ENOMEM. */
static int share(const struct cli_select *s, const struct filelist *fl, struct scn_file *const *files,
		 unsigned char *mine)
{
	size_t *steps;
	int rc;

	if (s->shard.total <= 1) {
		memset(mine, 1, fl->n);
		return 0;
	}
	steps = calloc(fl->n ? fl->n : 1, sizeof(*steps));
	if (!steps)
		return -ENOMEM;
	for (size_t i = 0; i < fl->n; i++)
		steps[i] = files[i] ? files[i]->nsteps : 0;
	rc = shard_pick(&s->shard, fl->n, fl->v, steps, s->times, mine);
	free(steps);
	return rc;
}

/* Keep the files whose flag is set, in order; release the others. */
static void compact(struct filelist *fl, struct scn_file **files, char **diags, const unsigned char *flag)
{
	size_t n = 0;

	for (size_t i = 0; i < fl->n; i++) {
		if (flag[i]) {
			fl->v[n] = fl->v[i];
			diags[n] = diags[i];
			files[n++] = files[i];
			continue;
		}
		free(fl->v[i]);
		free(diags[i]);
		scn_free(files[i]);
	}
	fl->n = n;
}

int sel_apply(const struct cli_select *s, const struct m_profile *prof, struct filelist *fl,
	      struct scn_file ***files, char ***diags)
{
	uint64_t st = s->seed;
	unsigned char *flag = malloc(fl->n ? fl->n : 1);
	int rc;

	if (!flag)
		return -ENOMEM;
	for (size_t i = 0; i < fl->n; i++)
		flag[i] = (unsigned char)keep(s, prof, fl->v[i], (*files)[i]);
	compact(fl, *files, *diags, flag);
	if (share(s, fl, *files, flag)) {
		free(flag);
		return -ENOMEM;
	}
	compact(fl, *files, *diags, flag);
	free(flag);
	if (s->repeat > 1 && fl->n && (rc = repeat(s, fl, files, diags)) != 0)
		return rc;
	for (size_t i = fl->n; s->shuffle && i > 1; i--) { /* Fisher-Yates */
		size_t j = (size_t)(sel_random(&st) % i);
		char *pv = fl->v[i - 1];
		struct scn_file *pf = (*files)[i - 1];
		char *pd = (*diags)[i - 1];

		fl->v[i - 1] = fl->v[j];
		(*files)[i - 1] = (*files)[j];
		(*diags)[i - 1] = (*diags)[j];
		fl->v[j] = pv;
		(*files)[j] = pf;
		(*diags)[j] = pd;
	}
	return 0;
}

void sel_list(FILE *out, const struct filelist *fl, struct scn_file *const *files)
{
	for (size_t i = 0; i < fl->n; i++)
		fprintf(out, "%s  %s\n", fl->v[i], files[i] ? files[i]->title : "(does not parse)");
	fprintf(out, "%zu %s\n", fl->n, cli_plural(fl->n, "scenario", "scenarios"));
}

/* The failed files of the last results that still exist, as paths to load (in failed->v order). */
static size_t existing(const struct filelist *failed, char **keep)
{
	size_t n = 0;

	for (size_t i = 0; i < failed->n; i++) {
		if (access(failed->v[i], R_OK) == 0)
			keep[n++] = failed->v[i];
		else
			fprintf(stderr, "rdmacheck: %s failed last time and is gone now\n", failed->v[i]);
	}
	return n;
}

int sel_load(const struct cli_select *s, int rerun, int npaths, char **paths, const struct m_profile *prof,
	     struct filelist *fl, struct scn_file ***files, char ***diags, int *exit_code)
{
	struct cli_select sel = *s;
	struct filelist failed = { 0 };
	struct shard_times times = { 0 };
	char err[PATH_MAX + 128], from[PATH_MAX], **keep = NULL;
	int rc;

	memset(fl, 0, sizeof(*fl));
	*files = NULL;
	*diags = NULL;
	*exit_code = 0;
	if (sel.shard.total > 1 && sel.times_path) {
		char path[PATH_MAX];

		if (hist_path(sel.times_path, path, sizeof(path)) ||
		    shard_times_read(path, &times, err, sizeof(err))) {
			fprintf(stderr, "rdmacheck: --shard-times: %s\n", err);
			return EXIT_USAGE;
		}
		sel.times = &times;
	}
	if (rerun) {
		if (rerun_path(sel.rerun_from, from, sizeof(from), err, sizeof(err)) ||
		    rerun_read(from, &failed, err, sizeof(err))) {
			fprintf(stderr, "rdmacheck: --rerun-failed: %s\n", err);
			rc = EXIT_USAGE;
			goto out;
		}
		keep = calloc(failed.n ? failed.n : 1, sizeof(*keep));
		if (!keep) {
			rc = EXIT_INFRA;
			goto out;
		}
		if (npaths == 0) {
			npaths = (int)existing(&failed, keep);
			paths = keep;
		}
		if (failed.n == 0 || npaths == 0) {
			fprintf(stderr, "rdmacheck: --rerun-failed: nothing failed in %s\n", from);
			rc = SEL_NONE;
			goto out;
		}
		sel.only = &failed;
	}
	rc = cli_load_each(npaths, paths, fl, files, diags); /* on failure it has released what it loaded */
	if (rc == 0) {
		if ((rc = sel_apply(&sel, prof, fl, files, diags)) != 0) {
			rc = rc == -EINTR ? SEL_STOPPED : EXIT_INFRA;
		} else if (sel.shard.total > 1) {
			fprintf(stderr, "rdmacheck: shard %u/%u: %zu %s\n", sel.shard.index, sel.shard.total,
				fl->n, cli_plural(fl->n, "scenario", "scenarios"));
		}
		if (rc == 0 && fl->n == 0) {
			fprintf(stderr, "rdmacheck: no scenario %s the selection\n",
				rerun ? "failed last time in" : sel.shard.total > 1 ? "is in this shard of" : "matches");
			*exit_code = rerun || sel.shard.total > 1 ? 0 : EXIT_USAGE;
			rc = SEL_NONE;
		}
		if (rc) {
			cli_unload_diags(fl->n, *diags);
			cli_unload(fl, *files);
			*files = NULL;
			*diags = NULL;
		}
	}
out:
	free(keep);
	files_free(&failed);
	shard_times_free(&times);
	return rc;
}

/* shard.c — a balanced, deterministic share of the scenarios (shard.h). */
#define _GNU_SOURCE /* strdup */
#include "harness/corpus/shard.h"
#include "harness/corpus/history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "I/N" into idx and total, without range checks beyond 1..SHARD_MAX. */
static int two_numbers(const char *a, const char *b, struct shard *out)
{
	char *end;
	unsigned long i, n;

	if (!*a || *a == '-' || *a == '+' || !*b || *b == '-' || *b == '+')
		return -EINVAL;
	errno = 0;
	i = strtoul(a, &end, 10);
	if (errno || end == a || (*end && *end != '/'))
		return -EINVAL;
	n = strtoul(b, &end, 10);
	if (errno || end == b || *end || i < 1 || n < 1 || i > n || n > SHARD_MAX)
		return -EINVAL;
	out->index = (unsigned)i;
	out->total = (unsigned)n;
	return 0;
}

int shard_parse(const char *arg, struct shard *out)
{
	const char *slash = strchr(arg, '/');

	return slash ? two_numbers(arg, slash + 1, out) : -EINVAL;
}

int shard_env(struct shard *out, char *err, size_t errlen)
{
	const char *gl = getenv("GITLAB_CI"), *i = getenv("CI_NODE_INDEX"), *n = getenv("CI_NODE_TOTAL");

	if (!gl || !*gl || !i || !n)
		return 0;
	if (two_numbers(i, n, out)) {
		snprintf(err, errlen, "CI_NODE_INDEX=%s CI_NODE_TOTAL=%s is not a job I of N (1 <= I <= N <= %d)", i,
			 n, SHARD_MAX);
		return -EINVAL;
	}
	return 1;
}

/* hist_fn: add a scenario's seconds to its file's entry. */
static int add_time(void *ctx, const struct result *r, const char *text)
{
	struct shard_times *t = ctx;
	size_t k;

	(void)text;
	if (!r || !r->file[0] || r->v == V_SKIP) /* a skip says nothing of how long the file runs */
		return 0;
	for (k = 0; k < t->n && strcmp(t->file[k], r->file) != 0; k++)
		;
	if (k == t->n) {
		char **f = realloc(t->file, (t->n + 1) * sizeof(*f));
		double *s = f ? realloc(t->secs, (t->n + 1) * sizeof(*s)) : NULL;
		unsigned *c = s ? realloc(t->count, (t->n + 1) * sizeof(*c)) : NULL;

		if (f)
			t->file = f;
		if (s)
			t->secs = s;
		if (!c || !(f[k] = strdup(r->file)))
			return -ENOMEM;
		t->count = c;
		s[k] = 0;
		c[k] = 0;
		t->n++;
	}
	t->secs[k] += r->secs;
	t->count[k]++;
	return 0;
}

int shard_times_read(const char *path, struct shard_times *t, char *err, size_t errlen)
{
	int rc;

	memset(t, 0, sizeof(*t));
	rc = hist_read(path, add_time, t, NULL, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory reading %s", path);
	for (size_t k = 0; k < t->n; k++)
		t->secs[k] /= t->count[k];
	if (rc)
		shard_times_free(t);
	return rc;
}

void shard_times_free(struct shard_times *t)
{
	for (size_t k = 0; k < t->n; k++)
		free(t->file[k]);
	free(t->file);
	free(t->secs);
	free(t->count);
	memset(t, 0, sizeof(*t));
}

#define SHARD_MIN_SECS 0.001

struct item {
	const char *path;
	double w;
	size_t i;
};

static int heavier_first(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	c = strcmp(x->path, y->path);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

double shard_recorded(const struct shard_times *t, const char *path)
{
	for (size_t k = 0; t && k < t->n; k++)
		if (strcmp(t->file[k], path) == 0)
			return t->secs[k];
	return -1;
}

/* Seconds per step over the files both selected and recorded; 1 when none is. */
static double per_step(size_t n, char *const *paths, const size_t *steps, const struct shard_times *t)
{
	double secs = 0;
	size_t st = 0;

	for (size_t i = 0; i < n; i++) {
		double s = shard_recorded(t, paths[i]);

		if (s >= 0 && steps[i]) {
			secs += s;
			st += steps[i];
		}
	}
	return st && secs > 0 ? secs / (double)st : 1.0;
}

int shard_pick(const struct shard *s, size_t n, char *const *paths, const size_t *steps,
	       const struct shard_times *t, unsigned char *mine)
{
	struct item *it = calloc(n ? n : 1, sizeof(*it));
	double *load = calloc(s->total ? s->total : 1, sizeof(*load)), ps;

	if (!it || !load) {
		free(it);
		free(load);
		return -ENOMEM;
	}
	ps = per_step(n, paths, steps, t);
	for (size_t i = 0; i < n; i++) {
		double r = shard_recorded(t, paths[i]);

		double w = r >= 0 ? r : ps * (double)(steps[i] ? steps[i] : 1);

		/* every file costs something (agents, judging): a file recorded at 0 s still counts */
		it[i] = (struct item){ paths[i], w > SHARD_MIN_SECS ? w : SHARD_MIN_SECS, i };
	}
	qsort(it, n, sizeof(*it), heavier_first);
	for (size_t k = 0; k < n; k++) {
		unsigned best = 0;

		for (unsigned j = 1; j < s->total; j++)
			if (load[j] < load[best])
				best = j;
		load[best] += it[k].w;
		mine[it[k].i] = best + 1 == s->index;
	}
	free(it);
	free(load);
	return 0;
}

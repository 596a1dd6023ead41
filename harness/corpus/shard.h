/*
 * shard.h — `run --shard=I/N`: a deterministic, balanced share of the
 * selected scenarios for job I of N parallel CI jobs. Every job computes the
 * same partition from the same inputs (the selected paths, as given, their
 * step counts, and the same durations file when one is given), so the N
 * shares are disjoint and together are exactly the selection. Balanced by
 * the durations an earlier run recorded (its results.jsonl: --shard-times),
 * a file without a recorded duration weighing its steps at the recorded
 * seconds per step (1 s per step when nothing is recorded).
 */
#ifndef RDMACHECK_SHARD_H
#define RDMACHECK_SHARD_H

#include <stddef.h>

#define SHARD_MAX 1000

struct shard {
	unsigned index, total;      /* job index (1..total) of total; total 0: not sharded */
};

/* "I/N" with 1 <= I <= N <= SHARD_MAX into *out. 0 or -EINVAL. */
int shard_parse(const char *arg, struct shard *out);

/*
 * GitLab's `parallel:` jobs: when GITLAB_CI is set and CI_NODE_INDEX and
 * CI_NODE_TOTAL both are, *out is CI_NODE_INDEX/CI_NODE_TOTAL. Returns 1 when
 * set, 0 when not under GitLab's parallel jobs, -EINVAL (message in err) when
 * the variables are not a valid I/N.
 */
int shard_env(struct shard *out, char *err, size_t errlen);

/* Recorded durations: the mean seconds of each file in a results.jsonl. */
struct shard_times {
	size_t n;
	char **file;
	double *secs;
	unsigned *count;
};

/* Read the scenario lines of path (history.h) into *t. 0 or -errno with err. */
int shard_times_read(const char *path, struct shard_times *t, char *err, size_t errlen);
void shard_times_free(struct shard_times *t);
/* The recorded mean seconds of path (as results.jsonl names it) in t, or -1 (t NULL, or not recorded). */
double shard_recorded(const struct shard_times *t, const char *path);

/*
 * Which of the n files (paths[i], steps[i] steps) are job s's: mine[i] set to
 * 1 or 0. Longest first (weight, then path) to the least loaded job (the
 * lowest index on a tie). t may be NULL. Returns 0 or -ENOMEM.
 */
int shard_pick(const struct shard *s, size_t n, char *const *paths, const size_t *steps,
	       const struct shard_times *t, unsigned char *mine);

#endif

/*
 * select.h — which of the scenarios a command line names run, and in which
 * order: -k PATTERN, --exclude=PATTERN, --rule=ID, --rerun-failed (the FAIL
 * and ERROR scenarios of the last results), --shard=I/N (shard.h),
 * --repeat=N, --shuffle --seed=N.
 */
#ifndef RDMACHECK_SELECT_H
#define RDMACHECK_SELECT_H

#include "harness/corpus/files.h"
#include "harness/corpus/shard.h"
#include "harness/lang/scn.h"
#include "model/model.h"

#include <stdint.h>
#include <stdio.h>

#define SEL_MAX 32       /* -k, --exclude and --rule options each */
#define SEL_REPEAT_MAX 1000

struct cli_select {
	const char *keep[SEL_MAX];    /* -k: a file stays when its path or title matches any */
	size_t nkeep;
	const char *drop[SEL_MAX];    /* --exclude: a file goes when its path or title matches any */
	size_t ndrop;
	enum m_rule rule[SEL_MAX];    /* --rule: a file stays when it cites or exercises any */
	size_t nrule;
	struct filelist *only;        /* --rerun-failed: a file stays when it is one of these */
	const char *rerun_from;       /* --rerun-failed=DIR: the results read (NULL: the last run's) */
	struct shard shard;           /* --shard: only this job's share (total 0: all) */
	const char *times_path;       /* --shard-times: a results.jsonl (or its directory) to balance by */
	const struct shard_times *times; /* its durations (sel_load reads times_path into it), or NULL */
	unsigned repeat;              /* every file this many times (0 and 1: once) */
	int shuffle;                  /* random order, from seed */
	int (*stop)(void);            /* non-zero: stop loading (Ctrl-C: interrupt_caught); NULL: never */
	uint64_t seed;
};

/*
 * A PATTERN matches text when it is a substring of it, or, when it is a
 * shell glob (has * ? or [), when it matches a part of it (fnmatch of
 * "*PATTERN*": `verbs/0*-mr-*` matches scenarios/verbs/021-mr-stale.scn).
 * Case-sensitive.
 */
int sel_match(const char *pattern, const char *text);

/*
 * Apply s to fl, *files and *diags (as cli_load_each gave them; kept
 * parallel; a file that does not parse has files[i] NULL and its errors in
 * diags[i], and is matched by its path alone): drop what does not match,
 * keep the shard's share of the rest (shard.h), then repeat and shuffle. Walks each remaining file on the
 * model under prof for --rule. Returns 0, -EINTR (s->stop said so), or
 * -ENOMEM (fl and *files stay valid for cli_unload either way). An empty selection is not an error here.
 */
int sel_apply(const struct cli_select *s, const struct m_profile *prof, struct filelist *fl,
	      struct scn_file ***files, char ***diags);

/*
 * What `run` does before it runs anything: the paths (with rerun, the
 * failed scenarios of the last results or of s->rerun_from, rerun_path and
 * rerun_read; with paths as well,
 * those of them that failed), parsed (cli_load_each: a file that does not
 * parse stays, with its errors in *diags), then s applied (sel_apply; with
 * s->shard, a line on stderr says how many of how many are this job's).
 * Returns 0 with fl, *files and *diags to run (release with cli_unload and
 * cli_unload_diags), SEL_NONE
 * when nothing is left to run (said on stderr: nothing failed last time, or
 * nothing matches; *exit_code is 0 for the first and for an empty shard,
 * EXIT_USAGE for the second),
 * SEL_STOPPED when s->stop said so while it loaded (--repeat parses every
 * copy: seconds for a large N), nothing kept, or an exit status (EXIT_USAGE,
 * EXIT_INFRA) with the reason printed.
 */
#define SEL_NONE (-1)
#define SEL_STOPPED (-2)
int sel_load(const struct cli_select *s, int rerun, int npaths, char **paths, const struct m_profile *prof,
	     struct filelist *fl, struct scn_file ***files, char ***diags, int *exit_code);

/* --list: a line per file ("PATH  TITLE") and then "N scenarios" (singular for one). */
void sel_list(FILE *out, const struct filelist *fl, struct scn_file *const *files);

/* The same order for the same seed on every machine (splitmix64). */
uint64_t sel_random(uint64_t *state);

#endif

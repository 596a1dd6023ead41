/*
 * campaign.h — what a long exploration keeps (issue 31): the cases that
 * reached something new, as a corpus in a directory a later campaign resumes
 * from (--resume=DIR), and the figures over time its summary plots
 * (summary.c: summary.md, summary.html).
 *
 * A case is kept when it reached a rule the coverage so far (the corpus',
 * the resumed files', this campaign's) had not, or a new alternative of an
 * allowed set (a step with more than one allowed outcome: an outcome with the
 * rules that decided it not seen before). The kept files are scenarios that
 * lint clean; resuming walks them on the model and adds what they reach to
 * the coverage the generator is weighted by, so the same seed resumed from
 * the same files gives the same steps. Everything here is of a fixed size:
 * a campaign of hours does not grow.
 */
#ifndef RDMACHECK_EXPLORE_CAMPAIGN_H
#define RDMACHECK_EXPLORE_CAMPAIGN_H

#include "harness/explore/scngen.h"

#define EX_CAMP_ALT_BITS (1u << 16) /* the alternatives seen, hashed */
#define EX_CAMP_POINTS 256          /* rules reached over time: samples kept (thinned as they come) */

struct ex_camp_point {
	double t;            /* seconds since the start */
	unsigned long steps; /* generated steps */
	unsigned rules;      /* rules this run exercised (explore.h: ex_summary.rules) */
};

struct ex_campaign {
	const char *dir;                   /* the kept corpus (NULL: none kept) */
	unsigned corpus_rules;             /* rules the corpus reaches (before resuming) */
	unsigned resumed_rules;            /* rules reached with the resumed files too */
	unsigned long resumed, kept;       /* files resumed from; cases kept by this run */
	unsigned long next;                /* the number the next kept file gets */
	uint8_t alts[EX_CAMP_ALT_BITS / 8];
	size_t npoints;
	unsigned long every;               /* a sample every this many batches (doubled when full) */
	unsigned long batches;
	struct ex_camp_point pts[EX_CAMP_POINTS];
	const struct ex_cov *cov;          /* the generator's coverage, as it grows (ex_campaign_start's) */
	struct ex_cov base;                /* and as it was when the campaign started (corpus, resumed files) */
};

/*
 * Start campaign cp keeping its corpus in dir (NULL: none): the directory is
 * made if need be, and every .scn file in it is parsed and walked on the model (in
 * name order), its rules added to cov and its alternatives to cp. A file that
 * does not parse is an error naming it. corpus_rules: what the corpus reaches.
 * 0, -ENOMEM, or -errno of the directory (a message printed for a bad file: -EINVAL).
 */
int ex_campaign_start(struct ex_campaign *cp, const char *dir, unsigned corpus_rules, struct ex_cov *cov);

/*
 * Case c was generated: before is the coverage before it, after with it.
 * With a directory, walk c on the model; when it reached a new rule or a new
 * alternative, write it to DIR/cNNNNNN.scn (header: the seed, what was new).
 * The generator's coverage is not touched. 0, -ENOMEM or -errno.
 */
int ex_campaign_case(struct ex_campaign *cp, const struct ex_case *c, const struct ex_cov *before,
		     const struct ex_cov *after, uint64_t seed);

/*
 * The rules the coverage reached when cp started (the corpus', the resumed
 * files') that this run has not exercised since: their IDs, space separated,
 * into buf (cut short at len; "" for none). Returns how many there are.
 */
unsigned ex_campaign_unreached(const struct ex_campaign *cp, char *buf, size_t len);

/* Make directory dir and the ones above it that do not exist. 0 or -errno. */
int ex_mkdirs(const char *dir);

/* Write text to path through path.tmp and a rename (a reader never sees half a file). 0 or -errno. */
int ex_write_atomic(const char *path, const char *text);

/* A batch ended at t seconds: sample the figures (bounded: thinned when full). */
void ex_campaign_point(struct ex_campaign *cp, double t, unsigned long steps, unsigned rules);

#endif

/*
 * explore.h — `rdmacheck explore` (issue 13): generate cases (scngen.h), run
 * them in batches on a stack (batch.h) judged as `run` judges, and shrink
 * every new divergence (shrink.h) into DIR/NNN-<rule>-<outcome>.scn, a
 * scenario `rdmacheck run` reproduces, with a header saying what the model
 * allowed, what reality did and the seed.
 *
 * The cases depend only on the seed, the options and the coverage the model
 * computes — never on what the stack answered — so the same seed gives the
 * same sequence of steps on every stack.
 */
#ifndef RDMACHECK_EXPLORE_H
#define RDMACHECK_EXPLORE_H

#include "harness/explore/scngen.h"
#include "harness/explore/shrink.h"

#include <stdio.h>

#define EX_FOUND_MAX 64  /* distinct signatures shrunk and kept (one file each) */
#define EX_OVER_MAX 1024 /* further distinct signatures counted, not shrunk, once found[] is full */

struct ex_opts {
	uint64_t seed;
	unsigned long steps;       /* stop after this many generated steps (0: no limit) */
	double time_s;             /* stop after this many seconds (0: no limit) */
	struct ex_gen_opts gen;    /* nodes, steps per case, proposals, judge profile */
	unsigned batch;            /* cases per run on the stack */
	unsigned shrink_rounds;    /* bound per divergence (0: shrink.h's default) */
	const char *out;           /* directory for the shrunk files (NULL: none written) */
	const char *stack_name;    /* for the files' header */
	int progress;              /* a progress line on stderr: 1 rewritten (a TTY), 2 one per batch */
	FILE *print;               /* every generated case's text goes there too (NULL: nowhere) */
	unsigned goal_devs, goal_fams; /* stop after the batch that brought the distinct declared deviations
	                                * found to goal_devs, of goal_fams API families (0: no goal) */
	unsigned goal_steps;       /* the goal counts only those shrunk to at most this many steps (0: any) */
	const char *resume;        /* the campaign's kept corpus: resumed from, grown (campaign.h; NULL: none) */
	unsigned found_max;        /* distinct signatures shrunk, 1..EX_FOUND_MAX (0: EX_FOUND_MAX) */
	int (*stop)(void);         /* nonzero: stop before the next batch (Ctrl-C, SIGTERM); NULL never */
};

struct ex_found {
	struct ex_sig sig;
	size_t from, to;           /* steps before and after shrinking */
	char deviation[32];        /* the stack's profile's declared deviation showing it ("" none) */
	char path[4200];           /* the file written ("" none) */
	unsigned long count;       /* results that diverged with this signature (the first included) */
};

struct ex_summary {
	unsigned long steps, cases;     /* generated */
	unsigned long real_steps;       /* steps the stack ran (exploration and shrinking) */
	double secs, stack_secs;
	unsigned rules;                 /* distinct rules the exploration exercised */
	unsigned divergences;           /* results that diverged (also repeats) */
	size_t nfound;                  /* distinct ones, shrunk */
	struct ex_found found[EX_FOUND_MAX];
	/* Once found[] is full (o->found_max) the exploration goes on: the divergences of
	 * signatures not in it are counted here, their signatures told apart by a hash
	 * (the first EX_OVER_MAX of them; any further one is counted in over_lost). */
	unsigned long over;             /* divergences of signatures not shrunk for want of room */
	size_t nover;                   /* their distinct signatures (hashes in over_sig) */
	unsigned long over_lost;        /* divergences of distinct signatures beyond EX_OVER_MAX too */
	uint32_t over_sig[EX_OVER_MAX];
};

/*
 * Explore on s until a budget of o runs out or its goal is met (--until).
 * Each distinct signature is shrunk once (into found[], up to o->found_max of
 * them); when that is full the exploration goes on and counts the divergences
 * of further signatures in over, nover (a campaign is not ended by it). cov weights the generator (seed it with the corpus'
 * coverage; it is updated, with o->resume's files first); *sum receives the figures; the
 * summary (summary.h) is written into o->out as it goes and at the end. Returns 0 or a
 * negative errno (the stack could not run, -ENOMEM, a file could not be
 * written).
 */
int ex_explore(const struct ex_opts *o, struct ex_stack *s, struct ex_cov *cov, struct ex_summary *sum);

/*
 * The goal of --until (goal.c): the API family (enum m_family) of a found
 * divergence's deciding call; the distinct declared deviations found so far
 * (in files of at most o->goal_steps steps) and the families they are of;
 * whether o's goal is met (0 when o has none).
 */
int ex_found_family(const struct ex_found *f);
void ex_goal_count(const struct ex_opts *o, const struct ex_summary *sum, unsigned *devs, unsigned *fams);
int ex_goal_met(const struct ex_opts *o, const struct ex_summary *sum);

/*
 * Write case c (showing sig) as a scenario file at path, with its header.
 * 0 or -errno.
 */
int ex_write_case(const char *path, const struct ex_case *c, const struct ex_sig *sig, const struct ex_opts *o,
		  const struct ex_found *f);

#endif

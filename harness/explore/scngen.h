/*
 * scngen.h — the scenario generator of `rdmacheck explore` (issue 13).
 *
 * It writes verbs scenarios one step at a time, in the scenario language,
 * from the model's current state: the prefix so far is run on the model
 * engine (case.h: ex_eval_run), and the next step is proposed from what the
 * model then holds — live and dead PDs, MRs, windows and QPs, keys of other
 * nodes and stale ones, QPs in every state, windows bound and unbound —
 * with lengths and offsets at and across the edges of the buffers and
 * access-flag combinations. Several proposals are drawn; each is run on the
 * model and scored: rules the exploration has exercised least (ex_cov, seeded
 * with the corpus' semantic coverage) and steps whose allowed set has more
 * than one outcome score higher; the best is kept (ties: the first drawn).
 * A proposal the model cannot run (an object whose creation failed) or that
 * does not pass on the model is dropped.
 *
 * Deterministic: the same seed, options and coverage give the same steps.
 */
#ifndef RDMACHECK_EXPLORE_SCNGEN_H
#define RDMACHECK_EXPLORE_SCNGEN_H

#include "harness/explore/case.h"
#include "harness/explore/gen.h"

/* How often each rule decided an alternative of an explored (or corpus) step; in a run's
 * (ex_gen_opts.run), the steps drawn that may never end or kill the kernel, by deviation
 * (struct ex_eval.last_costly). */
struct ex_cov {
	uint32_t hits[M_RULE_COUNT_];
	uint32_t costly[M_COSTLY_KEYS];
};

/* Count the rules of r (its rule set). */
void ex_cov_add(struct ex_cov *c, const struct result *r);
/* Rules with at least one hit. */
unsigned ex_cov_reached(const struct ex_cov *c);

struct ex_gen_opts {
	unsigned nodes_min, nodes_max;  /* 2..16 */
	unsigned steps;                 /* steps of one case (episode) */
	unsigned proposals;             /* proposals drawn per step (1: no weighting) */
	unsigned apis;                  /* families a case may draw from: bits 1 << enum m_family
	                                 * (VERBS, RPMA, DAT, MRAPI, RPMEM); each case draws one; 0: verbs */
	struct m_profile judge;         /* the profile steps are checked against */
	int no_crash;                   /* drop proposals judge says may kill the kernel (a host stack) */
	unsigned costly_cases;          /* with run: proposals judge says may never end or kill the kernel
	                                 * (a declared hang costs the whole step timeout on a stack, a crash
	                                 * a guest's boot and the lanes' cases in flight) are drawn in this
	                                 * many steps per deviation a run, then dropped; 0: no bound */
	struct ex_cov *run;             /* NULL, or the rules of the generated cases alone (not the corpus'),
	                                 * counted here: a rule it lacks scores as new however often the
	                                 * corpus reached it, so success paths compete with rarer failures */
};

/*
 * One case of o->steps steps (fewer if no proposal could be found) drawn
 * with g, weighted by cov (updated with the rules of every accepted step).
 * *out is a new case (release with ex_case_free). 0 or -ENOMEM.
 */
int ex_gen_case(struct model_gen *g, const struct ex_gen_opts *o, struct ex_cov *cov, struct ex_case *out);

#endif

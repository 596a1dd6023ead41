/*
 * shrink.h — the shrinker of `rdmacheck explore` (issue 13): from a case
 * that diverges, the smallest case that still diverges the same way (same
 * signature, case.h: class, call, what reality did, the allowed set's rule
 * IDs).
 *
 * Phases, each candidate re-run on the same stack, repeated until no
 * phase makes progress (a fixpoint):
 *  1. steps: the steps after the deciding one go; the backward slice of
 *     the deciding step (only what creates or uses an object it depends
 *     on); then delta debugging — chunks removed, each with the steps that
 *     use an object a removed step created (so candidates stay
 *     well-formed): in process all sizes (n/2, n/4, …, 1) in one round, on
 *     a real stack two chunks first, twice as many after a round that
 *     found nothing (fewer cases per round, each round a guest boot);
 *  2. nodes: a node no step uses any more goes, the later ones renamed;
 *  3. objects merged: two of one class on one node (MRs: on any nodes)
 *     become one, the other's creation goes (cands.h);
 *  4. requests made simpler: a post before the deciding step becomes a
 *     zero-length SEND or a one-byte WRITE (cands.h), so what it alone
 *     needed (a window, a second MR) can go in the next step round;
 *  5. values: lengths and offsets lowered (to 0, to half), flags dropped
 *     one at a time, optional arguments (rkey=, inv=, offset=, access= of
 *     create_qp, zero_based) removed, window type 2 made 1; a work request
 *     replaced by the QP state its failure leaves (modify_qp Q state=ERR);
 *  6. names: the objects renamed after their class and creating step.
 * Every candidate of a round is first run on the model in process (it must
 * be well-formed and runnable there); the survivors go to the stack in one
 * batch (one guest boot on the VM), and the smallest that keeps the
 * signature (ties: the first generated) is taken. Deterministic. On a real
 * stack a round of a kernel crash keeps its first 6 candidates (each crash
 * costs a guest boot), of a hang its first 2 (each costs the hang timeout).
 */
#ifndef RDMACHECK_EXPLORE_SHRINK_H
#define RDMACHECK_EXPLORE_SHRINK_H

#include "harness/explore/batch.h"

struct ex_shrink_stats {
	unsigned rounds;       /* batches run */
	unsigned candidates;   /* cases run on the stack */
	size_t from, to;       /* steps before and after */
};

/*
 * The shrinker as a stepper, so that the rounds of several divergences can
 * share one batch (one guest boot): next() proposes the round's candidates
 * (cands[0..n), already run on the model), the caller runs them on the
 * stack, feed() takes their results; until done. Errors: 0 or -errno.
 */
struct ex_shrinker {
	struct ex_sig sig;
	struct ex_case cur;          /* the smallest case so far */
	struct ex_shrink_stats st;
	int ph, progress, done;
	unsigned max_rounds;
	unsigned gran;               /* steps phase: chunks the case is cut into (0: all sizes at once) */
	unsigned best_step;          /* the deciding step of the round's best candidate */
	struct ex_case *cands;       /* the round's candidates */
	size_t n;
};

/* Start shrinking c (showing sig on s); max_rounds as for ex_shrink. */
int ex_shrinker_init(const struct ex_stack *s, struct ex_shrinker *sh, const struct ex_case *c,
		     const struct ex_sig *sig, unsigned max_rounds);
/* The next round's candidates into sh->cands, sh->n (0 and sh->done when finished). */
int ex_shrinker_next(const struct ex_stack *s, struct ex_shrinker *sh);
/* The results of the round's candidates (rs[i] for sh->cands[i]). */
int ex_shrinker_feed(const struct ex_stack *s, struct ex_shrinker *sh, const struct result *rs);
/*
 * Take c as sh's result and finish: a case known elsewhere to show sh's
 * signature (shrunk on the model, confirmed on the stack). 0 or -ENOMEM.
 */
int ex_shrinker_adopt(struct ex_shrinker *sh, const struct ex_case *c);
/* The smallest case (*out, released by the caller) and the figures; sh is reset. */
void ex_shrinker_take(struct ex_shrinker *sh, struct ex_case *out, struct ex_shrink_stats *st);

/*
 * Shrink c, which shows divergence sig on s, into *out (a new case; release
 * with ex_case_free). max_rounds bounds the batches (0: 256). Returns 0
 * (out at least as small as c, still showing sig as far as the last run
 * said), or a negative errno (the stack failed, -ENOMEM).
 */
int ex_shrink(struct ex_stack *s, const struct ex_case *c, const struct ex_sig *sig, unsigned max_rounds,
	      struct ex_case *out, struct ex_shrink_stats *st);

#endif

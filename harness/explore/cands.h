/*
 * cands.h — the shrinker's candidate lists and the phases that fill them
 * (internal to harness/explore: shrink.c runs the rounds, shrink_objs.c
 * holds the phases that rewrite objects and work requests).
 *
 * A phase reads the current case (and, where it needs the object graph,
 * its parse f) and adds simpler variants to a list; the round runs them on
 * the model first (they must stay well-formed) and then on the stack, and
 * keeps the smallest that still shows the same divergence.
 * Errors: 0 or a negative errno.
 */
#ifndef RDMACHECK_EXPLORE_CANDS_H
#define RDMACHECK_EXPLORE_CANDS_H

#include "harness/explore/case.h"

/* A round's candidates. */
struct cands {
	size_t n, cap;
	struct ex_case *v;
};

/* Release every candidate and the list; the list is empty afterwards. */
void cands_free(struct cands *cs);
/* Take c (moved in; c is left empty) unless an equal candidate is already there. 0 or -ENOMEM. */
int cands_add(struct cands *cs, struct ex_case *c);

/*
 * Objects merged: for two objects of one class on one node (registered
 * memory — MRs, librpma MRs, uDAPL LMRs — on any nodes), one's creation goes and every reference to it names the other
 * instead (two PDs become one, the local and the target MR become one MR, …).
 */
int merge_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs);

/*
 * Registrations moved: an MR, librpma MR or uDAPL LMR created on another
 * node instead (in a protection domain there), every reference following
 * it — so a node that held only it, and its PD, can go next round. Only to
 * a node with at least as many steps as its own (so moves never cycle).
 */
int rehome_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs);

/*
 * Work requests made simpler: a post before the deciding step (the last)
 * replaced by a zero-length SEND from an MR (another node's: a foreign
 * lkey; one created later moves to just before the post), or by a one-byte
 * WRITE from it to an MR created earlier (so a window, a second MR or a
 * peer object that request alone needed can go). A SEND is never replaced
 * and a WRITE only by a SEND, so rounds of this phase end.
 */
int wr_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs);

/*
 * Objects renamed: each object to its class letter and the index of its
 * creating step (p0, m1, q3, …; the generator's own scheme), so a shrunk
 * file reads like a hand-written one. At most one candidate (none when the
 * names are already so).
 */
int rename_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs);

#endif

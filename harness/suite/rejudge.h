/*
 * rejudge.h — `rdmacheck rejudge RESULTS...`: a recorded run judged again
 * against the model of today, without the stack (issue 30). Each scenario of
 * the results that has a record of reality (results.jsonl's "tape" object,
 * harness/run/tape.h) is run as the live run ran it — its profile, kernel,
 * run-ahead and crash setting — on an engine that answers from the record,
 * with the same steps around the runner the live run took (a capability or
 * crash skip before it, the kernel's lines judged after it). The verdict is
 * then the live run's or it is not (a flip: the model, the profile or the
 * file's expectations changed how that reality is judged); a file whose
 * record does not hold what the run of today asks (the live run stopped
 * earlier, another call, a look it did not make, no record at all: a machine
 * that died under it) is incomplete, never taken as agreeing.
 */
#ifndef RDMACHECK_REJUDGE_H
#define RDMACHECK_REJUDGE_H

#include "harness/run/runner.h"

#include <stddef.h>
#include <stdio.h>

/* How one file's re-judging came out. */
enum rj_kind { RJ_SAME, RJ_FLIP, RJ_SHORT, RJ_MISMATCH, RJ_NORECORD, RJ_UNREADABLE, RJ_COUNT_ };
/* "same", "flip", "short", "mismatch", "no-record", "unreadable"; "?" out of range. */
const char *rj_kind_str(enum rj_kind k);

struct rj_opts {
	int verbose;     /* a line for every file, not only the ones that are not the same */
	const char *root; /* scenario paths of the record are relative to it (NULL: as they are) */
	const char *profile; /* judge against this profile (at the record's kernel version), not the
	                        live run's (NULL): the same reality under another reading */
};

/* What rejudge found, in counts. */
struct rj_sum {
	size_t n[RJ_COUNT_];
	size_t files, reason_differs; /* same verdict and line, another reason text */
	double secs;
};

/*
 * Re-judge every scenario of the results npaths paths (a results directory
 * or its results.jsonl each), printing to out one line per file that is not
 * the same (every file with verbose) and the counts. 0 with *sum filled, or
 * -errno with the reason printed to stderr (an input that cannot be read).
 */
int rejudge(size_t npaths, char *const *paths, const struct rj_opts *o, FILE *out, struct rj_sum *sum);

/*
 * One file: f judged on the record tape (its JSON array, head first; kernel
 * its kernel lines or NULL) into *r (release with result_clear), against
 * profile as_profile at the record's kernel version (NULL: the record's own
 * profile; an unknown name is RJ_MISMATCH, why in note). Returns
 * RJ_SAME when r's verdict and line are live's, RJ_FLIP when not, RJ_SHORT or
 * RJ_MISMATCH (why, into note) when the record does not hold this run. A
 * record of a run on the model engine (--stack=model) is judged as that run
 * judged it: what the file says that the model does not allow is said as lint
 * says it (r's reason "FILE:LINE:COL: expect X, but the model allows only: ...",
 * the source line and caret into note, for a flip).
 */
enum rj_kind rejudge_file(const struct scn_file *f, void *tape, const char *kernel, const char *as_profile,
			  const struct result *live, struct result *r, char *note, size_t notelen);

#endif

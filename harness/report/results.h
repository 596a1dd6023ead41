/*
 * results.h — the results directory of a run (as blktests' results/): what a
 * human reads after a failure and what tools read after the run. The format is
 * shared with `run --rerun-failed`, which reads results.jsonl.
 *
 *   DIR/results.jsonl     one JSON object per line, written with Jansson:
 *     {"type":"scenario","file":F,"title":T,"verdict":"PASS|FAIL|XFAIL|SKIP|ERROR",
 *      "reason":R,"line":N,"secs":S,"rules":["RULE-ID",...]}
 *     then one per step that ran, in order:
 *     {"type":"step","file":F,"line":N,"call":"NODE: CALL ARGS","allowed":SET,"real":OUTCOME}
 *   DIR/NNN-NAME/         per scenario (NNN its index in the run, NAME its file's
 *                         base name without .scn, other bytes than [A-Za-z0-9._-] as '_'):
 *     verdict.txt         its text report (the line, the reason, the detail)
 *     trace.txt           every step run: "line N: STEP -> REAL; allowed: SET"
 *     kernel.txt          the kernel log lines the scenario produced (real stack)
 *     console.txt         the guest console excerpt when the guest died
 *   DIR/stack.log         ci/stack's, ci/vm's and the inner runner's stderr (real stack)
 *   DIR/console.log       the guest console of the last guest (VM)
 *
 * DIR is --results=DIR, or by default ROOT/build/results/YYYYmmddTHHMMSSZ-PID
 * (UTC) with ROOT/build/results/latest a symbolic link to it.
 */
#ifndef RDMACHECK_RESULTS_H
#define RDMACHECK_RESULTS_H

#include "harness/run/runner.h"

#include <limits.h>
#include <stdio.h>

struct afile;

struct results {
	char dir[PATH_MAX];
	FILE *jsonl;            /* results.jsonl's temporary file until results_close renames it */
	struct afile *out;      /* what jsonl writes through (afile.h) */
	int lock;               /* the directory, flock()ed while the run writes it; -1 none */
	int werr;               /* the first write failure (-errno), 0 none */
	char werr_path[PATH_MAX + 256]; /* the file it was a write of */
};

/*
 * The default directory under root (ROOT/build/results/STAMP-PID) into dir.
 * Returns 0 or -ENAMETOOLONG.
 */
int results_default(const char *root, char *dir, size_t len);

/*
 * Create dir (and its parent build/results when it is the default one, with
 * the latest link when latest is non-zero), lock it (flock: one run at a time
 * writes a results directory) and open results.jsonl, which is written to a
 * temporary file beside it and appears whole at results_close. Returns 0 or
 * -errno with the reason in err: -EBUSY when another run holds the directory.
 */
int results_open(struct results *rd, const char *dir, int latest, char *err, size_t errlen);

/*
 * Take the trace lines ("  trace: ..." the runner adds with run_opts.trace)
 * out of r->detail: returns them (malloc'd, "line N: ..." one a line, NULL if
 * none); r->detail keeps them too when keep is non-zero (--trace).
 */
char *results_take_trace(struct result *r, int keep);

/*
 * Record scenario k: its directory and files (trace, kernel, console: NULL or
 * "" for none), its results.jsonl lines. Returns 0 or -errno (also kept in
 * rd->werr; the run goes on).
 */
int results_scenario(struct results *rd, size_t k, const struct result *r, const char *trace, const char *kernel,
		     const char *console);

/* Copy the file src into the directory as name (a missing src is no error). 0 or -errno. */
int results_file(struct results *rd, const char *name, const char *src);

/*
 * Close results.jsonl: renamed into place when every line was written, else
 * removed (no file cut mid-line). Unlocks the directory. Returns 0 or the
 * first write failure (-errno; rd->werr_path names the file).
 */
int results_close(struct results *rd);

#endif

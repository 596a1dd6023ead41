/*
 * stage.h — copies of the scenario files where the real stack's runner reads
 * them. The inner runner may run in the disposable VM (ci/vm), which sees the
 * host root read-only and this checkout read-write, but mounts its own /tmp:
 * a file the user named there would vanish. The outer runner has parsed every
 * file already; it copies each one into the checkout (build/run/scn-PID/K.scn)
 * and hands the guest the copies, so the guest runs exactly what the host
 * parsed, wherever it lives.
 */
#ifndef RDMACHECK_STAGE_H
#define RDMACHECK_STAGE_H

#include "harness/lang/scn.h"

#include <limits.h>
#include <stdio.h>
#include <stddef.h>

struct stage {
	char dir[PATH_MAX];     /* ROOT/build/run/scn-PID */
	size_t n;               /* copies made: 0.scn .. n-1.scn may exist */
};

/* Make the directory under root (ROOT/build/run must exist). 0 or -errno, err says why. */
int stage_open(struct stage *s, const char *root, char *err, size_t errlen);
/*
 * Copy src to DIR/K.scn, its path into dst. 0 or -errno with the reason in
 * err (src unreadable, the checkout not writable).
 */
int stage_add(struct stage *s, size_t k, const char *src, char *dst, size_t dstlen, char *err, size_t errlen);
/* Remove every copy and the directory. */
void stage_close(struct stage *s);

/*
 * The inner runner's side: read the list the outer runner wrote (NUL-terminated
 * names, an empty name for a scenario not to run there, its index kept) into
 * paths[] and parse each into files[] (both NULL for an empty name; files[i]
 * NULL also when it does not parse). *n entries; *maxn the most nodes any
 * scenario needs (at least 1). Returns 0 (a list cut short ends early).
 */
int stage_load(FILE *list, char ***paths, struct scn_file ***files, size_t *n, size_t *maxn);
/* Release what stage_load gave. */
void stage_unload(char **paths, struct scn_file **files, size_t n);

#endif

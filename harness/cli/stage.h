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

#include <limits.h>
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

#endif

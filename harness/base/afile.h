/*
 * afile.h — files written whole or not at all: the text goes to a temporary
 * file beside the target, which is renamed over it once complete, so a reader
 * (or a second run writing the same report) never sees half a file. A target
 * that exists and is not a regular file (/dev/stdout, a FIFO) is written to
 * directly: it is never replaced.
 */
#ifndef RDMACHECK_AFILE_H
#define RDMACHECK_AFILE_H

#include <stddef.h>
#include <stdio.h>

struct afile {
	FILE *f;                 /* write here (a stream over fd that keeps the first write's errno) */
	int fd;                  /* the file written */
	int err;                 /* errno of the first write that failed, 0 none */
	char path[4096];         /* the target */
	char tmp[4096 + 8];      /* the temporary file beside it; "" when writing the target itself */
};

/* Start writing path. Returns 0 (a->f open), or -errno (nothing created). */
int afile_open(struct afile *a, const char *path);
/*
 * Finish: flush, close and rename the temporary file over the target when
 * keep is non-zero and every write succeeded; else remove it and leave the
 * target as it was. Returns 0, or -errno of the first failure (the write's
 * own: -ENOSPC for a full disk, -EFBIG over the file size limit).
 */
int afile_close(struct afile *a, int keep);

/* -errno of the first write to a->f that failed (buffered writes included once flushed), or 0. */
int afile_error(const struct afile *a);

/*
 * Copy the file src to dst, whole or not at all. Returns 0, or -errno (src
 * unreadable, dst not writable, a read or write error).
 */
int afile_copy(const char *src, const char *dst);

/* Write len bytes of text to path, whole or not at all. Returns 0 or -errno. */
int afile_write(const char *path, const char *text, size_t len);

#endif

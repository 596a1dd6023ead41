/* files.h — the scenario files a command line names (files, or directories
 * searched recursively for *.scn), in a stable sorted order, each file once. */
#ifndef RDMACHECK_FILES_H
#define RDMACHECK_FILES_H

#include <stddef.h>
#include <sys/types.h>

#define FILES_DEPTH_MAX 256 /* directories below a path given; deeper ones are skipped, and said */

struct filelist {
	char **v;                 /* the files, in order */
	size_t n, cap;
	char **notes;             /* what was skipped and why ("PATH: skipped: REASON") */
	size_t nnotes, capnotes;
	struct files_unread { char *path, *why; } *unread; /* what could hold scenarios and was not read */
	size_t nunread, capunread;
	struct files_id { dev_t dev; ino_t ino; } *seen; /* files and directories taken */
	size_t nseen, capseen;
};

/*
 * Add path: a regular file as it is (whatever its name), or a directory's
 * *.scn files recursively (hidden entries skipped), sorted by path. Every
 * file is taken once, by device and inode: a file or directory reached again
 * (through a symbolic link, or named twice) is not added again, and a path
 * without links wins over one through a link. What a directory walk skips
 * (a dangling or looping link, a FIFO or other non-regular file named
 * *.scn) is recorded in fl->notes; what it cannot read (a directory it may
 * not list, an entry it cannot stat, a tree deeper than FILES_DEPTH_MAX, a
 * path too long) in fl->unread, with why ("cannot read the directory:
 * Permission denied"): scenarios may be there. Returns 0, or -errno with a message in err: the
 * path does not exist, is neither a regular file nor a directory (a FIFO
 * would block the reader), or a directory holds no *.scn file.
 */
int files_add(struct filelist *fl, const char *path, char *err, size_t errlen);
/*
 * Append name as it is: no check that it exists, no de-duplication (a list
 * another process wrote, where order and repeats matter). 0 or -ENOMEM.
 */
int files_push(struct filelist *fl, const char *name);
/* Release everything fl holds; fl is empty and reusable after. */
void files_free(struct filelist *fl);

#endif

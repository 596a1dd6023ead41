/* files.h — the scenario files a command line names (files, or directories
 * searched recursively for *.scn), in a stable sorted order. */
#ifndef RDMACHECK_FILES_H
#define RDMACHECK_FILES_H

#include <stddef.h>

struct filelist {
	char **v;
	size_t n, cap;
};

/*
 * Add path: a file as it is (whatever its name), a directory's *.scn files
 * recursively, sorted by path. Returns 0, or -errno with a message in err.
 */
int files_add(struct filelist *fl, const char *path, char *err, size_t errlen);
void files_free(struct filelist *fl);

#endif

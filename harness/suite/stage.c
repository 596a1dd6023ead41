/* stage.c — copies of scenario files inside the checkout (stage.h). */
#define _GNU_SOURCE /* getdelim */
#include "harness/suite/stage.h"

#include "harness/base/afile.h"

#include <stdlib.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int stage_open(struct stage *s, const char *root, char *err, size_t errlen)
{
	s->n = 0;
	snprintf(s->dir, sizeof(s->dir), "%s/build/run/scn-%ld", root, (long)getpid());
	if (mkdir(s->dir, 0755) && errno != EEXIST) {
		int e = errno;

		snprintf(err, errlen, "cannot make %s: %s", s->dir, strerror(e));
		return -e;
	}
	return 0;
}

int stage_add(struct stage *s, size_t k, const char *src, char *dst, size_t dstlen, char *err, size_t errlen)
{
	int rc;

	snprintf(dst, dstlen, "%s/%zu.scn", s->dir, k);
	if (k >= s->n)
		s->n = k + 1;
	rc = afile_copy(src, dst);
	if (rc)
		snprintf(err, errlen, "cannot copy it into the checkout (%s): %s", dst, strerror(-rc));
	return rc;
}

void stage_close(struct stage *s)
{
	char path[PATH_MAX + 32];

	for (size_t k = 0; k < s->n; k++) {
		snprintf(path, sizeof(path), "%s/%zu.scn", s->dir, k);
		unlink(path);
	}
	rmdir(s->dir);
	s->n = 0;
}

int stage_load(FILE *list, char ***paths, struct scn_file ***files, size_t *n, size_t *maxn)
{
	char *line = NULL;
	size_t cap = 0, room = 0;
	ssize_t len;

	*paths = NULL;
	*files = NULL;
	*n = 0;
	*maxn = 1;
	while ((len = getdelim(&line, &cap, '\0', list)) > 0) {
		if (line[len - 1] != '\0')
			break; /* cut short: not a whole name */
		if (*n == room) {
			size_t nr = room ? 2 * room : 64;
			char **np = realloc(*paths, nr * sizeof(*np));
			struct scn_file **nf = np ? realloc(*files, nr * sizeof(*nf)) : NULL;

			if (np)
				*paths = np;
			if (!nf)
				break;
			*files = nf;
			room = nr;
		}
		(*paths)[*n] = line[0] ? strdup(line) : NULL;
		(*files)[*n] = NULL;
		if ((*paths)[*n]) {
			struct scn_diags d;

			if (scn_parse_file((*paths)[*n], &(*files)[*n], &d) == 0 && (*files)[*n]->nnodes > *maxn)
				*maxn = (*files)[*n]->nnodes;
		}
		(*n)++;
	}
	free(line);
	return 0;
}

void stage_unload(char **paths, struct scn_file **files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(paths[i]);
		scn_free(files[i]);
	}
	free(paths);
	free(files);
}

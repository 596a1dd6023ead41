/* stage.c — copies of scenario files inside the checkout (stage.h). */
#include "harness/cli/stage.h"

#include "harness/cli/afile.h"

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

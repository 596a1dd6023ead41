/* stage.c — copies of scenario files inside the checkout (stage.h). */
#include "harness/cli/stage.h"

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
	char buf[65536];
	size_t got;
	int rc = 0;
	FILE *in = fopen(src, "rb"), *out;

	if (!in) {
		rc = -errno;
		snprintf(err, errlen, "cannot read %s again: %s", src, strerror(-rc));
		return rc;
	}
	snprintf(dst, dstlen, "%s/%zu.scn", s->dir, k);
	if (k >= s->n)
		s->n = k + 1;
	out = fopen(dst, "wb");
	if (!out) {
		rc = -errno;
		snprintf(err, errlen, "cannot copy it into the checkout (%s): %s", dst, strerror(-rc));
		fclose(in);
		return rc;
	}
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, got, out) != got)
			break;
	if (ferror(in) || ferror(out))
		rc = -EIO;
	if (fclose(out) && !rc)
		rc = -errno;
	fclose(in);
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

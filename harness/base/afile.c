/* afile.c — files written whole or not at all (afile.h). */
#include "harness/base/afile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int afile_open(struct afile *a, const char *path)
{
	struct stat st;
	mode_t mask;
	int fd, rc;

	if (strlen(path) >= sizeof(a->path))
		return -ENAMETOOLONG;
	snprintf(a->path, sizeof(a->path), "%s", path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or pipe (/dev/stdout): written to as it is, never replaced */
		a->tmp[0] = '\0';
		a->f = fopen(path, "w");
		return a->f ? 0 : -errno;
	}
	snprintf(a->tmp, sizeof(a->tmp), "%s.XXXXXX", path);
	fd = mkstemp(a->tmp);
	if (fd < 0)
		return -errno;
	/* the mode a plain fopen would give, not mkstemp's 0600 */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(a->f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		unlink(a->tmp);
		return rc;
	}
	return 0;
}

int afile_close(struct afile *a, int keep)
{
	int rc = 0;

	if (ferror(a->f))
		rc = -EIO;
	if (fclose(a->f) && !rc)
		rc = -errno;
	a->f = NULL;
	if (!a->tmp[0])
		return rc;
	if (keep && !rc && rename(a->tmp, a->path))
		rc = -errno;
	if (!keep || rc)
		unlink(a->tmp);
	return rc;
}

int afile_copy(const char *src, const char *dst)
{
	char buf[65536];
	struct afile a;
	size_t got;
	int rc, bad = 0;
	FILE *in = fopen(src, "rb");

	if (!in)
		return -errno;
	rc = afile_open(&a, dst);
	if (rc) {
		fclose(in);
		return rc;
	}
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, got, a.f) != got)
			break;
	bad = ferror(in);
	fclose(in);
	rc = afile_close(&a, !bad);
	return rc ? rc : bad ? -EIO : 0;
}

int afile_write(const char *path, const char *text, size_t len)
{
	struct afile a;
	int rc = afile_open(&a, path), ok;

	if (rc)
		return rc;
	ok = !len || fwrite(text, 1, len, a.f) == len;
	rc = afile_close(&a, ok);
	return rc ? rc : ok ? 0 : -EIO;
}

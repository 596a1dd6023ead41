/* afile.c — files written whole or not at all (afile.h). */
#include "harness/cli/afile.h"

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

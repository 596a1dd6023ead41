/* afile.c — files written whole or not at all (afile.h). */
#define _GNU_SOURCE /* fopencookie: a stream that keeps its write errors' errno */
#include "harness/base/afile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

/* The stream's write: all of len to a->fd, the first failure's errno kept in a->err. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct afile *a = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(a->fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!a->err)
				a->err = w < 0 ? errno : EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)len;
}

static int cookie_close(void *cookie)
{
	struct afile *a = cookie;

	if (close(a->fd) && !a->err)
		a->err = errno;
	a->fd = -1;
	return a->err ? -1 : 0;
}

/* a->f over a->fd, which it owns. 0 or -errno (fd closed). */
static int open_stream(struct afile *a)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };

	a->err = 0;
	a->f = fopencookie(a, "w", io);
	if (!a->f) {
		int rc = -errno;

		close(a->fd);
		return rc;
	}
	return 0;
}

int afile_open(struct afile *a, const char *path)
{
	struct stat st;
	mode_t mask;
	int rc;

	if (strlen(path) >= sizeof(a->path))
		return -ENAMETOOLONG;
	snprintf(a->path, sizeof(a->path), "%s", path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or pipe (/dev/stdout): written to as it is, never replaced */
		a->tmp[0] = '\0';
		a->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		return a->fd < 0 ? -errno : open_stream(a);
	}
	snprintf(a->tmp, sizeof(a->tmp), "%s.XXXXXX", path);
	a->fd = mkostemp(a->tmp, O_CLOEXEC);
	if (a->fd < 0)
		return -errno;
	/* the mode a plain fopen would give, not mkstemp's 0600 */
	mask = umask(0);
	umask(mask);
	rc = fchmod(a->fd, 0666 & ~mask) ? -errno : 0;
	if (rc)
		close(a->fd);
	else
		rc = open_stream(a);
	if (rc)
		unlink(a->tmp);
	return rc;
}

int afile_error(const struct afile *a)
{
	return a->err ? -a->err : ferror(a->f) ? -EIO : 0;
}

int afile_close(struct afile *a, int keep)
{
	int rc = 0;

	fflush(a->f); /* what is still buffered: its failure kept in a->err */
	rc = afile_error(a);
	fclose(a->f);
	if (!rc && a->err)
		rc = -a->err; /* the close's own */
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

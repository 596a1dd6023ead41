/* secret_file.c — a file holding a secret, read with its checks (secret_file.h). */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include "lib/common/secret_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Up to size bytes of fd into buf; their count, or -errno. Reads until EOF or a full buffer. */
static ssize_t read_all(int fd, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t r = read(fd, buf + got, size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* The checks of an open file (fstat): 0, or the refusal said in err. */
static int check_file(int fd, const char *path, const char *what, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st)) {
		int rc = -errno;

		snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(-rc));
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s is not a regular file", path, what);
		return -EINVAL;
	}
	if (st.st_mode & 077) {
		snprintf(err, errlen, "%s: %s may be read by others (mode %03o): chmod 600 it", path, what,
			 (unsigned)st.st_mode & 0777);
		return -EPERM;
	}
	return 0;
}

int secret_file_read(const char *path, const char *what, char *buf, size_t size, size_t *n, char *err,
		     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), rc;
	ssize_t got = 0;

	*n = 0;
	if (size == 0) {
		snprintf(err, errlen, "%s: no room to read %s", path, what);
		return -EINVAL;
	}
	buf[0] = '\0';
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(-rc));
		return rc;
	}
	rc = check_file(fd, path, what, err, errlen);
	if (!rc && (got = read_all(fd, buf, size)) < 0) {
		rc = (int)got;
		snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(-rc));
	} else if (!rc && (size_t)got == size) {
		rc = -EFBIG;
		snprintf(err, errlen, "%s: %s is larger than %zu bytes", path, what, size - 1);
	}
	close(fd);
	if (rc) {
		explicit_bzero(buf, size);
		return rc;
	}
	buf[got] = '\0';
	*n = (size_t)got;
	return 0;
}

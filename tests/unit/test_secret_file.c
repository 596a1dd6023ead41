/*
 * Unit tests of lib/common/secret_file.c, the one reader of a file holding a
 * secret (the agents' token file, the MRAPI keyring): what a private file
 * gives, every refusal (rights for group or others, not a regular file, too
 * large, missing) with the path in its reason, and nothing of a refused
 * file left in the buffer.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "lib/common/secret_file.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rdmacheck-secret-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[384];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* A file name in the test's directory holding text with mode; its path into path. */
static const char *file(const char *name, const char *text, mode_t mode, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
	return path;
}

START_TEST(test_secret_file_private_file)
{
	char path[128], buf[32], err[256], link[160];
	size_t n = 99;

	ck_assert_int_eq(secret_file_read(file("k", "0123456789abcdef\n", 0600, path, sizeof(path)), "the token file",
					  buf, sizeof(buf), &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 17);
	ck_assert_str_eq(buf, "0123456789abcdef\n");
	/* stricter modes are fine, and so is a link to a private file */
	ck_assert_int_eq(chmod(path, 0400), 0);
	ck_assert_int_eq(secret_file_read(path, "x", buf, sizeof(buf), &n, err, sizeof(err)), 0);
	snprintf(link, sizeof(link), "%s/link", dir);
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(secret_file_read(link, "x", buf, sizeof(buf), &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 17);
	/* empty: read, nothing in it (the caller judges what it needs) */
	ck_assert_int_eq(secret_file_read(file("e", "", 0600, path, sizeof(path)), "x", buf, sizeof(buf), &n, err,
					  sizeof(err)), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_secret_file_rights_of_others)
{
	static const mode_t open_modes[] = { 0644, 0640, 0604, 0660, 0602, 0620, 0700 | 001 };
	char path[128], buf[32], err[256];
	size_t n;

	for (size_t i = 0; i < sizeof(open_modes) / sizeof(open_modes[0]); i++) {
		file("open", "0123456789abcdef\n", open_modes[i], path, sizeof(path));
		ck_assert_int_eq(secret_file_read(path, "the keyring", buf, sizeof(buf), &n, err, sizeof(err)), -EPERM);
		ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, ": the keyring may be read by others") &&
			      strstr(err, "chmod 600 it"), "mode %03o: %s", (unsigned)open_modes[i], err);
		ck_assert_uint_eq(n, 0);
		ck_assert_str_eq(buf, "");
	}
}
END_TEST

START_TEST(test_secret_file_size_bound)
{
	char path[128], buf[8], err[256];
	size_t n;

	/* size - 1 bytes fit, with the NUL */
	ck_assert_int_eq(secret_file_read(file("7", "1234567", 0600, path, sizeof(path)), "x", buf, sizeof(buf), &n,
					  err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(buf, "1234567");
	/* one more is refused, and nothing of it is left in buf */
	ck_assert_int_eq(secret_file_read(file("8", "12345678", 0600, path, sizeof(path)), "the token file", buf,
					  sizeof(buf), &n, err, sizeof(err)), -EFBIG);
	ck_assert_msg(strstr(err, ": the token file is larger than 7 bytes") && strncmp(err, path, strlen(path)) == 0,
		      "%s", err);
	for (size_t i = 0; i < sizeof(buf); i++)
		ck_assert_int_eq(buf[i], 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(secret_file_read(file("big", "a much longer file than that", 0600, path, sizeof(path)), "x",
					  buf, sizeof(buf), &n, err, sizeof(err)), -EFBIG);
	ck_assert_int_eq(secret_file_read(path, "x", buf, 0, &n, err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_secret_file_missing_or_not_a_file)
{
	char path[128], buf[32], err[256];
	size_t n;

	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(secret_file_read(path, "the keyring", buf, sizeof(buf), &n, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, ": cannot read the keyring: "), "%s", err);
	/* a directory, and a FIFO no one writes: refused at once, never waited on */
	ck_assert_int_eq(chmod(dir, 0700), 0);
	ck_assert_int_eq(secret_file_read(dir, "the keyring", buf, sizeof(buf), &n, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, ": the keyring is not a regular file"), "%s", err);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(secret_file_read(path, "the keyring", buf, sizeof(buf), &n, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, ": the keyring is not a regular file"), "%s", err);
	ck_assert_int_eq(secret_file_read("/dev/null", "x", buf, sizeof(buf), &n, err, sizeof(err)), -EINVAL);
}
END_TEST

Suite *suite_test_secret_file(void)
{
	Suite *s = suite_create("test_secret_file");
	TCase *tc = tcase_create("secret_file");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_secret_file_private_file);
	tcase_add_test(tc, test_secret_file_rights_of_others);
	tcase_add_test(tc, test_secret_file_size_bound);
	tcase_add_test(tc, test_secret_file_missing_or_not_a_file);
	suite_add_tcase(s, tc);
	return s;
}

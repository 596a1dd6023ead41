/*
 * Unit tests of files written whole or not at all (harness/base/afile.c) and
 * of the JUnit report that uses it: concurrent writers of one report never
 * leave a torn file, a reader never sees one, nothing temporary is left.
 */
#include "harness/base/afile.h"
#include "harness/report/report.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rdmacheck-afile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/report.xml", dir);
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* The number of entries in dir besides . and .. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Is the file at path a whole JUnit report (1), absent (0), or torn (-1)? */
static int whole(void)
{
	char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strncmp(buf, "<?xml", 5) == 0 && n > 14 && strcmp(buf + n - 14, "</testsuites>\n") == 0 ? 1 : -1;
}

START_TEST(test_written_whole_or_not_at_all)
{
	struct afile a;

	ck_assert_int_eq(afile_open(&a, path), 0);
	fputs("half", a.f);
	ck_assert_int_eq(whole(), 0);  /* nothing at the target yet */
	ck_assert_int_eq(afile_close(&a, 0), 0);
	ck_assert_int_eq(entries(), 0); /* dropped: no trace */
	ck_assert_int_eq(afile_open(&a, path), 0);
	fputs("all", a.f);
	ck_assert_int_eq(afile_close(&a, 1), 0);
	ck_assert_int_eq(entries(), 1);
	ck_assert_int_eq(afile_open(&a, "/nonexistent-dir/x"), -ENOENT);
	/* a device is written to, never replaced */
	ck_assert_int_eq(afile_open(&a, "/dev/null"), 0);
	fputs("x", a.f);
	ck_assert_int_eq(afile_close(&a, 1), 0);
	{
		struct stat st;

		ck_assert_int_eq(stat("/dev/null", &st), 0);
		ck_assert(S_ISCHR(st.st_mode));
	}
}
END_TEST

/* A write that fails says why: the file size limit's EFBIG (a full disk's ENOSPC alike), not EIO. */
START_TEST(test_a_failed_write_keeps_its_errno)
{
	struct rlimit lim = { 4096, 4096 };
	struct afile a;
	char block[1024];

	memset(block, 'x', sizeof(block));
	signal(SIGXFSZ, SIG_IGN); /* the test runs in a process of its own (fork mode) */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ck_assert_int_eq(afile_open(&a, path), 0);
	for (int i = 0; i < 64; i++)
		fwrite(block, 1, sizeof(block), a.f);
	ck_assert_int_eq(afile_error(&a), -EFBIG);
	ck_assert_int_eq(afile_close(&a, 1), -EFBIG);
	ck_assert_int_eq(entries(), 0); /* no file cut short, no temporary one */
	/* what is still buffered fails at the close */
	ck_assert_int_eq(afile_open(&a, path), 0);
	for (int i = 0; i < 5; i++)
		fwrite(block, 1, sizeof(block), a.f);
	ck_assert_int_eq(afile_close(&a, 1), -EFBIG);
	ck_assert_int_eq(entries(), 0);
	ck_assert_int_eq(afile_write(path, block, sizeof(block)), 0);
	ck_assert_int_eq(entries(), 1);
	/* a device that is full */
	ck_assert_int_eq(afile_open(&a, "/dev/full"), 0);
	fwrite(block, 1, sizeof(block), a.f);
	ck_assert_int_eq(afile_close(&a, 1), -ENOSPC);
}
END_TEST

START_TEST(test_concurrent_junit_writers)
{
	enum { WRITERS = 4, ROUNDS = 25, RESULTS = 40 };
	static struct result rs[RESULTS];
	pid_t pid[WRITERS];
	int status, torn = 0;

	for (int w = 0; w < WRITERS; w++) {
		pid[w] = fork();
		ck_assert_int_ge(pid[w], 0);
		if (pid[w] == 0) {
			/* each writer its own report: a different number of results */
			for (int i = 0; i < RESULTS; i++) {
				snprintf(rs[i].file, sizeof(rs[i].file), "scenarios/w%d/%03d.scn", w, i);
				snprintf(rs[i].title, sizeof(rs[i].title), "writer %d result %d", w, i);
				rs[i].v = V_PASS;
			}
			for (int k = 0; k < ROUNDS; k++)
				if (report_junit(path, rs, (size_t)(RESULTS - w * 5), 1.0))
					_exit(1);
			_exit(0);
		}
	}
	/* read while they write: never a torn file */
	for (int alive = WRITERS; alive > 0;) {
		torn |= whole() < 0;
		alive = 0;
		for (int w = 0; w < WRITERS; w++)
			if (pid[w] && waitpid(pid[w], &status, WNOHANG) == 0)
				alive++;
			else if (pid[w]) {
				ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
				pid[w] = 0;
			}
	}
	ck_assert_int_eq(torn, 0);
	ck_assert_int_eq(whole(), 1);
	ck_assert_int_eq(entries(), 1); /* no temporary file left */
}
END_TEST

Suite *suite_test_afile(void)
{
	Suite *s = suite_create("test_afile");
	TCase *tc = tcase_create("afile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_written_whole_or_not_at_all);
	tcase_add_test(tc, test_a_failed_write_keeps_its_errno);
	tcase_add_test(tc, test_concurrent_junit_writers);
	suite_add_tcase(s, tc);
	return s;
}

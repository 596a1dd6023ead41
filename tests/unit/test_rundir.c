/*
 * Unit tests of the sweep of build/run (harness/suite/rundir.h, issue 29.6):
 * the files of a run whose owner-PID names a process of this kernel that is
 * gone are removed, those of a live one kept; another kernel's (a guest's)
 * are kept unless older than this kernel's boot; files with no owner, and
 * names that only begin like a pid's, are kept.
 */
#define _GNU_SOURCE /* mkdtemp */
#include "harness/suite/rundir.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rundir-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Make dir/NAME (a directory with a file in it when dir_too). */
static void make(const char *name, int dir_too)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (dir_too) {
		ck_assert_int_eq(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/%s/0.scn", dir, name);
	}
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("x\n", f);
	fclose(f);
}

static int exists(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* The files of run pid: records, list, console, stack, their side rounds' and .topo, scn-PID/. */
static void make_run(long pid)
{
	const char *fmt[] = { "records-%ld.txt", "records-%ld-side1.txt", "records-%ld.txt.topo", "list-%ld.nul",
			      "console-%ld.log", "stack-%ld.log", NULL };
	char name[64];

	for (int i = 0; fmt[i]; i++) {
		snprintf(name, sizeof(name), fmt[i], pid);
		make(name, 0);
	}
	snprintf(name, sizeof(name), "scn-%ld", pid);
	make(name, 1);
}

/* How many of run pid's files (make_run) exist. */
static int run_files(long pid)
{
	const char *fmt[] = { "records-%ld.txt", "records-%ld-side1.txt", "records-%ld.txt.topo", "list-%ld.nul",
			      "console-%ld.log", "stack-%ld.log", "scn-%ld", NULL };
	char name[64];
	int n = 0;

	for (int i = 0; fmt[i]; i++) {
		snprintf(name, sizeof(name), fmt[i], pid);
		n += exists(name);
	}
	return n;
}

/* A child that waits to be killed. */
static pid_t sleeper(void)
{
	pid_t c = fork();

	ck_assert_int_ge(c, 0);
	if (c == 0) {
		pause();
		_exit(0);
	}
	return c;
}

START_TEST(test_sweep_removes_a_dead_runs_files_only)
{
	pid_t live = sleeper(), dead = sleeper();
	char name[64];
	int st;

	make_run(live);
	make_run(dead);
	ck_assert_int_eq(rundir_own(dir, live), 0);
	ck_assert_int_eq(rundir_own(dir, dead), 0);
	snprintf(name, sizeof(name), "records-%ld0.txt", (long)dead); /* another pid that begins like it */
	make(name, 0);
	make("device-rxe0.topo", 0); /* kept: what a --device run was given */
	kill(dead, SIGKILL);
	ck_assert_int_eq(waitpid(dead, &st, 0), dead);
	ck_assert_uint_eq(rundir_sweep(dir), 1);
	ck_assert_int_eq(run_files(dead), 0);
	snprintf(name, sizeof(name), "owner-%ld", (long)dead);
	ck_assert(!exists(name));
	ck_assert_int_eq(run_files(live), 7);
	snprintf(name, sizeof(name), "owner-%ld", (long)live);
	ck_assert(exists(name));
	snprintf(name, sizeof(name), "records-%ld0.txt", (long)dead);
	ck_assert(exists(name));
	ck_assert(exists("device-rxe0.topo"));
	kill(live, SIGKILL);
	waitpid(live, &st, 0);
}
END_TEST

/* owner-PID of another kernel (a guest's run), its mtime set to mtime (0: now). */
static void foreign_owner(long pid, time_t mtime)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/owner-%ld", dir, pid);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("rdmacheck-owner 00000000-0000-0000-0000-000000000000 12345\n", f);
	fclose(f);
	if (mtime)
		ck_assert_int_eq(utime(path, &(struct utimbuf){ mtime, mtime }), 0);
}

START_TEST(test_sweep_keeps_another_kernels_run_unless_older_than_this_boot)
{
	foreign_owner(4000001, 0);
	make_run(4000001);
	foreign_owner(4000002, 1); /* 1970: before this kernel booted */
	make_run(4000002);
	make_run(4000003); /* no owner: not known to be dead */
	make("owner-4000004", 0); /* an owner file that does not read: kept */
	make_run(4000004);
	ck_assert_uint_eq(rundir_sweep(dir), 1);
	ck_assert_int_eq(run_files(4000001), 7);
	ck_assert_int_eq(run_files(4000002), 0);
	ck_assert(!exists("owner-4000002"));
	ck_assert_int_eq(run_files(4000003), 7);
	ck_assert_int_eq(run_files(4000004), 7);
}
END_TEST

Suite *suite_test_rundir(void)
{
	Suite *s = suite_create("test_rundir");
	TCase *tc = tcase_create("rundir");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sweep_removes_a_dead_runs_files_only);
	tcase_add_test(tc, test_sweep_keeps_another_kernels_run_unless_older_than_this_boot);
	suite_add_tcase(s, tc);
	return s;
}

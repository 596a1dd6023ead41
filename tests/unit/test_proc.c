/*
 * Unit tests of the children's parent-death signal (harness/base/proc.h,
 * issue 29.6): a child that asked for it ends when the process that forked it
 * ends; one whose parent ended before it asked is told so (the signal would
 * never come); spawn_start's children ask for SIGTERM. The test's process is
 * a subreaper, so the orphaned children come back to it to be reaped.
 */
#define _GNU_SOURCE /* PR_SET_CHILD_SUBREAPER */
#include "harness/base/proc.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Fork a middle process that runs middle(fd) (it writes its child's pid to fd) and ends; that child's pid. */
static pid_t orphan_of(void (*middle)(int fd))
{
	int p[2], st;
	pid_t m, c = 0;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	ck_assert_int_eq(pipe(p), 0);
	m = fork();
	ck_assert_int_ge(m, 0);
	if (m == 0) {
		close(p[0]);
		middle(p[1]);
		_exit(0);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], &c, sizeof(c)), (int)sizeof(c));
	close(p[0]);
	ck_assert_int_eq(waitpid(m, &st, 0), m);
	return c;
}

/* The middle process: a child that asks for SIGKILL at its death and waits to be told it is armed. */
static void middle_armed(int fd)
{
	pid_t self = getpid(), c;
	int armed[2];
	char x;

	if (pipe(armed))
		_exit(1);
	if ((c = fork()) == 0) {
		if (proc_die_with(self, SIGKILL) != 0)
			_exit(1);
		if (write(armed[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(2);
	}
	if (read(armed[0], &x, 1) != 1 || write(fd, &c, sizeof(c)) != (ssize_t)sizeof(c))
		_exit(1);
}

START_TEST(test_die_with_parent_ends_with_it)
{
	pid_t c = orphan_of(middle_armed);
	int st;

	ck_assert_int_gt(c, 0);
	ck_assert_int_eq(waitpid(c, &st, 0), c);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
}
END_TEST

/* The middle process: a child that asks only once its parent has ended (exit 42: told -ESRCH). */
static void middle_gone(int fd)
{
	pid_t self = getpid(), c;

	if ((c = fork()) == 0) {
		for (int i = 0; i < 200 && getppid() == self; i++)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		_exit(proc_die_with(self, SIGKILL) == -ESRCH ? 42 : 1);
	}
	if (write(fd, &c, sizeof(c)) != (ssize_t)sizeof(c))
		_exit(1);
}

START_TEST(test_die_with_parent_gone_already)
{
	pid_t c = orphan_of(middle_gone);
	int st;

	ck_assert_int_gt(c, 0);
	ck_assert_int_eq(waitpid(c, &st, 0), c);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 42, "status %#x", st);
}
END_TEST

/* The middle process: spawn_start of a long sleep, then the end. */
static void middle_spawns(int fd)
{
	char *argv[] = { "/bin/sleep", "30", NULL };
	pid_t c = spawn_start(argv, 1);

	nanosleep(&(struct timespec){ 0, 100000000 }, NULL); /* the child has asked by then */
	if (c <= 0 || write(fd, &c, sizeof(c)) != (ssize_t)sizeof(c))
		_exit(1);
}

START_TEST(test_spawn_start_child_ends_with_parent)
{
	pid_t c = orphan_of(middle_spawns);
	int st;

	ck_assert_int_gt(c, 0);
	ck_assert_int_eq(waitpid(c, &st, 0), c);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %#x", st);
}
END_TEST

Suite *suite_test_proc(void)
{
	Suite *s = suite_create("test_proc");
	TCase *tc = tcase_create("proc");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_die_with_parent_ends_with_it);
	tcase_add_test(tc, test_die_with_parent_gone_already);
	tcase_add_test(tc, test_spawn_start_child_ends_with_parent);
	suite_add_tcase(s, tc);
	return s;
}

/* guard.c — the parent-death watch of a run (guard.h). */
#define _GNU_SOURCE /* setsid, close_range, kill */
#include "harness/base/guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GUARD_GROUPS_MAX 16 /* the rounds (a main one and its side rounds) or ci/vms: a few at a time */
#define GUARD_REAP_S 2      /* after SIGKILL, how long the guard waits for the groups to be gone */

static int guard_fd = -1; /* this process's end; the guard holds the other */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether group pgid has a process left that is not a zombie (an orphan's
 * zombie stays until whoever adopted it reaps it: not a process that runs).
 */
static int group_alive(pid_t pgid)
{
	char path[300], buf[512], *p, state;
	struct dirent *e;
	int alive = 0;
	long pg;
	DIR *d;

	if (kill(-pgid, 0) != 0 && errno != EPERM)
		return 0;
	if (!(d = opendir("/proc")))
		return 1;
	while (!alive && (e = readdir(d)) != NULL) {
		FILE *f;
		size_t len;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		/* "PID (NAME) STATE PPID PGRP ...": the name may hold blanks, the fields follow the last ')' */
		if ((p = strrchr(buf, ')')) && sscanf(p + 1, " %c %*d %ld", &state, &pg) == 2)
			alive = pg == (long)pgid && state != 'Z' && state != 'X';
	}
	closedir(d);
	return alive;
}

/* Whether any of the n groups has a process left. */
static int any_alive(const pid_t *groups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (group_alive(groups[i]))
			return 1;
	return 0;
}

/* Send sig (0: none) to the n groups, then wait up to secs for all of them to be gone. */
static void signal_groups(const pid_t *groups, size_t n, int sig, int secs)
{
	double end = now_s() + secs;

	for (size_t i = 0; sig && i < n; i++)
		kill(-groups[i], sig);
	while (any_alive(groups, n) && now_s() < end)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
}

/* One message of the run's: "+PGID" watch a group, "-PGID" no more, "q" the run ended well. */
static void guard_message(const char *m, pid_t *groups, size_t *n)
{
	char *end;
	long v = strtol(m + 1, &end, 10);
	size_t i;

	if (m[0] == 'q')
		_exit(0);
	if (*end || v <= 0)
		return;
	for (i = 0; i < *n && groups[i] != (pid_t)v; i++)
		;
	if (m[0] == '+' && i == *n && *n < GUARD_GROUPS_MAX)
		groups[(*n)++] = (pid_t)v;
	else if (m[0] == '-' && i < *n)
		groups[i] = groups[--*n];
}

/* The guard: read the run's messages until EOF (the run died), then stop its groups and clean up. */
static void guard_main(int fd, void (*cleanup)(void *), void *arg)
{
	pid_t groups[GUARD_GROUPS_MAX];
	size_t n = 0, len = 0;
	char buf[256], *nl;
	ssize_t r;

	for (;;) {
		r = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
		while ((nl = memchr(buf, '\n', len)) != NULL) {
			*nl = '\0';
			guard_message(buf, groups, &n);
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
		}
		if (len == sizeof(buf) - 1)
			len = 0; /* no line: not a message */
	}
	/*
	 * Their leaders had SIGTERM at the run's death (proc_die_with): what
	 * ends in order (ci/vm stops QEMU, a host's inner runner takes its
	 * topology down) is not hurried by a second one; what is left after
	 * the grace gets SIGKILL.
	 */
	signal_groups(groups, n, 0, GUARD_GRACE_S);
	if (any_alive(groups, n))
		signal_groups(groups, n, SIGKILL, GUARD_REAP_S);
	if (cleanup)
		cleanup(arg);
	_exit(0);
}

/* In the guard (a grandchild: init's child once its parent is reaped): a session of its own, fd 3 its end. */
static void guard_become(int end, void (*cleanup)(void *), void *arg)
{
	int null = open("/dev/null", O_RDWR);

	setsid(); /* neither the terminal's signals nor a kill of the run's group reach it */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_NAME, "rdmacheck-guard");
	/* hold none of the run's files (a pipe of its output, ci/vms's standard input): only its end */
	if (null < 0 || dup2(end, 3) < 0)
		_exit(1);
	for (int fd = 0; fd < 3; fd++)
		dup2(null, fd);
	if (close_range(4, ~0U, 0) != 0)
		for (int fd = 4; fd < 1024; fd++)
			close(fd);
	guard_main(3, cleanup, arg);
}

int guard_start(void (*cleanup)(void *), void *arg)
{
	int sv[2], st, rc;
	pid_t pid;

	if (guard_fd >= 0)
		return -EALREADY;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(sv[0]);
		close(sv[1]);
		return rc;
	}
	if (pid == 0) {
		pid_t g = fork();

		if (g != 0)
			_exit(g < 0 ? 1 : 0);
		guard_become(sv[1], cleanup, arg);
	}
	close(sv[1]);
	while ((rc = (int)waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (rc < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		close(sv[0]);
		return -ECHILD;
	}
	guard_fd = sv[0];
	return 0;
}

/* One message to the guard (a lost one: the guard is gone, nothing to tell). */
static void guard_say(const char *m)
{
	if (guard_fd >= 0 && send(guard_fd, m, strlen(m), MSG_NOSIGNAL) < 0)
		fprintf(stderr, "rdmacheck: the run's guard is gone: %s\n", strerror(errno));
}

void guard_group(pid_t pgid, int on)
{
	char m[32];

	snprintf(m, sizeof(m), "%c%ld\n", on ? '+' : '-', (long)pgid);
	guard_say(m);
}

void guard_end(void)
{
	guard_say("q\n");
	if (guard_fd >= 0)
		close(guard_fd);
	guard_fd = -1;
}

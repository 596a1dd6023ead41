/*
 * agent_rpmem_zygote.c — rpmem_serve's daemons forked by one rpmemd-zygote
 * per agent process (lib/rpmem/rpmem_int.h) instead of a fork of the agent
 * and an exec of rpmemd-rpma each (about 40 ms a daemon under TCG,
 * 2026-12-03). The zygote is started at the first serve and kept for the
 * agent's life (kept agents: every later scenario too); a session is the
 * zygote's child, so the agent holds it by a pidfd.
 */
#define _GNU_SOURCE
#include "harness/api/rpmem/api_rpmem.h"
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

static struct {
	pid_t pid;   /* the zygote, 0 none */
	int sock;    /* its socket */
	int missing; /* it could not be started (no rpmemd-zygote next to this program): not tried again */
} zy;

static void zygote_gone(void)
{
	close(zy.sock);
	kill(zy.pid, SIGKILL);
	while (waitpid(zy.pid, NULL, 0) < 0 && errno == EINTR)
		;
	zy.pid = 0;
}

int agent_rpmem_zygote_serve(const char *dir, int lfd, const char *key, int timeout_ms, const char *const *argv)
{
	char exe[PATH_MAX];
	pid_t pid;
	int fd;

	if (zy.missing)
		return -ENOENT;
	if (!zy.pid) {
		int rc;

		if ((size_t)snprintf(exe, sizeof(exe), "%s/rpmemd-zygote", dir) >= sizeof(exe))
			return -ENAMETOOLONG;
		if (access(exe, X_OK)) {
			zy.missing = 1;
			return -ENOENT;
		}
		if ((rc = rpmem_zygote_start(exe, &zy.pid, &zy.sock)) != 0)
			return rc;
	}
	pid = rpmem_zygote_serve(zy.sock, lfd, key, timeout_ms, argv);
	if (pid == -EPIPE)
		zygote_gone(); /* started again at the next serve */
	if (pid < 0)
		return pid;
	fd = pidfd_open(pid, 0);
	if (fd < 0) {
		int e = -errno;

		kill(pid, SIGKILL);
		return e;
	}
	return fd;
}

int agent_rpmem_session_ended(int pidfd, int kill_it)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	if (kill_it)
		pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	while (poll(&p, 1, kill_it ? -1 : 0) < 0 && errno == EINTR)
		;
	return p.revents != 0;
}

/*
 * zygote_main.c — rpmemd-zygote (rpmem_int.h): started once by a target's
 * side (rdmacheck's agent, rpmem_serve), it forks a daemon session per
 * request on its socket (fd RPMEM_ZYGOTE_FD) instead of an exec of
 * rpmemd-rpma each time. It loads the daemon's libraries once and touches no
 * RDMA device itself, so each session starts as an exec'd rpmemd would:
 * every device, connection and registration is the session's own.
 * Exit: 0 at EOF of its socket, 1 when it has none.
 */
#define _GNU_SOURCE
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* In a child of parent: die with it (SIGKILL); _exit when it is gone already. */
static void die_with(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
}

/* The session: the client with the key on lfd, then the daemon on its connection. Never returns. */
static void session(int lfd, const char *key, int timeout_ms, char **argv, int argc)
{
	int c = rpmem_key_accept(lfd, key, timeout_ms);

	close(lfd);
	if (c < 0) {
		fprintf(stderr, "rpmemd-zygote: no client with the key: %s\n", strerror(-c));
		_exit(1);
	}
	if (dup2(c, 0) < 0 || dup2(c, 1) < 0)
		_exit(1);
	close(c);
	exit(rpmemd_main(argc, argv));
}

/* One request from fd into data (NUL-terminated) and *lfd (-1 none): its length, 0 at EOF, -errno. */
static ssize_t take(int fd, char *data, size_t cap, int *lfd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = cap - 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	ssize_t n;

	*lfd = -1;
	do
		n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(lfd, CMSG_DATA(c), sizeof(int));
	data[n] = '\0';
	return n;
}

/* Pass data[0..n) and lfd on to fd (a spare's socket). 0 or -1. */
static int pass(int fd, const char *data, size_t n, int lfd)
{
	return rpmem_send_fd(fd, data, n, lfd) == (ssize_t)n ? 0 : -1;
}

/*
 * The words of a request data[0..n) (NUL-separated; data[n] a NUL): the key
 * (data itself), a timeout above 0 into *timeout_ms, then 1 to
 * RPMEM_ZYGOTE_ARGS_MAX words of the daemon's argv into argv (NULL-terminated).
 * Their count, or -1 when the request is not so.
 */
static int request_words(char *data, size_t n, int *timeout_ms, char **argv)
{
	char *at = data + strlen(data) + 1, *end = data + n;
	int argc = 0;

	if (at >= end || (*timeout_ms = atoi(at)) <= 0)
		return -1;
	for (at += strlen(at) + 1; at < end && argc < RPMEM_ZYGOTE_ARGS_MAX; at += strlen(at) + 1)
		argv[argc++] = at;
	argv[argc] = NULL;
	return argc >= 1 && at == end ? argc : -1;
}

/*
 * A spare: forked ahead of its request, so that a request costs two messages
 * and no fork while its client waits. It waits on sock for the request the
 * zygote passes on (fails when the zygote ends first) and becomes its session.
 */
static void spare(int sock, pid_t zygote)
{
	char data[4096], *argv[RPMEM_ZYGOTE_ARGS_MAX + 1];
	int lfd, argc, timeout_ms;
	ssize_t n;

	close(RPMEM_ZYGOTE_FD);
	die_with(zygote);
	n = take(sock, data, sizeof(data), &lfd);
	close(sock);
	if (n <= 0 || lfd < 0)
		_exit(0);
	if ((argc = request_words(data, (size_t)n, &timeout_ms, argv)) < 0)
		_exit(1); /* the zygote checked it: not reached */
	session(lfd, data, timeout_ms, argv, argc);
}

/* Fork the next spare: its pid, *sock the zygote's end of its socket; -1 when it cannot. */
static pid_t spare_new(int *sock, pid_t self)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		spare(sv[1], self);
	}
	close(sv[1]);
	if (pid < 0)
		close(sv[0]);
	*sock = sv[0];
	return pid;
}

/* A request's words well formed (request_words). */
static int well_formed(char *data, size_t n)
{
	char *argv[RPMEM_ZYGOTE_ARGS_MAX + 1];
	int timeout_ms;

	return request_words(data, n, &timeout_ms, argv) > 0;
}

int main(void)
{
	pid_t starter = getppid(), self = getpid(), next = -1;
	int next_sock = -1;

	if (fcntl(RPMEM_ZYGOTE_FD, F_GETFD) < 0) {
		fprintf(stderr, "rpmemd-zygote: no socket on fd %d (started by rdmacheck's agent only)\n", RPMEM_ZYGOTE_FD);
		return 1;
	}
	die_with(starter);
	for (;;) {
		char data[4096];
		int lfd;
		int32_t answer;
		ssize_t n;

		if (next < 0)
			next = spare_new(&next_sock, self);
		n = take(RPMEM_ZYGOTE_FD, data, sizeof(data), &lfd);
		if (n <= 0)
			return 0; /* the starter is gone (its spare goes with this process) */
		while (waitpid(-1, NULL, WNOHANG) > 0) /* the sessions that ended */
			;
		if (lfd < 0 || !well_formed(data, (size_t)n))
			answer = -EINVAL;
		else if (next < 0)
			answer = -EAGAIN;
		else if (pass(next_sock, data, (size_t)n, lfd))
			answer = -ECHILD; /* the spare died */
		else
			answer = (int32_t)next;
		if (answer != -EINVAL && next >= 0) { /* used, or dead: the next request gets a new one */
			close(next_sock);
			if (answer < 0)
				kill(next, SIGKILL);
			next = -1;
		}
		if (lfd >= 0)
			close(lfd);
		if (send(RPMEM_ZYGOTE_FD, &answer, sizeof(answer), MSG_NOSIGNAL) != (ssize_t)sizeof(answer))
			return 0;
	}
}

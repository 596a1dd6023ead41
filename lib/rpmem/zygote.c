/*
 * zygote.c — the starter's side of rpmemd-zygote (rpmem_int.h; the zygote
 * itself: zygote_main.c): start it once, then ask it for daemon sessions.
 */
#define _GNU_SOURCE /* SOCK_CLOEXEC for socketpair */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

extern char **environ;

int rpmem_zygote_start(const char *exe, pid_t *pid, int *sock)
{
	posix_spawn_file_actions_t fa;
	char *const argv[] = { (char *)exe, NULL };
	int sv[2], rc;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], RPMEM_ZYGOTE_FD);
	rc = posix_spawn(pid, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		return -rc;
	}
	*sock = sv[0];
	return 0;
}

ssize_t rpmem_send_fd(int sock, const void *data, size_t n, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = n };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	ssize_t r;

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	do
		r = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r;
}

pid_t rpmem_zygote_serve(int sock, int lfd, const char *key, int timeout_ms, const char *const *argv)
{
	char data[4096];
	size_t n = 0;
	int32_t pid;
	int argc = 0, len;
	ssize_t r;

	len = snprintf(data, sizeof(data), "%s%c%d", key, 0, timeout_ms);
	if (len < 0 || (size_t)len >= sizeof(data))
		return -EINVAL;
	n = (size_t)len + 1;
	for (; argv[argc]; argc++) {
		size_t l = strlen(argv[argc]) + 1;

		if (argc >= RPMEM_ZYGOTE_ARGS_MAX || n + l > sizeof(data))
			return -E2BIG;
		memcpy(data + n, argv[argc], l);
		n += l;
	}
	r = rpmem_send_fd(sock, data, n, lfd);
	if (r != (ssize_t)n)
		return r < 0 ? (errno == ECONNRESET ? -EPIPE : -errno) : -EPIPE;
	do
		r = recv(sock, &pid, sizeof(pid), 0);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof(pid))
		return r < 0 && errno != ECONNRESET ? -errno : -EPIPE;
	return pid;
}

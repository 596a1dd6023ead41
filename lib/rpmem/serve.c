/*
 * serve.c — the daemon's control channel over TCP, for a target on another
 * kernel whose daemon its own side starts (rdmacheck's node-per-VM mode: the
 * target's agent, agent_rpmem.c). It stands in for ssh: the target listens
 * on one port for one connection, which must first send a one-time key (a
 * line of hex) before the daemon is started on it; the client's command
 * (rpmem-connect, connect.c, given as RPMEM_CMD with RPMEM_SSH="") dials,
 * sends the key and relays librpmem's control channel both ways. No shell
 * anywhere: the daemon is exec'd as an argv by the side that owns it.
 */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

int rpmem_key_new(char *hex, size_t cap)
{
	unsigned char raw[RPMEM_KEY_BYTES];

	if (cap < 2 * sizeof(raw) + 1)
		return -EINVAL;
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -errno;
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

int rpmem_key_check(int fd, const char *want, int timeout_ms)
{
	char got[2 * RPMEM_KEY_BYTES + 2];
	size_t n = 0, wl = strlen(want);
	unsigned diff = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = poll(&p, 1, timeout_ms);
		char c;
		ssize_t r;

		if (rc == 0)
			return -ETIMEDOUT;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return -errno;
		r = read(fd, &c, 1); /* a byte at a time: what follows the key is the daemon's */
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EPROTO;
		if (c == '\n')
			break;
		if (n + 1 >= sizeof(got))
			return -EACCES;
		got[n++] = c;
	}
	if (n != wl)
		return -EACCES;
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned)(got[i] ^ want[i]);
	return diff ? -EACCES : 0;
}

int rpmem_dial(const char *host, const char *port, const char *key)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV }, *ai;
	size_t kl = strlen(key);
	int fd, rc;

	if (getaddrinfo(host, port, &hints, &ai))
		return -EINVAL;
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	rc = fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) ? -errno : 0;
	freeaddrinfo(ai);
	if (!rc && (write(fd, key, kl) != (ssize_t)kl || write(fd, "\n", 1) != 1))
		rc = -errno;
	if (rc && fd >= 0)
		close(fd);
	return rc ? rc : fd;
}

/* Copy what one read of from gives to to; 1 at EOF, 0, or -errno. */
static int pass(int from, int to)
{
	char buf[4096];
	ssize_t n = read(from, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 1;
	for (ssize_t at = 0; at < n;) {
		ssize_t w = write(to, buf + at, (size_t)(n - at));

		if (w < 0 && errno != EINTR)
			return -errno;
		at += w > 0 ? w : 0;
	}
	return 0;
}

int rpmem_relay(int in, int out, int sock)
{
	int in_open = 1;

	for (;;) {
		struct pollfd p[2] = { { .fd = sock, .events = POLLIN }, { .fd = in_open ? in : -1, .events = POLLIN } };
		int rc;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p[0].revents) {
			rc = pass(sock, out);
			if (rc)
				return rc < 0 ? rc : 0; /* the daemon's side ended */
		}
		if (in_open && p[1].revents) {
			rc = pass(in, sock);
			if (rc < 0)
				return rc;
			if (rc) { /* the client closed its channel: tell the daemon, wait for its end */
				shutdown(sock, SHUT_WR);
				in_open = 0;
			}
		}
	}
}

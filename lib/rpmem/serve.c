/*
 * serve.c — the daemon's control channel over TCP, for a target on another
 * kernel whose daemon its own side starts (rdmacheck's node-per-VM mode: the
 * target's agent, agent_rpmem.c). It stands in for ssh: the target listens
 * on one port for one connection, which must first send a one-time key (a
 * line of hex) before the daemon is started on it; the client's command
 * (rpmem-connect, connect.c, given as RPMEM_CMD with RPMEM_SSH="") dials,
 * sends the key and relays librpmem's control channel both ways. Strangers
 * that connect first, say nothing or bring a wrong key do not take the port
 * from the client: keys are read from many peers side by side
 * (rpmem_key_accept) until one brings the right one. No shell
 * anywhere: the daemon is exec'd as an argv by the side that owns it.
 */
#define _GNU_SOURCE /* accept4 */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
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

/* A key line being read (serve.c's own: fd -1 a free slot). */
struct key_peer {
	int fd;
	size_t n;
	char got[2 * RPMEM_KEY_BYTES + 2];
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * What p's peer has sent, a byte at a time (what follows the key is the
 * daemon's) and without waiting: -EAGAIN not a whole line yet, else what
 * rpmem_key_check returns.
 */
static int key_feed(struct key_peer *p, const char *want)
{
	size_t wl = strlen(want);
	unsigned diff = 0;

	for (;;) {
		char c;
		ssize_t r = recv(p->fd, &c, 1, MSG_DONTWAIT);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? -EAGAIN : -EPROTO;
		if (r == 0)
			return -EPROTO;
		if (c == '\n')
			break;
		if (p->n + 1 >= sizeof(p->got))
			return -EACCES;
		p->got[p->n++] = c;
	}
	if (p->n != wl)
		return -EACCES;
	for (size_t i = 0; i < p->n; i++)
		diff |= (unsigned)(p->got[i] ^ want[i]);
	return diff ? -EACCES : 0;
}

int rpmem_key_check(int fd, const char *want, int timeout_ms)
{
	struct key_peer p = { .fd = fd };
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - now_ms();
		int rc = key_feed(&p, want);

		if (rc != -EAGAIN)
			return rc;
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&pf, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
	}
}

/* Accept one connection on lfd into a free slot of peers, or the oldest one's (closed). */
static void key_take(int lfd, struct key_peer *peers, int64_t *since)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC), at = 0;

	if (fd < 0)
		return;
	for (int i = 0; i < RPMEM_KEY_PEERS_MAX; i++)
		if (peers[i].fd < 0 || (peers[at].fd >= 0 && since[i] < since[at]))
			at = i;
	if (peers[at].fd >= 0)
		close(peers[at].fd);
	peers[at] = (struct key_peer){ .fd = fd };
	since[at] = now_ms();
}

int rpmem_key_accept(int lfd, const char *want, int timeout_ms)
{
	struct key_peer peers[RPMEM_KEY_PEERS_MAX];
	int64_t since[RPMEM_KEY_PEERS_MAX], deadline = now_ms() + timeout_ms;
	int got = -ETIMEDOUT;

	for (int i = 0; i < RPMEM_KEY_PEERS_MAX; i++)
		peers[i].fd = -1;
	while (got == -ETIMEDOUT) {
		struct pollfd p[RPMEM_KEY_PEERS_MAX + 1] = { { .fd = lfd, .events = POLLIN } };
		int64_t left = deadline - now_ms();

		if (left <= 0)
			break;
		for (int i = 0; i < RPMEM_KEY_PEERS_MAX; i++)
			p[i + 1] = (struct pollfd){ .fd = peers[i].fd, .events = POLLIN };
		if (poll(p, RPMEM_KEY_PEERS_MAX + 1, (int)left) < 0) {
			if (errno == EINTR)
				continue;
			got = -errno;
			break;
		}
		for (int i = 0; i < RPMEM_KEY_PEERS_MAX && got == -ETIMEDOUT; i++) {
			int rc;

			if (p[i + 1].fd < 0 || !p[i + 1].revents || (rc = key_feed(&peers[i], want)) == -EAGAIN)
				continue;
			if (rc == 0)
				got = peers[i].fd; /* the one with the key */
			else
				close(peers[i].fd);
			peers[i].fd = -1;
		}
		if (got == -ETIMEDOUT && p[0].revents)
			key_take(lfd, peers, since);
	}
	for (int i = 0; i < RPMEM_KEY_PEERS_MAX; i++)
		if (peers[i].fd >= 0)
			close(peers[i].fd);
	return got;
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

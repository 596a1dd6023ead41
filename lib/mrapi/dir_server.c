/*
 * dir_server.c — the directory service (protocol and limits in dir.h):
 * spawning it as a process of its own, and its single-threaded poll loop
 * over non-blocking connections, each with a bounded input line, a bounded
 * queue of replies and its deadlines, so that a slow or hostile peer stalls
 * only itself. The requests are dir_requests.c's. The loop runs in a forked
 * child of a node: static storage and system calls, no stdio; the only
 * library calls are the MACs of dir_auth.c (see there).
 */
#define _GNU_SOURCE /* accept4 */
#include "lib/mrapi/dir_serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FIRST_NODE_MS 10000 /* a service no node ever reaches ends after this */
#define ACCEPTS_PER_ROUND 16
#define POLL_MS 100

struct conn cl[DIR_SLOTS];

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Connection c ends: its node's segments and attachments go with it. */
static void drop(int c)
{
	req_gone(c);
	close(cl[c].fd);
	cl[c].fd = -1;
	cl[c].member = 0;
}

void conn_reply(int c, const struct wline *w)
{
	struct conn *k = &cl[c];

	if (w->len > sizeof(k->out) - k->outlen) {
		k->closing = 1; /* cannot happen (input waits for room); if it did, the peer goes */
		return;
	}
	if (k->outlen == 0)
		k->out_since = now_ms();
	memcpy(k->out + k->outlen, w->buf, w->len);
	k->outlen += w->len;
}

void conn_reply_str(int c, const char *a, const char *b)
{
	struct wline w;

	wl_init(&w);
	wl_str(&w, a);
	if (b)
		wl_str(&w, b);
	wl_end(&w);
	conn_reply(c, &w);
}

/* Send what the socket takes of c's queue. A send error drops c. */
static void flush(int c)
{
	struct conn *k = &cl[c];

	while (k->outlen) {
		ssize_t n = send(k->fd, k->out, k->outlen, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			drop(c);
			return;
		}
		memmove(k->out, k->out + n, k->outlen - (size_t)n);
		k->outlen -= (size_t)n;
		k->out_since = now_ms();
	}
}

/* Room for one more reply: c's input may be handled (and read). */
static int has_room(int c)
{
	return !cl[c].closing && cl[c].outlen + DIR_LINE <= sizeof(cl[c].out);
}

/* Handle the complete lines in c's input while its queue has room. */
static void handle_lines(int c, const struct dir_keys *keys)
{
	struct conn *k = &cl[c];
	char *nl;

	while (k->fd >= 0 && has_room(c) && (nl = memchr(k->in, '\n', k->inlen))) {
		size_t used = (size_t)(nl - k->in) + 1;

		*nl = '\0';
		req_line(c, k->in, keys);
		memmove(k->in, k->in + used, k->inlen - used);
		k->inlen -= used;
		k->line_since = now_ms(); /* the next message's time starts */
	}
}

/* Read what c sent. End of stream, an error or a line too long drops c. */
static void on_input(int c)
{
	struct conn *k = &cl[c];
	size_t room = sizeof(k->in) - 1 - k->inlen;
	ssize_t n;

	if (room == 0)
		return;
	n = recv(k->fd, k->in + k->inlen, room, MSG_DONTWAIT);
	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		drop(c);
		return;
	}
	if (k->inlen == 0)
		k->line_since = now_ms();
	k->inlen += (size_t)n;
	k->in[k->inlen] = '\0';
	if (k->inlen == sizeof(k->in) - 1 && !memchr(k->in, '\n', k->inlen))
		drop(c); /* over-long: the protocol's lines are shorter */
}

/* Drop c if one of its deadlines passed (dir.h) or its refusal is out. */
static void check_deadlines(int c, int64_t now)
{
	const struct conn *k = &cl[c];

	if ((!k->member && now - k->since > DIR_HELLO_MS) ||
	    (k->outlen && now - k->out_since > DIR_WRITE_MS) ||
	    (k->inlen && !memchr(k->in, '\n', k->inlen) && now - k->line_since > DIR_MSG_MS) ||
	    (k->closing && !k->outlen))
		drop(c);
}

/* A slot for a new connection: a free one, else the oldest not yet HELLO'd is closed for it. */
static int slot_for_new(void)
{
	int pending = 0, oldest = -1, free_slot = -1;

	for (int c = 0; c < DIR_SLOTS; c++) {
		if (cl[c].fd < 0) {
			if (free_slot < 0)
				free_slot = c;
		} else if (!cl[c].member) {
			pending++;
			if (oldest < 0 || cl[c].since < cl[oldest].since)
				oldest = c;
		}
	}
	if (free_slot >= 0 && pending < DIR_MAX_PENDING)
		return free_slot;
	if (oldest >= 0)
		drop(oldest);
	return oldest >= 0 ? oldest : free_slot;
}

/* Take the waiting connections: a slot each and the greeting with a fresh nonce. */
static void on_accept(int lfd)
{
	for (int i = 0; i < ACCEPTS_PER_ROUND; i++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC), one = 1, c;
		struct wline w;

		if (fd < 0)
			return;
		if ((c = slot_for_new()) < 0) {
			close(fd); /* DIR_SLOTS members: cannot happen (members <= DIR_MAX_NODES) */
			continue;
		}
		cl[c] = (struct conn){ .fd = fd, .since = now_ms() };
		if (dir_nonce(cl[c].nonce)) {
			close(fd);
			cl[c].fd = -1;
			continue;
		}
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		wl_init(&w);
		wl_str(&w, "DIR 1");
		wl_str(&w, cl[c].nonce);
		wl_end(&w);
		conn_reply(c, &w);
		flush(c);
	}
}

/* The poll set: the listener, then every connection with what it waits for. */
static int poll_set(int lfd, struct pollfd *pf, int *map)
{
	int n = 0;

	pf[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
	map[n++] = -1;
	for (int c = 0; c < DIR_SLOTS; c++)
		if (cl[c].fd >= 0) {
			short ev = (short)((has_room(c) ? POLLIN : 0) | (cl[c].outlen ? POLLOUT : 0));

			pf[n] = (struct pollfd){ .fd = cl[c].fd, .events = ev };
			map[n++] = c;
		}
	return n;
}

void dir_serve(int lfd, const struct dir_keys *keys)
{
	struct pollfd pf[DIR_SLOTS + 1];
	int map[DIR_SLOTS + 1];
	int64_t idle_since = now_ms(), limit = FIRST_NODE_MS;
	int fl = fcntl(lfd, F_GETFL);

	if (fl < 0 || fcntl(lfd, F_SETFL, fl | O_NONBLOCK) < 0)
		_exit(1);
	for (int c = 0; c < DIR_SLOTS; c++)
		cl[c].fd = -1;
	for (;;) {
		int n = poll_set(lfd, pf, map), any = 0;
		int64_t now;

		if (n == 1 && now_ms() - idle_since > limit)
			_exit(0);
		if (poll(pf, (nfds_t)n, POLL_MS) < 0 && errno != EINTR)
			_exit(1);
		for (int i = 1; i < n; i++) {
			int c = map[i];

			if (cl[c].fd >= 0 && (pf[i].revents & POLLOUT))
				flush(c);
			if (cl[c].fd >= 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR))) {
				if (has_room(c))
					on_input(c);
				else if (pf[i].revents & (POLLHUP | POLLERR))
					drop(c);
			}
		}
		now = now_ms();
		for (int c = 0; c < DIR_SLOTS; c++) {
			if (cl[c].fd < 0)
				continue;
			handle_lines(c, keys);
			if (cl[c].fd >= 0 && cl[c].outlen)
				flush(c);
			if (cl[c].fd >= 0)
				check_deadlines(c, now);
			any |= cl[c].fd >= 0;
		}
		if (pf[0].revents & POLLIN)
			on_accept(lfd);
		if (any) {
			idle_since = now_ms();
			limit = DIR_LINGER_MS;
		}
	}
}

static int listen_on(const char *host, unsigned port, int *lfd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd, one = 1, rc;

	if (port == 0 || port > 65535 || inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		goto fail;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 128) < 0)
		goto fail;
	*lfd = fd;
	return 0;
fail:
	rc = -errno;
	close(fd);
	return rc;
}

int dir_spawn(const char *host, unsigned port, const struct dir_keys *keys)
{
	int lfd = -1, rc = listen_on(host, port, &lfd), st;
	pid_t pid;

	if (rc)
		return rc;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(lfd);
		return rc;
	}
	if (pid == 0) {
		/* the intermediate child: the service must not be our caller's child */
		if (fork() != 0)
			_exit(0);
		int null = open("/dev/null", O_RDWR);

		setsid();
		/* hold none of the node's files: not its sockets, not the pipes its stdio may be */
		for (int fd = 0; fd < 3 && null >= 0; fd++)
			dup2(null, fd);
		for (int fd = 3; fd < 1024; fd++)
			if (fd != lfd)
				close(fd);
		dir_serve(lfd, keys);
	}
	close(lfd);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

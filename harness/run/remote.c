/* remote.c — the agents' network transport and its handshake (remote.h). */
#define _GNU_SOURCE /* NI_MAXHOST */
#include "harness/run/remote.h"
#include "harness/run/proto.h"
#include "lib/common/hex.h"
#include "lib/common/secret_file.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define NONCE_BYTES 32
#define HEX_MAX REMOTE_HEX_MAX

int remote_key_read(const char *path, struct remote_key *key, char *err, size_t errlen)
{
	char buf[REMOTE_KEY_MAX + 3]; /* the secret, a CRLF and the NUL */
	size_t n;
	int rc = secret_file_read(path, "the token file", buf, sizeof(buf), &n, err, errlen);

	while (!rc && n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	if (!rc && (n < REMOTE_KEY_MIN || n > REMOTE_KEY_MAX)) {
		snprintf(err, errlen, "%s: the token must be %d to %d bytes (it has %zu)", path, REMOTE_KEY_MIN,
			 REMOTE_KEY_MAX, n);
		rc = -EINVAL;
	}
	if (!rc) {
		memcpy(key->k, buf, n);
		key->len = n;
	}
	OPENSSL_cleanse(buf, sizeof(buf));
	return rc;
}

/* The reason into buf; returns rc (so a failure is said and returned in one statement). */
static int said(char *buf, size_t len, int rc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int said(char *buf, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return rc;
}

static int nonce(char out[HEX_MAX])
{
	return hex_random(NONCE_BYTES, out);
}

/* MAC(key, role " " n1 " " n2) in hex. 0 or -EIO. */
static int mac(const struct remote_key *key, const char *role, const char *n1, const char *n2, char out[HEX_MAX])
{
	char msg[3 * HEX_MAX + 32];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	int n = snprintf(msg, sizeof(msg), "%s %s %s", role, n1, n2);

	if (n < 0 || (size_t)n >= sizeof(msg) ||
	    !HMAC(EVP_sha256(), key->k, (int)key->len, (const unsigned char *)msg, (size_t)n, md, &mdlen) ||
	    mdlen * 2 >= HEX_MAX)
		return -EIO;
	hex_encode(md, mdlen, out);
	return 0;
}

/* Equal hex strings, in time that does not depend on where they differ. */
static int same(const char *a, const char *b)
{
	size_t n = strlen(a);

	return n == strlen(b) && CRYPTO_memcmp(a, b, n) == 0;
}

/*
 * Bytes of fd into buf (h->k of them there already) up to a newline, a byte
 * at a time so nothing past it is consumed (the agent's greeting that follows
 * the handshake is left for the line protocol's buffered reader, proto_recv),
 * without waiting for more than is there. 0: the line is whole (its newline
 * replaced by a NUL); -EAGAIN: not yet; -ECONNRESET, -EPROTO (too long), -errno.
 */
static int line_feed(int fd, char *buf, size_t len, size_t *k)
{
	for (;;) {
		char c;
		ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? -EAGAIN : -errno;
		if (n == 0)
			return -ECONNRESET;
		if (c == '\n') {
			buf[*k] = '\0';
			return 0;
		}
		if (*k + 1 >= len)
			return -EPROTO;
		buf[(*k)++] = c;
	}
}

/* One line (without its newline) before deadline (proto_now_ms' clock): line_feed until it is whole. */
static int line_in(int fd, char *buf, size_t len, int64_t deadline)
{
	size_t k = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - proto_now_ms();
		int r = line_feed(fd, buf, len, &k);

		if (r != -EAGAIN)
			return r;
		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

int remote_hs_begin(struct remote_hs *h, int fd, char *why, size_t len)
{
	int rc;

	memset(h, 0, sizeof(*h));
	h->fd = fd;
	h->deadline = proto_now_ms() + REMOTE_HANDSHAKE_MS;
	if (nonce(h->na))
		return said(why, len, -EIO, "no random bytes for a nonce");
	if ((rc = proto_send(fd, "rdmacheck-agent 1 %s", h->na)) != 0)
		return said(why, len, rc, "the peer went away: %s", strerror(-rc));
	return 0;
}

int remote_hs_step(struct remote_hs *h, const struct remote_key *key, char *why, size_t len)
{
	char nc[HEX_MAX], got[HEX_MAX], want[HEX_MAX];
	int rc = line_feed(h->fd, h->line, sizeof(h->line), &h->k);

	if (rc == -EAGAIN && proto_now_ms() >= h->deadline)
		rc = -ETIMEDOUT;
	if (rc == -EAGAIN)
		return rc;
	if (rc)
		return said(why, len, rc, "%s", rc == -ETIMEDOUT ? "no handshake within the time allowed" :
					     rc == -EPROTO ? "a handshake line too long" : "the peer went away");
	if (sscanf(h->line, "auth %128s %128s", nc, got) != 2 || strlen(nc) != 2 * NONCE_BYTES)
		return said(why, len, -EACCES, "no proof of the run's secret (not an rdmacheck coordinator?)");
	if (mac(key, "coordinator", h->na, nc, want))
		return said(why, len, -EIO, "HMAC failed");
	if (!same(got, want))
		return said(why, len, -EACCES, "wrong secret");
	if (mac(key, "agent", nc, h->na, want))
		return said(why, len, -EIO, "HMAC failed");
	rc = proto_send(h->fd, "ok %s", want);
	return rc ? said(why, len, rc, "the peer went away") : 0;
}

int remote_accept(int fd, const struct remote_key *key, char *why, size_t len)
{
	struct remote_hs h;
	int rc = remote_hs_begin(&h, fd, why, len);

	if (rc)
		return rc;
	while ((rc = remote_hs_step(&h, key, why, len)) == -EAGAIN) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = h.deadline - proto_now_ms();

		poll(&p, 1, left > 0 ? (int)left : 0);
	}
	return rc;
}

int remote_offer(int fd, const struct remote_key *key, char *err, size_t errlen)
{
	char na[HEX_MAX], nc[HEX_MAX], got[HEX_MAX], want[HEX_MAX], line[REMOTE_LINE_MAX];
	int64_t deadline = proto_now_ms() + REMOTE_HANDSHAKE_MS; /* the whole handshake's */
	int rc = line_in(fd, line, sizeof(line), deadline);

	if (rc)
		return said(err, errlen, rc, "no greeting from the agent: %s", strerror(-rc));
	if (sscanf(line, "rdmacheck-agent 1 %128s", na) != 1 || strlen(na) != 2 * NONCE_BYTES)
		return said(err, errlen, -EPROTO, "not an rdmacheck agent (it said '%.60s')", line);
	if (nonce(nc) || mac(key, "coordinator", na, nc, want))
		return said(err, errlen, -EIO, "no random bytes or HMAC failed");
	if ((rc = proto_send(fd, "auth %s %s", nc, want)) != 0 || (rc = line_in(fd, line, sizeof(line), deadline)) != 0)
		return said(err, errlen, -EACCES, "the agent refused us (wrong secret?): %s", strerror(-rc));
	if (sscanf(line, "ok %128s", got) != 1 || mac(key, "agent", nc, na, want) || !same(got, want))
		return said(err, errlen, -EACCES, "the agent could not prove it holds the secret");
	return 0;
}

int remote_split(const char *hostport, char *host, size_t hostlen, char *port, size_t portlen)
{
	const char *colon = strrchr(hostport, ':'), *h = hostport;
	size_t hl;

	if (!colon || !colon[1] || strlen(colon + 1) >= portlen)
		return -EINVAL;
	hl = (size_t)(colon - hostport);
	if (*h == '[') { /* [V6]:PORT */
		if (hl < 2 || h[hl - 1] != ']')
			return -EINVAL;
		h++;
		hl -= 2;
	}
	if (hl == 0 || hl >= hostlen)
		return -EINVAL;
	memcpy(host, h, hl);
	host[hl] = '\0';
	strcpy(port, colon + 1);
	return 0;
}

/* A TCP connection to host:port within ms. fd or -errno. */
void remote_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)); /* not on a socketpair: harmless */
}

static int tcp_connect(const char *host, const char *port, int ms, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL, *a;
	int rc = getaddrinfo(host, port, &hints, &ai), fd = -1;

	if (rc)
		return said(err, errlen, -EHOSTUNREACH, "cannot resolve %s: %s", host, gai_strerror(rc));
	rc = -ECONNREFUSED;
	for (a = ai; a && fd < 0; a = a->ai_next) {
		struct pollfd p;
		int e = 0;
		socklen_t el = sizeof(e);

		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
		if (fd < 0) {
			rc = -errno;
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS)
			e = errno;
		p = (struct pollfd){ .fd = fd, .events = POLLOUT };
		if (!e && poll(&p, 1, ms) != 1)
			e = ETIMEDOUT;
		if (!e && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el))
			e = errno;
		if (e) {
			rc = -e;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return said(err, errlen, rc, "cannot connect to %s:%s: %s", host, port, strerror(-rc));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	remote_nodelay(fd);
	return fd;
}

int remote_dial(const char *hostport, const struct remote_key *key, int timeout_ms, char *err, size_t errlen)
{
	char host[NI_MAXHOST], port[16];
	int fd, rc;

	if (remote_split(hostport, host, sizeof(host), port, sizeof(port)))
		return said(err, errlen, -EINVAL, "'%s' is not HOST:PORT", hostport);
	fd = tcp_connect(host, port, timeout_ms, err, errlen);
	if (fd < 0)
		return fd;
	rc = remote_offer(fd, key, err, errlen);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

int remote_listen(const char *hostport, int backlog, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *ai = NULL;
	char host[NI_MAXHOST], port[16];
	int fd, one = 1, rc;

	if (remote_split(hostport, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, errlen, "--listen takes HOST:PORT, not '%s'", hostport);
		return -EINVAL;
	}
	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "cannot listen on %s: %s", hostport, gai_strerror(rc));
		return -EINVAL;
	}
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) || bind(fd, ai->ai_addr, ai->ai_addrlen) ||
	    listen(fd, backlog)) {
		rc = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", hostport, strerror(-rc));
		if (fd >= 0)
			close(fd);
		fd = rc;
	}
	freeaddrinfo(ai);
	return fd;
}

/*
 * dir_client.c — a node's side of the directory (protocol in dir.h): reach
 * it (start it when nothing listens), authenticate with the keyring
 * MRAPI_RDMA_KEYS names (and make the service prove it holds the domain's
 * secret too), then one request line, one reply line, with a timeout on both.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/dir.h"
#include "lib/mrapi/mrapi.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define SPAWN_TRIES 50
#define RETRY_NS 20000000L /* 20 ms between connection attempts */

static int connect_once(const char *host, unsigned port, unsigned timeout_ms, int *out)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000 };
	int fd, one = 1, rc;

	if (port == 0 || port > 65535 || inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

/* Connect; when nothing listens, start the service (or lose the race to another node) and retry. */
static int reach(const char *host, unsigned port, unsigned timeout_ms, const struct dir_keys *keys, int *fd)
{
	int rc = -ECONNREFUSED;

	for (int i = 0; i < SPAWN_TRIES; i++) {
		rc = connect_once(host, port, timeout_ms, fd);
		if (rc != -ECONNREFUSED)
			return rc;
		rc = dir_spawn(host, port, keys);
		if (rc && rc != -EADDRINUSE)
			return rc;
		if (rc == -EADDRINUSE)
			nanosleep(&(struct timespec){ 0, RETRY_NS }, NULL);
	}
	return -ECONNREFUSED;
}

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * One line (without '\n') into reply, read byte-wise so that nothing past
 * it is consumed, within the socket's receive timeout (dir_open's) for the
 * whole line, not per byte. 0 or -errno.
 */
static int line_in(int fd, char *reply, size_t len)
{
	struct timeval tv;
	socklen_t tvlen = sizeof(tv);
	int64_t end;
	size_t got = 0;

	if (getsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, &tvlen) < 0)
		return -errno;
	end = now_ms() + (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = end - now_ms();
		ssize_t n;
		char c;
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		if ((r = poll(&p, 1, (int)left)) < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? -ETIMEDOUT : -errno;
		n = recv(fd, &c, 1, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (n <= 0)
			return -ECONNRESET;
		if (c == '\n')
			break;
		if (got + 1 >= len)
			return -EPROTO;
		reply[got++] = c;
	}
	reply[got] = '\0';
	return 0;
}

int dir_call(int fd, const struct wline *req, char *reply, size_t len)
{
	size_t off = 0;

	if (req->over || len < 2)
		return -EINVAL;
	while (off < req->len) {
		ssize_t n = send(fd, req->buf + off, req->len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? -ETIMEDOUT : -ECONNRESET;
		off += (size_t)n;
	}
	/* the reply is one line and nothing follows it unasked */
	return line_in(fd, reply, len);
}

static const struct { const char *err; int status; } errs[] = {
	{ "EXISTS", MRAPI_ERR_RMEM_EXISTS }, { "MEM_LIMIT", MRAPI_ERR_MEM_LIMIT },
	{ "ID_INVALID", MRAPI_ERR_RMEM_ID_INVALID }, { "INVALID", MRAPI_ERR_RMEM_INVALID },
	{ "ATTACHED", MRAPI_ERR_RMEM_ATTACHED }, { "NOTATTACHED", MRAPI_ERR_RMEM_NOTATTACHED },
	{ "NOTOWNER", MRAPI_ERR_RMEM_NOTOWNER }, { "ATTACH", MRAPI_ERR_RMEM_ATTACH },
	{ "NODE_INITIALIZED", MRAPI_ERR_NODE_INITIALIZED }, { "NOTSHARED", MRAPI_ERR_DOMAIN_NOTSHARED },
};

int dir_status(const char *reply)
{
	if (strncmp(reply, "OK", 2) == 0 && (reply[2] == '\0' || reply[2] == ' '))
		return MRAPI_SUCCESS;
	if (strncmp(reply, "ERR ", 4) == 0)
		for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
			if (strcmp(reply + 4, errs[i].err) == 0)
				return errs[i].status;
	return -EPROTO;
}

/* The keyring MRAPI_RDMA_KEYS names into *keys (n = 0 when unset). A bad one is said on stderr. */
static int keys_from_env(struct dir_keys *keys)
{
	const char *path = getenv("MRAPI_RDMA_KEYS");
	char err[256];
	int rc;

	keys->n = 0;
	if (!path || !*path)
		return 0;
	if ((rc = dir_keys_load(path, keys, err, sizeof(err))))
		fprintf(stderr, "libmrapi-rdma: MRAPI_RDMA_KEYS: %s\n", err);
	return rc ? -EINVAL : 0;
}

/*
 * The handshake on a fresh connection: the greeting's nonce, HELLO with our
 * proof (k: NULL when open), the service's proof checked. 0, -EEXIST,
 * -EACCES or another negative errno.
 */
static int hello(int fd, const struct dir_key *k, uint32_t domain, uint32_t node)
{
	char line[DIR_LINE], ns[DIR_HEX], nc[DIR_HEX], mac[DIR_HEX], *argv[4];
	struct wline w;
	int rc, st, argc;

	if ((rc = line_in(fd, line, sizeof(line))))
		return rc;
	if (wl_split(line, argv, 4) != 3 || strcmp(argv[0], "DIR") || strcmp(argv[1], "1") ||
	    strlen(argv[2]) != DIR_HEX - 1)
		return -EPROTO;
	memcpy(ns, argv[2], DIR_HEX);
	wl_init(&w);
	wl_str(&w, "HELLO");
	wl_u64(&w, domain);
	wl_u64(&w, node);
	if (k) {
		if (dir_nonce(nc) || dir_mac(k, "node", domain, node, ns, nc, mac))
			return -EIO;
		wl_str(&w, nc);
		wl_str(&w, mac);
	}
	wl_end(&w);
	if (k && dir_mac(k, "dir", domain, node, nc, ns, mac))
		return -EIO; /* the proof the service must answer with */
	if ((rc = dir_call(fd, &w, line, sizeof(line))))
		return rc;
	if ((st = dir_status(line)) == MRAPI_ERR_NODE_INITIALIZED)
		return -EEXIST;
	if (st != MRAPI_SUCCESS)
		return strcmp(line, "ERR AUTH") == 0 ? -EACCES : -EPROTO;
	argc = wl_split(line, argv, 3);
	if (k ? argc != 2 || !dir_mac_same(argv[1], mac) : argc != 1)
		return -EACCES; /* not the domain's directory (or one that is open while we are not) */
	return 0;
}

int dir_open(const char *host, unsigned port, uint32_t domain, uint32_t node, unsigned timeout_ms, int *fd)
{
	struct dir_keys keys;
	const struct dir_key *k = NULL;
	int rc = keys_from_env(&keys);

	if (rc)
		return rc;
	if (keys.n && !(k = dir_key_of(&keys, domain))) {
		fprintf(stderr, "libmrapi-rdma: MRAPI_RDMA_KEYS: no secret for domain %u\n", (unsigned)domain);
		rc = -EACCES;
	}
	if (!rc && !(rc = reach(host, port, timeout_ms, &keys, fd)) && (rc = hello(*fd, k, domain, node))) {
		close(*fd);
		*fd = -1;
	}
	dir_keys_free(&keys);
	return rc;
}

/* Numbers of a reply's fields argv[first..first+n). */
static int reply_nums(char **argv, int first, int n, uint64_t *v)
{
	for (int i = 0; i < n; i++)
		if (wl_u64_parse(argv[first + i], &v[i]))
			return -EPROTO;
	return 0;
}

/* Returns MRAPI_SUCCESS, an MRAPI_ERR_* (> 0) or a negative errno (the directory is unreachable). */
int dir_create(int fd, uint32_t id, uint32_t atype, int shared, uint64_t addr, uint64_t size, uint32_t rkey,
	       unsigned port, const char *ip, uint32_t *id_out, uint32_t *gen)
{
	char reply[DIR_LINE], *argv[4];
	uint64_t v[2];
	struct wline w;
	int rc, st;

	wl_init(&w);
	wl_str(&w, "CREATE");
	if (id == MRAPI_RMEM_ID_ANY)
		wl_str(&w, "ANY");
	else
		wl_u64(&w, id);
	wl_u64(&w, atype);
	wl_u64(&w, (uint64_t)!!shared);
	wl_u64(&w, addr);
	wl_u64(&w, size);
	wl_u64(&w, rkey);
	wl_u64(&w, port);
	wl_str(&w, ip);
	wl_end(&w);
	if ((rc = dir_call(fd, &w, reply, sizeof(reply))))
		return rc;
	if ((st = dir_status(reply)) != MRAPI_SUCCESS)
		return st;
	if (wl_split(reply, argv, 4) != 3 || reply_nums(argv, 1, 2, v) || v[0] > UINT32_MAX || v[1] > UINT32_MAX)
		return -EPROTO;
	*id_out = (uint32_t)v[0];
	*gen = (uint32_t)v[1];
	return MRAPI_SUCCESS;
}

int dir_get(int fd, uint32_t id, struct dir_seg *out)
{
	char reply[DIR_LINE], *argv[12];
	uint64_t v[9];
	struct wline w;
	int rc, st;

	wl_init(&w);
	wl_str(&w, "GET");
	wl_u64(&w, id);
	wl_end(&w);
	if ((rc = dir_call(fd, &w, reply, sizeof(reply))))
		return rc;
	if ((st = dir_status(reply)) != MRAPI_SUCCESS)
		return st;
	if (wl_split(reply, argv, 12) != 11 || reply_nums(argv, 1, 9, v) || strlen(argv[10]) >= sizeof(out->ip))
		return -EPROTO;
	*out = (struct dir_seg){ .id = (uint32_t)v[0], .gen = (uint32_t)v[1], .atype = (uint32_t)v[2],
				 .shared = (uint32_t)v[3], .domain = (uint32_t)v[4], .addr = v[5], .size = v[6],
				 .rkey = (uint32_t)v[7], .port = (uint32_t)v[8] };
	memcpy(out->ip, argv[10], strlen(argv[10]) + 1);
	return MRAPI_SUCCESS;
}

int dir_op(int fd, const char *verb, uint32_t id, uint32_t gen)
{
	char reply[DIR_LINE];
	struct wline w;
	int rc;

	wl_init(&w);
	wl_str(&w, verb);
	wl_u64(&w, id);
	wl_u64(&w, gen);
	wl_end(&w);
	if ((rc = dir_call(fd, &w, reply, sizeof(reply))))
		return rc;
	return dir_status(reply);
}

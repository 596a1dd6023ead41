/*
 * dir_server.c — the directory service (protocol in dir.h): spawning it as a
 * process of its own, and its single-threaded poll loop. The loop runs in a
 * forked child of a node, so it uses only async-signal-safe calls and static
 * storage (no malloc, no stdio).
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/dir.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FIRST_NODE_MS 10000 /* a service no node ever reaches ends after this */

struct client {
	int fd;             /* -1: free slot */
	int hello;          /* HELLO accepted: domain, node are this node's */
	uint32_t domain, node;
	size_t inlen;
	char in[DIR_LINE];
};

struct seg {
	int live;
	int owner;          /* client slot */
	uint32_t id, gen, atype, shared, domain, rkey, port;
	uint64_t addr, size;
	uint32_t attached;  /* bit c: client slot c attached */
	char ip[48];
};

static struct client cl[DIR_MAX_NODES];
static struct seg sg[DIR_MAX_SEGS];
static uint32_t next_gen = 1, next_any = DIR_ANY_FIRST;

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void reply(int c, const struct wline *w)
{
	size_t off = 0;

	while (off < w->len) {
		ssize_t n = send(cl[c].fd, w->buf + off, w->len - off, MSG_NOSIGNAL);

		if (n <= 0 && errno != EINTR)
			return; /* the node is gone: its close is seen by poll */
		if (n > 0)
			off += (size_t)n;
	}
}

static void reply_str(int c, const char *a, const char *b)
{
	struct wline w;

	wl_init(&w);
	wl_str(&w, a);
	if (b)
		wl_str(&w, b);
	wl_end(&w);
	reply(c, &w);
}

/* The live segment (id, gen) or with id (gen 0: any), or -1. */
static int find(uint32_t id, uint32_t gen)
{
	for (int s = 0; s < DIR_MAX_SEGS; s++)
		if (sg[s].live && sg[s].id == id && (!gen || sg[s].gen == gen))
			return s;
	return -1;
}

static int ip_ok(const char *ip)
{
	size_t n = 0;

	for (; ip[n]; n++)
		if (!((ip[n] >= '0' && ip[n] <= '9') || ip[n] == '.' || ip[n] == ':' ||
		      (ip[n] >= 'a' && ip[n] <= 'f') || (ip[n] >= 'A' && ip[n] <= 'F')))
			return 0;
	return n > 0 && n < sizeof(sg[0].ip);
}

/* CREATE's numbers argv[first..first+n): atype shared addr size rkey port. */
static int nums(char **argv, int first, int n, uint64_t *v)
{
	for (int i = 0; i < n; i++)
		if (wl_u64_parse(argv[first + i], &v[i]) || (i != 2 && i != 3 && v[i] > UINT32_MAX))
			return -EINVAL; /* addr and size are 64-bit, the rest 32 */
	return 0;
}

static void do_hello(int c, char **argv, int argc)
{
	uint64_t v[2];

	if (argc != 3 || wl_u64_parse(argv[1], &v[0]) || wl_u64_parse(argv[2], &v[1]) || v[0] > UINT32_MAX ||
	    v[1] > UINT32_MAX || cl[c].hello) {
		reply_str(c, "ERR", "PROTO");
		return;
	}
	for (int o = 0; o < DIR_MAX_NODES; o++)
		if (o != c && cl[o].fd >= 0 && cl[o].hello && cl[o].domain == v[0] && cl[o].node == v[1]) {
			reply_str(c, "ERR", "NODE_INITIALIZED");
			return;
		}
	cl[c].hello = 1;
	cl[c].domain = (uint32_t)v[0];
	cl[c].node = (uint32_t)v[1];
	reply_str(c, "OK", NULL);
}

/* CREATE id|ANY atype shared addr size rkey port ip */
static void do_create(int c, char **argv, int argc)
{
	uint64_t v[7], id = 0;
	int any, s, live = 0, slot = -1;
	struct wline w;

	any = argc == 9 && strcmp(argv[1], "ANY") == 0;
	if (argc != 9 || (!any && (wl_u64_parse(argv[1], &id) || id > UINT32_MAX)) ||
	    nums(argv, 2, 6, v + 1) || !ip_ok(argv[8])) {
		reply_str(c, "ERR", "PROTO");
		return;
	}
	if (!any && id > DIR_MAX_USER_ID) {
		reply_str(c, "ERR", "ID_INVALID");
		return;
	}
	if (!any && find((uint32_t)id, 0) >= 0) {
		reply_str(c, "ERR", "EXISTS");
		return;
	}
	for (s = 0; s < DIR_MAX_SEGS; s++) {
		live += sg[s].live;
		if (!sg[s].live && slot < 0)
			slot = s;
	}
	if (slot < 0 || live >= DIR_MAX_SEGS) {
		reply_str(c, "ERR", "MEM_LIMIT");
		return;
	}
	if (any) {
		while (find(next_any, 0) >= 0 || next_any < DIR_ANY_FIRST)
			next_any = next_any + 1 < DIR_ANY_FIRST ? DIR_ANY_FIRST : next_any + 1;
		id = next_any++;
	}
	sg[slot] = (struct seg){ .live = 1, .owner = c, .id = (uint32_t)id, .gen = next_gen++,
				 .atype = (uint32_t)v[1], .shared = (uint32_t)v[2], .domain = cl[c].domain,
				 .addr = v[3], .size = v[4], .rkey = (uint32_t)v[5], .port = (uint32_t)v[6] };
	memcpy(sg[slot].ip, argv[8], strlen(argv[8]) + 1);
	wl_init(&w);
	wl_str(&w, "OK");
	wl_u64(&w, sg[slot].id);
	wl_u64(&w, sg[slot].gen);
	wl_end(&w);
	reply(c, &w);
}

static void do_get(int c, char **argv, int argc)
{
	uint64_t id;
	struct wline w;
	int s;

	if (argc != 2 || wl_u64_parse(argv[1], &id) || id > UINT32_MAX) {
		reply_str(c, "ERR", "PROTO");
		return;
	}
	if ((s = find((uint32_t)id, 0)) < 0 || id == 0xffffffffu) {
		reply_str(c, "ERR", "ID_INVALID");
		return;
	}
	wl_init(&w);
	wl_str(&w, "OK");
	wl_u64(&w, sg[s].id);
	wl_u64(&w, sg[s].gen);
	wl_u64(&w, sg[s].atype);
	wl_u64(&w, sg[s].shared);
	wl_u64(&w, sg[s].domain);
	wl_u64(&w, sg[s].addr);
	wl_u64(&w, sg[s].size);
	wl_u64(&w, sg[s].rkey);
	wl_u64(&w, sg[s].port);
	wl_str(&w, sg[s].ip);
	wl_end(&w);
	reply(c, &w);
}

/* ATTACH / DETACH / DELETE id gen */
static void do_op(int c, char **argv, int argc)
{
	uint64_t id, gen;
	uint32_t bit = 1u << c;
	int s;

	if (argc != 3 || wl_u64_parse(argv[1], &id) || wl_u64_parse(argv[2], &gen) || id > UINT32_MAX ||
	    gen > UINT32_MAX || gen == 0) {
		reply_str(c, "ERR", "PROTO");
		return;
	}
	if ((s = find((uint32_t)id, (uint32_t)gen)) < 0) {
		reply_str(c, "ERR", "INVALID");
		return;
	}
	if (strcmp(argv[0], "ATTACH") == 0) {
		if (sg[s].attached & bit) {
			reply_str(c, "ERR", "ATTACHED");
			return;
		}
		sg[s].attached |= bit;
	} else if (strcmp(argv[0], "DETACH") == 0) {
		if (!(sg[s].attached & bit)) {
			reply_str(c, "ERR", "NOTATTACHED");
			return;
		}
		sg[s].attached &= ~bit;
	} else {
		if (sg[s].owner != c) {
			reply_str(c, "ERR", "NOTOWNER");
			return;
		}
		if (sg[s].attached & ~(1u << sg[s].owner)) {
			reply_str(c, "ERR", "ATTACH");
			return;
		}
		sg[s].live = 0;
	}
	reply_str(c, "OK", NULL);
}

static void handle_line(int c, char *line)
{
	char *argv[12];
	int argc = wl_split(line, argv, 12);

	if (argc == 0)
		reply_str(c, "ERR", "PROTO");
	else if (strcmp(argv[0], "HELLO") == 0)
		do_hello(c, argv, argc);
	else if (!cl[c].hello)
		reply_str(c, "ERR", "PROTO");
	else if (strcmp(argv[0], "CREATE") == 0)
		do_create(c, argv, argc);
	else if (strcmp(argv[0], "GET") == 0)
		do_get(c, argv, argc);
	else if (!strcmp(argv[0], "ATTACH") || !strcmp(argv[0], "DETACH") || !strcmp(argv[0], "DELETE"))
		do_op(c, argv, argc);
	else
		reply_str(c, "ERR", "PROTO");
}

/* The node on slot c left: its segments go, its attachments too. */
static void drop(int c)
{
	close(cl[c].fd);
	cl[c].fd = -1;
	for (int s = 0; s < DIR_MAX_SEGS; s++) {
		sg[s].attached &= ~(1u << c);
		if (sg[s].live && sg[s].owner == c)
			sg[s].live = 0;
	}
}

/* Read what slot c sent; handle every complete line. A line too long ends the node. */
static void on_input(int c)
{
	ssize_t n = recv(cl[c].fd, cl[c].in + cl[c].inlen, sizeof(cl[c].in) - 1 - cl[c].inlen, 0);
	char *nl;

	if (n <= 0) {
		if (n < 0 && errno == EINTR)
			return;
		drop(c);
		return;
	}
	cl[c].inlen += (size_t)n;
	cl[c].in[cl[c].inlen] = '\0';
	while ((nl = memchr(cl[c].in, '\n', cl[c].inlen))) {
		size_t used = (size_t)(nl - cl[c].in) + 1;

		*nl = '\0';
		handle_line(c, cl[c].in);
		if (cl[c].fd < 0)
			return;
		memmove(cl[c].in, cl[c].in + used, cl[c].inlen - used);
		cl[c].inlen -= used;
	}
	if (cl[c].inlen >= sizeof(cl[c].in) - 1)
		drop(c);
}

static void on_accept(int lfd)
{
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0)
		return;
	for (int c = 0; c < DIR_MAX_NODES; c++)
		if (cl[c].fd < 0) {
			cl[c] = (struct client){ .fd = fd };
			return;
		}
	close(fd); /* full */
}

void dir_serve(int lfd)
{
	struct pollfd pf[DIR_MAX_NODES + 1];
	int64_t idle_since = now_ms(), limit = FIRST_NODE_MS;

	for (int c = 0; c < DIR_MAX_NODES; c++)
		cl[c].fd = -1;
	for (;;) {
		int n = 0, map[DIR_MAX_NODES + 1];

		pf[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		map[n++] = -1;
		for (int c = 0; c < DIR_MAX_NODES; c++)
			if (cl[c].fd >= 0) {
				pf[n] = (struct pollfd){ .fd = cl[c].fd, .events = POLLIN };
				map[n++] = c;
			}
		if (n == 1 && now_ms() - idle_since > limit)
			_exit(0);
		if (poll(pf, (nfds_t)n, 200) < 0 && errno != EINTR)
			_exit(1);
		for (int i = 1; i < n; i++)
			if (pf[i].revents)
				on_input(map[i]);
		if (pf[0].revents & POLLIN)
			on_accept(lfd);
		int any = 0;
		for (int c = 0; c < DIR_MAX_NODES; c++)
			any |= cl[c].fd >= 0;
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
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 64) < 0)
		goto fail;
	*lfd = fd;
	return 0;
fail:
	rc = -errno;
	close(fd);
	return rc;
}

int dir_spawn(const char *host, unsigned port)
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
		dir_serve(lfd);
	}
	close(lfd);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

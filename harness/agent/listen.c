/*
 * listen.c — an agent reached over the network (agent.h: agent_listen):
 * another kernel's node (a VM per node, a real host) serves the coordinator
 * on TCP once the peer has proved it holds the run's secret (remote.h).
 * Handshakes run side by side, each within its own deadline, so a peer that
 * is slow or says nothing delays no other; coordinators that got through are
 * served one at a time.
 */
#define _GNU_SOURCE /* NI_MAXHOST */
#include "harness/agent/agent.h"
#include "harness/run/proto.h"
#include "harness/run/remote.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* "HOST:PORT" of a socket address, for the log. */
static void name_of(const struct sockaddr *sa, socklen_t len, char *out, size_t outlen)
{
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getnameinfo(sa, len, host, sizeof(host), port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(out, outlen, "?");
	else
		snprintf(out, outlen, strchr(host, ':') ? "[%s]:%s" : "%s:%s", host, port);
}

int agent_bind(const char *hostport, char *bound, size_t boundlen, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int fd = remote_listen(hostport, AGENT_HANDSHAKES_MAX, err, errlen), rc;

	if (fd < 0)
		return fd;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		rc = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", hostport, strerror(-rc));
		close(fd);
		return rc;
	}
	name_of((struct sockaddr *)&ss, sl, bound, boundlen);
	return fd;
}

/* A peer whose handshake is under way (fd -1: a free slot). */
struct pending {
	struct remote_hs hs;
	char name[NI_MAXHOST + 16];
};

static void drop(struct pending *p, const char *why)
{
	fprintf(stderr, "rdmacheck-agent: refused %s: %s\n", p->name, why);
	close(p->hs.fd);
	p->hs.fd = -1;
}

/*
 * Take one connection from lfd into a free slot of pend, its challenge sent;
 * with none free, the one whose deadline comes first is dropped to make room
 * (peers that connect and say nothing cannot keep the next one out). 0, or
 * -errno when accept fails for another reason than a peer that went away.
 */
static int take(int lfd, struct pending *pend)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct pending *p = NULL;
	char why[160];
	int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);

	if (fd < 0)
		return errno == EINTR || errno == ECONNABORTED || errno == EAGAIN ? 0 : -errno;
	remote_nodelay(fd);
	for (int i = 0; i < AGENT_HANDSHAKES_MAX; i++)
		if (pend[i].hs.fd < 0 || !p || (p->hs.fd >= 0 && pend[i].hs.deadline < p->hs.deadline))
			p = &pend[i];
	if (p->hs.fd >= 0)
		drop(p, "too many handshakes at once: the oldest dropped");
	name_of((struct sockaddr *)&ss, sl, p->name, sizeof(p->name));
	if (remote_hs_begin(&p->hs, fd, why, sizeof(why)))
		drop(p, why);
	return 0;
}

/*
 * Wait for lfd or a pending peer (until the first deadline), take new
 * connections and advance every handshake that can move. The fd of a peer
 * that proved it holds key (its slot freed, *who its name), -EAGAIN when
 * none did yet, or -errno.
 */
static int handshake_round(int lfd, struct pending *pend, const struct remote_key *key, char *who, size_t wholen)
{
	struct pollfd p[AGENT_HANDSHAKES_MAX + 1] = { { .fd = lfd, .events = POLLIN } };
	int64_t first = -1, now;
	char why[160];
	int rc, fd;

	for (int i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		p[i + 1] = (struct pollfd){ .fd = pend[i].hs.fd, .events = POLLIN };
		if (pend[i].hs.fd >= 0 && (first < 0 || pend[i].hs.deadline < first))
			first = pend[i].hs.deadline;
	}
	now = proto_now_ms();
	if (poll(p, AGENT_HANDSHAKES_MAX + 1, first < 0 ? -1 : first > now ? (int)(first - now) : 0) < 0)
		return errno == EINTR ? -EAGAIN : -errno;
	if (p[0].revents && (rc = take(lfd, pend)) != 0)
		return rc;
	now = proto_now_ms();
	for (int i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		if (p[i + 1].fd < 0 || pend[i].hs.fd != p[i + 1].fd || (!p[i + 1].revents && now < pend[i].hs.deadline))
			continue;
		rc = remote_hs_step(&pend[i].hs, key, why, sizeof(why));
		if (rc == -EAGAIN)
			continue;
		if (rc) {
			drop(&pend[i], why);
			continue;
		}
		fd = pend[i].hs.fd;
		pend[i].hs.fd = -1;
		snprintf(who, wholen, "%s", pend[i].name);
		return fd;
	}
	return -EAGAIN;
}

/* Serve the coordinator on fd: here, or in a child of its own (fork_sessions). 0 or -errno. */
static int serve_one(int fd, const struct agent_node *node, int step_ms, int fork_sessions)
{
	pid_t pid;
	int st = 0;

	if (!fork_sessions)
		return agent_serve(fd, node, step_ms);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(agent_serve(fd, node, step_ms) ? 3 : 0);
	fprintf(stderr, "rdmacheck-agent: session served by process %ld\n", (long)pid);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

int agent_listen(int lfd, const struct remote_key *key, const struct agent_node *node, int step_ms, int sessions,
		 int fork_sessions)
{
	struct pending pend[AGENT_HANDSHAKES_MAX];
	int served = 0, rc = 0;

	for (int i = 0; i < AGENT_HANDSHAKES_MAX; i++)
		pend[i].hs.fd = -1;
	while (sessions <= 0 || served < sessions) {
		char peer[NI_MAXHOST + 16];
		int fd = handshake_round(lfd, pend, key, peer, sizeof(peer));

		if (fd == -EAGAIN)
			continue;
		if (fd < 0) {
			rc = fd;
			fprintf(stderr, "rdmacheck-agent: accept: %s\n", strerror(-rc));
			break;
		}
		fprintf(stderr, "rdmacheck-agent: %s holds the secret: serving node %s\n", peer, node->name);
		rc = serve_one(fd, node, step_ms, fork_sessions);
		close(fd);
		served++;
		fprintf(stderr, "rdmacheck-agent: %s done%s%s\n", peer, rc ? ": " : "", rc ? strerror(-rc) : "");
		rc = 0;
	}
	for (int i = 0; i < AGENT_HANDSHAKES_MAX; i++)
		if (pend[i].hs.fd >= 0)
			close(pend[i].hs.fd);
	return rc;
}

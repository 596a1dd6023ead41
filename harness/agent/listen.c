/*
 * listen.c — an agent reached over the network (agent.h: agent_listen):
 * another kernel's node (a VM per node, a real host) serves the coordinator
 * on TCP once the peer has proved it holds the run's secret (remote.h).
 */
#define _GNU_SOURCE /* NI_MAXHOST */
#include "harness/agent/agent.h"
#include "harness/run/remote.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
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
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *ai = NULL;
	char host[NI_MAXHOST], port[16];
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
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
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 4) || getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		rc = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", hostport, strerror(-rc));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return rc;
	}
	freeaddrinfo(ai);
	name_of((struct sockaddr *)&ss, sl, bound, boundlen);
	return fd;
}

int agent_listen(int lfd, const struct remote_key *key, const struct agent_node *node, int step_ms, int sessions)
{
	int served = 0;

	while (sessions <= 0 || served < sessions) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		char peer[NI_MAXHOST + 16], why[160];
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC), rc;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			rc = -errno;
			fprintf(stderr, "rdmacheck-agent: accept: %s\n", strerror(-rc));
			return rc;
		}
		name_of((struct sockaddr *)&ss, sl, peer, sizeof(peer));
		rc = remote_accept(fd, key, why, sizeof(why));
		if (rc) {
			fprintf(stderr, "rdmacheck-agent: refused %s: %s\n", peer, why);
			close(fd);
			continue;
		}
		fprintf(stderr, "rdmacheck-agent: %s holds the secret: serving node %s\n", peer, node->name);
		rc = agent_serve(fd, node, step_ms);
		close(fd);
		served++;
		fprintf(stderr, "rdmacheck-agent: %s done%s%s\n", peer, rc ? ": " : "", rc ? strerror(-rc) : "");
	}
	return 0;
}

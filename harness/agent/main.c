/*
 * main.c — build/rdmacheck-agent: one node's agent (agent.h) as its own
 * program, so that only it links the real stack's libraries (libibverbs,
 * librdmacm, librpma; libdat2 is dlopen()ed) and `rdmacheck` itself starts
 * without them. The coordinator (harness/run/agents.c) forks, enters the
 * node's network namespace and execs this with the socket to serve:
 *   rdmacheck-agent --fd=N --node=NAME --ibdev=DEV --netdev=DEV --ipv4=ADDR
 *                   --gid-index=N --step-ms=MS
 * On another kernel (a VM per node, a real host: issue 15) the agent is
 * started by hand, ssh or srun and reached over TCP instead of --fd:
 *   rdmacheck-agent --listen=HOST:PORT --token-file=F [--sessions=N] [--fork-sessions] --node=... (as above)
 * serving one coordinator at a time, each having proved it holds the secret
 * in F (remote.h); --sessions=N stops after N (default: serve until killed);
 * --fork-sessions serves each in a fresh child process (agent_listen).
 * Exit 0 after quit or end of stream (or N sessions), 2 on bad arguments or
 * an unusable token file or address, 3 when the device could not be opened.
 */
#include "harness/agent/agent.h"
#include "harness/base/opts.h"
#include "harness/run/remote.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

/* --listen: the token, the socket, then coordinators one at a time. An exit status. */
static int listen_main(const char *at, const char *token, const struct agent_node *an, int step_ms, int sessions,
		       int fork_sessions)
{
	struct remote_key key;
	char err[512], bound[128];
	int lfd;

	if (remote_key_read(token, &key, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck-agent: %s\n", err);
		return 2;
	}
	lfd = agent_bind(at, bound, sizeof(bound), err, sizeof(err));
	if (lfd < 0) {
		fprintf(stderr, "rdmacheck-agent: %s\n", err);
		return 2;
	}
	fprintf(stderr, "rdmacheck-agent: node %s listening on %s\n", an->name, bound);
	return agent_listen(lfd, &key, an, step_ms, sessions, fork_sessions) ? 3 : 0;
}

int main(int argc, char **argv)
{
	enum { O_FD = 256, O_NODE, O_IBDEV, O_NETDEV, O_IPV4, O_GID, O_STEP, O_LISTEN, O_TOKEN, O_SESSIONS, O_FORK };
	static const struct option lopts[] = {
		{ "fd", required_argument, NULL, O_FD },       { "node", required_argument, NULL, O_NODE },
		{ "ibdev", required_argument, NULL, O_IBDEV }, { "netdev", required_argument, NULL, O_NETDEV },
		{ "ipv4", required_argument, NULL, O_IPV4 },   { "gid-index", required_argument, NULL, O_GID },
		{ "step-ms", required_argument, NULL, O_STEP }, { "listen", required_argument, NULL, O_LISTEN },
		{ "token-file", required_argument, NULL, O_TOKEN }, { "sessions", required_argument, NULL, O_SESSIONS },
		{ "fork-sessions", no_argument, NULL, O_FORK }, { NULL, 0, NULL, 0 },
	};
	struct agent_node an = { 0 };
	const char *listen_at = NULL, *token = NULL;
	int fd = -1, step_ms = 0, sessions = 0, fork_sessions = 0, c, bad = 0;

	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case O_FD: bad |= cli_int_in(optarg, 0, 1 << 20, &fd); break;
		case O_NODE: an.name = optarg; break;
		case O_IBDEV: an.ibdev = optarg; break;
		case O_NETDEV: an.netdev = optarg; break;
		case O_IPV4: an.ipv4 = optarg; break;
		case O_GID: bad |= cli_int_in(optarg, 0, 65535, &an.gid_index); break;
		case O_STEP: bad |= cli_int_in(optarg, 1, 3600 * 1000, &step_ms); break;
		case O_LISTEN: listen_at = optarg; break;
		case O_TOKEN: token = optarg; break;
		case O_SESSIONS: bad |= cli_int_in(optarg, 1, 1 << 30, &sessions); break;
		case O_FORK: fork_sessions = 1; break;
		default: bad = 1; break;
		}
	}
	if (bad || optind != argc || (fd < 0) == !listen_at || !token != !listen_at || !an.name || !an.ibdev ||
	    !an.netdev || !an.ipv4 || !step_ms) {
		fprintf(stderr, "usage: rdmacheck-agent --fd=N --node=NAME --ibdev=DEV --netdev=DEV --ipv4=ADDR "
				"--gid-index=N --step-ms=MS\n(started by rdmacheck run, not by hand)\n"
				"   or: rdmacheck-agent --listen=HOST:PORT --token-file=FILE [--sessions=N] [--fork-sessions]\n"
				"          --node=NAME ...\n"
				"(on another kernel, reached over TCP by a coordinator holding the secret in FILE)\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (listen_at)
		return listen_main(listen_at, token, &an, step_ms, sessions, fork_sessions);
	return agent_serve(fd, &an, step_ms) ? 3 : 0;
}

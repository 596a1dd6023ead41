/*
 * cmd_exec.c — `rdmacheck exec`: the in-guest executor of explore
 * --stack=vm (harness/explore/exec.h), started by ci/vm-agents:
 *   rdmacheck exec --listen=HOST:PORT --token-file=F --topology=FILE [--step-ms=MS]
 * Serves the host that proves it holds the secret in F, one at a time,
 * running its cases over the agents of the nodes of FILE (a topology of
 * netns/topology up: agents of its own; or mode hosts, as ci/vm-agents gives
 * it: sessions of the guest's listening agents, the secret in the file
 * RDMACHECK_AGENT_TOKEN names), kept from one case to the next. Runs until killed;
 * exit 2 on bad arguments, an unusable token, topology or address, 3 when
 * the listener fails.
 */
#include "harness/base/opts.h"
#include "harness/cli/cli.h"
#include "harness/explore/exec.h"
#include "harness/run/pool.h"
#include "harness/run/remote.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char usage_exec[] =
	"usage: rdmacheck exec --listen=HOST:PORT --token-file=F --topology=FILE [--step-ms=MS]\n";

int cmd_exec(int argc, char **argv)
{
	enum { O_LISTEN = 256, O_TOKEN, O_TOPO, O_STEP };
	static const struct option lopts[] = {
		{ "listen", required_argument, NULL, O_LISTEN }, { "token-file", required_argument, NULL, O_TOKEN },
		{ "topology", required_argument, NULL, O_TOPO }, { "step-ms", required_argument, NULL, O_STEP },
		{ NULL, 0, NULL, 0 },
	};
	const char *at = NULL, *token = NULL, *topo = NULL;
	struct remote_key key;
	struct stack_pool pool;
	struct ex_exec_pool xp = { &pool, 10000 };
	struct topo t;
	char err[512];
	int c, lfd, rc;

	while ((c = cli_getopt(argc, argv, "exec", "", lopts)) != -1) {
		if (c == O_LISTEN)
			at = optarg;
		else if (c == O_TOKEN)
			token = optarg;
		else if (c == O_TOPO)
			topo = optarg;
		else if (c == O_STEP && cli_int_in(optarg, 100, 3600000, &xp.step_ms) == 0)
			continue;
		else
			return fputs(usage_exec, stderr), EXIT_USAGE;
	}
	if (!at || !token || !topo || optind != argc)
		return fputs(usage_exec, stderr), EXIT_USAGE;
	if (remote_key_read(token, &key, err, sizeof(err)) || topo_load(topo, &t, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck exec: %s\n", err);
		return EXIT_USAGE;
	}
	lfd = remote_listen(at, 4, err, sizeof(err));
	if (lfd < 0) {
		fprintf(stderr, "rdmacheck exec: %s\n", err);
		return EXIT_USAGE;
	}
	stack_pool_init(&pool, &t, xp.step_ms);
	pool.keep_remote = 1; /* the guest's listening agents (mode hosts): their sessions kept from case to case */
	fprintf(stderr, "rdmacheck exec: %zu nodes, listening on %s\n", (size_t)t.n, at);
	rc = ex_exec_serve(lfd, &key, ex_exec_pool_run, &xp);
	fprintf(stderr, "rdmacheck exec: the listener failed: %s\n", strerror(-rc));
	stack_pool_close(&pool);
	close(lfd);
	return EXIT_INFRA;
}

/*
 * guest.h — the one guest of `rdmacheck explore --stack=vm` (issue 31): a
 * disposable VM (ci/vm) booted once for the whole exploration, whose only
 * command is ci/vm-agents: one topology for the largest node count and one
 * listening agent per node (rdmacheck-agent --listen), reached from this
 * host over forwarded loopback ports with the run's fresh secret (remote.h).
 * The generator, the judge and the shrinker stay here. When the guest ends
 * (its kernel panicked: ci/vm exit 120; it hung; it was killed) it is booted
 * again on fresh ports and the exploration goes on.
 *
 * Lanes (explore --jobs=N on a VM): the guest's one topology is served by N
 * sets of agents, one listening agent per node and lane on the same devices,
 * so that N cases run side by side on agents of their own (agents.h). Lane
 * 0's nodes are g->t, lane L's g->lane[L] (lane[0] is a copy of t).
 *
 * Beside the agents the guest runs the executor (exec.h: `rdmacheck exec`
 * over agents of its own on the same devices), reached at g->exec.
 *
 * Errors follow HACKING.md: 0 or a negative errno, the reason in err.
 */
#ifndef RDMACHECK_EXPLORE_GUEST_H
#define RDMACHECK_EXPLORE_GUEST_H

#include "netns/topo.h"

#include <limits.h>
#include <sys/types.h>

#define EX_GUEST_BOOT_S 600 /* a boot under TCG, the topology and the agents listening */
#define EX_GUEST_LANES_MAX 4 /* sets of agents in one guest (nodes x lanes <= TOPO_MAX_NODES) */

struct ex_guest {
	char root[PATH_MAX];        /* the checkout (ci/vm, ci/vm-agents, the shared build/) */
	char dir[PATH_MAX + 32];    /* build/explore-vm-PID: token, topologies, consoles, the guest's log */
	unsigned nodes;
	unsigned lanes;             /* sets of agents (1..EX_GUEST_LANES_MAX) */
	pid_t pid;                  /* ci/vm's (its own process group), 0 none */
	unsigned boots;             /* boots so far */
	int status;                 /* the last ended boot's ci/vm exit status (120 panic, 121 hung), -1 none */
	struct topo t;              /* the current boot's nodes, mode hosts (agents on 127.0.0.1) */
	struct topo lane[EX_GUEST_LANES_MAX]; /* the same nodes, lane L's agents (lane[0] == t) */
	char exec[32];              /* the current boot's executor (exec.h), "127.0.0.1:PORT" */
	char console[PATH_MAX + 64]; /* the current (or last ended) boot's console log */
	int (*stop)(void);          /* nonzero: give up waiting for a boot (Ctrl-C, SIGTERM); NULL never.
	                               Set before ex_guest_start, which keeps it */
};

/*
 * Boot the guest for nodes nodes (the exploration's largest node count)
 * with lanes sets of agents (1..EX_GUEST_LANES_MAX, nodes x lanes at most
 * TOPO_MAX_NODES) from checkout root and wait until every agent listens:
 * g->t and g->lane[0..lanes) are then their topologies and
 * RDMACHECK_AGENT_TOKEN names the run's secret (stack.h's remote agents dial
 * with it). 0, or -errno with err (the guest's log's last line; -EINTR:
 * g->stop said stop, the guest is stopped).
 */
int ex_guest_start(struct ex_guest *g, const char *root, unsigned nodes, unsigned lanes, char *err, size_t errlen);

/*
 * Whether the guest has ended, waiting up to wait_ms for it: 1 with
 * g->status its ci/vm exit status (120: a kernel panic), 0 still running.
 */
int ex_guest_ended(struct ex_guest *g, int wait_ms);

/* Stop the guest (its process group: TERM, then KILL after 20 s) if it runs; g->status as ex_guest_ended. */
void ex_guest_kill(struct ex_guest *g);

/*
 * Boot it again after it ended or was killed (the next boot: fresh ports,
 * topology and console), as ex_guest_start. 0 or -errno with err.
 */
int ex_guest_reboot(struct ex_guest *g, char *err, size_t errlen);

/* Stop the guest and remove its directory. */
void ex_guest_stop(struct ex_guest *g);

#endif

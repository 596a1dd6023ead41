/*
 * vms.h — `rdmacheck run --stack=vms`: a guest per node (issue 15). The run
 * starts ci/vms --serve (one Debian 6.1 guest per node, joined by a QEMU wire
 * on the host's loopback, each running its node's agent behind a port
 * forward on 127.0.0.1), runs the scenarios from this process on the
 * topology it writes (mode hosts, agents dialled with the run's secret) and
 * reads from its directory what happened to the guests: a node's guest that
 * ended during a scenario (its kernel panicked) is booted again by ci/vms
 * while the run goes on, and the scenario judged as the one VM's death is
 * (death.h).
 */
#ifndef RDMACHECK_VMS_H
#define RDMACHECK_VMS_H

#include "harness/nodes/records.h"
#include "harness/lang/scn.h"
#include "netns/topo.h"

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#define VMS_MEM_MB 128 /* a guest's memory unless --vm-mem says otherwise */

struct vms {
	pid_t pid;                      /* ci/vms --serve, leader of its process group; 0 none */
	pid_t pgid;                     /* that group (the run's guard stops it, guard.h) while it may run; 0 none */
	int in;                         /* its standard input: closing it stops the guests */
	size_t n;                       /* nodes booted */
	unsigned boot[SCN_NODES_MAX];   /* per node, the boot the current scenario began on */
	uint8_t lost[SCN_NODES_MAX];    /* its guest did not come back within BOOT_S once: not waited for again */
	char dir[PATH_MAX];             /* ci/vms's directory (vms.h's files: ci/vms --help) */
	char log[PATH_MAX + 64];        /* ci/vms's stderr */
};

/*
 * Boot nodes guests of mem_mb MiB under ci/vms in root (its stderr appended
 * to log) and load their topology into *t; RDMACHECK_AGENT_TOKEN is set to
 * the run's secret for the dialling (agents.c). Returns 0, or -errno with
 * the reason (and ci/vms's last words) in err; nothing is left running.
 */
int vms_start(struct vms *v, const char *root, size_t nodes, int mem_mb, const char *log, struct topo *t, char *err,
	      size_t errlen);

/* Boot more guests until there are nodes, and reload *t. 0 or -errno with err. */
int vms_grow(struct vms *v, size_t nodes, struct topo *t, char *err, size_t errlen);

/*
 * Before a scenario on nodes [0, nodes): wait until each one's current boot
 * answered (a guest booted again after a panic), and remember the boots.
 * 0, or -ETIMEDOUT / -EPIPE (ci/vms gone) with err. A node that timed out
 * once is lost: later calls fail at once (-EHOSTDOWN), not after another wait.
 */
int vms_before(struct vms *v, size_t nodes, char *err, size_t errlen);

/*
 * After a scenario on nodes [0, nodes) whose result is r (its records s):
 * if a node's guest ended during it (looked for up to wait_ms when r is an
 * ERROR, the agent's connection lost before ci/vms saw the guest end), r is
 * judged by death_judge when the guest's kernel panicked (ci/vm exit 120)
 * or hung (121), and is left as it is (an ERROR naming the node) when the
 * guest was killed; *tail gets the console's last lines. Returns the node
 * whose guest ended, or -1.
 */
int vms_after(struct vms *v, size_t nodes, int wait_ms, struct result *r, const struct rec_state *s, char **tail);

/* Ask ci/vms to stop node's guest and boot it again (a node that stopped answering). */
void vms_reboot(struct vms *v, size_t node);

/* Stop every guest and ci/vms (which removes its directory). Safe to call twice. */
void vms_stop(struct vms *v);

#endif

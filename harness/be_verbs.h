/*
 * be_verbs.h — the real verbs stack as a backend (backend.h): one agent
 * process per scenario node (agent.h), each inside its node's network
 * namespace in netns mode, driven over a socketpair with the line protocol
 * (proto.h). The backend remembers, per scenario object, what the agents
 * reported (addresses, keys, QP numbers) so references can be resolved.
 */
#ifndef RDMACHECK_BE_VERBS_H
#define RDMACHECK_BE_VERBS_H

#include "harness/backend.h"
#include "netns/topo.h"

#include <sys/types.h>

struct bv_obj {
	uint8_t made;              /* the creation succeeded on the real stack */
	uint8_t zero_based;
	uint64_t addr, iova, len;  /* MR: local and remote address of byte 0; MW: bound range */
	uint64_t start;            /* MW: window start in its MR's address space */
	uint32_t lkey, rkey, qpn;
};

struct bv_agent {
	pid_t pid;
	int fd;
	char gid[33];
};

struct be_verbs {
	const struct scn_file *f;
	unsigned n;
	int step_ms;
	struct bv_agent ag[SCN_NODES_MAX];
	struct bv_obj o[SCN_OBJS_MAX];
	char err[256];             /* the last infrastructure error, for reports */
};

extern const struct backend_ops be_verbs_ops;

/*
 * Start one agent per node of f on topology t (scenario node i on topology
 * node i; t must have at least f->nnodes nodes). step_ms bounds every call.
 * Returns 0, or -errno with the reason in bv->err (nothing left running).
 */
int bv_start(struct be_verbs *bv, const struct scn_file *f, const struct topo *t, int step_ms);

/* Ask every agent to quit, wait for it (kill after 3 s). Safe to call twice. */
void bv_stop(struct be_verbs *bv);

#endif

/*
 * be_verbs.h — the real verbs stack as a backend (backend.h): one agent
 * process per scenario node (agent.h), each inside its node's network
 * namespace in netns mode, driven over a socketpair with the line protocol
 * (proto.h). The backend remembers, per scenario object, what the agents
 * reported (addresses, keys, QP numbers) so references can be resolved.
 */
#ifndef RDMACHECK_BE_VERBS_H
#define RDMACHECK_BE_VERBS_H

#include "harness/run/backend.h"
#include "netns/topo.h"

#include <sys/types.h>

struct bv_obj {
	uint8_t made;              /* the creation succeeded on the real stack */
	struct hview v;            /* what the agent reported (addresses, keys, QP number) */
	uint8_t ndesc;             /* librpma: the descriptor the agent reported */
	uint8_t desc[32];
	uint8_t peer_node;         /* librpma connection: the server's node; uDAPL EP: the node of
	                              the EP its connection was accepted by */
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
	char err[512];             /* the last infrastructure error, for reports */
};

extern const struct backend_ops be_verbs_ops;

#define BV_SLACK_MS 3000 /* an answer's budget beyond the agent's own step budget */

/*
 * Talking to the agents (the line protocol of agent.h): send one request to
 * node's agent; receive one answer (within timeout_ms); or both, with the
 * step budget. Each returns 0 (the answer may be ok or err), -ETIMEDOUT, or
 * -EPIPE when the agent is gone; the reason goes to bv->err. Sending to two
 * agents before receiving from either serves calls that need both sides at
 * once (a connection: one listens while the other connects).
 */
int bv_send(struct be_verbs *bv, unsigned node, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int bv_recv(struct be_verbs *bv, unsigned node, char *reply, int timeout_ms);
int bv_call(struct be_verbs *bv, unsigned node, char *reply, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * The outcome an answer carries: "ok", "ok status=WC_NAME" (a completion),
 * "ok outcome=NAME" (any outcome by its model name: RPMA_E_INVAL, …),
 * "err errno=N" (a failed verbs call). -ETIMEDOUT for "err ... timeout=1"
 * (no completion in time), -EPROTO for anything else.
 */
int bv_outcome(struct be_verbs *bv, const char *reply, struct m_outcome *o);
/* A numeric field of an answer (0 when absent). */
uint64_t bv_field(const char *reply, const char *key);

/* The librpma and uDAPL calls (be_rpma.c, be_dat.c): like exec. */
int bv_exec_rpma(struct be_verbs *bv, const struct hcall *c, struct hres *r);
int bv_exec_dat(struct be_verbs *bv, const struct hcall *c, struct hres *r);
/* The descriptor of a librpma MR or remote MR, from its agent (backend.h: blob). */
int bv_blob_rpma(struct be_verbs *bv, int32_t obj, uint8_t *buf, size_t cap, size_t *len);

/*
 * Parse the KEY=VALUE results of a query answer into r->q (the keys of
 * call->query; words by their table, numbers decimal or 0x). Returns 0 or
 * -EPROTO with the reason in bv->err.
 */
int bv_query_reply(struct be_verbs *bv, const struct scn_call *call, const char *reply, struct hres *r);

/*
 * Start one agent per node of f on topology t (scenario node i on topology
 * node i; t must have at least f->nnodes nodes). step_ms bounds every call.
 * Returns 0, or -errno with the reason in bv->err (nothing left running).
 */
int bv_start(struct be_verbs *bv, const struct scn_file *f, const struct topo *t, int step_ms);

/* Ask every agent to quit, wait for it (kill after 3 s). Safe to call twice. */
void bv_stop(struct be_verbs *bv);

#endif

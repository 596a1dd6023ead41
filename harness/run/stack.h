/*
 * stack.h — the real stack as an engine (backend.h), whatever the API
 * family: one agent process per scenario node (agent.h), each inside its
 * node's network namespace in netns mode, driven over a socketpair with the
 * line protocol (proto.h; the transport is agents.c). A call goes to its
 * family's stack_exec (family.h, harness/api/<family>/stack_<family>.c). The
 * engine remembers, per scenario object, what the agents reported
 * (addresses, keys, QP numbers, descriptors) so references can be resolved.
 */
#ifndef RDMACHECK_STACK_H
#define RDMACHECK_STACK_H

#include "harness/run/backend.h"
#include "harness/run/proto.h"
#include "netns/topo.h"

#include <sys/types.h>

struct stack_obj {
	uint8_t made;              /* the creation succeeded on the real stack */
	struct hview v;            /* what the agent reported (addresses, keys, QP number) */
	uint8_t ndesc;             /* librpma: the descriptor the agent reported */
	uint8_t desc[32];
	uint8_t peer_node;         /* librpma connection: the server's node; uDAPL EP: the node of
	                              the EP its connection was accepted by; librpmem pool: its target */
	char set[M_RPMEM_NAME_MAX]; /* librpmem pool: its pool set's name on the target */
	int32_t peer_obj;          /* uDAPL EP: the id of the EP at the other end, in its node's agent */
};

struct stack_agent {
	pid_t pid;                 /* 0 once reaped */
	int fd;
	struct proto_rd rd;        /* fd's read buffer */
	uint8_t dead;              /* it ended during the scenario (ws: how) */
	uint8_t stale;             /* a request timed out: its answer may still come (never kept, pool.h) */
	int ws;
	char gid[33];
	char driver[32];           /* its greeting's: the device's driver, the kernel's release ("" not told) */
	char kernel[65];
	const char *remote;        /* HOST:PORT of an agent on another kernel (topology mode hosts),
	                              reached over TCP (remote.h); NULL for a forked one */
};

#define STACK_AHEAD_MAX 128 /* requests in flight ahead of their answers (run_ahead.h: RUN_AHEAD) */
#define STACK_AHEAD_LINE 512 /* bytes of one of them and its NUL: a longer request waits for its turn */

struct stack {
	const struct scn_file *f;
	unsigned n;
	int step_ms;
	int extra_ms;              /* the step being run: its budget beyond step_ms (struct hcall.extra_ms) */
	struct stack_agent ag[SCN_NODES_MAX];
	struct stack_obj o[SCN_OBJS_MAX];
	char err[512];             /* the last infrastructure error, for reports */
	char tmp[48];              /* the agents' TMPDIR, removed with them ("" none) */
	/* Run-ahead (backend_ops.ahead): the requests sent ahead and not yet answered,
	 * oldest first at ahead_head, each to node ahead_nd[slot] (ahead_per[N] of them
	 * to node N); the next stack_call to a node with some must be the oldest of all.
	 * The newest unsent of them are queued, not written yet: each node's go in one
	 * write before the next wait for an answer (stack_recv). */
	char ahead[STACK_AHEAD_MAX][STACK_AHEAD_LINE];
	uint8_t ahead_nd[STACK_AHEAD_MAX];
	unsigned ahead_per[SCN_NODES_MAX];
	unsigned nahead, ahead_head, unsent;
	uint8_t capture;           /* stack_call sends and queues, and answers -EINPROGRESS */
	unsigned long waits;       /* answers stack_recv waited for, none of it read yet: round trips (a figure) */
};

extern const struct backend_ops stack_ops;

#define STACK_SLACK_MS 3000 /* an answer's budget beyond the agent's own step budget */

/*
 * Talking to the agents (agents.c; the line protocol of agent.h): send one request to
 * node's agent; receive one answer (within timeout_ms); or both, with the
 * step budget. Each returns 0 (the answer may be ok or err), -ETIMEDOUT, or
 * -EPIPE when the agent is gone; the reason goes to st->err. Sending to two
 * agents before receiving from either serves calls that need both sides at
 * once (a connection: one listens while the other connects). With requests
 * sent ahead to a node (st->ahead_per), stack_call to that node must ask the
 * oldest request sent ahead to any (it then only takes its answer), and
 * stack_send to it is refused: -EPROTO, st->err says so. Nodes with none are
 * talked to as ever. Requests sent ahead are written together, one write a
 * node, when stack_recv (or stack_recv_bytes) next waits for an answer,
 * whichever node's.
 */
int stack_send(struct stack *st, unsigned node, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int stack_recv(struct stack *st, unsigned node, char *reply, int timeout_ms);
int stack_call(struct stack *st, unsigned node, char *reply, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The n raw bytes that follow an "ok bytes=N" answer (proto.h), as stack_recv. */
int stack_recv_bytes(struct stack *st, unsigned node, void *out, size_t n, int timeout_ms);
/*
 * The outcome an answer carries: "ok", "ok status=WC_NAME" (a completion),
 * "ok outcome=NAME" (any outcome by its model name: RPMA_E_INVAL, …),
 * "err errno=N" (a failed verbs call). -ETIMEDOUT for "err ... timeout=1"
 * (no completion in time), -EPROTO for anything else.
 */
int stack_outcome(struct stack *st, const char *reply, struct m_outcome *o);
/* stack_call of line on node, then the outcome its answer (into reply) carries (stack_outcome). */
int stack_call_outcome(struct stack *st, unsigned node, const char *line, char *reply, struct m_outcome *o);
/* A numeric field of an answer (0 when absent). */
uint64_t stack_field(const char *reply, const char *key);

/*
 * Read len bytes at off through node's agent with request req ("read id=N"):
 * "REQ off=O len=L" for every AGENT_READ_MAX bytes, answered "ok bytes=L"
 * and the L raw bytes (proto_send_bytes).
 * Returns 0, -ENOENT when the agent answers ENOENT (the reason in st->err),
 * -EPROTO for a malformed answer, or as stack_call.
 */
int stack_read_mem(struct stack *st, unsigned node, const char *req, uint64_t off, size_t len, uint8_t *buf);

/*
 * Parse the KEY=VALUE results of a query answer into r->q (the keys of
 * call->query; words by their table, numbers decimal or 0x). Returns 0 or
 * -EPROTO with the reason in st->err.
 */
int stack_query_reply(struct stack *st, const struct scn_call *call, const char *reply, struct hres *r);

/*
 * Whether every agent still runs: a dead one (reaped here, whichever node,
 * whether or not a request is waiting on it) makes it -EPIPE with the node
 * and how it ended in st->err; 0 all alive. The engine asks before and after
 * every step, so a death anywhere is the step's ERROR, never its outcome.
 */
int stack_watch(struct stack *st);

/*
 * Start one agent per node of f on topology t (scenario node i on topology
 * node i; t must have at least f->nnodes nodes). step_ms bounds every call.
 * Returns 0, or -errno with the reason in st->err (nothing left running).
 */
int stack_start(struct stack *st, const struct scn_file *f, const struct topo *t, int step_ms);

/*
 * Ask every agent to quit, wait for it (kill after 3 s), and remove the
 * scenario's temporary directory with whatever the agents left in it (a
 * killed uDAPL agent's dat.conf). Safe to call twice. Returns as
 * stack_agents_end: the scenario's end confirmed by every agent, or not.
 */
int stack_stop(struct stack *st);

/*
 * Start node i's agent (topology node tn) into st->ag[i] as stack_start does:
 * forked into tn's namespace with TMPDIR st->tmp, or dialled when tn names a
 * listening agent. Its greeting is then read by stack_agent_greeted (start
 * several, then read their greetings: they open their devices together).
 * Each: 0, or -errno with st->err.
 */
int stack_agent_spawn(struct stack *st, unsigned i, const struct topo_node *tn);
int stack_agent_greeted(struct stack *st, unsigned i, const struct topo_node *tn);
/*
 * Ask the n agents of ag to quit, all at once, and reap them (kill after 3 s);
 * their fds closed. What they sent that nobody read is dropped first, so that
 * only the answer to quit, or the end of its connection, tells whether each
 * still ran. Returns the index of the first agent that was running (its fd
 * open, not known dead) and had ended instead of answering (its connection
 * closed: then ag[i].dead is set, ag[i].ws says how a forked one ended), or
 * -1 when each answered or hung (one that did not end in 3 s was killed here).
 */
int stack_agents_quit(struct stack_agent *ag, unsigned n);
/*
 * The end of st's scenario, confirmed by its agents: stack_agents_quit of
 * those still open. 0 when every one answered (or hung: a timed-out request
 * is the scenario's own verdict), -EPIPE when one had ended unnoticed (killed
 * after the last step, or while it was reset), with the node and how it ended
 * in st->err (as stack_watch says it). A run that had an agent die must not
 * pass (the inner runner makes it an ERROR).
 */
int stack_agents_end(struct stack *st);
/* A fresh temporary directory for agents (TMPDIR, or /tmp) into tmp (len bytes); 0 or -errno with err. */
int stack_tmp_make(char *tmp, size_t len, char *err, size_t errlen);
/* Empty directory tmp ("" nothing), keeping it. */
void stack_tmp_clear(const char *tmp);
/* Remove directory tmp and its contents; tmp becomes "". */
void stack_tmp_remove(char *tmp);

#endif

/*
 * run_ahead.h — run-ahead for the runner (runner.h: run_opts.ahead; private
 * to harness/run): which steps may go to the engine before the earlier ones
 * are answered, and sending them.
 */
#ifndef RDMACHECK_RUN_AHEAD_H
#define RDMACHECK_RUN_AHEAD_H

#include "harness/run/backend.h"
#include "harness/lang/scn.h"

#include <stddef.h>

/*
 * Steps sent ahead of their answers, at most. Topped up by halves, a node's
 * agent gets 64 requests in one write and answers them in one (agent.h):
 * per 64 steps one write, one wake-up of the agent and one read of the
 * answers. On a loaded machine each wake-up waits for a free CPU: in the
 * TCG guest on a host at load 10, a step of bench-real's query_qp cost
 * ~440 µs over the raw call with 16 a write, where the runner's own work
 * is tens of µs (issue 32).
 */
#define RUN_AHEAD 128

/* How many steps from si one post takes: si and the steps after it while the one before says `chain`
 * (the parser checked them: send WRs on one QP, at most SCN_CHAIN_MAX; scn_chain.c). */
size_t run_chain_len(const struct scn_file *f, size_t si);

/*
 * Before step si runs, with the steps before sent (the steps before si
 * were all answered): send the engine (ops, be) the requests of the steps
 * from sent on that may go, so that it works on them while the runner
 * judges; each step's exec then takes its answer, and every step is judged
 * exactly as without run-ahead, in order. A step that cannot go ends the
 * run of them: it and those after it go when their turn comes. The window
 * (RUN_AHEAD) is topped up when half of it has been answered, so that the
 * engine can send several requests at once. mixed: the window may hold
 * steps of several nodes that each act on their own node alone (no post;
 * the runner asks it when no peer observation is pending, which would ask
 * another node while its requests are in flight). Returns the new sent.
 */
size_t run_ahead_send(const struct scn_file *f, const struct backend_ops *ops, void *be, size_t si, size_t sent,
		      int mixed);

#endif

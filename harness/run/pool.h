/*
 * pool.h — the real stack's agents kept from one scenario to the next
 * (issue 18: starting an agent costs ~0.1–0.2 s under TCG, most of it
 * libibverbs loading every provider; a kept one costs two round trips).
 *
 * A pool holds at most one agent per topology node. A scenario takes the
 * agents of its nodes from the pool (each greets again, under the scenario's
 * node name) and starts the ones the pool lacks; at its end every agent is
 * asked to reset — release every object and API state as at its exit — and
 * answers what it still holds. Only an agent that answers nothing held and no
 * library with process state used (agent.h: reset answers objs=0 fams=0)
 * goes back to the pool: one that died, timed out on a request, has bytes
 * pending, used librpma/uDAPL/MRAPI/librpmem (their libraries keep process
 * state no release undoes) or holds anything is stopped, and the next
 * scenario starts a fresh one. Agents on another kernel (topology mode
 * hosts) are kept only when keep_remote is set (explore: one session per
 * agent for the whole exploration); otherwise every scenario dials its own.
 *
 * For any runner of many scenarios on one topology (the inner runner,
 * --device, explore):
 *   struct stack_pool p;
 *   stack_pool_init(&p, t, step_ms);
 *   for each scenario f:
 *           stack_pool_start(&p, st, f) ... run_scenario(f, &stack_ops, st, ...) ... stack_pool_stop(&p, st);
 *   stack_pool_close(&p);
 * Scenarios must not overlap on one pool.
 */
#ifndef RDMACHECK_POOL_H
#define RDMACHECK_POOL_H

#include "harness/run/stack.h"

struct stack_pool {
	const struct topo *t;
	int step_ms;
	struct stack_agent ag[SCN_NODES_MAX]; /* kept agents by topology node (fd -1: none) */
	char tmp[48];                         /* their TMPDIR ("" not made yet), emptied after each scenario */
	unsigned started;                     /* agents started */
	unsigned kept;                        /* agents handed on to a next scenario after a confirmed reset */
	unsigned dropped;                     /* agents stopped at a scenario's end instead */
	char why[512];                        /* why the last one was dropped ("" none) */
	int keep_remote;                      /* keep (and prestart) agents on another kernel too; 0 after init */
};

/* An empty pool for topology t (which must outlive it) and agents bounding every call by step_ms. */
void stack_pool_init(struct stack_pool *p, const struct topo *t, int step_ms);

/*
 * Start scenario f on st (as stack_start: one agent per node of f, node i on
 * topology node i), taking the pool's agents of those nodes and starting the
 * others. Returns 0, or -errno with the reason in st->err (then every agent of
 * st is stopped; stack_pool_stop need not be called).
 */
int stack_pool_start(struct stack_pool *p, struct stack *st, const struct scn_file *f);

/*
 * Start the agents of topology nodes 0..n-1 the pool lacks, all together, so
 * that the scenarios find them ready (on a topology with agents on another
 * kernel, nothing unless keep_remote: each scenario dials its own). Returns 0, or -errno with the reason in p->why (those
 * that did start are stopped; scenarios start their own then).
 */
int stack_pool_prestart(struct stack_pool *p, unsigned n);

/*
 * End st's scenario: reset its agents, keep in p those that confirm they are
 * as fresh ones (see above), stop the others, empty the temporary directory.
 * Instead of stack_stop for a stack started by stack_pool_start. Returns 0
 * when every agent of st answered its reset or its quit, -EPIPE when one had
 * ended instead (stack_agents_end: the node and how in st->err).
 */
int stack_pool_stop(struct stack_pool *p, struct stack *st);

/* Stop every kept agent and remove the temporary directory. The pool may be initialised again. */
void stack_pool_close(struct stack_pool *p);

#endif

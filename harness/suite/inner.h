/*
 * inner.h — the inner runner of `rdmacheck run` (inner.c), which the
 * outer runner (outer.c) starts through ci/stack, or calls in process for
 * --device.
 */
#ifndef RDMACHECK_CLI_INNER_H
#define RDMACHECK_CLI_INNER_H

#include "harness/suite/args.h"
#include "model/model.h"
#include "netns/topo.h"

#include <stddef.h>
#include <stdio.h>

struct cli_pred;
struct scn_file;
struct stack_pool;

/* How cli_inner_one records and runs a scenario. */
#define INNER_BATCH 1u   /* batch the step records where no step is predicted to kill the kernel (records.h) */
#define INNER_CAREFUL 2u /* a flushed record per step, no run-ahead, and the careful note (careful.h) */
#define INNER_SHARED 4u  /* other streams run beside it (jobs.h): a kernel splat it does not declare is not known to be its own */

/*
 * Run scenario f (record index k) on pool's topology with the pool's agents
 * (harness/run/pool.h; with a->fresh_agents, agents of its own), and record
 * its result in rec (records.h), judged by prof; pred: what the model
 * predicts of f under prof and under the profile of the stack the steps run
 * on (crash_pred.h: cli_predict), which says which steps may kill the
 * kernel. allow_crash: run steps a profile says kill the kernel (in the
 * disposable VM only). how: INNER_* flags; 0 records every
 * step, and runs steps ahead where none is predicted to kill the kernel.
 * Returns 0; or, with INNER_SHARED, 1 when the kernel logged a splat during
 * it that its steps do not declare (struct m_kwarn): then no result is
 * recorded (jobs.h: it is to run again alone).
 */
int cli_inner_one(const struct run_args *a, const struct m_profile *prof, const struct cli_pred *pred,
		  struct stack_pool *pool, FILE *rec, size_t k, const struct scn_file *f, int allow_crash, unsigned how);

/*
 * `run --inner`: the scenario files of a->list on one topology, records to
 * a->records. Returns an exit status (0, EXIT_USAGE, EXIT_INFRA, or
 * EXIT_INTERRUPTED after Ctrl-C or SIGTERM).
 */
int cli_run_inner(const struct run_args *a);

#endif

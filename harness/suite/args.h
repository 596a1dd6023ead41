/*
 * args.h — what `rdmacheck run` is asked to do: the request the command line
 * (harness/cli/run_args.c) hands to the suite (harness/suite/outer.c, inner.c).
 */
#ifndef RDMACHECK_SUITE_ARGS_H
#define RDMACHECK_SUITE_ARGS_H

#include "harness/report/report.h"
#include "harness/corpus/select.h"

#include <stddef.h>

struct run_args {
	const char *stack, *junit, *records, *list, *profile;
	const char *results;        /* --results: the results directory (results.h); NULL: the default */
	enum report_format format;
	int step_s, inner, first, trace;
	size_t base;
	struct cli_select sel;      /* which scenarios, in which order (select.h) */
	int show_list, rerun_failed, seeded;
	const char *device;         /* --device: a host's own RDMA device, one node (device.h) */
	const char *topology;       /* --topology: nodes that exist already (netns/topo.h; mode hosts) */
	int profile_set;            /* --profile was given */
	int shard_set;              /* --shard was given (else GitLab's CI_NODE_* may set sel.shard) */
	int fresh_agents;           /* --fresh-agents: no agent kept from one scenario to the next (pool.h) */
	int vm_mem;                 /* --vm-mem: MiB per node guest of --stack=vms (vms.h) */
	int vm_cpus;                /* --vm-cpus: the main round's guest's CPUs (round.h); 0: ROUND_VM_CPUS */
	const char *times;          /* --times: recorded durations choosing the held scenarios (held.h); NULL: HELD_RECORD */
	int jobs;                   /* --jobs: scenarios at once on the real stack (jobs.h); 0: JOBS_DEFAULT */
	const char *careful;        /* --careful (inner run): the scenarios to run careful (careful.h) */
	int defer_crashes;          /* --defer-crashes (inner run): crash-predicted ones after the first are the outer's (round.h) */
};

/*
 * The outer run (outer.c): every scenario of paths as a asks, on the model,
 * the VM, this host's nodes or the nodes it is told. Returns an exit status
 * (harness/base/exits.h).
 */
int suite_run(const struct run_args *a, int npaths, char **paths);

#endif

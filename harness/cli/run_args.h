/*
 * run_args.h — what `rdmacheck run` was asked (harness/cli/run_args.c reads
 * it from the command line; harness/cli/cli_run.c runs it).
 */
#ifndef RDMACHECK_RUN_ARGS_H
#define RDMACHECK_RUN_ARGS_H

#include "harness/cli/report.h"
#include "harness/cli/select.h"

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
	int jobs;                   /* --jobs: scenarios at once on the real stack (jobs.h); 0: JOBS_DEFAULT */
	const char *careful;        /* --careful (inner run): the scenarios to run careful (careful.h) */
	int defer_crashes;          /* --defer-crashes (inner run): crash-predicted ones after the first are the outer's (round.h) */
};

/*
 * Read run's options (argv[0] is "run") into *a, which holds the defaults.
 * Returns the index of the first path, -1 after --help or --version (printed;
 * exit 0), -2 on a usage error (printed; exit EXIT_USAGE).
 */
int run_parse(int argc, char **argv, struct run_args *a);

#endif

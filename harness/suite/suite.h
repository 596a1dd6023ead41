/*
 * suite.h — the outer run of `rdmacheck run` (outer.c): its state, shared
 * with its runs on nodes that exist or that it boots (on_nodes.c), and the
 * steps both take as results arrive (state.c). Private to harness/suite.
 */
#ifndef RDMACHECK_SUITE_H
#define RDMACHECK_SUITE_H

#include "harness/corpus/files.h"
#include "harness/nodes/records.h"
#include "harness/report/results.h"
#include "harness/suite/args.h"
#include "model/model.h"
#include "netns/topo.h"

#include <limits.h>

struct outer {
	const struct run_args *a;
	struct filelist fl;
	struct scn_file **files;  /* NULL: the file does not parse (its result an ERROR already) */
	char **diags;             /* cli_load_each's: the parse errors of files[i] == NULL */
	char **staged;            /* the copy the real stack runs (stage.h); NULL: not to run there */
	struct result *rs;
	struct rec_state *st;
	unsigned char *held;      /* per scenario: the kernel holds it (held.h); NULL: none is */
	char *careful;            /* per scenario: run it careful (careful.h); NULL: none can be */
	size_t printed;
	size_t shown;             /* results reported (TAP's numbers): printed less the not-run ones */
	size_t not_run;           /* scenarios an interruption kept from starting (rec_state.not_run) */
	char root[PATH_MAX], rec[PATH_MAX + 64]; /* rec: the records file of nodes run here (on_nodes.c) */
	char stacklog[PATH_MAX + 64]; /* ci/stack's and the inner run's stderr */
	struct results res;       /* the results directory; res.jsonl NULL: none */
	char **console_txt;       /* per scenario: the console excerpt when the guest died with it */
	size_t wait_k;            /* 1 + the scenario the progress line is about (0: none yet) */
	double wait_t0;           /* since when it is awaited */
	unsigned jobs;            /* --jobs (jobs.h): the main round's streams at first; above 1, side rounds (round.h) */
	struct m_profile dev_stack; /* --device: its driver's profile when not the judging one (name NULL: none) */
	char ran_where[16];       /* the real stack ci/stack chose ("host", "vm"; "": none, or not through it) */
	char ran_kernel[128];     /* uname -r where the real stack's runner ran (the first record's); "" none */
};

/*
 * What o ran on, for the reports (the coverage page's header): "the model
 * simulating profile rxe 6.1", "soft-RoCE (rxe) in a VM (ci/vm, Linux
 * 6.1.0-27-amd64)", "device mlx5_0 on this host, Linux 6.12.0", … into buf.
 */
void outer_ran_on(const struct outer *o, const struct m_profile *prof, char *buf, size_t len);
/* ci/stack's choice ("host", "vm") from its line in the stack log at log into where; left as it is if none. */
void outer_stack_choice(const char *log, char *where, size_t len);

/* Print every result that arrived, in order (and record it in the results directory). */
void outer_print_ready(struct outer *o);
/* Every scenario from `from` on that has no result yet gets verdict v and reason. */
void outer_finish_rest(struct outer *o, size_t from, enum verdict v, const char *reason);
/*
 * After Ctrl-C or SIGTERM: a scenario running (the main round's, a side round's) is an ERROR at its
 * step; those that had not begun (held-back crash-predicted ones too) are not run: counted in
 * o->not_run, with no report line, no results entry and no JUnit case of their own.
 */
void outer_mark_interrupted(struct outer *o);
/* o->root, build/run in it (into dir), and o->rec there (records-PID.txt). 0 or EXIT_INFRA. */
int outer_records_here(struct outer *o, char *dir, size_t len);

struct vms;

/*
 * --device, --topology and --stack=vms (vm not NULL): every scenario on
 * topology t in this process (on_nodes.c). Returns 1 on an infrastructure
 * failure.
 */
int outer_device(struct outer *o, const struct m_profile *prof, struct topo *t, struct vms *vm);
/* --stack=vms: boot the node guests, outer_device on them, stop them. Returns 1 on an infrastructure failure. */
int outer_vms(struct outer *o, struct m_profile *prof);
/*
 * --device: its topology (build/run/device-DEV.topo, kept), its profile, and
 * o->dev_stack (dev_setup). 0 or an exit status.
 */
int outer_device_start(struct outer *o, struct m_profile *prof, struct topo *t);
/* --topology=FILE: its nodes, and their profile unless --profile was given. 0 or an exit status. */
int outer_topology_start(struct outer *o, struct m_profile *prof, struct topo *t);

#endif

/*
 * on_nodes.c — `rdmacheck run` on nodes that exist (--device: the host's
 * own device; --topology: agents listening on other kernels) or that the run
 * boots (--stack=vms: a guest per node, vms.h), every scenario judged in
 * this process (the inner runner's cli_inner_one) while the outer runner's
 * report goes on (suite.h).
 */
#include "harness/suite/suite.h"
#include "harness/base/exits.h"
#include "harness/suite/inner.h"
#include "harness/corpus/crash_pred.h"
#include "harness/nodes/device.h"
#include "harness/suite/interrupt.h"
#include "harness/nodes/node_profile.h"
#include "harness/nodes/vms.h"
#include "harness/run/pool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define VMS_DEATH_MS 15000 /* after an ERROR, how long ci/vms may take to see a node's guest ended */

/*
 * --device, --topology and --stack=vms: every scenario on topology t, which
 * is there already (the host's own device, one node; or nodes on other
 * kernels whose agents listen), in this process (the inner runner's
 * cli_inner_one); one that needs more nodes than t has is skipped. With vm
 * (--stack=vms) the nodes are guests of this run: more are booted for a
 * scenario that needs them, steps that kill the kernel run, and a guest that
 * died under a scenario judges it (vms_after) and is back before the next.
 * Returns 1 on an infrastructure failure.
 */
int outer_device(struct outer *o, const struct m_profile *prof, struct topo *t, struct vms *vm)
{
	FILE *rec = fopen(o->rec, "w");
	char err[512];
	struct stack_pool pool;
	struct rec_cursor cur = { 0 }; /* the records read after each scenario: only what it added */

	if (!rec) {
		fprintf(stderr, "rdmacheck: cannot write %s: %s\n", o->rec, strerror(errno));
		return 1;
	}
	stack_pool_init(&pool, t, o->a->step_s * 1000);
	if (!o->a->fresh_agents) /* ready before the first scenario (one that cannot start them says why) */
		stack_pool_prestart(&pool, (unsigned)(t->n < SCN_NODES_MAX ? t->n : SCN_NODES_MAX));
	for (size_t i = 0; i < o->fl.n && !interrupt_caught(); i++) {
		if (o->st[i].finished) { /* does not parse: its ERROR is there already */
			outer_print_ready(o);
			continue;
		}
		if (vm && o->files[i]->nnodes > t->n && vms_grow(vm, o->files[i]->nnodes, t, err, sizeof(err)))
			fprintf(stderr, "rdmacheck: cannot boot %zu node guests: %s\n", o->files[i]->nnodes, err);
		if (o->files[i]->nnodes > t->n) {
			o->rs[i].v = V_SKIP;
			if (o->a->device)
				snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "needs %zu nodes; --device=%s gives one",
					 o->files[i]->nnodes, o->a->device);
			else
				snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "needs %zu nodes; %s%s has %zu",
					 o->files[i]->nnodes, vm ? "--stack=vms" : "--topology=",
					 vm ? "" : o->a->topology, t->n);
			o->st[i].finished = 1;
		} else if (vm && vms_before(vm, o->files[i]->nnodes, err, sizeof(err))) {
			o->rs[i].v = V_ERROR;
			snprintf(o->rs[i].reason, sizeof(o->rs[i].reason), "not run: %.480s", err);
			o->st[i].finished = 1;
		} else {
			struct cli_pred pred;

			cli_predict(o->files[i], prof, o->dev_stack.name ? &o->dev_stack : NULL, &pred);
			cli_inner_one(o->a, prof, &pred, &pool, rec, i, o->files[i], vm != NULL, 0);
			fflush(rec);
			rec_read_more(&cur, o->rec, o->rs, o->st, o->fl.n);
			if (vm)
				vms_after(vm, o->files[i]->nnodes, VMS_DEATH_MS, &o->rs[i], &o->st[i], &o->console_txt[i]);
		}
		outer_print_ready(o);
	}
	outer_mark_interrupted(o);
	outer_print_ready(o);
	stack_pool_close(&pool);
	rec_cursor_reset(&cur);
	fclose(rec);
	unlink(o->rec);
	return 0;
}

/*
 * --stack=vms: guests for as many nodes as the first scenario needs (at
 * least two when any needs two: most do), more booted when one needs them;
 * the scenarios on them (outer_device); the guests stopped. Returns 1 on an
 * infrastructure failure.
 */
int outer_vms(struct outer *o, struct m_profile *prof)
{
	char dir[PATH_MAX + 16], err[1024];
	size_t first = 0, most = 1, boot;
	struct topo t;
	struct vms vm;
	int infra;

	for (size_t i = 0; i < o->fl.n; i++)
		if (o->files[i] && !o->st[i].finished) {
			first = first ? first : o->files[i]->nnodes;
			most = o->files[i]->nnodes > most ? o->files[i]->nnodes : most;
		}
	if (outer_records_here(o, dir, sizeof(dir)))
		return 1;
	snprintf(o->stacklog, sizeof(o->stacklog), "%s/stack-%ld.log", dir, (long)getpid());
	unlink(o->stacklog);
	boot = most < 2 ? most : 2;
	boot = first > boot ? first : boot;
	fprintf(stderr, "rdmacheck: booting %zu node guests (%d MiB each; ci/vms)...\n", boot, o->a->vm_mem);
	if (vms_start(&vm, o->root, boot, o->a->vm_mem, o->stacklog, &t, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck: --stack=vms: %s\n", err);
		outer_finish_rest(o, 0, V_ERROR, "not run: the node guests did not come up (see stack.log in the results)");
		outer_print_ready(o);
		infra = 1;
	} else {
		if (!o->a->profile_set)
			node_profile(&t, o->a->step_s * 1000, prof, stderr);
		infra = outer_device(o, prof, &t, &vm);
		vms_stop(&vm);
	}
	if (o->res.jsonl)
		results_file(&o->res, "stack.log", o->stacklog);
	unlink(o->stacklog);
	return infra;
}

/*
 * --device: its topology, build/run/device-DEV.topo (kept, for a look), and
 * its profile; o->rec names the records file. 0 or an exit status.
 */
int outer_device_start(struct outer *o, struct m_profile *prof, struct topo *t)
{
	char dir[PATH_MAX + 16], topo[PATH_MAX + 160];

	if (outer_records_here(o, dir, sizeof(dir)))
		return EXIT_INFRA;
	snprintf(topo, sizeof(topo), "%s/device-%.64s.topo", dir, o->a->device); /* kept: what the run was given */
	return dev_setup(o->a->device, o->a->profile_set ? o->a->profile : NULL, topo, t, prof, &o->dev_stack);
}

/* --topology=FILE: nodes that exist already (mode hosts), and their profile (node_profile.h). 0 or an exit status. */
int outer_topology_start(struct outer *o, struct m_profile *prof, struct topo *t)
{
	char dir[PATH_MAX + 16], err[512];

	if (outer_records_here(o, dir, sizeof(dir)))
		return EXIT_INFRA;
	if (topo_load(o->a->topology, t, err, sizeof(err))) {
		fprintf(stderr, "rdmacheck: --topology=%s: %s\n", o->a->topology, err);
		return EXIT_USAGE;
	}
	if (!o->a->profile_set) /* a node that cannot be reached: said; its scenarios say it again */
		node_profile(t, o->a->step_s * 1000, prof, stderr);
	return 0;
}

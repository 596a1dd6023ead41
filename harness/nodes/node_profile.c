/* node_profile.c — the profile chosen from the nodes' greetings (node_profile.h). */
#include "harness/nodes/node_profile.h"
#include "harness/run/driver.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int node_profile(const struct topo *t, int step_ms, struct m_profile *prof, FILE *say)
{
	struct scn_file *f = calloc(1, sizeof(*f));
	struct stack *st = calloc(1, sizeof(*st));
	const char *devs[SCN_NODES_MAX], *drivers[SCN_NODES_MAX], *kernels[SCN_NODES_MAX];
	char notes[SCN_NODES_MAX * 160];
	const char *name;
	uint32_t kver;
	int rc = -ENOMEM;

	if (!f || !st)
		goto out;
	f->nnodes = t->n < SCN_NODES_MAX ? t->n : SCN_NODES_MAX;
	for (size_t i = 0; i < f->nnodes; i++)
		snprintf(f->nodes[i], sizeof(f->nodes[i]), "%.*s", (int)sizeof(f->nodes[i]) - 1, t->node[i].name);
	if ((rc = stack_start(st, f, t, step_ms)) != 0) {
		fprintf(say, "rdmacheck: cannot ask the nodes for their drivers: %s\n", st->err);
		goto out;
	}
	for (size_t i = 0; i < f->nnodes; i++) {
		devs[i] = t->node[i].rxe;
		drivers[i] = st->ag[i].driver[0] ? st->ag[i].driver : "unknown";
		kernels[i] = st->ag[i].kernel;
	}
	name = driver_nodes_profile(f->nnodes, devs, drivers, kernels, &kver, notes, sizeof(notes));
	for (char *line = strtok(notes, "\n"); line; line = strtok(NULL, "\n"))
		fprintf(say, "rdmacheck: %s\n", line);
	if ((rc = m_profile_get(name, kver, prof)) == 0) {
		if (kver)
			fprintf(say, "rdmacheck: profile %s:%u.%u, from the nodes' driver (%s) and kernel (%s)\n", name,
				kver / 1000, kver % 1000, drivers[0], kernels[0]);
		else
			fprintf(say, "rdmacheck: profile %s, from the nodes' drivers\n", name);
	}
	stack_stop(st);
out:
	free(st);
	free(f);
	return rc;
}

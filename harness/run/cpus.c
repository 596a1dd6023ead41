/* cpus.c — the coordinator on one CPU, its agents on the others (cpus.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include "harness/run/cpus.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int done;      /* cpus_split ran */
	int split;     /* agents has the agents' CPUs */
	cpu_set_t agents;
} cs;

int cpus_split(void)
{
	const char *env = getenv("RDMACHECK_CPU_SPLIT");
	cpu_set_t all, self;
	int first = -1;

	if (cs.done)
		return 0;
	cs.done = 1;
	if ((env && strcmp(env, "0") == 0) || sched_getaffinity(0, sizeof(all), &all))
		return env ? 0 : -errno;
	if (CPU_COUNT(&all) < 2)
		return 0;
	first = sched_getcpu(); /* where it runs now: runners side by side are spread already */
	for (int c = 0; c < CPU_SETSIZE && (first < 0 || !CPU_ISSET(first, &all)); c++)
		if (CPU_ISSET(c, &all))
			first = c;
	CPU_ZERO(&self);
	CPU_SET(first, &self);
	if (sched_setaffinity(0, sizeof(self), &self))
		return -errno;
	cs.agents = all;
	CPU_CLR(first, &cs.agents);
	cs.split = 1;
	return 0;
}

void cpus_agent(void)
{
	if (cs.split)
		sched_setaffinity(0, sizeof(cs.agents), &cs.agents); /* failing: where it was, as without the split */
}

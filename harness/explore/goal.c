/*
 * goal.c — when `rdmacheck explore --until=N:F` has found what it looks for
 * (explore.h ex_goal_met): N distinct declared deviations of the stack's
 * profile, in cases of at least F API families (--until=N:F:S: shrunk to
 * at most S steps).
 */
#include "harness/explore/explore.h"

#include <string.h>

int ex_found_family(const struct ex_found *f)
{
	int k = scn_call_find(f->sig.call);

	return k >= 0 ? (int)scn_call_get((size_t)k)->api : (int)M_FAM_VERBS; /* `connect`: a verbs keyword */
}

void ex_goal_count(const struct ex_opts *o, const struct ex_summary *sum, unsigned *devs, unsigned *fams)
{
	unsigned famset = 0;

	*devs = 0;
	for (size_t i = 0; i < sum->nfound; i++) {
		int dup = 0;

		if (!sum->found[i].deviation[0] || (o->goal_steps && sum->found[i].to > o->goal_steps))
			continue;
		for (size_t j = 0; j < i; j++)
			dup |= strcmp(sum->found[j].deviation, sum->found[i].deviation) == 0 &&
			       (!o->goal_steps || sum->found[j].to <= o->goal_steps);
		if (dup)
			continue;
		(*devs)++;
		famset |= 1u << ex_found_family(&sum->found[i]);
	}
	*fams = (unsigned)__builtin_popcount(famset);
}

int ex_goal_met(const struct ex_opts *o, const struct ex_summary *sum)
{
	unsigned devs, fams;

	if (!o->goal_devs)
		return 0;
	ex_goal_count(o, sum, &devs, &fams);
	return devs >= o->goal_devs && fams >= o->goal_fams;
}

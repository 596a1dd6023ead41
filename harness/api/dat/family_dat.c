/*
 * family_dat.c — the dat family's row of the registry (harness/run/family.h):
 * uDAPL (libdat2). Its index is M_FAM_DAT (model/families.def).
 */
#include "harness/api/dat/api_dat.h"

/*
 * The agent's hooks are linked into build/rdmacheck-agent only: weak here,
 * they are NULL in build/rdmacheck, which needs none of the stack's libraries.
 */
#pragma weak agent_dat_reqs
#pragma weak agent_dat_end

const struct api_family api_family_dat = {
	.name = "dat", .calls = api_dat_calls, .ncalls = &api_dat_calls_n,
	.caps = M_CAP_DAPL, .resolve = resolve_dat,
	.model_op = model_op_dat, .model_made = model_made_dat, .stack_exec = stack_exec_dat, .agent_reqs = agent_dat_reqs,
	.agent_end = agent_dat_end,
};

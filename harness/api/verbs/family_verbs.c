/*
 * family_verbs.c — the verbs family's row of the registry (harness/run/family.h):
 * libibverbs. Its index is M_FAM_VERBS (model/families.def).
 */
#include "harness/api/verbs/api_verbs.h"

/*
 * The agent's hooks are linked into build/rdmacheck-agent only: weak here,
 * they are NULL in build/rdmacheck, which needs none of the stack's libraries.
 */
#pragma weak agent_verbs_reqs

const struct api_family api_family_verbs = {
	.name = "verbs", .calls = api_verbs_calls, .ncalls = &api_verbs_calls_n,
	.resolve = resolve_verbs, .model_op = model_op_verbs,
	.stack_exec = stack_exec_verbs, .agent_reqs = agent_verbs_reqs, .stack_exec_chain = stack_exec_chain_verbs,
	.stack_ahead = stack_ahead_verbs,
};

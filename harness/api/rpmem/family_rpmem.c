/*
 * family_rpmem.c — the rpmem family's row of the registry (harness/run/family.h):
 * librpmem (lib/rpmem). Its index is M_FAM_RPMEM (model/families.def).
 */
#include "harness/api/rpmem/api_rpmem.h"

/*
 * The agent's hooks are linked into build/rdmacheck-agent only: weak here,
 * they are NULL in build/rdmacheck, which needs none of the stack's libraries.
 */
#pragma weak agent_rpmem_reqs
#pragma weak agent_rpmem_end

const struct api_family api_family_rpmem = {
	.name = "rpmem", .calls = api_rpmem_calls, .ncalls = &api_rpmem_calls_n,
	.caps = M_CAP_RPMEM, .resolve = resolve_rpmem,
	.model_op = model_op_rpmem, .model_buf = model_buf_rpmem, .stack_exec = stack_exec_rpmem,
	.stack_read = stack_read_rpmem, .read_classes = SCN_C_RPMEM_POOL, .agent_reqs = agent_rpmem_reqs,
	.agent_end = agent_rpmem_end,
	/* agent_rpmem_end kills the served daemons and removes the root; librpmem keeps no state
	 * of a call past it (the target's fields, RPMEM_* and the channel are set at each call) */
	.agent_end_fresh = 1,
};

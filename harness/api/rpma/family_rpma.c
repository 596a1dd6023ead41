/*
 * family_rpma.c — the rpma family's row of the registry (harness/run/family.h):
 * librpma. Its index is M_FAM_RPMA (model/families.def).
 */
#include "harness/api/rpma/api_rpma.h"

/*
 * The agent's hooks are linked into build/rdmacheck-agent only: weak here,
 * they are NULL in build/rdmacheck, which needs none of the stack's libraries.
 */
#pragma weak agent_rpma_reqs
#pragma weak agent_rpma_end

const struct api_family api_family_rpma = {
	.name = "rpma", .calls = api_rpma_calls, .ncalls = &api_rpma_calls_n,
	.caps = M_CAP_RPMA, .resolve = resolve_rpma,
	.model_op = model_op_rpma, .stack_exec = stack_exec_rpma, .stack_blob = stack_blob_rpma,
	.blob_classes = SCN_C_RPMA_MR | SCN_C_RPMA_REMOTE, .agent_reqs = agent_rpma_reqs,
	.agent_end = agent_rpma_end,
	/* agent_rpma_end deletes the node's peer, its configuration and its endpoint after every
	 * connection and registration went (their objects' releases); what outlives it in the process
	 * is librdmacm's device list and the node's source address (agent_rpma_cm.c), both the
	 * node's own and the same for the next scenario on it, and the log function, set again */
	.agent_end_fresh = 1,
};

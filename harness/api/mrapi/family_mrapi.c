/*
 * family_mrapi.c — the mrapi family's row of the registry (harness/run/family.h):
 * MRAPI remote memory (lib/mrapi). Its index is M_FAM_MRAPI (model/families.def).
 */
#include "harness/api/mrapi/api_mrapi.h"

/*
 * The agent's hooks are linked into build/rdmacheck-agent only: weak here,
 * they are NULL in build/rdmacheck, which needs none of the stack's libraries.
 */
#pragma weak agent_mrapi_reqs
#pragma weak agent_mrapi_end

const struct api_family api_family_mrapi = {
	.name = "mrapi", .calls = api_mrapi_calls, .ncalls = &api_mrapi_calls_n,
	.caps = M_CAP_MRAPI, .resolve = resolve_mrapi,
	.model_op = model_op_mrapi, .model_view = model_view_mrapi, .model_buf = model_buf_mrapi,
	.stack_exec = stack_exec_mrapi, .agent_reqs = agent_mrapi_reqs,
	.agent_end = agent_mrapi_end,
};

/*
 * registry.c — the API families (family.h): one row each, at the index of
 * its enum scn_api value. Adding a family is its folder harness/api/<name>/
 * and one row here (HACKING.md: "Adding an API family").
 */
#include "harness/run/family.h"
#include "harness/lang/scn_family.h"
#include "harness/api/dat/dat.h"
#include "harness/api/harness/harness.h"
#include "harness/api/mrapi/mrapi.h"
#include "harness/api/rpma/rpma.h"
#include "harness/api/rpmem/rpmem.h"
#include "harness/api/verbs/verbs.h"

/*
 * The agent's hooks are linked into build/rdmacheck-agent only (main.c):
 * weak here, they are NULL in build/rdmacheck, which thus needs none of the
 * stack's libraries (librpma, libibverbs) to start.
 */
#pragma weak agent_verbs_reqs
#pragma weak agent_rpma_reqs
#pragma weak agent_rpma_end
#pragma weak agent_dat_reqs
#pragma weak agent_dat_end
#pragma weak agent_mrapi_reqs
#pragma weak agent_mrapi_end
#pragma weak agent_rpmem_reqs
#pragma weak agent_rpmem_end

static const struct api_family families[] = {
	[SCN_API_VERBS] = {
		.name = "verbs", .calls = api_verbs_calls, .ncalls = &api_verbs_calls_n,
		.resolve = resolve_verbs, .model_op = model_op_verbs,
		.stack_exec = stack_exec_verbs, .agent_reqs = agent_verbs_reqs, .stack_exec_chain = stack_exec_chain_verbs,
		.stack_ahead = stack_ahead_verbs,
	},
	[SCN_API_HARNESS] = {
		.name = "harness", .calls = api_harness_calls, .ncalls = &api_harness_calls_n,
		.resolve = resolve_harness, .model_op = model_op_harness,
		.stack_exec = stack_exec_harness,
	},
	[SCN_API_RPMA] = {
		.name = "rpma", .calls = api_rpma_calls, .ncalls = &api_rpma_calls_n,
		.caps = M_CAP_RPMA, .resolve = resolve_rpma,
		.model_op = model_op_rpma, .stack_exec = stack_exec_rpma, .stack_blob = stack_blob_rpma,
		.blob_classes = SCN_C_RPMA_MR | SCN_C_RPMA_REMOTE, .agent_reqs = agent_rpma_reqs,
		.agent_end = agent_rpma_end,
	},
	[SCN_API_DAT] = {
		.name = "dat", .calls = api_dat_calls, .ncalls = &api_dat_calls_n,
		.caps = M_CAP_DAPL, .resolve = resolve_dat,
		.model_op = model_op_dat, .model_made = model_made_dat, .stack_exec = stack_exec_dat, .agent_reqs = agent_dat_reqs,
		.agent_end = agent_dat_end,
	},
	[SCN_API_MRAPI] = {
		.name = "mrapi", .calls = api_mrapi_calls, .ncalls = &api_mrapi_calls_n,
		.caps = M_CAP_MRAPI, .resolve = resolve_mrapi,
		.model_op = model_op_mrapi, .model_view = model_view_mrapi, .model_buf = model_buf_mrapi,
		.stack_exec = stack_exec_mrapi, .agent_reqs = agent_mrapi_reqs,
		.agent_end = agent_mrapi_end,
	},
	[SCN_API_RPMEM] = {
		.name = "rpmem", .calls = api_rpmem_calls, .ncalls = &api_rpmem_calls_n,
		.caps = M_CAP_RPMEM, .resolve = resolve_rpmem,
		.model_op = model_op_rpmem, .model_buf = model_buf_rpmem, .stack_exec = stack_exec_rpmem,
		.stack_read = stack_read_rpmem, .read_classes = SCN_C_RPMEM_POOL, .agent_reqs = agent_rpmem_reqs,
		.agent_end = agent_rpmem_end,
	},
};

_Static_assert(sizeof(families) / sizeof(families[0]) == SCN_API_COUNT_, "one row per enum scn_api value");
_Static_assert(SCN_API_COUNT_ <= API_FAMILIES_MAX, "raise API_FAMILIES_MAX");

size_t api_family_count(void)
{
	return sizeof(families) / sizeof(families[0]);
}

const struct api_family *api_family_get(size_t i)
{
	return i < api_family_count() ? &families[i] : NULL;
}

/* The language's view of the rows (scn_family.h). */
size_t scn_family_count(void)
{
	return api_family_count();
}

const char *scn_family_name(size_t i)
{
	const struct api_family *f = api_family_get(i);

	return f ? f->name : NULL;
}

const struct scn_call *scn_family_calls(size_t i, size_t *n)
{
	const struct api_family *f = api_family_get(i);

	*n = f && f->calls && f->ncalls ? *f->ncalls : 0;
	return *n ? f->calls : NULL;
}

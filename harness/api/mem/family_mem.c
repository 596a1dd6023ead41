/*
 * family_mem.c — the mem family's row of the registry (harness/run/family.h):
 * the memory contents of any family's buffer: fill and check. Its index is M_FAM_MEM (model/families.def).
 */
#include "harness/api/mem/api_mem.h"

const struct api_family api_family_mem = {
	.name = "mem", .calls = api_mem_calls, .ncalls = &api_mem_calls_n,
	.resolve = resolve_mem, .model_op = model_op_mem,
	.stack_exec = stack_exec_mem,
};

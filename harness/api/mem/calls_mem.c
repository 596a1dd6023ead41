/*
 * calls_mem.c — the mem family's calls: memory contents of any family's
 * buffer (fill writes them on the stack, check compares them with the model).
 * Data only; scenarios/README.md documents them.
 */
#include "harness/api/mem/api_mem.h"
#include "harness/lang/scn_callspec.h"

/* A librpmem pool's bytes are its target's (the part files; harness/api/rpmem/stack_rpmem.c). */
#define BUF_CLS (SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR | SCN_C_MRAPI_RMEM | SCN_C_RPMEM_POOL)
/* An MRAPI rmem's creator stores through its pointer with the family's mrapi_local_store (RMEM-COH-1). */
#define FILL_CLS (SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR)

const struct scn_call api_mem_calls[] = {
	CALL("fill", MEM, LOCAL, FILL_CLS, 0, O(OK),
	     ARGS(REQ("byte", RANGE(0, 255)), OPT("off", NUM), OPT("len", NUM))),
	CALL("check", MEM, LOCAL, BUF_CLS, 0, O(OK),
	     ARGS(OPT("off", NUM), OPT("len", NUM), OPT("byte", RANGE(0, 255)))),
	{ 0 },
};
CALLS_COUNT(api_mem_calls);

/* calls_rpmem.c — librpmem's calls: a provisional schema (no engine yet). */
#include "harness/api/rpmem/rpmem.h"
#include "harness/lang/scn_callspec.h"

const struct scn_call api_rpmem_calls[] = {
	CALL("rpmem_create", RPMEM, CREATE, SCN_C_RPMEM_POOL, 0, O(OK) | O(ERRNO) | O(CRASH),
	     ARGS(REQ("target", STR), REQ("pool", STR), REQ("len", NUM))),
	{ 0 },
};

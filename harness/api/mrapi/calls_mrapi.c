/* calls_mrapi.c — MRAPI's calls: a provisional schema (no engine yet). */
#include "harness/api/mrapi/mrapi.h"
#include "harness/lang/scn_callspec.h"

const struct scn_call api_mrapi_calls[] = {
	CALL("mrapi_rmem_create", MRAPI, CREATE, SCN_C_MRAPI_RMEM, 0, O(OK) | O(MRAPI) | O(CRASH),
	     ARGS(REQ("key", NUM), REQ("len", NUM))),
	{ 0 },
};

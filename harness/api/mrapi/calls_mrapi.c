/*
 * calls_mrapi.c — the MRAPI remote-memory calls a scenario can make (MRAPI
 * V0.9.3 4.4.2, requests 3.9; lib/mrapi). Data only; scenarios/README.md
 * documents each entry. The local buffer of a read or write is a buffer the
 * calling node created as rmem (local=L+OFF), so its bytes can be checked.
 */
#include "harness/api/mrapi/api_mrapi.h"
#include "harness/lang/scn_callspec.h"

#define O_MRAPI (O(MRAPI) | O(CRASH))
#define NULLS OPT("null", FLAGS(SCN_T_MRAPI_NULL))
#define NUMWORD(t) .kinds = SCN_V_INT | SCN_V_ATTR | SCN_V_WORD, .table = (t) /* a number or a name of t */
#define RMEM_ID NUMWORD(SCN_T_MRAPI_ID) /* N or ANY */
#define ATYPE OPT("atype", WORD(SCN_T_MRAPI_ATYPE))
#define RW_ARGS                                                                                         \
	REQ("local", ADDR(SCN_C_MRAPI_RMEM)), REQ("bytes", NUM), OPT("rmem_offset", NUM), OPT("strides", NUM), \
		OPT("rmem_stride", NUM), OPT("local_stride", NUM), OPT("local_size", NUM), NULLS

const struct scn_call api_mrapi_calls[] = {
	CALL("mrapi_initialize", MRAPI, ACT, 0, 0, O_MRAPI, ARGS(OPT("domain", NUM), OPT("node_id", NUM))),
	CALL("mrapi_finalize", MRAPI, ACT, 0, 0, O_MRAPI, NOARGS),
	CALL("mrapi_rmem_create", MRAPI, CREATE, SCN_C_MRAPI_RMEM, 0, O_MRAPI,
	     ARGS(REQ("id", RMEM_ID), REQ("size", NUM), ATYPE, OPT("attrs", OBJ(SCN_C_MRAPI_ATTRS)),
		  OPT("over", ADDR(SCN_C_MRAPI_RMEM)), NULLS)),
	CALL("mrapi_rmem_init_attributes", MRAPI, CREATE, SCN_C_MRAPI_ATTRS, 0, O_MRAPI, ARGS(NULLS)),
	CALL("mrapi_rmem_set_attribute", MRAPI, ACT, SCN_C_MRAPI_ATTRS, 0, O_MRAPI,
	     ARGS(REQ("attr", NUMWORD(SCN_T_MRAPI_ATTR)), OPT("value", NUM), OPT("size", NUM), NULLS)),
	QUERY("mrapi_rmem_get_attribute", MRAPI, SCN_C_MRAPI_RMEM, O_MRAPI | SCN_OUTS_QUERY,
	      ARGS(REQ("attr", NUMWORD(SCN_T_MRAPI_ATTR)), OPT("size", NUM), NULLS), ARGS(OPT("value", NUM))),
	CALL("mrapi_rmem_get", MRAPI, CREATE, SCN_C_MRAPI_RMEM, 0, O_MRAPI, ARGS(REQ("id", RMEM_ID), ATYPE)),
	CALL("mrapi_rmem_attach", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, NOARGS),
	CALL("mrapi_rmem_detach", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, NOARGS),
	CALL("mrapi_rmem_delete", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, NOARGS),
	CALL("mrapi_rmem_read", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, ARGS(RW_ARGS)),
	CALL("mrapi_rmem_read_i", MRAPI, CREATE, SCN_C_MRAPI_REQ, 0, O_MRAPI,
	     ARGS(REQ("rmem", OBJ(SCN_C_MRAPI_RMEM)), RW_ARGS)),
	CALL("mrapi_rmem_write", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, ARGS(RW_ARGS)),
	CALL("mrapi_rmem_write_i", MRAPI, CREATE, SCN_C_MRAPI_REQ, 0, O_MRAPI,
	     ARGS(REQ("rmem", OBJ(SCN_C_MRAPI_RMEM)), RW_ARGS)),
	CALL("mrapi_rmem_flush", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, NOARGS),
	CALL("mrapi_rmem_sync", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O_MRAPI, NOARGS),
	CALL("mrapi_test", MRAPI, ACT, SCN_C_MRAPI_REQ, 0, O_MRAPI, NOARGS),
	CALL("mrapi_wait", MRAPI, ACT, SCN_C_MRAPI_REQ, 0, O_MRAPI, ARGS(OPT("timeout", NUM))),
	CALL("mrapi_cancel", MRAPI, ACT, SCN_C_MRAPI_REQ, 0, O_MRAPI, NOARGS),
	CALL("mrapi_local_store", MRAPI, ACT, SCN_C_MRAPI_RMEM, 0, O(OK) | O(CRASH),
	     ARGS(REQ("byte", RANGE(0, 255)), OPT("off", NUM), OPT("len", NUM))),
	{ 0 },
};
CALLS_COUNT(api_mrapi_calls);

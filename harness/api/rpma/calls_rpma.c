/*
 * calls_rpma.c — the librpma calls a scenario can make (their C names;
 * null= passes the named pointer arguments as NULL). Data only;
 * scenarios/README.md documents each entry.
 */
#include "harness/api/rpma/api_rpma.h"
#include "harness/lang/scn_callspec.h"

#define O_RPMA (O(OK) | O(RPMA) | O(CRASH))
#define O_RPMA_POST (O(OK) | O(RPMA) | O(WC) | O(CRASH))
#define O_RPMA_QUERY (O_RPMA | SCN_OUTS_QUERY)

#define RPMA_NULL OPT("null", FLAGS(SCN_T_RPMA_NULL))
#define RPMA_FLAGS OPT("flags", FLAGS(SCN_T_RPMA_FLAGS))
#define RPMA_IO_ARGS ARGS(OPT("local", ADDR(SCN_C_RPMA_MR)), OPT("remote", ADDR(SCN_C_RPMA_REMOTE)), \
			  REQ("len", NUM), RPMA_FLAGS, RPMA_NULL)

const struct scn_call api_rpma_calls[] = {
	CALL("rpma_mr_reg", RPMA, CREATE, SCN_C_RPMA_MR, 0, O_RPMA,
	     ARGS(REQ("len", NUM), REQ("usage", FLAGS(SCN_T_USAGE)), OPT("offset", RANGE(0, 4095)),
		  OPT("prot", WORD(SCN_T_PROT)), { .key = "buf", .flags = SCN_A_OWN, OBJ(SCN_C_RPMA_MR) }, RPMA_NULL)),
	CALL("rpma_mr_dereg", RPMA, ACT, SCN_C_RPMA_MR, 1, O_RPMA, ARGS(RPMA_NULL)),
	CALL("rpma_mr_get_descriptor", RPMA, ACT, SCN_C_RPMA_MR, 0, O_RPMA, ARGS(RPMA_NULL)),
	QUERY("rpma_mr_get_descriptor_size", RPMA, SCN_C_RPMA_MR, O_RPMA_QUERY, ARGS(RPMA_NULL),
	      ARGS(OPT("size", NUM))),
	CALL("rpma_mr_remote_from_descriptor", RPMA, CREATE, SCN_C_RPMA_REMOTE, 0, O_RPMA,
	     ARGS(OPT("from", OBJ(SCN_C_RPMA_MR | SCN_C_RPMA_REMOTE)), OPT("bytes", HEX),
		  OPT("size", RANGE(0, 4096)), OPT("addr", NUM), OPT("length", NUM), OPT("rkey", NUM),
		  OPT("usage", FLAGS(SCN_T_USAGE)), RPMA_NULL)),
	QUERY("rpma_mr_remote_get_size", RPMA, SCN_C_RPMA_REMOTE, O_RPMA_QUERY, ARGS(RPMA_NULL),
	      ARGS(OPT("size", NUM))),
	QUERY("rpma_mr_remote_get_flush_type", RPMA, SCN_C_RPMA_REMOTE, O_RPMA_QUERY, ARGS(RPMA_NULL),
	      ARGS(OPT("flush_type", FLAGS(SCN_T_USAGE)))),
	CALL("rpma_connect", RPMA, CREATE, SCN_C_RPMA_CONN, 0, O_RPMA, ARGS(REQ("peer", NODE), OPT("pmem", BARE))),
	CALL("rpma_conn_disconnect", RPMA, ACT, SCN_C_RPMA_CONN, 1, O_RPMA, ARGS(RPMA_NULL)),
	CALL("rpma_read", RPMA, POST, SCN_C_RPMA_CONN, 0, O_RPMA_POST, RPMA_IO_ARGS),
	CALL("rpma_write", RPMA, POST, SCN_C_RPMA_CONN, 0, O_RPMA_POST, RPMA_IO_ARGS),
	CALL("rpma_atomic_write", RPMA, POST, SCN_C_RPMA_CONN, 0, O_RPMA_POST,
	     ARGS(REQ("remote", ADDR(SCN_C_RPMA_REMOTE)), REQ("value", NUM), RPMA_FLAGS, RPMA_NULL)),
	CALL("rpma_flush", RPMA, POST, SCN_C_RPMA_CONN, 0, O_RPMA_POST,
	     ARGS(REQ("remote", ADDR(SCN_C_RPMA_REMOTE)), REQ("len", NUM),
		  REQ("type", .kinds = SCN_V_WORD | SCN_V_INT, .table = SCN_T_FLUSH), RPMA_FLAGS, RPMA_NULL)),
	{ 0 },
};
CALLS_COUNT(api_rpma_calls);

/*
 * calls_rpmem.c — the librpmem calls a scenario can make (their C names), the
 * pool set file a target node offers (rpmem_poolset), the client's writes to
 * its pool memory (rpmem_fill) and the check of the target's part files
 * (rpmem_check), and the target going away under an open pool
 * (rpmem_link_down: the target's daemon for that pool ends). Data only; scenarios/README.md documents each entry.
 */
#include "harness/api/rpmem/api_rpmem.h"
#include "harness/lang/scn_callspec.h"

#define O_RPMEM (O(OK) | O(ERRNO) | O(CRASH))
#define SET_ARGS REQ("target", NODE), REQ("set", STR)
#define POOL_ARGS SET_ARGS, REQ("size", NUM), OPT("nlanes", NUM), OPT("addr_offset", RANGE(0, 4095)), \
	OPT("null_addr", BARE), OPT("null_nlanes", BARE), OPT("max_nlanes_env", NUM)
/* what rpmem_open puts into open_attr (model/rpmem/query.c m_rpmem_attr_keys: 16-byte fields as _lo, _hi) */
#define ATTR_RESULTS                                                                                           \
	OPT("signature", NUM), OPT("major", NUM), OPT("compat_features", NUM), OPT("incompat_features", NUM),   \
		OPT("ro_compat_features", NUM), OPT("poolset_uuid_lo", NUM), OPT("poolset_uuid_hi", NUM),        \
		OPT("uuid_lo", NUM), OPT("uuid_hi", NUM), OPT("next_uuid_lo", NUM), OPT("next_uuid_hi", NUM),    \
		OPT("prev_uuid_lo", NUM), OPT("prev_uuid_hi", NUM), OPT("user_flags_lo", NUM),                   \
		OPT("user_flags_hi", NUM)
#define DATA_ARGS ARGS(OPT("offset", NUM), REQ("len", NUM), OPT("lane", NUM), OPT("flags", NUM))

const struct scn_call api_rpmem_calls[] = {
	CALL("rpmem_poolset", RPMEM, LOCAL, 0, 0, O(OK),
	     ARGS(REQ("set", STR), REQ("size", NUM), OPT("parts", RANGE(1, 8)), OPT("option", STR),
		  OPT("malformed", BARE))),
	CALL_RESULTS("rpmem_create", RPMEM, CREATE, SCN_C_RPMEM_POOL, 0, O_RPMEM, ARGS(POOL_ARGS, OPT("attr", HEX)),
		     ARGS(OPT("nlanes", NUM))),
	CALL_RESULTS("rpmem_open", RPMEM, CREATE, SCN_C_RPMEM_POOL, 0, O_RPMEM, ARGS(POOL_ARGS, OPT("null_attr", BARE)),
		     ARGS(OPT("nlanes", NUM), ATTR_RESULTS)),
	CALL("rpmem_set_attr", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O_RPMEM, ARGS(OPT("attr", HEX))),
	CALL("rpmem_close", RPMEM, ACT, SCN_C_RPMEM_POOL, 1, O_RPMEM, NOARGS),
	CALL("rpmem_remove", RPMEM, ACT, 0, 0, O_RPMEM, ARGS(SET_ARGS, OPT("flags", NUM))),
	CALL("rpmem_persist", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O_RPMEM, DATA_ARGS),
	CALL("rpmem_deep_persist", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O_RPMEM, DATA_ARGS),
	CALL("rpmem_flush", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O_RPMEM, DATA_ARGS),
	CALL("rpmem_drain", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O_RPMEM, ARGS(OPT("lane", NUM), OPT("flags", NUM))),
	CALL("rpmem_read", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O_RPMEM, DATA_ARGS),
	CALL("rpmem_fill", RPMEM, LOCAL, SCN_C_RPMEM_POOL, 0, O(OK),
	     ARGS(OPT("offset", NUM), REQ("len", NUM), REQ("byte", RANGE(0, 255)))),
	CALL("rpmem_link_down", RPMEM, ACT, SCN_C_RPMEM_POOL, 0, O(OK), NOARGS),
	{ 0 },
};
CALLS_COUNT(api_rpmem_calls);

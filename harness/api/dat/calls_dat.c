/*
 * calls_dat.c — the uDAPL calls a scenario can make (DAT 2.0, libdapl2).
 * Data only; scenarios/README.md documents each entry.
 */
#include "harness/api/dat/api_dat.h"
#include "harness/lang/scn_callspec.h"

#define O_DAT (O(OK) | O(DAT) | O(CRASH))
#define O_DAT_QUERY (O_DAT | SCN_OUTS_QUERY)
#define O_DAT_POST (O(DAT) | O(DTO) | O(CRASH)) /* refused at the call, or the DTO's completion */

#define DAT_IO_ARGS ARGS(REQ("local", ADDR(SCN_C_DAT_LMR)), REQ("remote", ADDR(SCN_C_DAT_LMR | SCN_C_DAT_RMR)), \
			 REQ("len", NUM), OPT("lmr_context", NUM), OPT("rmr_context", NUM))

const struct scn_call api_dat_calls[] = {
	CALL("dat_ia_open", DAT, ACT, 0, 0, O_DAT, ARGS(OPT("name", STR))),
	CALL("dat_pz_create", DAT, CREATE, SCN_C_DAT_PZ, 0, O_DAT, NOARGS),
	CALL("dat_pz_free", DAT, ACT, SCN_C_DAT_PZ, 1, O_DAT, NOARGS),
	CALL("dat_lmr_create", DAT, CREATE, SCN_C_DAT_LMR, 0, O_DAT,
	     ARGS(REQ("pz", OBJ(SCN_C_DAT_PZ)), REQ("len", NUM), REQ("priv", FLAGS(SCN_T_DAT_PRIV)),
		  OPT("type", WORD(SCN_T_DAT_MEM_TYPE)), OPT("from", OBJ(SCN_C_DAT_LMR)),
		  OPT("va_type", WORD(SCN_T_DAT_VA_TYPE)), OPT("offset", RANGE(0, 4095)),
		  OPT("prot", WORD(SCN_T_PROT)))),
	QUERY("dat_lmr_query", DAT, SCN_C_DAT_LMR, O_DAT_QUERY, NOARGS,
	      ARGS(OPT("lmr_context", NUM), OPT("rmr_context", NUM), OPT("registered_size", NUM),
		   OPT("registered_address", NUM), OPT("mem_priv", FLAGS(SCN_T_DAT_PRIV)))),
	CALL("dat_lmr_free", DAT, ACT, SCN_C_DAT_LMR, 1, O_DAT, NOARGS),
	CALL("dat_rmr_create", DAT, CREATE, SCN_C_DAT_RMR, 0, O_DAT, ARGS(REQ("pz", OBJ(SCN_C_DAT_PZ)))),
	CALL("dat_rmr_bind", DAT, POST, SCN_C_DAT_RMR, 0, O_DAT_POST,
	     ARGS(REQ("lmr", ADDR(SCN_C_DAT_LMR)), REQ("len", NUM), REQ("priv", FLAGS(SCN_T_DAT_PRIV)),
		  REQ("ep", OBJ(SCN_C_DAT_EP)))),
	CALL("dat_rmr_free", DAT, ACT, SCN_C_DAT_RMR, 1, O_DAT, NOARGS),
	CALL("dat_ep_connect", DAT, CREATE, SCN_C_DAT_EP, 0, O_DAT,
	     ARGS(REQ("pz", OBJ(SCN_C_DAT_PZ)), REQ("peer", OBJ(SCN_C_DAT_PZ)), OPT("private_data", RANGE(0, 1024)),
		  { .key = "accept", .kinds = SCN_V_OBJ, .flags = SCN_A_NEW, .cls = SCN_C_DAT_EP })),
	CALL("dat_ep_disconnect", DAT, ACT, SCN_C_DAT_EP, 0, O_DAT, NOARGS),
	CALL("dat_ep_free", DAT, ACT, SCN_C_DAT_EP, 1, O_DAT, NOARGS),
	CALL("dat_ep_post_rdma_write", DAT, POST, SCN_C_DAT_EP, 0, O_DAT_POST, DAT_IO_ARGS),
	CALL("dat_ep_post_rdma_read", DAT, POST, SCN_C_DAT_EP, 0, O_DAT_POST, DAT_IO_ARGS),
	{ 0 },
};
CALLS_COUNT(api_dat_calls);

/*
 * scn_calls.c — the call table: every call a scenario step can make, with
 * the keys it takes and the outcomes it can produce. Data only.
 *
 * Adding a call is one CALL() line; scenarios/README.md documents each
 * entry, and tests/unit/test_scn_calls.c checks the table's integrity.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>

/* Argument lists (file-scope compound literals have static storage). */
#define ARGS(...) ((const struct scn_arg_spec[]){ __VA_ARGS__, { 0 } })
#define NOARGS ((const struct scn_arg_spec[]){ { 0 } })
#define REQ(k, ...) { .key = k, .flags = SCN_A_REQ, __VA_ARGS__ }
#define OPT(k, ...) { .key = k, __VA_ARGS__ }

/* Value shapes. */
#define NUM .kinds = SCN_V_INT | SCN_V_ATTR                  /* a number or NAME.ATTR */
#define RANGE(a, b) NUM, .lo = (a), .hi = (b)
#define FLAGS(t) .kinds = SCN_V_FLAGS, .table = (t)
#define WORD(t) .kinds = SCN_V_WORD, .table = (t)
#define OBJ(c) .kinds = SCN_V_OBJ, .cls = (c)
#define ADDR(c) .kinds = SCN_V_ADDR, .cls = (c)              /* NAME is NAME+0 */
#define STR .kinds = SCN_V_STR
#define HEX .kinds = SCN_V_HEX
#define BARE .kinds = SCN_V_BARE
#define NODE .kinds = SCN_V_NODE
#define POS(k, ...) { .key = k, .flags = SCN_A_REQ | SCN_A_POS, __VA_ARGS__ }

/* Outcome sets. */
#define O(k) (1u << M_OUT_##k)
#define O_VERB (O(OK) | O(ERRNO) | O(CRASH))
#define O_POST (O(ERRNO) | O(WC) | O(CRASH))
#define O_QUERY (O(OK) | O(ERRNO) | O(CRASH) | SCN_OUTS_QUERY)
#define O_LOCAL O(OK)
#define O_RPMA (O(OK) | O(RPMA) | O(CRASH))
#define O_RPMA_POST (O(OK) | O(RPMA) | O(WC) | O(CRASH))
#define O_RPMA_QUERY (O_RPMA | SCN_OUTS_QUERY)
#define O_DAT (O(OK) | O(DAT) | O(CRASH))
#define O_DAT_QUERY (O_DAT | SCN_OUTS_QUERY)
#define O_DAT_POST (O(DAT) | O(DTO) | O(CRASH)) /* refused at the call, or the DTO's completion */
#define O_MRAPI (O(OK) | O(MRAPI) | O(CRASH))
#define O_RPMEM (O(OK) | O(ERRNO) | O(CRASH))

#define CALL(name, api, kind, cls, destroys, outs, args) \
	{ name, SCN_API_##api, SCN_KIND_##kind, cls, destroys, outs, args, NULL }
#define QUERY(name, api, cls, outs, args, query) \
	{ name, SCN_API_##api, SCN_KIND_QUERY, cls, 0, outs, args, query }

/* Shared argument lists. */
#define RDMA_ARGS(...) ARGS(REQ("local", ADDR(SCN_C_MR)), REQ("remote", ADDR(SCN_C_MR | SCN_C_MW)), \
			    __VA_ARGS__, OPT("rkey", NUM))
#define RPMA_NULL OPT("null", FLAGS(SCN_T_RPMA_NULL))
#define RPMA_FLAGS OPT("flags", FLAGS(SCN_T_RPMA_FLAGS))
#define RPMA_IO_ARGS ARGS(OPT("local", ADDR(SCN_C_RPMA_MR)), OPT("remote", ADDR(SCN_C_RPMA_REMOTE)), \
			  REQ("len", NUM), RPMA_FLAGS, RPMA_NULL)
#define DAT_IO_ARGS ARGS(REQ("local", ADDR(SCN_C_DAT_LMR)), REQ("remote", ADDR(SCN_C_DAT_LMR | SCN_C_DAT_RMR)), \
			 REQ("len", NUM), OPT("lmr_context", NUM), OPT("rmr_context", NUM))
#define BUF_CLS (SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR | SCN_C_MRAPI_RMEM)

static const struct scn_call calls[] = {
	/* verbs (libibverbs, without the ibv_ prefix) */
	CALL("alloc_pd", VERBS, CREATE, SCN_C_PD, 0, O_VERB, NOARGS),
	CALL("dealloc_pd", VERBS, ACT, SCN_C_PD, 1, O_VERB, NOARGS),
	CALL("reg_mr", VERBS, CREATE, SCN_C_MR, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), REQ("len", NUM), OPT("access", FLAGS(SCN_T_ACCESS)),
		  OPT("iova", NUM), OPT("offset", RANGE(0, 4095)), OPT("prot", WORD(SCN_T_PROT)))),
	CALL("dereg_mr", VERBS, ACT, SCN_C_MR, 1, O_VERB, NOARGS),
	CALL("rereg_mr", VERBS, ACT, SCN_C_MR, 0, O_VERB,
	     ARGS(OPT("pd", OBJ(SCN_C_PD)), OPT("access", FLAGS(SCN_T_ACCESS)),
		  OPT("flags", FLAGS(SCN_T_REREG)), OPT("len", NUM))),
	CALL("alloc_mw", VERBS, CREATE, SCN_C_MW, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), REQ("type", RANGE(1, 2)))),
	CALL("bind_mw", VERBS, POST, SCN_C_MW, 0, O_POST,
	     ARGS(REQ("qp", OBJ(SCN_C_QP)), REQ("mr", ADDR(SCN_C_MR)), REQ("len", NUM),
		  REQ("access", FLAGS(SCN_T_ACCESS)), OPT("zero_based", BARE), OPT("call", BARE))),
	CALL("dealloc_mw", VERBS, ACT, SCN_C_MW, 1, O_VERB, NOARGS),
	CALL("create_qp", VERBS, CREATE, SCN_C_QP, 0, O_VERB,
	     ARGS(REQ("pd", OBJ(SCN_C_PD)), OPT("access", FLAGS(SCN_T_ACCESS)),
		  OPT("max_recv_wr", RANGE(1, M_RECV_DEPTH_MAX)))),
	CALL("destroy_qp", VERBS, ACT, SCN_C_QP, 1, O_VERB, NOARGS),
	CALL("modify_qp", VERBS, ACT, SCN_C_QP, 0, O_VERB, ARGS(REQ("state", WORD(SCN_T_QPS_MODIFY)))),
	CALL("connect", VERBS, CONNECT, SCN_C_QP, 0, O_VERB,
	     ARGS(POS("peer", OBJ(SCN_C_QP)), OPT("mtu", RANGE(256, 4096)), OPT("timeout", RANGE(0, 31)),
		  OPT("retry_cnt", RANGE(0, 7)), OPT("rnr_retry", RANGE(0, 7)),
		  OPT("min_rnr_timer", RANGE(0, 31)), OPT("max_rd_atomic", RANGE(0, 255)),
		  OPT("max_dest_rd_atomic", RANGE(0, 255)))),
	CALL("write", VERBS, POST, SCN_C_QP, 0, O_POST, RDMA_ARGS(REQ("len", NUM))),
	CALL("read", VERBS, POST, SCN_C_QP, 0, O_POST, RDMA_ARGS(REQ("len", NUM))),
	CALL("cas", VERBS, POST, SCN_C_QP, 0, O_POST,
	     RDMA_ARGS(REQ("compare", NUM), REQ("swap", NUM), OPT("len", NUM))),
	CALL("fadd", VERBS, POST, SCN_C_QP, 0, O_POST, RDMA_ARGS(REQ("add", NUM), OPT("len", NUM))),
	/* recv only posts: ok or the post's errno; its completion is the peer SEND's secondary effect */
	CALL("recv", VERBS, POST, SCN_C_QP, 0, O_VERB, ARGS(REQ("local", ADDR(SCN_C_MR)), REQ("len", NUM))),
	CALL("send", VERBS, POST, SCN_C_QP, 0, O_POST,
	     ARGS(REQ("local", ADDR(SCN_C_MR)), REQ("len", NUM), OPT("inv", OBJ(SCN_C_MW | SCN_C_MR)))),
	CALL("local_inv", VERBS, POST, SCN_C_QP, 0, O_POST, ARGS(POS("mw", OBJ(SCN_C_MW)), OPT("rkey", NUM))),
	QUERY("query_qp", VERBS, SCN_C_QP, O_QUERY, NOARGS,
	      ARGS(OPT("state", WORD(SCN_T_QPS)), OPT("access", FLAGS(SCN_T_ACCESS)))),

	/* harness: memory contents */
	CALL("fill", HARNESS, LOCAL, BUF_CLS, 0, O_LOCAL,
	     ARGS(REQ("byte", RANGE(0, 255)), OPT("off", NUM), OPT("len", NUM))),
	CALL("check", HARNESS, LOCAL, BUF_CLS, 0, O_LOCAL,
	     ARGS(OPT("off", NUM), OPT("len", NUM), OPT("byte", RANGE(0, 255)))),

	/* librpma (C names; null= passes the named pointer arguments as NULL) */
	CALL("rpma_mr_reg", RPMA, CREATE, SCN_C_RPMA_MR, 0, O_RPMA,
	     ARGS(REQ("len", NUM), REQ("usage", FLAGS(SCN_T_USAGE)), OPT("offset", RANGE(0, 4095)),
		  OPT("prot", WORD(SCN_T_PROT)), OPT("buf", OBJ(SCN_C_RPMA_MR)), RPMA_NULL)),
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

	/* uDAPL (DAT 2.0, libdapl2) */
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
	     ARGS(REQ("pz", OBJ(SCN_C_DAT_PZ)), REQ("peer", OBJ(SCN_C_DAT_PZ)), OPT("private_data", RANGE(0, 1024)))),
	CALL("dat_ep_disconnect", DAT, ACT, SCN_C_DAT_EP, 0, O_DAT, NOARGS),
	CALL("dat_ep_free", DAT, ACT, SCN_C_DAT_EP, 1, O_DAT, NOARGS),
	CALL("dat_ep_post_rdma_write", DAT, POST, SCN_C_DAT_EP, 0, O_DAT_POST, DAT_IO_ARGS),
	CALL("dat_ep_post_rdma_read", DAT, POST, SCN_C_DAT_EP, 0, O_DAT_POST, DAT_IO_ARGS),

	/* MRAPI and librpmem: provisional schemas (a later issue drives them) */
	CALL("mrapi_rmem_create", MRAPI, CREATE, SCN_C_MRAPI_RMEM, 0, O_MRAPI,
	     ARGS(REQ("key", NUM), REQ("len", NUM))),
	CALL("rpmem_create", RPMEM, CREATE, SCN_C_RPMEM_POOL, 0, O_RPMEM,
	     ARGS(REQ("target", STR), REQ("pool", STR), REQ("len", NUM))),
};

size_t scn_call_count(void)
{
	return SCN_N(calls);
}

const struct scn_call *scn_call_get(size_t i)
{
	return i < SCN_N(calls) ? &calls[i] : NULL;
}

int scn_call_find(const char *name)
{
	for (size_t i = 0; i < SCN_N(calls); i++)
		if (strcmp(calls[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

int scn_spec_index(const struct scn_arg_spec *list, const char *key)
{
	for (int i = 0; list && list[i].key; i++)
		if (strcmp(list[i].key, key) == 0)
			return i;
	return -ENOENT;
}

const struct scn_arg_spec *scn_spec_find(const struct scn_arg_spec *list, const char *key)
{
	int i = scn_spec_index(list, key);

	return i < 0 ? NULL : &list[i];
}

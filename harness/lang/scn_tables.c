/*
 * scn_tables.c — the scenario language's name tables: flag sets and words
 * (values from the C headers), capabilities, object classes and their
 * attributes, and the _str and _parse functions of every scn enum.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

const char *scn_name_of(const struct scn_name *t, size_t n, uint64_t value)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return "?";
}

int scn_value_of(const struct scn_name *t, size_t n, const char *name, bool nocase, uint64_t *out)
{
	for (size_t i = 0; i < n; i++)
		if ((nocase ? strcasecmp(t[i].name, name) : strcmp(t[i].name, name)) == 0) {
			*out = t[i].value;
			return 0;
		}
	return -EINVAL;
}

/* NAME_str() and NAME_parse() over a table (names compared exactly). */
#define NAMED_ENUM(fn, type, table)                                               \
	const char *fn##_str(type v) { return scn_name_of(table, SCN_N(table), (uint64_t)v); } \
	int fn##_parse(const char *s, type *out)                                      \
	{                                                                             \
		uint64_t v;                                                           \
		int rc = scn_value_of(table, SCN_N(table), s, false, &v);             \
		if (rc == 0)                                                          \
			*out = (type)v;                                               \
		return rc;                                                            \
	}

static const struct scn_name kind_names[] = {
	{ SCN_KIND_CREATE, "create" }, { SCN_KIND_ACT, "act" }, { SCN_KIND_POST, "post" },
	{ SCN_KIND_QUERY, "query" }, { SCN_KIND_CONNECT, "connect" }, { SCN_KIND_LOCAL, "local" },
};
NAMED_ENUM(scn_kind, enum scn_kind, kind_names)

static const struct scn_name class_names[] = {
	{ SCN_C_PD, "PD" }, { SCN_C_MR, "MR" }, { SCN_C_MW, "MW" }, { SCN_C_QP, "QP" },
	{ SCN_C_RPMA_MR, "RPMA MR" }, { SCN_C_RPMA_REMOTE, "RPMA remote MR" },
	{ SCN_C_RPMA_CONN, "RPMA connection" }, { SCN_C_DAT_PZ, "DAT PZ" },
	{ SCN_C_DAT_LMR, "DAT LMR" }, { SCN_C_DAT_RMR, "DAT RMR" },
	{ SCN_C_MRAPI_RMEM, "MRAPI rmem" }, { SCN_C_RPMEM_POOL, "rpmem pool" },
	{ SCN_C_DAT_EP, "DAT EP" }, { SCN_C_MRAPI_REQ, "MRAPI request" }, { SCN_C_MRAPI_ATTRS, "MRAPI attributes" },
	{ SCN_C_CQ, "CQ" }, { SCN_C_AH, "AH" }, { SCN_C_SRQ, "SRQ" },
	{ SCN_C_CHAN, "completion channel" },
};
NAMED_ENUM(scn_class, enum scn_class, class_names)

const char *scn_class_a(unsigned cls)
{
	const char *s = scn_class_str((enum scn_class)cls);

	return strchr("AEFHILMNORSXr", s[0]) ? "an" : "a"; /* letters read with a vowel sound */
}

static const struct scn_name vkind_names[] = {
	{ SCN_V_INT, "an integer" }, { SCN_V_FLAGS, "a flag set" }, { SCN_V_WORD, "a word" },
	{ SCN_V_OBJ, "an object NAME" }, { SCN_V_ADDR, "an address NAME+OFFSET" },
	{ SCN_V_ATTR, "an attribute NAME.ATTR" }, { SCN_V_STR, "a quoted string" },
	{ SCN_V_BARE, "no value" }, { SCN_V_NODE, "a node name" }, { SCN_V_HEX, "hex bytes" },
};
NAMED_ENUM(scn_vkind, enum scn_vkind, vkind_names)

static const struct scn_name attr_names[] = {
	{ SCN_ATTR_ADDR, "addr" }, { SCN_ATTR_LEN, "len" }, { SCN_ATTR_LKEY, "lkey" },
	{ SCN_ATTR_RKEY, "rkey" }, { SCN_ATTR_QPN, "qpn" }, { SCN_ATTR_VA, "va" },
};
NAMED_ENUM(scn_attr, enum scn_attr, attr_names)

static const struct scn_name table_names[] = {
	{ SCN_T_NONE, "none" }, { SCN_T_ACCESS, "access" }, { SCN_T_REREG, "rereg" },
	{ SCN_T_QPS, "qp_state" }, { SCN_T_QPS_MODIFY, "modify_state" }, { SCN_T_PROT, "prot" },
	{ SCN_T_USAGE, "usage" }, { SCN_T_FLUSH, "flush_type" }, { SCN_T_DAT_PRIV, "dat_priv" },
	{ SCN_T_RPMA_FLAGS, "rpma_flags" }, { SCN_T_RPMA_NULL, "rpma_null" },
	{ SCN_T_DAT_MEM_TYPE, "dat_mem_type" }, { SCN_T_DAT_VA_TYPE, "dat_va_type" },
	{ SCN_T_MRAPI_ATYPE, "mrapi_atype" }, { SCN_T_MRAPI_ID, "mrapi_id" }, { SCN_T_MRAPI_ATTR, "mrapi_attr" },
	{ SCN_T_MRAPI_NULL, "mrapi_null" }, { SCN_T_QPT, "qp_type" },
	{ SCN_T_WC, "wc_status" }, { SCN_T_YESNO, "yes_no" }, { SCN_T_QP_ATTR, "qp_attr" }, { SCN_T_WC_OPCODE, "wc_opcode" },
	{ SCN_T_GARBLE, "garble" },
	{ SCN_T_COMP_VEC, "comp_vector" },
	{ SCN_T_WC_EX, "wc_flags" }, { SCN_T_CQ_FLAGS, "cq_flags" }, { SCN_T_SEND_OPS, "send_ops" },
	{ SCN_T_PORT, "port" },
	{ SCN_T_WR_API, "wr_api" },
	{ SCN_T_LIMIT, "device_limit" },
	{ SCN_T_OBJREF, "object_ref" },
};
NAMED_ENUM(scn_table, enum scn_table, table_names)


/* --------------------------------------------------- flags and words -- */

/* IBV_ACCESS_* (infiniband/verbs.h). */
static const struct scn_name access_t[] = {
	{ 1, "LOCAL_WRITE" }, { 2, "REMOTE_WRITE" }, { 4, "REMOTE_READ" }, { 8, "REMOTE_ATOMIC" },
	{ 16, "MW_BIND" }, { 32, "ZERO_BASED" }, { 64, "ON_DEMAND" }, { 128, "HUGETLB" },
	{ 256, "FLUSH_GLOBAL" }, { 512, "FLUSH_PERSISTENT" }, { 1u << 20, "RELAXED_ORDERING" },
};
/* IBV_REREG_MR_* */
static const struct scn_name rereg_t[] = {
	{ 1, "CHANGE_TRANSLATION" }, { 2, "CHANGE_PD" }, { 4, "CHANGE_ACCESS" },
};
/* IBV_QPS_* */
static const struct scn_name qps_t[] = {
	{ 0, "RESET" }, { 1, "INIT" }, { 2, "RTR" }, { 3, "RTS" }, { 4, "SQD" }, { 5, "SQE" },
	{ 6, "ERR" },
};
static const struct scn_name qps_modify_t[] = {
	{ 0, "RESET" }, { 6, "ERR" }, { 1, "INIT" }, { 2, "RTR" }, { 3, "RTS" },
};
/* The QP types the model has (its enum m_qp_type). */
static const struct scn_name qpt_t[] = { { 0, "RC" }, { 1, "UC" }, { 2, "UD" } };
/* The attributes of ibv_modify_qp's mask a transition may require (IBV_QP_*: the model's enum m_qp_attr). */
static const struct scn_name qp_attr_t[] = {
	{ 1u << 3, "ACCESS_FLAGS" }, { 1u << 4, "PKEY_INDEX" }, { 1u << 5, "PORT" }, { 1u << 6, "QKEY" },
	{ 1u << 7, "AV" }, { 1u << 8, "PATH_MTU" }, { 1u << 9, "TIMEOUT" }, { 1u << 10, "RETRY_CNT" },
	{ 1u << 11, "RNR_RETRY" }, { 1u << 12, "RQ_PSN" }, { 1u << 13, "MAX_QP_RD_ATOMIC" },
	{ 1u << 15, "MIN_RNR_TIMER" }, { 1u << 16, "SQ_PSN" }, { 1u << 17, "MAX_DEST_RD_ATOMIC" },
	{ 1u << 20, "DEST_QPN" },
};
/* IBV_WC_* (the model's enum m_wc_status), without the prefix */
static const struct scn_name wc_t[] = {
	{ 0, "SUCCESS" }, { 1, "LOC_LEN_ERR" }, { 2, "LOC_QP_OP_ERR" }, { 3, "LOC_EEC_OP_ERR" },
	{ 4, "LOC_PROT_ERR" }, { 5, "WR_FLUSH_ERR" }, { 6, "MW_BIND_ERR" }, { 7, "BAD_RESP_ERR" },
	{ 8, "LOC_ACCESS_ERR" }, { 9, "REM_INV_REQ_ERR" }, { 10, "REM_ACCESS_ERR" }, { 11, "REM_OP_ERR" },
	{ 12, "RETRY_EXC_ERR" }, { 13, "RNR_RETRY_EXC_ERR" }, { 14, "LOC_RDD_VIOL_ERR" },
	{ 15, "REM_INV_RD_REQ_ERR" }, { 16, "REM_ABORT_ERR" }, { 17, "INV_EECN_ERR" },
	{ 18, "INV_EEC_STATE_ERR" }, { 19, "FATAL_ERR" }, { 20, "RESP_TIMEOUT_ERR" }, { 21, "GENERAL_ERR" },
};
/* IBV_WC_* opcodes (ibv_poll_cq's wc.opcode; the model's enum m_wc_opcode) */
static const struct scn_name wc_opcode_t[] = {
	{ 0, "SEND" }, { 1, "RDMA_WRITE" }, { 2, "RDMA_READ" }, { 3, "COMP_SWAP" }, { 4, "FETCH_ADD" },
	{ 5, "BIND_MW" }, { 6, "LOCAL_INV" }, { 128, "RECV" }, { 129, "RECV_RDMA_WITH_IMM" },
};
/* The handle a verbs call is given garbled (the model's enum m_garble): the step's NAME or an input's key. */
static const struct scn_name garble_t[] = {
	{ 1, "self" }, { 2, "pd" }, { 3, "mr" }, { 5, "send_cq" }, { 6, "recv_cq" }, { 7, "srq" }, { 8, "ah" },
};
static const struct scn_name yesno_t[] = { { 0, "no" }, { 1, "yes" } };
/* a create key at the device's own limit or one past it (the model's M_LIM_MAX, M_LIM_PAST) */
static const struct scn_name limit_t[] = { { 0xffffffffu, "max" }, { 0xfffffffeu, "max+1" } };
/* create_cq's comp_vector against the device's num_comp_vectors (the model's enum m_comp_vec) */
static const struct scn_name comp_vec_t[] = { { 0, "0" }, { 1, "last" }, { 2, "past" }, { 3, "-1" } };
/* IBV_WC_EX_WITH_* (ibv_create_cq_ex's wc_flags; the model's M_WC_EX_*), without the prefix */
static const struct scn_name wc_ex_t[] = {
	{ 1u << 0, "BYTE_LEN" }, { 1u << 1, "IMM" }, { 1u << 2, "QP_NUM" }, { 1u << 3, "SRC_QP" },
	{ 1u << 4, "SLID" }, { 1u << 5, "SL" }, { 1u << 6, "DLID_PATH_BITS" },
	{ 1u << 7, "COMPLETION_TIMESTAMP" }, { 1u << 8, "CVLAN" }, { 1u << 9, "FLOW_TAG" },
	{ 1u << 10, "TM_INFO" }, { 1u << 11, "COMPLETION_TIMESTAMP_WALLCLOCK" },
};
/* IBV_CREATE_CQ_ATTR_* (ibv_create_cq_ex's flags) */
static const struct scn_name cq_flags_t[] = { { 1u << 0, "SINGLE_THREADED" }, { 1u << 1, "IGNORE_OVERRUN" } };
/* IBV_QP_EX_WITH_* (ibv_create_qp_ex's send_ops_flags; the model's M_SOPS_*), without the prefix */
static const struct scn_name send_ops_t[] = {
	{ 1u << 0, "RDMA_WRITE" }, { 1u << 1, "RDMA_WRITE_WITH_IMM" }, { 1u << 2, "SEND" },
	{ 1u << 3, "SEND_WITH_IMM" }, { 1u << 4, "RDMA_READ" }, { 1u << 5, "ATOMIC_CMP_AND_SWP" },
	{ 1u << 6, "ATOMIC_FETCH_AND_ADD" }, { 1u << 7, "LOCAL_INV" }, { 1u << 8, "BIND_MW" },
	{ 1u << 9, "SEND_WITH_INV" }, { 1u << 10, "TSO" }, { 1u << 11, "FLUSH" }, { 1u << 12, "ATOMIC_WRITE" },
};
/* a send post's wr=: ibv_post_send, the ibv_wr_* API ending in ibv_wr_complete, or in ibv_wr_abort */
static const struct scn_name wr_api_t[] = { { 0, "no" }, { 1, "yes" }, { 2, "abort" } };
/* query_port's port_num: 1, 0, past (phys_port_cnt + 1) (the model's enum m_port_sel) */
static const struct scn_name port_t[] = { { 0, "1" }, { 1, "0" }, { 2, "past" } };
/* Protection of the pages under a registration (the model's enum m_prot). */
static const struct scn_name prot_t[] = { { 0, "RW" }, { 1, "RO" }, { 2, "NONE" }, { 3, "UNMAPPED" } };
/* RPMA_MR_USAGE_* (librpma.h) */
static const struct scn_name usage_t[] = {
	{ 1u << 0, "READ_SRC" }, { 1u << 1, "READ_DST" }, { 1u << 2, "WRITE_SRC" },
	{ 1u << 3, "WRITE_DST" }, { 1u << 4, "FLUSH_TYPE_VISIBILITY" },
	{ 1u << 5, "FLUSH_TYPE_PERSISTENT" }, { 1u << 6, "SEND" }, { 1u << 7, "RECV" },
};
/* enum rpma_flush_type (librpma.h) */
static const struct scn_name flush_t[] = { { 0, "PERSISTENT" }, { 1, "VISIBILITY" } };
/* RPMA_F_* (librpma.h); ALWAYS (3) includes ON_ERROR (1), so it comes first. */
static const struct scn_name rpma_flags_t[] = { { 3, "COMPLETION_ALWAYS" }, { 1, "COMPLETION_ON_ERROR" } };
/*
 * The pointer arguments of the librpma calls, by their C names (librpma.h),
 * for null=: each call accepts those it has (harness/api/rpma/resolve_rpma.c); MR is
 * the MR a call takes, and for rpma_mr_dereg *mr_ptr.
 */
static const struct scn_name rpma_null_t[] = {
	{ 1u << 0, "PEER" }, { 1u << 1, "PTR" }, { 1u << 2, "MR_PTR" }, { 1u << 3, "MR" },
	{ 1u << 4, "DESC" }, { 1u << 5, "DESC_SIZE" }, { 1u << 6, "SIZE" }, { 1u << 7, "FLUSH_TYPE" },
	{ 1u << 8, "CONN" }, { 1u << 9, "DST" }, { 1u << 10, "SRC" },
};
/*
 * DAT_MEM_PRIV_*_FLAG (dat2/dat.h; READ, WRITE and ALL are its composite
 * defines) and DAT_IB_MEM_PRIV_REMOTE_ATOMIC (dat2/dat_ib_extensions.h).
 */
static const struct scn_name dat_priv_t[] = {
	{ 0x01, "LOCAL_READ" }, { 0x02, "REMOTE_READ" }, { 0x10, "LOCAL_WRITE" },
	{ 0x20, "REMOTE_WRITE" }, { 0x40, "REMOTE_ATOMIC" }, { 0x03, "READ" }, { 0x30, "WRITE" },
	{ 0x33, "ALL" }, { 0x00, "NONE" },
};
/* DAT_MEM_TYPE_* (dat2/udat.h) and DAT_VA_TYPE_* (dat2/dat.h). */
static const struct scn_name dat_mem_type_t[] = {
	{ 0x00, "VIRTUAL" }, { 0x01, "LMR" }, { 0x02, "SHARED_VIRTUAL" },
};
static const struct scn_name dat_va_type_t[] = { { 0x0, "VA" }, { 0x1, "ZB" } };
/* mrapi_rmem_atype_t, MRAPI_RMEM_ID_ANY, mrapi_rmem_attr_num (lib/mrapi/mrapi.h; the model's enum
 * m_mrapi_atype and enum m_mrapi_attr), and the pointer arguments passed as NULL (enum m_mrapi_null). */
static const struct scn_name mrapi_atype_t[] = { { 0, "DEFAULT" }, { 1, "DMA" }, { 2, "SWCACHE" }, { 3, "ANY" } };
static const struct scn_name mrapi_id_t[] = { { 0xffffffffu, "ANY" } };
static const struct scn_name mrapi_attr_t[] = {
	{ 1, "ERROR_EXT" }, { 2, "DOMAIN_SHARED" }, { 3, "RMEM_SIZE" }, { 4, "RMEM_ATYPE" },
};
static const struct scn_name mrapi_null_t[] = {
	{ 1u << 0, "MEM" }, { 1u << 1, "ATTRIBUTES" }, { 1u << 2, "ATTRIBUTE" }, { 1u << 3, "LOCAL_BUF" },
	{ 1u << 4, "REQUEST" },
};

/* A struct's pointer that names no scenario object (the fields step, FIELDS-1): NULL, the object the
 * harness made for it (a QP's CQs without cq=), none of the node's objects (the model's M_QREF_*). */
static const struct scn_name objref_t[] = {
	{ M_QREF_NONE, "none" }, { M_QREF_OWN, "own" }, { M_QREF_OTHER, "other" },
};

static const struct { const struct scn_name *t; size_t n; } tables[SCN_T_COUNT_] = {
	[SCN_T_ACCESS] = { access_t, SCN_N(access_t) },
	[SCN_T_REREG] = { rereg_t, SCN_N(rereg_t) },
	[SCN_T_QPS] = { qps_t, SCN_N(qps_t) },
	[SCN_T_QPS_MODIFY] = { qps_modify_t, SCN_N(qps_modify_t) },
	[SCN_T_QPT] = { qpt_t, SCN_N(qpt_t) },
	[SCN_T_WC] = { wc_t, SCN_N(wc_t) },
	[SCN_T_YESNO] = { yesno_t, SCN_N(yesno_t) },
	[SCN_T_WC_OPCODE] = { wc_opcode_t, SCN_N(wc_opcode_t) },
	[SCN_T_GARBLE] = { garble_t, SCN_N(garble_t) },
	[SCN_T_COMP_VEC] = { comp_vec_t, SCN_N(comp_vec_t) },
	[SCN_T_LIMIT] = { limit_t, SCN_N(limit_t) },
	[SCN_T_WC_EX] = { wc_ex_t, SCN_N(wc_ex_t) },
	[SCN_T_CQ_FLAGS] = { cq_flags_t, SCN_N(cq_flags_t) },
	[SCN_T_SEND_OPS] = { send_ops_t, SCN_N(send_ops_t) },
	[SCN_T_PORT] = { port_t, SCN_N(port_t) },
	[SCN_T_WR_API] = { wr_api_t, SCN_N(wr_api_t) },
	[SCN_T_OBJREF] = { objref_t, SCN_N(objref_t) },
	[SCN_T_PROT] = { prot_t, SCN_N(prot_t) },
	[SCN_T_USAGE] = { usage_t, SCN_N(usage_t) },
	[SCN_T_FLUSH] = { flush_t, SCN_N(flush_t) },
	[SCN_T_DAT_PRIV] = { dat_priv_t, SCN_N(dat_priv_t) },
	[SCN_T_RPMA_FLAGS] = { rpma_flags_t, SCN_N(rpma_flags_t) },
	[SCN_T_RPMA_NULL] = { rpma_null_t, SCN_N(rpma_null_t) },
	[SCN_T_DAT_MEM_TYPE] = { dat_mem_type_t, SCN_N(dat_mem_type_t) },
	[SCN_T_DAT_VA_TYPE] = { dat_va_type_t, SCN_N(dat_va_type_t) },
	[SCN_T_MRAPI_ATYPE] = { mrapi_atype_t, SCN_N(mrapi_atype_t) },
	[SCN_T_MRAPI_ID] = { mrapi_id_t, SCN_N(mrapi_id_t) },
	[SCN_T_MRAPI_ATTR] = { mrapi_attr_t, SCN_N(mrapi_attr_t) },
	[SCN_T_MRAPI_NULL] = { mrapi_null_t, SCN_N(mrapi_null_t) },
	[SCN_T_QP_ATTR] = { qp_attr_t, SCN_N(qp_attr_t) },
};

size_t scn_table_count(enum scn_table t)
{
	return (unsigned)t < SCN_T_COUNT_ ? tables[t].n : 0;
}

const char *scn_table_name(enum scn_table t, size_t i, uint64_t *value)
{
	if (i >= scn_table_count(t))
		return NULL;
	if (value)
		*value = tables[t].t[i].value;
	return tables[t].t[i].name;
}

int scn_table_lookup(enum scn_table t, const char *name, uint64_t *value)
{
	if (scn_table_count(t) == 0)
		return -EINVAL;
	return scn_value_of(tables[t].t, tables[t].n, name, true, value);
}

/* ------------------------------------------------ classes and caps -- */

#define A(x) (1u << SCN_ATTR_##x)

unsigned scn_class_attrs(enum scn_class c)
{
	switch (c) {
	case SCN_C_MR: case SCN_C_DAT_LMR: return A(ADDR) | A(LEN) | A(LKEY) | A(RKEY) | A(VA);
	case SCN_C_MW: case SCN_C_DAT_RMR: return A(ADDR) | A(LEN) | A(RKEY);
	case SCN_C_QP: return A(QPN);
	case SCN_C_RPMA_MR: return A(ADDR) | A(LEN) | A(RKEY); /* librpma exposes no lkey */
	case SCN_C_RPMA_REMOTE: return A(ADDR) | A(LEN) | A(RKEY); /* what its descriptor says */
	case SCN_C_MRAPI_RMEM: return A(ADDR) | A(LEN);
	default: return 0;
	}
}

/* The model's capabilities (model/names.c) and the APIs besides verbs. */
static const char *const caps[] = {
	"mw_type1", "mw_type2", "rereg", "atomic_write", "flush", "odp", "zero_based_reg",
	"atomics", "rpma", "dapl", "mrapi", "rpmem", "dapl_rmr",
};

size_t scn_cap_count(void)
{
	return SCN_N(caps);
}

const char *scn_cap_name(size_t i)
{
	return i < SCN_N(caps) ? caps[i] : NULL;
}

int scn_cap_find(const char *name)
{
	for (size_t i = 0; i < SCN_N(caps); i++)
		if (strcmp(caps[i], name) == 0)
			return (int)i;
	return -ENOENT;
}

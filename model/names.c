/* names.c — *_str() and *_parse() for every model enum (names as scenarios write them). */
#include "model/model.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct name { int value; const char *name; };

static const char *lookup_name(const struct name *t, size_t n, int value)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return "?";
}

static int lookup_value(const struct name *t, size_t n, const char *name, int *out)
{
	int c = tolower((unsigned char)name[0]);

	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)t[i].name[0]) == c && strcasecmp(t[i].name, name) == 0) { /* first letters first */
			*out = t[i].value;
			return 0;
		}
	return -EINVAL;
}

#define N(t) (sizeof(t) / sizeof((t)[0]))
/* Define NAME_str() and NAME_parse() over a table. */
#define NAMED_ENUM(fn, type, table)                                        \
	const char *fn##_str(type v) { return lookup_name(table, N(table), (int)v); } \
	int fn##_parse(const char *s, type *out)                               \
	{                                                                      \
		int v, rc = lookup_value(table, N(table), s, &v);              \
		if (rc == 0)                                                   \
			*out = (type)v;                                        \
		return rc;                                                     \
	}

static const struct name access_names[] = {
	{ M_ACC_LOCAL_WRITE, "LOCAL_WRITE" }, { M_ACC_REMOTE_WRITE, "REMOTE_WRITE" },
	{ M_ACC_REMOTE_READ, "REMOTE_READ" }, { M_ACC_REMOTE_ATOMIC, "REMOTE_ATOMIC" },
	{ M_ACC_MW_BIND, "MW_BIND" }, { M_ACC_ZERO_BASED, "ZERO_BASED" },
	{ M_ACC_ON_DEMAND, "ON_DEMAND" }, { M_ACC_HUGETLB, "HUGETLB" },
	{ M_ACC_FLUSH_GLOBAL, "FLUSH_GLOBAL" }, { M_ACC_FLUSH_PERSISTENT, "FLUSH_PERSISTENT" },
	{ M_ACC_RELAXED_ORDERING, "RELAXED_ORDERING" },
};
NAMED_ENUM(m_access, enum m_access, access_names)

static const struct name rereg_names[] = {
	{ M_REREG_CHANGE_TRANSLATION, "CHANGE_TRANSLATION" },
	{ M_REREG_CHANGE_PD, "CHANGE_PD" },
	{ M_REREG_CHANGE_ACCESS, "CHANGE_ACCESS" },
};
NAMED_ENUM(m_rereg_flag, enum m_rereg_flag, rereg_names)

static const struct name qps_names[] = {
	{ M_QPS_RESET, "RESET" }, { M_QPS_INIT, "INIT" }, { M_QPS_RTR, "RTR" },
	{ M_QPS_RTS, "RTS" }, { M_QPS_SQD, "SQD" }, { M_QPS_SQE, "SQE" }, { M_QPS_ERR, "ERR" },
};
NAMED_ENUM(m_qp_state, enum m_qp_state, qps_names)

static const struct name wc_names[] = {
	{ M_WC_SUCCESS, "SUCCESS" }, { M_WC_LOC_LEN_ERR, "LOC_LEN_ERR" },
	{ M_WC_LOC_QP_OP_ERR, "LOC_QP_OP_ERR" }, { M_WC_LOC_EEC_OP_ERR, "LOC_EEC_OP_ERR" },
	{ M_WC_LOC_PROT_ERR, "LOC_PROT_ERR" }, { M_WC_WR_FLUSH_ERR, "WR_FLUSH_ERR" },
	{ M_WC_MW_BIND_ERR, "MW_BIND_ERR" }, { M_WC_BAD_RESP_ERR, "BAD_RESP_ERR" },
	{ M_WC_LOC_ACCESS_ERR, "LOC_ACCESS_ERR" }, { M_WC_REM_INV_REQ_ERR, "REM_INV_REQ_ERR" },
	{ M_WC_REM_ACCESS_ERR, "REM_ACCESS_ERR" }, { M_WC_REM_OP_ERR, "REM_OP_ERR" },
	{ M_WC_RETRY_EXC_ERR, "RETRY_EXC_ERR" }, { M_WC_RNR_RETRY_EXC_ERR, "RNR_RETRY_EXC_ERR" },
	{ M_WC_LOC_RDD_VIOL_ERR, "LOC_RDD_VIOL_ERR" }, { M_WC_REM_INV_RD_REQ_ERR, "REM_INV_RD_REQ_ERR" },
	{ M_WC_REM_ABORT_ERR, "REM_ABORT_ERR" }, { M_WC_INV_EECN_ERR, "INV_EECN_ERR" },
	{ M_WC_INV_EEC_STATE_ERR, "INV_EEC_STATE_ERR" }, { M_WC_FATAL_ERR, "FATAL_ERR" },
	{ M_WC_RESP_TIMEOUT_ERR, "RESP_TIMEOUT_ERR" }, { M_WC_GENERAL_ERR, "GENERAL_ERR" },
};
NAMED_ENUM(m_wc_status, enum m_wc_status, wc_names)

static const struct name wc_opcode_names[] = {
	{ M_WCO_SEND, "SEND" }, { M_WCO_RDMA_WRITE, "RDMA_WRITE" }, { M_WCO_RDMA_READ, "RDMA_READ" },
	{ M_WCO_COMP_SWAP, "COMP_SWAP" }, { M_WCO_FETCH_ADD, "FETCH_ADD" }, { M_WCO_BIND_MW, "BIND_MW" },
	{ M_WCO_LOCAL_INV, "LOCAL_INV" }, { M_WCO_RECV, "RECV" }, { M_WCO_RECV_RDMA_WITH_IMM, "RECV_RDMA_WITH_IMM" },
};
NAMED_ENUM(m_wc_opcode, enum m_wc_opcode, wc_opcode_names)

static const struct name kind_names[] = {
	{ M_OUT_OK, "ok" }, { M_OUT_ERRNO, "errno" }, { M_OUT_WC, "completion status" },
	{ M_OUT_CRASH, "KERNEL_CRASH" }, { M_OUT_RPMA, "RPMA status" }, { M_OUT_DAT, "DAT status" },
	{ M_OUT_DTO, "DAT DTO status" }, { M_OUT_MRAPI, "MRAPI status" }, { M_OUT_HANG, "TIMEOUT" },
};
NAMED_ENUM(m_outcome_kind, enum m_outcome_kind, kind_names)

/* The errno names scenarios may expect (values of <errno.h>). */
static const struct name errno_names[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" }, { EIO, "EIO" },
	{ ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { ENFILE, "ENFILE" },
	{ EMFILE, "EMFILE" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" },
	{ EOVERFLOW, "EOVERFLOW" }, { EOPNOTSUPP, "EOPNOTSUPP" }, { ENOBUFS, "ENOBUFS" },
	{ ENOTCONN, "ENOTCONN" }, { ETIMEDOUT, "ETIMEDOUT" }, { ECONNREFUSED, "ECONNREFUSED" },
	{ ECONNRESET, "ECONNRESET" }, { EHOSTUNREACH, "EHOSTUNREACH" },
	{ ENETUNREACH, "ENETUNREACH" }, { EPROTO, "EPROTO" }, { ECANCELED, "ECANCELED" },
	{ EADDRINUSE, "EADDRINUSE" }, { EADDRNOTAVAIL, "EADDRNOTAVAIL" },
	{ EFBIG, "EFBIG" }, { ECONNABORTED, "ECONNABORTED" }, { EREMOTEIO, "EREMOTEIO" },
	{ EPROTONOSUPPORT, "EPROTONOSUPPORT" }, { EMEDIUMTYPE, "EMEDIUMTYPE" }, { ENOMEDIUM, "ENOMEDIUM" },
	{ ENODATA, "ENODATA" },
};
const char *m_errno_str(int code) { return lookup_name(errno_names, N(errno_names), code); }
int m_errno_parse(const char *s, int *out) { return lookup_value(errno_names, N(errno_names), s, out); }

static const struct name prot_names[] = {
	{ M_PROT_RW, "rw" }, { M_PROT_RO, "ro" }, { M_PROT_NONE, "none" }, { M_PROT_UNMAPPED, "unmapped" },
};
NAMED_ENUM(m_prot, enum m_prot, prot_names)

static const struct name qp_type_names[] = { { M_QPT_RC, "RC" }, { M_QPT_UC, "UC" }, { M_QPT_UD, "UD" } };
NAMED_ENUM(m_qp_type, enum m_qp_type, qp_type_names)

static const struct name op_names[] = {
#define OP(fam, sym, name) { M_OP_##sym, name },
#include "model/ops.def"
#undef OP
};
NAMED_ENUM(m_op_kind, enum m_op_kind, op_names)

static const struct name family_names[] = {
#define FAMILY(sym, name, model) { M_FAM_##sym, #name },
#include "model/families.def"
#undef FAMILY
};
NAMED_ENUM(m_family, enum m_family, family_names)

static const struct name cap_names[] = {
	{ M_CAP_MW_TYPE1, "mw_type1" }, { M_CAP_MW_TYPE2, "mw_type2" }, { M_CAP_REREG, "rereg" },
	{ M_CAP_ATOMIC_WRITE, "atomic_write" }, { M_CAP_FLUSH, "flush" }, { M_CAP_ODP, "odp" },
	{ M_CAP_ZERO_BASED_REG, "zero_based_reg" }, { M_CAP_ATOMICS, "atomics" },
	{ M_CAP_RPMA, "rpma" }, { M_CAP_DAPL, "dapl" }, { M_CAP_DAPL_RMR, "dapl_rmr" },
	{ M_CAP_MRAPI, "mrapi" },
	{ M_CAP_RPMEM, "rpmem" },
};
NAMED_ENUM(m_cap, enum m_cap, cap_names)

char *m_access_set_str(uint32_t flags, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (flags == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (size_t i = 0; i < N(access_names); i++) {
		if (!(flags & (uint32_t)access_names[i].value))
			continue;
		flags &= ~(uint32_t)access_names[i].value;
		int n = snprintf(buf + off, len - off, "%s%s", off ? "|" : "", access_names[i].name);
		if (n < 0 || (size_t)n >= len - off)
			return buf;
		off += (size_t)n;
	}
	if (flags)
		snprintf(buf + off, len - off, "%s0x%x", off ? "|" : "", flags);
	return buf;
}

int m_access_set_parse(const char *text, uint32_t *out)
{
	char word[32];
	uint32_t set = 0;
	const char *p = text;

	if (!*text)
		return -EINVAL;
	for (;;) {
		size_t n = strcspn(p, "|");
		enum m_access a;

		if (n == 0 || n >= sizeof(word))
			return -EINVAL;
		memcpy(word, p, n);
		word[n] = '\0';
		if (m_access_parse(word, &a) == 0) {
			set |= (uint32_t)a;
		} else {
			char *end;
			unsigned long v = strtoul(word, &end, 0);

			if (*end || v > UINT32_MAX || !(word[0] >= '0' && word[0] <= '9'))
				return -EINVAL;
			set |= (uint32_t)v;
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	*out = set;
	return 0;
}

/* librpma's RPMA_E_* (librpma.h). */
static const struct name rpma_names[] = {
	{ M_RPMA_E_UNKNOWN, "RPMA_E_UNKNOWN" }, { M_RPMA_E_NOSUPP, "RPMA_E_NOSUPP" },
	{ M_RPMA_E_PROVIDER, "RPMA_E_PROVIDER" }, { M_RPMA_E_NOMEM, "RPMA_E_NOMEM" },
	{ M_RPMA_E_INVAL, "RPMA_E_INVAL" }, { M_RPMA_E_NO_COMPLETION, "RPMA_E_NO_COMPLETION" },
	{ M_RPMA_E_NO_EVENT, "RPMA_E_NO_EVENT" }, { M_RPMA_E_AGAIN, "RPMA_E_AGAIN" },
	{ M_RPMA_E_SHARED_CHANNEL, "RPMA_E_SHARED_CHANNEL" },
	{ M_RPMA_E_NOT_SHARED_CHNL, "RPMA_E_NOT_SHARED_CHNL" },
};

/* uDAPL's DAT_RETURN major types (dat_error.h). */
static const struct name dat_names[] = {
	{ M_DAT_SUCCESS, "DAT_SUCCESS" }, { M_DAT_ABORT, "DAT_ABORT" },
	{ M_DAT_CONN_QUAL_IN_USE, "DAT_CONN_QUAL_IN_USE" },
	{ M_DAT_INSUFFICIENT_RESOURCES, "DAT_INSUFFICIENT_RESOURCES" },
	{ M_DAT_INTERNAL_ERROR, "DAT_INTERNAL_ERROR" }, { M_DAT_INVALID_HANDLE, "DAT_INVALID_HANDLE" },
	{ M_DAT_INVALID_PARAMETER, "DAT_INVALID_PARAMETER" }, { M_DAT_INVALID_STATE, "DAT_INVALID_STATE" },
	{ M_DAT_LENGTH_ERROR, "DAT_LENGTH_ERROR" }, { M_DAT_MODEL_NOT_SUPPORTED, "DAT_MODEL_NOT_SUPPORTED" },
	{ M_DAT_PROVIDER_NOT_FOUND, "DAT_PROVIDER_NOT_FOUND" },
	{ M_DAT_PRIVILEGES_VIOLATION, "DAT_PRIVILEGES_VIOLATION" },
	{ M_DAT_PROTECTION_VIOLATION, "DAT_PROTECTION_VIOLATION" }, { M_DAT_QUEUE_EMPTY, "DAT_QUEUE_EMPTY" },
	{ M_DAT_QUEUE_FULL, "DAT_QUEUE_FULL" }, { M_DAT_TIMEOUT_EXPIRED, "DAT_TIMEOUT_EXPIRED" },
	{ M_DAT_PROVIDER_ALREADY_REGISTERED, "DAT_PROVIDER_ALREADY_REGISTERED" },
	{ M_DAT_PROVIDER_IN_USE, "DAT_PROVIDER_IN_USE" }, { M_DAT_INVALID_ADDRESS, "DAT_INVALID_ADDRESS" },
	{ M_DAT_INTERRUPTED_CALL, "DAT_INTERRUPTED_CALL" },
	{ M_DAT_CONN_QUAL_UNAVAILABLE, "DAT_CONN_QUAL_UNAVAILABLE" }, { M_DAT_RESERVED_LMR, "DAT_RESERVED_LMR" },
	{ M_DAT_PORT_IN_USE, "DAT_PORT_IN_USE" }, { M_DAT_COMM_NOT_SUPPORTED, "DAT_COMM_NOT_SUPPORTED" },
	{ M_DAT_NOT_IMPLEMENTED, "DAT_NOT_IMPLEMENTED" },
};

/* DAT_DTO_COMPLETION_STATUS (dat.h). */
static const struct name dto_names[] = {
	{ M_DTO_SUCCESS, "DAT_DTO_SUCCESS" }, { M_DTO_ERR_FLUSHED, "DAT_DTO_ERR_FLUSHED" },
	{ M_DTO_ERR_LOCAL_LENGTH, "DAT_DTO_ERR_LOCAL_LENGTH" }, { M_DTO_ERR_LOCAL_EP, "DAT_DTO_ERR_LOCAL_EP" },
	{ M_DTO_ERR_LOCAL_PROTECTION, "DAT_DTO_ERR_LOCAL_PROTECTION" },
	{ M_DTO_ERR_BAD_RESPONSE, "DAT_DTO_ERR_BAD_RESPONSE" },
	{ M_DTO_ERR_REMOTE_ACCESS, "DAT_DTO_ERR_REMOTE_ACCESS" },
	{ M_DTO_ERR_REMOTE_RESPONDER, "DAT_DTO_ERR_REMOTE_RESPONDER" },
	{ M_DTO_ERR_TRANSPORT, "DAT_DTO_ERR_TRANSPORT" },
	{ M_DTO_ERR_RECEIVER_NOT_READY, "DAT_DTO_ERR_RECEIVER_NOT_READY" },
	{ M_DTO_ERR_PARTIAL_PACKET, "DAT_DTO_ERR_PARTIAL_PACKET" },
	{ M_DTO_RMR_OPERATION_FAILED, "DAT_RMR_OPERATION_FAILED" },
	{ M_DTO_ERR_LOCAL_MM_ERROR, "DAT_DTO_ERR_LOCAL_MM_ERROR" },
};

/* MRAPI statuses of the remote-memory calls (code: the index; MRAPI has no header here). */
static const struct name mrapi_names[] = {
	{ 0, "MRAPI_SUCCESS" }, { 1, "MRAPI_TIMEOUT" }, { 2, "MRAPI_ERR_MEM_LIMIT" },
	{ 3, "MRAPI_ERR_NODE_NOTINIT" }, { 4, "MRAPI_ERR_NOT_SUPPORTED" },
	{ 5, "MRAPI_ERR_PARAMETER" }, { 6, "MRAPI_ERR_RMEM_ID_INVALID" },
	{ 7, "MRAPI_ERR_RMEM_ATTACH" }, { 8, "MRAPI_ERR_RMEM_ATTACHED" },
	{ 9, "MRAPI_ERR_RMEM_ATYPE" }, { 10, "MRAPI_ERR_RMEM_ATYPE_NOTVALID" },
	{ 11, "MRAPI_ERR_RMEM_BLOCKED" }, { 12, "MRAPI_ERR_RMEM_BUFF_OVERRUN" },
	{ 13, "MRAPI_ERR_RMEM_CONFLICT" }, { 14, "MRAPI_ERR_RMEM_EXISTS" },
	{ 15, "MRAPI_ERR_RMEM_INVALID" }, { 16, "MRAPI_ERR_RMEM_NOTATTACHED" },
	{ 17, "MRAPI_ERR_RMEM_NOTOWNER" }, { 18, "MRAPI_ERR_RMEM_STRIDE" },
	{ 19, "MRAPI_ERR_RMEM_TYPENOTVALID" }, { 20, "MRAPI_ERR_RMEM_ATYPE_INVALID" },
	{ 21, "MRAPI_ERR_DOMAIN_NOTSHARED" }, { 22, "MRAPI_ERR_ATTR_NUM" }, { 23, "MRAPI_ERR_ATTR_SIZE" },
	{ 24, "MRAPI_ERR_ATTR_READONLY" }, { 25, "MRAPI_ERR_REQUEST_LIMIT" },
	{ 26, "MRAPI_ERR_REQUEST_INVALID" }, { 27, "MRAPI_ERR_REQUEST_CANCELED" },
	{ 28, "MRAPI_INCOMPLETE" }, { 29, "MRAPI_ERR_NODE_INITIALIZED" },
};

/* The name table of each outcome kind with codes (in parse order). */
static const struct { uint8_t kind; const struct name *t; size_t n; } outcome_groups[] = {
	{ M_OUT_ERRNO, errno_names, N(errno_names) }, { M_OUT_WC, wc_names, N(wc_names) },
	{ M_OUT_RPMA, rpma_names, N(rpma_names) }, { M_OUT_DAT, dat_names, N(dat_names) },
	{ M_OUT_DTO, dto_names, N(dto_names) }, { M_OUT_MRAPI, mrapi_names, N(mrapi_names) },
};

const char *m_outcome_name(struct m_outcome o)
{
	if (o.kind == M_OUT_OK)
		return "ok";
	if (o.kind == M_OUT_CRASH)
		return "KERNEL_CRASH";
	if (o.kind == M_OUT_HANG)
		return "TIMEOUT";
	for (size_t g = 0; g < N(outcome_groups); g++)
		if (outcome_groups[g].kind == o.kind)
			return lookup_name(outcome_groups[g].t, outcome_groups[g].n, o.code);
	return "?";
}

char *m_outcome_str(struct m_outcome o, char *buf, size_t len)
{
	const char *name = m_outcome_name(o);
	size_t n = strlen(name);

	if (len) { /* snprintf's "%s", without a format's cost: every step's record names outcomes */
		n = n < len - 1 ? n : len - 1;
		memcpy(buf, name, n);
		buf[n] = '\0';
	}
	return buf;
}

int m_outcome_parse(const char *name, struct m_outcome *out)
{
	int v;

	if (strcasecmp(name, "ok") == 0) {
		*out = (struct m_outcome){ M_OUT_OK, 0 };
		return 0;
	}
	if (strcasecmp(name, "KERNEL_CRASH") == 0) {
		*out = (struct m_outcome){ M_OUT_CRASH, 0 };
		return 0;
	}
	if (strcasecmp(name, "TIMEOUT") == 0) {
		*out = (struct m_outcome){ M_OUT_HANG, 0 };
		return 0;
	}
	for (size_t g = 0; g < N(outcome_groups); g++)
		if (lookup_value(outcome_groups[g].t, outcome_groups[g].n, name, &v) == 0) {
			*out = (struct m_outcome){ outcome_groups[g].kind, v };
			return 0;
		}
	return -EINVAL;
}

const char *m_outcome_nth(size_t i, struct m_outcome *o)
{
	struct m_outcome dummy;

	if (!o)
		o = &dummy;
	if (i == 0) {
		*o = (struct m_outcome){ M_OUT_OK, 0 };
		return "ok";
	}
	if (i == 1) {
		*o = (struct m_outcome){ M_OUT_CRASH, 0 };
		return "KERNEL_CRASH";
	}
	i -= 2;
	for (size_t g = 0; g < N(outcome_groups); g++) {
		if (i < outcome_groups[g].n) {
			*o = (struct m_outcome){ outcome_groups[g].kind, outcome_groups[g].t[i].value };
			return outcome_groups[g].t[i].name;
		}
		i -= outcome_groups[g].n;
	}
	if (i == 0) {
		*o = (struct m_outcome){ M_OUT_HANG, 0 };
		return "TIMEOUT";
	}
	return NULL;
}

static const struct name qmode_names[] = {
	{ M_Q_ANY, "any" }, { M_Q_EXACT, "exact" }, { M_Q_ZERO, "zero" }, { M_Q_NONZERO, "nonzero" },
	{ M_Q_ATLEAST, "at least" }, { M_Q_RANGE, "in range" },
	{ M_Q_ONEFLAG, "one flag of" },
};
NAMED_ENUM(m_qmode, enum m_qmode, qmode_names)

static const struct name effect_names[] = {
	{ M_EFF_NONE, "none" }, { M_EFF_DO, "do" }, { M_EFF_QP_ERR, "qp_err" },
	{ M_EFF_BOTH_ERR, "both_err" }, { M_EFF_PEER_ERR, "peer_err" }, { M_EFF_CRASH, "crash" },
	{ M_EFF_SQ_KEPT, "sq_kept" }, { M_EFF_OUTSTANDING, "outstanding" },
};
NAMED_ENUM(m_effect, enum m_effect, effect_names)

static const struct name dev_kind_names[] = {
	{ M_DEV_REPLACE, "replace" }, { M_DEV_WIDEN, "widen" }, { M_DEV_NARROW, "narrow" },
};
NAMED_ENUM(m_dev_kind, enum m_dev_kind, dev_kind_names)

static const struct name rule_status_names[] = {
	{ M_ENCODED, "encoded" }, { M_NOT_ENCODED, "not encoded" },
};
NAMED_ENUM(m_rule_status, enum m_rule_status, rule_status_names)

static const struct name mw_type_names[] = {
	{ M_MW_TYPE_1, "1" }, { M_MW_TYPE_2, "2" },
};
NAMED_ENUM(m_mw_type, enum m_mw_type, mw_type_names)

/* names.c — *_str() and *_parse() for every model enum (names as scenarios write them). */
#include "model/model.h"

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
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(t[i].name, name) == 0) {
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

static const struct name kind_names[] = {
	{ M_OUT_OK, "ok" }, { M_OUT_ERRNO, "errno" }, { M_OUT_WC, "completion" },
	{ M_OUT_CRASH, "KERNEL_CRASH" },
};
NAMED_ENUM(m_outcome_kind, enum m_outcome_kind, kind_names)

static const struct name errno_names[] = {
	{ EINVAL, "EINVAL" }, { EBUSY, "EBUSY" }, { EPERM, "EPERM" }, { ENOMEM, "ENOMEM" },
	{ EFAULT, "EFAULT" }, { EOPNOTSUPP, "EOPNOTSUPP" }, { EACCES, "EACCES" },
	{ ENOENT, "ENOENT" }, { EAGAIN, "EAGAIN" }, { ENOSPC, "ENOSPC" }, { ENODEV, "ENODEV" },
	{ ENOSYS, "ENOSYS" }, { EEXIST, "EEXIST" }, { EIO, "EIO" }, { ETIMEDOUT, "ETIMEDOUT" },
};
const char *m_errno_str(int code) { return lookup_name(errno_names, N(errno_names), code); }
int m_errno_parse(const char *s, int *out) { return lookup_value(errno_names, N(errno_names), s, out); }

static const struct name prot_names[] = {
	{ M_PROT_RW, "rw" }, { M_PROT_RO, "ro" }, { M_PROT_NONE, "none" }, { M_PROT_UNMAPPED, "unmapped" },
};
NAMED_ENUM(m_prot, enum m_prot, prot_names)

static const struct name op_names[] = {
	{ M_OP_ALLOC_PD, "alloc_pd" }, { M_OP_DEALLOC_PD, "dealloc_pd" },
	{ M_OP_REG_MR, "reg_mr" }, { M_OP_DEREG_MR, "dereg_mr" }, { M_OP_REREG_MR, "rereg_mr" },
	{ M_OP_ALLOC_MW, "alloc_mw" }, { M_OP_BIND_MW, "bind_mw" }, { M_OP_DEALLOC_MW, "dealloc_mw" },
	{ M_OP_CREATE_QP, "create_qp" }, { M_OP_CONNECT, "connect" }, { M_OP_MODIFY_QP, "modify_qp" },
	{ M_OP_DESTROY_QP, "destroy_qp" }, { M_OP_WRITE, "write" }, { M_OP_READ, "read" },
	{ M_OP_CAS, "cas" }, { M_OP_FADD, "fadd" }, { M_OP_SEND, "send" }, { M_OP_RECV, "recv" },
	{ M_OP_LOCAL_INV, "local_inv" }, { M_OP_QUERY_QP, "query_qp" }, { M_OP_FILL, "fill" },
};
NAMED_ENUM(m_op_kind, enum m_op_kind, op_names)

static const struct name cap_names[] = {
	{ M_CAP_MW_TYPE1, "mw_type1" }, { M_CAP_MW_TYPE2, "mw_type2" }, { M_CAP_REREG, "rereg" },
	{ M_CAP_ATOMIC_WRITE, "atomic_write" }, { M_CAP_FLUSH, "flush" }, { M_CAP_ODP, "odp" },
	{ M_CAP_ZERO_BASED_REG, "zero_based_reg" }, { M_CAP_ATOMICS, "atomics" },
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

char *m_outcome_str(struct m_outcome o, char *buf, size_t len)
{
	const char *s = "?";

	switch (o.kind) {
	case M_OUT_OK: s = "ok"; break;
	case M_OUT_ERRNO: s = m_errno_str(o.code); break;
	case M_OUT_WC: s = m_wc_status_str((enum m_wc_status)o.code); break;
	case M_OUT_CRASH: s = "KERNEL_CRASH"; break;
	}
	if (len)
		snprintf(buf, len, "%s", s);
	return buf;
}

int m_outcome_parse(const char *name, struct m_outcome *out)
{
	int e;
	enum m_wc_status w;

	if (strcasecmp(name, "ok") == 0) {
		*out = (struct m_outcome){ M_OUT_OK, 0 };
	} else if (strcasecmp(name, "KERNEL_CRASH") == 0) {
		*out = (struct m_outcome){ M_OUT_CRASH, 0 };
	} else if (m_errno_parse(name, &e) == 0) {
		*out = (struct m_outcome){ M_OUT_ERRNO, (int16_t)e };
	} else if (m_wc_status_parse(name, &w) == 0) {
		*out = (struct m_outcome){ M_OUT_WC, (int16_t)w };
	} else {
		return -EINVAL;
	}
	return 0;
}

static const struct name effect_names[] = {
	{ M_EFF_NONE, "none" }, { M_EFF_DO, "do" }, { M_EFF_QP_ERR, "qp_err" },
	{ M_EFF_BOTH_ERR, "both_err" }, { M_EFF_PEER_ERR, "peer_err" }, { M_EFF_CRASH, "crash" },
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

/*
 * scn_outcome.c — outcome names: ok, errno names, completion statuses,
 * library statuses (librpma, uDAPL, MRAPI) and KERNEL_CRASH.
 *
 * Values are those of the C headers: <errno.h>, IBV_WC_* of
 * <infiniband/verbs.h>, RPMA_E_* of <librpma.h>, DAT_RETURN_TYPE of
 * <dat2/dat_error.h> (tests/unit/test_scn_calls.c compares them with the
 * installed headers). MRAPI has no header here: its code is the index in
 * mrapi_t (names from the MRAPI 1.0 specification, mrapi.h).
 */
#include "harness/scn_internal.h"

#include <errno.h>
#include <stdio.h>
#include <strings.h>

static const struct scn_name errno_t[] = {
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
};

/* IBV_WC_*, in value order (0..21). */
static const struct scn_name wc_t[] = {
	{ 0, "SUCCESS" }, { 1, "LOC_LEN_ERR" }, { 2, "LOC_QP_OP_ERR" }, { 3, "LOC_EEC_OP_ERR" },
	{ 4, "LOC_PROT_ERR" }, { 5, "WR_FLUSH_ERR" }, { 6, "MW_BIND_ERR" }, { 7, "BAD_RESP_ERR" },
	{ 8, "LOC_ACCESS_ERR" }, { 9, "REM_INV_REQ_ERR" }, { 10, "REM_ACCESS_ERR" },
	{ 11, "REM_OP_ERR" }, { 12, "RETRY_EXC_ERR" }, { 13, "RNR_RETRY_EXC_ERR" },
	{ 14, "LOC_RDD_VIOL_ERR" }, { 15, "REM_INV_RD_REQ_ERR" }, { 16, "REM_ABORT_ERR" },
	{ 17, "INV_EECN_ERR" }, { 18, "INV_EEC_STATE_ERR" }, { 19, "FATAL_ERR" },
	{ 20, "RESP_TIMEOUT_ERR" }, { 21, "GENERAL_ERR" },
};

/* RPMA_E_* (stored as uint64_t of the negative int). */
#define RPMA(v, n) { (uint64_t)(int64_t)(v), n }
static const struct scn_name rpma_t[] = {
	RPMA(-100000, "RPMA_E_UNKNOWN"), RPMA(-100001, "RPMA_E_NOSUPP"),
	RPMA(-100002, "RPMA_E_PROVIDER"), RPMA(-100003, "RPMA_E_NOMEM"),
	RPMA(-100004, "RPMA_E_INVAL"), RPMA(-100005, "RPMA_E_NO_COMPLETION"),
	RPMA(-100006, "RPMA_E_NO_EVENT"), RPMA(-100007, "RPMA_E_AGAIN"),
	RPMA(-100008, "RPMA_E_SHARED_CHANNEL"), RPMA(-100009, "RPMA_E_NOT_SHARED_CHNL"),
};

/* DAT_RETURN_TYPE (major codes). */
static const struct scn_name dat_t[] = {
	{ 0x00000000, "DAT_SUCCESS" }, { 0x00010000, "DAT_ABORT" },
	{ 0x00020000, "DAT_CONN_QUAL_IN_USE" }, { 0x00030000, "DAT_INSUFFICIENT_RESOURCES" },
	{ 0x00040000, "DAT_INTERNAL_ERROR" }, { 0x00050000, "DAT_INVALID_HANDLE" },
	{ 0x00060000, "DAT_INVALID_PARAMETER" }, { 0x00070000, "DAT_INVALID_STATE" },
	{ 0x00080000, "DAT_LENGTH_ERROR" }, { 0x00090000, "DAT_MODEL_NOT_SUPPORTED" },
	{ 0x000A0000, "DAT_PROVIDER_NOT_FOUND" }, { 0x000B0000, "DAT_PRIVILEGES_VIOLATION" },
	{ 0x000C0000, "DAT_PROTECTION_VIOLATION" }, { 0x000D0000, "DAT_QUEUE_EMPTY" },
	{ 0x000E0000, "DAT_QUEUE_FULL" }, { 0x000F0000, "DAT_TIMEOUT_EXPIRED" },
	{ 0x00100000, "DAT_PROVIDER_ALREADY_REGISTERED" }, { 0x00110000, "DAT_PROVIDER_IN_USE" },
	{ 0x00120000, "DAT_INVALID_ADDRESS" }, { 0x00130000, "DAT_INTERRUPTED_CALL" },
	{ 0x00140000, "DAT_CONN_QUAL_UNAVAILABLE" }, { 0x00150000, "DAT_RESERVED_LMR" },
	{ 0x00160000, "DAT_PORT_IN_USE" }, { 0x00170000, "DAT_COMM_NOT_SUPPORTED" },
	{ 0x3FFF0000, "DAT_NOT_IMPLEMENTED" },
};

/* MRAPI statuses a remote-memory call can give (value: our index). */
static const struct scn_name mrapi_t[] = {
	{ 0, "MRAPI_SUCCESS" }, { 1, "MRAPI_TIMEOUT" }, { 2, "MRAPI_ERR_MEM_LIMIT" },
	{ 3, "MRAPI_ERR_NODE_NOTINIT" }, { 4, "MRAPI_ERR_NOT_SUPPORTED" },
	{ 5, "MRAPI_ERR_PARAMETER" }, { 6, "MRAPI_ERR_RMEM_ID_INVALID" },
	{ 7, "MRAPI_ERR_RMEM_ATTACH" }, { 8, "MRAPI_ERR_RMEM_ATTACHED" },
	{ 9, "MRAPI_ERR_RMEM_ATYPE" }, { 10, "MRAPI_ERR_RMEM_ATYPE_NOTVALID" },
	{ 11, "MRAPI_ERR_RMEM_BLOCKED" }, { 12, "MRAPI_ERR_RMEM_BUFF_OVERRUN" },
	{ 13, "MRAPI_ERR_RMEM_CONFLICT" }, { 14, "MRAPI_ERR_RMEM_EXISTS" },
	{ 15, "MRAPI_ERR_RMEM_INVALID" }, { 16, "MRAPI_ERR_RMEM_NOTATTACHED" },
	{ 17, "MRAPI_ERR_RMEM_NOTOWNER" }, { 18, "MRAPI_ERR_RMEM_STRIDE" },
	{ 19, "MRAPI_ERR_RMEM_TYPENOTVALID" },
};

static const struct { uint8_t kind; const struct scn_name *t; size_t n; } groups[] = {
	{ SCN_OUT_ERRNO, errno_t, SCN_N(errno_t) },
	{ SCN_OUT_WC, wc_t, SCN_N(wc_t) },
	{ SCN_OUT_RPMA, rpma_t, SCN_N(rpma_t) },
	{ SCN_OUT_DAT, dat_t, SCN_N(dat_t) },
	{ SCN_OUT_MRAPI, mrapi_t, SCN_N(mrapi_t) },
};

int scn_outcome_parse(const char *name, struct scn_outcome *out)
{
	uint64_t v;

	if (strcasecmp(name, "ok") == 0) {
		*out = (struct scn_outcome){ SCN_OUT_OK, 0 };
		return 0;
	}
	if (strcasecmp(name, "KERNEL_CRASH") == 0) {
		*out = (struct scn_outcome){ SCN_OUT_CRASH, 0 };
		return 0;
	}
	for (size_t g = 0; g < SCN_N(groups); g++)
		if (scn_value_of(groups[g].t, groups[g].n, name, true, &v) == 0) {
			*out = (struct scn_outcome){ groups[g].kind, (int32_t)(int64_t)v };
			return 0;
		}
	return -ENOENT;
}

const char *scn_outcome_str(struct scn_outcome o)
{
	if (o.kind == SCN_OUT_OK)
		return "ok";
	if (o.kind == SCN_OUT_CRASH)
		return "KERNEL_CRASH";
	for (size_t g = 0; g < SCN_N(groups); g++)
		if (groups[g].kind == o.kind)
			return scn_name_of(groups[g].t, groups[g].n, (uint64_t)(int64_t)o.code);
	return "?";
}

const char *scn_outcome_name(size_t i)
{
	if (i == 0)
		return "ok";
	if (i == 1)
		return "KERNEL_CRASH";
	i -= 2;
	for (size_t g = 0; g < SCN_N(groups); g++) {
		if (i < groups[g].n)
			return groups[g].t[i].name;
		i -= groups[g].n;
	}
	return NULL;
}

/* backend.c — references and attributes over an engine's view of an object (backend.h). */
#include "harness/run/backend.h"

#include <errno.h>

const char *hconn_key(enum hconn k)
{
	static const char *const keys[HC_COUNT_] = { "mtu", "timeout", "retry_cnt", "rnr_retry",
						     "min_rnr_timer", "max_rd_atomic", "max_dest_rd_atomic" };

	return (unsigned)k < HC_COUNT_ ? keys[k] : "?";
}

int hview_ref(const struct hview *v, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	switch (v->cls) {
	case SCN_C_MR:
	case SCN_C_RPMA_MR:
	case SCN_C_DAT_LMR:
		*addr = (remote ? v->iova : v->addr) + off;
		*key = remote ? v->rkey : v->lkey;
		return 0;
	case SCN_C_RPMA_REMOTE: /* what its descriptor says, for both sides */
		*addr = v->addr + off;
		*key = v->rkey;
		return 0;
	case SCN_C_MW:
	case SCN_C_DAT_RMR:
		if (!remote)
			return -EINVAL;
		*addr = (v->zero_based ? 0 : v->start) + off;
		*key = v->rkey;
		return 0;
	default:
		return -EINVAL;
	}
}

int hview_attr(const struct hview *v, enum scn_attr a, uint64_t *out)
{
	uint32_t key;

	if (!(scn_class_attrs((enum scn_class)v->cls) & (1u << a)))
		return -EINVAL;
	switch (a) {
	case SCN_ATTR_ADDR: return hview_ref(v, 0, 1, out, &key);
	case SCN_ATTR_LEN: *out = v->len; return 0;
	case SCN_ATTR_LKEY: *out = v->lkey; return 0;
	case SCN_ATTR_RKEY: *out = v->rkey; return 0;
	case SCN_ATTR_QPN: *out = v->qpn; return 0;
	case SCN_ATTR_VA: return hview_ref(v, 0, 0, out, &key);
	default: return -EINVAL;
	}
}

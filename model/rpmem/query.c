/*
 * query.c — what rpmem_create and rpmem_open give back besides their handle
 * (model/rpmem/rpmem.h: m_rpmem_query): *nlanes (RPMEM-NLANES-1) and, for
 * rpmem_open, the attributes it puts into open_attr (RPMEM-HDR-2), each
 * field as a scenario result (m_rpmem_attr_keys).
 */
#include "model/rpmem/internal.h"

#include <string.h>

/* struct m_rpmem_attr's fields as results: 8-byte words, little-endian; a 16-byte field is _lo and _hi. */
const char *const m_rpmem_attr_keys[M_RPMEM_ATTR_KEYS] = {
	"signature", "major", "compat_features", "incompat_features", "ro_compat_features",
	"poolset_uuid_lo", "poolset_uuid_hi", "uuid_lo", "uuid_hi", "next_uuid_lo", "next_uuid_hi",
	"prev_uuid_lo", "prev_uuid_hi", "user_flags_lo", "user_flags_hi",
};

static uint64_t le64(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t v = 0;

	for (size_t i = n; i-- > 0;)
		v = v << 8 | b[i];
	return v;
}

uint64_t m_rpmem_attr_value(const struct m_rpmem_attr *a, unsigned i)
{
	const unsigned char *wide[] = { a->poolset_uuid, a->uuid, a->next_uuid, a->prev_uuid, a->user_flags };

	switch (i) {
	case 0: return le64(a->signature, sizeof(a->signature));
	case 1: return a->major;
	case 2: return a->compat_features;
	case 3: return a->incompat_features;
	case 4: return a->ro_compat_features;
	default:
		return i < M_RPMEM_ATTR_KEYS ? le64(wide[(i - 5) / 2] + 8 * ((i - 5) % 2), 8) : 0;
	}
}

int m_rpmem_query(const struct m_rpmem_model *s, const struct m_rpmem_args *a, struct m_qres *out)
{
	const struct m_rpmem_set *st = m_rpmem_set_cfind(s, a->target, a->set);
	struct m_rpmem_attr at;

	memset(out, 0, sizeof(*out));
	if ((a->kind != M_RPMEM_CREATE && a->kind != M_RPMEM_OPEN) || !st || st->owner < 0 ||
	    !s->h[st->owner].live)
		return -EINVAL;
	m_qres_add_range(out, "nlanes", 1, m_rpmem_nlanes_max(s, a), M_RULE_RPMEM_NLANES_1);
	if (a->kind != M_RPMEM_OPEN || (a->nulls & M_RPMEM_NULL_ATTR) || m_rpmem_open_attr(s, a->target, a->set, &at))
		return 0;
	for (unsigned i = 0; i < M_RPMEM_ATTR_KEYS; i++)
		m_qres_add(out, m_rpmem_attr_keys[i], M_Q_EXACT, m_rpmem_attr_value(&at, i), M_RULE_RPMEM_HDR_2);
	return 0;
}

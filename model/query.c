/* query.c — query results: building them (families' query hooks) and judging a value. */
#include "model/internal.h"

void m_qres_add(struct m_qres *q, const char *key, enum m_qmode mode, uint64_t value, enum m_rule rule)
{
	if (q->n >= M_QRES_MAX)
		return;
	q->r[q->n].key = key;
	q->r[q->n].mode = (uint8_t)mode;
	q->r[q->n].value = value;
	q->r[q->n].rule = (uint16_t)rule;
	q->r[q->n].hi = value;
	q->n++;
}

void m_qres_add_range(struct m_qres *q, const char *key, uint64_t lo, uint64_t hi, enum m_rule rule)
{
	m_qres_add(q, key, M_Q_RANGE, lo, rule);
	if (q->n && q->r[q->n - 1].key == key)
		q->r[q->n - 1].hi = hi;
}

void m_qres_add_flag(struct m_qres *q, const char *key, uint64_t mask, enum m_rule rule)
{
	m_qres_add(q, key, M_Q_ONEFLAG, mask & (~mask + 1), rule);
	if (q->n && q->r[q->n - 1].key == key)
		q->r[q->n - 1].hi = mask;
}

int model_qres_ok(const struct m_qres *q, size_t i, uint64_t v)
{
	if (i >= q->n)
		return 0;
	switch ((enum m_qmode)q->r[i].mode) {
	case M_Q_ANY: return 1;
	case M_Q_EXACT: return v == q->r[i].value;
	case M_Q_ZERO: return v == 0;
	case M_Q_NONZERO: return v != 0;
	case M_Q_ATLEAST: return v >= q->r[i].value;
	case M_Q_RANGE: return v >= q->r[i].value && v <= q->r[i].hi;
	case M_Q_ONEFLAG: return v != 0 && (v & (v - 1)) == 0 && (v & q->r[i].hi) != 0;
	}
	return 0;
}

int model_outcome_success(struct m_outcome o)
{
	switch ((enum m_outcome_kind)o.kind) {
	case M_OUT_OK: return 1;
	case M_OUT_WC: return o.code == M_WC_SUCCESS;
	case M_OUT_DAT: return o.code == M_DAT_SUCCESS;
	case M_OUT_DTO: return o.code == M_DTO_SUCCESS;
	case M_OUT_MRAPI: return o.code == M_MRAPI_SUCCESS;
	default: return 0;
	}
}

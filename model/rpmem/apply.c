/*
 * rpmem_apply.c — committing a librpmem prediction (model/rpmem.c) to the
 * state: handles, pools and their bytes (persisted, or flushed and unknown
 * until a drain on the same lane), and comparing a real part file with them.
 */
#include "model/rpmem/internal.h"

#include <stdlib.h>
#include <string.h>

static int do_create_open(struct m_rpmem_model *s, const struct m_rpmem_args *a, int *created)
{
	struct m_rpmem_set *st = m_rpmem_set_find(s, a->target, a->set);
	uint32_t max = m_rpmem_nlanes_max(s, a);
	struct m_rpmem_handle *hd;

	if (s->nh >= M_RPMEM_HANDLES)
		return -ENOSPC;
	if (a->nlanes_out > max) /* RPMEM-NLANES-1: reality gave more lanes than allowed */
		return -ERANGE;
	hd = &s->h[s->nh];
	memset(hd, 0, sizeof(*hd));
	hd->local = m_rpmem_bytes_new(a->pool_size);
	if (!hd->local)
		return -ENOMEM;
	if (a->kind == M_RPMEM_CREATE) {
		m_rpmem_set_bytes_free(st); /* a pool is created where none exists: nothing held, as a rule */
		st->data = st->span <= M_RPMEM_SPAN_MAX ? m_rpmem_bytes_new(st->span) : NULL;
		st->unknown = st->span <= M_RPMEM_SPAN_MAX ? m_rpmem_bytes_new(st->span) : NULL;
		if (st->span <= M_RPMEM_SPAN_MAX && (!st->data || !st->unknown)) {
			m_rpmem_set_bytes_free(st);
			m_rpmem_bytes_drop(hd->local);
			hd->local = NULL;
			return -ENOMEM;
		}
		st->exists = st->consistent = 1;
		st->has_hdr = st->opt != M_RPMEM_OPT_NOHDRS;
		if (st->has_hdr && st->unknown && st->span >= M_RPMEM_HDR)
			memset(st->unknown, 1, M_RPMEM_HDR); /* the header page is the target's: not the model's bytes */
		memset(&st->attr, 0, sizeof(st->attr));
		if (st->has_hdr)
			st->attr = a->attr;
	}
	hd->live = hd->ever = 1;
	hd->target = a->target;
	hd->set = (uint8_t)(st - s->target[a->target].set);
	hd->hdr = st->has_hdr;
	hd->attr_null_or_zero = (a->nulls & M_RPMEM_NULL_ATTR) || !st->has_hdr || m_rpmem_attr_zero(&st->attr);
	hd->nlanes = a->nlanes_out ? a->nlanes_out : max;
	hd->pool_size = a->pool_size;
	st->owner = (int16_t)s->nh;
	*created = s->nh++;
	return 0;
}

/* May byte off of set st still change because a lane other than skip has it pending? */
static int pending_elsewhere(const struct m_rpmem_model *s, const struct m_rpmem_handle *hd, unsigned skip, uint64_t off)
{
	for (unsigned l = 0; l < M_RPMEM_LANES; l++)
		for (unsigned k = 0; l != skip && k < hd->npend[l]; k++)
			if (off >= hd->pend[l][k].off && off - hd->pend[l][k].off < hd->pend[l][k].len)
				return 1;
	(void)s;
	return 0;
}

static int do_transfer(struct m_rpmem_model *s, const struct m_rpmem_args *a, struct m_rpmem_handle *hd)
{
	struct m_rpmem_set *st = &s->target[hd->target].set[hd->set];

	switch (a->kind) {
	case M_RPMEM_PERSIST: case M_RPMEM_DEEP_PERSIST: case M_RPMEM_FLUSH:
		if (!st->data)
			return 0;
		if (m_rpmem_bytes_own(&st->data, st->span) || m_rpmem_bytes_own(&st->unknown, st->span))
			return -ENOMEM;
		memcpy(st->data + a->offset, hd->local + a->offset, a->len);
		memset(st->unknown + a->offset, a->kind == M_RPMEM_FLUSH, a->len);
		if (a->kind == M_RPMEM_FLUSH && a->lane < M_RPMEM_LANES && hd->npend[a->lane] < M_RPMEM_PENDING)
			hd->pend[a->lane][hd->npend[a->lane]++] = (struct m_rpmem_range){ a->offset, a->len };
		return 0;
	case M_RPMEM_DRAIN:
		if (a->lane >= M_RPMEM_LANES)
			return 0;
		if (hd->npend[a->lane] && m_rpmem_bytes_own(&st->unknown, st->span))
			return -ENOMEM;
		for (unsigned k = 0; st->data && k < hd->npend[a->lane]; k++) {
			const struct m_rpmem_range *r = &hd->pend[a->lane][k];

			for (uint64_t o = r->off; o < r->off + r->len; o++)
				if (!pending_elsewhere(s, hd, a->lane, o))
					st->unknown[o] = 0;
		}
		hd->npend[a->lane] = 0;
		return 0;
	case M_RPMEM_SET_ATTR:
		memset(&st->attr, 0, sizeof(st->attr));
		if (!(a->nulls & M_RPMEM_NULL_ATTR))
			st->attr = a->attr;
		return 0;
	default: /* read: nothing changes */
		return 0;
	}
}

static void handle_end(struct m_rpmem_model *s, struct m_rpmem_handle *hd)
{
	struct m_rpmem_set *st = &s->target[hd->target].set[hd->set];

	if (st->owner == (int16_t)(hd - s->h))
		st->owner = -1;
	m_rpmem_bytes_drop(hd->local);
	hd->local = NULL;
	hd->live = 0;
}

static int do_remove(struct m_rpmem_model *s, const struct m_rpmem_args *a)
{
	struct m_rpmem_set *st = m_rpmem_set_find(s, a->target, a->set);

	m_rpmem_set_bytes_free(st);
	st->exists = st->consistent = st->has_hdr = 0;
	memset(&st->attr, 0, sizeof(st->attr));
	if (a->flags & M_RPMEM_REMOVE_POOL_SET) {
		memset(st, 0, sizeof(*st));
		st->owner = -1; /* no pool open on it: a cleared 0 would name handle 0 (its link up again) */
	}
	return 0;
}

int m_rpmem_apply(struct m_rpmem_model *s, const struct m_rpmem_args *a, const struct m_pred *pred, size_t i,
		  int *created)
{
	struct m_rpmem_handle *hd = a->h >= 0 && a->h < s->nh ? &s->h[a->h] : NULL;
	const struct m_alt *alt;
	int dummy;

	if (!created)
		created = &dummy;
	*created = -1;
	if (i >= pred->n)
		return -EINVAL;
	alt = &pred->alt[i];
	if (alt->effect == M_EFF_QP_ERR && hd && hd->live) {
		hd->error = alt->out.code; /* RPMEM-ERR-1 */
		return 0;
	}
	if (alt->effect != M_EFF_DO)
		return 0;
	switch (a->kind) {
	case M_RPMEM_CREATE: case M_RPMEM_OPEN:
		return do_create_open(s, a, created);
	case M_RPMEM_REMOVE:
		return do_remove(s, a);
	case M_RPMEM_POOLSET:
		return m_rpmem_set_add(s, a->target, a->set, (enum m_rpmem_opt)a->opt, a->nparts, a->part, a->malformed);
	default:
		break;
	}
	if (!hd || !hd->live)
		return -EINVAL;
	switch (a->kind) {
	case M_RPMEM_CLOSE: case M_RPMEM_KILL:
		handle_end(s, hd);
		return 0;
	case M_RPMEM_LINK_DOWN: {
		struct m_rpmem_set *st = &s->target[hd->target].set[hd->set];

		if (st->owner == a->h)
			st->owner = -1; /* the target closed the pool */
		return 0;
	}
	case M_RPMEM_FILL:
		if (m_rpmem_bytes_own(&hd->local, hd->pool_size))
			return -ENOMEM;
		memset(hd->local + a->offset, a->byte, a->len);
		return 0;
	default:
		return do_transfer(s, a, hd);
	}
}

/* ----------------------------------------------------------- compare -- */

long m_rpmem_part_compare(const struct m_rpmem_model *s, unsigned t, const char *name, unsigned part, uint64_t off,
			  const uint8_t *real, size_t len)
{
	const struct m_rpmem_set *st = m_rpmem_set_cfind(s, t, name);
	uint64_t fo, start;

	if (!st || !st->exists || part >= st->nparts || off > st->part[part] || len > st->part[part] - off)
		return -2;
	start = m_rpmem_part_start(st, part, &fo);
	for (size_t i = 0; i < len && st->data; i++) {
		uint64_t x = off + i, at;

		if (x < fo || (st->has_hdr && part == 0 && x < M_RPMEM_HDR))
			continue; /* a header page */
		at = start + (x - fo);
		if (!st->unknown[at] && st->data[at] != real[i])
			return (long)i;
	}
	return -1;
}

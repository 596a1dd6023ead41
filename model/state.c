/* state.c — the model's state: release and copy, lookups, memory, decisions. */
#include "model/internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void model_free(struct model *m)
{
	for (unsigned n = 0; n < m->nnodes; n++)
		for (unsigned i = 0; i < M_MAX_MR; i++) {
			struct m_mr *mr = &m->node[n].mr[i];

			if (!mr->mem)
				continue;
			if (mr->buf == (int16_t)i || !mr->ever) /* the owner of its memory */
				m_mem_drop(mr->mem);
			mr->mem = NULL;
		}
	m_families_free(m);
}

int model_clone(struct model *dst, const struct model *src)
{
	int rc;

	/* The header and src's nodes, then the domain-wide state (model.h: no more). */
	memcpy(dst, src, offsetof(struct model, node) + src->nnodes * sizeof(src->node[0]));
#define MODEL_STATE(name) memcpy(&dst->name, &src->name, m_##name##_model_used(&src->name));
#include "model/state.def"
	rc = m_families_clone(dst, src);
	/* After a failure the remaining MRs get no memory (never src's), so model_free is safe.
	 * A buffer's pages are shared (mem.c): its list of them is copied, by its owner;
	 * then every other registration of the buffer points at the owner's copy. */
	for (unsigned n = 0; n < src->nnodes; n++)
		for (unsigned i = 0; i < M_MAX_MR; i++) {
			struct m_mr *d = &dst->node[n].mr[i];
			const struct m_mr *s = &src->node[n].mr[i];

			d->mem = NULL;
			if (s->mem && !rc && s->buf == (int16_t)i && !(d->mem = m_mem_clone(s->mem)))
				rc = -ENOMEM;
		}
	for (unsigned n = 0; n < src->nnodes && !rc; n++)
		for (unsigned i = 0; i < M_MAX_MR; i++) {
			const struct m_mr *s = &src->node[n].mr[i];

			if (s->mem && s->buf != (int16_t)i)
				dst->node[n].mr[i].mem = dst->node[n].mr[s->buf].mem;
		}
	if (rc)
		model_free(dst);
	return rc;
}

int m_alt_has_rule(const struct m_alt *a, enum m_rule r)
{
	for (unsigned i = 0; i < a->nrules; i++)
		if (a->rules[i] == r)
			return 1;
	return 0;
}

int m_mr_by_lkey(const struct m_node *nd, uint32_t lkey)
{
	for (int i = 0; i < nd->nmr; i++)
		if (nd->mr[i].live && nd->mr[i].lkey == lkey)
			return i;
	return -1;
}

int m_mr_by_rkey(const struct m_node *nd, uint32_t rkey)
{
	for (int i = 0; i < nd->nmr; i++)
		if (nd->mr[i].live && nd->mr[i].rkey == rkey)
			return i;
	return -1;
}

int m_mw_by_rkey(const struct m_node *nd, uint32_t rkey)
{
	for (int i = 0; i < nd->nmw; i++)
		if (nd->mw[i].live && nd->mw[i].rkey == rkey)
			return i;
	return -1;
}

/* Outcome x added to the k outcomes o[0..k) unless there; the new count. A count in a register: the
 * outcomes' byte-wide stores may alias anything (a set's n, the profile), so a loop counting in
 * memory would read back the set and the profile after each. */
static inline unsigned set_put(struct m_outcome *o, unsigned k, struct m_outcome x)
{
	for (unsigned i = 0; i < k; i++)
		if (m_outcome_eq(o[i], x))
			return k;
	if (k < M_SET_MAX)
		o[k++] = x;
	return k;
}

void m_decide_into(struct m_set *s, const struct m_profile *p, enum m_rule rule, unsigned part,
		   const struct m_outcome *outs, unsigned n)
{
	const uint16_t *chain = NULL;
	size_t d = p ? m_profile_dev_part_first(p, rule, part, &chain) : 0;
	/* The profile read once (as the count: the stores below may alias it). */
	const size_t ndev = p ? p->ndev : 0;
	const struct m_deviation *const devs = p ? p->dev : NULL;
	const uint32_t kernel = p ? p->kernel : 0;
	struct m_outcome *o = s->o;
	unsigned k = 0, dev = 0, generic = 1;

	/* A set is its first n outcomes: no more is written (a decision per step). The generic outcomes
	 * are put in when a deviation widens or narrows them, or at the end: not at all when a deviation
	 * replaces them (the decisions most steps make: RA-ERR-5 of a post on an ERR QP). Every deviation
	 * in place: the set stays free of duplicates, so a narrowing keeps, in order, those of its
	 * outcomes the deviation names. */
	for (; d < ndev; d = m_profile_dev_after(p, rule, chain, d)) {
		const struct m_deviation *dv = &devs[d];
		unsigned kept = 0;

		if (dv->rule != rule || dv->part != part)
			continue;
		if (kernel && (kernel < dv->kernel_min || kernel > dv->kernel_max))
			continue;
		dev = d < UINT8_MAX ? (unsigned)d + 1 : 0; /* this deviation decides the set now */
		if (dv->kind == M_DEV_REPLACE) {
			k = 0;
			generic = 0;
		}
		for (unsigned i = 0; generic && i < n; i++)
			k = set_put(o, k, outs[i]);
		generic = 0;
		switch (dv->kind) {
		case M_DEV_REPLACE:
		case M_DEV_WIDEN:
			for (unsigned i = 0; i < dv->n; i++)
				k = set_put(o, k, dv->outs[i]);
			break;
		case M_DEV_NARROW:
			for (unsigned i = 0; i < k; i++)
				for (unsigned j = 0; j < dv->n; j++)
					if (m_outcome_eq(o[i], dv->outs[j])) {
						o[kept++] = o[i];
						break;
					}
			k = kept;
			break;
		}
	}
	for (unsigned i = 0; generic && i < n; i++)
		k = set_put(o, k, outs[i]);
	s->n = (uint8_t)k;
	s->dev = (uint8_t)dev;
}

struct m_set m_decide(const struct m_profile *p, enum m_rule rule, unsigned part,
		      const struct m_outcome *outs, unsigned n)
{
	struct m_set s;

	m_decide_into(&s, p, rule, part, outs, n);
	return s;
}

/* Alternative o added to the k of alts[0..k) unless there (same outcome, effect, peer receive and
 * detail); the new count, kept in a register (the alternatives' byte-wide stores may alias anything:
 * pred->n, the set, the rules, which a count in memory would have read back after each). */
static inline unsigned alt_put(struct m_alt *alts, unsigned k, struct m_outcome o, enum m_effect effect,
			       const struct m_why *why, int peer_recv, int detail)
{
	struct m_alt *a;

	for (unsigned i = 0; i < k; i++) {
		a = &alts[i];
		if (m_outcome_eq(a->out, o) && a->effect == effect && a->peer_recv == peer_recv &&
		    a->detail == detail)
			return k;
	}
	if (k >= M_ALT_MAX)
		return k;
	a = &alts[k];
	*a = (struct m_alt){ .out = o, .effect = (uint8_t)(o.kind == M_OUT_CRASH ? M_EFF_CRASH : effect),
			     .peer_recv = (int8_t)peer_recv, .detail = (int8_t)detail, .nrules = why->n,
			     .dev = why->dev };
	memcpy(a->rules, why->r, sizeof(a->rules));
	return k + 1;
}

void m_alt_add(struct m_pred *pred, struct m_outcome o, enum m_effect effect,
	       const struct m_why *why, int peer_recv)
{
	pred->n = (uint8_t)alt_put(pred->alt, pred->n, o, effect, why, peer_recv, -1);
}

void m_alt_add_detail(struct m_pred *pred, struct m_outcome o, enum m_effect effect,
		      const struct m_why *why, int detail)
{
	pred->n = (uint8_t)alt_put(pred->alt, pred->n, o, effect, why, -1, detail);
}

void m_alts_add(struct m_pred *pred, const struct m_set *set, enum m_effect effect,
		const struct m_why *why, int peer_recv)
{
	const unsigned n = set->n;
	unsigned k = pred->n;

	for (unsigned i = 0; i < n; i++)
		k = alt_put(pred->alt, k, set->o[i], effect, why, peer_recv, -1);
	pred->n = (uint8_t)k;
}

int model_pred_find(const struct m_pred *pred, struct m_outcome o)
{
	for (unsigned i = 0; i < pred->n; i++)
		if (m_outcome_eq(pred->alt[i].out, o))
			return (int)i;
	return -1;
}

uint64_t model_mr_raddr(const struct model *m, unsigned n, int h, uint64_t off)
{
	return m->node[n].mr[h].iova + off;
}

uint64_t model_mr_laddr(const struct model *m, unsigned n, int h, uint64_t off)
{
	return m->node[n].mr[h].addr + off;
}

long model_bytes_compare(const uint8_t *bytes, const uint8_t *unknown, const uint8_t *real, size_t len)
{
	enum { CHUNK = 64 };

	for (size_t i = 0; i < len;) {
		size_t end = len - i < CHUNK ? len : i + CHUNK;

		/* A chunk whose bytes all equal reality's holds no difference, unknown or not. */
		if (memcmp(bytes + i, real + i, end - i) == 0) {
			i = end;
			continue;
		}
		for (; i < end; i++)
			if (!unknown[i] && bytes[i] != real[i])
				return (long)i;
	}
	return -1;
}

long model_mr_compare(const struct model *m, unsigned n, int h, uint64_t off,
		      const uint8_t *real, size_t len)
{
	const struct m_mr *mr = &m->node[n].mr[h];
	size_t in = off >= mr->len ? 0 : mr->len - off < len ? (size_t)(mr->len - off) : len;

	for (size_t done = 0; mr->mem && done < in;) {
		const uint8_t *b, *u;
		size_t k = model_mem_at(mr->mem, mr->moff + off + done, in - done, &b, &u);
		long d = model_bytes_compare(b, u, real + done, k);

		if (d >= 0)
			return (long)done + d;
		done += k;
	}
	return in < len ? (long)in : -1;
}

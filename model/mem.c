/*
 * mem.c — a buffer's contents held sparsely (struct m_mem, internal.h): the
 * M_PAGE-byte pages written so far, sorted by index; a page not held is all 0
 * and known (what a new buffer holds). Pages are shared between the copies
 * of a model (model_clone) and copied on the first write that finds another
 * holder: a clone copies each buffer's list of pages, never their bytes.
 * A write that would hold more than M_MEM_PAGES_MAX pages in one buffer, or
 * finds no memory, leaves the buffer marked full (m_mem.full) and writes
 * nothing more; model_mem_check says so.
 */
#include "model/internal.h"

#include <stdlib.h>
#include <string.h>

#define M_MEM_PAGES_MAX (M_MR_BYTES_MAX / M_PAGE)

static const uint8_t zeros[M_PAGE]; /* a page not held: its bytes, and its unknown marks (all known) */

int m_mem_new(struct m_mem **out, uint64_t len)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->len = len;
	return 0;
}

void m_mem_drop(struct m_mem *mem)
{
	if (!mem)
		return;
	for (uint32_t i = 0; i < mem->n; i++)
		if (--mem->pg[i].p->refs == 0)
			free(mem->pg[i].p);
	free(mem->pg);
	free(mem);
}

struct m_mem *m_mem_clone(const struct m_mem *src)
{
	struct m_mem *d = malloc(sizeof(*d));

	if (!d)
		return NULL;
	*d = *src;
	d->pg = NULL;
	d->cap = d->n;
	if (src->n) {
		d->pg = malloc(src->n * sizeof(d->pg[0]));
		if (!d->pg) {
			free(d);
			return NULL;
		}
		memcpy(d->pg, src->pg, src->n * sizeof(d->pg[0]));
		for (uint32_t i = 0; i < src->n; i++)
			src->pg[i].p->refs++;
	}
	return d;
}

/* The position of page idx in mem's list, or where it would go (*found 0). */
static uint32_t find(const struct m_mem *mem, uint64_t idx, int *found)
{
	uint32_t lo = 0, hi = mem->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (mem->pg[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < mem->n && mem->pg[lo].idx == idx;
	return lo;
}

static const struct m_page *rpage(const struct m_mem *mem, uint64_t idx)
{
	int found;
	uint32_t at = find(mem, idx, &found);

	return found ? mem->pg[at].p : NULL;
}

/* Page idx of mem for writing: held by mem alone (copied if shared, made if absent), or NULL (full). */
static struct m_page *wpage(struct m_mem *mem, uint64_t idx)
{
	int found;
	uint32_t at = find(mem, idx, &found);
	struct m_page *p;

	if (mem->full)
		return NULL;
	if (found) {
		p = mem->pg[at].p;
		if (p->refs == 1)
			return p;
		struct m_page *c = malloc(sizeof(*c));

		if (!c) {
			mem->full = 1;
			return NULL;
		}
		memcpy(c, p, sizeof(*c));
		c->refs = 1;
		p->refs--;
		return mem->pg[at].p = c;
	}
	if (mem->n >= M_MEM_PAGES_MAX) {
		mem->full = 1;
		return NULL;
	}
	if (mem->n == mem->cap) {
		uint32_t cap = mem->cap ? 2 * mem->cap : 4;
		struct m_pgref *pg = realloc(mem->pg, cap * sizeof(*pg));

		if (!pg) {
			mem->full = 1;
			return NULL;
		}
		mem->pg = pg;
		mem->cap = cap;
	}
	if (!(p = calloc(1, sizeof(*p)))) {
		mem->full = 1;
		return NULL;
	}
	p->refs = 1;
	memmove(mem->pg + at + 1, mem->pg + at, (mem->n - at) * sizeof(mem->pg[0]));
	mem->pg[at] = (struct m_pgref){ .idx = idx, .p = p };
	mem->n++;
	return p;
}

/* Bytes of [off, off+len) that lie in off's page. */
static uint64_t in_page(uint64_t off, uint64_t len)
{
	uint64_t room = M_PAGE - off % M_PAGE;

	return len < room ? len : room;
}

size_t model_mem_at(const struct m_mem *mem, uint64_t off, size_t len, const uint8_t **bytes,
		    const uint8_t **unknown)
{
	const struct m_page *p = rpage(mem, off / M_PAGE);
	size_t k = (size_t)in_page(off, len);

	*bytes = p ? p->bytes + off % M_PAGE : zeros;
	*unknown = p ? p->unknown + off % M_PAGE : zeros;
	return k;
}

uint64_t model_mem_held_from(const struct m_mem *mem, uint64_t off)
{
	int found;
	uint32_t at = find(mem, off / M_PAGE, &found);

	if (found)
		return off;
	return at < mem->n ? mem->pg[at].idx * M_PAGE : UINT64_MAX;
}

void m_mem_fill(struct m_mem *mem, uint64_t off, int byte, uint64_t len)
{
	while (len) {
		uint64_t k = in_page(off, len);
		struct m_page *p;

		if (byte == 0 && !rpage(mem, off / M_PAGE)) {
			off += k, len -= k; /* 0, known: what a page not held is */
			continue;
		}
		if (!(p = wpage(mem, off / M_PAGE)))
			return;
		memset(p->bytes + off % M_PAGE, byte, k);
		memset(p->unknown + off % M_PAGE, 0, k);
		off += k, len -= k;
	}
}

void m_mem_mark(struct m_mem *mem, uint64_t off, uint64_t len, int unknown)
{
	while (len) {
		uint64_t k = in_page(off, len);
		struct m_page *p = !unknown && !rpage(mem, off / M_PAGE) ? NULL : wpage(mem, off / M_PAGE);

		if (p)
			memset(p->unknown + off % M_PAGE, unknown, k);
		else if (unknown)
			return; /* full */
		off += k, len -= k;
	}
}

void m_mem_put(struct m_mem *mem, uint64_t off, const uint8_t *b, uint64_t len, int unknown)
{
	while (len) {
		uint64_t k = in_page(off, len);
		struct m_page *p = wpage(mem, off / M_PAGE);

		if (!p)
			return;
		memcpy(p->bytes + off % M_PAGE, b, k);
		memset(p->unknown + off % M_PAGE, unknown, k);
		off += k, len -= k, b += k;
	}
}

void m_mem_get(const struct m_mem *mem, uint64_t off, uint8_t *b, uint64_t len, int *unknown)
{
	*unknown = 0;
	while (len) {
		const uint8_t *pb, *pu;
		size_t k = model_mem_at(mem, off, (size_t)len, &pb, &pu);

		memcpy(b, pb, k);
		for (size_t i = 0; i < k; i++)
			*unknown |= pu[i];
		off += k, len -= k, b += k;
	}
}

/* One piece of a copy: k bytes that lie in one page of src and one of dst. */
static void copy_piece(struct m_mem *dst, uint64_t doff, const struct m_mem *src, uint64_t soff, uint64_t k)
{
	const struct m_page *s = rpage(src, soff / M_PAGE);
	struct m_page *d;

	if (!s && !rpage(dst, doff / M_PAGE))
		return; /* 0, known onto 0, known */
	if (!(d = wpage(dst, doff / M_PAGE)))
		return;
	s = rpage(src, soff / M_PAGE); /* dst's write may have copied the page src holds (src == dst) */
	memmove(d->bytes + doff % M_PAGE, s ? s->bytes + soff % M_PAGE : zeros, k);
	memmove(d->unknown + doff % M_PAGE, s ? s->unknown + soff % M_PAGE : zeros, k);
}

void m_mem_copy(struct m_mem *dst, uint64_t doff, const struct m_mem *src, uint64_t soff, uint64_t len)
{
	if (dst == src && doff > soff && doff < soff + len) {
		/* Overlapping, forward: from the end, so no byte is read after it was written. */
		while (len) {
			uint64_t ds = (doff + len) % M_PAGE, ss = (soff + len) % M_PAGE, k = len;

			if (ds && ds < k)
				k = ds;
			if (ss && ss < k)
				k = ss;
			if (k > M_PAGE)
				k = M_PAGE;
			len -= k;
			copy_piece(dst, doff + len, src, soff + len, k);
		}
		return;
	}
	while (len) {
		uint64_t k = in_page(doff, in_page(soff, len));

		copy_piece(dst, doff, src, soff, k);
		doff += k, soff += k, len -= k;
	}
}

int model_mem_check(const struct model *m, uint64_t *held)
{
	uint64_t pages = 0;
	int full = 0;

	for (unsigned n = 0; n < m->nnodes; n++)
		for (int i = 0; i < m->node[n].nmr; i++) {
			const struct m_mr *mr = &m->node[n].mr[i];

			if (!mr->mem || mr->buf != (int16_t)i)
				continue;
			pages += mr->mem->n;
			full |= mr->mem->full;
		}
	if (held)
		*held = pages * M_PAGE;
	return full || pages > M_MEM_PAGES_MAX ? -EFBIG : 0;
}

int model_mr_byte(const struct model *m, unsigned n, int h, uint64_t off)
{
	const struct m_mr *mr = &m->node[n].mr[h];
	const uint8_t *b, *u;

	if (!mr->mem || off >= mr->len)
		return -1;
	model_mem_at(mr->mem, mr->moff + off, 1, &b, &u);
	return *b;
}

int model_mr_unknown(const struct model *m, unsigned n, int h, uint64_t off)
{
	const struct m_mr *mr = &m->node[n].mr[h];
	const uint8_t *b, *u;

	if (!mr->mem || off >= mr->len)
		return -1;
	model_mem_at(mr->mem, mr->moff + off, 1, &b, &u);
	return *u;
}

int model_mr_set(struct model *m, unsigned n, int h, uint64_t off, int byte, uint64_t len)
{
	struct m_mr *mr = &m->node[n].mr[h];

	if (!mr->mem || off > mr->len || len > mr->len - off)
		return -EINVAL;
	m_mem_fill(mr->mem, mr->moff + off, byte, len);
	return mr->mem->full ? -EFBIG : 0;
}

int model_mr_same(const struct model *a, const struct model *b, unsigned n, int h)
{
	const struct m_mr *x = &a->node[n].mr[h], *y = &b->node[n].mr[h];

	if (!x->mem || !y->mem)
		return !x->mem == !y->mem;
	if (x->len != y->len)
		return 0;
	for (uint64_t off = 0; off < x->len;) {
		const uint8_t *xb, *xu, *yb, *yu;
		size_t k = model_mem_at(x->mem, x->moff + off, (size_t)(x->len - off < M_PAGE ? x->len - off : M_PAGE),
					&xb, &xu);

		k = model_mem_at(y->mem, y->moff + off, k, &yb, &yu);
		if (memcmp(xb, yb, k) || memcmp(xu, yu, k))
			return 0;
		off += k;
	}
	return 1;
}

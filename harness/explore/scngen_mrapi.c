/*
 * scngen_mrapi.c — MRAPI remote-memory steps drawn from the prefix's objects
 * and the model's domain (scngen_int.h): ids (fresh, taken, another node's,
 * deleted, made up, ANY), gets from other nodes, attach and detach in any
 * order (twice, not attached), deletes by the creator while others are
 * attached and by a node that is not the owner, reads and writes (blocking
 * and _i with wait/test/cancel) at the buffer's edges and strided, the
 * creator's own stores, and a node's finalize (and initialize again).
 */
#include "harness/explore/scngen_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum mk { M_CREATE, M_GET, M_ATTACH, M_DETACH, M_DELETE, M_READ, M_WRITE, M_RW_I, M_WAIT, M_STORE, M_SYNC,
	  M_FINALIZE, M_INIT, M_ATTR, M_COUNT_ };

/* The model's segment of rmem object o (handle h), NULL when it names none. */
static const struct m_mrapi_seg *seg_of(const struct gctx *x, int h)
{
	return h >= 0 && h < x->m->mrapi.nsegs ? &x->m->mrapi.seg[h] : NULL;
}

/* A live buffer node created itself (a read's or write's local buffer, a store's target): its index or -1. */
static int32_t own_buffer(struct gctx *x, unsigned node, int *h)
{
	const struct scn_file *f = x->e->f;
	int32_t cand[64];
	unsigned n = 0;

	for (size_t i = 0; i < f->nobjs && n < 64; i++) {
		const struct m_mrapi_seg *s = seg_of(x, x->e->eng.h[i]);

		if (f->objs[i].node == node && f->objs[i].cls == SCN_C_MRAPI_RMEM && s && s->live && s->owner == node &&
		    strcmp(scn_step_call(&f->steps[f->objs[i].step])->name, "mrapi_rmem_create") == 0)
			cand[n++] = (int32_t)i;
	}
	if (!n)
		return -1;
	int32_t o = cand[below(x, n)];

	*h = x->e->eng.h[o];
	return o;
}

void mrapi_draw(struct gctx *x, unsigned *node, unsigned *kind)
{
	const struct m_mrapi_model *mm = &x->m->mrapi;
	unsigned w[M_COUNT_] = { 0 };
	int h, hl;
	int32_t r, l;

	*node = below(x, x->nnodes);
	if (!mm->node[*node].init && below(x, 4)) {
		*kind = M_INIT; /* now and then a call before initialize */
		return;
	}
	r = pick(x, *node, SCN_C_MRAPI_RMEM, W_ANY, &h);
	l = own_buffer(x, *node, &hl);
	w[M_CREATE] = mm->nsegs >= M_MRAPI_SEGS - 2 ? 0 : l < 0 ? 14 : 3;
	w[M_GET] = mm->nsegs ? 8 : 0;
	w[M_ATTACH] = r >= 0 ? 8 : 0;
	w[M_DETACH] = r >= 0 ? 3 : 0;
	w[M_DELETE] = r >= 0 ? 3 : 0;
	w[M_READ] = w[M_WRITE] = r >= 0 && l >= 0 ? 10 : 0;
	w[M_RW_I] = r >= 0 && l >= 0 && mm->nreqs < M_MRAPI_REQS - 1 ? 4 : 0;
	w[M_WAIT] = pick(x, *node, SCN_C_MRAPI_REQ, W_ANY, NULL) >= 0 ? 5 : 0;
	w[M_STORE] = l >= 0 ? 3 : 0;
	w[M_SYNC] = r >= 0 ? 1 : 0;
	w[M_FINALIZE] = mm->node[*node].init ? 1 : 0;
	w[M_INIT] = mm->node[*node].init ? 0 : 1;
	w[M_ATTR] = mm->node[*node].init ? 3 : 0;
	*kind = weighted(x, w, M_COUNT_);
}

/* An id for create or get: fresh, a taken (or deleted) one from the domain, ANY, or made up. */
static void rmem_id(struct gctx *x, int fresh, char *buf, size_t len)
{
	const struct m_mrapi_model *mm = &x->m->mrapi;
	uint32_t k = below(x, 10);

	if (k == 0)
		snprintf(buf, len, "ANY");
	else if (k == 1 || (fresh && k < 8) || !mm->nsegs)
		snprintf(buf, len, "%u", (unsigned)(fresh ? 100 + x->step : 900 + below(x, 4))); /* nobody's */
	else
		snprintf(buf, len, "%u", (unsigned)mm->seg[below(x, mm->nsegs)].id);
}

/* An access type now and then: another supported one, ANY, or one that is no type. */
static const char *atype(struct gctx *x)
{
	static const char *const t[] = { " atype=DMA", " atype=ANY", " atype=SWCACHE", " atype=7" };

	return below(x, 5) ? "" : t[below(x, 4)];
}

/* An attributes object node made (init_attributes: the parser's objects, the model keeps no handle), or -1. */
static int32_t pick_attrs(struct gctx *x, unsigned node)
{
	const struct scn_file *f = x->e->f;
	int32_t cand[32];
	unsigned n = 0;

	for (size_t i = 0; i < f->nobjs && n < 32; i++)
		if (f->objs[i].node == node && f->objs[i].cls == SCN_C_MRAPI_ATTRS && f->objs[i].step < x->e->nseen)
			cand[n++] = (int32_t)i;
	return n ? cand[below(x, n)] : -1;
}

/*
 * A creation: a fresh id mostly, the node's attributes now and then; once the node has a buffer of its
 * own, now and then size 0, no buffer (NULL) or over a part of that buffer (a conflict).
 */
static int propose_create(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const unsigned sizes[] = { 4096, 4096, 256, 1024, 64, 1 };
	char id[24], tail[80] = "";
	int32_t a = below(x, 4) ? -1 : pick_attrs(x, node);
	int hl;
	int32_t l = own_buffer(x, node, &hl);
	unsigned size = sizes[below(x, sizeof(sizes) / sizeof(sizes[0]))];

	rmem_id(x, 1, id, sizeof(id));
	if (a >= 0)
		snprintf(tail, sizeof(tail), " attrs=%s", oname(x, a));
	if (l >= 0 && below(x, 5) == 0) {
		switch (below(x, 3)) {
		case 0:
			size = 0;
			break;
		case 1:
			snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), " null=MEM");
			break;
		default:
			size = 64;
			snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), " over=%s+0", oname(x, l));
			break;
		}
	}
	snprintf(line, len, "%s: mrapi_rmem_create r%u id=%s size=%u%s%s", ex_node_name(node), x->step, id, size,
		 atype(x), tail);
	return 0;
}

/* Attributes: init (NULL now and then), set one (domain sharing off, extended errors, the size), get one. */
static int propose_attr(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const char *const set[] = { " attr=DOMAIN_SHARED value=0", " attr=ERROR_EXT value=1",
					   " attr=RMEM_SIZE value=64", " attr=DOMAIN_SHARED value=1", " attr=9 value=1" };
	static const char *const get[] = { " attr=DOMAIN_SHARED", " attr=ERROR_EXT", " attr=RMEM_SIZE",
					   " attr=RMEM_ATYPE", " attr=9" };
	int32_t a = pick_attrs(x, node);
	int n;

	switch (a < 0 ? 0 : below(x, 4)) {
	case 0:
		snprintf(line, len, "%s: mrapi_rmem_init_attributes t%u%s", ex_node_name(node), x->step,
			 below(x, 8) ? "" : " null=ATTRIBUTES");
		return 0;
	case 1:
	case 2:
		n = snprintf(line, len, "%s: mrapi_rmem_set_attribute %s%s", ex_node_name(node), oname(x, a), set[below(x, 5)]);
		return n > 0 && (size_t)n < len ? 0 : -EAGAIN;
	default:
		return act_on(x, node, SCN_C_MRAPI_RMEM, W_ANY, "mrapi_rmem_get_attribute", get[below(x, 5)], line, len);
	}
}

/*
 * A read or write of rmem R into (from) a buffer L of the node's own: bytes, offsets at the edges of
 * both buffers, now and then strided (strides below, at and past the access size).
 */
static int rw_args(struct gctx *x, unsigned node, int h, char *buf, size_t len)
{
	const struct m_mrapi_seg *s = seg_of(x, h);
	uint64_t rsize = s && s->size ? s->size : 4096, lsize, loff, roff;
	uint32_t bytes, strides = 1, rstride = 0, lstride = 0;
	int hl;
	int32_t l = own_buffer(x, node, &hl);
	int n;

	if (l < 0)
		return -EAGAIN;
	lsize = seg_of(x, hl)->size;
	roff = edge_off(x, rsize, 0);
	loff = edge_off(x, lsize, 0);
	bytes = (uint32_t)edge_len(x, rsize, roff);
	if (!bytes && below(x, 2))
		bytes = 16;
	if (below(x, 4) == 0) {
		static const uint32_t mul[] = { 1, 2, 4 };

		strides = 2 + below(x, 3);
		rstride = bytes * mul[below(x, 3)];
		rstride -= below(x, 6) ? 0 : 1; /* now and then below the access */
		lstride = below(x, 2) ? bytes : rstride;
	}
	n = snprintf(buf, len, " local=%s+%llu bytes=%u", oname(x, l), (unsigned long long)loff, (unsigned)bytes);
	if (roff)
		n += snprintf(buf + n, len - (size_t)n, " rmem_offset=%llu", (unsigned long long)roff);
	if (strides > 1)
		n += snprintf(buf + n, len - (size_t)n, " strides=%u rmem_stride=%u local_stride=%u", (unsigned)strides,
			      (unsigned)rstride, (unsigned)lstride);
	return n > 0 && (size_t)n < len ? 0 : -EAGAIN;
}

static int propose_rw(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	char args[160];
	int h;
	int32_t r = pick(x, node, SCN_C_MRAPI_RMEM, W_ANY, &h);
	int n;

	if (r < 0 || rw_args(x, node, h, args, sizeof(args)))
		return -EAGAIN;
	if (kind == M_RW_I)
		n = snprintf(line, len, "%s: mrapi_rmem_%s_i q%u rmem=%s%s", ex_node_name(node), below(x, 2) ? "read" : "write",
			     x->step, oname(x, r), args);
	else
		n = snprintf(line, len, "%s: mrapi_rmem_%s %s%s", ex_node_name(node), kind == M_READ ? "read" : "write",
			     oname(x, r), args);
	return n > 0 && (size_t)n < len ? 0 : -EAGAIN;
}

static int propose_get(struct gctx *x, unsigned node, char *line, size_t len)
{
	char id[24];

	rmem_id(x, 0, id, sizeof(id));
	snprintf(line, len, "%s: mrapi_rmem_get g%u id=%s%s", ex_node_name(node), x->step, id, atype(x));
	return 0;
}

/* A request's end: wait (mostly), test or cancel. */
static int propose_wait(struct gctx *x, unsigned node, char *line, size_t len)
{
	switch (below(x, 6)) {
	case 0:
		return act_on(x, node, SCN_C_MRAPI_REQ, W_ANY, "mrapi_test", "", line, len);
	case 1:
		return act_on(x, node, SCN_C_MRAPI_REQ, W_ANY, "mrapi_cancel", "", line, len);
	default:
		return act_on(x, node, SCN_C_MRAPI_REQ, W_ANY, "mrapi_wait", " timeout=2000", line, len);
	}
}

static int propose_store(struct gctx *x, unsigned node, char *line, size_t len)
{
	int h;
	int32_t l = own_buffer(x, node, &h);
	uint64_t size, off;

	if (l < 0)
		return -EAGAIN;
	size = seg_of(x, h)->size;
	off = edge_off(x, size, 0);
	if (off >= size)
		off = 0;
	snprintf(line, len, "%s: mrapi_local_store %s byte=%u off=%llu len=%llu", ex_node_name(node), oname(x, l),
		 1 + (unsigned)below(x, 254), (unsigned long long)off, (unsigned long long)(size - off < 64 ? size - off : 64));
	return 0;
}

int mrapi_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	const char *nn = ex_node_name(node);

	switch ((enum mk)kind) {
	case M_CREATE:
		return propose_create(x, node, line, len);
	case M_GET:
		return propose_get(x, node, line, len);
	case M_ATTACH:
		return act_on(x, node, SCN_C_MRAPI_RMEM, W_ANY, "mrapi_rmem_attach", "", line, len);
	case M_DETACH:
		return act_on(x, node, SCN_C_MRAPI_RMEM, W_ANY, "mrapi_rmem_detach", "", line, len);
	case M_DELETE:
		return act_on(x, node, SCN_C_MRAPI_RMEM, W_ANY, "mrapi_rmem_delete", "", line, len);
	case M_READ:
	case M_WRITE:
	case M_RW_I:
		return propose_rw(x, node, kind, line, len);
	case M_WAIT:
		return propose_wait(x, node, line, len);
	case M_STORE:
		return propose_store(x, node, line, len);
	case M_SYNC:
		return act_on(x, node, SCN_C_MRAPI_RMEM, W_ANY, below(x, 2) ? "mrapi_rmem_sync" : "mrapi_rmem_flush", "",
			      line, len);
	case M_FINALIZE:
		snprintf(line, len, "%s: mrapi_finalize", nn);
		return 0;
	case M_ATTR:
		return propose_attr(x, node, line, len);
	default: /* M_INIT: now and then in another domain (its rmems not shared with the others') */
		snprintf(line, len, "%s: mrapi_initialize%s", nn, below(x, 4) ? "" : " domain=2");
		return 0;
	}
}

int mrapi_opening(struct ex_case *c)
{
	int rc = 0;

	for (unsigned i = 0; i < c->nnodes && !rc; i++) {
		char line[32];

		snprintf(line, sizeof(line), "%s: mrapi_initialize", ex_node_name(i));
		rc = ex_case_push(c, line);
	}
	return rc;
}

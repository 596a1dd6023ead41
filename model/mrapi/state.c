/*
 * state.c — the MRAPI model's state: initialisation, committing a
 * predicted alternative, get_attribute answers, the bytes a read yields, the
 * strided-transfer arithmetic (RMEM-RW-2/3) and the names of its enums.
 */
#include "model/internal.h"
#include "model/mrapi/internal.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------ names -- */

struct mname { int v; const char *s; };
#define NN(t) (sizeof(t) / sizeof((t)[0]))

static const char *mname_str(const struct mname *t, size_t n, int v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].s;
	return "?";
}

static int mname_parse(const struct mname *t, size_t n, const char *s, int *out)
{
	for (size_t i = 0; s && i < n; i++)
		if (strcasecmp(t[i].s, s) == 0) {
			*out = t[i].v;
			return 0;
		}
	return -EINVAL;
}

#define MNAMED(fn, type, table)                                                              \
	const char *fn##_str(type v) { return mname_str(table, NN(table), (int)v); }         \
	int fn##_parse(const char *s, type *out)                                             \
	{                                                                                    \
		int v, rc = mname_parse(table, NN(table), s, &v);                            \
		if (rc == 0)                                                                 \
			*out = (type)v;                                                      \
		return rc;                                                                   \
	}

/* The statuses' names are names.c's (the outcome names of M_OUT_MRAPI). */
const char *m_mrapi_st_str(enum m_mrapi_st v)
{
	return m_outcome_name((struct m_outcome){ M_OUT_MRAPI, (int32_t)v });
}

int m_mrapi_st_parse(const char *name, enum m_mrapi_st *out)
{
	struct m_outcome o;

	if (m_outcome_parse(name, &o) || o.kind != M_OUT_MRAPI)
		return -EINVAL;
	*out = (enum m_mrapi_st)o.code;
	return 0;
}

static const struct mname atype_names[] = {
	{ M_MRAPI_ATYPE_DEFAULT, "DEFAULT" }, { M_MRAPI_ATYPE_DMA, "DMA" }, { M_MRAPI_ATYPE_SWCACHE, "SWCACHE" },
	{ M_MRAPI_ATYPE_ANY, "ANY" },
};
MNAMED(m_mrapi_atype, enum m_mrapi_atype, atype_names)

static const struct mname attr_names[] = {
	{ M_MRAPI_ATTR_ERROR_EXT, "ERROR_EXT" }, { M_MRAPI_ATTR_DOMAIN_SHARED, "DOMAIN_SHARED" },
	{ M_MRAPI_ATTR_SIZE, "SIZE" }, { M_MRAPI_ATTR_ATYPE, "ATYPE" },
};
MNAMED(m_mrapi_attr, enum m_mrapi_attr, attr_names)

/* The calls' names are their op kinds' (model/ops.def), in the same order. */
const char *m_mrapi_call_str(enum m_mrapi_call c)
{
	return (unsigned)c < M_MRAPI_CALL_COUNT_ ? m_op_kind_str((enum m_op_kind)(M_OP_MRAPI_INITIALIZE + c)) : "?";
}

int m_mrapi_call_parse(const char *name, enum m_mrapi_call *out)
{
	enum m_op_kind k;

	if (m_op_kind_parse(name, &k) || m_op_family(k) != M_FAM_MRAPI)
		return -EINVAL;
	*out = (enum m_mrapi_call)(k - M_OP_MRAPI_INITIALIZE);
	return 0;
}

/* The library's ABI: mrapi_boolean_t is one byte, mrapi_uint_t four. */
size_t m_mrapi_attr_size(uint32_t num)
{
	switch (num) {
	case M_MRAPI_ATTR_ERROR_EXT: case M_MRAPI_ATTR_DOMAIN_SHARED: return 1;
	case M_MRAPI_ATTR_SIZE: case M_MRAPI_ATTR_ATYPE: return 4;
	default: return 0;
	}
}

/* -------------------------------------------------- transfer arithmetic -- */

void m_mrapi_transfer(const struct m_mrapi_args *a, uint32_t i, uint64_t *roff, uint64_t *loff)
{
	*roff = (uint64_t)a->rmem_offset + (uint64_t)i * a->rmem_stride;
	*loff = (uint64_t)a->local_offset + (uint64_t)i * a->local_stride;
}

uint64_t m_mrapi_literal_end(const struct m_mrapi_args *a)
{
	return (uint64_t)a->rmem_offset + (uint64_t)a->rmem_stride * a->nstrides;
}

/* ------------------------------------------------------------ state -- */

static int init_args_ok(unsigned nnodes, uint32_t atypes)
{
	return nnodes >= 1 && nnodes <= M_MRAPI_NODES && (atypes & 1u << M_MRAPI_ATYPE_DEFAULT);
}

int m_mrapi_init(struct m_mrapi_model *st, unsigned nnodes, uint32_t atypes)
{
	if (!init_args_ok(nnodes, atypes))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	return m_mrapi_init_zeroed(st, nnodes, atypes);
}

int m_mrapi_init_zeroed(struct m_mrapi_model *st, unsigned nnodes, uint32_t atypes)
{
	if (!init_args_ok(nnodes, atypes))
		return -EINVAL;
	st->nnodes = (uint8_t)nnodes;
	st->atypes = atypes & ~(1u << M_MRAPI_ATYPE_ANY);
	st->next_any_id = M_MRAPI_ANY_FIRST;
	return 0;
}

static void hold(struct m_mrapi_model *st, unsigned n, int s)
{
	st->node[n].held[s / 16] |= (uint16_t)(1u << (s % 16));
}

/* Copy len bytes of src (NULL: unspecified) into seg g at off, within the tracked contents. */
static void seg_store(struct m_mrapi_seg *g, uint64_t off, const uint8_t *src, uint64_t len)
{
	for (uint64_t b = 0; b < len && off + b < M_MRAPI_BYTES && off + b < g->size; b++) {
		g->bytes[off + b] = src ? src[b] : 0;
		g->unknown[off + b] = !src;
	}
}

/*
 * A new buffer over memory an earlier buffer of the node used (over=): delete
 * and finalize demote, they do not free (4.4.2.8), so the memory holds what
 * the earlier buffers left there, the latest one's bytes last.
 */
static void seg_inherit(const struct m_mrapi_model *st, struct m_mrapi_seg *g, unsigned self)
{
	for (unsigned e = 0; e < self; e++) {
		const struct m_mrapi_seg *o = &st->seg[e];

		if (o->owner != g->owner || o->mem >= g->mem + g->size || g->mem >= o->mem + o->size)
			continue;
		for (uint64_t b = 0; b < g->size && b < M_MRAPI_BYTES; b++) {
			uint64_t at = g->mem + b;

			if (at >= o->mem && at - o->mem < o->size && at - o->mem < M_MRAPI_BYTES) {
				g->bytes[b] = o->bytes[at - o->mem];
				g->unknown[b] = o->unknown[at - o->mem];
			}
		}
	}
}

/* The id an ID_ANY create gets: the next from M_MRAPI_ANY_FIRST that no live buffer has (never ANY). */
static uint32_t any_id(struct m_mrapi_model *st)
{
	for (;;) {
		uint32_t id = st->next_any_id++;
		int used = id < M_MRAPI_ANY_FIRST || id == M_MRAPI_ID_ANY;

		for (unsigned s = 0; s < st->nsegs && !used; s++)
			used = st->seg[s].live && st->seg[s].id == id;
		if (!used)
			return id;
	}
}

static int apply_create(struct m_mrapi_model *st, const struct m_mrapi_args *a, int *created)
{
	struct m_mrapi_seg *g;
	int s = st->nsegs;

	if (s >= M_MRAPI_SEGS)
		return -ENOSPC;
	g = &st->seg[st->nsegs++];
	memset(g, 0, sizeof(*g));
	g->live = g->ever = 1;
	g->owner = a->node;
	g->any = a->id == M_MRAPI_ID_ANY;
	g->id = g->any ? any_id(st) : a->id;
	g->atype = a->atype;
	g->strict = a->atype != M_MRAPI_ATYPE_ANY; /* RMEM-CREATE-6 */
	g->shared = 1;                             /* RMEM-CREATE-5 defaults */
	if (!(a->nulls & M_MRAPI_NULL_ATTRS) && a->attrs >= 0) {
		g->shared = st->attrs[a->attrs].shared;
		g->error_ext = st->attrs[a->attrs].error_ext;
	}
	g->domain = st->node[a->node].domain;
	g->mem = a->mem;
	g->size = a->size;
	seg_store(g, 0, NULL, a->size);
	seg_inherit(st, g, (unsigned)s);
	if (a->data)
		seg_store(g, 0, a->data, a->data_len < a->size ? a->data_len : a->size);
	hold(st, a->node, s);
	*created = s;
	return 0;
}

/*
 * The handle create gives with MRAPI_ERR_RMEM_EXISTS (RMEM-CREATE-1): one that
 * names no buffer, so that later steps can use it. A segment slot that never
 * lives, is held by no node and matches no id (any): every call on it is
 * MRAPI_ERR_RMEM_INVALID. -ENOSPC when the table is full.
 */
static int apply_exists(struct m_mrapi_model *st, int *created)
{
	if (st->nsegs >= M_MRAPI_SEGS)
		return -ENOSPC;
	memset(&st->seg[st->nsegs], 0, sizeof(st->seg[0]));
	st->seg[st->nsegs].any = 1;
	*created = st->nsegs++;
	return 0;
}

static void apply_finalize(struct m_mrapi_model *st, unsigned n)
{
	memset(&st->node[n], 0, sizeof(st->node[n]));
	for (unsigned s = 0; s < st->nsegs; s++) {
		st->seg[s].attached &= (uint16_t)~(1u << n);
		if (st->seg[s].owner == n && st->seg[s].live) {
			st->seg[s].live = 0;
			st->seg[s].attached = 0;
		}
	}
	for (unsigned r = 0; r < st->nreqs; r++)
		if (st->req[r].node == n)
			st->req[r].live = 0;
}

/* RMEM-RW-2: the write's transfers into the segment (unknown: the target becomes unspecified). */
static void apply_write(struct m_mrapi_model *st, const struct m_mrapi_args *a, int unknown)
{
	struct m_mrapi_seg *g = &st->seg[a->rmem];

	for (uint32_t i = 0; i < a->nstrides; i++) {
		uint64_t roff, loff;

		m_mrapi_transfer(a, i, &roff, &loff);
		if (!unknown && a->data && loff <= a->data_len && a->bytes <= a->data_len - loff)
			seg_store(g, roff, a->data + loff, a->bytes);
		else
			seg_store(g, roff, NULL, a->bytes);
	}
}

static int apply_rw(struct m_mrapi_model *st, const struct m_mrapi_args *a, const struct m_alt *alt, int *created)
{
	int is_i = a->call == M_MRAPI_READ_I || a->call == M_MRAPI_WRITE_I;
	int is_write = a->call == M_MRAPI_WRITE || a->call == M_MRAPI_WRITE_I;
	struct m_mrapi_req *q;

	if (is_i && st->nreqs >= M_MRAPI_REQS)
		return -ENOSPC;
	if (alt->effect == M_EFF_DO && is_write)
		apply_write(st, a, 0);
	if (!is_i)
		return 0;
	q = &st->req[st->nreqs];
	memset(q, 0, sizeof(*q));
	q->rw = *a;
	q->rw.data = NULL;
	q->live = 1;
	q->node = a->node;
	q->status = (uint8_t)(alt->detail >= 0 ? alt->detail : M_MRAPI_SUCCESS);
	*created = st->nreqs++;
	return 0;
}

static void apply_cancel(struct m_mrapi_model *st, struct m_mrapi_req *q, const struct m_alt *alt)
{
	q->canceled = 1;
	if (alt->target_unknown && q->status == M_MRAPI_SUCCESS &&
	    (q->rw.call == M_MRAPI_WRITE_I) && q->rw.rmem >= 0 && q->rw.rmem < st->nsegs)
		apply_write(st, &q->rw, 1);
}

static void apply_attr(struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	struct m_mrapi_attrs *t = &st->attrs[a->attrs];

	if (a->call == M_MRAPI_INIT_ATTRIBUTES) {
		*t = (struct m_mrapi_attrs){ .inited = 1, .error_ext = 0, .shared = 1 };
		return;
	}
	if (a->attr_num == M_MRAPI_ATTR_ERROR_EXT)
		t->error_ext = a->attr_value != 0;
	else if (a->attr_num == M_MRAPI_ATTR_DOMAIN_SHARED)
		t->shared = a->attr_value != 0;
}

int m_mrapi_apply(struct m_mrapi_model *st, const struct m_mrapi_args *a, const struct m_pred *pred, size_t i,
		  int *created)
{
	int dummy, deleted;
	const struct m_alt *alt;

	if (!created)
		created = &dummy;
	*created = -1;
	if (i >= pred->n)
		return -EINVAL;
	alt = &pred->alt[i];
	if (alt->out.kind == M_OUT_OK && a->call == M_MRAPI_LOCAL_STORE) {
		seg_store(&st->seg[a->rmem], a->mem, a->data, a->size);
		return 0;
	}
	if (alt->out.kind != M_OUT_MRAPI)
		return -EINVAL;
	if (a->call == M_MRAPI_CREATE && alt->out.code == M_MRAPI_ERR_RMEM_EXISTS)
		return apply_exists(st, created);
	if (alt->effect != M_EFF_DO && alt->out.code != M_MRAPI_SUCCESS)
		return 0;
	switch (a->call) {
	case M_MRAPI_INITIALIZE:
		memset(&st->node[a->node], 0, sizeof(st->node[a->node]));
		st->node[a->node].init = 1;
		st->node[a->node].domain = a->domain;
		st->node[a->node].node_id = a->node_id;
		return 0;
	case M_MRAPI_FINALIZE: apply_finalize(st, a->node); return 0;
	case M_MRAPI_CREATE: return apply_create(st, a, created);
	case M_MRAPI_INIT_ATTRIBUTES: case M_MRAPI_SET_ATTRIBUTE: apply_attr(st, a); return 0;
	case M_MRAPI_GET:
		if ((*created = m_mrapi_get_target(st, a, &deleted)) >= 0)
			hold(st, a->node, *created);
		return 0;
	case M_MRAPI_ATTACH: st->seg[a->rmem].attached |= (uint16_t)(1u << a->node); return 0;
	case M_MRAPI_DETACH: st->seg[a->rmem].attached &= (uint16_t)~(1u << a->node); return 0;
	case M_MRAPI_DELETE: /* the others' attachments stay for their detach (a profile's delete passes over them) */
		st->seg[a->rmem].live = 0; /* the deleter's goes: the creator's, or a profile's other node's */
		st->seg[a->rmem].attached &= (uint16_t)~(1u << a->node);
		return 0;
	case M_MRAPI_READ: case M_MRAPI_READ_I: case M_MRAPI_WRITE: case M_MRAPI_WRITE_I:
		return apply_rw(st, a, alt, created);
	case M_MRAPI_TEST: case M_MRAPI_WAIT:
		if (alt->effect == M_EFF_DO)
			st->req[a->req].live = 0;
		return 0;
	case M_MRAPI_WAIT_ANY:
		if (alt->effect == M_EFF_DO && alt->detail >= 0)
			st->req[alt->detail].live = 0;
		return 0;
	case M_MRAPI_CANCEL:
		if (alt->effect == M_EFF_DO)
			apply_cancel(st, &st->req[a->req], alt);
		return 0;
	default: return 0;
	}
}

/* ------------------------------------------------------------ query -- */

int m_mrapi_query(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		  struct m_qres *out)
{
	const struct m_mrapi_seg *g;
	uint64_t v;

	(void)p;
	memset(out, 0, sizeof(*out));
	if (a->call != M_MRAPI_GET_ATTRIBUTE || a->node >= st->nnodes || !m_mrapi_held(st, a->node, a->rmem) ||
	    !st->seg[a->rmem].live)
		return -EINVAL;
	g = &st->seg[a->rmem];
	switch (a->attr_num) {
	case M_MRAPI_ATTR_ERROR_EXT: v = g->error_ext; break;
	case M_MRAPI_ATTR_DOMAIN_SHARED: v = g->shared; break;
	case M_MRAPI_ATTR_SIZE: v = g->size; break;
	case M_MRAPI_ATTR_ATYPE: v = g->atype; break;
	default: return -EINVAL;
	}
	/* RMEM-CREATE-5: what create copied; RMEM-ATTR-3 reads it back. */
	m_qres_add(out, "value", M_Q_EXACT, v, a->attr_num <= M_MRAPI_ATTR_DOMAIN_SHARED ? M_RULE_RMEM_CREATE_5
										       : M_RULE_RMEM_ATTR_3);
	return 0;
}

long m_mrapi_read_image(const struct m_mrapi_model *st, const struct m_mrapi_args *a, uint8_t *local, uint8_t *known,
			size_t n)
{
	const struct m_mrapi_seg *g;
	long done = 0;

	if (a->rmem < 0 || a->rmem >= st->nsegs)
		return -EINVAL;
	g = &st->seg[a->rmem];
	for (uint32_t i = 0; i < a->nstrides; i++) {
		uint64_t roff, loff;

		m_mrapi_transfer(a, i, &roff, &loff);
		for (uint64_t b = 0; b < a->bytes && loff + b < n; b++, done++) {
			uint64_t r = roff + b;
			int k = r < M_MRAPI_BYTES && r < g->size && !g->unknown[r];

			local[loff + b] = k ? g->bytes[r] : 0;
			known[loff + b] = (uint8_t)k;
		}
	}
	return done;
}

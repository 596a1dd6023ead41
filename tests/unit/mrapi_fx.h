/*
 * mrapi_fx.h — the fixture of the MRAPI model's unit tests
 * (test_model_mrapi*.c): build calls in one line, predict, commit.
 */
#ifndef RDMACHECK_MRAPI_FX_H
#define RDMACHECK_MRAPI_FX_H

#include "model/mrapi/internal.h"
#include "tests/unit/model_fx.h"

#define MS(e) ((struct m_outcome){ M_OUT_MRAPI, M_MRAPI_##e })
#define ATYPES (1u << M_MRAPI_ATYPE_DEFAULT | 1u << M_MRAPI_ATYPE_DMA)

struct mfx {
	struct m_mrapi_model st;
	struct m_profile p;
};

static inline struct m_mrapi_args A(enum m_mrapi_call c, int node)
{
	return (struct m_mrapi_args){ .call = (uint8_t)c, .node = (uint8_t)node, .attrs = -1, .rmem = -1, .req = -1 };
}

static inline struct m_pred pr(struct mfx *f, struct m_mrapi_args a)
{
	struct m_pred p;

	ck_assert_int_eq(m_mrapi_predict(&f->st, &f->p, &a, &p), 0);
	ck_assert_int_ge(p.n, 1);
	return p;
}

static inline int has(struct m_pred p, struct m_outcome o) { return fx_has(p, o); }
static inline int only(struct m_pred p, struct m_outcome o) { return fx_only(p, o); }

/* Predict a, require o, commit it; returns the created handle (or -1). */
static inline int doit(struct mfx *f, struct m_mrapi_args a, struct m_outcome o)
{
	struct m_pred p = pr(f, a);
	int i = model_pred_find(&p, o), created;

	ck_assert_msg(i >= 0, "%s: %s not allowed (first: %s)", m_mrapi_call_str(a.call),
		      o.kind == M_OUT_MRAPI ? m_mrapi_st_str(o.code) : "ok",
		      p.alt[0].out.kind == M_OUT_MRAPI ? m_mrapi_st_str(p.alt[0].out.code) : "ok");
	ck_assert_int_eq(m_mrapi_apply(&f->st, &a, &p, (size_t)i, &created), 0);
	return created;
}

static inline void mfx_init(struct mfx *f, unsigned nodes, const char *profile)
{
	ck_assert_int_eq(m_mrapi_init(&f->st, nodes, ATYPES), 0);
	ck_assert_int_eq(m_profile_get(profile, 0, &f->p), 0);
	for (unsigned n = 0; n < nodes; n++) {
		struct m_mrapi_args a = A(M_MRAPI_INITIALIZE, (int)n);

		a.domain = 1;
		a.node_id = n + 10;
		doit(f, a, MS(SUCCESS));
	}
}

static inline struct m_mrapi_args a_create(int node, uint32_t id, uint64_t mem, uint64_t size, uint32_t atype)
{
	struct m_mrapi_args a = A(M_MRAPI_CREATE, node);

	a.id = id;
	a.mem = mem;
	a.size = size;
	a.atype = atype;
	return a;
}

static inline int create(struct mfx *f, int node, uint32_t id, uint64_t size)
{
	return doit(f, a_create(node, id, 0x10000u * (id + 1), size, M_MRAPI_ATYPE_DEFAULT), MS(SUCCESS));
}

static inline struct m_mrapi_args a_h(enum m_mrapi_call c, int node, int h)
{
	struct m_mrapi_args a = A(c, node);

	a.rmem = (int16_t)h;
	return a;
}

static inline struct m_mrapi_args a_get(int node, uint32_t id, uint32_t atype)
{
	struct m_mrapi_args a = A(M_MRAPI_GET, node);

	a.id = id;
	a.atype = atype;
	return a;
}

static inline struct m_mrapi_args a_rw(enum m_mrapi_call c, int node, int h, uint32_t off, uint32_t bytes, uint32_t n,
				uint32_t rstride, uint32_t lstride)
{
	struct m_mrapi_args a = a_h(c, node, h);

	a.rmem_offset = off;
	a.bytes = bytes;
	a.nstrides = n;
	a.rmem_stride = rstride;
	a.local_stride = lstride;
	a.local_size = 4096;
	return a;
}

/* create on node 0, get + attach on node 1: the handle. */
static inline int shared_seg(struct mfx *f, uint32_t id, uint64_t size)
{
	int h = create(f, 0, id, size);

	ck_assert_int_eq(doit(f, a_get(1, id, M_MRAPI_ATYPE_DEFAULT), MS(SUCCESS)), h);
	doit(f, a_h(M_MRAPI_ATTACH, 1, h), MS(SUCCESS));
	return h;
}

static inline int rule_in(struct m_pred p, struct m_outcome o, enum m_rule r) { return fx_rule(p, o, r); }


#endif

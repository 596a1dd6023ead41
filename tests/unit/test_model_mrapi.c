/*
 * Unit tests of the MRAPI remote-memory model (model/mrapi/, catalog area
 * D): one test per encoded rule, each with its allowed and its refused path,
 * under the spec's reading (profile "generic") and, where the catalog records
 * a divergence, under the MCA reference implementation (profile "mca-ref").
 * The read/write, request and flush/sync rules are in test_model_mrapi_rw.c.
 */
#include "tests/unit/mrapi_fx.h"
#include "harness/run/runner.h"

#include <stdio.h>
#include <string.h>

START_TEST(test_RMEM_0_notinit_first)
{
	struct mfx f;

	ck_assert_int_eq(m_mrapi_init(&f.st, 2, ATYPES), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &f.p), 0);
	/* refused: NOTINIT alone, even with other faults (mem NULL, size 0) */
	struct m_mrapi_args a = a_create(0, 1, 0, 0, 42);
	a.nulls = M_MRAPI_NULL_MEM;
	ck_assert(only(pr(&f, a), MS(ERR_NODE_NOTINIT)));
	ck_assert(rule_in(pr(&f, a), MS(ERR_NODE_NOTINIT), M_RULE_RMEM_0));
	ck_assert(only(pr(&f, a_get(0, 1, 0)), MS(ERR_NODE_NOTINIT)));
	ck_assert(only(pr(&f, A(M_MRAPI_INIT_ATTRIBUTES, 0)), MS(ERR_NODE_NOTINIT)));
	/* set_attribute needs no node */
	struct m_mrapi_args s = A(M_MRAPI_SET_ATTRIBUTE, 0);
	s.attrs = 0;
	s.attr_num = M_MRAPI_ATTR_DOMAIN_SHARED;
	s.attr_size = 1;
	ck_assert(only(pr(&f, s), MS(SUCCESS)));
	/* allowed after initialize; several faults: any of them (generic) or the first (mca-ref) */
	mfx_init(&f, 2, "generic");
	a = a_create(0, 5, 0, 0, 42);
	a.nulls = M_MRAPI_NULL_MEM;
	create(&f, 1, 5, 64);
	struct m_pred p = pr(&f, a);
	ck_assert(has(p, MS(ERR_RMEM_EXISTS)) && has(p, MS(ERR_RMEM_TYPENOTVALID)) && has(p, MS(ERR_PARAMETER)));
	ck_assert(!has(p, MS(SUCCESS)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	a.id = 7;
	ck_assert(only(pr(&f, a), MS(ERR_RMEM_TYPENOTVALID)));
}
END_TEST

START_TEST(test_RMEM_CREATE_1_exists_and_limit)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = create(&f, 0, 5, 64);
	ck_assert_int_eq(h, 0);
	struct m_pred p = pr(&f, a_create(1, 5, 0x900000, 64, M_MRAPI_ATYPE_DEFAULT));
	ck_assert(only(p, MS(ERR_RMEM_EXISTS)));
	ck_assert(rule_in(p, MS(ERR_RMEM_EXISTS), M_RULE_RMEM_CREATE_1));
	for (uint32_t id = 6; id < 6 + M_MRAPI_SEG_LIMIT - 1; id++)
		create(&f, 0, id, 64);
	ck_assert(only(pr(&f, a_create(0, 100, 0x900000, 64, 0)), MS(ERR_MEM_LIMIT)));
	/* the reference implementation stops at its 10 slots */
	mfx_init(&f, 1, "mca-ref");
	for (uint32_t id = 0; id < M_MRAPI_REF_SEG_LIMIT; id++)
		create(&f, 0, id, 64);
	ck_assert(only(pr(&f, a_create(0, 100, 0x900000, 64, 0)), MS(ERR_MEM_LIMIT)));
	mfx_init(&f, 1, "generic");
	for (uint32_t id = 0; id < M_MRAPI_REF_SEG_LIMIT; id++)
		create(&f, 0, id, 64);
	ck_assert(only(pr(&f, a_create(0, 100, 0x900000, 64, 0)), MS(SUCCESS)));
	/* a size mrapi_uint_t cannot carry: MEM_LIMIT or PARAMETER, never SUCCESS; the reference stores it */
	struct m_pred hp = pr(&f, a_create(0, 101, 0x40000000, UINT64_MAX, 0));
	ck_assert(has(hp, MS(ERR_MEM_LIMIT)) && has(hp, MS(ERR_PARAMETER)) && !has(hp, MS(SUCCESS)));
	ck_assert(rule_in(hp, MS(ERR_MEM_LIMIT), M_RULE_RMEM_CREATE_1));
	ck_assert(!has(pr(&f, a_create(0, 101, 0x40000000, INT64_MAX, 0)), MS(SUCCESS)));
	ck_assert(only(pr(&f, a_create(0, 101, 0x40000000, M_MRAPI_SIZE_MAX, 0)), MS(SUCCESS)));
	mfx_init(&f, 1, "mca-ref");
	ck_assert(only(pr(&f, a_create(0, 101, 0x40000000, UINT64_MAX, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_CREATE_2_id_any)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int a = doit(&f, a_create(0, M_MRAPI_ID_ANY, 0x1000, 64, 0), MS(SUCCESS));
	int b = doit(&f, a_create(1, M_MRAPI_ID_ANY, 0x1000, 64, 0), MS(SUCCESS));
	ck_assert_int_ne(f.st.seg[a].id, f.st.seg[b].id);
	ck_assert_uint_ge(f.st.seg[a].id, M_MRAPI_ANY_FIRST);
	/* every id but ANY is a user's (0xdeadbabe: the reference's tests), ANY skips those in use */
	ck_assert(only(pr(&f, a_create(0, 0xdeadbabeu, 0x9000, 64, 0)), MS(SUCCESS)));
	ck_assert(only(pr(&f, a_create(0, M_MRAPI_MAX_USER_ID, 0x9000, 64, 0)), MS(SUCCESS)));
	doit(&f, a_create(0, f.st.next_any_id, 0x9000, 64, 0), MS(SUCCESS));
	int c = doit(&f, a_create(1, M_MRAPI_ID_ANY, 0x2000, 64, 0), MS(SUCCESS));
	ck_assert_uint_eq(f.st.seg[c].id, f.st.seg[b].id + 2);
	/* mca-ref: ANY is a key like any other, every id is valid */
	mfx_init(&f, 2, "mca-ref");
	doit(&f, a_create(0, M_MRAPI_ID_ANY, 0x1000, 64, 0), MS(SUCCESS));
	ck_assert(only(pr(&f, a_create(1, M_MRAPI_ID_ANY, 0x1000, 64, 0)), MS(ERR_RMEM_EXISTS)));
	ck_assert(only(pr(&f, a_create(0, 0xdeadbabeu, 0x9000, 64, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_CREATE_3_parameter)
{
	struct mfx f;

	mfx_init(&f, 1, "generic");
	struct m_mrapi_args a = a_create(0, 1, 0x1000, 0, 0);
	ck_assert(only(pr(&f, a), MS(ERR_PARAMETER)));
	ck_assert(rule_in(pr(&f, a), MS(ERR_PARAMETER), M_RULE_RMEM_CREATE_3));
	a.size = 64;
	a.nulls = M_MRAPI_NULL_MEM;
	ck_assert(only(pr(&f, a), MS(ERR_PARAMETER)));
	a.nulls = 0;
	a.attrs = 2; /* never initialised */
	ck_assert(only(pr(&f, a), MS(ERR_PARAMETER)));
	struct m_mrapi_args in = A(M_MRAPI_INIT_ATTRIBUTES, 0);
	in.attrs = 2;
	doit(&f, in, MS(SUCCESS));
	ck_assert(only(pr(&f, a), MS(SUCCESS)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	a.size = 0;
	ck_assert(only(pr(&f, a), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_CREATE_4_overlap_conflict)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = doit(&f, a_create(0, 1, 0x1000, 0x100, 0), MS(SUCCESS));
	struct m_pred p = pr(&f, a_create(0, 2, 0x10ff, 0x10, 0));
	ck_assert(only(p, MS(ERR_RMEM_CONFLICT)));
	ck_assert(rule_in(p, MS(ERR_RMEM_CONFLICT), M_RULE_RMEM_CREATE_4));
	ck_assert(only(pr(&f, a_create(0, 2, 0x1100, 0x10, 0)), MS(SUCCESS)));   /* adjacent */
	ck_assert(only(pr(&f, a_create(1, 2, 0x1000, 0x100, 0)), MS(SUCCESS)));  /* other node's memory */
	doit(&f, a_h(M_MRAPI_DELETE, 0, h), MS(SUCCESS));
	ck_assert(only(pr(&f, a_create(0, 2, 0x1000, 0x10, 0)), MS(SUCCESS)));   /* demoted */
	mfx_init(&f, 1, "mca-ref");
	doit(&f, a_create(0, 1, 0x1000, 0x100, 0), MS(SUCCESS));
	ck_assert(only(pr(&f, a_create(0, 2, 0x1000, 0x10, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_CREATE_5_defaults_and_copy)
{
	struct mfx f;
	struct m_qres q;

	mfx_init(&f, 1, "generic");
	int h = create(&f, 0, 1, 64);
	struct m_mrapi_args g = a_h(M_MRAPI_GET_ATTRIBUTE, 0, h);
	g.attr_num = M_MRAPI_ATTR_DOMAIN_SHARED;
	g.attr_size = 1;
	doit(&f, g, MS(SUCCESS));
	ck_assert_int_eq(m_mrapi_query(&f.st, &f.p, &g, &q), 0);
	ck_assert_uint_eq(q.r[0].value, 1);
	ck_assert_uint_eq(q.r[0].rule, M_RULE_RMEM_CREATE_5);
	/* set FALSE, create, set TRUE again: the segment keeps FALSE */
	struct m_mrapi_args s = A(M_MRAPI_INIT_ATTRIBUTES, 0);
	s.attrs = 0;
	doit(&f, s, MS(SUCCESS));
	s = A(M_MRAPI_SET_ATTRIBUTE, 0);
	s.attrs = 0;
	s.attr_num = M_MRAPI_ATTR_DOMAIN_SHARED;
	s.attr_size = 1;
	doit(&f, s, MS(SUCCESS));
	struct m_mrapi_args c = a_create(0, 2, 0x9000, 64, 0);
	c.attrs = 0;
	int h2 = doit(&f, c, MS(SUCCESS));
	s.attr_value = 1;
	doit(&f, s, MS(SUCCESS));
	g.rmem = (int16_t)h2;
	ck_assert_int_eq(m_mrapi_query(&f.st, &f.p, &g, &q), 0);
	ck_assert_uint_eq(q.r[0].value, 0);
}
END_TEST

START_TEST(test_RMEM_CREATE_6_strict_and_any_types)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	struct m_pred p = pr(&f, a_create(0, 1, 0x1000, 64, 42));
	ck_assert(only(p, MS(ERR_RMEM_TYPENOTVALID)));
	ck_assert(rule_in(p, MS(ERR_RMEM_TYPENOTVALID), M_RULE_RMEM_CREATE_6));
	ck_assert(only(pr(&f, a_create(0, 1, 0x1000, 64, M_MRAPI_ATYPE_SWCACHE)), MS(ERR_RMEM_TYPENOTVALID)));
	int any = doit(&f, a_create(0, 1, 0x1000, 64, M_MRAPI_ATYPE_ANY), MS(SUCCESS));
	int dma = doit(&f, a_create(0, 2, 0x2000, 64, M_MRAPI_ATYPE_DMA), MS(SUCCESS));
	ck_assert(!f.st.seg[any].strict && f.st.seg[dma].strict);
	/* any: every supported type may get it; strict: only its own */
	ck_assert(only(pr(&f, a_get(1, 1, M_MRAPI_ATYPE_DMA)), MS(SUCCESS)));
	ck_assert(only(pr(&f, a_get(1, 1, M_MRAPI_ATYPE_DEFAULT)), MS(SUCCESS)));
	ck_assert(only(pr(&f, a_get(1, 2, M_MRAPI_ATYPE_DEFAULT)), MS(ERR_RMEM_ATYPE)));
	mfx_init(&f, 1, "mca-ref");
	ck_assert(only(pr(&f, a_create(0, 1, 0x1000, 64, M_MRAPI_ATYPE_ANY)), MS(ERR_RMEM_TYPENOTVALID)));
	ck_assert(only(pr(&f, a_create(0, 1, 0x1000, 64, M_MRAPI_ATYPE_DMA)), MS(ERR_RMEM_TYPENOTVALID)));
	ck_assert(only(pr(&f, a_create(0, 1, 0x1000, 64, M_MRAPI_ATYPE_DEFAULT)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_ATTR_1_init_attributes)
{
	struct mfx f;

	mfx_init(&f, 1, "generic");
	struct m_mrapi_args a = A(M_MRAPI_INIT_ATTRIBUTES, 0);
	a.nulls = M_MRAPI_NULL_ATTRS;
	ck_assert(only(pr(&f, a), MS(ERR_PARAMETER)));
	ck_assert(rule_in(pr(&f, a), MS(ERR_PARAMETER), M_RULE_RMEM_ATTR_1));
	a.nulls = 0;
	a.attrs = 3;
	doit(&f, a, MS(SUCCESS));
	ck_assert(f.st.attrs[3].inited && f.st.attrs[3].shared && !f.st.attrs[3].error_ext);
}
END_TEST

START_TEST(test_RMEM_ATTR_2_set_attribute)
{
	struct mfx f;

	mfx_init(&f, 1, "generic");
	struct m_mrapi_args s = A(M_MRAPI_SET_ATTRIBUTE, 0);
	s.attrs = 0;
	s.attr_num = 99;
	s.attr_size = 1;
	ck_assert(only(pr(&f, s), MS(ERR_ATTR_NUM)));
	ck_assert(rule_in(pr(&f, s), MS(ERR_ATTR_NUM), M_RULE_RMEM_ATTR_2));
	s.attr_num = M_MRAPI_ATTR_ERROR_EXT;
	s.attr_size = 4;
	ck_assert(only(pr(&f, s), MS(ERR_ATTR_SIZE)));
	s.attr_num = M_MRAPI_ATTR_SIZE;
	ck_assert(only(pr(&f, s), MS(ERR_ATTR_READONLY)));
	s.attr_num = M_MRAPI_ATTR_ERROR_EXT;
	s.attr_size = 1;
	s.nulls = M_MRAPI_NULL_VALUE;
	ck_assert(only(pr(&f, s), MS(ERR_PARAMETER)));
	s.nulls = 0;
	s.attr_value = 1;
	doit(&f, s, MS(SUCCESS));
	ck_assert_uint_eq(f.st.attrs[0].error_ext, 1);
}
END_TEST

START_TEST(test_RMEM_ATTR_3_get_attribute)
{
	struct mfx f;
	struct m_qres q;

	mfx_init(&f, 2, "generic");
	int h = create(&f, 0, 1, 200);
	struct m_mrapi_args g = a_h(M_MRAPI_GET_ATTRIBUTE, 0, h);
	g.attr_num = M_MRAPI_ATTR_SIZE;
	g.attr_size = 4;
	doit(&f, g, MS(SUCCESS));
	ck_assert_int_eq(m_mrapi_query(&f.st, &f.p, &g, &q), 0);
	ck_assert_uint_eq(q.r[0].value, 200);
	ck_assert_uint_eq(q.r[0].rule, M_RULE_RMEM_ATTR_3);
	g.attr_size = 1;
	ck_assert(only(pr(&f, g), MS(ERR_ATTR_SIZE)));
	g.attr_num = 77;
	ck_assert(only(pr(&f, g), MS(ERR_ATTR_NUM)));
	g.attr_num = M_MRAPI_ATTR_SIZE;
	g.attr_size = 4;
	g.nulls = M_MRAPI_NULL_VALUE;
	ck_assert(only(pr(&f, g), MS(ERR_PARAMETER)));
	g.nulls = 0;
	g.node = 1; /* a handle node 1 never got */
	ck_assert(only(pr(&f, g), MS(ERR_RMEM_INVALID)));
	ck_assert(rule_in(pr(&f, g), MS(ERR_RMEM_INVALID), M_RULE_RMEM_ATTR_3));
	ck_assert_int_eq(m_mrapi_query(&f.st, &f.p, &g, &q), -EINVAL);
}
END_TEST

START_TEST(test_RMEM_GET_1_lookup_and_types)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	ck_assert(only(pr(&f, a_get(1, 3, 0)), MS(ERR_RMEM_ID_INVALID)));
	int h = create(&f, 0, 3, 64);
	struct m_pred p = pr(&f, a_get(1, 3, 0));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert(rule_in(p, MS(SUCCESS), M_RULE_RMEM_GET_1));
	ck_assert_int_eq(doit(&f, a_get(1, 3, 0), MS(SUCCESS)), h);
	doit(&f, a_create(0, M_MRAPI_ID_ANY, 0x90000, 64, 0), MS(SUCCESS));
	ck_assert(only(pr(&f, a_get(1, M_MRAPI_ID_ANY, 0)), MS(ERR_RMEM_ID_INVALID)));
	/* the three names of the invalid-atype error */
	p = pr(&f, a_get(1, 3, M_MRAPI_ATYPE_ANY));
	ck_assert_uint_eq(p.n, 3);
	ck_assert(has(p, MS(ERR_RMEM_ATYPE_INVALID)) && has(p, MS(ERR_RMEM_ATYPE_NOTVALID)) &&
		  has(p, MS(ERR_RMEM_TYPENOTVALID)));
	ck_assert(has(pr(&f, a_get(1, 3, 42)), MS(ERR_RMEM_ATYPE_INVALID)));
	ck_assert(only(pr(&f, a_get(1, 3, M_MRAPI_ATYPE_DMA)), MS(ERR_RMEM_ATYPE)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_get(1, 3, M_MRAPI_ATYPE_ANY)), MS(ERR_RMEM_TYPENOTVALID)));
	ck_assert(only(pr(&f, a_get(1, 3, M_MRAPI_ATYPE_DMA)), MS(ERR_RMEM_TYPENOTVALID)));
	ck_assert(only(pr(&f, a_get(1, M_MRAPI_ID_ANY, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_GET_2_deleted_id)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = create(&f, 0, 4, 64);
	doit(&f, a_h(M_MRAPI_DELETE, 0, h), MS(SUCCESS));
	struct m_pred p = pr(&f, a_get(1, 4, 0));
	ck_assert(only(p, MS(ERR_RMEM_ID_INVALID)));
	ck_assert(rule_in(p, MS(ERR_RMEM_ID_INVALID), M_RULE_RMEM_GET_2));
	/* mca-ref: a stale handle that later is RMEM_INVALID; no strict-type check either */
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	int s = doit(&f, a_get(1, 4, 0), MS(SUCCESS));
	ck_assert_int_eq(s, h);
	ck_assert(only(pr(&f, a_h(M_MRAPI_ATTACH, 1, s)), MS(ERR_RMEM_INVALID)));
	int d = create(&f, 0, 5, 64);
	f.st.seg[d].strict = 1;
	f.st.seg[d].atype = M_MRAPI_ATYPE_DMA;
	ck_assert(only(pr(&f, a_get(1, 5, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_ATTACH_1_attach_once)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = create(&f, 0, 1, 64);
	ck_assert(only(pr(&f, a_h(M_MRAPI_ATTACH, 1, h)), MS(ERR_RMEM_INVALID))); /* not got on node 1 */
	doit(&f, a_get(1, 1, 0), MS(SUCCESS));
	struct m_pred p = pr(&f, a_h(M_MRAPI_ATTACH, 1, h));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert(rule_in(p, MS(SUCCESS), M_RULE_RMEM_ATTACH_1));
	doit(&f, a_h(M_MRAPI_ATTACH, 1, h), MS(SUCCESS));
	ck_assert(only(pr(&f, a_h(M_MRAPI_ATTACH, 1, h)), MS(ERR_RMEM_ATTACHED)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_h(M_MRAPI_ATTACH, 1, h)), MS(SUCCESS)));
}
END_TEST

/* RMEM-DELETE-1: the spec refuses every node but the creator; rxe's libmrapi-rdma only one of another domain. */
START_TEST(test_RMEM_DELETE_1_not_owner_by_domain)
{
	struct mfx f;

	mfx_init(&f, 3, "generic");
	doit(&f, A(M_MRAPI_FINALIZE, 2), MS(SUCCESS));
	struct m_mrapi_args in = A(M_MRAPI_INITIALIZE, 2);
	in.domain = 2;
	in.node_id = 12;
	doit(&f, in, MS(SUCCESS));
	int h = create(&f, 0, 1, 64); /* shared by default: node 2 sees it */
	doit(&f, a_get(1, 1, 0), MS(SUCCESS));
	doit(&f, a_get(2, 1, 0), MS(SUCCESS));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 1, h)), MS(ERR_RMEM_NOTOWNER)));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 2, h)), MS(ERR_RMEM_NOTOWNER)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 2, h)), MS(SUCCESS)));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 2, h)), MS(ERR_RMEM_NOTOWNER)));
	doit(&f, a_h(M_MRAPI_ATTACH, 0, h), MS(SUCCESS));
	doit(&f, a_h(M_MRAPI_ATTACH, 1, h), MS(SUCCESS));
	struct m_pred p = pr(&f, a_h(M_MRAPI_DELETE, 1, h));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert(rule_in(p, MS(SUCCESS), M_RULE_RMEM_DELETE_1));
	doit(&f, a_h(M_MRAPI_DELETE, 1, h), MS(SUCCESS));
	ck_assert(only(pr(&f, a_get(2, 1, 0)), MS(ERR_RMEM_ID_INVALID)));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DETACH, 1, h)), MS(ERR_RMEM_INVALID))); /* its attachment went */
	ck_assert(has(pr(&f, a_h(M_MRAPI_DETACH, 0, h)), MS(SUCCESS)));          /* the creator's stays */
}
END_TEST

START_TEST(test_RMEM_DETACH_1_attached_only)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 64);
	struct m_pred p = pr(&f, a_h(M_MRAPI_DETACH, 1, h));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert(rule_in(p, MS(SUCCESS), M_RULE_RMEM_DETACH_1));
	doit(&f, a_h(M_MRAPI_DETACH, 1, h), MS(SUCCESS));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DETACH, 1, h)), MS(ERR_RMEM_NOTATTACHED)));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DETACH, 1, 9)), MS(ERR_RMEM_INVALID)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_h(M_MRAPI_DETACH, 1, h)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_DELETE_1_owner_and_attach)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 64);
	struct m_pred p = pr(&f, a_h(M_MRAPI_DELETE, 1, h)); /* not the owner, and node 1 attached: either */
	ck_assert(has(p, MS(ERR_RMEM_NOTOWNER)) && has(p, MS(ERR_RMEM_ATTACH)) && !has(p, MS(SUCCESS)));
	p = pr(&f, a_h(M_MRAPI_DELETE, 0, h));
	ck_assert(only(p, MS(ERR_RMEM_ATTACH)));
	ck_assert(rule_in(p, MS(ERR_RMEM_ATTACH), M_RULE_RMEM_DELETE_1));
	doit(&f, a_h(M_MRAPI_ATTACH, 0, h), MS(SUCCESS)); /* the owner's own attach does not count */
	doit(&f, a_h(M_MRAPI_DETACH, 1, h), MS(SUCCESS));
	doit(&f, a_h(M_MRAPI_DELETE, 0, h), MS(SUCCESS));
	/* demoted: the creator still stores into it (RMEM-COH-1) */
	struct m_mrapi_args st = a_h(M_MRAPI_LOCAL_STORE, 0, h);
	st.size = 4;
	doit(&f, st, ok_());
	mfx_init(&f, 2, "mca-ref");
	h = shared_seg(&f, 1, 64);
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 1, h)), MS(SUCCESS)));
	/* the owner deletes while node 1 is attached (the reference's tests/rmem3.c): node 1's detach from a
	 * buffer deleted under it is a state the spec never reaches: INVALID (the reference) or SUCCESS */
	doit(&f, a_h(M_MRAPI_DELETE, 0, h), MS(SUCCESS));
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, h, 0, 4, 1, 4, 4)), MS(ERR_RMEM_INVALID)));
	p = pr(&f, a_h(M_MRAPI_DETACH, 1, h));
	ck_assert(has(p, MS(ERR_RMEM_INVALID)) && has(p, MS(SUCCESS)));
	doit(&f, a_h(M_MRAPI_DETACH, 1, h), MS(SUCCESS));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DETACH, 1, h)), MS(ERR_RMEM_INVALID))); /* once */
	/* rxe: libmrapi-rdma gives the reference's answer (a declared deviation) */
	mfx_init(&f, 2, "rxe");
	h = shared_seg(&f, 1, 64);
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 0, h)), MS(SUCCESS)));
}
END_TEST

/* RMEM-DELETE-1 has two rxe deviations giving SUCCESS (others attached; not the creator, its domain): the
 * alternative names the one that decided it, and the run cites that one (mrapi/034's xfail). */
START_TEST(test_RMEM_DELETE_1_alternative_names_its_deviation)
{
	struct mfx f;

	mfx_init(&f, 2, "rxe");
	int h = create(&f, 0, 1, 64);
	doit(&f, a_get(1, 1, 0), MS(SUCCESS));
	struct m_pred p = pr(&f, a_h(M_MRAPI_DELETE, 1, h)); /* not the creator, the buffer's domain, none attached */
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert_uint_gt(p.alt[0].dev, 0);
	const struct m_deviation *d = run_deviation(&f.p, &p, MS(SUCCESS));
	ck_assert_ptr_eq(d, &f.p.dev[p.alt[0].dev - 1]);
	ck_assert_int_eq(d->rule, M_RULE_RMEM_DELETE_1);
	ck_assert_int_eq(d->part, M_MRAPI_P_OWNER_DOMAIN);
	ck_assert_ptr_nonnull(strstr(d->citation, "no owner check"));
	/* the creator's delete while node 1 is attached: the other deviation */
	doit(&f, a_h(M_MRAPI_ATTACH, 1, h), MS(SUCCESS));
	p = pr(&f, a_h(M_MRAPI_DELETE, 0, h));
	ck_assert(only(p, MS(SUCCESS)));
	d = run_deviation(&f.p, &p, MS(SUCCESS));
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->part, M_MRAPI_P_OTHERS);
	/* the generic profile decides it by no deviation */
	mfx_init(&f, 2, "generic");
	h = create(&f, 0, 1, 64);
	p = pr(&f, a_h(M_MRAPI_DELETE, 0, h));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert_uint_eq(p.alt[0].dev, 0);
}
END_TEST

START_TEST(test_RMEM_DELETE_2_handle_dies_id_reusable)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = create(&f, 0, 8, 64);
	doit(&f, a_get(1, 8, 0), MS(SUCCESS));
	doit(&f, a_h(M_MRAPI_DELETE, 0, h), MS(SUCCESS));
	struct m_pred p = pr(&f, a_h(M_MRAPI_ATTACH, 1, h));
	ck_assert(only(p, MS(ERR_RMEM_INVALID)));
	ck_assert(rule_in(p, MS(ERR_RMEM_INVALID), M_RULE_RMEM_DELETE_2));
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, h, 0, 4, 1, 4, 4)), MS(ERR_RMEM_INVALID)));
	ck_assert(only(pr(&f, a_h(M_MRAPI_DELETE, 0, h)), MS(ERR_RMEM_INVALID)));
	int h2 = doit(&f, a_create(1, 8, 0x5000, 32, 0), MS(SUCCESS));
	ck_assert_int_ne(h2, h);
	ck_assert_int_eq(doit(&f, a_get(0, 8, 0), MS(SUCCESS)), h2);
}
END_TEST

START_TEST(test_RMEM_COH_1_creator_pointer_only)
{
	struct mfx f;
	struct m_pred p;
	uint8_t v[4] = { 9, 8, 7, 6 }, local[8], known[8];

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 64);
	struct m_mrapi_args s = a_h(M_MRAPI_LOCAL_STORE, 0, h);
	s.mem = 4;
	s.size = 4;
	s.data = v;
	s.data_len = 4;
	doit(&f, s, ok_());
	ck_assert(rule_in(pr(&f, s), ok_(), M_RULE_RMEM_COH_1));
	struct m_mrapi_args r = a_rw(M_MRAPI_READ, 1, h, 4, 4, 1, 4, 4);
	doit(&f, r, MS(SUCCESS));
	ck_assert_int_eq(m_mrapi_read_image(&f.st, &r, local, known, sizeof(local)), 4);
	ck_assert(local[0] == 9 && local[3] == 6 && known[0]);
	s.node = 1; /* not the creator: only a copy through read/write */
	ck_assert_int_eq(m_mrapi_predict(&f.st, &f.p, &s, &p), -EINVAL);
	s.node = 0;
	s.mem = 62; /* past the buffer */
	ck_assert_int_eq(m_mrapi_predict(&f.st, &f.p, &s, &p), -EINVAL);
}
END_TEST

START_TEST(test_RMEM_DOM_1_shared_across_domains)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	struct m_mrapi_args fin = A(M_MRAPI_FINALIZE, 1);
	doit(&f, fin, MS(SUCCESS));
	struct m_mrapi_args in = A(M_MRAPI_INITIALIZE, 1);
	in.domain = 2;
	in.node_id = 11;
	doit(&f, in, MS(SUCCESS));
	create(&f, 0, 1, 64); /* shared by default */
	ck_assert(only(pr(&f, a_get(1, 1, 0)), MS(SUCCESS)));
	struct m_mrapi_args a = A(M_MRAPI_INIT_ATTRIBUTES, 0);
	a.attrs = 0;
	doit(&f, a, MS(SUCCESS));
	a = A(M_MRAPI_SET_ATTRIBUTE, 0);
	a.attrs = 0;
	a.attr_num = M_MRAPI_ATTR_DOMAIN_SHARED;
	a.attr_size = 1;
	doit(&f, a, MS(SUCCESS));
	struct m_mrapi_args c = a_create(0, 2, 0x900000, 64, 0);
	c.attrs = 0;
	doit(&f, c, MS(SUCCESS));
	struct m_pred p = pr(&f, a_get(1, 2, 0));
	ck_assert(only(p, MS(ERR_DOMAIN_NOTSHARED)));
	ck_assert(rule_in(p, MS(ERR_DOMAIN_NOTSHARED), M_RULE_RMEM_DOM_1));
	ck_assert(only(pr(&f, a_get(0, 2, 0)), MS(SUCCESS))); /* its own domain */
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_get(1, 2, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_NODE_1_lifetime)
{
	struct mfx f;

	mfx_init(&f, 3, "generic");
	struct m_mrapi_args in = A(M_MRAPI_INITIALIZE, 0);
	in.domain = 1;
	in.node_id = 10;
	struct m_pred p = pr(&f, in);
	ck_assert(only(p, MS(ERR_NODE_INITIALIZED)));
	ck_assert(rule_in(p, MS(ERR_NODE_INITIALIZED), M_RULE_RMEM_NODE_1));
	int h = shared_seg(&f, 1, 64);
	doit(&f, a_get(2, 1, 0), MS(SUCCESS));
	/* node 0 (the owner) finalizes while node 1 is attached */
	doit(&f, A(M_MRAPI_FINALIZE, 0), MS(SUCCESS));
	ck_assert(only(pr(&f, A(M_MRAPI_FINALIZE, 0)), MS(ERR_NODE_NOTINIT)));
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, h, 0, 4, 1, 4, 4)), MS(ERR_RMEM_INVALID)));
	ck_assert(only(pr(&f, a_h(M_MRAPI_ATTACH, 2, h)), MS(ERR_RMEM_INVALID)));
	/* its id is free again, and the node may come back */
	ck_assert(only(pr(&f, a_create(1, 1, 0x1000, 64, 0)), MS(SUCCESS)));
	ck_assert(only(pr(&f, in), MS(SUCCESS)));
	/* a node id another live node holds */
	in.node = 0;
	in.node_id = 11;
	ck_assert(only(pr(&f, in), MS(ERR_NODE_INITIALIZED)));
}
END_TEST

/* The 24 area-D IDs of the catalog, in catalog order. */
static const char *const catalog_d[] = {
	"RMEM-0", "RMEM-CREATE-1", "RMEM-CREATE-2", "RMEM-CREATE-3", "RMEM-CREATE-4", "RMEM-CREATE-5",
	"RMEM-CREATE-6", "RMEM-ATTR-1", "RMEM-ATTR-2", "RMEM-ATTR-3", "RMEM-GET-1", "RMEM-GET-2",
	"RMEM-ATTACH-1", "RMEM-DETACH-1", "RMEM-DELETE-1", "RMEM-DELETE-2", "RMEM-RW-1", "RMEM-RW-2",
	"RMEM-RW-3", "RMEM-RW-4", "RMEM-RW-5", "RMEM-SYNC-1", "RMEM-COH-1", "RMEM-DOM-1",
};

START_TEST(test_every_area_d_rule_is_in_the_table)
{
	size_t n = sizeof(catalog_d) / sizeof(catalog_d[0]);

	ck_assert_uint_eq(n, 24);
	for (size_t i = 0; i < n; i++) {
		enum m_rule r;

		ck_assert_msg(m_rule_find(catalog_d[i], &r) == 0, "%s missing from model/rules.def", catalog_d[i]);
		ck_assert_str_eq(m_rule_info(r)->section, "D");
	}
}
END_TEST

START_TEST(test_mrapi_names_and_malformed)
{
	enum m_mrapi_st s;
	enum m_mrapi_call c;
	struct mfx f;
	struct m_pred p;

	for (int i = 0; i < M_MRAPI_ST_COUNT_; i++) {
		ck_assert_str_ne(m_mrapi_st_str((enum m_mrapi_st)i), "?");
		ck_assert_int_eq(m_mrapi_st_parse(m_mrapi_st_str((enum m_mrapi_st)i), &s), 0);
		ck_assert_int_eq(s, i);
	}
	/* the first 20 codes are names.c's */
	for (int i = 0; i <= M_MRAPI_ERR_RMEM_TYPENOTVALID; i++)
		ck_assert_str_eq(m_outcome_name((struct m_outcome){ M_OUT_MRAPI, i }), m_mrapi_st_str((enum m_mrapi_st)i));
	ck_assert_int_eq(m_mrapi_call_parse("MRAPI_RMEM_READ_I", &c), 0);
	ck_assert_int_eq(c, M_MRAPI_READ_I);
	ck_assert_int_eq(m_mrapi_call_parse("nope", &c), -EINVAL);
	ck_assert_int_eq(m_mrapi_init(&f.st, 0, ATYPES), -EINVAL);
	ck_assert_int_eq(m_mrapi_init(&f.st, 2, 0), -EINVAL);
	mfx_init(&f, 2, "generic");
	struct m_mrapi_args a = A(M_MRAPI_CREATE, 5);
	ck_assert_int_eq(m_mrapi_predict(&f.st, &f.p, &a, &p), -EINVAL);
	a = a_h(M_MRAPI_ATTACH, 0, M_MRAPI_SEGS);
	ck_assert_int_eq(m_mrapi_predict(&f.st, &f.p, &a, &p), -EINVAL);
	ck_assert_int_eq(m_mrapi_apply(&f.st, &a, &p, 3, NULL), -EINVAL);
}
END_TEST

Suite *suite_test_model_mrapi(void)
{
	Suite *s = suite_create("model_mrapi");
	TCase *tc = tcase_create("mrapi");

	RTEST(tc, RMEM_0, test_RMEM_0_notinit_first);
	RTEST(tc, RMEM_CREATE_1, test_RMEM_CREATE_1_exists_and_limit);
	RTEST(tc, RMEM_CREATE_2, test_RMEM_CREATE_2_id_any);
	RTEST(tc, RMEM_CREATE_3, test_RMEM_CREATE_3_parameter);
	RTEST(tc, RMEM_CREATE_4, test_RMEM_CREATE_4_overlap_conflict);
	RTEST(tc, RMEM_CREATE_5, test_RMEM_CREATE_5_defaults_and_copy);
	RTEST(tc, RMEM_CREATE_6, test_RMEM_CREATE_6_strict_and_any_types);
	RTEST(tc, RMEM_ATTR_1, test_RMEM_ATTR_1_init_attributes);
	RTEST(tc, RMEM_ATTR_2, test_RMEM_ATTR_2_set_attribute);
	RTEST(tc, RMEM_ATTR_3, test_RMEM_ATTR_3_get_attribute);
	RTEST(tc, RMEM_GET_1, test_RMEM_GET_1_lookup_and_types);
	RTEST(tc, RMEM_GET_2, test_RMEM_GET_2_deleted_id);
	RTEST(tc, RMEM_ATTACH_1, test_RMEM_ATTACH_1_attach_once);
	RTEST(tc, RMEM_DETACH_1, test_RMEM_DETACH_1_attached_only);
	RTEST(tc, RMEM_DELETE_1, test_RMEM_DELETE_1_owner_and_attach);
	tcase_add_test(tc, test_RMEM_DELETE_1_not_owner_by_domain);
	tcase_add_test(tc, test_RMEM_DELETE_1_alternative_names_its_deviation);
	RTEST(tc, RMEM_DELETE_2, test_RMEM_DELETE_2_handle_dies_id_reusable);
	RTEST(tc, RMEM_COH_1, test_RMEM_COH_1_creator_pointer_only);
	RTEST(tc, RMEM_DOM_1, test_RMEM_DOM_1_shared_across_domains);
	RTEST(tc, RMEM_NODE_1, test_RMEM_NODE_1_lifetime);
	tcase_add_test(tc, test_every_area_d_rule_is_in_the_table);
	tcase_add_test(tc, test_mrapi_names_and_malformed);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of what model_init zeroes and model_clone copies (model/family.c, model/state.c): the
 * header, the model's own nodes and the part of each domain-wide state in use (m_rpmem_model_used,
 * m_mrapi_model_used), not the whole 0.5 MB struct. Explore and lint clone a model per proposal:
 * the librpmem handles and MRAPI segments no step made (75 KB of the struct) are no part of it, and
 * a model made or copied over leftover bytes there still predicts, applies and frees as an empty one.
 */
#include "model/mrapi/mrapi.h"
#include "model/rpmem/rpmem.h"
#include "tests/unit/model_fx.h"

#include <stdlib.h>

#define JUNK 0xab

static int all_junk(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != JUNK)
			return 0;
	return 1;
}

/* A struct full of leftover bytes, as a reused allocation is. */
static struct model *junk_model(void)
{
	struct model *m = malloc(sizeof(*m));

	ck_assert_ptr_nonnull(m);
	memset(m, JUNK, sizeof(*m));
	return m;
}

START_TEST(test_init_zeroes_the_used_part_only)
{
	struct model *m = junk_model();

	ck_assert_int_eq(model_init(m, 2), 0);
	ck_assert_uint_eq(m->rpmem.nh, 0);
	ck_assert_uint_eq(m->mrapi.nsegs, 0);
	ck_assert_uint_eq(m->rpmem.ntargets, 2);
	ck_assert_int_eq(m->rpmem.target[1].max_lanes, 64);
	ck_assert(all_junk(m->rpmem.h, sizeof(m->rpmem.h)));
	ck_assert(all_junk(m->mrapi.seg, sizeof(m->mrapi.seg)));
	ck_assert(all_junk(&m->node[2], sizeof(m->node[2])));
	model_free(m); /* reads none of the leftover bytes (ASan: no wild free) */
	free(m);
}
END_TEST

START_TEST(test_clone_copies_the_used_part_only)
{
	struct model *src = junk_model(), *dst = junk_model();
	struct m_profile p;
	struct m_pred a, b;
	struct m_op op;

	ck_assert_int_eq(model_init(src, 2), 0);
	ck_assert_int_eq(model_clone(dst, src), 0);
	ck_assert(all_junk(dst->rpmem.h, sizeof(dst->rpmem.h)));
	ck_assert(all_junk(dst->mrapi.seg, sizeof(dst->mrapi.seg)));
	ck_assert(all_junk(&dst->node[2], sizeof(dst->node[2])));
	ck_assert_mem_eq(&dst->rpmem, &src->rpmem, m_rpmem_model_used(&src->rpmem));
	ck_assert_mem_eq(&dst->mrapi, &src->mrapi, m_mrapi_model_used(&src->mrapi));
	/* The copy predicts as the original: a persist on a handle never made is refused by both. */
	ck_assert_int_eq(m_profile_get("generic", 0, &p), 0);
	memset(&op, 0, sizeof(op));
	op.kind = M_OP_RPMEM_PERSIST;
	op.obj = 3;
	ck_assert_int_eq(model_predict(src, &p, &op, &a), model_predict(dst, &p, &op, &b));
	ck_assert_uint_eq(a.n, b.n);
	for (unsigned i = 0; i < a.n; i++)
		ck_assert(a.alt[i].out.kind == b.alt[i].out.kind && a.alt[i].out.code == b.alt[i].out.code);
	model_free(dst);
	model_free(src);
	free(dst);
	free(src);
}
END_TEST

Suite *suite_test_model_clone_used(void)
{
	Suite *s = suite_create("model_clone_used");
	TCase *tc = tcase_create("used");

	tcase_add_test(tc, test_init_zeroes_the_used_part_only);
	tcase_add_test(tc, test_clone_copies_the_used_part_only);
	suite_add_tcase(s, tc);
	return s;
}

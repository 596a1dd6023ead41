/*
 * Unit tests of the id an MRAPI_RMEM_ID_ANY buffer gets (RMEM-CREATE-2,
 * RMEM-GET-1; issue 31): the spec says only that MRAPI picks the id. Whether
 * that id is then also an ordinary key, so that a later create of the same
 * number finds it taken and a get of it finds the buffer (lib/mrapi: the
 * directory keeps one table of ids), or stays out of id lookups (the model
 * before: seg_by_id skips ANY buffers), the spec leaves open: both answers are
 * allowed, and the state follows the one reality gave.
 */
#include "tests/unit/mrapi_fx.h"

START_TEST(test_create_of_the_id_an_any_buffer_got)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int a = doit(&f, a_create(0, M_MRAPI_ID_ANY, 0x1000, 64, 0), MS(SUCCESS));
	uint32_t id = f.st.seg[a].id;
	struct m_pred p = pr(&f, a_create(1, id, 0x9000, 64, 0));

	ck_assert(has(p, MS(SUCCESS)) && has(p, MS(ERR_RMEM_EXISTS)));
	ck_assert_uint_eq(p.n, 2);
	ck_assert(rule_in(p, MS(ERR_RMEM_EXISTS), M_RULE_RMEM_CREATE_2));
	/* an id no buffer has, and one a user buffer has, stay as they were */
	ck_assert(only(pr(&f, a_create(1, id + 1, 0x9000, 64, 0)), MS(SUCCESS)));
	create(&f, 0, 7, 64);
	ck_assert(only(pr(&f, a_create(1, 7, 0x9000, 64, 0)), MS(ERR_RMEM_EXISTS)));
	/* the ANY buffer deleted: its id is free again */
	struct m_mrapi_args d = A(M_MRAPI_DELETE, 0);
	d.rmem = a;
	doit(&f, d, MS(SUCCESS));
	ck_assert(only(pr(&f, a_create(1, id, 0x9000, 64, 0)), MS(SUCCESS)));
}
END_TEST

START_TEST(test_get_of_the_id_an_any_buffer_got)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int a = doit(&f, a_create(0, M_MRAPI_ID_ANY, 0x1000, 64, 0), MS(SUCCESS));
	uint32_t id = f.st.seg[a].id;
	struct m_pred p = pr(&f, a_get(1, id, 0));

	ck_assert(has(p, MS(SUCCESS)) && has(p, MS(ERR_RMEM_ID_INVALID)));
	ck_assert_uint_eq(p.n, 2);
	ck_assert(rule_in(p, MS(ERR_RMEM_ID_INVALID), M_RULE_RMEM_GET_1));
	/* the reading reality gave: SUCCESS is a handle of the ANY buffer, ID_INVALID none */
	ck_assert_int_eq(doit(&f, a_get(1, id, 0), MS(SUCCESS)), a);
	ck_assert(m_mrapi_held(&f.st, 1, a));
	mfx_init(&f, 2, "generic");
	a = doit(&f, a_create(0, M_MRAPI_ID_ANY, 0x1000, 64, 0), MS(SUCCESS));
	ck_assert_int_lt(doit(&f, a_get(1, id, 0), MS(ERR_RMEM_ID_INVALID)), 0);
	ck_assert(!m_mrapi_held(&f.st, 1, a));
	/* a user buffer of that id (created while both readings were open) is what get finds */
	int u = doit(&f, a_create(0, id, 0x9000, 64, 0), MS(SUCCESS));
	ck_assert(only(pr(&f, a_get(1, id, 0)), MS(SUCCESS)));
	ck_assert_int_eq(doit(&f, a_get(1, id, 0), MS(SUCCESS)), u);
}
END_TEST

Suite *suite_test_model_mrapi_anyid(void)
{
	Suite *s = suite_create("model_mrapi_anyid");
	TCase *tc = tcase_create("anyid");

	tcase_add_test(tc, test_create_of_the_id_an_any_buffer_got);
	tcase_add_test(tc, test_get_of_the_id_an_any_buffer_got);
	suite_add_tcase(s, tc);
	return s;
}

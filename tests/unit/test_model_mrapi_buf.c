/*
 * Unit tests of the bytes the model engine says it holds for an MRAPI
 * handle (harness/api/mrapi/model_mrapi.c: model_buf, used by the end of a
 * run to read the buffer back from the stack): only the handle create gave
 * the creator holds the buffer's memory. A handle mrapi_rmem_get gave, even
 * on the creator's own node (as a get of the id an ID_ANY buffer got may be,
 * RMEM-CREATE-2), is not a buffer of the node's: the agent has no memory to
 * read behind it (issue 31: explore's ends failed "bad read request").
 */
#include "harness/corpus/load.h"
#include "harness/run/be_model.h"

#include <check.h>
#include <string.h>

static const char text[] =
	"title mrapi model_buf\n"
	"cite rule RMEM-GET-1\n"
	"require mrapi\n"
	"nodes a b\n"
	"a: mrapi_initialize\n"
	"b: mrapi_initialize\n"
	"a: mrapi_rmem_create R id=5 size=64\n"
	"a: mrapi_rmem_get G id=5\n"
	"b: mrapi_rmem_get H id=5\n";

START_TEST(test_only_the_create_handle_holds_bytes)
{
	struct scn_file *f = NULL;
	struct scn_diags d;
	struct m_profile gen;
	struct be_model eng;
	struct result r;
	struct bm_buf b;

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "buf.scn", &f, &d), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	struct run_opts ro = { .mode = RUN_LINT, .prof = gen, .engine_caps = cli_all_caps() };
	ck_assert_int_eq(bm_init(&eng, f, &gen), 0);
	ck_assert_int_eq(run_scenario(f, &be_model_ops, &eng, &ro, &r), 0);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_uint_eq(f->nobjs, 3);
	ck_assert_int_eq(bm_buf(&eng, 0, &b), 1); /* R, on its creator */
	ck_assert_uint_eq(b.len, 64);
	ck_assert_int_eq(bm_buf(&eng, 1, &b), 0); /* G: a get on the creator's node */
	ck_assert_int_eq(bm_buf(&eng, 2, &b), 0); /* H: a get on another node */
	result_clear(&r);
	bm_free(&eng);
	scn_free(f);
}
END_TEST

Suite *suite_test_model_mrapi_buf(void)
{
	Suite *s = suite_create("model_mrapi_buf");
	TCase *tc = tcase_create("buf");

	tcase_add_test(tc, test_only_the_create_handle_holds_bytes);
	suite_add_tcase(s, tc);
	return s;
}

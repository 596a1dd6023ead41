/*
 * Unit tests of how the runner judges what an expect names (runner.c,
 * be_model.c, walk.c): a query's KEY=VALUE results reported with a success
 * that is not `ok` (MRAPI_SUCCESS) are judged in the lint walk, on the model
 * engine and against reality; KEY=VALUE results name the call's success;
 * and the lint walk judges by the same set its engine draws from (the
 * generic reading of the profile's device with what the file requires).
 */
#include "harness/run/be_model.h"
#include "tests/unit/runner_fx.h"

#include <check.h>
#include <string.h>

#define ATTRS                                                        \
	"require mrapi\nnodes a\n"                                   \
	"a: mrapi_initialize expect MRAPI_SUCCESS\n"                 \
	"a: mrapi_rmem_create R id=35 size=4096 expect MRAPI_SUCCESS\n"

/* The lint walk of text under the rxe profile. */
static enum verdict walk(const char *text, struct result *r)
{
	struct scn_file *f = parse(text);
	struct m_profile rxe;
	enum verdict v;

	ck_assert_int_eq(m_profile_get("rxe", 0, &rxe), 0);
	v = run_walk(f, &rxe, 0, NULL, NULL, NULL, r);
	scn_free(f);
	return v;
}

START_TEST(test_query_mrapi_value_judged_by_lint)
{
	struct result r;

	ck_assert_int_eq(walk(ATTRS "a: mrapi_rmem_get_attribute R attr=RMEM_SIZE expect value=4096\n", &r), V_PASS);
	result_clear(&r);
	ck_assert_int_eq(walk(ATTRS "a: mrapi_rmem_get_attribute R attr=RMEM_SIZE expect value=4095\n", &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 5: expect value=4095, but the model says value=4096");
	result_clear(&r);
	ck_assert_int_eq(walk(ATTRS "a: mrapi_rmem_get_attribute R attr=DOMAIN_SHARED expect value=0\n", &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 5: expect value=0, but the model says value=1");
	result_clear(&r);
}
END_TEST

START_TEST(test_query_mrapi_value_judged_on_model)
{
	struct result r;

	ck_assert_int_eq(fx_on_model(ATTRS "a: mrapi_rmem_get_attribute R attr=RMEM_SIZE expect value=4096\n", NULL, &r),
			 V_PASS);
	result_clear(&r);
	ck_assert_int_eq(fx_on_model(ATTRS "a: mrapi_rmem_get_attribute R attr=ERROR_EXT expect value=1\n", NULL, &r),
			 V_FAIL);
	ck_assert_str_eq(r.reason, "line 5: expect value=1, real value=0");
	result_clear(&r);
}
END_TEST

/* "Reality": the model engine, with every value a query reports one more than the model's. */
static int off_by_one(void *be, const struct hcall *c, struct hres *r)
{
	int rc = be_model_ops.exec(be, c, r);

	for (unsigned k = 0; rc == 0 && k < 32; k++)
		if (r->qset & (1u << k))
			r->q[k]++;
	return rc;
}

START_TEST(test_query_mrapi_value_judged_against_reality)
{
	struct backend_ops real = be_model_ops;
	struct result r;

	real.exec = off_by_one;
	ck_assert_int_eq(fx_on_model(ATTRS "a: mrapi_rmem_get_attribute R attr=RMEM_SIZE\n", &real, &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 5: mrapi_rmem_get_attribute: model says value=4096, real value=4097");
	result_clear(&r);
	ck_assert_int_eq(fx_on_model(ATTRS "a: mrapi_rmem_get_attribute R attr=RMEM_SIZE expect value=4096\n", &real, &r),
			 V_FAIL);
	ck_assert_has(r.reason, "real value=4097");
	result_clear(&r);
}
END_TEST

START_TEST(test_query_results_name_the_success)
{
	struct result r;

	/* attr=9 is refused (MRAPI_ERR_ATTR_NUM): it reports no value to expect */
	ck_assert_int_eq(walk(ATTRS "a: mrapi_rmem_get_attribute R attr=9 expect value=1\n", &r), V_FAIL);
	ck_assert_has(r.reason, "line 5: expect value=: the results of a call that succeeds, but the model allows "
				"only: MRAPI_ERR_ATTR_NUM");
	result_clear(&r);
	ck_assert_int_eq(fx_on_model(ATTRS "a: mrapi_rmem_get_attribute R attr=9 expect value=1\n", NULL, &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 5: mrapi_rmem_get_attribute gave MRAPI_ERR_ATTR_NUM, outside the allowed set");
	result_clear(&r);
	/* the same on a verbs query: a garbled QP's query_qp fails, and reports no state */
	ck_assert_int_eq(walk("nodes a\na: alloc_pd pd\na: create_qp q pd=pd\n"
			      "a: query_qp q garble=self expect state=RESET\n", &r), V_FAIL);
	ck_assert_has(r.reason, "line 4: expect state=: the results of a call that succeeds");
	result_clear(&r);
}
END_TEST

/* verbs/024's step 12 and its mutants: one set for the walk's judge and its engine. */
#define ZERO_BASED                                                            \
	"require zero_based_reg\nnodes a\na: alloc_pd pd\n"                   \
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE|ZERO_BASED expect "

START_TEST(test_walk_judges_by_the_set_it_draws_from)
{
	static const char *const refused[] = { "EINVAL", "ok|EINVAL", "EOPNOTSUPP|ok" };
	struct result r;
	char text[512];

	snprintf(text, sizeof(text), "%sok\n", ZERO_BASED);
	ck_assert_int_eq(walk(text, &r), V_PASS);
	result_clear(&r);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", ZERO_BASED, refused[i]);
		ck_assert_msg(walk(text, &r) == V_FAIL, "expect %s: %s", refused[i], verdict_str(r.v));
		ck_assert_has(r.reason, "but the model allows only: ok");
		result_clear(&r);
	}
	/* rpma/034's step: on rxe (no native atomic write) the unaligned target takes the WRITE */
	static const char *const aw =
		"require rpma\nnodes a b\na: rpma_mr_reg m len=64 offset=4 usage=WRITE_DST\n"
		"b: rpma_mr_remote_from_descriptor r from=a.m\nb: rpma_connect c peer=a\n"
		"b: rpma_atomic_write c remote=r+0 value=1 expect ";
	snprintf(text, sizeof(text), "%sSUCCESS|REM_INV_REQ_ERR\n", aw);
	ck_assert_int_eq(walk(text, &r), V_FAIL);
	ck_assert_has(r.reason, "expect REM_INV_REQ_ERR, but the model allows only: SUCCESS");
	result_clear(&r);
}
END_TEST

#define POOL                                                                                  \
	"require rpmem\nnodes a t\nt: rpmem_poolset set=\"pool.set\" size=4M\n"                  \
	"a: rpmem_create p target=t set=\"pool.set\" size=1M nlanes=4 attr=5244434b0000000001000000\n" \
	"a: rpmem_close p\n"

START_TEST(test_rpmem_open_results_judged)
{
	struct backend_ops real = be_model_ops;
	struct result r;

	/* *nlanes from 1 to what was asked; open_attr's fields as the pool was created */
	ck_assert_int_eq(walk(POOL "a: rpmem_open q target=t set=\"pool.set\" size=1M nlanes=2 "
				   "expect nlanes=2 signature=0x4b434452 major=1 uuid_lo=0\n", &r), V_PASS);
	result_clear(&r);
	ck_assert_int_eq(walk(POOL "a: rpmem_open q target=t set=\"pool.set\" size=1M nlanes=2 expect nlanes=3\n", &r),
			 V_FAIL);
	ck_assert_str_eq(r.reason, "line 6: expect nlanes=3, but the model says nlanes in 1..2");
	result_clear(&r);
	ck_assert_int_eq(fx_on_model(POOL "a: rpmem_open q target=t set=\"pool.set\" size=1M expect major=2\n", NULL, &r),
			 V_FAIL);
	ck_assert_str_eq(r.reason, "line 6: expect major=2, real major=1");
	result_clear(&r);
	/* reality's own answer judged, expected or not: one lane more than asked, a major one more */
	real.exec = off_by_one;
	ck_assert_int_eq(fx_on_model(POOL, &real, &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 4: rpmem_create: model says nlanes in 1..4, real nlanes=5");
	result_clear(&r);
	/* with open_attr NULL, open reports no attributes to expect */
	ck_assert_int_eq(walk(POOL "a: rpmem_open q target=t set=\"pool.set\" size=1M null_attr expect major=1\n", &r),
			 V_FAIL);
	ck_assert_has(r.reason, "but the model says rpmem_open reports no major here");
	result_clear(&r);
}
END_TEST

/* The handle a create answered MRAPI_ERR_RMEM_EXISTS with: later steps use it, every call on it is INVALID. */
#define EXISTS                                                                            \
	"require mrapi\nnodes a b\n"                                                    \
	"a: mrapi_initialize expect MRAPI_SUCCESS\nb: mrapi_initialize expect MRAPI_SUCCESS\n" \
	"a: mrapi_rmem_create RA id=46 size=4096 expect MRAPI_SUCCESS\n"                 \
	"b: mrapi_rmem_create RB id=46 size=4096 expect MRAPI_ERR_RMEM_EXISTS\n"

START_TEST(test_mrapi_exists_handle_usable)
{
	struct result r;

	ck_assert_int_eq(walk(EXISTS "b: mrapi_rmem_delete RB expect MRAPI_ERR_RMEM_INVALID\n"
				     "b: mrapi_rmem_get_attribute RB attr=RMEM_SIZE expect MRAPI_ERR_RMEM_INVALID\n"
				     "a: mrapi_rmem_delete RA expect MRAPI_SUCCESS\n", &r), V_PASS);
	result_clear(&r);
	ck_assert_int_eq(fx_on_model(EXISTS "b: mrapi_rmem_delete RB expect MRAPI_ERR_RMEM_INVALID\n", NULL, &r), V_PASS);
	result_clear(&r);
	ck_assert_int_eq(walk(EXISTS "b: mrapi_rmem_delete RB expect MRAPI_SUCCESS\n", &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: expect MRAPI_SUCCESS, but the model allows only: MRAPI_ERR_RMEM_INVALID "
				   "[RMEM-DELETE-1]");
	result_clear(&r);
	/* the buffer of the id is untouched: its creator still deletes it, once */
	ck_assert_int_eq(walk(EXISTS "b: mrapi_rmem_delete RB\na: mrapi_rmem_delete RA expect MRAPI_SUCCESS\n"
				     "a: mrapi_rmem_delete RA expect MRAPI_ERR_RMEM_INVALID\n", &r), V_PASS);
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_query(void)
{
	Suite *s = suite_create("runner_query");
	TCase *tc = tcase_create("query");

	tcase_add_test(tc, test_query_mrapi_value_judged_by_lint);
	tcase_add_test(tc, test_query_mrapi_value_judged_on_model);
	tcase_add_test(tc, test_query_mrapi_value_judged_against_reality);
	tcase_add_test(tc, test_query_results_name_the_success);
	tcase_add_test(tc, test_walk_judges_by_the_set_it_draws_from);
	tcase_add_test(tc, test_rpmem_open_results_judged);
	tcase_add_test(tc, test_mrapi_exists_handle_usable);
	suite_add_tcase(s, tc);
	return s;
}

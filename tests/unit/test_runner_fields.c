/*
 * Unit tests of the fields step through the harness: its parse (an object,
 * or none, after expect; a bad name refused with file, line and column),
 * its resolution (the class read), and how the runner judges it: a real
 * report of another object than the model's, or of an address elsewhere in
 * the buffer, is a FAIL (runner.c judge_query, be_model.c bm_qres_objects).
 */
#include "harness/run/be_model.h"
#include "harness/run/resolve.h"
#include "tests/unit/runner_fx.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <string.h>

#define BASE                                                  \
	"nodes a\n"                                           \
	"a: alloc_pd pd\n"                                    \
	"a: alloc_pd pd2\n"                                   \
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"       \
	"a: create_cq cq\n"                                   \
	"a: create_qp q pd=pd cq=cq\n"

/* "Reality": the model engine, with fields' result key set to value (add: value added to it). */
static const char *bad_key;
static uint64_t bad_value;
static int bad_add;

static int bad_fields(void *be, const struct hcall *c, struct hres *r)
{
	int rc = be_model_ops.exec(be, c, r);
	int i = rc == 0 && c->op == M_OP_FIELDS ? scn_spec_index(scn_call_get(c->call)->query, bad_key) : -1;

	if (i >= 0 && (r->qset & (1u << i)))
		r->q[i] = bad_add ? r->q[i] + bad_value : bad_value;
	return rc;
}

/* The verdict of text on the model engine with reality's fields key set to value (add: plus value). */
static enum verdict judged(const char *text, const char *key, uint64_t value, int add, struct result *r)
{
	struct backend_ops real = be_model_ops;

	real.exec = bad_fields;
	bad_key = key;
	bad_value = value;
	bad_add = add;
	return fx_on_model(text, &real, r);
}

START_TEST(test_fields_parse)
{
	struct scn_file *f = parse_ok(BASE "a: fields q expect pd=pd srq=none send_cq=cq qp_type=RC\n");
	char buf[256];

	ck_assert_str_eq(fmt(f, 5), "a: fields q expect pd=pd srq=none send_cq=cq qp_type=RC");
	scn_free(f);
	ck_assert_int_eq(parse_err(BASE "a: fields q expect pd=nosuch\n"), SCN_E_UNKNOWN_NAME);
	scn_diag_format(&scn_fx_d.d[0], "t.scn", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "t.scn:7:23: unknown name 'nosuch'"), "%s", buf);
	ck_assert_int_eq(parse_err(BASE "a: fields q expect pd=cq\n"), SCN_E_WRONG_CLASS);
}
END_TEST

START_TEST(test_fields_resolve)
{
	struct scn_file *f = parse(BASE "a: fields m\na: fields q\na: fields cq\n");
	struct be_model eng;
	struct hcall c;
	int32_t missing;
	struct run_opts o = opts("rxe");

	ck_assert_int_eq(bm_init(&eng, f, &o.prof), 0);
	ck_assert_int_eq(resolve_step(f, &f->steps[5], &be_model_ops, &eng, &c, &missing), 0);
	ck_assert_uint_eq(c.op, M_OP_FIELDS);
	ck_assert_uint_eq(c.verbs.fields_of, M_FLD_MR);
	ck_assert_int_eq(resolve_step(f, &f->steps[6], &be_model_ops, &eng, &c, &missing), 0);
	ck_assert_uint_eq(c.verbs.fields_of, M_FLD_QP);
	ck_assert_int_eq(resolve_step(f, &f->steps[7], &be_model_ops, &eng, &c, &missing), 0);
	ck_assert_uint_eq(c.verbs.fields_of, M_FLD_CQ);
	bm_free(&eng);
	scn_free(f);
}
END_TEST

START_TEST(test_fields_judged)
{
	struct result r;

	ck_assert_int_eq(fx_on_model(BASE "a: fields q expect pd=pd srq=none send_cq=cq recv_cq=cq\n"
				       "a: fields m expect pd=pd addr=m.va length=4K\n", NULL, &r), V_PASS);
	result_clear(&r);
	ck_assert_int_eq(fx_on_model(BASE "a: fields q expect pd=pd2\n", NULL, &r), V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: expect pd=a.pd2, real pd=a.pd");
	result_clear(&r);
	ck_assert_int_eq(judged(BASE "a: fields q\n", "pd", 1, 0, &r), V_FAIL); /* pd2 */
	ck_assert_str_eq(r.reason, "line 7: fields: model says pd=a.pd, real pd=a.pd2");
	result_clear(&r);
	ck_assert_int_eq(judged(BASE "a: fields q\n", "srq", 3, 0, &r), V_FAIL); /* not NULL */
	ck_assert_str_eq(r.reason, "line 7: fields: model says srq=none, real srq=a.cq");
	result_clear(&r);
	ck_assert_int_eq(judged(BASE "a: fields m\n", "addr", 1, 1, &r), V_FAIL); /* a byte past the buffer's first */
	ck_assert_has(r.reason, "line 7: fields: model says addr=");
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_fields(void)
{
	Suite *s = suite_create("runner_fields");
	TCase *tc = tcase_create("fields");

	tcase_add_test(tc, test_fields_parse);
	tcase_add_test(tc, test_fields_resolve);
	tcase_add_test(tc, test_fields_judged);
	suite_add_tcase(s, tc);
	return s;
}

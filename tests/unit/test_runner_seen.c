/*
 * Unit tests of `seen` groups (harness/run/run_seen.c): over the iterations
 * of a repeat block, a group holds when one iteration gave one of its
 * outcomes (the real stack: the scripted fake engine of runner_fx.h), else
 * the scenario fails at the step's line saying what the iterations gave;
 * on the model's own walk (lint) every outcome the list names must be
 * allowed at some iteration, the walk preferring the ones not taken yet.
 */
#include "harness/run/be_model.h"
#include "tests/unit/runner_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* Eight steps (execs 0-7), three READs sent (8-10), the MR gone (11), three waits (12-14). */
#define STREAM                                                                                   \
	"nodes a b\na: alloc_pd pd\na: create_cq cq\na: reg_mr dst pd=pd len=4K access=LOCAL_WRITE\n" \
	"a: create_qp q pd=pd cq=cq\nb: alloc_pd pd\n"                                               \
	"b: reg_mr src pd=pd len=4K access=LOCAL_WRITE|REMOTE_READ\nb: create_qp q pd=pd\n"           \
	"connect a.q b.q\n"                                                                          \
	"repeat 3 {\na: read q local=dst+0 remote=b.src+0 len=4K id=1 wait=no expect ok\n}\n"        \
	"a: dereg_mr dst expect ok\n"                                                                \
	"repeat 3 {\na: wait q id=1 expect SUCCESS|LOC_PROT_ERR|WR_FLUSH_ERR seen LOC_PROT_ERR\n}\n"

static const char stream[] = "title seen\n" STREAM;

START_TEST(test_seen_fails_when_no_iteration_gave_it)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(stream);

	/* reality: every READ completed before its MR went (the fake's default: the list's first) */
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_FAIL, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.line, 16);
	ck_assert_str_eq(r.reason, "line 16: seen LOC_PROT_ERR: no iteration gave it (of 3: SUCCESS x3)");
	done(f, &r);
}
END_TEST

START_TEST(test_seen_passes_when_one_did)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(stream);

	fk.step[13] = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_PROT_ERR } };
	fk.step[14] = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_WR_FLUSH_ERR } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s\n%s", verdict_str(r.v), r.reason, r.detail ? r.detail : "");
	done(f, &r);
}
END_TEST

/* The file walked by lint (the generic model as the engine). */
static void lint(const char *text, struct result *r)
{
	struct scn_file *f = parse(text);
	struct m_profile gen;
	struct be_model eng;
	struct run_opts o = opts("rxe");

	o.mode = RUN_LINT;
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	ck_assert_int_eq(bm_init(&eng, f, &gen), 0);
	ck_assert_int_eq(run_scenario(f, &be_model_ops, &eng, &o, r), 0);
	bm_free(&eng);
	scn_free(f);
}

START_TEST(test_seen_lint_walks_where_the_list_needs)
{
	struct result r;

	/* WR_FLUSH_ERR is allowed only once an iteration took LOC_PROT_ERR (the QP in ERR): the walk
	 * takes SUCCESS, then LOC_PROT_ERR, the first outcomes not taken, then WR_FLUSH_ERR is allowed */
	lint(stream, &r);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
}
END_TEST

START_TEST(test_seen_lint_refuses_what_no_iteration_allows)
{
	static const char kept[] = "title seen\n" /* the MR stays: no READ can fail */
				   "nodes a b\na: alloc_pd pd\na: create_cq cq\na: reg_mr dst pd=pd len=4K access=LOCAL_WRITE\n"
				   "a: create_qp q pd=pd cq=cq\nb: alloc_pd pd\n"
				   "b: reg_mr src pd=pd len=4K access=LOCAL_WRITE|REMOTE_READ\nb: create_qp q pd=pd\n"
				   "connect a.q b.q\n"
				   "repeat 2 {\na: read q local=dst+0 remote=b.src+0 len=4K expect SUCCESS|LOC_PROT_ERR "
				   "seen SUCCESS\n}\n";
	static const char never[] = "title seen\n"
				    "nodes a b\na: alloc_pd pd\na: create_cq cq\na: reg_mr dst pd=pd len=4K access=LOCAL_WRITE\n"
				    "a: create_qp q pd=pd cq=cq\nb: alloc_pd pd\n"
				    "b: reg_mr src pd=pd len=4K access=LOCAL_WRITE|REMOTE_READ\nb: create_qp q pd=pd\n"
				    "connect a.q b.q\n"
				    "repeat 1 {\na: read q local=dst+0 remote=b.src+0 len=4K rkey=b.src.rkey+1 "
				    "expect SUCCESS|REM_ACCESS_ERR seen SUCCESS\n}\n";
	struct result r;

	lint(kept, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 12: expect LOC_PROT_ERR, but the model allows it at no iteration (of 2)");
	result_clear(&r);
	lint(never, &r); /* a bad rkey: SUCCESS is allowed nowhere, the group cannot occur */
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 12: expect SUCCESS, but the model allows it at no iteration (of 1)");
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_seen(void)
{
	Suite *s = suite_create("test_runner_seen");
	TCase *tc = tcase_create("seen");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_seen_fails_when_no_iteration_gave_it);
	tcase_add_test(tc, test_seen_passes_when_one_did);
	tcase_add_test(tc, test_seen_lint_walks_where_the_list_needs);
	tcase_add_test(tc, test_seen_lint_refuses_what_no_iteration_allows);
	suite_add_tcase(s, tc);
	return s;
}

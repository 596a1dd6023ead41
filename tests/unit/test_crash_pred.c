/*
 * Unit tests of the crash prediction that orders the VM's runs
 * (harness/corpus/crash_pred.c, issue 18): a scenario is run last when the
 * profile says one of its steps may kill the kernel (MW-INV-3's deviation on
 * rxe 6.1), and only then.
 */
#include "harness/corpus/crash_pred.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <string.h>

/* 1 if the model says a step of f may kill the kernel under judge or stack (cli_predict). */
static int cli_may_crash(const struct scn_file *f, const struct m_profile *judge, const struct m_profile *stack)
{
	struct cli_pred p;

	cli_predict(f, judge, stack, &p);
	return p.crash_si >= 0;
}

/* A host stack's skip of f and its reason (cli_crash_reason of the prediction). */
static int cli_host_skip(const struct scn_file *f, const struct m_profile *judge, const struct m_profile *stack,
			 char *why, size_t len)
{
	struct cli_pred p;

	cli_predict(f, judge, stack, &p);
	return cli_crash_reason(f, &p, why, len);
}

/* The corpus's 057-mw2-local-inv-unbound-crash, in short. */
static const char *unbound_inv = SCN_FX_UNBOUND_INV;

START_TEST(test_MW_INV_3_crash_predicted_on_rxe_6_1_only)
{
	struct scn_file *f = parse_ok(unbound_inv);
	struct m_profile p;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p, NULL), 1);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p, NULL), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p, NULL), 0);
	scn_free(f);
}
END_TEST

/* make bench-real (--stack=host in the guest) panicked on verbs/197: the whole scenario is skipped, not the step. */
START_TEST(test_MW_INV_3_host_stack_skips_the_whole_scenario)
{
	static const char kept[] = "require mw_type2\nnodes a b\na: alloc_pd p0\nb: alloc_pd p1\n"
				   "a: reg_mr m2 pd=p0 len=4K access=LOCAL_WRITE\n"
				   "b: reg_mr m3 pd=p1 len=4K access=LOCAL_WRITE|REMOTE_WRITE\n"
				   "a: alloc_mw w4 pd=p0 type=2\na: create_qp q5 pd=p0\nb: create_qp q6 pd=p1\n"
				   "a: local_inv q5 w4 expect EINVAL\nconnect a.q5 b.q6\n"
				   "a: write q5 local=m2+0 remote=b.m3+0 len=8 expect SUCCESS\n";
	struct scn_file *f = parse_ok(kept);
	struct m_profile p;
	char why[512] = "";

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(cli_host_skip(f, &p, NULL, why, sizeof(why)), 1);
	/* the write that rings the doorbell for the kept LOCAL_INV: line 12 */
	ck_assert_msg(strncmp(why, "line 12: the rxe profile says this step may kill the kernel (MW-INV-3: ", 71) == 0,
		      "%s", why);
	ck_assert_ptr_nonnull(strstr(why, "(--stack=vm)"));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &p), 0);
	ck_assert_int_eq(cli_host_skip(f, &p, NULL, why, sizeof(why)), 0);
	scn_free(f);
	f = parse_ok(unbound_inv);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(cli_host_skip(f, &p, NULL, why, sizeof(why)), 1);
	scn_free(f);
}
END_TEST

START_TEST(test_no_crash_predicted_for_a_plain_scenario)
{
	struct scn_file *f = parse_ok("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=64\na: dealloc_pd pd expect EBUSY\n");
	struct m_profile p;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p, NULL), 0);
	ck_assert_int_eq(cli_host_skip(f, &p, NULL, (char[8]){ 0 }, 8), 0);
	scn_free(f);
}
END_TEST

/*
 * explore judges by the generic profile on rxe 6.1: the stack's own profile
 * still says which steps kill it. Judged by generic alone, MW-INV-3's
 * scenario ran in a stream of the VM, and its panic took three boots (the
 * streams, then alone, then careful) where a predicted one takes one.
 */
START_TEST(test_MW_INV_3_crash_predicted_by_the_stacks_profile_under_generic)
{
	struct scn_file *f = parse_ok(unbound_inv);
	struct m_profile g, g61, rxe, st;
	char why[512] = "";

	ck_assert_int_eq(m_profile_get("generic", 0, &g), 0);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &rxe), 0);
	ck_assert_int_eq(cli_may_crash(f, &g, NULL), 0);
	ck_assert_int_eq(cli_may_crash(f, &g, &rxe), 1);
	ck_assert_int_eq(cli_host_skip(f, &g, &rxe, why, sizeof(why)), 1);
	ck_assert_msg(strncmp(why, "line 8: the rxe profile says this step may kill the kernel (MW-INV-3: ", 70) == 0,
		      "%s", why);
	/* the stack's profile: rxe at the running kernel, unless the judge is that already */
	g61 = g;
	g61.kernel = KVER(6, 1);
	ck_assert_ptr_eq(cli_stack_profile(&g61, "rxe", &st), cli_running_kernel() ? &st : NULL);
	if (cli_running_kernel()) {
		ck_assert_str_eq(st.name, "rxe");
		ck_assert_uint_eq(st.kernel, cli_running_kernel());
		rxe.kernel = cli_running_kernel();
		ck_assert_ptr_null(cli_stack_profile(&rxe, "rxe", &st));
	}
	scn_free(f);
}
END_TEST

/* verbs/290, in short: rxe 6.1's destroy_qp with a bound type-2 window takes 50 s (QP-DESTROY-1's WARN row). */
START_TEST(test_QP_DESTROY_1_slow_step_predicted_on_rxe_6_1)
{
	struct scn_file *f = parse_ok(SCN_FX_DESTROY_BOUND);
	struct m_profile g, rxe;
	struct cli_pred p;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &rxe), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &g), 0);
	cli_predict(f, &rxe, NULL, &p);
	ck_assert_int_eq(p.crash_si, -1);
	ck_assert_uint_ge(p.slow_ms, 50000);
	cli_predict(f, &g, NULL, &p);
	ck_assert_uint_eq(p.slow_ms, 0);
	cli_predict(f, &g, &rxe, &p);
	ck_assert_uint_ge(p.slow_ms, 50000);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &rxe), 0);
	cli_predict(f, &rxe, NULL, &p);
	ck_assert_uint_eq(p.slow_ms, 0);
	scn_free(f);
}
END_TEST

Suite *suite_test_crash_pred(void)
{
	Suite *s = suite_create("test_crash_pred");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, test_MW_INV_3_crash_predicted_on_rxe_6_1_only);
	tcase_add_test(tc, test_MW_INV_3_host_stack_skips_the_whole_scenario);
	tcase_add_test(tc, test_no_crash_predicted_for_a_plain_scenario);
	tcase_add_test(tc, test_MW_INV_3_crash_predicted_by_the_stacks_profile_under_generic);
	tcase_add_test(tc, test_QP_DESTROY_1_slow_step_predicted_on_rxe_6_1);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the crash prediction that orders the VM's runs
 * (harness/cli/crash_pred.c, issue 18): a scenario is run last when the
 * profile says one of its steps may kill the kernel (MW-INV-3's deviation on
 * rxe 6.1), and only then.
 */
#include "harness/cli/crash_pred.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <string.h>

/* The corpus's 057-mw2-local-inv-unbound-crash, in short. */
static const char *unbound_inv = SCN_FX_UNBOUND_INV;

START_TEST(test_MW_INV_3_crash_predicted_on_rxe_6_1_only)
{
	struct scn_file *f = parse_ok(unbound_inv);
	struct m_profile p;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p), 1);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p), 0);
	scn_free(f);
}
END_TEST

START_TEST(test_no_crash_predicted_for_a_plain_scenario)
{
	struct scn_file *f = parse_ok("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=64\na: dealloc_pd pd expect EBUSY\n");
	struct m_profile p;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(cli_may_crash(f, &p), 0);
	scn_free(f);
}
END_TEST

Suite *suite_test_crash_pred(void)
{
	Suite *s = suite_create("test_crash_pred");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, test_MW_INV_3_crash_predicted_on_rxe_6_1_only);
	tcase_add_test(tc, test_no_crash_predicted_for_a_plain_scenario);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the runner's small helpers (harness/run/runner.h): verdict
 * names, run_format_set, run_deviation (kernel-ranged deviations) and
 * run_unsupported (required capabilities, a library's calls).
 */
#include "tests/unit/runner_fx.h"
#include "harness/base/text.h"

#include <check.h>
#include <errno.h>
#include <string.h>

START_TEST(test_verdict_names)
{
	static const char *const names[] = { "pass", "fail", "xfail", "skip", "error" };
	enum verdict v;

	for (int i = 0; i < V_COUNT_; i++) {
		ck_assert_str_eq(verdict_str((enum verdict)i), names[i]);
		ck_assert_int_eq(verdict_parse(names[i], &v), 0);
		ck_assert_int_eq(v, i);
	}
	ck_assert_str_eq(verdict_str(V_COUNT_), "?");
	ck_assert_str_eq(verdict_str((enum verdict)-1), "?");
	ck_assert_int_eq(verdict_parse("PASS", &v), -EINVAL);
	ck_assert_int_eq(verdict_parse("", &v), -EINVAL);
	ck_assert_int_eq(verdict_parse("passed", &v), -EINVAL);
}
END_TEST

START_TEST(test_format_set_and_deviation)
{
	struct m_pred p = { .n = 4 };
	struct m_profile rxe, gen;
	struct scn_file *f = parse("nodes a b\na: alloc_pd pd\na: dealloc_pd pd expect EBUSY|ok\n");
	char buf[256];

	p.alt[0] = (struct m_alt){ .out = { M_OUT_ERRNO, EINVAL }, .nrules = 1, .rules = { M_RULE_MR_DEREG_2 } };
	p.alt[1] = (struct m_alt){ .out = { M_OUT_ERRNO, EBUSY }, .nrules = 2,
				   .rules = { M_RULE_MR_DEREG_2, M_RULE_PD_1 } };
	p.alt[2] = (struct m_alt){ .out = { M_OUT_ERRNO, EINVAL }, .nrules = 0 }; /* duplicate outcome */
	p.alt[3] = (struct m_alt){ .out = { M_OUT_OK, 0 }, .nrules = 0 };
	run_format_set(&p, NULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "EINVAL [MR-DEREG-2], EBUSY [MR-DEREG-2 PD-1], ok");
	run_format_set(&p, &f->steps[1], buf, sizeof(buf));
	ck_assert_str_eq(buf, "EBUSY [MR-DEREG-2 PD-1], ok");
	p.n = 1;
	run_format_set(&p, &f->steps[1], buf, sizeof(buf));
	ck_assert_str_eq(buf, "nothing");
	/* a short buffer is cut, never overrun */
	p.n = 4;
	memset(buf, 'x', sizeof(buf));
	run_format_set(&p, NULL, buf, 10);
	ck_assert_uint_eq(strlen(buf), 9);
	ck_assert_int_eq(buf[10], 'x');

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &rxe), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	const struct m_deviation *d = run_deviation(&rxe, &p, (struct m_outcome){ M_OUT_ERRNO, EINVAL });

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(d->rule, M_RULE_MR_DEREG_2);
	ck_assert_has(d->citation, "rxe_dereg_mr");
	/* EBUSY is no deviation's outcome; the generic profile has none; ok names no rule */
	ck_assert_ptr_null(run_deviation(&rxe, &p, (struct m_outcome){ M_OUT_ERRNO, EBUSY }));
	ck_assert_ptr_null(run_deviation(&gen, &p, (struct m_outcome){ M_OUT_ERRNO, EINVAL }));
	ck_assert_ptr_null(run_deviation(&rxe, &p, (struct m_outcome){ M_OUT_OK, 0 }));
	/* kernel-ranged deviations: MR-REREG-9 is for 6.1 only */
	p.n = 1;
	p.alt[0] = (struct m_alt){ .out = { M_OUT_ERRNO, EOPNOTSUPP }, .nrules = 1, .rules = { M_RULE_MR_REREG_9 } };
	ck_assert_ptr_nonnull(run_deviation(&rxe, &p, p.alt[0].out));
	rxe.kernel = KVER(6, 2);
	ck_assert_ptr_null(run_deviation(&rxe, &p, p.alt[0].out));
	rxe.kernel = 0; /* any kernel */
	ck_assert_ptr_nonnull(run_deviation(&rxe, &p, p.alt[0].out));
	scn_free(f);
}
END_TEST

/* result_take_detail: a text becomes the detail; one that ran out of memory leaves the detail as it was. */
START_TEST(test_take_detail)
{
	struct result r = { 0 };
	struct text t = { 0 };

	text_addf(&t, "  first\n");
	ck_assert_int_eq(result_take_detail(&r, &t), 0);
	ck_assert_str_eq(r.detail, "  first\n");
	ck_assert_ptr_null(t.s);
	text_addf(&t, "  second\n%s", r.detail);
	ck_assert_int_eq(result_take_detail(&r, &t), 0);
	ck_assert_str_eq(r.detail, "  second\n  first\n");
	text_addf(&t, "  lost\n");
	t.oom = 1;
	ck_assert_int_eq(result_take_detail(&r, &t), -ENOMEM);
	ck_assert_str_eq(r.detail, "  second\n  first\n");
	ck_assert_ptr_null(t.s);
	result_clear(&r);
}
END_TEST

START_TEST(test_unsupported)
{
	char why[128];
	struct scn_file *f = parse("require mw_type1 atomics\nnodes a\na: alloc_pd pd\n");

	ck_assert_int_eq(run_unsupported(f, M_CAP_MW_TYPE1 | M_CAP_ATOMICS, why, sizeof(why)), 0);
	ck_assert_int_eq(run_unsupported(f, M_CAP_MW_TYPE1 | M_CAP_REREG, why, sizeof(why)), 1);
	ck_assert_str_eq(why, "requires atomics, which the profile of this stack does not offer");
	/* a short buffer is cut */
	ck_assert_int_eq(run_unsupported(f, 0, why, 9), 1);
	ck_assert_str_eq(why, "requires");
	scn_free(f);
	f = parse("nodes a b\na: alloc_pd pd\na: rpmem_create p target=b set=\"none.set\" size=1M\n");
	ck_assert_int_eq(run_unsupported(f, ~0u & ~(uint32_t)M_CAP_RPMEM, why, sizeof(why)), 1);
	ck_assert_str_eq(why, "line 3: rpmem_create needs rpmem, which the profile of this stack does not offer");
	scn_free(f);
	/* a library's calls need its capability even without a require line */
	f = parse("nodes a\na: alloc_pd pd\na: dat_ia_open\n");
	ck_assert_int_eq(run_unsupported(f, ~0u, why, sizeof(why)), 0);
	ck_assert_int_eq(run_unsupported(f, ~0u & ~(uint32_t)M_CAP_DAPL, why, sizeof(why)), 1);
	ck_assert_str_eq(why, "line 3: dat_ia_open needs dapl, which the profile of this stack does not offer");
	scn_free(f);
	/* fill and check are the harness's own */
	f = parse("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=4K\na: fill m byte=1\na: check m\n");
	ck_assert_int_eq(run_unsupported(f, 0, why, sizeof(why)), 0);
	scn_free(f);
}
END_TEST


Suite *suite_test_runner_helpers(void)
{
	Suite *s = suite_create("test_runner_helpers");
	TCase *tc = tcase_create("helpers");

	tcase_add_test(tc, test_verdict_names);
	tcase_add_test(tc, test_format_set_and_deviation);
	tcase_add_test(tc, test_unsupported);
	tcase_add_test(tc, test_take_detail);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of `rdmacheck explore --until=N:F:S` (harness/explore/goal.c):
 * on the model simulating rxe 6.1 with its declared deviations shown, judged
 * against the generic profile (the self-test's setting), the exploration
 * stops after the batch that brought the distinct declared deviations of at
 * most S steps to N in F families, well inside its budget, for several
 * seeds; without a goal it spends the budget; the count follows the files'
 * sizes and families.
 */
#include "harness/corpus/load.h"
#include "harness/explore/explore.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Explore seed with goal devs:fams:steps (devs 0: none) over a budget of budget steps into *sum. */
static void explore_rxe(uint64_t seed, unsigned devs, unsigned fams, unsigned steps, unsigned long budget,
			struct ex_summary *sum)
{
	struct ex_stack s = { .kind = EX_STACK_MODEL };
	struct ex_opts o = { .seed = seed, .steps = budget, .batch = 12, .stack_name = "model", .goal_devs = devs,
			     .goal_fams = fams, .goal_steps = steps };
	struct ex_cov cov = { 0 };

	ck_assert_int_eq(cli_profile("generic", &s.judge), 0);
	ck_assert_int_eq(cli_profile("rxe:6.1", &s.sim), 0);
	s.ops = ex_deviating_ops();
	o.gen = (struct ex_gen_opts){ .nodes_min = 2, .nodes_max = 3, .steps = 24, .proposals = 6, .judge = s.judge,
				      .apis = 1u << M_FAM_VERBS | 1u << M_FAM_RPMA | 1u << M_FAM_DAT };
	ck_assert_int_eq(ex_explore(&o, &s, &cov, sum), 0);
}

START_TEST(test_until_stops_once_the_goal_is_met)
{
	static const uint64_t seeds[] = { 1, 4, 9 };
	struct ex_summary *sum = calloc(1, sizeof(*sum));
	struct ex_opts goal = { .goal_devs = 5, .goal_fams = 3, .goal_steps = 8 };

	ck_assert_ptr_nonnull(sum);
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		unsigned devs, fams;
		unsigned long budget;

		explore_rxe(seeds[i], 5, 3, 8, 2880, sum);
		ck_assert_msg(ex_goal_met(&goal, sum), "seed %llu: goal not met in %lu steps",
			      (unsigned long long)seeds[i], sum->steps);
		ck_assert_uint_lt(sum->steps, 2880);
		ex_goal_count(&goal, sum, &devs, &fams);
		ck_assert_uint_ge(devs, 5);
		ck_assert_uint_ge(fams, 3);
		/* one batch less did not meet it: the run stopped after the first batch that did */
		budget = sum->steps - 12 * 24;
		if (budget) {
			explore_rxe(seeds[i], 5, 3, 8, budget, sum);
			ck_assert(!ex_goal_met(&goal, sum));
		}
	}
	explore_rxe(1, 0, 0, 0, 2880, sum); /* no goal: the whole budget */
	ck_assert_uint_ge(sum->steps, 2880);
	free(sum);
}
END_TEST

START_TEST(test_goal_counts_distinct_small_deviations_and_their_families)
{
	struct ex_summary *sum = calloc(1, sizeof(*sum));
	struct ex_opts o = { .goal_devs = 3, .goal_fams = 2, .goal_steps = 8 };
	static const struct { const char *call, *dev; size_t to; } f[] = {
		{ "reg_mr", "MR-MAP-2", 2 },   { "reg_mr", "MR-MAP-2", 3 },          /* one deviation twice */
		{ "cas", "QP-STATE-1", 9 },    /* too large for the goal */
		{ "dat_lmr_create", "", 3 },   /* no declared deviation */
		{ "rpma_mr_remote_from_descriptor", "RPMA-DESC-3", 1 },
	};
	unsigned devs, fams;

	ck_assert_ptr_nonnull(sum);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(sum->found[i].sig.call, sizeof(sum->found[i].sig.call), "%s", f[i].call);
		snprintf(sum->found[i].deviation, sizeof(sum->found[i].deviation), "%s", f[i].dev);
		sum->found[i].to = f[i].to;
	}
	sum->nfound = sizeof(f) / sizeof(f[0]);
	ex_goal_count(&o, sum, &devs, &fams);
	ck_assert_uint_eq(devs, 2);
	ck_assert_uint_eq(fams, 2);
	ck_assert(!ex_goal_met(&o, sum));
	o.goal_steps = 0; /* any size: QP-STATE-1 counts */
	ex_goal_count(&o, sum, &devs, &fams);
	ck_assert_uint_eq(devs, 3);
	ck_assert(ex_goal_met(&o, sum));
	ck_assert_int_eq(ex_found_family(&sum->found[4]), M_FAM_RPMA);
	snprintf(sum->found[0].sig.call, sizeof(sum->found[0].sig.call), "connect");
	ck_assert_int_eq(ex_found_family(&sum->found[0]), M_FAM_VERBS);
	o.goal_devs = 0;
	ck_assert(!ex_goal_met(&o, sum)); /* no goal: never met */
	free(sum);
}
END_TEST

Suite *suite_test_explore_goal(void)
{
	Suite *s = suite_create("test_explore_goal");
	TCase *tc = tcase_create("goal");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_until_stops_once_the_goal_is_met);
	tcase_add_test(tc, test_goal_counts_distinct_small_deviations_and_their_families);
	suite_add_tcase(s, tc);
	return s;
}

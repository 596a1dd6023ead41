/*
 * Unit tests of a campaign's bounded state (harness/explore/campaign.c, issue
 * 31): the samples of the rules reached over time stay within
 * EX_CAMP_POINTS however long the campaign runs, thinned evenly and in time
 * order from its start; a campaign without a directory keeps nothing; a kept
 * corpus directory is made with its parents; the rules the corpus reached
 * that the run has not are listed by ID, and leave the list once the run hits them.
 */
#include "harness/explore/campaign.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(test_points_stay_bounded_and_in_order)
{
	struct ex_campaign *cp = calloc(1, sizeof(*cp));
	struct ex_cov cov = { 0 };

	ck_assert_ptr_nonnull(cp);
	ck_assert_int_eq(ex_campaign_start(cp, NULL, 7, &cov), 0);
	ck_assert_uint_eq(cp->corpus_rules, 7);
	for (unsigned long i = 0; i < 100000; i++)
		ex_campaign_point(cp, (double)i, i * 24, (unsigned)(i / 1000));
	ck_assert_uint_le(cp->npoints, EX_CAMP_POINTS);
	ck_assert_uint_ge(cp->npoints, EX_CAMP_POINTS / 2);
	ck_assert(cp->pts[0].t == 0.0);
	for (size_t i = 1; i < cp->npoints; i++) {
		ck_assert(cp->pts[i].t > cp->pts[i - 1].t);
		ck_assert_uint_ge(cp->pts[i].rules, cp->pts[i - 1].rules);
	}
	/* the last sample is within one sampling interval of the end */
	ck_assert(cp->pts[cp->npoints - 1].t >= 100000.0 - 2.0 * (double)cp->every);
	free(cp);
}
END_TEST

START_TEST(test_unreached_lists_the_corpus_rules_not_hit)
{
	struct ex_campaign *cp = calloc(1, sizeof(*cp));
	struct ex_cov cov = { 0 };
	char ids[64], want[64];

	ck_assert_ptr_nonnull(cp);
	cov.hits[M_RULE_PD_2] = 3;  /* the corpus reached two rules */
	cov.hits[M_RULE_MR_KEY_1] = 5;
	ck_assert_int_eq(ex_campaign_start(cp, NULL, 2, &cov), 0);
	ck_assert_uint_eq(ex_campaign_unreached(cp, ids, sizeof(ids)), 2);
	snprintf(want, sizeof(want), "%s %s", m_rule_info(M_RULE_PD_2)->id, m_rule_info(M_RULE_MR_KEY_1)->id);
	ck_assert_str_eq(ids, want);
	cov.hits[M_RULE_MR_KEY_1]++; /* the run hit one of them, and a rule the corpus did not reach */
	cov.hits[M_RULE_PD_3]++;
	ck_assert_uint_eq(ex_campaign_unreached(cp, ids, sizeof(ids)), 1);
	ck_assert_str_eq(ids, m_rule_info(M_RULE_PD_2)->id);
	ck_assert_uint_eq(ex_campaign_unreached(cp, ids, 3), 1); /* cut short, still a string */
	ck_assert_uint_le(strlen(ids), 2);
	cov.hits[M_RULE_PD_2]++;
	ck_assert_uint_eq(ex_campaign_unreached(cp, ids, sizeof(ids)), 0);
	ck_assert_str_eq(ids, "");
	free(cp);
}
END_TEST

START_TEST(test_no_directory_keeps_nothing_and_dirs_are_made)
{
	struct ex_campaign *cp = calloc(1, sizeof(*cp));
	struct ex_cov cov = { 0 }, after = { 0 };
	struct ex_case c = { 0 };
	char dir[] = "/tmp/rdmacheck-camp-XXXXXX", sub[128];
	struct stat sb;

	ck_assert_ptr_nonnull(cp);
	ck_assert_int_eq(ex_campaign_start(cp, NULL, 0, &cov), 0);
	after.hits[0] = 1; /* a new rule: still nothing written without a directory */
	ck_assert_int_eq(ex_campaign_case(cp, &c, &cov, &after, 1), 0);
	ck_assert_uint_eq(cp->kept, 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/a/b/corpus", dir);
	ck_assert_int_eq(ex_campaign_start(cp, sub, 0, &cov), 0);
	ck_assert_int_eq(stat(sub, &sb), 0);
	ck_assert(S_ISDIR(sb.st_mode));
	ck_assert_uint_eq(cp->resumed, 0);
	ck_assert_uint_eq(cp->next, 1);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/a/b", dir);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	rmdir(sub);
	rmdir(dir);
	free(cp);
}
END_TEST

Suite *suite_test_explore_campaign(void)
{
	Suite *s = suite_create("explore_campaign");
	TCase *tc = tcase_create("campaign");

	tcase_add_test(tc, test_points_stay_bounded_and_in_order);
	tcase_add_test(tc, test_no_directory_keeps_nothing_and_dirs_are_made);
	tcase_add_test(tc, test_unreached_lists_the_corpus_rules_not_hit);
	suite_add_tcase(s, tc);
	return s;
}

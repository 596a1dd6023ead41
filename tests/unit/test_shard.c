/*
 * Unit tests of run --shard (harness/corpus/shard.c) and of reading results
 * back (harness/corpus/history.c), which --shard-times, --rerun-failed and
 * rdmacheck merge share.
 */
#define _GNU_SOURCE /* setenv */
#include "harness/corpus/history.h"
#include "harness/corpus/shard.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_shard_parse)
{
	struct shard s;

	ck_assert_int_eq(shard_parse("2/4", &s), 0);
	ck_assert_uint_eq(s.index, 2);
	ck_assert_uint_eq(s.total, 4);
	ck_assert_int_eq(shard_parse("1/1", &s), 0);
	ck_assert_int_eq(shard_parse("1000/1000", &s), 0);
	ck_assert_int_eq(shard_parse("0/4", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("5/4", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("1/1001", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("-1/4", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("1/-4", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("1/4x", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("1x/4", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("/4", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("1/", &s), -EINVAL);
	ck_assert_int_eq(shard_parse("14", &s), -EINVAL);
}
END_TEST

START_TEST(test_shard_env_gitlab_only)
{
	struct shard s = { 0 };
	char err[200];

	unsetenv("GITLAB_CI");
	setenv("CI_NODE_INDEX", "2", 1);
	setenv("CI_NODE_TOTAL", "3", 1);
	ck_assert_int_eq(shard_env(&s, err, sizeof(err)), 0); /* not GitLab: the variables are someone else's */
	ck_assert_uint_eq(s.total, 0);
	setenv("GITLAB_CI", "true", 1);
	ck_assert_int_eq(shard_env(&s, err, sizeof(err)), 1);
	ck_assert_uint_eq(s.index, 2);
	ck_assert_uint_eq(s.total, 3);
	setenv("CI_NODE_INDEX", "4", 1);
	ck_assert_int_eq(shard_env(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "CI_NODE_INDEX=4"));
	unsetenv("CI_NODE_INDEX");
	ck_assert_int_eq(shard_env(&s, err, sizeof(err)), 0);
	unsetenv("GITLAB_CI");
	unsetenv("CI_NODE_TOTAL");
}
END_TEST

#define NF 37

/* Every file in exactly one of the total shards; the shards' step sums within the heaviest file of each other. */
static void check_partition(unsigned total, char **paths, const size_t *steps, const struct shard_times *t)
{
	unsigned owner[NF] = { 0 };
	double load[16] = { 0 }, lo = 1e18, hi = 0, heaviest = 0;

	for (unsigned k = 1; k <= total; k++) {
		struct shard s = { k, total };
		unsigned char mine[NF];

		ck_assert_int_eq(shard_pick(&s, NF, paths, steps, t, mine), 0);
		for (size_t i = 0; i < NF; i++)
			if (mine[i]) {
				ck_assert_uint_eq(owner[i], 0); /* in no other shard */
				owner[i] = k;
				load[k - 1] += (double)steps[i];
			}
	}
	for (size_t i = 0; i < NF; i++) {
		ck_assert_uint_ne(owner[i], 0); /* in some shard */
		if ((double)steps[i] > heaviest)
			heaviest = (double)steps[i];
	}
	for (unsigned k = 0; k < total; k++) {
		lo = load[k] < lo ? load[k] : lo;
		hi = load[k] > hi ? load[k] : hi;
	}
	if (!t)
		ck_assert(hi - lo <= heaviest);
}

START_TEST(test_shard_pick_disjoint_complete_balanced)
{
	char *paths[NF], buf[NF][32];
	size_t steps[NF];

	for (size_t i = 0; i < NF; i++) {
		snprintf(buf[i], sizeof(buf[i]), "scenarios/x/%03zu.scn", (i * 7) % NF);
		paths[i] = buf[i];
		steps[i] = 1 + (i * 13) % 29;
	}
	for (unsigned total = 1; total <= 16; total++)
		check_partition(total, paths, steps, NULL);
}
END_TEST

START_TEST(test_shard_pick_by_recorded_times)
{
	/* Two files recorded as slow: with 2 shards they go to different jobs, whatever their steps say. */
	char *paths[4] = { "a.scn", "b.scn", "c.scn", "d.scn" };
	size_t steps[4] = { 1, 1, 50, 50 };
	char *tf[2] = { "a.scn", "b.scn" };
	double ts[2] = { 100, 90 };
	unsigned cnt[2] = { 1, 1 };
	struct shard_times t = { 2, tf, ts, cnt };
	struct shard s1 = { 1, 2 };
	unsigned char mine[4];

	ck_assert_int_eq(shard_pick(&s1, 4, paths, steps, &t, mine), 0);
	ck_assert_int_ne(mine[0], mine[1]);
	/* c and d are unrecorded: at the recorded seconds per step (190/2 = 95 s a step) they weigh
	 * 4750 s each, so they too go apart */
	ck_assert_int_ne(mine[2], mine[3]);
	/* and the same inputs give the same answer */
	{
		unsigned char again[4];

		ck_assert_int_eq(shard_pick(&s1, 4, paths, steps, &t, again), 0);
		ck_assert_mem_eq(mine, again, 4);
	}
}
END_TEST

START_TEST(test_shard_zero_times_still_spread)
{
	/* A run on the model records 0 s for every file: the shares must still be even. */
	char *paths[8] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	size_t steps[8] = { 3, 3, 3, 3, 3, 3, 3, 3 };
	double ts[8] = { 0 };
	unsigned cnt[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	struct shard_times t = { 8, paths, ts, cnt };
	unsigned n[4] = { 0 };

	for (unsigned k = 1; k <= 4; k++) {
		struct shard s = { k, 4 };
		unsigned char mine[8];

		ck_assert_int_eq(shard_pick(&s, 8, paths, steps, &t, mine), 0);
		for (int i = 0; i < 8; i++)
			n[k - 1] += mine[i];
	}
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(n[k], 2);
}
END_TEST

struct seen {
	unsigned scenarios, others;
	struct result first, decoy;
};

static int count(void *ctx, const struct result *r, const char *text)
{
	struct seen *s = ctx;

	ck_assert_ptr_nonnull(text);
	if (!r) {
		s->others++;
		return 0;
	}
	if (s->scenarios == 0)
		s->first = *r;
	if (strstr(r->reason, "decoy"))
		s->decoy = *r;
	s->scenarios++;
	return 0;
}

START_TEST(test_history_reads_the_fixture)
{
	struct seen s = { 0 };
	size_t skipped = 0;
	char err[256];

	ck_assert_int_eq(hist_read("tests/fixtures/results/latest/results.jsonl", count, &s, &skipped, err,
				   sizeof(err)), 0);
	ck_assert_uint_eq(s.scenarios, 6);
	ck_assert_uint_eq(s.others, 2); /* the run line and the summary line */
	ck_assert_uint_eq(skipped, 1);  /* "not json at all" */
	ck_assert_str_eq(err, "tests/fixtures/results/latest/results.jsonl:8: not a JSON object (a line cut short?)");
	ck_assert_str_eq(s.first.file, "scenarios/TEMPLATE.scn");
	ck_assert_int_eq(s.first.v, V_PASS);
	ck_assert_str_eq(s.decoy.file, "scenarios/examples/rdma-write-after-dereg.scn"); /* not the string's */
	ck_assert_int_eq(s.decoy.v, V_FAIL);
	ck_assert(s.decoy.secs > 0.09 && s.decoy.secs < 0.11);
	{
		enum m_rule rule;

		ck_assert_int_eq(m_rule_find("RA-KEY-1", &rule), 0);
		ck_assert(result_rule_has(&s.decoy, rule));
	}
	ck_assert_int_eq(hist_read("tests/fixtures/results/none.jsonl", count, &s, NULL, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "none.jsonl"));
}
END_TEST

static int stop_at_second(void *ctx, const struct result *r, const char *text)
{
	unsigned *n = ctx;

	(void)text;
	return r && ++*n == 2 ? 42 : 0;
}

START_TEST(test_history_callback_stops)
{
	unsigned n = 0;
	char err[64], path[64];

	ck_assert_int_eq(hist_read("tests/fixtures/results/latest/results.jsonl", stop_at_second, &n, NULL, err,
				   sizeof(err)), 42);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(hist_path("tests/fixtures/results/latest", path, sizeof(path)), 0);
	ck_assert_str_eq(path, "tests/fixtures/results/latest/results.jsonl");
	ck_assert_int_eq(hist_path("tests/fixtures/results/latest/results.jsonl", path, sizeof(path)), 0);
	ck_assert_str_eq(path, "tests/fixtures/results/latest/results.jsonl");
}
END_TEST

Suite *suite_test_shard(void)
{
	Suite *s = suite_create("test_shard");
	TCase *tc = tcase_create("shard");

	tcase_add_test(tc, test_shard_parse);
	tcase_add_test(tc, test_shard_env_gitlab_only);
	tcase_add_test(tc, test_shard_pick_disjoint_complete_balanced);
	tcase_add_test(tc, test_shard_pick_by_recorded_times);
	tcase_add_test(tc, test_shard_zero_times_still_spread);
	tcase_add_test(tc, test_history_reads_the_fixture);
	tcase_add_test(tc, test_history_callback_stops);
	suite_add_tcase(s, tc);
	return s;
}

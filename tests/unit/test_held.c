/*
 * Unit tests of the scenarios the kernel holds (harness/corpus/held.c): the
 * ones an earlier run recorded at HELD_MIN_S or more, which the VM run starts
 * first in a guest of their own (issue 32), and the ones that register more
 * than HELD_PIN_MB (issue 30: verbs/450's 1 GiB MR).
 */
#include "harness/corpus/held.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

START_TEST(test_held_by_recorded_seconds)
{
	char *file[] = { "s/a.scn", "s/long.scn", "s/b.scn", "s/edge.scn" };
	double secs[] = { 4.3, 52.2, 0.1, HELD_MIN_S };
	unsigned count[] = { 1, 1, 1, 1 };
	struct shard_times t = { .n = 4, .file = file, .secs = secs, .count = count };
	char *paths[] = { "s/b.scn", "s/new.scn", "s/long.scn", "s/edge.scn", "s/a.scn" };
	unsigned char held[5];

	ck_assert_uint_eq(held_pick(5, paths, &t, NULL, held), 2);
	ck_assert_uint_eq(held[0], 0);
	ck_assert_uint_eq(held[1], 0); /* not recorded: nothing says it is long */
	ck_assert_uint_eq(held[2], 1);
	ck_assert_uint_eq(held[3], 1); /* at the bound */
	ck_assert_uint_eq(held[4], 0);
	ck_assert_uint_eq(held_pick(5, paths, NULL, NULL, held), 0);
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(held[i], 0);
}
END_TEST

/* A file whose registrations pass HELD_PIN_MB is held, recorded or not; one at the bound is not. */
START_TEST(test_held_by_pinned_memory)
{
	char *file[] = { "s/long.scn" };
	double secs[] = { 52.2 };
	unsigned count[] = { 1 };
	struct shard_times t = { .n = 1, .file = file, .secs = secs, .count = count };
	char *paths[] = { "s/a.scn", "s/big.scn", "s/edge.scn", "s/long.scn" };
	uint64_t pinned[] = { 4096, (uint64_t)1 << 30, (uint64_t)HELD_PIN_MB << 20, 0 };
	unsigned char held[4];

	ck_assert_uint_eq(held_pick(4, paths, &t, pinned, held), 2);
	ck_assert_uint_eq(held[0], 0);
	ck_assert_uint_eq(held[1], 1); /* not recorded: its memory says so */
	ck_assert_uint_eq(held[2], 0); /* at the bound: the default guest holds it */
	ck_assert_uint_eq(held[3], 1);
	ck_assert_uint_eq(held_pick(4, paths, NULL, pinned, held), 1);
	ck_assert_uint_eq(held[1], 1);
	ck_assert_uint_eq(held[3], 0);
}
END_TEST

/* The committed record: verbs/290's 50 s in rxe 6.1's __rxe_cleanup is held, the next longest (CPU) is not. */
START_TEST(test_held_in_the_record)
{
	struct shard_times t;
	char err[512];
	char *paths[] = { "scenarios/verbs/290-qp-destroy-with-type2-bound.scn",
			  "scenarios/rpmem/029-manpage-32m-single-part.scn", "scenarios/TEMPLATE.scn" };
	unsigned char held[3];

	ck_assert_int_eq(shard_times_read(HELD_RECORD, &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(held_pick(3, paths, &t, NULL, held), 1);
	ck_assert_uint_eq(held[0], 1);
	ck_assert_uint_eq(held[1], 0);
	ck_assert_uint_eq(held[2], 0);
	shard_times_free(&t);
}
END_TEST

Suite *suite_test_held(void)
{
	Suite *s = suite_create("test_held");
	TCase *tc = tcase_create("held");

	tcase_add_test(tc, test_held_by_recorded_seconds);
	tcase_add_test(tc, test_held_by_pinned_memory);
	tcase_add_test(tc, test_held_in_the_record);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of careful reruns (careful.h): --careful's list is written and
 * read back; the notes. (Batched records: test_records.c.)
 */
#include "harness/suite/careful.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_careful_option_round_trip)
{
	char flag[12] = { 0 }, buf[64];

	ck_assert_str_eq(careful_option(flag, 0, 12, buf, sizeof(buf)), "");
	flag[3] = flag[10] = 1;
	ck_assert_str_eq(careful_option(flag, 0, 12, buf, sizeof(buf)), "--careful=3,10");
	ck_assert_str_eq(careful_option(flag, 4, 12, buf, sizeof(buf)), "--careful=10"); /* from the round's first */
	ck_assert_str_eq(careful_option(flag, 0, 12, buf, 14), ""); /* does not fit: none */
	ck_assert_int_eq(careful_has("3,10", 3), 1);
	ck_assert_int_eq(careful_has("3,10", 10), 1);
	ck_assert_int_eq(careful_has("3,10", 1), 0);
	ck_assert_int_eq(careful_has("3,10", 0), 0);
	ck_assert_int_eq(careful_has(NULL, 0), 0);
	ck_assert_int_eq(careful_has("x,0", 0), 0); /* malformed: none */
}
END_TEST

START_TEST(test_careful_note)
{
	char *d = NULL;

	ck_assert_int_eq(careful_note(&d, CAREFUL_NOTE), 0);
	ck_assert_str_eq(d, CAREFUL_NOTE);
	free(d);
	d = strdup("  line 4: the kernel died\n");
	ck_assert_int_eq(careful_note(&d, CAREFUL_NOTE), 0);
	ck_assert_str_eq(d, "  line 4: the kernel died\n" CAREFUL_NOTE);
	free(d);
}
END_TEST

Suite *suite_test_careful(void)
{
	Suite *s = suite_create("test_careful");
	TCase *tc = tcase_create("careful");

	tcase_add_test(tc, test_careful_option_round_trip);
	tcase_add_test(tc, test_careful_note);
	suite_add_tcase(s, tc);
	return s;
}

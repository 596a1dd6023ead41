/*
 * Unit tests of batched step records and careful reruns (records.h,
 * careful.h): a batched scenario's start says so and its steps are a beat
 * only; a later start of the same scenario (its careful rerun) replaces what
 * the batched run said; --careful's list is written and read back; the note.
 */
#include "harness/cli/careful.h"
#include "harness/cli/records.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];
static FILE *f;

static void setup(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/rdmacheck-careful-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
}

static void teardown(void)
{
	if (f)
		fclose(f);
	f = NULL;
	unlink(path);
}

/* The lines of the records file so far. */
static int lines(void)
{
	FILE *r = fopen(path, "r");
	int n = 0, c;

	ck_assert_ptr_nonnull(r);
	while ((c = fgetc(r)) != EOF)
		n += c == '\n';
	fclose(r);
	return n;
}

START_TEST(test_batched_start_and_beat)
{
	struct result rs[1] = { 0 };
	struct rec_state st[1] = { 0 };
	double beat = 0;

	rec_start_batched(f, 0);
	rec_step_beat(f, 0, 7, &beat); /* the first step beats: none before it */
	ck_assert_double_gt(beat, 0);
	for (uint32_t line = 8; line < 200; line++)
		rec_step_beat(f, 0, line, &beat); /* within REC_BEAT_S: not written */
	fflush(f);
	ck_assert_int_eq(lines(), 2);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_int_eq(st[0].started, 1);
	ck_assert_int_eq(st[0].batched, 1);
	ck_assert_int_eq(st[0].finished, 0);
	ck_assert_uint_eq(st[0].step_line, 7);
	beat -= REC_BEAT_S; /* a beat's time later */
	rec_step_beat(f, 0, 300, &beat);
	ck_assert_int_eq(lines(), 3);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_uint_eq(st[0].step_line, 300);
}
END_TEST

START_TEST(test_careful_start_replaces_the_batched_run)
{
	struct result rs[2] = { 0 };
	struct rec_state st[2] = { 0 };

	rec_start_batched(f, 1);
	rec_step(f, 1, 40, 0, "");
	fflush(f);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[1].batched, 1);
	rec_start(f, 1); /* the careful run, before its first step */
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[1].started, 1);
	ck_assert_int_eq(st[1].batched, 0);
	ck_assert_uint_eq(st[1].step_line, 0);
	rec_step(f, 1, 12, 1, "MW-INV-3: panics");
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_uint_eq(st[1].step_line, 12);
	ck_assert_int_eq(st[1].step_crash, 1);
	ck_assert_str_eq(st[1].step_note, "MW-INV-3: panics");
	ck_assert_int_eq(st[0].started, 0);
}
END_TEST

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

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_batched_start_and_beat);
	tcase_add_test(tc, test_careful_start_replaces_the_batched_run);
	tcase_add_test(tc, test_careful_option_round_trip);
	tcase_add_test(tc, test_careful_note);
	suite_add_tcase(s, tc);
	return s;
}

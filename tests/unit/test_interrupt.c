/*
 * Unit tests of what an interrupted run reports (harness/suite/state.c's
 * outer_mark_interrupted, outer.h): a scenario running is an ERROR at its
 * step; every one that had not begun is not run, wherever it sits in the list
 * (the crash-predicted ones held back to run last come before the one
 * running), and counted, not reported one by one.
 */
#include "harness/suite/interrupt.h"
#include "harness/suite/suite.h"

#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_interrupted_marks_held_back_ones_not_run)
{
	char *names[] = { "057.scn", "058.scn", "100.scn", "101.scn", "102.scn" };
	struct result rs[5];
	struct rec_state st[5];
	struct outer o = { .rs = rs, .st = st, .fl = { .v = names, .n = 5 } };

	memset(rs, 0, sizeof(rs));
	memset(st, 0, sizeof(st));
	st[1].deferred = 1;                 /* a side round's, not begun */
	st[2].finished = 1;                 /* ran: kept as it is */
	rs[2].v = V_PASS;
	st[3].started = 1;                  /* running at the signal */
	st[3].step_line = 7;
	/* 0 (held back to run last) and 4 had not begun */
	ck_assert_int_eq(interrupt_install(), 0);
	raise(SIGINT);                      /* only noted (a test runs in a process of its own) */
	ck_assert_int_eq(interrupt_caught(), SIGINT);
	outer_mark_interrupted(&o);
	for (int i = 0; i < 5; i++)
		ck_assert_msg(st[i].finished, "%d", i);
	ck_assert_uint_eq(o.not_run, 3);
	ck_assert(st[0].not_run && st[1].not_run && st[4].not_run);
	ck_assert(!st[2].not_run && !st[3].not_run);
	ck_assert_int_eq(rs[0].v, V_SKIP);
	ck_assert_str_eq(rs[0].reason, "not run: the run was interrupted (Interrupt)");
	ck_assert_int_eq(rs[2].v, V_PASS);
	ck_assert_int_eq(rs[3].v, V_ERROR);
	ck_assert_uint_eq(rs[3].line, 7);
	ck_assert_str_eq(rs[3].reason, "line 7: interrupted (Interrupt)");
}
END_TEST

Suite *suite_test_interrupt(void)
{
	Suite *s = suite_create("test_interrupt");
	TCase *tc = tcase_create("interrupt");

	tcase_add_test(tc, test_interrupted_marks_held_back_ones_not_run);
	suite_add_tcase(s, tc);
	return s;
}

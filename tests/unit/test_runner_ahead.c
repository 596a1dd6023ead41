/*
 * Unit tests of run-ahead (harness/run/runner.c send_ahead, issue 18): the
 * runner sends the engine a node's object calls before the earlier ones are
 * answered, and judges every step as without it, in order. The engine is
 * runner_fx.h's fake, taking only a PD's calls ahead and keeping the order of
 * what was sent and taken; it answers ok (or, for one scenario object, EBUSY)
 * and has no view of objects (no reference, attribute or memory).
 */
#include "tests/unit/runner_fx.h"
#include "harness/run/run_ahead.h"

/* Run text on the fake (run-ahead on or off; object busy answers EBUSY; any: the fake takes several nodes'
 * calls ahead together, as the stack does); the verdict into *r, the caller clears it. */
static void run_on(const char *text, int ahead, int32_t busy, int any, struct result *r)
{
	struct run_opts o = { .mode = RUN_REAL, .ahead = ahead };
	struct scn_file *f;

	fk_reset();
	fk.ahead_pd_only = 1;
	fk.ahead_any_node = any;
	memset(fk.forget, 1, sizeof(fk.forget));
	f = parse(text);
	for (size_t i = 0; busy >= 0 && i < f->nsteps; i++) /* every step runs on the engine: step i is the i-th run */
		if (f->steps[i].obj == busy)
			fk.step[i] = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EBUSY } };
	ck_assert_int_eq(m_profile_get("rxe", 0, &o.prof), 0);
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, r), 0);
	scn_free(f);
}

static void run(const char *text, int ahead, int32_t busy, struct result *r)
{
	run_on(text, ahead, busy, 0, r);
}

static const char pairs[] = "title pairs\nnodes a b\n"
			    "a: alloc_pd p1\na: dealloc_pd p1\na: alloc_pd p2\na: dealloc_pd p2\n" /* objects 0, 1 */
			    "b: alloc_pd q\n"                                                     /* object 2 */
			    "a: alloc_pd p3\na: dealloc_pd p3\n";                                 /* object 3 */

START_TEST(test_ahead_sends_a_nodes_object_calls_before_their_answers)
{
	static const char *const want[] = { "a0", "a0", "a1", "a1", "x0", "x0", "x1", "x1", "a2", "x2", "a3", "a3", "x3", "x3" };
	struct result r;

	run(pairs, 1, -1, &r);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	ck_assert_uint_eq(r.steps_run, 7);
	ck_assert_uint_eq(fk.nlog, 14);
	for (unsigned i = 0; i < fk.nlog; i++) /* node a's four, then b's alone, then a's two */
		ck_assert_msg(strcmp(fk.log[i], want[i]) == 0, "event %u: %s, want %s", i, fk.log[i], want[i]);
	result_clear(&r);
}
END_TEST

START_TEST(test_ahead_sends_several_nodes_object_calls_together)
{
	static const char *const want[] = { "a0", "a0", "a1", "a1", "a2", "a3", "a3", "x0", "x0", "x1", "x1", "x2", "x3", "x3" };
	struct result r;

	run_on(pairs, 1, -1, 1, &r);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	ck_assert_uint_eq(fk.nlog, 14);
	for (unsigned i = 0; i < fk.nlog; i++) /* every step sent before the first answer: each acts on its own node */
		ck_assert_msg(strcmp(fk.log[i], want[i]) == 0, "event %u: %s, want %s", i, fk.log[i], want[i]);
	result_clear(&r);
}
END_TEST

/* A window of several nodes holds no post: another node's step could change what the post meets (its peer QP,
 * the memory it reaches), and the post's peer observation asks another node. */
START_TEST(test_ahead_mixes_nodes_only_for_calls_on_their_own_node)
{
	static const char text[] = "title mixed\nnodes a b\n"
				   "a: alloc_pd p\na: reg_mr m pd=p len=64 access=LOCAL_WRITE\na: create_qp qa pd=p\n"
				   "b: alloc_pd pb\nb: reg_mr mb pd=pb len=64 access=LOCAL_WRITE|REMOTE_WRITE\n"
				   "b: create_qp qb pd=pb\nconnect a.qa b.qb\n"
				   "a: write qa local=m+0 remote=b.mb+0 len=8 expect SUCCESS\n" /* step 7 */
				   "b: alloc_pd pc\na: alloc_pd pd\nb: dealloc_pd pc\n";        /* steps 8-10 */
	struct scn_file *f;

	fk_reset();
	fk.ahead_any_node = 1;
	f = parse(text);
	ck_assert_uint_eq(run_ahead_send(f, &fake_ops, NULL, 0, 0, 1), 6); /* the set-up, to connect */
	fk_reset();
	fk.ahead_any_node = 1;
	ck_assert_uint_eq(run_ahead_send(f, &fake_ops, NULL, 0, 0, 0), 3); /* not mixed: node a's three */
	fk_reset();
	fk.ahead_any_node = 1;
	memset(fk.created, 1, sizeof(fk.created)); /* the set-up ran: the engine knows m and mb */
	ck_assert_uint_eq(run_ahead_send(f, &fake_ops, NULL, 7, 7, 1), 8); /* the post, then no other node's step */
	fk_reset();
	fk.ahead_any_node = 1;
	ck_assert_uint_eq(run_ahead_send(f, &fake_ops, NULL, 8, 8, 1), 11); /* after it, both nodes' again */
	scn_free(f);
}
END_TEST

START_TEST(test_ahead_off_sends_nothing_ahead)
{
	struct result r;

	run(pairs, 0, -1, &r);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_int_eq(fk.ahead_calls, 0);
	ck_assert_str_eq(fk.log[0], "x0");
	result_clear(&r);
}
END_TEST

START_TEST(test_ahead_judges_as_without_it)
{
	struct result on, off;

	run(pairs, 0, 1, &off); /* p2's alloc answers EBUSY: outside the allowed set */
	run(pairs, 1, 1, &on);
	ck_assert_int_eq(off.v, V_FAIL);
	ck_assert_int_eq(on.v, off.v);
	ck_assert_uint_eq(on.line, off.line);
	ck_assert_uint_eq(on.line, 5);
	ck_assert_str_eq(on.reason, off.reason);
	ck_assert_uint_eq(on.steps_run, off.steps_run);
	ck_assert_uint_eq(fk.nq, 1); /* p2's dealloc: sent ahead, never judged (the run stopped before it) */
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_ahead_never_sends_a_step_that_needs_the_engines_view)
{
	static const char text[] = "title view\nnodes a\na: alloc_pd p\n"
				   "a: reg_mr m pd=p len=64 access=LOCAL_WRITE\n"
				   "a: reg_mr n pd=p len=64 access=LOCAL_WRITE iova=m.addr\n";
	struct result r;

	run(text, 1, -1, &r);
	/* the fake takes no reg_mr ahead (offered at steps 1 and 2); the third step is never
	 * offered: its iova= is the engine's view of m */
	ck_assert_int_eq(fk.ahead_calls, 3);
	ck_assert_int_eq(fk.offered_max, 1);
	result_clear(&r);
}
END_TEST

START_TEST(test_ahead_tops_the_window_up_by_halves)
{
	char text[8192] = "title many\nnodes a\n";
	unsigned runs = 0, len = 0, sent = 0;
	struct result r;

	for (int i = 0; i < 80; i++) /* 160 steps, objects 0..79 */
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "a: alloc_pd p%d\na: dealloc_pd p%d\n", i, i);
	run(text, 1, -1, &r);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	for (unsigned i = 0; i <= fk.nlog; i++) { /* the runs of requests sent together */
		if (i < fk.nlog && fk.log[i][0] == 'a') {
			len++;
			continue;
		}
		if (len) {
			runs++;
			sent += len;
			/* the first fills the window (128); the others top it up by at least half, but for the last */
			ck_assert_msg(runs == 1 ? len == RUN_AHEAD : len >= RUN_AHEAD / 2 || sent == 160,
				      "run %u of %u requests", runs, len);
		}
		len = 0;
	}
	ck_assert_uint_eq(sent, 160);
	ck_assert_uint_le(runs, 2); /* 128, then the last 32 (a window of 32: 32, 16, 16, ...; one a step: 160) */
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_ahead(void)
{
	Suite *s = suite_create("runner_ahead");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ahead_sends_a_nodes_object_calls_before_their_answers);
	tcase_add_test(tc, test_ahead_sends_several_nodes_object_calls_together);
	tcase_add_test(tc, test_ahead_mixes_nodes_only_for_calls_on_their_own_node);
	tcase_add_test(tc, test_ahead_off_sends_nothing_ahead);
	tcase_add_test(tc, test_ahead_judges_as_without_it);
	tcase_add_test(tc, test_ahead_never_sends_a_step_that_needs_the_engines_view);
	tcase_add_test(tc, test_ahead_tops_the_window_up_by_halves);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of run-ahead of posts (harness/run/runner.c ahead_ok,
 * late_doubt; issue 18): a node's WRITEs that expect SUCCESS go to the engine
 * before the earlier steps are answered; a peer QP seen in ERR after later
 * posts ran is not judged but asks for a run without run-ahead
 * (result.rerun); a peer seen in RTS is judged as without run-ahead; posts
 * that expect an error, or name no outcome, wait for their turn.
 * The engine is runner_fx.h's fake, taking any call ahead: every call ok, a
 * post's completion SUCCESS, and the peer QP in the state the test sets.
 */
#include "tests/unit/runner_fx.h"

/* Run text (run-ahead on or off) with the peer in state after `after` steps; the verdict into *r. */
static void run(const char *text, int ahead, int state, unsigned after, struct result *r)
{
	struct run_opts o = { .mode = RUN_REAL, .ahead = ahead };
	struct scn_file *f;

	fk_reset();
	for (unsigned i = after ? after - 1 : 0; i < FK_STEPS; i++) /* the peer as the last step sent's entry says */
		fk.step[i] = (struct fk_step){ .has_peer = 1, .peer_state = state, .peer_recv = -1 };
	f = parse(text);
	ck_assert_int_eq(m_profile_get("rxe", 0, &o.prof), 0);
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, r), 0);
	scn_free(f);
}

#define SETUP "title posts\nnodes a b\n" \
	"a: alloc_pd pd\na: reg_mr m pd=pd len=4K access=LOCAL_WRITE\na: create_qp q pd=pd\n" \
	"b: alloc_pd pd\nb: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\nb: create_qp q pd=pd\n" \
	"connect a.q b.q\n"
#define WRITE "a: write q local=m+0 remote=b.m+0 len=64 expect SUCCESS\n"

static const char writes[] = SETUP WRITE WRITE WRITE WRITE WRITE WRITE; /* lines 10-15, the 8th to 13th steps */

START_TEST(test_posts_that_expect_success_run_ahead)
{
	struct result r;

	run(writes, 1, M_QPS_RTS, 0, &r);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	ck_assert_int_eq(r.rerun, 0);
	ck_assert_uint_eq(fk.posts_ahead, 6);
	ck_assert_uint_ge(fk.max_q, 6); /* all six in flight at once */
	result_clear(&r);
}
END_TEST

START_TEST(test_peer_in_err_seen_late_asks_for_a_run_without_ahead)
{
	struct result on, off;

	run(writes, 0, M_QPS_ERR, 9, &off); /* the peer goes to ERR with the second write (the 9th step) */
	ck_assert_int_eq(off.v, V_FAIL);
	ck_assert_uint_eq(off.line, 11); /* without run-ahead: the second write's peer check */
	ck_assert_int_eq(off.rerun, 0);
	run(writes, 1, M_QPS_ERR, 9, &on);
	ck_assert_int_eq(on.v, V_ERROR);
	ck_assert_int_eq(on.rerun, 1);
	ck_assert_uint_eq(on.line, 10); /* the first write's peer, seen after the second ran */
	ck_assert_ptr_nonnull(strstr(on.reason, "run-ahead"));
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_peer_in_rts_seen_late_is_judged_as_without_ahead)
{
	struct result on, off;

	run(writes, 0, M_QPS_RTS, 0, &off);
	run(writes, 1, M_QPS_RTS, 0, &on);
	ck_assert_int_eq(on.v, off.v);
	ck_assert_int_eq(on.v, V_PASS);
	ck_assert_uint_eq(on.steps_run, off.steps_run);
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_posts_wait_when_they_expect_an_error_or_nothing)
{
	static const char err_expected[] = SETUP WRITE "a: write q local=m+0 remote=b.m+0 len=64 expect REM_ACCESS_ERR|SUCCESS\n";
	static const char no_expect[] = SETUP "a: write q local=m+0 remote=b.m+0 len=64\n";
	struct result r;

	run(err_expected, 1, M_QPS_RTS, 0, &r);
	ck_assert_uint_eq(fk.posts_ahead, 1); /* the first only */
	result_clear(&r);
	run(no_expect, 1, M_QPS_RTS, 0, &r);
	ck_assert_uint_eq(fk.posts_ahead, 0);
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_ahead_post(void)
{
	Suite *s = suite_create("runner_ahead_post");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_posts_that_expect_success_run_ahead);
	tcase_add_test(tc, test_peer_in_err_seen_late_asks_for_a_run_without_ahead);
	tcase_add_test(tc, test_peer_in_rts_seen_late_is_judged_as_without_ahead);
	tcase_add_test(tc, test_posts_wait_when_they_expect_an_error_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

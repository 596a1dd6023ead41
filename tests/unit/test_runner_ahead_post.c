/*
 * Unit tests of run-ahead of posts (harness/run/runner.c ahead_ok,
 * late_doubt; issue 18): a node's WRITEs that expect SUCCESS go to the engine
 * before the earlier steps are answered; a peer QP seen in ERR after later
 * posts ran is not judged but asks for a run without run-ahead
 * (result.rerun); a peer seen in RTS is judged as without run-ahead; posts
 * that expect an error, or name no outcome, wait for their turn.
 * The engine is a fake: every call ok, a post's completion SUCCESS, and the
 * peer QP in the state the test sets.
 */
#include "tests/unit/fake_engine_fx.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct {
	unsigned nq;               /* requests sent ahead and not taken */
	unsigned max_q;            /* the most in flight at once */
	unsigned posts_ahead;      /* posts sent ahead */
	unsigned execs;            /* steps run */
	int peer_state;            /* what peer() shows after the first post ran */
	unsigned peer_after;       /* ... once this many steps have run (then RTS before) */
} fk;

static int fk_exec(void *be, const struct hcall *c, struct hres *r)
{
	(void)be;
	memset(r, 0, sizeof(*r));
	if (fk.nq)
		fk.nq--;
	fk.execs++;
	r->out = c->op == M_OP_WRITE ? (struct m_outcome){ M_OUT_WC, M_WC_SUCCESS } : (struct m_outcome){ M_OUT_OK, 0 };
	return 0;
}

static int fk_ahead(void *be, const struct hcall *c)
{
	(void)be;
	fk.posts_ahead += c->op == M_OP_WRITE;
	if (++fk.nq > fk.max_q)
		fk.max_q = fk.nq;
	return 0;
}

static int fk_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	(void)be, (void)qp, (void)wait_ms;
	/* the steps sent ahead have run by the time the peer is asked (as on the stack: written before the wait) */
	out->state = fk.execs + fk.nq >= fk.peer_after ? fk.peer_state : M_QPS_RTS;
	out->recv = -1;
	return 0;
}

static const struct backend_ops fake = {
	.name = "fake", .exec = fk_exec, .ref = fx_ref, .attr = fx_attr, .read = fx_read, .peer = fk_peer,
	.ahead = fk_ahead,
};

/* Run text (run-ahead on or off) with the peer in state after `after` steps; the verdict into *r. */
static void run(const char *text, int ahead, int state, unsigned after, struct result *r)
{
	memset(&fk, 0, sizeof(fk));
	fk.peer_state = state;
	fk.peer_after = after;
	fx_run_text(text, &fake, ahead, r);
}

#define SETUP FX_SETUP
#define WRITE FX_WRITE

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

	tcase_add_test(tc, test_posts_that_expect_success_run_ahead);
	tcase_add_test(tc, test_peer_in_err_seen_late_asks_for_a_run_without_ahead);
	tcase_add_test(tc, test_peer_in_rts_seen_late_is_judged_as_without_ahead);
	tcase_add_test(tc, test_posts_wait_when_they_expect_an_error_or_nothing);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the peer check left to a later look (harness/run/
 * run_verdict.c, issue 18): posts sent ahead on one QP whose peer the
 * model says stays in RTS share one look at the peer; a peer seen otherwise
 * asks for a run without run-ahead, also when a later step fails first; the
 * verdicts are those of the run without run-ahead.
 * The engine is a fake: every call ok, a post's completion SUCCESS (or the
 * error the test sets for one step), the peer QP in the state the test sets.
 */
#include "tests/unit/fake_engine_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static struct {
	unsigned nq;       /* requests sent ahead and not taken */
	unsigned execs;    /* steps run */
	unsigned peers;    /* looks at the peer */
	int peer_state;    /* what peer() shows once peer_after steps ran (RTS before) */
	unsigned peer_after;
	unsigned bad_exec; /* this step (1-based) completes with REM_ACCESS_ERR; 0: none */
	unsigned recv_after; /* a receive completes once this many steps ran (a SEND's); 0: none */
	int recv_taken;    /* a look took it (as ibv_poll_cq on the peer's CQ does) */
} fk;

static int fk_exec(void *be, const struct hcall *c, struct hres *r)
{
	(void)be;
	memset(r, 0, sizeof(*r));
	if (fk.nq)
		fk.nq--;
	fk.execs++;
	r->out = c->op != M_OP_WRITE && c->op != M_OP_SEND ? (struct m_outcome){ M_OUT_OK, 0 } :
		 fk.execs == fk.bad_exec ? (struct m_outcome){ M_OUT_WC, M_WC_REM_ACCESS_ERR } :
					   (struct m_outcome){ M_OUT_WC, M_WC_SUCCESS };
	return 0;
}

static int fk_ahead(void *be, const struct hcall *c)
{
	(void)be, (void)c;
	fk.nq++;
	return 0;
}

static int fk_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	(void)be, (void)qp, (void)wait_ms;
	fk.peers++;
	/* the steps sent ahead have run by the time the peer is asked (as on the stack) */
	out->state = fk.execs + fk.nq >= fk.peer_after ? fk.peer_state : M_QPS_RTS;
	out->recv = -1;
	out->wc.known = 0;
	if (fk.recv_after && fk.execs + fk.nq >= fk.recv_after && !fk.recv_taken) {
		fk.recv_taken = 1;
		out->recv = M_WC_SUCCESS;
	}
	return 0;
}

/* The runner's wait between two looks at the peer: none (the fake's peer changes only as steps run). */
static void fk_pause(void *be, int ms)
{
	(void)be, (void)ms;
}

static const struct backend_ops fake = {
	.name = "fake", .exec = fk_exec, .ref = fx_ref, .attr = fx_attr, .read = fx_read, .peer = fk_peer,
	.ahead = fk_ahead, .pause = fk_pause,
};

/* Run text (run-ahead on or off), the peer in state from step after on, step bad failing; the verdict into *r. */
static void run_recv(const char *text, int ahead, int state, unsigned after, unsigned bad, unsigned recv,
		     struct result *r)
{
	memset(&fk, 0, sizeof(fk));
	fk.peer_state = state;
	fk.peer_after = after;
	fk.bad_exec = bad;
	fk.recv_after = recv;
	fx_run_text(text, &fake, ahead, r);
}

/* run_recv with no receive completing. */
static void run(const char *text, int ahead, int state, unsigned after, unsigned bad, struct result *r)
{
	run_recv(text, ahead, state, after, bad, 0, r);
}

#define SETUP FX_SETUP
#define WRITE FX_WRITE

static const char writes[] = SETUP WRITE WRITE WRITE WRITE WRITE WRITE; /* lines 10-15, the 8th to 13th steps */

START_TEST(test_posts_sent_ahead_share_one_look_at_the_peer)
{
	struct result on, off;

	run(writes, 0, M_QPS_RTS, 0, 0, &off);
	ck_assert_int_eq(off.v, V_PASS);
	ck_assert_uint_eq(fk.peers, 6); /* without run-ahead: one look per write */
	run(writes, 1, M_QPS_RTS, 0, 0, &on);
	ck_assert_msg(on.v == V_PASS, "%s", on.reason);
	ck_assert_int_eq(on.rerun, 0);
	ck_assert_uint_eq(on.steps_run, off.steps_run);
	ck_assert_uint_eq(fk.peers, 1); /* the last write's own look, which the five before share */
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_peer_left_for_later_seen_in_err_asks_for_a_run_without_ahead)
{
	struct result on, off;

	run(writes, 0, M_QPS_ERR, 9, 0, &off); /* the second write (9th step) puts the peer in ERR */
	ck_assert_int_eq(off.v, V_FAIL);
	ck_assert_uint_eq(off.line, 11);
	run(writes, 1, M_QPS_ERR, 9, 0, &on);
	ck_assert_int_eq(on.v, V_ERROR);
	ck_assert_int_eq(on.rerun, 1);
	ck_assert_uint_eq(on.line, 10); /* the first post whose check was left for later */
	ck_assert_ptr_nonnull(strstr(on.reason, "run-ahead"));
	ck_assert_ptr_nonnull(strstr(on.reason, "is ERR where the model says RTS"));
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_a_later_fail_makes_the_check_left_for_later_first)
{
	struct result on, off;

	/* the second write puts the peer in ERR, the fourth (11th step, line 13) fails on its own */
	run(writes, 0, M_QPS_ERR, 9, 11, &off);
	ck_assert_int_eq(off.v, V_FAIL);
	ck_assert_uint_eq(off.line, 11);
	run(writes, 1, M_QPS_ERR, 9, 11, &on);
	ck_assert_int_eq(on.v, V_ERROR); /* not the fourth write's FAIL: the peer check before it comes first */
	ck_assert_int_eq(on.rerun, 1);
	ck_assert_uint_eq(on.line, 10);
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_a_later_fail_after_a_quiet_peer_is_said_as_without_ahead)
{
	struct result on, off;

	run(writes, 0, M_QPS_RTS, 0, 11, &off);
	run(writes, 1, M_QPS_RTS, 0, 11, &on);
	ck_assert_int_eq(off.v, V_FAIL);
	ck_assert_int_eq(on.v, V_FAIL);
	ck_assert_uint_eq(on.line, off.line);
	ck_assert_uint_eq(on.line, 13);
	ck_assert_str_eq(on.reason, off.reason);
	ck_assert_int_eq(on.rerun, 0);
	result_clear(&on);
	result_clear(&off);
}
END_TEST

START_TEST(test_a_send_after_the_posts_shares_its_look_and_keeps_its_receive)
{
	static const char text[] = SETUP "b: recv q local=m+0 len=64\n" WRITE WRITE
		"a: send q local=m+0 len=64 expect SUCCESS\n"; /* the 11th step */
	struct result on, off;

	run_recv(text, 0, M_QPS_RTS, 0, 0, 11, &off);
	ck_assert_msg(off.v == V_PASS, "%s", off.reason);
	ck_assert_uint_eq(fk.peers, 3);
	run_recv(text, 1, M_QPS_RTS, 0, 0, 11, &on);
	ck_assert_msg(on.v == V_PASS, "%s", on.reason); /* the writes' look is the SEND's: its receive is seen */
	ck_assert_uint_eq(fk.peers, 1);
	result_clear(&on);
	result_clear(&off);
}
END_TEST

Suite *suite_test_run_peer_late(void)
{
	Suite *s = suite_create("run_peer_late");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_posts_sent_ahead_share_one_look_at_the_peer);
	tcase_add_test(tc, test_peer_left_for_later_seen_in_err_asks_for_a_run_without_ahead);
	tcase_add_test(tc, test_a_later_fail_makes_the_check_left_for_later_first);
	tcase_add_test(tc, test_a_later_fail_after_a_quiet_peer_is_said_as_without_ahead);
	tcase_add_test(tc, test_a_send_after_the_posts_shares_its_look_and_keeps_its_receive);
	suite_add_tcase(s, tc);
	return s;
}

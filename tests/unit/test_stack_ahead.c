/*
 * Unit tests of run-ahead on the real stack's transport (harness/run/agents.c,
 * issue 18): requests sent ahead are queued, and written together in one
 * write when the engine next waits for an answer; each stack_call then takes
 * the answer of the oldest. The agent here is this test, on a socketpair.
 */
#include "harness/run/proto.h"
#include "harness/run/run_ahead.h"
#include "harness/run/stack.h"
#include "tests/unit/agent_fx.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static struct scn_file f;
static struct stack st;
static int peer; /* the agent's end */

static void setup(void)
{
	peer = agent_fx_one_node(&st, &f);
}

static void teardown(void)
{
	close(st.ag[0].fd);
	close(peer);
}

/* Bytes waiting to be read on fd. */
static int pending(int fd)
{
	int n = -1;

	ck_assert_int_eq(ioctl(fd, FIONREAD, &n), 0);
	return n;
}

START_TEST(test_ahead_requests_go_in_one_write_at_the_next_wait)
{
	char reply[PROTO_LINE_MAX], req[PROTO_LINE_MAX];
	struct proto_rd rd = { 0 };

	st.capture = 1;
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=%d", i), -EINPROGRESS);
	st.capture = 0;
	ck_assert_uint_eq(st.nahead, 3);
	ck_assert_int_eq(pending(peer), 0); /* queued, not written */
	ck_assert_int_eq(write(peer, "ok x=0\nok x=1\nok x=2\n", 21), 21);
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=0"), 0); /* takes the oldest's answer */
	ck_assert_str_eq(reply, "ok x=0");
	ck_assert_int_eq(pending(peer), 3 * 14); /* all three went out before the wait */
	for (int i = 0; i < 3; i++) {
		char want[32];

		snprintf(want, sizeof(want), "alloc_pd id=%d", i);
		ck_assert_int_ge(proto_recv(peer, &rd, req, sizeof(req), 1000), 0);
		ck_assert_str_eq(req, want);
	}
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=1"), 0);
	ck_assert_str_eq(reply, "ok x=1");
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=3"), -EPROTO); /* not the oldest */
	ck_assert_ptr_nonnull(strstr(st.err, "was sent ahead"));
}
END_TEST

START_TEST(test_ahead_to_a_closed_agent_is_its_steps_failure)
{
	char reply[PROTO_LINE_MAX];

	st.capture = 1;
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=0"), -EINPROGRESS);
	st.capture = 0;
	close(peer);
	peer = -1;
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=0"), -EPIPE);
	ck_assert_ptr_nonnull(strstr(st.err, "node a"));
}
END_TEST

/*
 * A window of 64 requests goes in one write (RUN_AHEAD tops the window up
 * by halves; on a loaded machine each write is a wake-up of the agent that
 * waits for a free CPU); a request longer than a queue slot
 * (STACK_AHEAD_LINE) is refused for run-ahead, queueing nothing: its step
 * is sent when its turn comes.
 */
START_TEST(test_ahead_queues_half_a_window_of_64)
{
	char reply[PROTO_LINE_MAX], big[STACK_AHEAD_LINE + 16];

	ck_assert_uint_ge(STACK_AHEAD_MAX, RUN_AHEAD);
	ck_assert_uint_ge(RUN_AHEAD, 128);
	st.capture = 1;
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=%d", i), -EINPROGRESS);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(stack_call(&st, 0, reply, "post id=0 %s", big), -EAGAIN);
	st.capture = 0;
	ck_assert_uint_eq(st.nahead, 64);
	ck_assert_int_eq(write(peer, "ok\n", 3), 3);
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=0"), 0);
	ck_assert_int_eq(pending(peer), 10 * 14 + 54 * 15); /* all 64 in one write before the wait */
}
END_TEST

Suite *suite_test_stack_ahead(void)
{
	Suite *s = suite_create("test_stack_ahead");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ahead_requests_go_in_one_write_at_the_next_wait);
	tcase_add_test(tc, test_ahead_to_a_closed_agent_is_its_steps_failure);
	tcase_add_test(tc, test_ahead_queues_half_a_window_of_64);
	suite_add_tcase(s, tc);
	return s;
}

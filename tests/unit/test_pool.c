/*
 * Unit tests of agents kept from one scenario to the next (issue 18):
 * harness/run/pool.c keeps an agent only when, reset, it answers that it
 * holds nothing and used no library with process state; the agent's side,
 * agent_reset (harness/agent/agent.c), counts what a reset leaves. The
 * pool's agents here are fake: they answer hello, reset as told, and quit.
 */
#include "harness/agent/agent_internal.h"
#include "harness/run/pool.h"
#include "harness/run/proto.h"
#include "tests/unit/agent_fx.h"

#include <check.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

static struct scn_file f;
static struct topo t;
static struct stack_pool p;
static struct stack st;

/*
 * A fake agent's answers (agent_fx.h): hello a greeting, reset the line
 * given, "noise" an answer and then one more line nobody asked for, quit ok
 * (and it ends); anything else ok.
 */
static int pool_reply(int fd, const char *msg, const void *reset_answer)
{
	if (proto_is(msg, "hello"))
		proto_send(fd, "ok hello node=x gid=fe800000000000000000000000000001");
	else if (proto_is(msg, "reset"))
		proto_send(fd, "%s", (const char *)reset_answer);
	else if (proto_is(msg, "noise") && proto_send(fd, "ok") == 0)
		proto_send(fd, "ok late=1");
	else
		proto_send(fd, "ok");
	return proto_is(msg, "quit");
}

/* A fake agent into *ag that answers reset with reset_answer. */
static void fake_agent(struct stack_agent *ag, const char *reset_answer)
{
	agent_fx_start(ag, pool_reply, reset_answer);
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	memset(&f, 0, sizeof(f));
	memset(&t, 0, sizeof(t));
	f.nnodes = 2;
	strcpy(f.nodes[0], "a");
	strcpy(f.nodes[1], "b");
	t.n = 2;
	stack_pool_init(&p, &t, 1000);
}

static void teardown(void)
{
	stack_agents_quit(st.ag, st.n);
	stack_pool_close(&p);
}

/* Both nodes' fake agents in the pool, as after a first scenario; then a scenario starts on them. */
static void start_on_fakes(const char *reset_a, const char *reset_b)
{
	fake_agent(&p.ag[0], reset_a);
	fake_agent(&p.ag[1], reset_b);
	ck_assert_int_eq(stack_pool_start(&p, &st, &f), 0);
	ck_assert_uint_eq(p.started, 0); /* both taken, none started */
	ck_assert_int_ge(st.ag[0].fd, 0);
	ck_assert_int_eq(p.ag[0].fd, -1);
	ck_assert_str_eq(st.ag[0].gid, "fe800000000000000000000000000001");
}

START_TEST(test_clean_reset_keeps_the_agent_for_the_next_scenario)
{
	pid_t a;

	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	a = st.ag[0].pid;
	stack_pool_stop(&p, &st);
	ck_assert_uint_eq(p.kept, 2);
	ck_assert_uint_eq(p.dropped, 0);
	ck_assert_int_eq(p.ag[0].pid, a);
	ck_assert_int_eq(kill(a, 0), 0); /* still running, in the pool */
	ck_assert_int_eq(stack_pool_start(&p, &st, &f), 0);
	ck_assert_int_eq(st.ag[0].pid, a); /* the same process serves the next scenario */
	ck_assert_uint_eq(p.started, 0);
}
END_TEST

/* Node 0's fake agent answers hello only once node 1's was asked too (arg: the pipe node 1 writes to). */
static int hello_after_the_other(int fd, const char *msg, const void *arg)
{
	const int *pfd = arg;
	struct pollfd pf = { .fd = pfd[0], .events = POLLIN };

	if (proto_is(msg, "hello") && poll(&pf, 1, 2000) != 1)
		proto_send(fd, "err errno=110 msg=asked alone: node 1 not asked before this answer was awaited");
	else if (proto_is(msg, "hello"))
		proto_send(fd, "ok hello node=x gid=fe800000000000000000000000000001");
	else
		return pool_reply(fd, msg, "ok objs=0 fams=0");
	return 0;
}

static int hello_tells_the_other(int fd, const char *msg, const void *arg)
{
	const int *pfd = arg;

	if (proto_is(msg, "hello") && write(pfd[1], "h", 1) != 1)
		_exit(3);
	return pool_reply(fd, msg, "ok objs=0 fams=0");
}

START_TEST(test_kept_agents_are_all_asked_hello_before_any_answer_is_awaited)
{
	int pfd[2];

	ck_assert_int_eq(pipe(pfd), 0);
	agent_fx_start(&p.ag[0], hello_after_the_other, pfd);
	agent_fx_start(&p.ag[1], hello_tells_the_other, pfd);
	ck_assert_int_eq(stack_pool_start(&p, &st, &f), 0);
	ck_assert_uint_eq(p.started, 0); /* both greeted again: none dropped and started anew */
	ck_assert_uint_eq(p.dropped, 0);
	ck_assert_str_eq(st.ag[0].gid, "fe800000000000000000000000000001");
	close(pfd[0]);
	close(pfd[1]);
}
END_TEST

START_TEST(test_objects_left_after_reset_stop_the_agent)
{
	pid_t a;
	int ws;

	start_on_fakes("ok objs=1 fams=0", "ok objs=0 fams=0");
	a = st.ag[0].pid;
	stack_pool_stop(&p, &st);
	ck_assert_uint_eq(p.kept, 1);
	ck_assert_uint_eq(p.dropped, 1);
	ck_assert_int_eq(p.ag[0].fd, -1);
	ck_assert_int_ge(p.ag[1].fd, 0);
	ck_assert_ptr_nonnull(strstr(p.why, "objs=1"));
	ck_assert_int_eq(waitpid(a, &ws, WNOHANG), -1); /* reaped */
}
END_TEST

START_TEST(test_a_library_with_process_state_stops_the_agent)
{
	start_on_fakes("ok objs=0 fams=1", "ok objs=0 fams=0");
	stack_pool_stop(&p, &st);
	ck_assert_int_eq(p.ag[0].fd, -1);
	ck_assert_uint_eq(p.dropped, 1);
}
END_TEST

START_TEST(test_an_answer_that_is_not_a_reset_answer_stops_the_agent)
{
	start_on_fakes("ok", "err errno=22 msg=unknown request");
	stack_pool_stop(&p, &st);
	ck_assert_int_eq(p.ag[0].fd, -1);
	ck_assert_int_eq(p.ag[1].fd, -1);
	ck_assert_uint_eq(p.dropped, 2);
}
END_TEST

START_TEST(test_a_timed_out_or_chattering_agent_is_not_kept)
{
	char reply[PROTO_LINE_MAX];

	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	st.ag[0].stale = 1; /* as a request that timed out leaves it */
	ck_assert_int_eq(stack_call(&st, 1, reply, "noise"), 0); /* one line more than asked for */
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	stack_pool_stop(&p, &st);
	ck_assert_int_eq(p.ag[0].fd, -1);
	ck_assert_int_eq(p.ag[1].fd, -1);
	ck_assert_ptr_nonnull(strstr(p.why, "nobody asked for"));
}
END_TEST

START_TEST(test_a_kept_agent_gone_meanwhile_is_started_again)
{
	int ws;

	fake_agent(&p.ag[0], "ok objs=0 fams=0");
	fake_agent(&p.ag[1], "ok objs=0 fams=0");
	kill(p.ag[1].pid, SIGKILL);
	waitpid(p.ag[1].pid, &ws, 0);
	p.ag[1].pid = 0; /* reaped here: the pool only sees its socket closed */
	setenv("RDMACHECK_AGENT", "/nonexistent/rdmacheck-agent", 1);
	/* node b's replacement cannot start in a unit test: the start fails, and says so */
	ck_assert_int_ne(stack_pool_start(&p, &st, &f), 0);
	unsetenv("RDMACHECK_AGENT");
	ck_assert_uint_eq(p.dropped, 1);
	ck_assert_uint_eq(p.started, 1);
	ck_assert_int_eq(st.ag[0].fd, -1); /* a failed start leaves nothing running */
	ck_assert_int_eq(p.ag[1].fd, -1);
}
END_TEST

START_TEST(test_prestart_fills_the_pool_or_says_why_not)
{
	strcpy(t.node[1].name, "tb");
	fake_agent(&p.ag[0], "ok objs=0 fams=0"); /* node a's is there: only b's is started */
	setenv("RDMACHECK_AGENT", "/nonexistent/rdmacheck-agent", 1);
	ck_assert_int_ne(stack_pool_prestart(&p, 2), 0);
	unsetenv("RDMACHECK_AGENT");
	ck_assert_uint_eq(p.started, 1);
	ck_assert_msg(strstr(p.why, "node tb"), "%s", p.why); /* named after the topology's node */
	ck_assert_int_eq(p.ag[1].fd, -1);
	ck_assert_int_eq(stack_pool_prestart(&p, 3), -ERANGE); /* more than the topology has */
}
END_TEST

START_TEST(test_prestart_leaves_agents_on_other_kernels_to_the_scenarios)
{
	strcpy(t.node[1].agent, "127.0.0.1:9");
	ck_assert_int_eq(stack_pool_prestart(&p, 2), 0);
	ck_assert_uint_eq(p.started, 0);
	ck_assert_int_eq(p.ag[0].fd, -1);
}
END_TEST

/*
 * Issue 29.12: an agent killed after the scenario's last step (its passive
 * node's: no step looked at it again) must not leave the run passing. Its
 * end is told at the reset: the end of its connection, whatever it had sent
 * that nobody read, and the others' answers are the confirmation.
 */
START_TEST(test_an_agent_dead_at_the_reset_is_said_naming_its_node)
{
	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	kill(st.ag[0].pid, SIGKILL); /* not reaped: the pool finds it at the reset */
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	ck_assert_int_eq(stack_pool_stop(&p, &st), -EPIPE);
	ck_assert_msg(strstr(st.err, "agent of node a died (killed by signal 9)"), "%s", st.err);
	ck_assert_int_eq(p.ag[0].fd, -1); /* not kept */
	ck_assert_int_ge(p.ag[1].fd, 0);  /* b answered its reset: kept */
	ck_assert_uint_eq(p.kept, 1);
}
END_TEST

START_TEST(test_a_dead_agent_that_left_unread_answers_is_still_found_dead)
{
	char reply[PROTO_LINE_MAX];

	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	ck_assert_int_eq(stack_call(&st, 1, reply, "noise"), 0); /* one line more than asked for, unread */
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	kill(st.ag[1].pid, SIGKILL);
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	ck_assert_int_eq(stack_pool_stop(&p, &st), -EPIPE); /* its last line is no answer to quit */
	ck_assert_msg(strstr(st.err, "agent of node b died (killed by signal 9)"), "%s", st.err);
}
END_TEST

START_TEST(test_agents_that_answer_at_the_end_confirm_it)
{
	start_on_fakes("ok objs=1 fams=0", "ok objs=0 fams=1"); /* neither kept: each answers its quit */
	ck_assert_int_eq(stack_pool_stop(&p, &st), 0);
	ck_assert_uint_eq(p.dropped, 2);
	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	ck_assert_int_eq(stack_pool_stop(&p, &st), 0);
	ck_assert_uint_eq(p.kept, 2);
}
END_TEST

/* Agents on another kernel (topology mode hosts): kept only when the pool is told to (explore). */
static void stop_remote_fakes(int keep_remote)
{
	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	st.ag[0].remote = st.ag[1].remote = "127.0.0.1:9";
	p.keep_remote = keep_remote;
	stack_pool_stop(&p, &st);
}

START_TEST(test_agents_on_another_kernel_are_not_kept_by_default)
{
	stop_remote_fakes(0);
	ck_assert_uint_eq(p.kept, 0);
	ck_assert_int_eq(p.ag[0].fd, -1);
}
END_TEST

START_TEST(test_keep_remote_keeps_agents_on_another_kernel_after_a_clean_reset)
{
	int fd0;

	stop_remote_fakes(1);
	ck_assert_uint_eq(p.kept, 2);
	ck_assert_uint_eq(p.dropped, 0);
	fd0 = p.ag[0].fd;
	ck_assert_int_ge(fd0, 0);
	ck_assert_int_eq(stack_pool_start(&p, &st, &f), 0);
	ck_assert_int_eq(st.ag[0].fd, fd0); /* the same connection serves the next scenario */
	ck_assert_uint_eq(p.started, 0);
}
END_TEST

START_TEST(test_keep_remote_still_stops_an_agent_that_holds_something)
{
	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=1");
	st.ag[0].remote = st.ag[1].remote = "127.0.0.1:9";
	p.keep_remote = 1;
	stack_pool_stop(&p, &st);
	ck_assert_uint_eq(p.kept, 1);
	ck_assert_int_ge(p.ag[0].fd, 0);
	ck_assert_int_eq(p.ag[1].fd, -1);
}
END_TEST

/* ------------------------------------------- run-ahead (agents.c, stack.c) -- */

START_TEST(test_requests_sent_ahead_are_answered_in_order)
{
	struct hcall c = { .op = M_OP_ALLOC_PD, .node = 0, .obj = 4 }, d = c, e = c, w = c;
	struct hres r;
	char reply[PROTO_LINE_MAX];

	c.call = d.call = e.call = (uint16_t)scn_call_find("alloc_pd");
	d.obj = 5;
	e.node = 1; /* another node's call, queued after node 0's */
	w.call = (uint16_t)scn_call_find("write");
	w.op = M_OP_WRITE;
	start_on_fakes("ok objs=0 fams=0", "ok objs=0 fams=0");
	ck_assert_int_eq(stack_ops.ahead(&st, &c), 0);
	ck_assert_int_eq(stack_ops.ahead(&st, &d), 0);
	ck_assert_uint_eq(st.nahead, 2);
	ck_assert_int_eq(stack_ops.ahead(&st, &w), -EAGAIN); /* a post never goes ahead */
	ck_assert_int_eq(stack_ops.ahead(&st, &e), 0);
	ck_assert_uint_eq(st.nahead, 3);
	ck_assert_uint_eq(st.ahead_per[0], 2);
	ck_assert_uint_eq(st.ahead_per[1], 1);
	ck_assert_int_eq(stack_send(&st, 0, "recvs id=1"), -EPROTO);
	ck_assert_int_eq(stack_send(&st, 1, "recvs id=1"), -EPROTO);
	ck_assert_int_eq(stack_call(&st, 0, reply, "alloc_pd id=5"), -EPROTO); /* not the oldest */
	ck_assert_ptr_nonnull(strstr(st.err, "'alloc_pd id=4' was sent ahead"));
	ck_assert_int_eq(stack_call(&st, 1, reply, "alloc_pd id=4"), -EPROTO); /* its node's oldest, not the oldest */
	ck_assert_ptr_nonnull(strstr(st.err, "first"));
	ck_assert_int_eq(stack_ops.exec(&st, &c, &r), 0);
	ck_assert_int_eq(r.out.kind, M_OUT_OK);
	ck_assert_int_eq(stack_ops.exec(&st, &d, &r), 0);
	ck_assert_uint_eq(st.ahead_per[0], 0);
	ck_assert_int_eq(stack_call(&st, 0, reply, "recvs id=1"), 0); /* a node with none: as ever */
	ck_assert_str_eq(reply, "ok");
	ck_assert_int_eq(stack_ops.exec(&st, &e, &r), 0);
	ck_assert_int_eq(r.out.kind, M_OUT_OK);
	ck_assert_uint_eq(st.nahead, 0);
	ck_assert_int_eq(stack_call(&st, 1, reply, "alloc_pd id=7"), 0); /* and then anything, anywhere */
	stack_pool_stop(&p, &st);
	ck_assert_uint_eq(p.kept, 2); /* nothing was left unanswered */
}
END_TEST

/* ------------------------------------------------------- the agent's side -- */

static unsigned released;

static void release_ext(struct agent *a, struct aobj *o)
{
	(void)a;
	free(o->ext);
	o->ext = NULL;
	o->live = 0;
	released++;
}

static void release_keeps_live(struct agent *a, struct aobj *o)
{
	(void)a;
	released++;
	(void)o; /* a release that forgets to mark its object gone */
}

START_TEST(test_agent_reset_releases_everything_and_says_nothing_is_left)
{
	struct agent *a = calloc(1, sizeof(*a));
	unsigned objs = 9, fams = 9;

	released = 0;
	ck_assert_int_eq(agent_buffer(&a->obj[3], 4096, 0, 0), 0);
	agent_buffer_share(&a->obj[4], &a->obj[3], 100);
	a->obj[5] = (struct aobj){ .kind = AO_RPMA_CONN, .live = 1, .ext = malloc(8), .release = release_ext };
	agent_reset(a, &objs, &fams);
	ck_assert_uint_eq(objs, 0);
	ck_assert_uint_eq(fams, 0);
	ck_assert_uint_eq(released, 1);
	ck_assert_ptr_null(a->obj[3].mem);
	ck_assert_uint_eq(a->obj[5].kind, AO_NONE); /* slots emptied */
	free(a);
}
END_TEST

START_TEST(test_agent_reset_counts_what_a_release_left)
{
	struct agent *a = calloc(1, sizeof(*a));
	unsigned objs, fams;

	released = 0;
	a->obj[7] = (struct aobj){ .kind = AO_DAT_EP, .live = 1, .release = release_keeps_live };
	a->fams = 1u << M_FAM_DAT;
	agent_reset(a, &objs, &fams);
	ck_assert_uint_eq(objs, 1);
	ck_assert_uint_eq(fams, 1);
	ck_assert_ptr_null(a->obj[7].release); /* never released twice */
	agent_reset(a, &objs, &fams);
	ck_assert_uint_eq(released, 1);
	ck_assert_uint_eq(fams, 0); /* counted since the last reset */
	free(a);
}
END_TEST

/* Waiting for a completion: the first AGENT_SPIN_MS only yield (a 200 µs sleep each poll made a step ~1 ms). */
/* A poll yields the CPU for its first AGENT_SPIN_MS, then sleeps 200 µs at a time (the decision, not a timing). */
START_TEST(test_agent_poll_pause_spins_first_then_sleeps)
{
	ck_assert_int_eq(agent_poll_pause_ns(1000, 1000), 0);
	ck_assert_int_eq(agent_poll_pause_ns(1000, 1000 + AGENT_SPIN_MS - 1), 0);
	ck_assert_int_eq(agent_poll_pause_ns(1000, 1000 + AGENT_SPIN_MS), 200000);
	ck_assert_int_eq(agent_poll_pause_ns(1000, 1000 + 60000), 200000);
	agent_poll_pause(proto_now_ms()); /* both ways return */
	agent_poll_pause(proto_now_ms() - AGENT_SPIN_MS);
}
END_TEST

/* Bytes waiting to be read on fd. */
static int unread(int fd)
{
	int n = -1;

	ck_assert_int_eq(ioctl(fd, FIONREAD, &n), 0);
	return n;
}

/*
 * Answers held back (proto_hold: requests sent ahead, answered together)
 * stay held while a completion is polled in the spin phase, so that a run of
 * posts sent ahead is answered in one write (one wake-up of the runner, not
 * one a post); a wait past AGENT_SPIN_MS writes them before it sleeps.
 */
START_TEST(test_agent_poll_pause_holds_answers_while_it_spins)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	proto_hold(sv[0]);
	ck_assert_int_eq(proto_send(sv[0], "ok status=SUCCESS"), 0);
	agent_poll_pause(proto_now_ms());
	ck_assert_int_eq(unread(sv[1]), 0);
	agent_poll_pause(proto_now_ms() - AGENT_SPIN_MS);
	ck_assert_int_eq(unread(sv[1]), 18);
	ck_assert_int_eq(proto_send(sv[0], "ok"), 0); /* held no more: written at once */
	ck_assert_int_eq(unread(sv[1]), 21);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

Suite *suite_test_pool(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_clean_reset_keeps_the_agent_for_the_next_scenario);
	tcase_add_test(tc, test_kept_agents_are_all_asked_hello_before_any_answer_is_awaited);
	tcase_add_test(tc, test_objects_left_after_reset_stop_the_agent);
	tcase_add_test(tc, test_a_library_with_process_state_stops_the_agent);
	tcase_add_test(tc, test_an_answer_that_is_not_a_reset_answer_stops_the_agent);
	tcase_add_test(tc, test_a_timed_out_or_chattering_agent_is_not_kept);
	tcase_add_test(tc, test_a_kept_agent_gone_meanwhile_is_started_again);
	tcase_add_test(tc, test_prestart_fills_the_pool_or_says_why_not);
	tcase_add_test(tc, test_prestart_leaves_agents_on_other_kernels_to_the_scenarios);
	tcase_add_test(tc, test_an_agent_dead_at_the_reset_is_said_naming_its_node);
	tcase_add_test(tc, test_a_dead_agent_that_left_unread_answers_is_still_found_dead);
	tcase_add_test(tc, test_agents_that_answer_at_the_end_confirm_it);
	tcase_add_test(tc, test_agents_on_another_kernel_are_not_kept_by_default);
	tcase_add_test(tc, test_keep_remote_keeps_agents_on_another_kernel_after_a_clean_reset);
	tcase_add_test(tc, test_keep_remote_still_stops_an_agent_that_holds_something);
	tcase_add_test(tc, test_requests_sent_ahead_are_answered_in_order);
	tcase_add_test(tc, test_agent_reset_releases_everything_and_says_nothing_is_left);
	tcase_add_test(tc, test_agent_reset_counts_what_a_release_left);
	tcase_add_test(tc, test_agent_poll_pause_spins_first_then_sleeps);
	tcase_add_test(tc, test_agent_poll_pause_holds_answers_while_it_spins);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the real stack's watch over its agents (harness/run/agents.c
 * stack_watch, stack.c's exec; issue 16.3): a dead agent of a node the step
 * does not talk to (a passive peer) makes the step an engine failure naming
 * the node, never an outcome to judge. The agents here are fake: node a
 * answers "ok" to every request, node b answers nothing but quit (so
 * stack_stop does not wait its 3 s for it) until it is killed.
 */
#include "harness/run/proto.h"
#include "harness/run/stack.h"
#include "tests/unit/agent_fx.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct scn_file f;
static const struct timespec tenth = { 0, 100 * 1000 * 1000 };
static struct stack st;

/* How a fake agent answers (agent_fx.h). */
struct watch_script {
	int answer;     /* 0 never (but to quit), 1 ok (first killing victim, if > 0), 2 dies instead, */
	pid_t victim;   /* 3 as a verbs agent's recvs and read (the peer's facts in one answer,
	                   memory as a blob) and err to anything else */
};

static int watch_reply(int fd, const char *msg, const void *arg)
{
	const struct watch_script *w = arg;

	if (!w->answer) {
		if (!proto_is(msg, "quit"))
			return 0;
		proto_send(fd, "ok");
		return 1;
	}
	if (w->answer == 2 && !proto_is(msg, "quit"))
		raise(SIGKILL); /* dies on the request it was sent */
	if (w->answer == 3 && proto_is(msg, "recvs")) {
		proto_send(fd, "ok n=1 status=REM_ACCESS_ERR state=ERR");
		return 0;
	}
	if (w->answer == 3 && proto_is(msg, "read")) {
		proto_send(fd, "ok bytes=5");
		proto_send_bytes(fd, "a\nb\0c", 5);
		return 0;
	}
	if (w->answer == 3 && !proto_is(msg, "quit")) {
		proto_send(fd, "err errno=22 msg=not a request of this test");
		return 0;
	}
	if (w->victim > 0 && !proto_is(msg, "quit")) {
		kill(w->victim, SIGKILL);
		nanosleep(&tenth, NULL);
	}
	proto_send(fd, "ok");
	return proto_is(msg, "quit");
}

/* A fake agent into *ag that answers as answer and victim say (struct watch_script). */
static void fake_agent(struct stack_agent *ag, int answer, pid_t victim)
{
	agent_fx_start(ag, watch_reply, &(struct watch_script){ answer, victim });
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN); /* as rdmacheck does: a dead agent's socket is EPIPE */
	memset(&f, 0, sizeof(f));
	memset(&st, 0, sizeof(st));
	f.nnodes = 2;
	strcpy(f.nodes[0], "a");
	strcpy(f.nodes[1], "b");
	st.f = &f;
	st.n = 2;
	st.step_ms = 1000;
}

static void teardown(void)
{
	stack_stop(&st); /* whatever a failed test left: agents, the temporary directory */
}

/* fill on node a, the step that node b's death must turn into an ERROR. */
static int fill_on_a(void)
{
	struct hcall c = { .op = M_OP_FILL, .node = 0, .obj = 0 };
	struct hres r;

	c.call = (uint16_t)scn_call_find("fill");
	c.fill.len = 1;
	return stack_ops.exec(&st, &c, &r);
}

START_TEST(test_passive_agent_dead_before_the_step)
{
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	ck_assert_int_eq(fill_on_a(), 0); /* all alive: a's answer is the outcome */
	kill(st.ag[1].pid, SIGKILL);
	nanosleep(&tenth, NULL);
	ck_assert_int_eq(fill_on_a(), -EPIPE);
	ck_assert_ptr_nonnull(strstr(st.err, "agent of node b died (killed by signal 9)"));
	ck_assert_ptr_nonnull(stack_ops.why(&st));
	ck_assert_int_eq(fill_on_a(), -EPIPE); /* and stays dead */
	stack_stop(&st);
	ck_assert_int_eq(st.ag[0].pid, 0);
}
END_TEST

START_TEST(test_passive_agent_dies_during_the_step)
{
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, st.ag[1].pid); /* a kills b, then answers ok */
	ck_assert_int_eq(fill_on_a(), -EPIPE);
	ck_assert_ptr_nonnull(strstr(st.err, "node b"));
	stack_stop(&st);
}
END_TEST

/* The agent the step talks to dies on it: how it ended is said, not just "died". */
START_TEST(test_active_agent_dies_on_the_request)
{
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 2, 0);
	ck_assert_int_eq(fill_on_a(), -EPIPE);
	ck_assert_ptr_nonnull(strstr(st.err, "agent of node a died (killed by signal 9)"));
	stack_stop(&st);
}
END_TEST

/*
 * The agent a check reads from was killed between two looks (the read is no
 * step): the failed send says how it ended, not "cannot send: Broken pipe"
 * (seen in tests/faults/agent-kill on the VM).
 */
START_TEST(test_read_from_a_killed_agent_says_how_it_died)
{
	struct scn_obj obj = { .node = 0 };
	uint8_t buf[8];

	f.objs = &obj;
	f.nobjs = 1;
	st.o[0].made = 1;
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	kill(st.ag[0].pid, SIGKILL);
	nanosleep(&tenth, NULL);
	ck_assert_int_eq(stack_ops.read(&st, 0, 0, sizeof(buf), buf), -EPIPE);
	ck_assert_ptr_nonnull(strstr(st.err, "agent of node a died (killed by signal 9)"));
	ck_assert_int_eq(st.ag[0].pid, 0); /* reaped */
	stack_stop(&st);
	f.objs = NULL;
	f.nobjs = 0;
}
END_TEST

START_TEST(test_watch_all_alive)
{
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	ck_assert_int_eq(stack_watch(&st), 0);
	ck_assert_str_eq(st.err, "");
	stack_stop(&st);
}
END_TEST

/* A child of the runner that is no agent ended (a stream): the agents are still alive, and it is left unreaped. */
START_TEST(test_watch_another_child_ended)
{
	pid_t other;
	int ws;

	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	other = fork();
	ck_assert_int_ge(other, 0);
	if (other == 0)
		_exit(7);
	nanosleep(&tenth, NULL);
	ck_assert_int_eq(stack_watch(&st), 0);
	ck_assert_str_eq(st.err, "");
	ck_assert_int_eq(fill_on_a(), 0);
	ck_assert_int_eq(waitpid(other, &ws, 0), other); /* still its owner's to reap */
	ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 7);
	stack_stop(&st);
}
END_TEST

/* With no child ended the watch asks no agent by its pid; one killed after that is seen at the next look. */
START_TEST(test_watch_sees_a_death_after_quiet_looks)
{
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(stack_watch(&st), 0);
	kill(st.ag[1].pid, SIGKILL);
	nanosleep(&tenth, NULL);
	ck_assert_int_eq(stack_watch(&st), -EPIPE);
	ck_assert_ptr_nonnull(strstr(st.err, "agent of node b died (killed by signal 9)"));
	ck_assert_int_eq(st.ag[1].pid, 0); /* reaped */
	ck_assert_int_eq(stack_watch(&st), -EPIPE); /* and stays dead */
	stack_stop(&st);
}
END_TEST

/* The peer QP's receive completion and state come in one answer (issue 18): the agent is asked once. */
START_TEST(test_peer_facts_in_one_request)
{
	struct hpeer seen;
	uint8_t mem[5];
	struct scn_obj qp = { .node = 1 };

	fake_agent(&st.ag[0], 1, 0);
	fake_agent(&st.ag[1], 3, 0);
	f.nobjs = 1;
	f.objs = &qp;
	st.o[0].made = 1;
	ck_assert_int_eq(stack_ops.peer(&st, 0, 0, &seen), 0);
	ck_assert_int_eq(seen.recv, M_WC_REM_ACCESS_ERR);
	ck_assert_int_eq(seen.state, M_QPS_ERR);
	ck_assert_int_eq(stack_ops.read(&st, 0, 0, sizeof(mem), mem), 0); /* the stream is still in step */
	ck_assert_mem_eq(mem, "a\nb\0c", 5);
	stack_stop(&st);
}
END_TEST

/* What a killed agent left in the scenario's temporary directory goes with stack_stop (issue 16.9). */
START_TEST(test_stop_removes_what_a_killed_agent_left)
{
	char path[128];
	FILE *f;

	snprintf(st.tmp, sizeof(st.tmp), "/tmp/rdmacheck-run-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(st.tmp));
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	snprintf(path, sizeof(path), "%s/rdmacheck-dat-abc", st.tmp);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/rdmacheck-dat-abc/dat.conf", st.tmp);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	kill(st.ag[1].pid, SIGKILL);
	snprintf(path, sizeof(path), "%s", st.tmp);
	stack_stop(&st);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_str_eq(st.tmp, "");
}
END_TEST

/*
 * Issue 29.12, --fresh-agents: the end of the scenario is confirmed by every
 * agent's answer to quit; one killed after the last step is said, naming its
 * node, where before the run passed.
 */
START_TEST(test_stop_says_an_agent_that_ended_unnoticed)
{
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	ck_assert_int_eq(fill_on_a(), 0);
	kill(st.ag[1].pid, SIGKILL); /* after the step's look: nothing asks b again */
	nanosleep(&tenth, NULL);
	ck_assert_int_eq(stack_stop(&st), -EPIPE);
	ck_assert_msg(strstr(st.err, "agent of node b died (killed by signal 9)"), "%s", st.err);
	ck_assert_int_eq(st.ag[1].pid, 0); /* reaped */
	ck_assert_int_eq(stack_stop(&st), 0); /* safe twice: nothing left to confirm */
	fake_agent(&st.ag[1], 0, 0);
	fake_agent(&st.ag[0], 1, 0);
	ck_assert_int_eq(stack_stop(&st), 0); /* both answer */
}
END_TEST

Suite *suite_test_stack_watch(void)
{
	Suite *s = suite_create("test_stack_watch");
	TCase *tc = tcase_create("watch");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_passive_agent_dead_before_the_step);
	tcase_add_test(tc, test_passive_agent_dies_during_the_step);
	tcase_add_test(tc, test_active_agent_dies_on_the_request);
	tcase_add_test(tc, test_read_from_a_killed_agent_says_how_it_died);
	tcase_add_test(tc, test_watch_all_alive);
	tcase_add_test(tc, test_watch_another_child_ended);
	tcase_add_test(tc, test_watch_sees_a_death_after_quiet_looks);
	tcase_add_test(tc, test_peer_facts_in_one_request);
	tcase_add_test(tc, test_stop_removes_what_a_killed_agent_left);
	tcase_add_test(tc, test_stop_says_an_agent_that_ended_unnoticed);
	suite_add_tcase(s, tc);
	return s;
}

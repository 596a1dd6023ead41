/*
 * agent_fx.h — a fake agent for the tests of the real stack's side
 * (test_pool.c, test_stack_watch.c): a child process on a new socketpair
 * whose end is *ag, reading requests (harness/run/proto.h) and answering each
 * with the test's reply callback; the tests differ only in what they answer.
 * Or no process (agent_fx_one_node): the test itself is node a's agent, at
 * the other end of the socketpair (test_stack_ahead.c, test_stack_query.c,
 * test_wrpost.c).
 */
#ifndef RDMACHECK_TEST_AGENT_FX_H
#define RDMACHECK_TEST_AGENT_FX_H

#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Answers request msg on fd (arg: the test's); nonzero ends the agent. */
typedef int (*agent_fx_reply)(int fd, const char *msg, const void *arg);

/* Start a fake agent into *ag (emptied first) answering with reply(arg); the child never returns. */
static inline void agent_fx_start(struct stack_agent *ag, agent_fx_reply reply, const void *arg)
{
	int sv[2];

	memset(ag, 0, sizeof(*ag));
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ag->pid = fork();
	ck_assert_int_ge(ag->pid, 0);
	if (ag->pid == 0) {
		char msg[PROTO_LINE_MAX];
		struct proto_rd rd = { 0 };

		close(sv[0]);
		while (proto_recv(sv[1], &rd, msg, sizeof(msg), -1) >= 0)
			if (reply(sv[1], msg, arg))
				break;
		_exit(0);
	}
	close(sv[1]);
	ag->fd = sv[0];
}

/*
 * *st and *f emptied into a stack of one node, a, whose agent's end is a new
 * socketpair's; SIGPIPE ignored. Returns the other end: the test answers there.
 */
static inline int agent_fx_one_node(struct stack *st, struct scn_file *f)
{
	int sv[2];

	signal(SIGPIPE, SIG_IGN);
	memset(f, 0, sizeof(*f));
	memset(st, 0, sizeof(*st));
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	f->nnodes = 1;
	snprintf(f->nodes[0], sizeof(f->nodes[0]), "a");
	st->f = f;
	st->n = 1;
	st->step_ms = 1000;
	st->ag[0].fd = sv[0];
	return sv[1];
}

#endif

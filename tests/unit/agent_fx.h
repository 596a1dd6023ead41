/*
 * agent_fx.h — a fake agent for the tests of the real stack's side
 * (test_pool.c, test_stack_watch.c): a child process on a new socketpair
 * whose end is *ag, reading requests (harness/run/proto.h) and answering each
 * with the test's reply callback; the tests differ only in what they answer.
 */
#ifndef RDMACHECK_TEST_AGENT_FX_H
#define RDMACHECK_TEST_AGENT_FX_H

#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <check.h>
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

#endif

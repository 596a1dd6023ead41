/*
 * stack_handle.c — a verbs call given a garbled handle (garble=, HANDLE-1) on
 * the real stack: the agent XORs the handle member of the object's struct
 * with 0xDEADBEEF (rdma-unit-test's HandleGarble) before the call and again
 * after it, which gives the true handle back (agent_handle.c: garble).
 */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <stdio.h>

/* The object (an index of st->o) whose handle c garbles; -1: none. */
static int32_t garbled_obj(const struct hcall *c)
{
	switch ((enum m_garble)c->verbs.garble) {
	case M_GARBLE_SELF: return c->obj;
	case M_GARBLE_PD: return c->verbs.pd;
	case M_GARBLE_MR: return c->verbs.mr;
	case M_GARBLE_QP: return c->verbs.qp;
	case M_GARBLE_SEND_CQ: return c->verbs.scq;
	case M_GARBLE_RECV_CQ: return c->verbs.rcq;
	case M_GARBLE_SRQ: return c->verbs.srq;
	case M_GARBLE_AH: return c->verbs.ah;
	default: return -1;
	}
}

int stack_garble_verbs(struct stack *st, const struct hcall *c)
{
	char reply[PROTO_LINE_MAX];
	int32_t o = garbled_obj(c);
	int rc;

	if (o < 0)
		return 0;
	if ((rc = stack_call(st, c->node, reply, "garble id=%d", o)))
		return rc;
	if (!proto_is(reply, "ok")) {
		snprintf(st->err, sizeof(st->err), "garble: %.200s", reply);
		return -EPROTO;
	}
	return 0;
}

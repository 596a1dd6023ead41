/*
 * stack_ud.c — the coordinator's side of QP stop states and UD sends: what
 * the agent needs besides the scenario's words (a remote QP's number and
 * its node's GID), from what creations reported (stack.h).
 */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <stdio.h>

int stack_qp_to(struct stack *st, const struct hcall *c, char *reply)
{
	char peer[96] = "";

	if (c->verbs.peer >= 0) {
		if (!st->o[c->verbs.peer].made)
			return -ENOENT;
		snprintf(peer, sizeof(peer), " rqpn=%u rgid=%s", st->o[c->verbs.peer].v.qpn,
			 st->ag[c->verbs.peer_node].gid);
	}
	return stack_call(st, c->node, reply, "qp_to id=%d state=%s omit=%u qkey=%u%s", c->obj,
			  m_qp_state_str((enum m_qp_state)c->verbs.qp_state), c->verbs.qp_omit, c->verbs.qkey, peer);
}

int stack_ud_dest(struct stack *st, const struct hcall *c, char *buf, size_t len)
{
	uint32_t qpn = c->verbs.dest_qpn;

	if (!c->verbs.raw_qpn) {
		if (c->verbs.peer < 0 || !st->o[c->verbs.peer].made)
			return -ENOENT;
		qpn = st->o[c->verbs.peer].v.qpn;
	}
	snprintf(buf, len, " ah=%d rqpn=%u qkey=%u", c->verbs.ah, qpn, c->verbs.qkey);
	return 0;
}

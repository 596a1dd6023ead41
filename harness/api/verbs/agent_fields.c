/*
 * agent_fields.c — the agent's fields request (agent_fields.h): the struct a
 * verbs call returned, read as the peer tests read it (pd->context, mr->pd,
 * qp->srq, cq->cqe), each pointer given as the object of the agent's table it
 * is (whose ids are the scenario's objects).
 */
#include "harness/api/verbs/agent_fields.h"
#include "harness/api/verbs/agent_cq.h"

#include <errno.h>
#include <stdio.h>

/* Object o's own libibverbs struct of its kind (the pointer others hold), or NULL. */
static const void *struct_of(const struct aobj *o)
{
	switch ((enum aobj_kind)o->kind) {
	case AO_PD: return o->pd;
	case AO_CQ: return o->scq;
	case AO_SRQ: case AO_CHAN: case AO_AH: return o->ext;
	default: return NULL;
	}
}

/* ptr as a reference result: the id of the live object of kind whose struct it is; none; own; other. */
static const char *ref(const struct agent *a, enum aobj_kind kind, const void *ptr, int own, char *buf, size_t len)
{
	if (!ptr)
		return "none";
	for (size_t i = 0; i < AGENT_OBJS_MAX; i++)
		if (a->obj[i].live && a->obj[i].kind == kind && struct_of(&a->obj[i]) == ptr) {
			snprintf(buf, len, "%zu", i);
			return buf;
		}
	return own ? "own" : "other";
}

int agent_fields(struct agent *a)
{
	static const char *const qpt[] = { [IBV_QPT_RC] = "RC", [IBV_QPT_UC] = "UC", [IBV_QPT_UD] = "UD" };
	uint64_t id;
	const struct aobj *o;
	char r1[24], r2[24], r3[24], r4[24];

	if (proto_get_u64(a->msg, "id", &id) || id >= AGENT_OBJS_MAX || !a->obj[id].live)
		return agent_reply_err(a, EINVAL, "fields: no such live object");
	o = &a->obj[id];
	switch ((enum aobj_kind)o->kind) {
	case AO_PD:
		return proto_send(a->fd, "ok context=%d", o->pd->context == a->ctx);
	case AO_MR:
		return proto_send(a->fd, "ok context=%d pd=%s addr=0x%llx length=%llu", o->mr->context == a->ctx,
				  ref(a, AO_PD, o->mr->pd, 0, r1, sizeof(r1)), (unsigned long long)(uintptr_t)o->mr->addr,
				  (unsigned long long)o->mr->length);
	case AO_MW:
		return proto_send(a->fd, "ok context=%d pd=%s type=%u", o->mw->context == a->ctx,
				  ref(a, AO_PD, o->mw->pd, 0, r1, sizeof(r1)), (unsigned)o->mw->type);
	case AO_QP: {
		const struct ibv_qp *q = o->qp;
		unsigned t = (unsigned)q->qp_type;

		return proto_send(a->fd, "ok context=%d pd=%s send_cq=%s recv_cq=%s srq=%s qp_type=%s",
				  q->context == a->ctx, ref(a, AO_PD, q->pd, 0, r1, sizeof(r1)),
				  ref(a, AO_CQ, q->send_cq, !(o->cq_given & AGENT_CQ_SEND), r2,
				      sizeof(r2)),
				  ref(a, AO_CQ, q->recv_cq, !(o->cq_given & AGENT_CQ_RECV), r3,
				      sizeof(r3)),
				  ref(a, AO_SRQ, q->srq, 0, r4, sizeof(r4)),
				  t < sizeof(qpt) / sizeof(qpt[0]) && qpt[t] ? qpt[t] : "?");
	}
	case AO_CQ:
		return proto_send(a->fd, "ok context=%d channel=%s cqe=%d", o->scq->context == a->ctx,
				  ref(a, AO_CHAN, o->scq->channel, 0, r1, sizeof(r1)), o->scq->cqe);
	case AO_AH: {
		const struct ibv_ah *ah = o->ext;

		return proto_send(a->fd, "ok context=%d pd=%s", ah->context == a->ctx,
				  ref(a, AO_PD, ah->pd, 0, r1, sizeof(r1)));
	}
	case AO_SRQ: {
		const struct ibv_srq *s = o->ext;

		return proto_send(a->fd, "ok context=%d pd=%s", s->context == a->ctx,
				  ref(a, AO_PD, s->pd, 0, r1, sizeof(r1)));
	}
	case AO_CHAN:
		return proto_send(a->fd, "ok context=%d", ((const struct ibv_comp_channel *)o->ext)->context == a->ctx);
	default:
		return agent_reply_err(a, EINVAL, "fields: not a verbs object");
	}
}

/*
 * agent_handle.c — the agent's garble request: `garble id=N` XORs the handle
 * member of object N's libibverbs struct with 0xDEADBEEF, as rdma-unit-test's
 * HandleGarble does; the same request again gives the true handle back. An
 * object no longer live (its struct freed by the call) is left alone.
 */
#include "harness/api/verbs/agent_handle.h"

#include <errno.h>

#define GARBLE_MASK 0xDEADBEEFu

/* The handle member of o's struct, or NULL for a class without one. */
static uint32_t *handle_of(struct aobj *o)
{
	switch ((enum aobj_kind)o->kind) {
	case AO_PD: return o->pd ? &o->pd->handle : NULL;
	case AO_MR: return o->mr ? &o->mr->handle : NULL;
	case AO_MW: return o->mw ? &o->mw->handle : NULL;
	case AO_QP: return o->qp ? &o->qp->handle : NULL;
	case AO_CQ: return o->scq ? &o->scq->handle : NULL;
	case AO_SRQ: return o->ext ? &((struct ibv_srq *)o->ext)->handle : NULL;
	case AO_AH: return o->ext ? &((struct ibv_ah *)o->ext)->handle : NULL;
	default: return NULL;
	}
}

int agent_garble(struct agent *a)
{
	uint64_t id;
	uint32_t *h;

	if (proto_get_u64(a->msg, "id", &id) || id >= AGENT_OBJS_MAX)
		return agent_reply_err(a, EINVAL, "bad garble request");
	if (!a->obj[id].live)
		return proto_send(a->fd, "ok gone=1");
	if (!(h = handle_of(&a->obj[id])))
		return agent_reply_err(a, EINVAL, "garble: the object has no handle");
	*h ^= GARBLE_MASK;
	return proto_send(a->fd, "ok");
}

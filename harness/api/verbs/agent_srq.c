/*
 * agent_srq.c — the agent's shared receive queues (protocol: agent_qpstate.h):
 * an SRQ is an object whose ext is the ibv_srq, released at the agent's end.
 */
#include "harness/api/verbs/agent_cq.h"
#include "harness/api/verbs/agent_device.h"
#include "harness/api/verbs/agent_qpstate.h"

#include <errno.h>
#include <string.h>

struct ibv_srq *agent_srq(struct agent *a)
{
	struct aobj *o;
	uint64_t id;

	if (proto_get_u64(a->msg, "srq", &id) || (int64_t)id < 0 || !(o = agent_field_obj(a, "srq", AO_SRQ, 1)))
		return NULL;
	return o->ext;
}

/* An SRQ's release at the agent's end (its QPs are gone by then: objects are released last first). */
static void release_srq(struct agent *a, struct aobj *o)
{
	(void)a;
	if (o->live && o->ext)
		ibv_destroy_srq(o->ext);
	o->ext = NULL;
	o->live = 0;
}

int agent_create_srq(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *pd = agent_field_obj(a, "pd", AO_PD, 0);
	struct ibv_srq_init_attr at;

	if (!o || !pd)
		return agent_reply_err(a, EINVAL, "bad create_srq request");
	*o = (struct aobj){ .kind = AO_SRQ, .mem = o->mem, .buf = o->buf };
	memset(&at, 0, sizeof(at));
	at.attr.max_wr = agent_limit(a, "max_wr", 16, AGENT_LIM_SRQ_WR);
	at.attr.max_sge = agent_limit(a, "max_sge", 1, AGENT_LIM_SRQ_SGE);
	o->ext = ibv_create_srq(pd->pd, &at);
	if (!o->ext)
		return agent_reply_err(a, errno, "ibv_create_srq: %s", strerror(errno));
	o->live = 1;
	o->release = release_srq;
	return proto_send(a->fd, "ok");
}

int agent_destroy_srq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_SRQ, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live SRQ");
	rc = ibv_destroy_srq(o->ext);
	if (rc)
		return agent_reply_err(a, rc, "ibv_destroy_srq: %s", strerror(rc));
	o->ext = NULL;
	o->live = 0;
	return proto_send(a->fd, "ok");
}

int agent_srq_recv(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_SRQ, 1);
	struct ibv_sge sge = { .addr = agent_num(a, "laddr", 0), .length = (uint32_t)agent_num(a, "len", 0),
			       .lkey = (uint32_t)agent_num(a, "lkey", 0) };
	/* The step's wr_id, marked a receive's (agent_cq.h) as a QP's receives are: a peer's
	 * observation finds its completion in a CQ object. */
	struct ibv_recv_wr wr = { .wr_id = agent_num(a, "wr", ++a->next_wr) | AGENT_WR_RECV, .sg_list = &sge,
				  .num_sge = 1 }, *bad = NULL;
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad srq_recv request");
	rc = ibv_post_srq_recv(o->ext, &wr, &bad);
	if (rc)
		return agent_reply_err(a, rc, "ibv_post_srq_recv: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

int agent_modify_srq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_SRQ, 1);
	uint64_t mask = agent_num(a, "mask", 0);
	struct ibv_srq_attr at = { .max_wr = (uint32_t)agent_num(a, "max_wr", 0),
				   .srq_limit = (uint32_t)agent_num(a, "limit", 0) };
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live SRQ");
	rc = ibv_modify_srq(o->ext, &at, (int)(((mask & 1) ? IBV_SRQ_MAX_WR : 0) | ((mask & 2) ? IBV_SRQ_LIMIT : 0)));
	if (rc)
		return agent_reply_err(a, rc, "ibv_modify_srq: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

int agent_query_srq(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_SRQ, 1);
	struct ibv_srq_attr at;
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live SRQ");
	memset(&at, 0, sizeof(at));
	rc = ibv_query_srq(o->ext, &at);
	if (rc)
		return agent_reply_err(a, rc, "ibv_query_srq: %s", strerror(rc));
	return proto_send(a->fd, "ok max_wr=%u max_sge=%u srq_limit=%u", at.max_wr, at.max_sge, at.srq_limit);
}

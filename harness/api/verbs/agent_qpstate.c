/*
 * agent_qpstate.c — the agent's QP transitions (RESET to INIT to RTR to RTS,
 * with the attributes each needs, some left out on request: QP-STATE-4) and
 * UD address handles. connect (agent_verbs.c) walks the same transitions.
 *
 *   qp_to id state=INIT|RTR|RTS omit=MASK qkey=K [rqpn=N rgid=HEX] [connect's options]
 *   create_ah id pd gid=HEX        destroy_ah id
 */
#include "harness/api/verbs/agent_qpstate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* IBV_MTU_* for a byte count (256..4096); 1024 for anything else. */
static enum ibv_mtu mtu_enum(uint64_t bytes)
{
	switch (bytes) {
	case 256: return IBV_MTU_256;
	case 512: return IBV_MTU_512;
	case 2048: return IBV_MTU_2048;
	case 4096: return IBV_MTU_4096;
	default: return IBV_MTU_1024;
	}
}

/* RESET to INIT: the port, the pkey index, and the access flags (RC, UC) or the Q_Key (UD). */
static int to_init(struct agent *a, struct aobj *o, int *mask, struct ibv_qp_attr *at)
{
	at->port_num = 1;
	at->pkey_index = 0;
	*mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	if (o->qp_ud) {
		at->qkey = (uint32_t)agent_num(a, "qkey", 0x11111111u);
		*mask |= IBV_QP_QKEY;
	} else {
		at->qp_access_flags = (unsigned)o->qp_access;
		*mask |= IBV_QP_ACCESS_FLAGS;
	}
	return 0;
}

/* INIT to RTR: an RC/UC QP's remote QP (rqpn, rgid) and path; RC's responder resources. */
static int to_rtr(struct agent *a, struct aobj *o, int *mask, struct ibv_qp_attr *at)
{
	char hex[64];
	uint64_t rqpn = 0;

	if (o->qp_ud)
		return 0;
	if (proto_get_u64(a->msg, "rqpn", &rqpn) == 0 && (proto_get(a->msg, "rgid", hex, sizeof(hex)) ||
	    proto_hex_decode(hex, at->ah_attr.grh.dgid.raw, sizeof(at->ah_attr.grh.dgid.raw)) !=
	    (int)sizeof(at->ah_attr.grh.dgid.raw)))
		return -EINVAL;
	at->path_mtu = mtu_enum(agent_num(a, "mtu", 1024)); /* the model knows the default: M_PATH_MTU_DEFAULT */
	at->dest_qp_num = (uint32_t)rqpn;
	at->ah_attr.is_global = 1;
	at->ah_attr.port_num = 1;
	at->ah_attr.grh.sgid_index = (uint8_t)a->node->gid_index;
	at->ah_attr.grh.hop_limit = 64;
	*mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
	if (!o->qp_uc) {
		/* UC has no READ/atomic resources or RNR: those attributes are RC's. */
		at->max_dest_rd_atomic = (uint8_t)agent_num(a, "max_dest_rd_atomic", 1);
		at->min_rnr_timer = (uint8_t)agent_num(a, "min_rnr_timer", 12);
		*mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	return 0;
}

/* RTR to RTS: the send PSN; RC's timeout, retries and READ/atomic depth. */
static int to_rts(struct agent *a, struct aobj *o, int *mask, struct ibv_qp_attr *at)
{
	*mask |= IBV_QP_SQ_PSN;
	if (o->qp_uc || o->qp_ud)
		return 0;
	at->timeout = (uint8_t)agent_num(a, "timeout", 14);
	at->retry_cnt = (uint8_t)agent_num(a, "retry_cnt", 3);
	at->rnr_retry = (uint8_t)agent_num(a, "rnr_retry", 2);
	at->max_rd_atomic = (uint8_t)agent_num(a, "max_rd_atomic", 1);
	*mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
	return 0;
}

int agent_qp_modify(struct agent *a, struct aobj *o, enum ibv_qp_state to, int omit)
{
	struct ibv_qp_attr at;
	int mask = IBV_QP_STATE, rc;

	memset(&at, 0, sizeof(at));
	at.qp_state = to;
	rc = to == IBV_QPS_INIT ? to_init(a, o, &mask, &at)
	     : to == IBV_QPS_RTR ? to_rtr(a, o, &mask, &at)
	     : to == IBV_QPS_RTS ? to_rts(a, o, &mask, &at) : 0;
	if (rc)
		return -rc;
	return ibv_modify_qp(o->qp, &at, mask & ~omit);
}

int agent_qp_to(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_QP, 1);
	char st[16];
	enum ibv_qp_state to;
	int rc;

	if (!o || proto_get(a->msg, "state", st, sizeof(st)))
		return agent_reply_err(a, EINVAL, "bad qp_to request");
	if (strcmp(st, "INIT") == 0)
		to = IBV_QPS_INIT;
	else if (strcmp(st, "RTR") == 0)
		to = IBV_QPS_RTR;
	else if (strcmp(st, "RTS") == 0)
		to = IBV_QPS_RTS;
	else
		return agent_reply_err(a, EINVAL, "qp_to: state %s not supported", st);
	rc = agent_qp_modify(a, o, to, (int)agent_num(a, "omit", 0));
	if (rc)
		return agent_reply_err(a, rc, "ibv_modify_qp %s: %s", st, strerror(rc));
	return proto_send(a->fd, "ok");
}

/* An AH's release at the agent's end (and when its id is reused). */
static void release_ah(struct agent *a, struct aobj *o)
{
	(void)a;
	if (o->live && o->ext)
		ibv_destroy_ah(o->ext);
	o->ext = NULL;
	o->live = 0;
}

int agent_create_ah(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *pd = agent_field_obj(a, "pd", AO_PD, 0);
	struct ibv_ah_attr at;
	char hex[64];

	memset(&at, 0, sizeof(at));
	if (!o || !pd || proto_get(a->msg, "gid", hex, sizeof(hex)) ||
	    proto_hex_decode(hex, at.grh.dgid.raw, sizeof(at.grh.dgid.raw)) != (int)sizeof(at.grh.dgid.raw))
		return agent_reply_err(a, EINVAL, "bad create_ah request");
	*o = (struct aobj){ .kind = AO_AH, .mem = o->mem, .buf = o->buf };
	at.is_global = 1;
	at.port_num = 1;
	at.grh.sgid_index = (uint8_t)a->node->gid_index;
	at.grh.hop_limit = 64;
	o->ext = ibv_create_ah(pd->pd, &at);
	if (!o->ext)
		return agent_reply_err(a, errno, "ibv_create_ah: %s", strerror(errno));
	o->live = 1;
	o->release = release_ah;
	return proto_send(a->fd, "ok");
}

int agent_destroy_ah(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_AH, 1);
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live AH");
	rc = ibv_destroy_ah(o->ext);
	if (rc)
		return agent_reply_err(a, rc, "ibv_destroy_ah: %s", strerror(rc));
	o->ext = NULL;
	o->live = 0;
	return proto_send(a->fd, "ok");
}

int agent_ud_wr(struct agent *a, struct ibv_send_wr *wr)
{
	struct aobj *ah;
	uint64_t v;

	if (proto_get_u64(a->msg, "ah", &v))
		return 0;
	if (!(ah = agent_field_obj(a, "ah", AO_AH, 1)))
		return -EINVAL;
	wr->wr.ud.ah = ah->ext;
	wr->wr.ud.remote_qpn = (uint32_t)agent_num(a, "rqpn", 0);
	wr->wr.ud.remote_qkey = (uint32_t)agent_num(a, "qkey", 0);
	return 0;
}

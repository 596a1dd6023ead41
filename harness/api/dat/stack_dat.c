/*
 * stack_dat.c — uDAPL calls on the real stack, through the node agents
 * (the requests: agent.h). A connection talks to both agents at once: the
 * server's agent listens (once per node) and waits for the request while
 * the client's agent connects.
 */
#include "harness/api/dat/api_dat.h"
#include "harness/run/stack.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DAT_PORT_BASE 45248 /* a node's PSP: its conn_qual, base + node index */
#define PEER_SETTLE_MS 1000 /* how long the peer of a broken connection may take to see it */
#define PEER_DISCONNECT_MS 2000 /* the peer of a dat_ep_disconnect (scm: never, after a DTO error) */

/* The reply's outcome, and for a success the object made. */
static int outcome(struct stack *st, const char *reply, struct hres *r)
{
	return stack_outcome(st, reply, &r->out);
}

static int ok(const struct hres *r)
{
	return r->out.kind == M_OUT_OK;
}

/* Does a DTO outcome break the connection (DAT-DTO-4)? */
static int breaks(struct m_outcome o)
{
	return o.kind == M_OUT_DTO && o.code != M_DTO_SUCCESS && o.code != M_DTO_ERR_FLUSHED;
}

/*
 * dat_ep_connect: the peer listens (once); this node's new EP connects
 * (dat_ep_connect refuses at once, e.g. too much private data, or goes on);
 * then the peer accepts while this node waits for ESTABLISHED.
 */
static int ep_connect(struct stack *st, const struct hcall *c, char *reply, struct hres *r)
{
	char ip[64], sreply[PROTO_LINE_MAX];
	int32_t aid = c->dat.accept >= 0 ? c->dat.accept : c->obj; /* the accepting EP's id (unnamed: this one's) */
	int rc, rs;

	rc = stack_call(st, c->dat.peer_node, reply, "dat_listen port=%u", DAT_PORT_BASE + c->dat.peer_node);
	if (rc)
		return rc;
	if (!proto_is(reply, "ok") || proto_get(reply, "ip", ip, sizeof(ip))) {
		snprintf(st->err, sizeof(st->err), "node %s cannot listen: %.200s", st->f->nodes[c->dat.peer_node], reply);
		return -EPROTO;
	}
	rc = stack_call(st, c->node, reply, "dat_connect id=%d pz=%d ip=%s port=%u pdata=%llu", c->obj, c->dat.pz, ip,
		     (unsigned)stack_field(reply, "port"), (unsigned long long)c->dat.pdata);
	if (rc || (rc = outcome(st, reply, r)) || !ok(r))
		return rc;
	rc = stack_send(st, c->dat.peer_node, "dat_accept id=%d pz=%d", aid, c->dat.peer_pz);
	if (rc == 0)
		rc = stack_send(st, c->node, "dat_connect_wait id=%d", c->obj);
	if (rc)
		return rc;
	rc = stack_recv(st, c->node, reply, st->step_ms + STACK_SLACK_MS);
	rs = stack_recv(st, c->dat.peer_node, sreply, st->step_ms + STACK_SLACK_MS);
	if (rc)
		return rc;
	if (rs)
		return rs;
	rc = outcome(st, reply, r);
	if (rc)
		return rc;
	if (ok(r) && !proto_is(sreply, "ok")) {
		snprintf(st->err, sizeof(st->err), "node %s did not accept: %.200s", st->f->nodes[c->dat.peer_node], sreply);
		return -EPROTO;
	}
	if (!ok(r))
		return 0;
	st->o[c->obj] = (struct stack_obj){ .made = 1, .peer_node = c->dat.peer_node, .peer_obj = aid };
	if (c->dat.accept >= 0)
		st->o[aid] = (struct stack_obj){ .made = 1, .peer_node = c->node, .peer_obj = c->obj };
	return 0;
}

/*
 * The EP's peer agent acts on its side of the connection: frees it, or waits
 * (up to wait_ms) until it saw the disconnection (the scm provider leaves the
 * peer CONNECTED after a DTO error until the initiator frees its EP).
 */
static int peer_wait(struct stack *st, const struct hcall *c, const char *what, int wait_ms)
{
	char reply[PROTO_LINE_MAX];
	const struct stack_obj *e = &st->o[c->obj];
	int rc = stack_call(st, e->peer_node, reply, "%s id=%d ms=%d", what, e->peer_obj, wait_ms);

	if (rc == 0 && !proto_is(reply, "ok") && stack_field(reply, "timeout") == 0) {
		snprintf(st->err, sizeof(st->err), "node %s: %s: %.200s", st->f->nodes[e->peer_node], what, reply);
		return -EPROTO;
	}
	return rc;
}

/*
 * After an answer that made or bound something: keep what it reported in c's
 * object (a bind that broke the connection lets the EP's peer see it); a
 * query's results into r.
 */
static int keep(struct stack *st, const struct hcall *c, const char *reply, struct hres *r)
{
	struct stack_obj *o = c->obj >= 0 ? &st->o[c->obj] : NULL;

	switch ((enum m_op_kind)c->op) {
	case M_OP_DAT_PZ_CREATE:
	case M_OP_DAT_RMR_CREATE:
		*o = (struct stack_obj){ .made = 1 };
		break;
	case M_OP_DAT_LMR_CREATE:
		*o = (struct stack_obj){ .made = 1, .v = { .addr = stack_field(reply, "addr"),
						       .iova = stack_field(reply, "registered_address"),
						       .len = stack_field(reply, "registered_size"),
						       .lkey = (uint32_t)stack_field(reply, "lmr_context"),
						       .rkey = (uint32_t)stack_field(reply, "rmr_context") } };
		break;
	case M_OP_DAT_RMR_BIND:
		if (r->out.code == M_DTO_SUCCESS) {
			o->v.rkey = (uint32_t)stack_field(reply, "rmr_context");
			o->v.start = c->dat.start;
			o->v.len = c->dat.len;
		}
		return breaks(r->out) ? peer_wait(st, &(struct hcall){ .obj = c->dat.ep }, "dat_ep_wait", PEER_SETTLE_MS) : 0;
	case M_OP_DAT_LMR_QUERY:
		return stack_query_reply(st, scn_call_get(c->call), reply, r);
	default:
		break;
	}
	return 0;
}

int stack_exec_dat(struct stack *st, const struct hcall *c, struct hres *r)
{
	static const char *const id_only[M_OP_COUNT_] = { /* the requests that name the object alone */
		[M_OP_DAT_PZ_CREATE] = "dat_pz_create", [M_OP_DAT_PZ_FREE] = "dat_pz_free",
		[M_OP_DAT_LMR_QUERY] = "dat_lmr_query", [M_OP_DAT_LMR_FREE] = "dat_lmr_free",
		[M_OP_DAT_RMR_FREE] = "dat_rmr_free",
	};
	char reply[PROTO_LINE_MAX], hex[2 * sizeof(c->dat.name) + 1];
	int rc;

	memset(r, 0, sizeof(*r));
	switch ((enum m_op_kind)c->op) {
	case M_OP_DAT_PZ_CREATE: case M_OP_DAT_PZ_FREE: case M_OP_DAT_LMR_QUERY: case M_OP_DAT_LMR_FREE:
	case M_OP_DAT_RMR_FREE:
		rc = stack_call(st, c->node, reply, "%s id=%d", id_only[c->op], c->obj);
		break;
	case M_OP_DAT_IA_OPEN:
		proto_hex_encode((const uint8_t *)c->dat.name, strlen(c->dat.name), hex);
		rc = stack_call(st, c->node, reply, "dat_ia_open name_hex=%s", hex);
		break;
	case M_OP_DAT_LMR_CREATE: {
		char from[32] = "";

		if (c->dat.lmr >= 0)
			snprintf(from, sizeof(from), " from=%d", c->dat.lmr);
		rc = stack_call(st, c->node, reply,
			     "dat_lmr_create id=%d pz=%d len=%llu priv=%u type=%u va=%u offset=%llu prot=%u%s", c->obj,
			     c->dat.pz, (unsigned long long)c->dat.len, c->dat.priv, c->dat.mem_type, c->dat.va_type,
			     (unsigned long long)c->dat.offset, c->dat.prot, from);
		break;
	}
	case M_OP_DAT_RMR_CREATE:
		rc = stack_call(st, c->node, reply, "dat_rmr_create id=%d pz=%d", c->obj, c->dat.pz);
		break;
	case M_OP_DAT_RMR_BIND:
		rc = stack_call(st, c->node, reply, "dat_rmr_bind id=%d ep=%d lmr=%d addr=0x%llx len=%llu priv=%u", c->obj,
			     c->dat.ep, c->dat.lmr, (unsigned long long)c->dat.start, (unsigned long long)c->dat.len,
			     c->dat.priv);
		break;
	case M_OP_DAT_EP_CONNECT:
		return ep_connect(st, c, reply, r);
	case M_OP_DAT_EP_DISCONNECT:
		rc = stack_call(st, c->node, reply, "dat_ep_disconnect id=%d", c->obj);
		if (rc || (rc = outcome(st, reply, r)))
			return rc;
		return ok(r) ? peer_wait(st, c, "dat_ep_wait", PEER_DISCONNECT_MS) : 0;
	case M_OP_DAT_EP_FREE:
		rc = stack_call(st, c->node, reply, "dat_ep_free id=%d", c->obj);
		if (rc || (rc = outcome(st, reply, r)))
			return rc;
		if (!ok(r))
			return 0;
		/* an EP whose other end is named too goes alone: its peer sees the disconnection */
		return st->o[c->obj].peer_obj != c->obj ? peer_wait(st, c, "dat_ep_wait", PEER_DISCONNECT_MS)
							: peer_wait(st, c, "dat_ep_free", st->step_ms);
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ:
		rc = stack_call(st, c->node, reply, "dat_post id=%d op=%s laddr=0x%llx lkey=%u len=%llu raddr=0x%llx rkey=%u",
			     c->obj, c->op == M_OP_DAT_RDMA_WRITE ? "write" : "read", (unsigned long long)c->dat.laddr,
			     c->dat.lkey, (unsigned long long)c->dat.len, (unsigned long long)c->dat.raddr, c->dat.rkey);
		if (rc || (rc = outcome(st, reply, r)))
			return rc;
		/* The provider disconnected the broken connection: let the peer see it. */
		return breaks(r->out) ? peer_wait(st, c, "dat_ep_wait", PEER_SETTLE_MS) : 0;
	default:
		return -EINVAL;
	}
	if (rc || (rc = outcome(st, reply, r)))
		return rc;
	if (!ok(r) && !(c->op == M_OP_DAT_RMR_BIND && r->out.kind == M_OUT_DTO))
		return 0;
	return keep(st, c, reply, r);
}

/*
 * stack_rpma.c — librpma calls on the real stack, through the node agents
 * (requests in agent.h). A connection needs both of its nodes at once: the
 * server's agent listens (and, for pmem, hands out its peer cfg), then it is
 * told to accept while the client's is told to connect, and both answer; a
 * disconnect likewise tells the client to disconnect and the server to close.
 * The coordinator keeps every descriptor it saw (an rpma MR's, as its agent
 * reported it; a remote MR's, the bytes it was made from) and hands them on
 * byte for byte (blob).
 */
#include "harness/api/rpma/api_rpma.h"
#include "harness/run/stack.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define DESC_SIZE 21 /* librpma 1.2.0's descriptor (RPMA-DESC-1) */

/* The hex value of key in reply into out (cap bytes); the byte count, or -EPROTO. */
static int reply_bytes(const char *reply, const char *key, uint8_t *out, size_t cap)
{
	char hex[2 * 32 + 2];
	int n;

	if (proto_get(reply, key, hex, sizeof(hex)))
		return -EPROTO;
	n = proto_hex_decode(hex, out, cap);
	return n < 0 ? -EPROTO : n;
}

static uint64_t le(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | b[n];
	return v;
}

/* What a peer needs of a descriptor: its bytes (the first 21) and its fields. */
static void take_desc(struct stack_obj *o, const uint8_t *d, size_t n)
{
	memset(o->desc, 0, sizeof(o->desc));
	memcpy(o->desc, d, n < DESC_SIZE ? n : DESC_SIZE);
	o->ndesc = DESC_SIZE;
	o->v.addr = o->v.iova = le(o->desc, 8);
	o->v.len = le(o->desc + 8, 8);
	o->v.rkey = (uint32_t)le(o->desc + 16, 4);
}

int stack_blob_rpma(struct stack *st, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	const struct stack_obj *o;
	uint32_t cls;

	if (obj < 0 || (size_t)obj >= st->f->nobjs)
		return -EINVAL;
	o = &st->o[obj];
	cls = st->f->objs[obj].cls;
	if (cls != SCN_C_RPMA_MR && cls != SCN_C_RPMA_REMOTE)
		return -EINVAL;
	if (!o->made || !o->ndesc)
		return -ENOENT;
	if (cap < o->ndesc)
		return -ENOSPC;
	memcpy(buf, o->desc, o->ndesc);
	*len = o->ndesc;
	return 0;
}

/* Both halves of a connection: server c->rpma.peer_node accepts, client c->node connects. */
static int rpma_connect(struct stack *st, const struct hcall *c, char *reply, struct hres *r)
{
	char ip[64], port[16], pcfg[2 * 32 + 8] = "", sreply[PROTO_LINE_MAX];
	unsigned s = c->rpma.peer_node;
	int rc, rs;

	if (s >= st->n || s == c->node)
		return -EINVAL;
	rc = stack_call(st, s, reply, "rpma_listen");
	if (rc)
		return rc;
	if (!proto_is(reply, "ok") || proto_get(reply, "ip", ip, sizeof(ip)) || proto_get(reply, "port", port, sizeof(port))) {
		snprintf(st->err, sizeof(st->err), "node %s cannot listen: %.200s", st->f->nodes[s], reply);
		return -EIO;
	}
	if (c->rpma.pmem) {
		/* The server's peer cfg says it writes directly to pmem; the client applies it. */
		char d[2 * 32 + 2];

		rc = stack_call(st, s, reply, "rpma_peer_cfg");
		if (rc)
			return rc;
		if (!proto_is(reply, "ok") || proto_get(reply, "desc", d, sizeof(d))) {
			snprintf(st->err, sizeof(st->err), "node %s: no peer cfg: %.200s", st->f->nodes[s], reply);
			return -EIO;
		}
		snprintf(pcfg, sizeof(pcfg), " pcfg=%s", d);
	}
	if ((rc = stack_send(st, s, "rpma_accept id=%d", c->obj)) ||
	    (rc = stack_send(st, c->node, "rpma_connect id=%d ip=%s port=%s%s", c->obj, ip, port, pcfg)))
		return rc;
	rc = stack_recv(st, c->node, reply, st->step_ms + STACK_SLACK_MS);
	rs = stack_recv(st, s, sreply, st->step_ms + STACK_SLACK_MS);
	if (rc || rs)
		return rc ? rc : rs;
	if (!proto_is(reply, "ok") || !proto_is(sreply, "ok")) {
		snprintf(st->err, sizeof(st->err), "rpma_connect %s -> %s: client '%.160s', server '%.160s'",
			 st->f->nodes[c->node], st->f->nodes[s], reply, sreply);
		return -EIO;
	}
	st->o[c->obj] = (struct stack_obj){ .made = 1, .peer_node = (uint8_t)s };
	r->out = (struct m_outcome){ M_OUT_OK, 0 };
	return 0;
}

/* The client disconnects while the server waits for it and closes its half. */
static int rpma_disconnect(struct stack *st, const struct hcall *c, char *reply, struct hres *r)
{
	const struct stack_obj *o = &st->o[c->obj];
	char sreply[PROTO_LINE_MAX];
	int rc, rs;

	if ((c->rpma.nulls & 1) || !o->made) {
		/* NULL (or no connection): librpma refuses at once; the server stays. */
		rc = stack_call(st, c->node, reply, "rpma_disconnect id=%d nulls=%u", c->obj, c->rpma.nulls);
		return rc ? rc : stack_outcome(st, reply, &r->out);
	}
	if ((rc = stack_send(st, c->node, "rpma_disconnect id=%d nulls=0", c->obj)) ||
	    (rc = stack_send(st, o->peer_node, "rpma_close id=%d", c->obj)))
		return rc;
	rc = stack_recv(st, c->node, reply, st->step_ms + STACK_SLACK_MS);
	rs = stack_recv(st, o->peer_node, sreply, st->step_ms + STACK_SLACK_MS);
	if (rc || rs)
		return rc ? rc : rs;
	if (!proto_is(sreply, "ok")) {
		snprintf(st->err, sizeof(st->err), "rpma_conn_disconnect: server '%.200s'", sreply);
		return -EIO;
	}
	return stack_outcome(st, reply, &r->out);
}

/* rpma_read/write/atomic_write/flush. */
static int rpma_io(struct stack *st, const struct hcall *c, char *reply)
{
	static const char *const ops[M_OP_COUNT_] = {
		[M_OP_RPMA_READ] = "read", [M_OP_RPMA_WRITE] = "write",
		[M_OP_RPMA_ATOMIC_WRITE] = "atomic_write", [M_OP_RPMA_FLUSH] = "flush",
	};
	char local[32] = "", remote[32] = "";

	if (c->rpma.mr >= 0)
		snprintf(local, sizeof(local), " local=%d", c->rpma.mr);
	if (c->rpma.remote >= 0)
		snprintf(remote, sizeof(remote), " remote=%d", c->rpma.remote);
	return stack_call(st, c->node, reply,
		       "rpma_io id=%d op=%s%s loff=%llu%s roff=%llu len=%llu flags=%u type=%u value=%llu nulls=%u",
		       c->obj, ops[c->op], local, (unsigned long long)c->rpma.offset, remote,
		       (unsigned long long)c->rpma.roff, (unsigned long long)c->rpma.len, c->rpma.flags, c->rpma.flush_type,
		       (unsigned long long)c->rpma.value, c->rpma.nulls);
}

int stack_exec_rpma(struct stack *st, const struct hcall *c, struct hres *r)
{
	static const char *const obj_only[M_OP_COUNT_] = { /* the requests that name the object and nulls alone */
		[M_OP_RPMA_MR_DEREG] = "rpma_dereg", [M_OP_RPMA_MR_GET_DESC] = "rpma_desc",
		[M_OP_RPMA_MR_GET_DESC_SIZE] = "rpma_desc_size", [M_OP_RPMA_REMOTE_GET_SIZE] = "rpma_remote_size",
		[M_OP_RPMA_REMOTE_GET_FLUSH_TYPE] = "rpma_remote_flush_type",
	};
	char reply[PROTO_LINE_MAX], hex[2 * sizeof(c->rpma.desc) + 8] = "", buf[32] = "";
	struct stack_obj *o = c->obj >= 0 ? &st->o[c->obj] : NULL;
	uint8_t d[32];
	int rc, n;

	memset(r, 0, sizeof(*r));
	if (!o)
		return -EINVAL;
	switch ((enum m_op_kind)c->op) {
	case M_OP_RPMA_MR_DEREG: case M_OP_RPMA_MR_GET_DESC: case M_OP_RPMA_MR_GET_DESC_SIZE:
	case M_OP_RPMA_REMOTE_GET_SIZE: case M_OP_RPMA_REMOTE_GET_FLUSH_TYPE:
		rc = stack_call(st, c->node, reply, "%s id=%d nulls=%u", obj_only[c->op], c->obj, c->rpma.nulls);
		break;
	case M_OP_RPMA_MR_REG:
		if (c->rpma.mr >= 0)
			snprintf(buf, sizeof(buf), " buf=%d", c->rpma.mr);
		rc = stack_call(st, c->node, reply, "rpma_reg id=%d len=%llu usage=%u offset=%llu prot=%u nulls=%u%s",
			     c->obj, (unsigned long long)c->rpma.len, c->rpma.usage, (unsigned long long)c->rpma.offset,
			     c->rpma.prot, c->rpma.nulls, buf);
		break;
	case M_OP_RPMA_REMOTE_FROM_DESC:
		if (c->rpma.ndesc) {
			strcpy(hex, " hex=");
			proto_hex_encode(c->rpma.desc, c->rpma.ndesc, hex + 5);
		}
		rc = stack_call(st, c->node, reply, "rpma_remote id=%d size=%u nulls=%u%s", c->obj, c->rpma.size,
				c->rpma.nulls, hex);
		break;
	case M_OP_RPMA_CONNECT:
		return rpma_connect(st, c, reply, r);
	case M_OP_RPMA_DISCONNECT:
		return rpma_disconnect(st, c, reply, r);
	case M_OP_RPMA_READ: case M_OP_RPMA_WRITE: case M_OP_RPMA_ATOMIC_WRITE: case M_OP_RPMA_FLUSH:
		rc = rpma_io(st, c, reply);
		break;
	default:
		return -EINVAL;
	}
	if (rc || (rc = stack_outcome(st, reply, &r->out)))
		return rc;
	if (r->out.kind != M_OUT_OK)
		return 0;
	switch ((enum m_op_kind)c->op) {
	case M_OP_RPMA_MR_REG:
	case M_OP_RPMA_MR_GET_DESC:
		/* The descriptor as the agent reported it (a later one replaces it). */
		if ((n = reply_bytes(reply, "desc", d, sizeof(d))) < DESC_SIZE) {
			snprintf(st->err, sizeof(st->err), "%s: no descriptor in '%.120s'", st->f->objs[c->obj].name, reply);
			return -EPROTO;
		}
		take_desc(o, d, (size_t)n);
		o->made = 1;
		if (c->op == M_OP_RPMA_MR_REG)
			o->v.addr = o->v.iova = stack_field(reply, "addr");
		break;
	case M_OP_RPMA_REMOTE_FROM_DESC:
		take_desc(o, c->rpma.desc, c->rpma.ndesc);
		o->made = 1;
		break;
	default:
		break;
	}
	if (scn_call_get(c->call)->kind == SCN_KIND_QUERY)
		return stack_query_reply(st, scn_call_get(c->call), reply, r);
	return 0;
}

/*
 * stack_rpmem.c — librpmem calls on the real stack, through the node agents
 * (agent_rpmem.c; the requests: harness/agent/agent.h). A target node's agent
 * keeps the root config directory with the scenario's pool set files; a
 * client node's agent calls librpmem-rpma, which starts the target's daemon
 * itself (RPMEM_CMD). create/open/remove first ask the target's agent where
 * it is (address, root directory, network namespace) and hand that to the
 * client; a target on another kernel starts the daemon itself and the client
 * dials it (rpmem_serve: port and one-time key).
 *
 * A pool object stands for its pool on the target: its bytes, for check and
 * the end-of-scenario comparison with the model, are read from the target's
 * part files (stack_read_rpmem), not from the client's memory, as runs of
 * one byte value (rpmem_pool_runs): a pool is mostly long runs, so reading a
 * whole pool takes a few requests, not one per KiB.
 */
#include "harness/api/rpmem/api_rpmem.h"
#include "harness/run/proto.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The last stretch of a pool read from its target (rpmem_pool_runs), so the
 * comparison's many small reads cost one request per stretch. It holds the
 * bytes of one stack's object as they were after its last librpmem call:
 * every call (stack_exec_rpmem) forgets it, as does a read of another.
 * One a thread: explore's lanes run a stack each in threads of their own.
 */
static _Thread_local struct {
	const struct stack *st;
	int32_t obj;
	uint64_t off, n;
	uint8_t b[AGENT_RPMEM_RUNS_MAX];
} seen;

/*
 * " ip=A root=DIR netns=NS" of target node t (its agent's rpmem_target
 * answer) into out; for a target on another kernel (a remote agent) also
 * " port=N key=HEX": its agent starts the daemon for this one call
 * (rpmem_serve, as the client could not there), whose answer has the
 * target's fields too: one round trip.
 */
static int target_fields(struct stack *st, unsigned t, char *out, size_t cap)
{
	char reply[PROTO_LINE_MAX], ip[64], root[1024], ns[256], port[16] = "", key[80] = "";
	int rc;

	if (t >= st->n)
		return -EINVAL;
	if ((rc = stack_call(st, t, reply, st->ag[t].remote ? "rpmem_serve" : "rpmem_target")) != 0)
		return rc;
	if (!proto_is(reply, "ok") || proto_get(reply, "ip", ip, sizeof(ip)) ||
	    proto_get(reply, "root", root, sizeof(root)) || proto_get(reply, "netns", ns, sizeof(ns)))
		goto bad;
	if (st->ag[t].remote &&
	    (proto_get(reply, "port", port, sizeof(port)) || proto_get(reply, "key", key, sizeof(key))))
		goto bad;
	snprintf(out, cap, " ip=%s root=%s netns=%s%s%s%s%s", ip, root, ns, *port ? " port=" : "", port,
		 *key ? " key=" : "", key);
	return 0;
bad:
	snprintf(st->err, sizeof(st->err), "node %s is no librpmem target: %.200s", st->f->nodes[t], reply);
	return -EPROTO;
}

/* The request line of c (into line). */
static int request(struct stack *st, const struct hcall *c, char *line, size_t cap)
{
	const struct m_rpmem_args *a = &c->rpmem.a;
	const char *verb = m_op_kind_str((enum m_op_kind)c->op);
	char where[1400], attr[2 * sizeof(a->attr) + 8] = "";
	int rc;

	if (c->rpmem.nattr) {
		strcpy(attr, " attr=");
		proto_hex_encode((const uint8_t *)&a->attr, sizeof(a->attr), attr + 6);
	}
	switch ((enum m_op_kind)c->op) {
	case M_OP_RPMEM_POOLSET:
		snprintf(line, cap, "%s set=%s size=%llu parts=%u opt=%u malformed=%u", verb, a->set,
			 (unsigned long long)a->part[0], a->nparts, a->opt, a->malformed);
		return 0;
	case M_OP_RPMEM_CREATE:
	case M_OP_RPMEM_OPEN:
		if ((rc = target_fields(st, a->target, where, sizeof(where))) != 0)
			return rc;
		snprintf(line, cap, "%s id=%d%s set=%s size=%llu addr_off=%llu null_addr=%u nlanes=%u nulls=%u "
			 "max_nlanes_env=%u%s", verb, c->obj, where, a->set, (unsigned long long)a->pool_size,
			 (unsigned long long)(a->pool_addr % 4096), a->pool_addr == 0, a->nlanes, a->nulls,
			 a->max_nlanes_env, attr);
		return 0;
	case M_OP_RPMEM_REMOVE:
		if ((rc = target_fields(st, a->target, where, sizeof(where))) != 0)
			return rc;
		snprintf(line, cap, "%s%s set=%s flags=%u", verb, where, a->set, a->flags);
		return 0;
	case M_OP_RPMEM_SET_ATTR:
		snprintf(line, cap, "%s id=%d nulls=%u%s", verb, c->obj, a->nulls, attr);
		return 0;
	case M_OP_RPMEM_FILL: /* the client's stores into its pool memory: the core's fill */
		snprintf(line, cap, "fill id=%d byte=%u off=%llu len=%llu", c->obj, a->byte,
			 (unsigned long long)a->offset, (unsigned long long)a->len);
		return 0;
	case M_OP_RPMEM_CLOSE:
	case M_OP_RPMEM_LINK_DOWN:
		snprintf(line, cap, "%s id=%d", verb, c->obj);
		return 0;
	default: /* persist, deep_persist, flush, drain, read */
		snprintf(line, cap, "%s id=%d off=%llu len=%llu lane=%u flags=%u", verb, c->obj,
			 (unsigned long long)a->offset, (unsigned long long)a->len, a->lane, a->flags);
		return 0;
	}
}

int stack_exec_rpmem(struct stack *st, const struct hcall *c, struct hres *r)
{
	const struct m_rpmem_args *a = &c->rpmem.a;
	char line[PROTO_LINE_MAX], reply[PROTO_LINE_MAX];
	int rc;

	memset(r, 0, sizeof(*r));
	seen.st = NULL; /* the pools may change */
	if ((rc = request(st, c, line, sizeof(line))) != 0 ||
	    (rc = stack_call_outcome(st, c->node, line, reply, &r->out)) != 0)
		return rc;
	if ((c->op == M_OP_RPMEM_CREATE || c->op == M_OP_RPMEM_OPEN) && c->obj >= 0 && r->out.kind == M_OUT_OK) {
		struct stack_obj *o = &st->o[c->obj];

		*o = (struct stack_obj){ .made = 1, .peer_node = a->target };
		o->v.cls = st->f->objs[c->obj].cls;
		o->v.len = a->pool_size;
		snprintf(o->set, sizeof(o->set), "%s", a->set);
		return stack_query_reply(st, scn_call_get(c->call), reply, r); /* *nlanes, open_attr */
	}
	return 0;
}


/* Decode "HH:COUNT,..." covering exactly n bytes into out. 0 or -EPROTO. */
static int runs_decode(const char *runs, uint8_t *out, uint64_t n)
{
	uint64_t at = 0;

	while (*runs && at < n) {
		char *end;
		unsigned long b = strtoul(runs, &end, 16);
		unsigned long long k;

		if (end != runs + 2 || *end != ':' || b > 255)
			return -EPROTO;
		k = strtoull(end + 1, &end, 10);
		if (!k || k > n - at || (*end && *end != ','))
			return -EPROTO;
		memset(out + at, (int)b, (size_t)k);
		at += k;
		runs = *end ? end + 1 : end;
	}
	return at == n && !*runs ? 0 : -EPROTO;
}

/* Fetch the stretch of obj's pool from pos (want bytes at most) into seen. */
static int fetch(struct stack *st, int32_t obj, uint64_t pos, uint64_t want)
{
	const struct stack_obj *o = &st->o[obj];
	static _Thread_local char reply[PROTO_LINE_MAX]; /* one a thread, as seen */
	char runs[PROTO_LINE_MAX];
	uint64_t n;
	int rc;

	seen.st = NULL;
	rc = stack_call(st, o->peer_node, reply, "rpmem_pool_runs set=%s off=%llu len=%llu", o->set,
			(unsigned long long)pos, (unsigned long long)want);
	if (rc)
		return rc;
	if (proto_is(reply, "err")) { /* the model holds bytes the target has no part files for */
		snprintf(st->err, sizeof(st->err), "the pool of %s on node %s: %.200s", o->set,
			 st->f->nodes[o->peer_node], reply);
		return -EIO;
	}
	n = stack_field(reply, "n");
	if (!proto_is(reply, "ok") || !n || n > want || proto_get(reply, "runs", runs, sizeof(runs)) ||
	    runs_decode(runs, seen.b, n))
		return -EPROTO;
	seen.st = st;
	seen.obj = obj;
	seen.off = pos;
	seen.n = n;
	return 0;
}

int stack_read_rpmem(struct stack *st, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	uint64_t pool = st->o[obj].v.len; /* pool_size: what a comparison reads up to */

	for (size_t done = 0; done < len;) {
		uint64_t pos = off + done;

		if (seen.st != st || seen.obj != obj || pos < seen.off || pos >= seen.off + seen.n) {
			uint64_t want = pool > pos && pool - pos > len - done ? pool - pos : len - done;
			int rc = fetch(st, obj, pos, want < AGENT_RPMEM_RUNS_MAX ? want : AGENT_RPMEM_RUNS_MAX);

			if (rc)
				return rc;
		}
		size_t k = (size_t)(seen.off + seen.n - pos) < len - done ? (size_t)(seen.off + seen.n - pos) : len - done;

		memcpy(buf + done, seen.b + (pos - seen.off), k);
		done += k;
	}
	return 0;
}

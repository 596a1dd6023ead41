/*
 * stack.c — the real stack as an engine (stack.h): a call goes to its
 * family's stack_exec (family.h), which talks to the node agents
 * (agents.c); what the agents reported of each object answers ref, attr,
 * read, peer and blob.
 */
#include "harness/run/stack.h"
#include "harness/run/family.h"
#include "harness/run/proto.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int stack_outcome(struct stack *st, const char *reply, struct m_outcome *o)
{
	char word[48];
	uint64_t v;

	if (proto_is(reply, "ok")) {
		*o = (struct m_outcome){ M_OUT_OK, 0 };
		if (proto_get(reply, "outcome", word, sizeof(word)) == 0 && m_outcome_parse(word, o))
			return -EPROTO;
		if (proto_get(reply, "status", word, sizeof(word)) == 0) {
			enum m_wc_status s;

			if (m_wc_status_parse(word, &s))
				return -EPROTO;
			*o = (struct m_outcome){ M_OUT_WC, (int16_t)s };
		}
		return 0;
	}
	if (proto_is(reply, "err") && proto_get_u64(reply, "errno", &v) == 0 && v < 4096) {
		if (proto_get_u64(reply, "timeout", &v) == 0) {
			snprintf(st->err, sizeof(st->err), "no completion within the step timeout (%d ms)",
				 st->step_ms);
			return -ETIMEDOUT;
		}
		proto_get_u64(reply, "errno", &v);
		*o = (struct m_outcome){ M_OUT_ERRNO, (int16_t)v };
		return 0;
	}
	snprintf(st->err, sizeof(st->err), "malformed agent answer '%.80s'", reply);
	return -EPROTO;
}

int stack_call_outcome(struct stack *st, unsigned node, const char *line, char *reply, struct m_outcome *o)
{
	int rc = stack_call(st, node, reply, "%s", line);

	return rc ? rc : stack_outcome(st, reply, o);
}

uint64_t stack_field(const char *reply, const char *key)
{
	uint64_t v = 0;

	proto_get_u64(reply, key, &v);
	return v;
}

/* The index of the spec of call's query list whose key is f's, trying hint first (the agents answer in the
 * list's order), or -1. */
static int query_key(const struct scn_arg_spec *query, const struct proto_field *f, int hint)
{
	const char *k = query[hint].key;

	if (k && strncmp(k, f->key, f->klen) == 0 && k[f->klen] == '\0')
		return hint;
	for (int i = 0; query[i].key; i++)
		if (strncmp(query[i].key, f->key, f->klen) == 0 && query[i].key[f->klen] == '\0')
			return i;
	return -1;
}

/* v as strtoull(v, &end, 0) reads it, for the plain decimals the agents write (up to 19 digits): 0 with *out,
 * else -1 (left to strtoull: 0x, octal, signs, junk). */
static int plain_decimal(const char *v, uint64_t *out)
{
	uint64_t x = 0;
	size_t n = 0;

	if (v[0] == '0')
		return v[1] ? -1 : (*out = 0, 0);
	for (; v[n] >= '0' && v[n] <= '9'; n++)
		x = x * 10 + (uint64_t)(v[n] - '0');
	if (n == 0 || n > 19 || v[n])
		return -1;
	*out = x;
	return 0;
}

int stack_query_reply(struct stack *st, const struct scn_call *call, const char *reply, struct hres *r)
{
	struct proto_field f, at[32]; /* the first field of each result's key (hres.q: 32 at most) */
	uint32_t seen = 0;
	const char *pos = reply;
	int hint = 0;

	if (!call->query)
		return 0;
	while (proto_next_field(&pos, &f)) { /* one pass over the answer, not one per result */
		int i = f.val ? query_key(call->query, &f, hint) : -1;

		if (i < 0 || i >= 32 || (seen & (1u << i)))
			continue;
		seen |= 1u << i;
		at[i] = f;
		hint = call->query[i + 1].key ? i + 1 : 0;
	}
	for (int i = 0; call->query[i].key && i < 32; i++) {
		const struct scn_arg_spec *sp = &call->query[i];
		char v[64], *end;

		if (!(seen & (1u << i)) || at[i].vlen >= sizeof(v))
			continue; /* absent, or too long to be one of ours: as proto_get, not reported */
		memcpy(v, at[i].val, at[i].vlen);
		v[at[i].vlen] = '\0';
		if ((sp->kinds & SCN_V_WORD) && scn_table_lookup((enum scn_table)sp->table, v, &r->q[i]) == 0) {
			r->qset |= 1u << i;
			continue;
		}
		if (plain_decimal(v, &r->q[i]) == 0) {
			r->qset |= 1u << i;
			continue;
		}
		r->q[i] = strtoull(v, &end, 0);
		if (*end || v[0] == '-') {
			snprintf(st->err, sizeof(st->err), "%s: bad %s=%s in the answer", call->name, sp->key, v);
			return -EPROTO;
		}
		r->qset |= 1u << i;
	}
	return 0;
}

/* A step: its family's requests, between two looks at every agent (stack_watch). */
static int stack_exec(void *be, const struct hcall *c, struct hres *r)
{
	const struct api_family *fam = api_family_get(scn_call_get(c->call)->api);
	int rc = stack_watch(be), dead;

	memset(r, 0, sizeof(*r));
	if (rc)
		return rc;
	((struct stack *)be)->extra_ms = (int)c->extra_ms;
	rc = fam && fam->stack_exec ? fam->stack_exec(be, c, r) : -EINVAL;
	((struct stack *)be)->extra_ms = 0;
	dead = stack_watch(be); /* a death anywhere during the step (a passive peer's too) */
	return dead ? dead : rc;
}

/* A chain of WRs: its family's requests, between two looks at every agent. */
static int stack_exec_chain(void *be, const struct hcall *c, size_t n, struct hres *r)
{
	const struct api_family *fam = api_family_get(scn_call_get(c->call)->api);
	int rc = stack_watch(be), dead;

	memset(r, 0, sizeof(*r) * n);
	if (rc)
		return rc;
	rc = fam && fam->stack_exec_chain ? fam->stack_exec_chain(be, c, n, r) : -EINVAL;
	dead = stack_watch(be);
	return dead ? dead : rc;
}

static const char *stack_why(void *be)
{
	const struct stack *st = be;

	return st->err[0] ? st->err : NULL;
}

/* The view of object obj the agents reported, or NULL if it was never made. */
static const struct hview *view(struct stack *st, int32_t obj)
{
	struct stack_obj *o = &st->o[obj];

	o->v.cls = st->f->objs[obj].cls;
	return o->made ? &o->v : NULL;
}

static int stack_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	const struct hview *v = view(be, obj);

	return v ? hview_ref(v, off, remote, addr, key) : -ENOENT;
}

static int stack_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *out)
{
	const struct hview *v = view(be, obj);

	return v ? hview_attr(v, a, out) : -ENOENT;
}

int stack_read_mem(struct stack *st, unsigned node, const char *req, uint64_t off, size_t len, uint8_t *buf)
{
	char reply[PROTO_LINE_MAX];

	for (size_t done = 0; done < len;) {
		size_t n = len - done < AGENT_READ_MAX ? len - done : AGENT_READ_MAX;
		int rc = stack_call(st, node, reply, "%s off=%llu len=%zu", req, (unsigned long long)(off + done), n);

		if (rc)
			return rc;
		if (proto_is(reply, "err") && stack_field(reply, "errno") == ENOENT) {
			snprintf(st->err, sizeof(st->err), "node %s: %.200s", st->f->nodes[node], reply);
			return -ENOENT; /* no bytes behind it (an unmapped registration, a missing part file) */
		}
		if (!proto_is(reply, "ok") || stack_field(reply, "bytes") != n) {
			snprintf(st->err, sizeof(st->err), "bad answer to read: '%.80s'", reply);
			return -EPROTO;
		}
		rc = stack_recv_bytes(st, node, buf + done, n, st->step_ms + st->extra_ms + STACK_SLACK_MS);
		if (rc)
			return rc;
		done += n;
	}
	return 0;
}

static int stack_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	struct stack *st = be;
	char req[32];

	if (!st->o[obj].made)
		return -ENOENT;
	for (size_t i = 0; i < api_family_count(); i++) {
		const struct api_family *fam = api_family_get(i);

		if (fam->stack_read && (fam->read_classes & st->f->objs[obj].cls))
			return fam->stack_read(st, obj, off, len, buf);
	}
	snprintf(req, sizeof(req), "read id=%d", obj);
	/* -ENOENT: no bytes behind it (an unmapped registration) */
	return stack_read_mem(st, st->f->objs[obj].node, req, off, len, buf);
}

/* The receive completion's opcode=, len=, imm=, flags= and inv= of the agent's recvs answer, if it gave them. */
static void stack_peer_wc(const char *reply, struct m_recv_wc *wc)
{
	char word[40];
	enum m_wc_opcode o;
	uint64_t v;

	memset(wc, 0, sizeof(*wc));
	if (proto_get(reply, "opcode", word, sizeof(word)) || m_wc_opcode_parse(word, &o) ||
	    proto_get_u64(reply, "len", &v))
		return;
	wc->known = 1;
	wc->opcode = (uint8_t)o;
	wc->byte_len = (uint32_t)v;
	if (proto_get_u64(reply, "imm", &v) == 0) {
		wc->has_imm = 1;
		wc->imm = (uint32_t)v;
	}
	if (proto_get_u64(reply, "flags", &v) == 0) {
		wc->flags_known = 1;
		wc->flags = (uint32_t)v;
		if (proto_get_u64(reply, "inv", &v) == 0)
			wc->inv = (uint32_t)v;
	}
}

static int stack_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	struct stack *st = be;
	char reply[PROTO_LINE_MAX], word[40];
	unsigned node = st->f->objs[qp].node;
	int rc;

	out->state = out->recv = -1;
	out->wc.known = 0;
	if (!st->o[qp].made)
		return -ENOENT;
	rc = stack_call(st, node, reply, "recvs id=%d wait_ms=%d", qp, wait_ms);
	if (rc)
		return rc;
	if (proto_is(reply, "err") && stack_field(reply, "errno") == ENOENT)
		return -ENOENT; /* destroyed: nothing to observe */
	if (proto_is(reply, "ok") && stack_field(reply, "n") == 1 && proto_get(reply, "status", word, sizeof(word)) == 0) {
		enum m_wc_status s;

		if (m_wc_status_parse(word, &s) == 0)
			out->recv = (int)s;
		stack_peer_wc(reply, &out->wc);
	}
	if (proto_is(reply, "ok") && proto_get(reply, "state", word, sizeof(word)) == 0) { /* one request for both */
		enum m_qp_state s;

		if (m_qp_state_parse(word, &s) == 0)
			out->state = (int)s;
	}
	return 0;
}

/* The family whose objects of class cls export bytes (family.h: stack_blob). */
static int stack_blob(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	struct stack *st = be;
	uint32_t cls;

	if (obj < 0 || (size_t)obj >= st->f->nobjs)
		return -EINVAL;
	cls = st->f->objs[obj].cls;
	for (size_t i = 0; i < api_family_count(); i++) {
		const struct api_family *fam = api_family_get(i);

		if (fam->stack_blob && (fam->blob_classes & cls))
			return fam->stack_blob(st, obj, buf, cap, len);
	}
	return -EINVAL;
}

/* backend_ops.ahead: c's one request through its family's stack_exec, sent and queued (agents.c). */
static int stack_ahead(void *be, const struct hcall *c)
{
	struct stack *st = be;
	const struct api_family *fam = api_family_get(scn_call_get(c->call)->api);
	struct hres r;
	int rc;

	if (!fam || !fam->stack_ahead || !fam->stack_exec || !fam->stack_ahead(c))
		return -EAGAIN;
	st->capture = 1;
	rc = fam->stack_exec(st, c, &r);
	st->capture = 0;
	return rc == -EINPROGRESS ? 0 : rc ? rc : -EPROTO;
}

const struct backend_ops stack_ops = {
	.name = "stack",
	.exec = stack_exec,
	.exec_chain = stack_exec_chain,
	.ref = stack_ref,
	.attr = stack_attr,
	.read = stack_read,
	.peer = stack_peer,
	.blob = stack_blob,
	.why = stack_why,
	.ahead = stack_ahead,
};


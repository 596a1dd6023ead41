/*
 * stack_mrapi.c — MRAPI calls on the real stack, through the node agents
 * (the requests: harness/agent/agent.h). Each agent is one MRAPI node; the
 * domain's directory service listens on the first node's address, at a port
 * its agent names (the library starts the service at the first
 * mrapi_initialize that finds none, and it ends 2 s after its last node).
 */
#include "harness/api/mrapi/api_mrapi.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Is d one of the comma-separated words of list? */
static int listed(const char *list, const char *d)
{
	size_t n = strlen(d);

	for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (!strncmp(p, d, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/* The domains the scenario's mrapi_initialize steps name (default 1), as "D,D,..." into out. */
static void scenario_domains(const struct scn_file *f, char *out, size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < f->nsteps; i++) {
		const struct scn_value *v;
		char d[24];

		if (strcmp(scn_step_call(&f->steps[i])->name, "mrapi_initialize") != 0)
			continue;
		v = scn_step_arg(&f->steps[i], "domain");
		snprintf(d, sizeof(d), "%llu", v ? (unsigned long long)v->num : 1ull);
		if (!listed(out, d) && len + strlen(d) + 2 < cap)
			len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? "," : "", d);
	}
}

/*
 * The directory of this scenario run, "ip:port", and its keyring (keys: the
 * agents' MRAPI_RDMA_KEYS, "D:SECRET,..."): the first node's agent names both
 * (agent_mrapi.c), the secrets fresh for each run and each domain the
 * scenario names, so that every node authenticates as a user's would.
 */
static int dir_addr(struct stack *st, char *out, size_t cap, char *keys, size_t kcap)
{
	char reply[PROTO_LINE_MAX], ip[64], domains[256];
	int rc;

	scenario_domains(st->f, domains, sizeof(domains));
	rc = stack_call(st, 0, reply, "mrapi_addr domains=%s", domains[0] ? domains : "1");
	if (rc)
		return rc;
	if (!proto_is(reply, "ok") || proto_get(reply, "ip", ip, sizeof(ip)) || proto_get(reply, "keys", keys, kcap)) {
		snprintf(st->err, sizeof(st->err), "node %s has no address or keyring: %.200s", st->f->nodes[0], reply);
		return -EPROTO;
	}
	snprintf(out, cap, "%s:%u", ip, (unsigned)stack_field(reply, "port"));
	return 0;
}

/* The request line of c (into line), without the verb's object fields the call has not. */
static int request(struct stack *st, const struct hcall *c, char *line, size_t cap)
{
	const struct hc_mrapi *m = &c->mrapi;
	const char *verb = m_op_kind_str((enum m_op_kind)c->op);
	char dir[80], keys[1600];
	int rc;

	switch ((enum m_op_kind)c->op) {
	case M_OP_MRAPI_INITIALIZE:
		if ((rc = dir_addr(st, dir, sizeof(dir), keys, sizeof(keys))) != 0)
			return rc;
		snprintf(line, cap, "%s domain=%u node_id=%u dir=%s keys=%s", verb, m->domain, m->node_id, dir, keys);
		break;
	case M_OP_MRAPI_RMEM_CREATE:
		snprintf(line, cap, "%s id=%d rid=%u atype=%u size=%llu attrs=%d over=%d over_off=%llu nulls=%u", verb,
			 c->obj, m->id, m->atype, (unsigned long long)m->size, m->attrs, m->over,
			 (unsigned long long)m->over_off, m->nulls);
		break;
	case M_OP_MRAPI_RMEM_GET:
		snprintf(line, cap, "%s id=%d rid=%u atype=%u", verb, c->obj, m->id, m->atype);
		break;
	case M_OP_MRAPI_RMEM_SET_ATTRIBUTE:
	case M_OP_MRAPI_RMEM_GET_ATTRIBUTE:
		snprintf(line, cap, "%s id=%d attr=%u size=%llu value=%llu nulls=%u", verb, c->obj, m->attr_num,
			 (unsigned long long)m->attr_size, (unsigned long long)m->attr_value, m->nulls);
		break;
	case M_OP_MRAPI_RMEM_READ:
	case M_OP_MRAPI_RMEM_READ_I:
	case M_OP_MRAPI_RMEM_WRITE:
	case M_OP_MRAPI_RMEM_WRITE_I:
		snprintf(line, cap,
			 "%s id=%d rmem=%d local=%d roff=%u loff=%u lsize=%llu bytes=%u n=%u rstride=%u lstride=%u "
			 "nulls=%u",
			 verb, c->obj, m->rmem, m->local, m->rmem_offset, m->local_offset,
			 (unsigned long long)m->local_size, m->bytes, m->nstrides, m->rmem_stride, m->local_stride,
			 m->nulls);
		break;
	case M_OP_MRAPI_WAIT:
		snprintf(line, cap, "%s id=%d timeout=%u", verb, c->obj, m->timeout);
		break;
	case M_OP_MRAPI_LOCAL_STORE:
		snprintf(line, cap, "%s id=%d byte=%u off=%llu len=%llu", verb, c->obj, m->byte,
			 (unsigned long long)m->off, (unsigned long long)m->len);
		break;
	case M_OP_MRAPI_RMEM_INIT_ATTRIBUTES:
		snprintf(line, cap, "%s id=%d nulls=%u", verb, c->obj, m->nulls);
		break;
	default: /* finalize; attach, detach, delete, flush, sync; test, cancel */
		snprintf(line, cap, "%s id=%d", verb, c->obj);
		break;
	}
	return 0;
}

int stack_exec_mrapi(struct stack *st, const struct hcall *c, struct hres *r)
{
	char line[PROTO_LINE_MAX], reply[PROTO_LINE_MAX];
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = request(st, c, line, sizeof(line))) != 0 ||
	    (rc = stack_call_outcome(st, c->node, line, reply, &r->out)) != 0)
		return rc;
	if (c->op == M_OP_MRAPI_RMEM_GET_ATTRIBUTE && r->out.kind == M_OUT_MRAPI && r->out.code == M_MRAPI_SUCCESS)
		return stack_query_reply(st, scn_call_get(c->call), reply, r);
	if (c->obj >= 0 && (c->op == M_OP_MRAPI_RMEM_CREATE || c->op == M_OP_MRAPI_RMEM_GET ||
			    c->op == M_OP_MRAPI_RMEM_INIT_ATTRIBUTES || c->op == M_OP_MRAPI_RMEM_READ_I ||
			    c->op == M_OP_MRAPI_RMEM_WRITE_I) &&
	    r->out.kind == M_OUT_MRAPI && r->out.code == M_MRAPI_SUCCESS) {
		struct stack_obj *o = &st->o[c->obj];

		*o = (struct stack_obj){ .made = 1 };
		o->v.cls = st->f->objs[c->obj].cls;
		o->v.addr = o->v.iova = stack_field(reply, "addr");
		o->v.len = stack_field(reply, "len");
	}
	return 0;
}

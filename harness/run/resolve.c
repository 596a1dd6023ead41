/*
 * resolve.c — scenario step -> struct hcall for one engine (resolve.h): the
 * part every call shares, then the call's family (family.h: resolve).
 */
#include "harness/run/family.h"
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <string.h>

int resolve_op_kind(const struct scn_call *call)
{
	enum m_op_kind k;

	return m_op_kind_parse(call->name, &k) ? -1 : (int)k;
}

int resolve_call_kind(size_t ci)
{
	static int16_t memo[512]; /* the kind + 2, 1 for none; 0: not parsed yet */
	const struct scn_call *call;

	if (ci < sizeof(memo) / sizeof(memo[0]) && memo[ci])
		return memo[ci] - 2;
	call = scn_call_get(ci);
	if (!call)
		return -1;
	if (ci >= sizeof(memo) / sizeof(memo[0]))
		return resolve_op_kind(call);
	memo[ci] = (int16_t)(resolve_op_kind(call) + 2);
	return memo[ci] - 2;
}

void rsv_fail(struct rsv *r, int rc, int32_t obj)
{
	if (!r->rc) {
		r->rc = rc;
		*r->missing = obj;
	}
}

uint64_t rsv_num(struct rsv *r, const struct scn_value *v, uint64_t dflt)
{
	uint64_t x;
	int rc;

	if (!v)
		return dflt;
	if (v->kind != SCN_V_ATTR)
		return v->num;
	rc = r->ops->attr(r->be, v->obj, (enum scn_attr)v->attr, &x);
	if (rc) {
		rsv_fail(r, rc, v->obj);
		return 0;
	}
	return v->neg ? x - v->num : x + v->num;
}

void rsv_ref(struct rsv *r, const struct scn_value *v, int remote, uint64_t *addr, uint32_t *key)
{
	int rc;

	*addr = 0;
	*key = 0;
	if (!v)
		return;
	if (v->kind != SCN_V_ADDR) {
		/* A raw address (remote=0x1000, remote=b.m.va+8): no key with it. */
		*addr = rsv_num(r, v, 0);
		return;
	}
	rc = r->ops->ref(r->be, v->obj, 0, remote, addr, key);
	if (rc) {
		rsv_fail(r, rc, v->obj);
		return;
	}
	*addr = v->neg ? *addr - v->num : *addr + v->num;
}

int32_t rsv_obj(const struct scn_value *v)
{
	return v ? v->obj : -1;
}

void rsv_attr(struct rsv *r, int32_t obj, enum scn_attr a, uint64_t *out)
{
	*out = 0;
	if (r->ops->attr(r->be, obj, a, out)) {
		*out = 0;
		rsv_fail(r, -ENOENT, obj);
	}
}

int rsv_bare(const struct scn_step *s, const char *key)
{
	return scn_step_arg(s, key) != NULL;
}

int resolve_step(const struct scn_file *f, const struct scn_step *s, const struct backend_ops *ops,
		 void *be, struct hcall *c, int32_t *missing)
{
	const struct scn_call *call = scn_step_call(s);
	const struct api_family *fam = api_family_get(call->api);
	struct rsv r = { ops, be, missing, 0, f };
	int kind = resolve_call_kind(s->call);

	*missing = -1;
	memset(c, 0, sizeof(*c));
	if (kind < 0 || !fam || !fam->resolve)
		return -EOPNOTSUPP;
	c->op = (uint8_t)kind;
	c->call = s->call;
	c->node = s->node;
	c->obj = s->obj;
	for (size_t i = 0; i < s->nexpect && i < SCN_OUTCOMES_MAX; i++)
		c->prefer[c->nprefer++] = s->expect[i];
	c->prefer_success = s->nexpect == 0 && s->nconds > 0;
	return fam->resolve(&r, s, c);
}

/* resolve.c — scenario step -> struct hcall for one engine (resolve.h). */
#include "harness/resolve.h"

#include <errno.h>
#include <string.h>

int resolve_op_kind(const struct scn_call *call)
{
	enum m_op_kind k;

	if (call->api != SCN_API_VERBS && strcmp(call->name, "fill") != 0)
		return -1;
	return m_op_kind_parse(call->name, &k) ? -1 : (int)k;
}

struct rctx {
	const struct backend_ops *ops;
	void *be;
	int32_t *missing;
	int rc;
};

/* The number a value stands for in this engine (0 after a failure, recorded in r->rc). */
static uint64_t num(struct rctx *r, const struct scn_value *v, uint64_t dflt)
{
	uint64_t x;
	int rc;

	if (!v)
		return dflt;
	if (v->kind != SCN_V_ATTR)
		return v->num;
	rc = r->ops->attr(r->be, v->obj, (enum scn_attr)v->attr, &x);
	if (rc) {
		if (!r->rc) {
			r->rc = rc;
			*r->missing = v->obj;
		}
		return 0;
	}
	return v->neg ? x - v->num : x + v->num;
}

/* Address and key of an address reference (remote: as a peer addresses it). */
static void ref(struct rctx *r, const struct scn_value *v, int remote, uint64_t *addr, uint32_t *key)
{
	int rc;

	*addr = 0;
	*key = 0;
	if (!v)
		return;
	rc = r->ops->ref(r->be, v->obj, 0, remote, addr, key);
	if (rc) {
		if (!r->rc) {
			r->rc = rc;
			*r->missing = v->obj;
		}
		return;
	}
	*addr = v->neg ? *addr - v->num : *addr + v->num;
}

static int32_t obj(const struct scn_value *v)
{
	return v ? v->obj : -1;
}

int resolve_step(const struct scn_file *f, const struct scn_step *s, const struct backend_ops *ops,
		 void *be, struct hcall *c, int32_t *missing)
{
	static const char *const conn_keys[HC_COUNT_] = { "mtu", "timeout", "retry_cnt", "rnr_retry",
							  "min_rnr_timer", "max_rd_atomic", "max_dest_rd_atomic" };
	const struct scn_call *call = scn_step_call(s);
	struct rctx r = { ops, be, missing, 0 };
	int kind = resolve_op_kind(call);
	const struct scn_value *v;

	(void)f;
	*missing = -1;
	memset(c, 0, sizeof(*c));
	if (kind < 0)
		return -EOPNOTSUPP;
	c->op = (uint8_t)kind;
	c->node = s->node;
	c->obj = s->obj;
	c->pd = obj(scn_step_arg(s, "pd"));
	c->qp = obj(scn_step_arg(s, "qp"));
	c->mr = c->peer = -1;
	for (size_t i = 0; i < s->nexpect && i < SCN_OUTCOMES_MAX; i++) {
		const struct scn_outcome *e = &s->expect[i];

		if (e->kind == SCN_OUT_OK || e->kind == SCN_OUT_ERRNO || e->kind == SCN_OUT_WC ||
		    e->kind == SCN_OUT_CRASH)
			c->prefer[c->nprefer++] = (struct m_outcome){
				e->kind == SCN_OUT_OK ? M_OUT_OK : e->kind == SCN_OUT_ERRNO ? M_OUT_ERRNO :
				e->kind == SCN_OUT_WC ? M_OUT_WC : M_OUT_CRASH, (int16_t)e->code };
	}
	switch ((enum m_op_kind)kind) {
	case M_OP_REG_MR:
		c->len = num(&r, scn_step_arg(s, "len"), 0);
		c->access = (uint32_t)num(&r, scn_step_arg(s, "access"), 0);
		c->offset = num(&r, scn_step_arg(s, "offset"), 0);
		c->prot = (uint8_t)num(&r, scn_step_arg(s, "prot"), M_PROT_RW);
		if ((v = scn_step_arg(s, "iova"))) {
			c->has_iova = 1;
			c->iova = num(&r, v, 0);
		}
		break;
	case M_OP_REREG_MR: {
		const struct scn_value *pd = scn_step_arg(s, "pd"), *acc = scn_step_arg(s, "access");

		c->access = (uint32_t)num(&r, acc, 0);
		c->len = num(&r, scn_step_arg(s, "len"), 0);
		if ((v = scn_step_arg(s, "flags")))
			c->flags = (uint32_t)v->num;
		else
			c->flags = (pd ? M_REREG_CHANGE_PD : 0) | (acc ? M_REREG_CHANGE_ACCESS : 0);
		break;
	}
	case M_OP_ALLOC_MW:
		c->type = (uint32_t)num(&r, scn_step_arg(s, "type"), 2);
		break;
	case M_OP_BIND_MW: {
		uint32_t key;

		v = scn_step_arg(s, "mr");
		c->mr = obj(v);
		ref(&r, v, 1, &c->offset, &key); /* the window start, in the MR's address space */
		c->len = num(&r, scn_step_arg(s, "len"), 0);
		c->access = (uint32_t)num(&r, scn_step_arg(s, "access"), 0);
		for (size_t i = 0; i < s->nargs; i++)
			if (strcmp(s->args[i].spec->key, "zero_based") == 0)
				c->zero_based = 1;
		break;
	}
	case M_OP_CREATE_QP:
		c->access = (uint32_t)num(&r, scn_step_arg(s, "access"), M_ACC_REMOTE_ANY);
		break;
	case M_OP_CONNECT:
		v = scn_step_arg(s, "peer");
		c->peer = obj(v);
		c->peer_node = v ? (uint8_t)v->node : 0;
		for (int i = 0; i < HC_COUNT_; i++)
			if ((v = scn_step_arg(s, conn_keys[i]))) {
				c->conn_set |= 1u << i;
				c->conn[i] = (uint32_t)num(&r, v, 0);
			}
		break;
	case M_OP_MODIFY_QP:
		c->type = (uint32_t)num(&r, scn_step_arg(s, "state"), M_QPS_ERR);
		break;
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD:
		ref(&r, scn_step_arg(s, "local"), 0, &c->laddr, &c->lkey);
		ref(&r, scn_step_arg(s, "remote"), 1, &c->raddr, &c->rkey);
		if ((v = scn_step_arg(s, "rkey")))
			c->rkey = (uint32_t)num(&r, v, 0);
		if (kind == M_OP_CAS) {
			c->len = 8;
			c->compare = num(&r, scn_step_arg(s, "compare"), 0);
			c->swap = num(&r, scn_step_arg(s, "swap"), 0);
		} else if (kind == M_OP_FADD) {
			c->len = 8;
			c->swap = c->compare = num(&r, scn_step_arg(s, "add"), 0);
		} else {
			c->len = num(&r, scn_step_arg(s, "len"), 0);
		}
		break;
	case M_OP_RECV: case M_OP_SEND:
		ref(&r, scn_step_arg(s, "local"), 0, &c->laddr, &c->lkey);
		c->len = num(&r, scn_step_arg(s, "len"), 0);
		if ((v = scn_step_arg(s, "inv"))) {
			uint64_t k;

			c->with_inv = 1;
			if (ops->attr(be, v->obj, SCN_ATTR_RKEY, &k) && !r.rc) {
				r.rc = -ENOENT;
				*missing = v->obj;
			}
			c->inv_rkey = (uint32_t)k;
		}
		break;
	case M_OP_LOCAL_INV: {
		uint64_t k = 0;

		v = scn_step_arg(s, "mw");
		if ((v = scn_step_arg(s, "rkey")))
			k = num(&r, v, 0);
		else if ((v = scn_step_arg(s, "mw")) && ops->attr(be, v->obj, SCN_ATTR_RKEY, &k) && !r.rc) {
			r.rc = -ENOENT;
			*missing = v->obj;
		}
		c->inv_rkey = (uint32_t)k;
		break;
	}
	case M_OP_FILL: {
		uint64_t len;

		c->byte = (uint8_t)num(&r, scn_step_arg(s, "byte"), 0);
		c->offset = num(&r, scn_step_arg(s, "off"), 0);
		if (!(v = scn_step_arg(s, "len")) && ops->attr(be, s->obj, SCN_ATTR_LEN, &len) == 0)
			c->len = len > c->offset ? len - c->offset : 0;
		else
			c->len = num(&r, v, 0);
		break;
	}
	default:
		break;
	}
	return r.rc;
}

/* resolve.c — scenario step -> struct hcall for one engine (resolve.h); the verbs calls. */
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <string.h>

int resolve_op_kind(const struct scn_call *call)
{
	enum m_op_kind k;

	return m_op_kind_parse(call->name, &k) ? -1 : (int)k;
}

uint64_t rc_num(struct rctx *r, const struct scn_value *v, uint64_t dflt)
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

void rc_ref(struct rctx *r, const struct scn_value *v, int remote, uint64_t *addr, uint32_t *key)
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

int32_t rc_obj(const struct scn_value *v)
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
	c->call = s->call;
	c->node = s->node;
	c->obj = s->obj;
	c->pd = rc_obj(scn_step_arg(s, "pd"));
	c->qp = rc_obj(scn_step_arg(s, "qp"));
	c->mr = c->peer = c->remote = -1;
	for (size_t i = 0; i < s->nexpect && i < SCN_OUTCOMES_MAX; i++)
		c->prefer[c->nprefer++] = s->expect[i];
	if (M_OP_IS_RPMA(kind))
		return resolve_rpma(&r, s, c);
	if (M_OP_IS_DAT(kind))
		return resolve_dat(&r, s, c);
	switch ((enum m_op_kind)kind) {
	case M_OP_REG_MR:
		c->len = rc_num(&r, scn_step_arg(s, "len"), 0);
		c->access = (uint32_t)rc_num(&r, scn_step_arg(s, "access"), 0);
		c->offset = rc_num(&r, scn_step_arg(s, "offset"), 0);
		c->prot = (uint8_t)rc_num(&r, scn_step_arg(s, "prot"), M_PROT_RW);
		if ((v = scn_step_arg(s, "iova"))) {
			c->has_iova = 1;
			c->iova = rc_num(&r, v, 0);
		}
		break;
	case M_OP_REREG_MR: {
		const struct scn_value *pd = scn_step_arg(s, "pd"), *acc = scn_step_arg(s, "access");

		c->access = (uint32_t)rc_num(&r, acc, 0);
		c->len = rc_num(&r, scn_step_arg(s, "len"), 0);
		if ((v = scn_step_arg(s, "flags")))
			c->flags = (uint32_t)v->num;
		else
			c->flags = (pd ? M_REREG_CHANGE_PD : 0) | (acc ? M_REREG_CHANGE_ACCESS : 0);
		break;
	}
	case M_OP_ALLOC_MW:
		c->type = (uint32_t)rc_num(&r, scn_step_arg(s, "type"), 2);
		break;
	case M_OP_BIND_MW: {
		uint32_t key;

		v = scn_step_arg(s, "mr");
		c->mr = rc_obj(v);
		rc_ref(&r, v, 1, &c->offset, &key); /* the window start, in the MR's address space */
		c->len = rc_num(&r, scn_step_arg(s, "len"), 0);
		c->access = (uint32_t)rc_num(&r, scn_step_arg(s, "access"), 0);
		for (size_t i = 0; i < s->nargs; i++) {
			if (strcmp(s->args[i].spec->key, "zero_based") == 0)
				c->zero_based = 1;
			if (strcmp(s->args[i].spec->key, "call") == 0)
				c->type = 1; /* through ibv_bind_mw() whatever the type */
		}
		break;
	}
	case M_OP_CREATE_QP:
		c->access = (uint32_t)rc_num(&r, scn_step_arg(s, "access"), M_ACC_REMOTE_ANY);
		c->len = rc_num(&r, scn_step_arg(s, "max_recv_wr"), M_RECV_DEPTH_DEFAULT);
		break;
	case M_OP_CONNECT:
		v = scn_step_arg(s, "peer");
		c->peer = rc_obj(v);
		c->peer_node = v ? (uint8_t)v->node : 0;
		for (int i = 0; i < HC_COUNT_; i++)
			if ((v = scn_step_arg(s, conn_keys[i]))) {
				c->conn_set |= 1u << i;
				c->conn[i] = (uint32_t)rc_num(&r, v, 0);
			}
		break;
	case M_OP_MODIFY_QP:
		c->type = (uint32_t)rc_num(&r, scn_step_arg(s, "state"), M_QPS_ERR);
		break;
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD:
		rc_ref(&r, scn_step_arg(s, "local"), 0, &c->laddr, &c->lkey);
		rc_ref(&r, scn_step_arg(s, "remote"), 1, &c->raddr, &c->rkey);
		if ((v = scn_step_arg(s, "rkey")))
			c->rkey = (uint32_t)rc_num(&r, v, 0);
		if (kind == M_OP_CAS) {
			c->len = rc_num(&r, scn_step_arg(s, "len"), 8);
			c->compare = rc_num(&r, scn_step_arg(s, "compare"), 0);
			c->swap = rc_num(&r, scn_step_arg(s, "swap"), 0);
		} else if (kind == M_OP_FADD) {
			c->len = rc_num(&r, scn_step_arg(s, "len"), 8);
			c->swap = c->compare = rc_num(&r, scn_step_arg(s, "add"), 0);
		} else {
			c->len = rc_num(&r, scn_step_arg(s, "len"), 0);
		}
		break;
	case M_OP_RECV: case M_OP_SEND:
		rc_ref(&r, scn_step_arg(s, "local"), 0, &c->laddr, &c->lkey);
		c->len = rc_num(&r, scn_step_arg(s, "len"), 0);
		if ((v = scn_step_arg(s, "inv"))) {
			uint64_t k = 0;

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
			k = rc_num(&r, v, 0);
		else if ((v = scn_step_arg(s, "mw")) && ops->attr(be, v->obj, SCN_ATTR_RKEY, &k) && !r.rc) {
			r.rc = -ENOENT;
			*missing = v->obj;
		}
		c->inv_rkey = (uint32_t)k;
		break;
	}
	case M_OP_FILL: {
		uint64_t len;

		c->byte = (uint8_t)rc_num(&r, scn_step_arg(s, "byte"), 0);
		c->offset = rc_num(&r, scn_step_arg(s, "off"), 0);
		if ((v = scn_step_arg(s, "len"))) {
			c->len = rc_num(&r, v, 0);
		} else if (ops->attr(be, s->obj, SCN_ATTR_LEN, &len) == 0) {
			c->len = len > c->offset ? len - c->offset : 0;
		} else if (!r.rc) {
			r.rc = -ENOENT;
			*missing = s->obj;
		}
		break;
	}
	default:
		break;
	}
	return r.rc;
}

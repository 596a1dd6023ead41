/*
 * resolve_dat.c — uDAPL steps -> struct hcall (see struct m_op in
 * model/model.h for what each field means to the model).
 */
#include "harness/agent/agent.h"
#include "harness/api/dat/dat.h"
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Which of the IAs every node's dat.conf registers (agent.h) name is ("": the default): struct m_op. */
static uint32_t ia_kind(const char *name)
{
	if (!name[0] || strcmp(name, AGENT_DAT_IA_CMA) == 0)
		return M_DAT_IA_CMA;
	if (strcmp(name, AGENT_DAT_IA_SCM) == 0)
		return M_DAT_IA_SCM;
	return M_DAT_IA_UNKNOWN;
}

int resolve_dat(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;
	uint32_t key;

	c->pd = rsv_obj(scn_step_arg(s, "pz"));
	switch ((enum m_op_kind)c->op) {
	case M_OP_DAT_IA_OPEN:
		if ((v = scn_step_arg(s, "name")) && v->str)
			snprintf(c->name, sizeof(c->name), "%s", v->str);
		c->type = ia_kind(c->name);
		break;
	case M_OP_DAT_LMR_CREATE:
		c->len = rsv_num(r, scn_step_arg(s, "len"), 0);
		c->access = (uint32_t)rsv_num(r, scn_step_arg(s, "priv"), 0);
		c->type = (uint32_t)rsv_num(r, scn_step_arg(s, "type"), M_DAT_MEM_VIRTUAL);
		c->mr = rsv_obj(scn_step_arg(s, "from"));
		c->flags = (uint32_t)rsv_num(r, scn_step_arg(s, "va_type"), 0);
		c->offset = rsv_num(r, scn_step_arg(s, "offset"), 0);
		c->prot = (uint8_t)rsv_num(r, scn_step_arg(s, "prot"), M_PROT_RW);
		break;
	case M_OP_DAT_RMR_BIND:
		v = scn_step_arg(s, "lmr");
		c->mr = rsv_obj(v);
		rsv_ref(r, v, 1, &c->offset, &key); /* the window start, in the LMR's address space */
		c->qp = rsv_obj(scn_step_arg(s, "ep"));
		c->len = rsv_num(r, scn_step_arg(s, "len"), 0);
		c->access = (uint32_t)rsv_num(r, scn_step_arg(s, "priv"), 0);
		break;
	case M_OP_DAT_EP_CONNECT:
		v = scn_step_arg(s, "peer");
		c->peer = rsv_obj(v);
		c->peer_node = v ? (uint8_t)v->node : 0;
		c->len = rsv_num(r, scn_step_arg(s, "private_data"), 0);
		break;
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ:
		v = scn_step_arg(s, "local");
		c->mr = rsv_obj(v);
		rsv_ref(r, v, 0, &c->laddr, &c->lkey);
		v = scn_step_arg(s, "remote");
		c->remote = rsv_obj(v);
		c->peer_node = v ? (uint8_t)v->node : 0;
		rsv_ref(r, v, 1, &c->raddr, &c->rkey);
		c->roff = v ? v->num : 0;
		if ((v = scn_step_arg(s, "lmr_context")))
			c->lkey = (uint32_t)rsv_num(r, v, 0);
		if ((v = scn_step_arg(s, "rmr_context")))
			c->rkey = (uint32_t)rsv_num(r, v, 0);
		c->len = rsv_num(r, scn_step_arg(s, "len"), 0);
		break;
	default: /* pz_create/free, lmr_query/free, rmr_create/free, ep_disconnect/free: obj, pd */
		break;
	}
	return r->rc;
}

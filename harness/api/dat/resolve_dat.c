/*
 * resolve_dat.c — uDAPL steps -> struct hcall's dat arguments (family.h:
 * resolve; backend.h: struct hc_dat).
 */
#include "harness/run/proto.h"
#include "harness/api/dat/api_dat.h"
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Which of the IAs every node's dat.conf registers (agent.h) name is ("": the default). */
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
	struct hc_dat *d = &c->dat;
	const struct scn_value *v;
	uint32_t key;

	d->pz = rsv_obj(scn_step_arg(s, "pz"));
	d->lmr = d->ep = d->peer_pz = d->remote = d->accept = -1;
	switch ((enum m_op_kind)c->op) {
	case M_OP_DAT_IA_OPEN:
		if ((v = scn_step_arg(s, "name")) && v->str)
			snprintf(d->name, sizeof(d->name), "%s", v->str);
		d->ia = ia_kind(d->name);
		break;
	case M_OP_DAT_LMR_CREATE:
		d->len = rsv_num(r, scn_step_arg(s, "len"), 0);
		d->priv = (uint32_t)rsv_num(r, scn_step_arg(s, "priv"), 0);
		d->mem_type = (uint32_t)rsv_num(r, scn_step_arg(s, "type"), M_DAT_MEM_VIRTUAL);
		d->lmr = rsv_obj(scn_step_arg(s, "from"));
		d->va_type = (uint32_t)rsv_num(r, scn_step_arg(s, "va_type"), 0);
		d->offset = rsv_num(r, scn_step_arg(s, "offset"), 0);
		d->prot = (uint8_t)rsv_num(r, scn_step_arg(s, "prot"), M_PROT_RW);
		break;
	case M_OP_DAT_RMR_BIND:
		v = scn_step_arg(s, "lmr");
		d->lmr = rsv_obj(v);
		rsv_ref(r, v, 1, &d->start, &key); /* the window start, in the LMR's address space */
		d->ep = rsv_obj(scn_step_arg(s, "ep"));
		d->len = rsv_num(r, scn_step_arg(s, "len"), 0);
		d->priv = (uint32_t)rsv_num(r, scn_step_arg(s, "priv"), 0);
		break;
	case M_OP_DAT_EP_CONNECT:
		v = scn_step_arg(s, "peer");
		d->peer_pz = rsv_obj(v);
		d->peer_node = v ? (uint8_t)v->node : 0;
		d->pdata = rsv_num(r, scn_step_arg(s, "private_data"), 0);
		d->accept = rsv_obj(scn_step_arg(s, "accept"));
		break;
	case M_OP_DAT_RDMA_WRITE:
	case M_OP_DAT_RDMA_READ:
		v = scn_step_arg(s, "local");
		d->lmr = rsv_obj(v);
		rsv_ref(r, v, 0, &d->laddr, &d->lkey);
		v = scn_step_arg(s, "remote");
		d->remote = rsv_obj(v);
		d->peer_node = v ? (uint8_t)v->node : 0;
		rsv_ref(r, v, 1, &d->raddr, &d->rkey);
		d->roff = v ? v->num : 0;
		if ((v = scn_step_arg(s, "lmr_context")))
			d->lkey = (uint32_t)rsv_num(r, v, 0);
		if ((v = scn_step_arg(s, "rmr_context")))
			d->rkey = (uint32_t)rsv_num(r, v, 0);
		d->len = rsv_num(r, scn_step_arg(s, "len"), 0);
		break;
	default: /* pz_create/free, lmr_query/free, rmr_create/free, ep_disconnect/free: obj, pz */
		break;
	}
	return r->rc;
}

/* model_dat.c — a uDAPL call's arguments as its model operation (family.h: model_op; struct m_op). */
#include "harness/api/dat/dat.h"
#include "harness/run/be_model.h"

#include <errno.h>

int model_op_dat(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_dat *d = &c->dat;

	if (bm_map(bm, d->pz, &op->pd) || bm_map(bm, d->lmr, &op->mr) || bm_map(bm, d->ep, &op->qp) ||
	    bm_map(bm, d->remote, &op->remote))
		return -ENOENT;
	op->peer_node = d->peer_node;
	if (c->op == M_OP_DAT_EP_CONNECT && (op->peer_pd = bm_handle(bm, d->peer_pz)) < 0)
		return -ENOENT;
	op->roff = d->roff;
	op->access = d->priv;
	op->type = c->op == M_OP_DAT_IA_OPEN ? d->ia : d->mem_type;
	op->flags = d->va_type;
	op->len = c->op == M_OP_DAT_EP_CONNECT ? d->pdata : d->len;
	op->offset = c->op == M_OP_DAT_RMR_BIND ? d->start : d->offset;
	op->prot = d->prot;
	op->lkey = d->lkey;
	op->laddr = d->laddr;
	op->rkey = d->rkey;
	op->raddr = d->raddr;
	return 0;
}

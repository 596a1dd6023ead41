/* model_dat.c — a uDAPL call's arguments as its model operation (family.h: model_op; struct m_dat_args). */
#include "harness/api/dat/api_dat.h"
#include "harness/run/be_model.h"

#include <errno.h>

int model_op_dat(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_dat *d = &c->dat;
	struct m_dat_args *a = &op->dat;

	a->pz = a->lmr = a->ep = a->peer_pz = a->remote = -1;
	if (bm_map(bm, d->pz, &a->pz) || bm_map(bm, d->lmr, &a->lmr) || bm_map(bm, d->ep, &a->ep) ||
	    bm_map(bm, d->remote, &a->remote))
		return -ENOENT;
	a->peer_node = d->peer_node;
	if (c->op == M_OP_DAT_EP_CONNECT && (a->peer_pz = bm_handle(bm, d->peer_pz)) < 0)
		return -ENOENT;
	a->ia = d->ia;
	a->roff = d->roff;
	a->priv = d->priv;
	a->mem_type = d->mem_type;
	a->zero_based = (uint8_t)(d->va_type & 1);
	a->len = c->op == M_OP_DAT_EP_CONNECT ? d->pdata : d->len;
	a->offset = c->op == M_OP_DAT_RMR_BIND ? d->start : d->offset;
	a->prot = d->prot;
	a->named = c->op == M_OP_DAT_EP_CONNECT && d->accept >= 0;
	a->lkey = d->lkey;
	a->laddr = d->laddr;
	a->rkey = d->rkey;
	a->raddr = d->raddr;
	return 0;
}

void model_made_dat(struct be_model *bm, const struct hcall *c)
{
	int16_t h = bm_handle(bm, c->obj);

	if (c->op != M_OP_DAT_EP_CONNECT || c->dat.accept < 0 || c->dat.accept >= (int32_t)SCN_OBJS_MAX || h < 0)
		return;
	/* The model's accepting side is the peer's connection record of this one (model/dat/apply.c). */
	bm->h[c->dat.accept] = bm->m.node[c->node].conn[h].peer_conn;
}

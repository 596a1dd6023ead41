/* model_rpma.c — a librpma call's arguments as its model operation (family.h: model_op; struct m_rpma_args). */
#include "harness/api/rpma/api_rpma.h"
#include "harness/run/be_model.h"

#include <errno.h>
#include <string.h>

int model_op_rpma(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_rpma *p = &c->rpma;
	struct m_rpma_args *a = &op->rpma;

	a->mr = a->remote = -1;
	if (bm_map(bm, p->mr, &a->mr) || bm_map(bm, p->remote, &a->remote))
		return -ENOENT;
	a->peer_node = c->op == M_OP_RPMA_CONNECT ? p->peer_node : -1;
	a->pmem = c->op == M_OP_RPMA_CONNECT && p->pmem;
	a->roff = p->roff;
	a->offset = p->offset;
	a->len = p->len;
	a->usage = p->usage;
	a->prot = p->prot;
	a->flags = p->flags;
	a->flush_type = p->flush_type;
	a->value = p->value;
	a->nulls = p->nulls;
	a->ndesc = p->ndesc;
	memcpy(a->desc, p->desc, sizeof(a->desc));
	a->size = p->size;
	return 0;
}

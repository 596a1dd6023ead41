/* model_rpma.c — a librpma call's arguments as its model operation (family.h: model_op; struct m_op). */
#include "harness/api/rpma/rpma.h"
#include "harness/run/be_model.h"

#include <errno.h>
#include <string.h>

int model_op_rpma(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_rpma *p = &c->rpma;

	if (bm_map(bm, p->mr, &op->mr) || bm_map(bm, p->remote, &op->remote))
		return -ENOENT;
	op->roff = p->roff;
	op->offset = p->offset;
	op->len = p->len;
	op->access = p->usage;
	op->prot = p->prot;
	op->flags = p->flags;
	op->type = c->op == M_OP_RPMA_CONNECT ? p->pmem : p->flush_type;
	op->swap = p->value;
	op->peer_node = c->op == M_OP_RPMA_CONNECT ? p->peer_node : -1;
	op->nulls = p->nulls;
	op->ndesc = p->ndesc;
	memcpy(op->desc, p->desc, sizeof(op->desc));
	op->size = p->size;
	return 0;
}

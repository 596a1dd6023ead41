/* model_rpma.c — a librpma call's part of its model operation (family.h: model_op; struct m_op). */
#include "harness/api/rpma/rpma.h"
#include "harness/run/be_model.h"

int model_op_rpma(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	(void)bm;
	op->flags = c->rflags;
	op->peer_node = c->op == M_OP_RPMA_CONNECT ? c->peer_node : -1;
	return 0;
}

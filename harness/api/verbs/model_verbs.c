/* model_verbs.c — a verbs call's part of its model operation (family.h: model_op; struct m_op). */
#include "harness/api/verbs/verbs.h"
#include "harness/run/be_model.h"

#include <errno.h>

int model_op_verbs(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	if (c->op == M_OP_BIND_MW)
		op->flags = c->zero_based;
	if (c->op == M_OP_LOCAL_INV || c->with_inv)
		op->rkey = c->inv_rkey;
	if (c->op == M_OP_CONNECT) {
		op->peer_node = c->peer_node;
		if ((op->peer_qp = bm_handle(bm, c->peer)) < 0)
			return -ENOENT;
	}
	return 0;
}

/* model_dat.c — a uDAPL call's part of its model operation (family.h: model_op; struct m_op). */
#include "harness/api/dat/dat.h"
#include "harness/run/be_model.h"

#include <errno.h>

int model_op_dat(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	op->peer_node = c->peer_node;
	if (c->op == M_OP_DAT_EP_CONNECT && (op->peer_pd = bm_handle(bm, c->peer)) < 0)
		return -ENOENT;
	return 0;
}

/* model_rpmem.c — a librpmem call's arguments as its model operation (family.h: model_op; struct m_rpmem_args). */
#include "harness/api/rpmem/rpmem.h"
#include "harness/run/be_model.h"

int model_op_rpmem(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	(void)bm;
	op->rpmem = c->rpmem.a; /* the handle acted on is op->obj (model/rpmem/rpmem.c) */
	return 0;
}

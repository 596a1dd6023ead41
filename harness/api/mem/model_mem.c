/* model_mem.c — fill's arguments as its model operation (family.h: model_op; struct m_op). */
#include "harness/api/mem/api_mem.h"
#include "harness/run/be_model.h"

int model_op_mem(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	(void)bm;
	op->verbs.byte = c->fill.byte;
	op->verbs.offset = c->fill.off;
	op->verbs.len = c->fill.len;
	return 0;
}

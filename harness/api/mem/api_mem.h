/* api_mem.h — the memory-contents family (fill, check on any family's buffer): entry points for its registry row (family.h). */
#ifndef RDMACHECK_API_MEM_H
#define RDMACHECK_API_MEM_H

#include "harness/run/family.h"

extern const struct scn_call api_mem_calls[];
extern const size_t api_mem_calls_n;
/* fill's arguments (family.h: resolve); check is the runner's and resolves to nothing. */
int resolve_mem(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* fill's model operation (family.h: model_op). */
int model_op_mem(const struct be_model *bm, const struct hcall *c, struct m_op *op);
/* fill on the real stack (family.h: stack_exec). */
int stack_exec_mem(struct stack *st, const struct hcall *c, struct hres *r);

#endif

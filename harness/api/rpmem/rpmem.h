/* rpmem.h — the librpmem family's entry points, for its registry row (family.h). */
#ifndef RDMACHECK_API_RPMEM_H
#define RDMACHECK_API_RPMEM_H

#include "harness/api/family.h"

extern const struct scn_call api_rpmem_calls[];
/* The librpmem arguments of step s (family.h: resolve). */
int resolve_rpmem(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* The family's part of c's model operation (family.h: model_op). */
int model_op_rpmem(const struct be_model *bm, const struct hcall *c, struct m_op *op);

#endif

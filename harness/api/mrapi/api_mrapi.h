/* api_mrapi.h — the MRAPI family's entry points, for its registry row (family.h). */
#ifndef RDMACHECK_API_MRAPI_H
#define RDMACHECK_API_MRAPI_H

#include "harness/run/family.h"

extern const struct scn_call api_mrapi_calls[];
extern const size_t api_mrapi_calls_n;
/* The MRAPI arguments of step s (family.h: resolve). */
int resolve_mrapi(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* The family's part of c's model operation (family.h: model_op). */
int model_op_mrapi(const struct be_model *bm, const struct hcall *c, struct m_op *op);
/* An rmem as the model knows it: its segment's address and size; on its creator, its bytes (family.h). */
int model_view_mrapi(const struct be_model *bm, int32_t obj, int16_t h, struct hview *v);
int model_buf_mrapi(const struct be_model *bm, int32_t obj, int16_t h, struct bm_buf *out);
/* An MRAPI call on the real stack (family.h: stack_exec). */
int stack_exec_mrapi(struct stack *st, const struct hcall *c, struct hres *r);
extern const struct agent_req agent_mrapi_reqs[];
/* Release the node's MRAPI state: finalize (after every object). */
void agent_mrapi_end(struct agent *a);

#endif

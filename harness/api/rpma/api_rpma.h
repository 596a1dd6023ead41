/* api_rpma.h — the librpma family's entry points, for its registry row (family.h). */
#ifndef RDMACHECK_API_RPMA_H
#define RDMACHECK_API_RPMA_H

#include "harness/run/family.h"

extern const struct scn_call api_rpma_calls[];
extern const size_t api_rpma_calls_n;
/* The librpma arguments of step s (family.h: resolve). */
int resolve_rpma(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* The family's part of c's model operation (family.h: model_op). */
int model_op_rpma(const struct be_model *bm, const struct hcall *c, struct m_op *op);
/* A librpma call on the real stack (family.h: stack_exec). */
int stack_exec_rpma(struct stack *st, const struct hcall *c, struct hres *r);
/* The descriptor of a librpma MR or remote MR, from its agent (backend.h: blob). */
int stack_blob_rpma(struct stack *st, int32_t obj, uint8_t *buf, size_t cap, size_t *len);
extern const struct agent_req agent_rpma_reqs[];
/* The node's IPv4 address as the source of rdma_resolve_addr calls that give none (agent_rpma_cm.c). */
void agent_rpma_source(const char *ipv4);
/* Release the node's librpma state (after every object). */
void agent_rpma_end(struct agent *a);

#endif

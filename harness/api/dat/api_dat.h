/* api_dat.h — the uDAPL family's entry points, for its registry row (family.h). */
#ifndef RDMACHECK_API_DAT_H
#define RDMACHECK_API_DAT_H

#include "harness/run/family.h"

extern const struct scn_call api_dat_calls[];
extern const size_t api_dat_calls_n;
/* The uDAPL arguments of step s (family.h: resolve). */
int resolve_dat(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* The family's part of c's model operation (family.h: model_op). */
int model_op_dat(const struct be_model *bm, const struct hcall *c, struct m_op *op);
/* After dat_ep_connect c: the handle of the EP the peer accepted with, when named (family.h: model_made). */
void model_made_dat(struct be_model *bm, const struct hcall *c);
/* A uDAPL call on the real stack (family.h: stack_exec). */
int stack_exec_dat(struct stack *st, const struct hcall *c, struct hres *r);
extern const struct agent_req agent_dat_reqs[];
/* Release the node's uDAPL state (after every object). */
void agent_dat_end(struct agent *a);

#endif

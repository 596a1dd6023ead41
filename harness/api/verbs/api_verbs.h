/* api_verbs.h — the libibverbs family's entry points, for its registry row (family.h). */
#ifndef RDMACHECK_API_VERBS_H
#define RDMACHECK_API_VERBS_H

#include "harness/run/family.h"

extern const struct scn_call api_verbs_calls[];
extern const size_t api_verbs_calls_n;
/* The verbs arguments of step s (family.h: resolve). */
int resolve_verbs(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* The family's part of c's model operation (family.h: model_op). */
int model_op_verbs(const struct be_model *bm, const struct hcall *c, struct m_op *op);
/* A verbs call on the real stack (family.h: stack_exec). */
int stack_exec_verbs(struct stack *st, const struct hcall *c, struct hres *r);
/* n send WRs on one QP posted in one call (family.h: stack_exec_chain). */
int stack_exec_chain_verbs(struct stack *st, const struct hcall *c, size_t n, struct hres *r);
/* family.h's stack_ahead: PD, MR, MW, CQ, SRQ and completion channel creation and release, create_qp and
 * destroy_qp, the device, port, GID, P_Key and QP queries (each one request), and the posts
 * that consume no receive at the peer (WRITE, READ, atomics: runner.c judges their peer observations). */
int stack_ahead_verbs(const struct hcall *c);
extern const struct agent_req agent_verbs_reqs[];

/* stack_ud.c. modify_qp of c to INIT, RTR or RTS (the request qp_to, with an RC/UC RTR's remote
 * QP number and GID): stack_call's. */
int stack_qp_to(struct stack *st, const struct hcall *c, char *reply);
/* A UD send's " ah=ID rqpn=N qkey=K" into buf (len bytes): 0, or -ENOENT if its QP was never made. */
int stack_ud_dest(struct stack *st, const struct hcall *c, char *buf, size_t len);

/* resolve_sge.c. A post's SGEs after the first (local2= len2= lkey2=, ...) into c, their lengths
 * added to c's len (the WR's); a gap or an SGE without its len is r's error. */
void resolve_sge_more(struct rsv *r, const struct scn_step *s, struct hcall *c);
/* stack_sge.c. A post's " nsge=N sI.laddr=A sI.lkey=K sI.len=L" (I = 1..N-1; none for one SGE)
 * into buf (len bytes): the length written. */
size_t stack_sge_fields(const struct hcall *c, char *buf, size_t len);

/* stack_handle.c. Toggle the garbling of the handle c names in garble= (the agent's garble
 * request; no garble: nothing): 0 or stack_call's error. Called before the call and after it. */
int stack_garble_verbs(struct stack *st, const struct hcall *c);

#endif

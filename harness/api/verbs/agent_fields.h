/* agent_fields.h — the agent's fields request (agent_fields.c), for the verbs request table. Agent side only. */
#ifndef RDMACHECK_API_VERBS_AGENT_FIELDS_H
#define RDMACHECK_API_VERBS_AGENT_FIELDS_H

#include "harness/agent/agent_internal.h"

/*
 * fields id=N: the struct libibverbs returned for live object N, as its fields:
 *   ok context=1|0 [pd=REF] [addr=0xA length=N] [type=N] [send_cq=REF recv_cq=REF srq=REF qp_type=RC|UC|UD]
 *      [channel=REF cqe=N]
 * context 1: the node's device context; REF: the id of the agent's object the pointer is, none (NULL),
 * own (a QP's CQ the agent made for it), other (none of them).
 */
int agent_fields(struct agent *a);

#endif

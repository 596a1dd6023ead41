/* agent_handle.h — the agent's garble request (agent_handle.c), for the verbs request table. Agent side only. */
#ifndef RDMACHECK_API_VERBS_AGENT_HANDLE_H
#define RDMACHECK_API_VERBS_AGENT_HANDLE_H

#include "harness/agent/agent_internal.h"

/* garble id=N: toggles the garbling of object N's handle (0xDEADBEEF XOR); answers ok (gone=1: not live). */
int agent_garble(struct agent *a);

#endif

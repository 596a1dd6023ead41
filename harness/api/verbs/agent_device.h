/*
 * agent_device.h — the agent's device queries (DEV-QUERY-1, PORT-QUERY-1):
 * the device context the agent opened for its node, named by a PD object.
 */
#ifndef RDMACHECK_API_VERBS_AGENT_DEVICE_H
#define RDMACHECK_API_VERBS_AGENT_DEVICE_H

#include "harness/agent/agent_internal.h"

/* query_device id= ex=0|1: ibv_query_device (ex=1: ibv_query_device_ex, its orig_attr) on PD id's
 * context; "ok node_guid=N sys_image_guid=N ... phys_port_cnt=N" (the keys of calls_verbs.c). */
int agent_do_query_device(struct agent *a);
/* query_port id= port=0|1|2: ibv_query_port of port 1 (0: port 0, 2: phys_port_cnt + 1) on PD id's
 * context; "ok state=N max_mtu=N ... pkey_tbl_len=N", or the errno it returned. */
int agent_do_query_port(struct agent *a);

#endif

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
/* query_gid id= ex=0|1 empty=0|1: ibv_query_gid (ex=1: ibv_query_gid_ex) of port 1, index 0; empty=1
 * (with ex): of the first index below gid_tbl_len that ibv_query_gid_table does not list for port 1. */
int agent_do_query_gid(struct agent *a);
/* query_gid_table id= none=0|1: ibv_query_gid_table with room for every port's gid_tbl_len entries
 * (none=1: max_entries 0); "ok n=N", the entries it returned. */
int agent_do_query_gid_table(struct agent *a);
/* query_pkey id=: ibv_query_pkey of port 1, index 0; "ok pkey=N" (host order). */
int agent_do_query_pkey(struct agent *a);
/* get_pkey_index id=: ibv_get_pkey_index of port 1 for the P_Key sysfs lists at
 * /sys/class/infiniband/DEV/ports/1/pkeys/0; "ok index=N". */
int agent_do_get_pkey_index(struct agent *a);

/* The device limits a create key may be asked at (LIM-1, LIM-2): ibv_query_device's max_qp_wr, max_sge, max_cqe,
 * max_srq_wr, max_srq_sge. */
enum agent_lim { AGENT_LIM_QP_WR, AGENT_LIM_SGE, AGENT_LIM_CQE, AGENT_LIM_SRQ_WR, AGENT_LIM_SRQ_SGE };
/* The request's key (dflt when absent): M_LIM_MAX is the device's limit lim, M_LIM_PAST one
 * more, from ibv_query_device on the agent's context; any other value as it is. */
uint32_t agent_limit(struct agent *a, const char *key, uint32_t dflt, enum agent_lim lim);

#endif

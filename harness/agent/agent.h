/*
 * agent.h — the node agent: one process per scenario node that executes the
 * API families' calls (libibverbs, librpma, uDAPL, …) on the real stack for
 * the coordinator. The core (agent.c) serves fill and read; every other
 * request is a family's (harness/api/<family>/agent_*.c, found through the
 * registry, harness/run/family.h).
 *
 * The agent owns the node's device context and every object a scenario
 * creates on that node, keyed by the coordinator's object id (the scenario's
 * object index, 0..AGENT_OBJS_MAX-1). It answers one line per request (see
 * proto.h for framing); the requests, all KEY=VALUE, numbers decimal or 0x:
 *
 *   request                                           answer (besides err errno=N msg=TEXT)
 *   alloc_pd id                                       ok
 *   dealloc_pd id | dereg_mr id | dealloc_mw id | destroy_qp id
 *                                                     ok
 *   reg_mr id pd len access offset prot [iova]        ok addr=0xA iova=0xI lkey=N rkey=N
 *   rereg_mr id flags access [pd]                     ok lkey=N rkey=N
 *   alloc_mw id pd type                               ok rkey=N
 *   bind_mw id qp mr addr len access zero_based call  ok status=WC rkey=N  (call=1: ibv_bind_mw() even for type 2;
 *           [wrx]                                     wrx=1: a type-2 bind through ibv_wr_bind_mw; 2: then
 *                                                     ibv_wr_abort, ok rkey=N unchanged)
 *   create_qp id pd access max_recv_wr [ex sops]      ok qpn=N (ex=1: ibv_create_qp_ex, send_ops_flags sops)
 *   connect id rqpn rgid [mtu timeout retry_cnt rnr_retry min_rnr_timer
 *           max_rd_atomic max_dest_rd_atomic]         ok
 *   modify_qp id state=ERR|RESET                      ok
 *   post id op=write|read|cas|fadd|send|local_inv laddr lkey len raddr rkey
 *           [compare swap inv] [wrx]                  ok status=WC vendor_err=N (wrx=1: through the ibv_wr_*
 *                                                     API, its errno ibv_wr_complete's; wrx=2: ended by
 *                                                     ibv_wr_abort, a plain ok)
 *           [nowait=1]                                ok (handed over: its completion waits in its
 *                                                     send CQ object for wait)
 *   wait id wr                                        ok status=WC vendor_err=N (the completion of
 *                                                     WR wr, from QP id's send CQ object)
 *   recv id laddr lkey len                            ok
 *   recvs id wait_ms                                  ok n=0 state=S | ok n=1 status=WC state=S
 *                                                     (state= absent if ibv_query_qp failed)
 *   query_qp id                                       ok state=S access=N
 *   create_cq id depth [chan vec] [ex wc cqf]         ok (chan: a completion channel object; vec:
 *                                                     0, 1 last, 2 past the last, 3 -1; ex=1:
 *                                                     ibv_create_cq_ex with wc_flags wc, flags cqf)
 *   create_comp_channel id | destroy_comp_channel id  ok
 *   req_notify_cq id sol=0|1                          ok
 *   get_cq_event id                                   ok n=0 (none within 200 ms) | ok n=1 cq=N (the
 *                                                     CQ's place among those made since the reset)
 *   ack_cq_events id n                                ok (n at most the events taken of CQ id)
 *   resize_cq id depth                                ok cqe=N
 *   query_device id ex=0|1                            ok node_guid=N ... phys_port_cnt=N (agent_device.h)
 *   query_port id port=0|1|2                          ok state=N ... pkey_tbl_len=N (1: port 1, 0:
 *                                                     port 0, 2: phys_port_cnt + 1)
 *   query_gid id ex=0|1 empty=0|1                     ok (port 1, index 0; empty: an index without a GID)
 *   query_gid_table id none=0|1                       ok n=N (none: max_entries 0)
 *   query_pkey id                                     ok pkey=N (port 1, index 0)
 *   get_pkey_index id                                 ok index=N (of sysfs ports/1/pkeys/0's P_Key)
 *   fill id byte off len                              ok
 *   read id off len (len <= AGENT_READ_MAX)           ok bytes=N, then the N raw bytes (proto.h)
 *   quit                                              ok (then the agent exits)
 *   reset                                             ok objs=N fams=M (every object and every
 *                                                     family's state released, as at the end; then
 *                                                     N: objects, buffers and family states still
 *                                                     held, M: families with per-node state used
 *                                                     since the last reset; 0 and 0: as fresh)
 *   hello node=NAME                                   ok hello node=NAME gid=HEX (the greeting
 *                                                     again, serving scenario node NAME from now)
 *
 * librpma (agent_rpma.c; one peer per node on the device of its IPv4 address,
 * made at the first of these; nulls=N: bit i passes the call's i-th pointer
 * argument as NULL, see enum m_rpma_null; a librpma failure answers
 * "ok outcome=RPMA_E_*"):
 *   rpma_reg id len usage offset prot nulls [buf=ID]  ok addr=0xA len=N rkey=N desc=HEX
 *                                                     (rpma_mr_reg over a new buffer, or ID's again)
 *   rpma_dereg id nulls                               ok          (bit 1: *mr_ptr NULL)
 *   rpma_desc id nulls                                ok desc=HEX (rpma_mr_get_descriptor)
 *   rpma_desc_size id nulls                           ok size=N
 *   rpma_remote id size nulls [hex]                   ok          (rpma_mr_remote_from_descriptor of
 *                                                     the bytes, zero-padded to size)
 *   rpma_remote_size id nulls                         ok size=N
 *   rpma_remote_flush_type id nulls                   ok flush_type=N
 *   rpma_listen                                       ok ip=A.B.C.D port=P (the endpoint, once)
 *   rpma_peer_cfg                                     ok desc=HEX (a peer cfg, direct write to pmem)
 *   rpma_accept id                                    ok          (server half, within the step budget)
 *   rpma_connect id ip port [pcfg=HEX]                ok          (client half; applies the peer cfg)
 *   rpma_disconnect id nulls                          ok          (client: disconnect, wait, delete)
 *   rpma_close id                                     ok          (server: wait, disconnect, delete)
 *   rpma_io id op=read|write|atomic_write|flush [local=ID] loff [remote=ID] roff len flags type value
 *           nulls                                     ok status=WC vendor_err=N | ok (COMPLETION_ON_ERROR
 *                                                     and no error)
 *
 * uDAPL requests (agent_dat.c). A DAT call that fails answers "ok outcome=DAT_*"
 * (its major type); a DTO or bind answers "ok outcome=DAT_DTO_*" (its completion)
 * or "ok outcome=DAT_*" (refused at the post). An object a scenario freed is
 * passed to the library as DAT_HANDLE_NULL (never freed memory).
 *   dat_ia_open name_hex=HEX (empty: the default IA)  ok
 *   dat_pz_create id | dat_pz_free id                 ok
 *   dat_lmr_create id pz len priv type va offset prot [from]
 *                                                     ok addr=0xA lmr_context=N rmr_context=N
 *                                                        registered_size=N registered_address=0xA
 *   dat_lmr_query id                                  ok lmr_context=N rmr_context=N registered_size=N
 *                                                        registered_address=0xA mem_priv=N
 *   dat_lmr_free id                                   ok
 *   dat_rmr_create id pz | dat_rmr_free id            ok rmr_context=N
 *   dat_rmr_bind id ep lmr addr len priv              ok outcome=DAT_DTO_SUCCESS rmr_context=N
 *   dat_listen port                                   ok ip=A.B.C.D port=N (the node's PSP, made once)
 *   dat_accept id pz                                  ok (the next connection request, accepted by a
 *                                                        new EP id in PZ pz, ESTABLISHED)
 *   dat_connect id pz ip port                         ok (a new EP id in PZ pz, ESTABLISHED)
 *   dat_ep_disconnect id                              ok (disconnected, the event seen)
 *   dat_ep_wait id                                    ok (the EP saw its DISCONNECTED/BROKEN event) |
 *                                                     err errno=ETIMEDOUT
 *   dat_ep_free id                                    ok
 *   dat_post id op=write|read laddr lkey len raddr rkey
 *                                                     ok outcome=DAT_DTO_*
 *
 * MRAPI requests (agent_mrapi.c; the node is one MRAPI node of libmrapi-rdma).
 * Every call answers "ok outcome=MRAPI_*" (its status) and what it reports;
 * nulls=N: bit i passes a pointer argument as NULL (enum m_mrapi_null).
 *   mrapi_addr                                        ok ip=A.B.C.D port=P (the domain's directory)
 *   mrapi_initialize domain node_id dir=IP:PORT       (MRAPI_RDMA_DIR; MRAPI_RDMA_ADDR the node's address)
 *   mrapi_finalize
 *   mrapi_rmem_create id rid atype size attrs nulls [over over_off]
 *                                                     addr=0xA len=N (a new buffer, or over's again)
 *   mrapi_rmem_get id rid atype                       len=N
 *   mrapi_rmem_init_attributes id nulls
 *   mrapi_rmem_set_attribute id attr size value nulls | mrapi_rmem_get_attribute id attr size nulls (value=N)
 *   mrapi_rmem_attach|detach|delete|flush|sync id
 *   mrapi_rmem_read|write id local roff loff lsize bytes n rstride lstride nulls
 *   mrapi_rmem_read_i|write_i id rmem local ...      (id: the new request)
 *   mrapi_test id | mrapi_wait id timeout | mrapi_cancel id
 *   mrapi_local_store id byte off len                 ok (the creator's store through its pointer)
 *
 * librpmem requests (agent_rpmem.c; a node is a target (its root config
 * directory in the scenario's TMPDIR) and/or a client (librpmem-rpma, which
 * starts the target's daemon itself); a failed call answers "err errno=N",
 * librpmem's errno):
 *   rpmem_target                                      ok ip=A.B.C.D root=DIR netns=NS|-
 *   rpmem_poolset set size parts opt malformed        ok (the pool set file, in DIR)
 *   rpmem_pool_runs set off len                       ok n=N runs=HH:COUNT,... (the pool's bytes, from
 *                                                     its part files)
 *   rpmem_create|rpmem_open id ip root netns [port key] set size addr_off null_addr nlanes nulls max_nlanes_env
 *           [attr=HEX]                                ok nlanes=N
 *   rpmem_set_attr id nulls [attr=HEX] | rpmem_close id | rpmem_remove ip root netns [port key] set flags
 *   rpmem_persist|rpmem_deep_persist|rpmem_flush|rpmem_read id off len lane flags | rpmem_drain id lane flags
 *   rpmem_link_down id                                ok (the pool's daemon killed)
 *   rpmem_serve                                       ok port=N key=HEX (a target on another kernel: its
 *                                                     daemon for one client dialing N with the key)
 *
 * libdat2 reads its registry (DAT_OVERRIDE) in its constructor, when the
 * library is loaded; agents are fork()ed from the coordinator, so the
 * coordinator does not link it: the agent writes the node's own dat.conf
 * into a temporary directory, sets DAT_OVERRIDE (and DAPL_SCM_NETDEV, quiet
 * debug levels, DAPL_MAX_INLINE=0) and dlopen()s libdat2 at its first uDAPL
 * request. The dat.conf registers two IAs: AGENT_DAT_IA_CMA (libdaplofa, the
 * node's netdev) and AGENT_DAT_IA_SCM (libdaploscm, the node's rxe device).
 *
 * Creation answers carry what a peer needs to address the object. A post that
 * the provider refuses answers err with the post's errno; a completion that
 * does not come within the request's budget answers err errno=ETIMEDOUT.
 * Buffers outlive their registration (dereg_mr keeps the bytes readable), so
 * the coordinator can compare memory with the model at the end of a scenario.
 */
#ifndef RDMACHECK_AGENT_H
#define RDMACHECK_AGENT_H

#include "harness/run/proto.h" /* the requests' limits, AGENT_*_MAX */

#include <stddef.h>


/* The node an agent serves (from the topology). */
struct agent_node {
	const char *name;       /* the scenario's node name */
	const char *ibdev;      /* its rxe device */
	const char *netdev;     /* the network device under it */
	const char *ipv4;       /* its address (librpma and uDAPL connect by address) */
	int gid_index;          /* the RoCE v2 IPv4 GID of ibdev, port 1 */
};

/*
 * Serve the coordinator on fd until quit or end of stream: open the node's
 * device (port 1, its GID), greet with "ok hello node=NAME gid=HEX
 * driver=DRIVER kernel=RELEASE" (its device's driver, driver.h, and its
 * kernel's release: the coordinator judges the node by them) (or err and
 * return), then answer requests. Every object is released before
 * returning. step_ms bounds each completion wait. Returns 0 after quit or
 * EOF, or a negative errno if the device could not be opened.
 */
int agent_serve(int fd, const struct agent_node *node, int step_ms);

struct remote_key;

/*
 * A listening TCP socket on "HOST:PORT" (port 0: one the kernel picks), its
 * address as "HOST:PORT" into bound. Returns the fd, or -errno with err.
 */
int agent_bind(const char *hostport, char *bound, size_t boundlen, char *err, size_t errlen);

#define AGENT_HANDSHAKES_MAX 16 /* peers agent_listen holds in their handshakes at once */

/*
 * Serve coordinators that connect to lfd, one at a time: each must prove it
 * holds key (remote.h) or is refused with a line on stderr naming it and why
 * ("rdmacheck-agent: refused 10.0.0.9:41234: wrong secret"); one that does is
 * served as agent_serve serves (its objects released when it leaves). Up to
 * AGENT_HANDSHAKES_MAX handshakes go on side by side, each within
 * REMOTE_HANDSHAKE_MS in all; a connection past that drops the oldest, so no
 * slow or silent peer holds back the next (while a coordinator is served,
 * the others wait in the kernel's backlog).
 * With fork_sessions each session is served by a child process of its own
 * (the listener waits for it before the next): every coordinator meets a
 * fresh agent, no library's process state (librpma, uDAPL, …) left by the
 * one before, as a forked agent is fresh.
 * Returns 0 after sessions sessions (0: forever), or -errno if accept (or fork) fails.
 */
int agent_listen(int lfd, const struct remote_key *key, const struct agent_node *node, int step_ms, int sessions,
		 int fork_sessions);

#endif

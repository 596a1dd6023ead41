/*
 * agent_dat_int.h — what the uDAPL agent's files share (not a public API):
 * agent_dat_lib.c loads libdat2 for the node and keeps its state, answers,
 * waits and releases; agent_dat.c serves the requests (agent.h lists them).
 */
#ifndef RDMACHECK_AGENT_DAT_INT_H
#define RDMACHECK_AGENT_DAT_INT_H

#include "harness/agent/agent_internal.h"
#include "harness/api/dat/api_dat.h"

#include <dat2/udat.h>

/* The libdat2 entry points the agent uses, resolved with dlsym. */
#define DAT_FNS(X)                                                                                  \
	X(dat_ia_openv) X(dat_ia_close) X(dat_pz_create) X(dat_pz_free) X(dat_lmr_create)          \
	X(dat_lmr_query) X(dat_lmr_free) X(dat_rmr_create) X(dat_rmr_free) X(dat_rmr_bind)         \
	X(dat_evd_create) X(dat_evd_free) X(dat_evd_wait) X(dat_psp_create) X(dat_psp_free)        \
	X(dat_ep_create) X(dat_ep_connect) X(dat_ep_disconnect) X(dat_ep_free) X(dat_cr_accept)    \
	X(dat_cr_reject) X(dat_ep_post_rdma_write) X(dat_ep_post_rdma_read)

struct dat_lib {
#define X(f) __typeof__(f) *f;
	DAT_FNS(X)
#undef X
};

/* a->state[M_FAM_DAT]: the node's uDAPL state. */
struct dat_state {
	void *dl;
	struct dat_lib f;
	char dir[64], conf[96];
	DAT_IA_HANDLE ia;
	DAT_EVD_HANDLE async_evd, cr_evd;
	DAT_PSP_HANDLE psp;
	unsigned port;
	uint64_t cookie;
};

/* o->ext of a uDAPL object. */
struct dat_obj {
	DAT_HANDLE h;                      /* PZ, LMR, RMR or EP */
	DAT_EVD_HANDLE req_evd, conn_evd;  /* EP: its request (DTO, bind) and connection EVDs */
	int connected;                     /* EP: no DISCONNECTED or BROKEN seen since ESTABLISHED */
	DAT_LMR_CONTEXT lctx;              /* LMR: its lmr_context (kept after free: a stale one) */
	char cookie[DAT_LMR_COOKIE_SIZE];  /* LMR: the shared-memory id (mem_type SHARED_VIRTUAL) */
};

/* The node's uDAPL state, or NULL before the first request. */
struct dat_state *adat_state(struct agent *a);
/* Load libdat2 for this node (once). Returns the state or NULL after answering err. */
struct dat_state *adat_ready(struct agent *a);
/*
 * Load the providers the node's dat.conf names, never to be unmapped
 * (RTLD_NODELETE): libdat2 dlcloses a provider at its last dat_ia_close,
 * while the provider's own thread may still run its code (an agent of
 * dat/029 died of SIGSEGV at the scenario's end, its instruction pointer in
 * an unmapped page). libdat2 must be loaded (RTLD_GLOBAL) first: the
 * providers resolve its dat_registry_* functions. Returns how many loaded.
 */
int adat_pin_providers(void);
/* The provider libraries the node's dat.conf names: the cma one (its first IA), the scm one. */
#define ADAT_PROVIDERS 2
extern const char *const adat_providers[ADAT_PROVIDERS];
/* Answer a DAT_RETURN: "ok EXTRA" for success, else "ok outcome=DAT_*". Returns 0. */
int adat_answer(struct agent *a, DAT_RETURN r, const char *extra);
/* Answer a DTO completion status ("ok outcome=DAT_DTO_* EXTRA"). Returns 0. */
int adat_answer_dto(struct agent *a, DAT_DTO_COMPLETION_STATUS s, const char *extra);
/* The request's uDAPL object of kind k (any state), or NULL. */
struct aobj *adat_obj(struct agent *a, const char *key, enum aobj_kind k);
/* The library handle of o: DAT_HANDLE_NULL when o is missing or freed. */
DAT_HANDLE adat_handle(const struct aobj *o);
/*
 * Wait (until deadline, ms of proto_now_ms) for an event on evd whose number
 * is want or also (0: none); other events are dropped. Returns DAT_SUCCESS
 * with *ev, or the wait's error (DAT_TIMEOUT_EXPIRED).
 */
DAT_RETURN adat_wait_event(struct dat_state *d, DAT_EVD_HANDLE evd, int64_t deadline, DAT_EVENT_NUMBER want,
			   DAT_EVENT_NUMBER also, DAT_EVENT *ev);
/* Make o an object of kind k with a fresh dat_obj and release function; NULL when out of memory. */
struct dat_obj *adat_new_ext(struct aobj *o, enum aobj_kind k, void (*release)(struct agent *, struct aobj *));
/* Disconnect EP x (if it is connected) and wait for the event, until deadline. */
void adat_ep_disconnect_wait(struct dat_state *d, struct dat_obj *x, int64_t deadline);
/* Free EP x and its EVDs (disconnected first, within budget_ms). */
void adat_ep_release(struct dat_state *d, struct dat_obj *x, int budget_ms);
/* Release a uDAPL object (aobj.release). */
void adat_release(struct agent *a, struct aobj *o);
/* Turn IPv6 on for the node's netdev, which the scm provider needs. Returns 0 or -errno. */
int adat_scm_needs_ipv6(struct agent *a);

#endif

/*
 * agent_dat_lib.c — the uDAPL agent's node state (agent_dat_int.h).
 *
 * libdat2 builds its provider registry from DAT_OVERRIDE in its
 * constructor, i.e. when the library is loaded (our prototype: an agent
 * fork()ed from a process that had libdat2 loaded kept the parent's
 * registry whatever it set afterwards). The coordinator therefore does not
 * link libdat2; at its first uDAPL request the agent writes the node's own
 * dat.conf into a private temporary directory, sets the environment and
 * dlopen()s the library, whose constructor then reads that file.
 *
 * At the end every object is released: EPs, RMRs, LMRs, PZs (in reverse
 * creation order, as release functions), then the PSP, its EVD and the IA,
 * and the temporary directory is removed. It lives in the runner's TMPDIR
 * for the scenario (stack.h), which the runner removes after its agents
 * however they ended: a killed agent leaves nothing behind.
 */
#include "harness/api/dat/agent_dat_int.h"
#include "model/model.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dat_state *adat_state(struct agent *a)
{
	return a->state[M_FAM_DAT];
}

/* One dat.conf line per IA: the cma provider on the netdev, scm on the rxe device. */
static int write_conf(struct agent *a, struct dat_state *d)
{
	FILE *f = fopen(d->conf, "w");
	int rc = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%s u2.0 nonthreadsafe default %s dapl.2.0 \"%s 0\" \"\"\n", AGENT_DAT_IA_CMA, adat_providers[0],
		    a->node->netdev) < 0 ||
	    fprintf(f, "%s u2.0 nonthreadsafe default %s dapl.2.0 \"%s 1\" \"\"\n", AGENT_DAT_IA_SCM, adat_providers[1],
		    a->node->ibdev) < 0)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

static void unload(struct dat_state *d)
{
	if (d->conf[0])
		unlink(d->conf);
	if (d->dir[0])
		rmdir(d->dir);
	/* No dlclose: provider threads and registry state live on until exit. */
	free(d);
}

/* Load libdat2 for this node (once). Returns the state or NULL after answering err. */
struct dat_state *adat_ready(struct agent *a)
{
	struct dat_state *d = adat_state(a);
	const char *tmp = getenv("TMPDIR");
	int rc;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d) {
		agent_reply_err(a, ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(d->dir, sizeof(d->dir), "%s/rdmacheck-dat-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp"); /* the runner's (stack.h) */
	if (!mkdtemp(d->dir)) {
		rc = errno;
		d->dir[0] = '\0';
		agent_reply_err(a, rc, "mkdtemp for the node's dat.conf: %s", strerror(rc));
		goto fail;
	}
	snprintf(d->conf, sizeof(d->conf), "%s/dat.conf", d->dir);
	rc = write_conf(a, d);
	if (rc) {
		agent_reply_err(a, -rc, "writing %s: %s", d->conf, strerror(-rc));
		goto fail;
	}
	/* Before the constructor runs: the registry, the scm provider's netdev,
	 * no debug output into the coordinator's stdout, no inline writes (they
	 * would skip the lmr_context check and read the buffer by address). */
	const char *dbg = getenv("RDMACHECK_DAPL_DEBUG"); /* for developers: libdapl's debug mask, to stderr */

	if (setenv("DAT_OVERRIDE", d->conf, 1) || setenv("DAPL_SCM_NETDEV", a->node->netdev, 1) ||
	    setenv("DAT_DBG_TYPE", dbg && dbg[0] ? dbg : "0", 1) || setenv("DAPL_DBG_TYPE", dbg && dbg[0] ? dbg : "0", 1) ||
	    setenv("DAT_DBG_DEST", dbg && dbg[0] ? "2" : "0", 1) || setenv("DAPL_DBG_DEST", dbg && dbg[0] ? "1" : "0", 1) ||
	    setenv("DAPL_MAX_INLINE", "0", 1)) {
		agent_reply_err(a, errno, "setenv failed");
		goto fail;
	}
	if (dbg && dbg[0])
		dup2(2, 1); /* libdapl prints to stdout, which the coordinator discards */
	d->dl = dlopen("libdat2.so.2", RTLD_NOW | RTLD_GLOBAL); /* providers resolve dat_registry_* in it */
	if (!d->dl) {
		agent_reply_err(a, ENOENT, "cannot load libdat2.so.2: %s", dlerror());
		goto fail;
	}
#define X(fn)                                                                      \
	*(void **)&d->f.fn = dlsym(d->dl, #fn);                                    \
	if (!d->f.fn) {                                                            \
		agent_reply_err(a, ENOENT, "libdat2.so.2 has no %s", #fn);               \
		goto fail;                                                         \
	}
	DAT_FNS(X)
#undef X
	adat_pin_providers(); /* one that does not load: its IA's open says why */
	a->state[M_FAM_DAT] = d;
	return d;
fail:
	unload(d);
	return NULL;
}

/* -------------------------------------------------------------- helpers -- */

/* Answer a DAT_RETURN: "ok EXTRA" for success, else "ok outcome=DAT_*". Returns 0. */
int adat_answer(struct agent *a, DAT_RETURN r, const char *extra)
{
	struct m_outcome o = { M_OUT_DAT, (int32_t)DAT_GET_TYPE(r) };
	const char *name = m_outcome_name(o);

	if (r == DAT_SUCCESS)
		return proto_send(a->fd, "ok%s%s", extra && extra[0] ? " " : "", extra ? extra : "");
	if (strcmp(name, "?") == 0)
		return agent_reply_err(a, EPROTO, "DAT_RETURN 0x%x has no name", (unsigned)r);
	return proto_send(a->fd, "ok outcome=%s", name);
}

/* A DTO completion status as an answer. */
int adat_answer_dto(struct agent *a, DAT_DTO_COMPLETION_STATUS s, const char *extra)
{
	const char *name = m_outcome_name((struct m_outcome){ M_OUT_DTO, (int32_t)s });

	if (strcmp(name, "?") == 0)
		return agent_reply_err(a, EPROTO, "DTO status %d has no name", (int)s);
	return proto_send(a->fd, "ok outcome=%s%s%s", name, extra && extra[0] ? " " : "", extra ? extra : "");
}

/* The request's uDAPL object of kind k (any state), or NULL. */
struct aobj *adat_obj(struct agent *a, const char *key, enum aobj_kind k)
{
	struct aobj *o = agent_field_obj(a, key, k, 0);

	return o && o->ext ? o : NULL;
}

/* The library handle of o: DAT_HANDLE_NULL when o is missing or freed. */
DAT_HANDLE adat_handle(const struct aobj *o)
{
	return o && o->live && o->ext ? ((const struct dat_obj *)o->ext)->h : DAT_HANDLE_NULL;
}

static int64_t deadline_left(int64_t deadline)
{
	int64_t left = deadline - proto_now_ms();

	return left > 0 ? left : 0;
}

/*
 * Wait (until deadline, ms of now_ms) for an event on evd whose number is
 * want or also (0: none); other events are dropped. Returns DAT_SUCCESS with
 * *ev, or the wait's error (DAT_TIMEOUT_EXPIRED).
 */
DAT_RETURN adat_wait_event(struct dat_state *d, DAT_EVD_HANDLE evd, int64_t deadline, DAT_EVENT_NUMBER want,
			     DAT_EVENT_NUMBER also, DAT_EVENT *ev)
{
	for (;;) {
		DAT_COUNT nmore = 0;
		DAT_RETURN r;

		memset(ev, 0, sizeof(*ev));
		r = d->f.dat_evd_wait(evd, (DAT_TIMEOUT)deadline_left(deadline) * 1000u, 1, ev, &nmore);
		if (r != DAT_SUCCESS)
			return r;
		if (ev->event_number == want || (also && ev->event_number == also))
			return DAT_SUCCESS;
	}
}

struct dat_obj *adat_new_ext(struct aobj *o, enum aobj_kind k, void (*release)(struct agent *, struct aobj *))
{
	struct dat_obj *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	o->kind = (uint8_t)k;
	o->ext = x;
	o->release = release;
	return x;
}

/* ---------------------------------------------------------- releases -- */

/* Disconnect EP x (if it is connected) and wait for the event, until deadline. */
void adat_ep_disconnect_wait(struct dat_state *d, struct dat_obj *x, int64_t deadline)
{
	DAT_EVENT ev;

	if (!x->connected)
		return;
	d->f.dat_ep_disconnect(x->h, DAT_CLOSE_ABRUPT_FLAG);
	adat_wait_event(d, x->conn_evd, deadline, DAT_CONNECTION_EVENT_DISCONNECTED, DAT_CONNECTION_EVENT_BROKEN, &ev);
	x->connected = 0;
}

/* Free EP x and its EVDs (disconnected first). */
void adat_ep_release(struct dat_state *d, struct dat_obj *x, int budget_ms)
{
	if (x->h) {
		adat_ep_disconnect_wait(d, x, proto_now_ms() + budget_ms);
		d->f.dat_ep_free(x->h);
	}
	if (x->req_evd)
		d->f.dat_evd_free(x->req_evd);
	if (x->conn_evd)
		d->f.dat_evd_free(x->conn_evd);
	x->h = x->req_evd = x->conn_evd = DAT_HANDLE_NULL;
}

void adat_release(struct agent *a, struct aobj *o)
{
	struct dat_state *d = adat_state(a);
	struct dat_obj *x = o->ext;

	if (x && d && o->kind == AO_DAT_EP) {
		adat_ep_release(d, x, 1000); /* also one still connecting; a freed one has no handles left */
	} else if (x && d && o->live) {
		switch (o->kind) {
		case AO_DAT_RMR: d->f.dat_rmr_free(x->h); break;
		case AO_DAT_LMR: d->f.dat_lmr_free(x->h); break;
		case AO_DAT_PZ: d->f.dat_pz_free(x->h); break;
		default: break;
		}
	}
	free(x);
	o->ext = NULL;
	o->live = 0;
}

void agent_dat_end(struct agent *a)
{
	struct dat_state *d = adat_state(a);

	if (!d)
		return;
	if (d->psp)
		d->f.dat_psp_free(d->psp);
	if (d->cr_evd)
		d->f.dat_evd_free(d->cr_evd);
	if (d->ia && d->f.dat_ia_close(d->ia, DAT_CLOSE_GRACEFUL_FLAG) != DAT_SUCCESS)
		d->f.dat_ia_close(d->ia, DAT_CLOSE_ABRUPT_FLAG);
	unload(d);
	a->state[M_FAM_DAT] = NULL;
}

/* Write value into /proc/sys/net/ipv6/conf/DEV/key. Returns 0 or -errno. */
static int ipv6_conf(const char *dev, const char *key, const char *value)
{
	char path[160];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", dev, key);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(value, f) < 0)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/*
 * The scm provider addresses its QPs by GID index 0, which on rxe is the
 * MAC-derived fe80:: GID: RoCE v2 then needs IPv6 on the node's netdev,
 * which netns/topology turns off (without it the QP cannot reach RTR:
 * "Network is unreachable", dat_cr_accept blocks ~10 s). Turn it on for this
 * netdev only (it goes away with the device), without duplicate address
 * detection so the address is usable at once.
 */
int adat_scm_needs_ipv6(struct agent *a)
{
	int rc;

	if (access("/proc/sys/net/ipv6", F_OK))
		return 0;
	ipv6_conf(a->node->netdev, "accept_dad", "0");
	rc = ipv6_conf(a->node->netdev, "disable_ipv6", "0");
	return rc;
}


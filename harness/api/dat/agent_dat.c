/*
 * agent_dat.c — the agent's uDAPL requests (agent.h lists them).
 *
 * libdat2 builds its provider registry from DAT_OVERRIDE in its
 * constructor, i.e. when the library is loaded (our prototype: an agent
 * fork()ed from a process that had libdat2 loaded kept the parent's
 * registry whatever it set afterwards). The coordinator therefore does not
 * link libdat2; at its first uDAPL request the agent writes the node's own
 * dat.conf into a private temporary directory, sets the environment and
 * dlopen()s the library, whose constructor then reads that file.
 *
 * Every wait is bounded (dat_evd_wait with a timeout inside the request's
 * step budget). At the end every object is released: EPs, RMRs, LMRs, PZs
 * (in reverse creation order, as release functions), then the PSP, its EVD
 * and the IA, and the temporary directory is removed.
 */
#include "harness/agent/agent_internal.h"
#include "harness/api/dat/dat.h"
#include "model/model.h"

#include <arpa/inet.h>
#include <dat2/udat.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* a->state[SCN_API_DAT]: the node's uDAPL state. */
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
	int alias;                         /* LMR: the buffer is another LMR's */
	DAT_LMR_CONTEXT lctx;              /* LMR: its lmr_context (kept after free: a stale one) */
	char cookie[DAT_LMR_COOKIE_SIZE];  /* LMR: the shared-memory id (mem_type SHARED_VIRTUAL) */
};

static struct dat_state *st(struct agent *a)
{
	return a->state[SCN_API_DAT];
}

/* ---------------------------------------------------------- loading -- */

/* One dat.conf line per IA: the cma provider on the netdev, scm on the rxe device. */
static int write_conf(struct agent *a, struct dat_state *d)
{
	FILE *f = fopen(d->conf, "w");
	int rc = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%s u2.0 nonthreadsafe default libdaplofa.so.2 dapl.2.0 \"%s 0\" \"\"\n", AGENT_DAT_IA_CMA,
		    a->node->netdev) < 0 ||
	    fprintf(f, "%s u2.0 nonthreadsafe default libdaploscm.so.2 dapl.2.0 \"%s 1\" \"\"\n", AGENT_DAT_IA_SCM,
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
static struct dat_state *ready(struct agent *a)
{
	struct dat_state *d = st(a);
	const char *tmp = getenv("TMPDIR");
	int rc;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d) {
		agent_reply_err(a, ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(d->dir, sizeof(d->dir), "%s/rdmacheck-dat-XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
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
	a->state[SCN_API_DAT] = d;
	return d;
fail:
	unload(d);
	return NULL;
}

/* -------------------------------------------------------------- helpers -- */

/* Answer a DAT_RETURN: "ok EXTRA" for success, else "ok outcome=DAT_*". Returns 0. */
static int answer(struct agent *a, DAT_RETURN r, const char *extra)
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
static int answer_dto(struct agent *a, DAT_DTO_COMPLETION_STATUS s, const char *extra)
{
	const char *name = m_outcome_name((struct m_outcome){ M_OUT_DTO, (int32_t)s });

	if (strcmp(name, "?") == 0)
		return agent_reply_err(a, EPROTO, "DTO status %d has no name", (int)s);
	return proto_send(a->fd, "ok outcome=%s%s%s", name, extra && extra[0] ? " " : "", extra ? extra : "");
}

/* The request's uDAPL object of kind k (any state), or NULL. */
static struct aobj *dobj(struct agent *a, const char *key, enum aobj_kind k)
{
	struct aobj *o = agent_field_obj(a, key, k, 0);

	return o && o->ext ? o : NULL;
}

/* The library handle of o: DAT_HANDLE_NULL when o is missing or freed. */
static DAT_HANDLE handle_of(const struct aobj *o)
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
static DAT_RETURN wait_event(struct dat_state *d, DAT_EVD_HANDLE evd, int64_t deadline, DAT_EVENT_NUMBER want,
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

static struct dat_obj *new_ext(struct aobj *o, enum aobj_kind k, void (*release)(struct agent *, struct aobj *))
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
static void ep_disconnect_wait(struct dat_state *d, struct dat_obj *x, int64_t deadline)
{
	DAT_EVENT ev;

	if (!x->connected)
		return;
	d->f.dat_ep_disconnect(x->h, DAT_CLOSE_ABRUPT_FLAG);
	wait_event(d, x->conn_evd, deadline, DAT_CONNECTION_EVENT_DISCONNECTED, DAT_CONNECTION_EVENT_BROKEN, &ev);
	x->connected = 0;
}

/* Free EP x and its EVDs (disconnected first). */
static void ep_release(struct dat_state *d, struct dat_obj *x, int budget_ms)
{
	if (x->h) {
		ep_disconnect_wait(d, x, proto_now_ms() + budget_ms);
		d->f.dat_ep_free(x->h);
	}
	if (x->req_evd)
		d->f.dat_evd_free(x->req_evd);
	if (x->conn_evd)
		d->f.dat_evd_free(x->conn_evd);
	x->h = x->req_evd = x->conn_evd = DAT_HANDLE_NULL;
}

static void release(struct agent *a, struct aobj *o)
{
	struct dat_state *d = st(a);
	struct dat_obj *x = o->ext;

	if (x && d && o->kind == AO_DAT_EP) {
		ep_release(d, x, 1000); /* also one still connecting; a freed one has no handles left */
	} else if (x && d && o->live) {
		switch (o->kind) {
		case AO_DAT_RMR: d->f.dat_rmr_free(x->h); break;
		case AO_DAT_LMR: d->f.dat_lmr_free(x->h); break;
		case AO_DAT_PZ: d->f.dat_pz_free(x->h); break;
		default: break;
		}
	}
	if (x && x->alias)
		o->map = NULL; /* the other LMR's buffer: unmapped with it */
	free(x);
	o->ext = NULL;
	o->live = 0;
}

void agent_dat_end(struct agent *a)
{
	struct dat_state *d = st(a);

	if (!d)
		return;
	if (d->psp)
		d->f.dat_psp_free(d->psp);
	if (d->cr_evd)
		d->f.dat_evd_free(d->cr_evd);
	if (d->ia && d->f.dat_ia_close(d->ia, DAT_CLOSE_GRACEFUL_FLAG) != DAT_SUCCESS)
		d->f.dat_ia_close(d->ia, DAT_CLOSE_ABRUPT_FLAG);
	unload(d);
	a->state[SCN_API_DAT] = NULL;
}

/* ---------------------------------------------------------- requests -- */

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
static int scm_needs_ipv6(struct agent *a)
{
	int rc;

	if (access("/proc/sys/net/ipv6", F_OK))
		return 0;
	ipv6_conf(a->node->netdev, "accept_dad", "0");
	rc = ipv6_conf(a->node->netdev, "disable_ipv6", "0");
	return rc;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int do_ia_open(struct agent *a)
{
	struct dat_state *d = ready(a);
	char hex[2 * 64 + 1] = "", name[65];
	size_t n = 0;

	if (!d)
		return 0;
	if (d->ia)
		return agent_reply_err(a, EEXIST, "the node's IA is open");
	proto_get(a->msg, "name_hex", hex, sizeof(hex));
	for (; hex[2 * n] && hex[2 * n + 1] && n < sizeof(name) - 1; n++) {
		int hi = hexval(hex[2 * n]), lo = hexval(hex[2 * n + 1]);

		if (hi < 0 || lo < 0)
			return agent_reply_err(a, EINVAL, "bad name_hex");
		name[n] = (char)(hi << 4 | lo);
	}
	name[n] = '\0';
	if (strcmp(name, AGENT_DAT_IA_SCM) == 0 && scm_needs_ipv6(a))
		return agent_reply_err(a, EPERM, "cannot enable IPv6 on %s for the scm provider", a->node->netdev);
	d->async_evd = DAT_HANDLE_NULL;
	DAT_RETURN r = d->f.dat_ia_openv(n ? name : AGENT_DAT_IA_CMA, 8, &d->async_evd, &d->ia, DAT_VERSION_MAJOR,
					 DAT_VERSION_MINOR, DAT_THREADSAFE);

	if (r != DAT_SUCCESS)
		d->ia = DAT_HANDLE_NULL;
	return answer(a, r, NULL);
}

/*
 * Answer a create call that returned r and handle h: on success o becomes a
 * live object of kind k holding h (without memory for it, h is freed again
 * with free_h and the answer is ENOMEM).
 */
static int keep_created(struct agent *a, struct aobj *o, enum aobj_kind k, DAT_RETURN r, DAT_HANDLE h,
			DAT_RETURN (*free_h)(DAT_HANDLE))
{
	if (r == DAT_SUCCESS) {
		struct dat_obj *x = new_ext(o, k, release);

		if (!x) {
			free_h(h);
			return agent_reply_err(a, ENOMEM, "out of memory");
		}
		x->h = h;
		o->live = 1;
	}
	return answer(a, r, NULL);
}

static int do_pz_create(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o = agent_new_obj(a);
	DAT_PZ_HANDLE pz = DAT_HANDLE_NULL;
	DAT_RETURN r;

	if (!d)
		return 0;
	if (!o)
		return agent_reply_err(a, EINVAL, "bad id");
	r = d->f.dat_pz_create(d->ia, &pz);
	return keep_created(a, o, AO_DAT_PZ, r, pz, d->f.dat_pz_free);
}

/* dat_pz_free, dat_lmr_free, dat_rmr_free: the object's handle (NULL once freed). */
static int do_free(struct agent *a)
{
	struct dat_state *d = ready(a);
	enum aobj_kind k = proto_is(a->msg, "dat_pz_free") ? AO_DAT_PZ : proto_is(a->msg, "dat_lmr_free") ? AO_DAT_LMR
															 : AO_DAT_RMR;
	struct aobj *o;
	DAT_RETURN r;

	if (!d)
		return 0;
	o = dobj(a, "id", k);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such object");
	r = k == AO_DAT_PZ ? d->f.dat_pz_free(handle_of(o))
	    : k == AO_DAT_LMR ? d->f.dat_lmr_free(handle_of(o)) : d->f.dat_rmr_free(handle_of(o));
	if (r == DAT_SUCCESS)
		o->live = 0;
	return answer(a, r, NULL);
}

/* Make o use the buffer of LMR from (DAT_MEM_TYPE_LMR, or VIRTUAL from=). */
static void alias_buffer(struct aobj *o, const struct aobj *from, size_t len)
{
	o->map = from->map;
	o->maplen = from->maplen;
	o->buf = from->buf;
	o->len = len;
	o->prot = from->prot;
}

static int do_lmr_create(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o = agent_new_obj(a), *pz, *from;
	struct dat_obj *x;
	DAT_REGION_DESCRIPTION rd;
	DAT_LMR_HANDLE h = DAT_HANDLE_NULL;
	DAT_LMR_CONTEXT lctx = 0;
	DAT_RMR_CONTEXT rctx = 0;
	DAT_VLEN size = 0;
	DAT_VADDR addr = 0;
	uint64_t len = agent_num(a, "len", 0), type = agent_num(a, "type", DAT_MEM_TYPE_VIRTUAL);
	char extra[256];
	DAT_RETURN r;
	int rc;

	if (!d)
		return 0;
	if (!o)
		return agent_reply_err(a, EINVAL, "bad id");
	pz = dobj(a, "pz", AO_DAT_PZ);
	from = dobj(a, "from", AO_DAT_LMR);
	x = new_ext(o, AO_DAT_LMR, release);
	if (!x)
		return agent_reply_err(a, ENOMEM, "out of memory");
	memset(&rd, 0, sizeof(rd));
	if (from) {
		alias_buffer(o, from, type == DAT_MEM_TYPE_LMR ? from->len : len);
		x->alias = 1;
	} else {
		rc = agent_buffer(o, len, agent_num(a, "offset", 0), (int)agent_num(a, "prot", 0));
		if (rc)
			return agent_reply_err(a, -rc, "buffer: %s", strerror(-rc));
	}
	if (type == DAT_MEM_TYPE_LMR) {
		rd.for_lmr_handle = handle_of(from);
	} else if (type == DAT_MEM_TYPE_SHARED_VIRTUAL) {
		rd.for_shared_memory.virtual_address = o->buf;
		rd.for_shared_memory.shared_memory_id = &x->cookie;
	} else {
		rd.for_va = o->buf;
	}
	r = d->f.dat_lmr_create(d->ia, (DAT_MEM_TYPE)type, rd, len, handle_of(pz), (DAT_MEM_PRIV_FLAGS)agent_num(a, "priv", 0),
				(DAT_VA_TYPE)agent_num(a, "va", DAT_VA_TYPE_VA), &h, &lctx, &rctx, &size, &addr);
	if (r != DAT_SUCCESS)
		return answer(a, r, NULL); /* the buffer stays with the id; x marks nothing live */
	x->h = h;
	x->lctx = lctx;
	o->live = 1;
	snprintf(extra, sizeof(extra), "addr=0x%llx lmr_context=%u rmr_context=%u registered_size=%llu "
		 "registered_address=0x%llx", (unsigned long long)(uintptr_t)o->buf, (unsigned)lctx, (unsigned)rctx,
		 (unsigned long long)size, (unsigned long long)addr);
	return answer(a, r, extra);
}

static int do_lmr_query(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o;
	DAT_LMR_PARAM p;
	char extra[256];
	DAT_RETURN r;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_LMR);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such LMR");
	memset(&p, 0, sizeof(p));
	r = d->f.dat_lmr_query(handle_of(o), DAT_LMR_FIELD_ALL, &p);
	snprintf(extra, sizeof(extra), "lmr_context=%u rmr_context=%u registered_size=%llu registered_address=0x%llx "
		 "mem_priv=%u", (unsigned)p.lmr_context, (unsigned)p.rmr_context,
		 (unsigned long long)p.registered_size, (unsigned long long)p.registered_address, (unsigned)p.mem_priv);
	return answer(a, r, extra);
}

static int do_rmr_create(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o = agent_new_obj(a);
	DAT_RMR_HANDLE h = DAT_HANDLE_NULL;
	DAT_RETURN r;

	if (!d)
		return 0;
	if (!o)
		return agent_reply_err(a, EINVAL, "bad id");
	r = d->f.dat_rmr_create(handle_of(dobj(a, "pz", AO_DAT_PZ)), &h);
	return keep_created(a, o, AO_DAT_RMR, r, h, d->f.dat_rmr_free);
}

static int do_rmr_bind(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o, *lmr, *ep;
	DAT_LMR_TRIPLET t;
	DAT_RMR_CONTEXT ctx = 0;
	DAT_EVENT ev;
	char extra[64];
	DAT_RETURN r;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_RMR);
	lmr = dobj(a, "lmr", AO_DAT_LMR);
	ep = dobj(a, "ep", AO_DAT_EP);
	if (!o || !lmr || !ep)
		return agent_reply_err(a, ENOENT, "no such RMR, LMR or EP");
	t.virtual_address = agent_num(a, "addr", 0);
	t.segment_length = (DAT_SEG_LENGTH)agent_num(a, "len", 0);
	t.lmr_context = ((struct dat_obj *)lmr->ext)->lctx;
	r = d->f.dat_rmr_bind(handle_of(o), handle_of(lmr), &t, (DAT_MEM_PRIV_FLAGS)agent_num(a, "priv", 0), DAT_VA_TYPE_VA,
			      handle_of(ep), (DAT_RMR_COOKIE){ .as_64 = ++d->cookie }, DAT_COMPLETION_DEFAULT_FLAG,
			      &ctx);
	if (r != DAT_SUCCESS)
		return answer(a, r, NULL);
	r = wait_event(d, ((struct dat_obj *)ep->ext)->req_evd, proto_now_ms() + a->step_ms, DAT_RMR_BIND_COMPLETION_EVENT, 0,
		       &ev);
	if (r != DAT_SUCCESS)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no bind completion", ETIMEDOUT);
	snprintf(extra, sizeof(extra), "rmr_context=%u", (unsigned)ctx);
	return answer_dto(a, (DAT_DTO_COMPLETION_STATUS)ev.event_data.rmr_completion_event_data.status, extra);
}

static int do_listen(struct agent *a)
{
	struct dat_state *d = ready(a);
	char ip[64];
	DAT_RETURN r = DAT_SUCCESS;

	if (!d)
		return 0;
	if (!d->psp) {
		d->port = (unsigned)agent_num(a, "port", 45248);
		r = d->f.dat_evd_create(d->ia, 8, DAT_HANDLE_NULL, DAT_EVD_CR_FLAG, &d->cr_evd);
		if (r == DAT_SUCCESS)
			r = d->f.dat_psp_create(d->ia, d->port, d->cr_evd, DAT_PSP_CONSUMER_FLAG, &d->psp);
		if (r != DAT_SUCCESS) {
			if (d->cr_evd)
				d->f.dat_evd_free(d->cr_evd);
			d->cr_evd = d->psp = DAT_HANDLE_NULL;
			return agent_reply_err(a, EPROTO, "cannot listen on port %u: DAT_RETURN 0x%x", d->port, (unsigned)r);
		}
	}
	snprintf(ip, sizeof(ip), "%s", a->node->ipv4);
	ip[strcspn(ip, "/")] = '\0';
	return proto_send(a->fd, "ok ip=%s port=%u", ip, d->port);
}

/* A new EP in PZ pz with its own EVDs, as o (not live until connected). */
static DAT_RETURN ep_new(struct dat_state *d, struct aobj *o, DAT_PZ_HANDLE pz, struct dat_obj **out)
{
	struct dat_obj *x = new_ext(o, AO_DAT_EP, release);
	DAT_RETURN r;

	*out = x;
	if (!x)
		return DAT_INSUFFICIENT_RESOURCES;
	r = d->f.dat_evd_create(d->ia, 16, DAT_HANDLE_NULL, DAT_EVD_DTO_FLAG | DAT_EVD_RMR_BIND_FLAG, &x->req_evd);
	if (r == DAT_SUCCESS)
		r = d->f.dat_evd_create(d->ia, 8, DAT_HANDLE_NULL, DAT_EVD_CONNECTION_FLAG, &x->conn_evd);
	if (r == DAT_SUCCESS)
		r = d->f.dat_ep_create(d->ia, pz, x->req_evd, x->req_evd, x->conn_evd, NULL, &x->h);
	return r;
}

/* Connection set-up ended with r (and event ev when r is success); answer. */
static int connected(struct agent *a, struct aobj *o, struct dat_obj *x, DAT_RETURN r, const DAT_EVENT *ev)
{
	if (r == DAT_SUCCESS && ev->event_number == DAT_CONNECTION_EVENT_ESTABLISHED) {
		x->connected = 1;
		o->live = 1;
		return proto_send(a->fd, "ok");
	}
	o->live = 1; /* release what was made */
	release(a, o);
	o->kind = AO_NONE;
	if (r == DAT_TIMEOUT_EXPIRED || DAT_GET_TYPE(r) == DAT_TIMEOUT_EXPIRED)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no connection event in time", ETIMEDOUT);
	if (r != DAT_SUCCESS)
		return answer(a, r, NULL);
	return agent_reply_err(a, ECONNREFUSED, "connection event 0x%x instead of ESTABLISHED", (unsigned)ev->event_number);
}

static int do_accept(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o = agent_new_obj(a);
	int64_t deadline = proto_now_ms() + a->step_ms;
	struct dat_obj *x;
	DAT_EVENT ev;
	DAT_RETURN r;

	if (!d)
		return 0;
	if (!o || !d->cr_evd)
		return agent_reply_err(a, EINVAL, "bad id, or not listening");
	r = wait_event(d, d->cr_evd, deadline, DAT_CONNECTION_REQUEST_EVENT, 0, &ev);
	if (r != DAT_SUCCESS)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no connection request in time", ETIMEDOUT);
	DAT_CR_HANDLE cr = ev.event_data.cr_arrival_event_data.cr_handle;

	r = ep_new(d, o, handle_of(dobj(a, "pz", AO_DAT_PZ)), &x);
	if (r != DAT_SUCCESS) {
		d->f.dat_cr_reject(cr, 0, NULL);
		return connected(a, o, x, r, &ev);
	}
	r = d->f.dat_cr_accept(cr, x->h, 0, NULL);
	if (r == DAT_SUCCESS)
		r = wait_event(d, x->conn_evd, deadline, DAT_CONNECTION_EVENT_ESTABLISHED, 0, &ev);
	return connected(a, o, x, r, &ev);
}

/* dat_connect: a new EP asks the server; the answer is dat_ep_connect's (the wait comes next). */
static int do_connect(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o = agent_new_obj(a);
	struct sockaddr_in sin = { .sin_family = AF_INET };
	uint8_t pdata[1024];
	uint64_t npdata = agent_num(a, "pdata", 0);
	struct dat_obj *x;
	char ip[64];
	DAT_RETURN r;

	if (!d)
		return 0;
	if (!o || proto_get(a->msg, "ip", ip, sizeof(ip)) || inet_pton(AF_INET, ip, &sin.sin_addr) != 1 ||
	    npdata > sizeof(pdata))
		return agent_reply_err(a, EINVAL, "bad id, ip or pdata");
	for (size_t i = 0; i < npdata; i++)
		pdata[i] = (uint8_t)(0xa0 + i);
	r = ep_new(d, o, handle_of(dobj(a, "pz", AO_DAT_PZ)), &x);
	if (r == DAT_SUCCESS)
		r = d->f.dat_ep_connect(x->h, (DAT_IA_ADDRESS_PTR)&sin, agent_num(a, "port", 0),
					(DAT_TIMEOUT)a->step_ms * 1000u, (DAT_COUNT)npdata, npdata ? pdata : NULL,
					DAT_QOS_BEST_EFFORT, DAT_CONNECT_DEFAULT_FLAG);
	if (r != DAT_SUCCESS) {
		o->live = 1; /* release what was made */
		release(a, o);
		o->kind = AO_NONE;
	}
	return answer(a, r, NULL);
}

/* dat_connect_wait: the EP dat_connect made waits until ESTABLISHED. */
static int do_connect_wait(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o;
	DAT_EVENT ev = { 0 };
	DAT_RETURN r;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_EP);
	if (!o || o->live)
		return agent_reply_err(a, EINVAL, "no EP connecting");
	/* The first connection event decides: ESTABLISHED, or how it failed. */
	DAT_COUNT nmore = 0;

	r = d->f.dat_evd_wait(((struct dat_obj *)o->ext)->conn_evd, (DAT_TIMEOUT)a->step_ms * 1000u, 1, &ev, &nmore);
	return connected(a, o, o->ext, r, &ev);
}

static int do_ep_disconnect(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o;
	struct dat_obj *x;
	DAT_RETURN r;
	DAT_EVENT ev;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_EP);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such EP");
	x = o->ext;
	r = d->f.dat_ep_disconnect(handle_of(o), DAT_CLOSE_ABRUPT_FLAG);
	if (r == DAT_SUCCESS && o->live && x->connected) {
		wait_event(d, x->conn_evd, proto_now_ms() + a->step_ms, DAT_CONNECTION_EVENT_DISCONNECTED,
			   DAT_CONNECTION_EVENT_BROKEN, &ev);
		x->connected = 0;
	}
	return answer(a, r, NULL);
}

/* The peer of an EP that was disconnected: wait for the EP to see it. */
static int do_ep_wait(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o;
	struct dat_obj *x;
	DAT_EVENT ev;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_EP);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such EP");
	x = o->ext;
	if (o->live && x->connected) {
		int64_t ms = (int64_t)agent_num(a, "ms", (uint64_t)a->step_ms);

		if (wait_event(d, x->conn_evd, proto_now_ms() + (ms < a->step_ms ? ms : a->step_ms),
			       DAT_CONNECTION_EVENT_DISCONNECTED,
			       DAT_CONNECTION_EVENT_BROKEN, &ev) != DAT_SUCCESS)
			return proto_send(a->fd, "err errno=%d timeout=1 msg=no disconnect event", ETIMEDOUT);
		x->connected = 0;
	}
	return proto_send(a->fd, "ok");
}

static int do_ep_free(struct agent *a)
{
	struct dat_state *d = ready(a);
	struct aobj *o;
	DAT_RETURN r;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_EP);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such EP");
	if (!o->live)
		return answer(a, d->f.dat_ep_free(DAT_HANDLE_NULL), NULL);
	struct dat_obj *x = o->ext;

	ep_disconnect_wait(d, x, proto_now_ms() + a->step_ms / 2);
	r = d->f.dat_ep_free(x->h);
	if (r == DAT_SUCCESS) {
		x->h = DAT_HANDLE_NULL;
		ep_release(d, x, 0);
		o->live = 0;
	}
	return answer(a, r, NULL);
}

static int do_post(struct agent *a)
{
	struct dat_state *d = ready(a);
	char opname[8] = "";
	struct aobj *o;
	struct dat_obj *x;
	DAT_LMR_TRIPLET lt;
	DAT_RMR_TRIPLET rt;
	DAT_EVENT ev;
	DAT_RETURN r;

	if (!d)
		return 0;
	o = dobj(a, "id", AO_DAT_EP);
	proto_get(a->msg, "op", opname, sizeof(opname));
	if (!o || (strcmp(opname, "write") && strcmp(opname, "read")))
		return agent_reply_err(a, EINVAL, "no such EP, or a bad op");
	x = o->ext;
	lt = (DAT_LMR_TRIPLET){ .virtual_address = agent_num(a, "laddr", 0), .segment_length = (DAT_SEG_LENGTH)agent_num(a, "len", 0),
				.lmr_context = (DAT_LMR_CONTEXT)agent_num(a, "lkey", 0) };
	rt = (DAT_RMR_TRIPLET){ .virtual_address = agent_num(a, "raddr", 0), .segment_length = lt.segment_length,
				.rmr_context = (DAT_RMR_CONTEXT)agent_num(a, "rkey", 0) };
	DAT_DTO_COOKIE ck = { .as_64 = ++d->cookie };

	r = strcmp(opname, "write") == 0
		    ? d->f.dat_ep_post_rdma_write(handle_of(o), 1, &lt, ck, &rt, DAT_COMPLETION_DEFAULT_FLAG)
		    : d->f.dat_ep_post_rdma_read(handle_of(o), 1, &lt, ck, &rt, DAT_COMPLETION_DEFAULT_FLAG);
	if (r != DAT_SUCCESS)
		return answer(a, r, NULL);
	r = wait_event(d, x->req_evd, proto_now_ms() + a->step_ms, DAT_DTO_COMPLETION_EVENT, 0, &ev);
	if (r != DAT_SUCCESS)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no DTO completion in time", ETIMEDOUT);
	DAT_DTO_COMPLETION_STATUS s = ev.event_data.dto_completion_event_data.status;

	if (s != DAT_DTO_SUCCESS && s != DAT_DTO_ERR_FLUSHED)
		x->connected = 0; /* the provider broke the connection (DAT_CONNECTION_EVENT_BROKEN) */
	return answer_dto(a, s, NULL);
}

const struct agent_req agent_dat_reqs[] = {
	{ "dat_ia_open", do_ia_open },
	{ "dat_pz_create", do_pz_create },
	{ "dat_pz_free", do_free },
	{ "dat_lmr_create", do_lmr_create },
	{ "dat_lmr_query", do_lmr_query },
	{ "dat_lmr_free", do_free },
	{ "dat_rmr_create", do_rmr_create },
	{ "dat_rmr_bind", do_rmr_bind },
	{ "dat_rmr_free", do_free },
	{ "dat_listen", do_listen },
	{ "dat_accept", do_accept },
	{ "dat_connect", do_connect },
	{ "dat_connect_wait", do_connect_wait },
	{ "dat_ep_disconnect", do_ep_disconnect },
	{ "dat_ep_wait", do_ep_wait },
	{ "dat_ep_free", do_ep_free },
	{ "dat_post", do_post },
	{ NULL, NULL },
};

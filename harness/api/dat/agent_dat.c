/*
 * agent_dat.c — the agent's uDAPL requests (agent.h lists them; the node
 * state, answers and waits are agent_dat_lib.c's). Every wait is bounded
 * (dat_evd_wait with a timeout inside the request's step budget). An object
 * a scenario freed is passed to the library as DAT_HANDLE_NULL.
 */
#include "harness/api/dat/agent_dat_int.h"
#include "model/model.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int do_ia_open(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	char hex[2 * 64 + 1] = "", name[65];
	int n;

	if (!d)
		return 0;
	if (d->ia)
		return agent_reply_err(a, EEXIST, "the node's IA is open");
	proto_get(a->msg, "name_hex", hex, sizeof(hex));
	n = proto_hex_decode(hex, (uint8_t *)name, sizeof(name) - 1);
	if (n < 0)
		return agent_reply_err(a, EINVAL, "bad name_hex");
	name[n] = '\0';
	if (strcmp(name, AGENT_DAT_IA_SCM) == 0 && adat_scm_needs_ipv6(a))
		return agent_reply_err(a, EPERM, "cannot enable IPv6 on %s for the scm provider", a->node->netdev);
	d->async_evd = DAT_HANDLE_NULL;
	DAT_RETURN r = d->f.dat_ia_openv(n ? name : AGENT_DAT_IA_CMA, 8, &d->async_evd, &d->ia, DAT_VERSION_MAJOR,
					 DAT_VERSION_MINOR, DAT_THREADSAFE);

	if (r != DAT_SUCCESS)
		d->ia = DAT_HANDLE_NULL;
	return adat_answer(a, r, NULL);
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
		struct dat_obj *x = adat_new_ext(o, k, adat_release);

		if (!x) {
			free_h(h);
			return agent_reply_err(a, ENOMEM, "out of memory");
		}
		x->h = h;
		o->live = 1;
	}
	return adat_answer(a, r, NULL);
}

/* dat_pz_create and dat_rmr_create: one handle made from its parent's (the IA's, a PZ's). */
static int create_child(struct agent *a, enum aobj_kind k, DAT_RETURN (*create)(DAT_HANDLE, DAT_HANDLE *),
			DAT_HANDLE parent, DAT_RETURN (*free_h)(DAT_HANDLE))
{
	struct aobj *o = agent_new_obj(a);
	DAT_HANDLE h = DAT_HANDLE_NULL;
	DAT_RETURN r;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad id");
	r = create(parent, &h);
	return keep_created(a, o, k, r, h, free_h);
}

static int do_pz_create(struct agent *a)
{
	struct dat_state *d = adat_ready(a);

	return d ? create_child(a, AO_DAT_PZ, d->f.dat_pz_create, d->ia, d->f.dat_pz_free) : 0;
}

/* dat_pz_free, dat_lmr_free, dat_rmr_free: the object's handle (NULL once freed). */
static int do_free(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	enum aobj_kind k = proto_is(a->msg, "dat_pz_free") ? AO_DAT_PZ : proto_is(a->msg, "dat_lmr_free") ? AO_DAT_LMR
															 : AO_DAT_RMR;
	struct aobj *o;
	DAT_RETURN r;

	if (!d)
		return 0;
	o = adat_obj(a, "id", k);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such object");
	r = k == AO_DAT_PZ ? d->f.dat_pz_free(adat_handle(o))
	    : k == AO_DAT_LMR ? d->f.dat_lmr_free(adat_handle(o)) : d->f.dat_rmr_free(adat_handle(o));
	if (r == DAT_SUCCESS)
		o->live = 0;
	return adat_answer(a, r, NULL);
}

static int do_lmr_create(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
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
	pz = adat_obj(a, "pz", AO_DAT_PZ);
	from = adat_obj(a, "from", AO_DAT_LMR);
	x = adat_new_ext(o, AO_DAT_LMR, adat_release);
	if (!x)
		return agent_reply_err(a, ENOMEM, "out of memory");
	memset(&rd, 0, sizeof(rd));
	if (from) {
		agent_buffer_share(o, from, type == DAT_MEM_TYPE_LMR ? from->len : len);
	} else {
		rc = agent_buffer(o, len, agent_num(a, "offset", 0), (int)agent_num(a, "prot", 0));
		if (rc)
			return agent_reply_err(a, -rc, "buffer: %s", strerror(-rc));
	}
	if (type == DAT_MEM_TYPE_LMR) {
		rd.for_lmr_handle = adat_handle(from);
	} else if (type == DAT_MEM_TYPE_SHARED_VIRTUAL) {
		rd.for_shared_memory.virtual_address = o->buf;
		rd.for_shared_memory.shared_memory_id = &x->cookie;
	} else {
		rd.for_va = o->buf;
	}
	r = d->f.dat_lmr_create(d->ia, (DAT_MEM_TYPE)type, rd, len, adat_handle(pz), (DAT_MEM_PRIV_FLAGS)agent_num(a, "priv", 0),
				(DAT_VA_TYPE)agent_num(a, "va", DAT_VA_TYPE_VA), &h, &lctx, &rctx, &size, &addr);
	if (r != DAT_SUCCESS)
		return adat_answer(a, r, NULL); /* the buffer stays with the id; x marks nothing live */
	x->h = h;
	x->lctx = lctx;
	o->live = 1;
	snprintf(extra, sizeof(extra), "addr=0x%llx lmr_context=%u rmr_context=%u registered_size=%llu "
		 "registered_address=0x%llx", (unsigned long long)(uintptr_t)o->buf, (unsigned)lctx, (unsigned)rctx,
		 (unsigned long long)size, (unsigned long long)addr);
	return adat_answer(a, r, extra);
}

static int do_lmr_query(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o;
	DAT_LMR_PARAM p;
	char extra[256];
	DAT_RETURN r;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_LMR);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such LMR");
	memset(&p, 0, sizeof(p));
	r = d->f.dat_lmr_query(adat_handle(o), DAT_LMR_FIELD_ALL, &p);
	snprintf(extra, sizeof(extra), "lmr_context=%u rmr_context=%u registered_size=%llu registered_address=0x%llx "
		 "mem_priv=%u", (unsigned)p.lmr_context, (unsigned)p.rmr_context,
		 (unsigned long long)p.registered_size, (unsigned long long)p.registered_address, (unsigned)p.mem_priv);
	return adat_answer(a, r, extra);
}

static int do_rmr_create(struct agent *a)
{
	struct dat_state *d = adat_ready(a);

	return d ? create_child(a, AO_DAT_RMR, d->f.dat_rmr_create, adat_handle(adat_obj(a, "pz", AO_DAT_PZ)),
				d->f.dat_rmr_free) : 0;
}

static int do_rmr_bind(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o, *lmr, *ep;
	DAT_LMR_TRIPLET t;
	DAT_RMR_CONTEXT ctx = 0;
	DAT_EVENT ev;
	char extra[64];
	DAT_RETURN r;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_RMR);
	lmr = adat_obj(a, "lmr", AO_DAT_LMR);
	ep = adat_obj(a, "ep", AO_DAT_EP);
	if (!o || !lmr || !ep)
		return agent_reply_err(a, ENOENT, "no such RMR, LMR or EP");
	t.virtual_address = agent_num(a, "addr", 0);
	t.segment_length = (DAT_SEG_LENGTH)agent_num(a, "len", 0);
	t.lmr_context = ((struct dat_obj *)lmr->ext)->lctx;
	r = d->f.dat_rmr_bind(adat_handle(o), adat_handle(lmr), &t, (DAT_MEM_PRIV_FLAGS)agent_num(a, "priv", 0), DAT_VA_TYPE_VA,
			      adat_handle(ep), (DAT_RMR_COOKIE){ .as_64 = ++d->cookie }, DAT_COMPLETION_DEFAULT_FLAG,
			      &ctx);
	if (r != DAT_SUCCESS)
		return adat_answer(a, r, NULL);
	r = adat_wait_event(d, ((struct dat_obj *)ep->ext)->req_evd, proto_now_ms() + a->step_ms, DAT_RMR_BIND_COMPLETION_EVENT, 0,
		       &ev);
	if (r != DAT_SUCCESS)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no bind completion", ETIMEDOUT);
	snprintf(extra, sizeof(extra), "rmr_context=%u", (unsigned)ctx);
	return adat_answer_dto(a, (DAT_DTO_COMPLETION_STATUS)ev.event_data.rmr_completion_event_data.status, extra);
}

static int do_listen(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
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
	struct dat_obj *x = adat_new_ext(o, AO_DAT_EP, adat_release);
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
	adat_release(a, o);
	o->kind = AO_NONE;
	if (r == DAT_TIMEOUT_EXPIRED || DAT_GET_TYPE(r) == DAT_TIMEOUT_EXPIRED)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no connection event in time", ETIMEDOUT);
	if (r != DAT_SUCCESS)
		return adat_answer(a, r, NULL);
	return agent_reply_err(a, ECONNREFUSED, "connection event 0x%x instead of ESTABLISHED", (unsigned)ev->event_number);
}

static int do_accept(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o = agent_new_obj(a);
	int64_t deadline = proto_now_ms() + a->step_ms;
	struct dat_obj *x;
	DAT_EVENT ev;
	DAT_RETURN r;

	if (!d)
		return 0;
	if (!o || !d->cr_evd)
		return agent_reply_err(a, EINVAL, "bad id, or not listening");
	r = adat_wait_event(d, d->cr_evd, deadline, DAT_CONNECTION_REQUEST_EVENT, 0, &ev);
	if (r != DAT_SUCCESS)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no connection request in time", ETIMEDOUT);
	DAT_CR_HANDLE cr = ev.event_data.cr_arrival_event_data.cr_handle;

	r = ep_new(d, o, adat_handle(adat_obj(a, "pz", AO_DAT_PZ)), &x);
	if (r != DAT_SUCCESS) {
		d->f.dat_cr_reject(cr, 0, NULL);
		return connected(a, o, x, r, &ev);
	}
	r = d->f.dat_cr_accept(cr, x->h, 0, NULL);
	if (r == DAT_SUCCESS)
		r = adat_wait_event(d, x->conn_evd, deadline, DAT_CONNECTION_EVENT_ESTABLISHED, 0, &ev);
	return connected(a, o, x, r, &ev);
}

/* dat_connect: a new EP asks the server; the answer is dat_ep_connect's (the wait comes next). */
static int do_connect(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
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
	r = ep_new(d, o, adat_handle(adat_obj(a, "pz", AO_DAT_PZ)), &x);
	if (r == DAT_SUCCESS)
		r = d->f.dat_ep_connect(x->h, (DAT_IA_ADDRESS_PTR)&sin, agent_num(a, "port", 0),
					(DAT_TIMEOUT)a->step_ms * 1000u, (DAT_COUNT)npdata, npdata ? pdata : NULL,
					DAT_QOS_BEST_EFFORT, DAT_CONNECT_DEFAULT_FLAG);
	if (r != DAT_SUCCESS) {
		o->live = 1; /* release what was made */
		adat_release(a, o);
		o->kind = AO_NONE;
	}
	return adat_answer(a, r, NULL);
}

/* dat_connect_wait: the EP dat_connect made waits until ESTABLISHED. */
static int do_connect_wait(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o;
	DAT_EVENT ev = { 0 };
	DAT_RETURN r;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_EP);
	if (!o || o->live)
		return agent_reply_err(a, EINVAL, "no EP connecting");
	/* The first connection event decides: ESTABLISHED, or how it failed. */
	DAT_COUNT nmore = 0;

	r = d->f.dat_evd_wait(((struct dat_obj *)o->ext)->conn_evd, (DAT_TIMEOUT)a->step_ms * 1000u, 1, &ev, &nmore);
	return connected(a, o, o->ext, r, &ev);
}

static int do_ep_disconnect(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o;
	struct dat_obj *x;
	DAT_RETURN r;
	DAT_EVENT ev;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_EP);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such EP");
	x = o->ext;
	r = d->f.dat_ep_disconnect(adat_handle(o), DAT_CLOSE_ABRUPT_FLAG);
	if (r == DAT_SUCCESS && o->live && x->connected) {
		adat_wait_event(d, x->conn_evd, proto_now_ms() + a->step_ms, DAT_CONNECTION_EVENT_DISCONNECTED,
			   DAT_CONNECTION_EVENT_BROKEN, &ev);
		x->connected = 0;
	}
	return adat_answer(a, r, NULL);
}

/* The peer of an EP that was disconnected: wait for the EP to see it. */
static int do_ep_wait(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o;
	struct dat_obj *x;
	DAT_EVENT ev;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_EP);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such EP");
	x = o->ext;
	if (o->live && x->connected) {
		int64_t ms = (int64_t)agent_num(a, "ms", (uint64_t)a->step_ms);

		if (adat_wait_event(d, x->conn_evd, proto_now_ms() + (ms < a->step_ms ? ms : a->step_ms),
			       DAT_CONNECTION_EVENT_DISCONNECTED,
			       DAT_CONNECTION_EVENT_BROKEN, &ev) != DAT_SUCCESS)
			return proto_send(a->fd, "err errno=%d timeout=1 msg=no disconnect event", ETIMEDOUT);
		x->connected = 0;
	}
	return proto_send(a->fd, "ok");
}

static int do_ep_free(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	struct aobj *o;
	DAT_RETURN r;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_EP);
	if (!o)
		return agent_reply_err(a, ENOENT, "no such EP");
	if (!o->live)
		return adat_answer(a, d->f.dat_ep_free(DAT_HANDLE_NULL), NULL);
	struct dat_obj *x = o->ext;

	adat_ep_disconnect_wait(d, x, proto_now_ms() + a->step_ms / 2);
	r = d->f.dat_ep_free(x->h);
	if (r == DAT_SUCCESS) {
		x->h = DAT_HANDLE_NULL;
		adat_ep_release(d, x, 0);
		o->live = 0;
	}
	return adat_answer(a, r, NULL);
}

static int do_post(struct agent *a)
{
	struct dat_state *d = adat_ready(a);
	char opname[8] = "";
	struct aobj *o;
	struct dat_obj *x;
	DAT_LMR_TRIPLET lt;
	DAT_RMR_TRIPLET rt;
	DAT_EVENT ev;
	DAT_RETURN r;

	if (!d)
		return 0;
	o = adat_obj(a, "id", AO_DAT_EP);
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
		    ? d->f.dat_ep_post_rdma_write(adat_handle(o), 1, &lt, ck, &rt, DAT_COMPLETION_DEFAULT_FLAG)
		    : d->f.dat_ep_post_rdma_read(adat_handle(o), 1, &lt, ck, &rt, DAT_COMPLETION_DEFAULT_FLAG);
	if (r != DAT_SUCCESS)
		return adat_answer(a, r, NULL);
	r = adat_wait_event(d, x->req_evd, proto_now_ms() + a->step_ms, DAT_DTO_COMPLETION_EVENT, 0, &ev);
	if (r != DAT_SUCCESS)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no DTO completion in time", ETIMEDOUT);
	DAT_DTO_COMPLETION_STATUS s = ev.event_data.dto_completion_event_data.status;

	if (s != DAT_DTO_SUCCESS && s != DAT_DTO_ERR_FLUSHED)
		x->connected = 0; /* the provider broke the connection (DAT_CONNECTION_EVENT_BROKEN) */
	return adat_answer_dto(a, s, NULL);
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

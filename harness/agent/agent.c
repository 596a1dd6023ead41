/* agent.c — the node agent's core: objects, buffers, the request loop (agent.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "harness/agent/agent_internal.h"
#include "harness/run/driver.h"
#include "model/model.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

int agent_reply_err(struct agent *a, int err, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	proto_send(a->fd, "err errno=%d msg=%s", err ? err : EIO, text);
	return 0;
}

struct aobj *agent_field_obj(struct agent *a, const char *key, enum aobj_kind k, int need_live)
{
	uint64_t id;

	if (proto_get_u64(a->msg, key, &id) || id >= AGENT_OBJS_MAX)
		return NULL;
	struct aobj *o = &a->obj[id];

	if (o->kind != k || (need_live && !o->live))
		return NULL;
	return o;
}

struct aobj *agent_new_obj(struct agent *a)
{
	uint64_t id;

	if (proto_get_u64(a->msg, "id", &id) || id >= AGENT_OBJS_MAX || a->obj[id].live)
		return NULL;
	struct aobj *o = &a->obj[id];

	if (o->release) /* what the former object of this id kept (a freed one's ext) */
		o->release(a, o);
	o->release = NULL;
	o->ext = NULL;
	return o;
}

long agent_poll_pause_ns(int64_t since_ms, int64_t now_ms)
{
	return now_ms - since_ms < AGENT_SPIN_MS ? 0 : 200000;
}

void agent_poll_pause(int64_t since_ms)
{
	long ns = agent_poll_pause_ns(since_ms, proto_now_ms());

	if (ns == 0) {
		/* Answers held back (agent_serve) stay held: a run of posts sent ahead is answered in one
		 * write, one wake-up of the runner instead of one a post (on a loaded CPU each waits for it) */
		sched_yield(); /* rxe's kernel side may need this CPU to complete the request */
		return;
	}
	proto_release(); /* a long wait: the answers held back wait for nothing */
	nanosleep(&(struct timespec){ 0, ns }, NULL);
}

uint64_t agent_num(struct agent *a, const char *key, uint64_t dflt)
{
	uint64_t v;

	return proto_get_u64(a->msg, key, &v) ? dflt : v;
}

_Static_assert((int)IBV_WC_GENERAL_ERR == (int)M_WC_GENERAL_ERR && (int)IBV_WC_REM_ACCESS_ERR == (int)M_WC_REM_ACCESS_ERR,
	       "enum m_wc_status follows enum ibv_wc_status");
_Static_assert((int)IBV_QPS_ERR == (int)M_QPS_ERR && (int)IBV_QPS_RTS == (int)M_QPS_RTS,
	       "enum m_qp_state follows enum ibv_qp_state");

const char *agent_wc_status_str(enum ibv_wc_status s)
{
	return m_wc_status_str((enum m_wc_status)s);
}

const char *agent_wc_opcode_str(enum ibv_wc_opcode o)
{
	return m_wc_opcode_str((enum m_wc_opcode)o);
}

const char *agent_qp_state_str(enum ibv_qp_state s)
{
	return m_qp_state_str((enum m_qp_state)s);
}

void agent_buffer_drop(struct aobj *o)
{
	struct abuf *m = o->mem;

	o->mem = NULL;
	o->buf = NULL;
	if (!m || --m->refs > 0)
		return;
	if (m->map)
		munmap(m->map, m->maplen);
	free(m);
}

void agent_buffer_share(struct aobj *o, const struct aobj *from, size_t len)
{
	struct abuf *m = from->mem;
	uint8_t *buf = from->buf;

	if (m)
		m->refs++; /* first: o may be from itself */
	agent_buffer_drop(o);
	o->mem = m;
	o->buf = m ? buf : NULL;
	o->len = len;
}

int agent_buffer(struct aobj *o, uint64_t len, uint64_t off, int prot)
{
	long page = sysconf(_SC_PAGESIZE);
	struct abuf *m;

	if (off >= (uint64_t)page || len > AGENT_BUF_MAX || prot < 0 || prot > 3)
		return -EINVAL;
	agent_buffer_drop(o); /* a name created again: shared bytes stay with their other owners */
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->refs = 1;
	m->maplen = (size_t)((off + len + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page);
	if (m->maplen == 0)
		m->maplen = (size_t)page;
	m->map = mmap(NULL, m->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->map == MAP_FAILED) {
		int rc = -errno;

		free(m);
		return rc;
	}
	o->mem = m;
	o->buf = m->map + off;
	o->len = len;
	if (prot == 3) {
		/* Not mapped (MR-MAP-1): the address range exists no more. The
		 * object keeps no bytes (fill and read refuse it). */
		munmap(m->map, m->maplen);
		m->map = NULL;
	}
	m->prot = prot == 1 ? PROT_READ : prot == 2 ? PROT_NONE : PROT_READ | PROT_WRITE;
	if (m->map && m->prot != (PROT_READ | PROT_WRITE))
		mprotect(m->map, m->maplen, m->prot);
	return 0;
}

/* The object of the request's id that has a buffer, or NULL. */
static struct aobj *buffer_obj(struct agent *a)
{
	uint64_t id;

	if (proto_get_u64(a->msg, "id", &id) || id >= AGENT_OBJS_MAX || !a->obj[id].buf)
		return NULL;
	return &a->obj[id];
}

/* Make a buffer's pages accessible for the harness while it touches them. */
static void open_pages(struct aobj *o, int open)
{
	const struct abuf *m = o->mem;

	if (m->prot != (PROT_READ | PROT_WRITE))
		mprotect(m->map, m->maplen, open ? PROT_READ | PROT_WRITE : m->prot);
}

static int do_fill(struct agent *a)
{
	struct aobj *o = buffer_obj(a);
	uint64_t off = agent_num(a, "off", 0), len = agent_num(a, "len", 0);

	if (!o || off > o->len || len > o->len - off)
		return agent_reply_err(a, EINVAL, "bad fill request");
	if (!o->mem || !o->mem->map)
		return agent_reply_err(a, ENOENT, "the buffer is not mapped");
	open_pages(o, 1);
	memset(o->buf + off, (int)agent_num(a, "byte", 0), len);
	open_pages(o, 0);
	return proto_send(a->fd, "ok");
}

static int do_read(struct agent *a)
{
	struct aobj *o = buffer_obj(a);
	uint64_t off = agent_num(a, "off", 0), len = agent_num(a, "len", 0);
	int rc;

	if (!o || off > o->len || len > o->len - off || len > AGENT_READ_MAX)
		return agent_reply_err(a, EINVAL, "bad read request");
	if (!o->mem || !o->mem->map)
		return agent_reply_err(a, ENOENT, "the buffer is not mapped");
	open_pages(o, 1);
	rc = proto_send(a->fd, "ok bytes=%llu", (unsigned long long)len);
	if (rc == 0)
		rc = proto_send_bytes(a->fd, o->buf + off, len);
	open_pages(o, 0);
	return rc;
}

static int do_reset(struct agent *a);
static int do_hello(struct agent *a);

static const struct agent_req core_reqs[] = {
	{ "fill", do_fill },
	{ "read", do_read },
	{ "reset", do_reset },
	{ "hello", do_hello },
	{ NULL, NULL },
};

/* Release every object: API objects first (they sit on verbs ones), then verbs ones. */
static void release_all(struct agent *a)
{
	static const enum aobj_kind order[] = { AO_MW, AO_QP, AO_CQ, AO_CHAN, AO_MR, AO_PD };

	for (int i = AGENT_OBJS_MAX - 1; i >= 0; i--)
		if (a->obj[i].release)
			a->obj[i].release(a, &a->obj[i]);
	for (size_t f = 0; f < api_family_count(); f++)
		if (api_family_get(f)->agent_end)
			api_family_get(f)->agent_end(a);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (int i = AGENT_OBJS_MAX - 1; i >= 0; i--) {
			struct aobj *o = &a->obj[i];

			if (o->kind != order[k] || !o->live)
				continue;
			if (order[k] == AO_MW)
				ibv_dealloc_mw(o->mw);
			else if (order[k] == AO_QP && !ibv_destroy_qp(o->qp)) {
				if (!(o->cq_given & 2)) /* AGENT_CQ_RECV: a CQ object's, destroyed with it */
					ibv_destroy_cq(o->rcq);
				if (!(o->cq_given & 1))
					ibv_destroy_cq(o->scq);
			} else if (order[k] == AO_CQ)
				ibv_destroy_cq(o->scq);
			else if (order[k] == AO_CHAN && !ibv_destroy_comp_channel(o->ext))
				o->ext = NULL; /* after its CQs */
			else if (order[k] == AO_MR)
				ibv_dereg_mr(o->mr);
			else if (order[k] == AO_PD)
				ibv_dealloc_pd(o->pd);
			o->live = 0;
		}
	for (int i = 0; i < AGENT_OBJS_MAX; i++)
		agent_buffer_drop(&a->obj[i]);
}

static int open_device(struct agent *a, char *err, size_t errlen)
{
	struct ibv_device **list;
	int num_dev = 0, rc = -ENODEV;

	list = ibv_get_device_list(&num_dev);
	if (!list) {
		snprintf(err, errlen, "ibv_get_device_list: %s", strerror(errno));
		return -errno;
	}
	for (int i = 0; i < num_dev; i++)
		if (strcmp(ibv_get_device_name(list[i]), a->node->ibdev) == 0) {
			a->ctx = ibv_open_device(list[i]);
			rc = a->ctx ? 0 : -errno;
			break;
		}
	ibv_free_device_list(list);
	if (rc) {
		snprintf(err, errlen, "cannot open RDMA device %s: %s", a->node->ibdev, strerror(-rc));
		return rc;
	}
	if (ibv_query_gid(a->ctx, 1, a->node->gid_index, &a->gid)) {
		snprintf(err, errlen, "ibv_query_gid(%s, %d) failed", a->node->ibdev, a->node->gid_index);
		ibv_close_device(a->ctx);
		return -EINVAL;
	}
	return 0;
}

/* The handler of the request in a->msg (the core's, else a family's; *fam its enum m_family, -1 the core's), or NULL. */
static const struct agent_req *find_req(const struct agent *a, int *fam)
{
	for (size_t f = 0; f <= api_family_count(); f++) {
		const struct agent_req *r = f ? api_family_get(f - 1)->agent_reqs : core_reqs;

		*fam = (int)f - 1;
		for (; r && r->verb; r++)
			if (proto_is(a->msg, r->verb))
				return r;
	}
	return NULL;
}

/*
 * What the greeting tells of the node besides its GID, read once when the
 * device is open: its device's driver (driver.h; sysfs at $RDMACHECK_SYSFS,
 * else /sys) and its kernel, from which the coordinator chooses the profile
 * that judges it.
 */
static void hello_node(struct agent *a)
{
	const char *sysfs = getenv("RDMACHECK_SYSFS");
	struct ibv_device_attr attr;
	struct utsname u;

	if (ibv_query_device(a->ctx, &attr))
		attr.vendor_id = DRIVER_VENDOR_NONE;
	driver_of(sysfs && *sysfs ? sysfs : "/sys", a->node->ibdev, attr.vendor_id, a->driver, sizeof(a->driver));
	if (!a->driver[0] || strpbrk(a->driver, " \t"))
		snprintf(a->driver, sizeof(a->driver), "unknown");
	snprintf(a->kernel, sizeof(a->kernel), "%s", uname(&u) ? "unknown" : u.release);
}

/* The greeting: at the start, and again for "hello node=NAME" (a kept agent's next scenario). */
static int greet(struct agent *a)
{
	char gid[33];

	proto_hex_encode(a->gid.raw, sizeof(a->gid.raw), gid);
	return proto_send(a->fd, "ok hello node=%s gid=%s driver=%s kernel=%s", a->self.name, gid, a->driver,
			  a->kernel);
}

static int do_hello(struct agent *a)
{
	if (proto_get(a->msg, "node", a->name, sizeof(a->name)))
		return agent_reply_err(a, EINVAL, "hello needs node=NAME");
	a->self.name = a->name;
	return greet(a);
}

void agent_reset(struct agent *a, unsigned *objs, unsigned *fams)
{
	release_all(a);
	*objs = *fams = 0;
	for (int i = 0; i < AGENT_OBJS_MAX; i++) {
		struct aobj *o = &a->obj[i];

		o->release = NULL; /* released: never again */
		*objs += o->live || o->mem || o->buf || o->ext;
	}
	for (size_t f = 0; f < API_FAMILIES_MAX; f++) {
		*objs += a->state[f] != NULL;
		*fams += (a->fams >> f) & 1u;
	}
	if (*objs == 0)
		memset(a->obj, 0, sizeof(a->obj));
	a->fams = 0;
	a->cqs_made = 0;
}

static int do_reset(struct agent *a)
{
	unsigned objs, fams;

	agent_reset(a, &objs, &fams);
	return proto_send(a->fd, "ok objs=%u fams=%u", objs, fams);
}

int agent_serve(int fd, const struct agent_node *node, int step_ms)
{
	struct agent *a = calloc(1, sizeof(*a));
	char err[256];
	int rc;

	if (!a)
		return -ENOMEM;
	a->fd = fd;
	a->step_ms = step_ms;
	a->self = *node;
	snprintf(a->name, sizeof(a->name), "%s", node->name);
	a->self.name = a->name;
	a->node = &a->self;
	rc = open_device(a, err, sizeof(err));
	if (rc) {
		agent_reply_err(a, -rc, "%s", err);
		free(a);
		return rc;
	}
	hello_node(a);
	greet(a);
	for (;;) {
		const struct agent_req *r;
		int fam;

		if (!proto_rd_ready(&a->rd))
			proto_release(); /* the answers held back go before the wait for more requests */
		if (proto_recv(fd, &a->rd, a->msg, sizeof(a->msg), -1) < 0)
			break;
		/* requests sent ahead come together: their answers go together, unless one waits
		 * longer than AGENT_SPIN_MS (agent_poll_pause releases them) */
		if (proto_rd_ready(&a->rd))
			proto_hold(fd);
		if (proto_is(a->msg, "quit")) {
			proto_send(fd, "ok");
			break;
		}
		r = find_req(a, &fam);
		if (!r) {
			agent_reply_err(a, EINVAL, "unknown request");
			continue;
		}
		const struct api_family *af = fam >= 0 ? api_family_get((size_t)fam) : NULL;

		if (af && af->agent_end && !af->agent_end_fresh)
			a->fams |= 1u << fam;
		r->fn(a);
	}
	proto_release();
	release_all(a);
	ibv_close_device(a->ctx);
	free(a);
	return 0;
}

/*
 * agent_mrapi.c — the node agent's MRAPI requests: the node is one MRAPI
 * node (lib/mrapi, libmrapi-rdma linked in), calling the library as an
 * application would. Its rdma_cm listener binds the node's IPv4 address
 * (MRAPI_RDMA_ADDR); the directory address (MRAPI_RDMA_DIR) comes with
 * mrapi_initialize, and so does the run's keyring (MRAPI_RDMA_KEYS: the first
 * node's agent makes a secret for each domain the scenario names and every
 * agent writes the same file, mode 0600, so the directory authenticates every
 * node as it would a user's). Every answer is "ok outcome=MRAPI_*" (the call's status
 * by its name, which is the model's) plus what a creation reports. The
 * library numbers statuses and access types as the MCA reference
 * implementation does; the model's access types (enum m_mrapi_atype) are
 * turned into the library's here and back. The requests are listed in
 * harness/agent/agent.h.
 *
 * Objects: an rmem (AO_MRAPI_RMEM) keeps its handle in ext and, on the node
 * that created it, the buffer it was created over (o->buf: fill, read and
 * local_store reach it, as the creator's pointer would); a request
 * (AO_MRAPI_REQ) and an attribute struct (AO_MRAPI_ATTRS) keep theirs.
 */
#include "harness/agent/agent_internal.h"
#include "harness/api/mrapi/api_mrapi.h"
#include "lib/mrapi/mrapi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* What an MRAPI object keeps (o->ext). */
union mobj {
	mrapi_rmem_hndl_t rmem;
	mrapi_request_t req;
	mrapi_rmem_attributes_t attrs;
};

#define KEYS_MAX 1600 /* "D:SECRET,..." for up to 16 domains */
#define SECRET_BYTES 24

/*
 * The node's MRAPI state (a->state[M_FAM_MRAPI]): did initialize succeed
 * (finalize at the end)? The keyring: keys as the first node made them
 * ("D:SECRET,...", answered to mrapi_addr), keyfile the file this agent wrote
 * them to (removed at the end).
 */
struct mrapi_state {
	int init;
	char keys[KEYS_MAX];
	char keyfile[256];
};

static struct mrapi_state *state(struct agent *a)
{
	if (!a->state[M_FAM_MRAPI])
		a->state[M_FAM_MRAPI] = calloc(1, sizeof(struct mrapi_state));
	return a->state[M_FAM_MRAPI];
}

static void release(struct agent *a, struct aobj *o)
{
	(void)a;
	free(o->ext);
	o->ext = NULL;
	o->release = NULL;
}

/* The object of field key, of kind k, with its MRAPI part, or NULL. */
static union mobj *field(struct agent *a, const char *key, enum aobj_kind k)
{
	struct aobj *o = agent_field_obj(a, key, k, 0);

	return o ? o->ext : NULL;
}

/* A new object of kind k (the request's id), or NULL with the error answered. */
static struct aobj *new_obj(struct agent *a, enum aobj_kind k)
{
	struct aobj *o = agent_new_obj(a);

	if (!o || !(o->ext = calloc(1, sizeof(union mobj)))) {
		agent_reply_err(a, o ? ENOMEM : EINVAL, "bad id");
		return NULL;
	}
	o->kind = (uint8_t)k;
	o->release = release;
	return o;
}

/* The status by name (the library's names are the model's: m_mrapi_st_parse knows them). */
static int answer(struct agent *a, mrapi_status_t st, const char *extra)
{
	char name[MRAPI_MAX_STATUS_SIZE];

	return proto_send(a->fd, "ok outcome=%s%s%s", mrapi_display_status(st, name, sizeof(name)),
			  extra ? " " : "", extra ? extra : "");
}

/* The model's access types and the library's (the reference's numbering); any other value passes as it is. */
static const struct { uint32_t model, lib; } atypes[] = {
	{ M_MRAPI_ATYPE_DEFAULT, MRAPI_RMEM_DEFAULT }, { M_MRAPI_ATYPE_DMA, MRAPI_RMEM_DMA },
	{ M_MRAPI_ATYPE_SWCACHE, MRAPI_RMEM_SWCACHE }, { M_MRAPI_ATYPE_ANY, MRAPI_RMEM_ATYPE_ANY },
};

static mrapi_rmem_atype_t lib_atype(uint64_t model)
{
	for (size_t i = 0; i < sizeof(atypes) / sizeof(atypes[0]); i++)
		if (atypes[i].model == model)
			return (mrapi_rmem_atype_t)atypes[i].lib;
	return (mrapi_rmem_atype_t)model;
}

static uint32_t model_atype(uint32_t lib)
{
	for (size_t i = 0; i < sizeof(atypes) / sizeof(atypes[0]); i++)
		if (atypes[i].lib == lib)
			return atypes[i].model;
	return lib;
}

/* bit of the request's nulls (enum m_mrapi_null): pass p, or NULL. */
static void *arg(struct agent *a, unsigned bit, void *p)
{
	return agent_num(a, "nulls", 0) & bit ? NULL : p;
}

/* keys ("D:SECRET,...") as a keyring file of DOMAIN SECRET lines, mode 0600, in TMPDIR; its name into s->keyfile. */
static int write_keyring(struct mrapi_state *s, const char *keys)
{
	const char *tmp = getenv("TMPDIR");
	char text[KEYS_MAX + 32];
	size_t n = 0;
	int fd;

	for (const char *p = keys; *p && n + 2 < sizeof(text);) {
		size_t w = strcspn(p, ",");
		const char *colon = memchr(p, ':', w);

		if (!colon)
			return -EINVAL;
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%.*s %.*s\n", (int)(colon - p), p,
				      (int)(w - (size_t)(colon - p) - 1), colon + 1);
		p += w + (p[w] == ',');
	}
	snprintf(s->keyfile, sizeof(s->keyfile), "%s/mrapi-keys.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemp(s->keyfile)) < 0) {
		s->keyfile[0] = '\0';
		return -errno;
	}
	if (fchmod(fd, 0600) || write(fd, text, n) != (ssize_t)n) {
		int rc = -errno;

		close(fd);
		unlink(s->keyfile);
		s->keyfile[0] = '\0';
		return rc ? rc : -EIO;
	}
	close(fd);
	return 0;
}

static int do_initialize(struct agent *a)
{
	char dir[128], keys[KEYS_MAX];
	mrapi_info_t info;
	mrapi_status_t st = MRAPI_SUCCESS;
	struct mrapi_state *s = state(a);
	int rc;

	if (!s)
		return agent_reply_err(a, ENOMEM, "no memory");
	if (proto_get(a->msg, "dir", dir, sizeof(dir)) || proto_get(a->msg, "keys", keys, sizeof(keys)))
		return agent_reply_err(a, EINVAL, "no dir or keys");
	if (!s->keyfile[0] && (rc = write_keyring(s, keys)))
		return agent_reply_err(a, -rc, "cannot write the keyring");
	setenv("MRAPI_RDMA_KEYS", s->keyfile, 1);
	setenv("MRAPI_RDMA_DIR", dir, 1);
	setenv("MRAPI_RDMA_ADDR", a->node->ipv4, 1);
	mrapi_initialize((mrapi_domain_t)agent_num(a, "domain", 1), (mrapi_node_t)agent_num(a, "node_id", 1), 0, &info,
			 &st);
	if (st == MRAPI_SUCCESS)
		s->init = 1;
	return answer(a, st, NULL);
}

static int do_finalize(struct agent *a)
{
	mrapi_status_t st = MRAPI_SUCCESS;

	mrapi_finalize(&st);
	if (st == MRAPI_SUCCESS && state(a))
		state(a)->init = 0;
	return answer(a, st, NULL);
}

/*
 * The domain's directory, asked of the first node: its address and a port of
 * this agent (agents are new processes for every scenario, so a directory
 * service lingering after the previous scenario is never reused).
 */
#define DIR_PORT_BASE 41000
#define DIR_PORTS 4000
static int do_addr(struct agent *a)
{
	struct mrapi_state *s = state(a);
	char domains[256];
	size_t n = 0;

	if (!s)
		return agent_reply_err(a, ENOMEM, "no memory");
	if (proto_get(a->msg, "domains", domains, sizeof(domains)))
		snprintf(domains, sizeof(domains), "1");
	/* the keyring, made once for the run: a fresh secret for each domain */
	for (const char *p = s->keys[0] ? "" : domains; *p;) {
		size_t w = strcspn(p, ",");
		unsigned char r[SECRET_BYTES];

		if (w == 0 || w > 10 || strspn(p, "0123456789") < w || n + w + 2 * SECRET_BYTES + 3 > sizeof(s->keys))
			return agent_reply_err(a, EINVAL, "bad domains");
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return agent_reply_err(a, EIO, "no random bytes");
		n += (size_t)snprintf(s->keys + n, sizeof(s->keys) - n, "%s%.*s:", n ? "," : "", (int)w, p);
		for (size_t i = 0; i < sizeof(r); i++)
			n += (size_t)snprintf(s->keys + n, sizeof(s->keys) - n, "%02x", r[i]);
		p += w + (p[w] == ',');
	}
	return proto_send(a->fd, "ok ip=%s port=%u keys=%s", a->node->ipv4,
			  DIR_PORT_BASE + (unsigned)getpid() % DIR_PORTS, s->keys);
}

static int do_create(struct agent *a)
{
	struct aobj *o = new_obj(a, AO_MRAPI_RMEM), *over = agent_field_obj(a, "over", AO_MRAPI_RMEM, 0);
	union mobj *at = field(a, "attrs", AO_MRAPI_ATTRS);
	uint64_t size = agent_num(a, "size", 0), off = agent_num(a, "over_off", 0);
	mrapi_status_t st = MRAPI_SUCCESS;
	char extra[96];
	int rc;

	if (!o)
		return 0;
	/* a size mrapi_uint_t cannot carry goes to the call truncated, as a C caller's would, over one byte */
	if (over && over->buf && off <= over->len) {
		o->buf = over->buf + off; /* the same memory again (RMEM-CREATE-4); no bytes of its own */
		o->len = size;
	} else if ((rc = agent_buffer(o, size && size <= M_MRAPI_SIZE_MAX ? size : 1, 0, 0)) != 0) {
		return agent_reply_err(a, -rc, "no buffer of %llu bytes", (unsigned long long)size);
	}
	((union mobj *)o->ext)->rmem =
		mrapi_rmem_create((mrapi_rmem_id_t)agent_num(a, "rid", 0), arg(a, M_MRAPI_NULL_MEM, o->buf),
				  lib_atype(agent_num(a, "atype", 0)), at ? arg(a, M_MRAPI_NULL_ATTRS, &at->attrs) : NULL,
				  (mrapi_uint_t)size, &st);
	o->live = st == MRAPI_SUCCESS;
	snprintf(extra, sizeof(extra), "addr=0x%llx len=%llu", (unsigned long long)(uintptr_t)o->buf,
		 (unsigned long long)size);
	return answer(a, st, extra);
}

static int do_get(struct agent *a)
{
	struct aobj *o = new_obj(a, AO_MRAPI_RMEM);
	union mobj *m;
	mrapi_status_t st = MRAPI_SUCCESS, sst = MRAPI_SUCCESS;
	mrapi_uint_t size = 0;
	char extra[64];

	if (!o)
		return 0;
	m = o->ext;
	m->rmem = mrapi_rmem_get((mrapi_rmem_id_t)agent_num(a, "rid", 0), lib_atype(agent_num(a, "atype", 0)), &st);
	o->live = st == MRAPI_SUCCESS;
	if (o->live)
		mrapi_rmem_get_attribute(m->rmem, MRAPI_RMEM_SIZE, &size, sizeof(size), &sst);
	snprintf(extra, sizeof(extra), "len=%u", sst == MRAPI_SUCCESS ? size : 0);
	return answer(a, st, extra);
}

static int do_init_attributes(struct agent *a)
{
	struct aobj *o = new_obj(a, AO_MRAPI_ATTRS);
	mrapi_status_t st = MRAPI_SUCCESS;

	if (!o)
		return 0;
	mrapi_rmem_init_attributes(arg(a, M_MRAPI_NULL_ATTRS, &((union mobj *)o->ext)->attrs), &st);
	o->live = st == MRAPI_SUCCESS;
	return answer(a, st, NULL);
}

/* set_attribute and get_attribute: the value as the attribute's C type (any size asked for). */
static int do_attribute(struct agent *a)
{
	int set = proto_is(a->msg, "mrapi_rmem_set_attribute");
	union mobj *m = field(a, "id", set ? AO_MRAPI_ATTRS : AO_MRAPI_RMEM);
	uint64_t value = agent_num(a, "value", 0), size = agent_num(a, "size", 0);
	mrapi_uint_t num = (mrapi_uint_t)agent_num(a, "attr", 0);
	union { uint8_t b[16]; mrapi_boolean_t flag; mrapi_uint_t u; } v = { .b = { 0 } };
	mrapi_status_t st = MRAPI_SUCCESS;
	char extra[48];

	if (!m)
		return agent_reply_err(a, ENOENT, "no such object");
	if (size > sizeof(v))
		size = sizeof(v);
	if (!set) {
		mrapi_rmem_get_attribute(m->rmem, num, arg(a, M_MRAPI_NULL_VALUE, v.b), (size_t)size, &st);
		if (st == MRAPI_SUCCESS && num == MRAPI_RMEM_ATYPE && size == sizeof(v.u))
			v.u = model_atype(v.u);
		snprintf(extra, sizeof(extra), "value=%u", size == 1 ? (unsigned)v.flag : (unsigned)v.u);
		return answer(a, st, extra);
	}
	if (size == 1)
		v.flag = (mrapi_boolean_t)value;
	else
		v.u = (mrapi_uint_t)value;
	mrapi_rmem_set_attribute(arg(a, M_MRAPI_NULL_ATTRS, &m->attrs), num, arg(a, M_MRAPI_NULL_VALUE, v.b),
				 (size_t)size, &st);
	return answer(a, st, NULL);
}

/* attach, detach, delete, flush, sync (the library's mrapi_rmem_synch): one call on the rmem. */
static int do_rmem(struct agent *a)
{
	static const struct { const char *verb; void (*fn)(mrapi_rmem_hndl_t, mrapi_status_t *); } calls[] = {
		{ "mrapi_rmem_detach", mrapi_rmem_detach }, { "mrapi_rmem_delete", mrapi_rmem_delete },
		{ "mrapi_rmem_flush", mrapi_rmem_flush }, { "mrapi_rmem_sync", mrapi_rmem_synch },
	};
	union mobj *m = field(a, "id", AO_MRAPI_RMEM);
	mrapi_status_t st = MRAPI_SUCCESS;

	if (!m)
		return agent_reply_err(a, ENOENT, "no such rmem");
	if (proto_is(a->msg, "mrapi_rmem_attach")) {
		mrapi_rmem_attach(m->rmem, MRAPI_RMEM_DEFAULT, &st); /* the type is not looked at */
		return answer(a, st, NULL);
	}
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (proto_is(a->msg, calls[i].verb)) {
			calls[i].fn(m->rmem, &st);
			return answer(a, st, NULL);
		}
	return agent_reply_err(a, EINVAL, "unknown request");
}

/* read, write and their _i forms: the rmem (rmem=, or id), the local buffer (local=, a buffer of this node). */
static int do_rw(struct agent *a)
{
	int is_i = proto_is(a->msg, "mrapi_rmem_read_i") || proto_is(a->msg, "mrapi_rmem_write_i");
	int is_read = proto_is(a->msg, "mrapi_rmem_read") || proto_is(a->msg, "mrapi_rmem_read_i");
	union mobj *m = field(a, is_i ? "rmem" : "id", AO_MRAPI_RMEM);
	struct aobj *local = agent_field_obj(a, "local", AO_MRAPI_RMEM, 0), *q = NULL;
	uint32_t roff = (uint32_t)agent_num(a, "roff", 0), loff = (uint32_t)agent_num(a, "loff", 0);
	uint32_t lsize = (uint32_t)agent_num(a, "lsize", 0), bytes = (uint32_t)agent_num(a, "bytes", 0);
	uint32_t n = (uint32_t)agent_num(a, "n", 1), rs = (uint32_t)agent_num(a, "rstride", 0);
	uint32_t ls = (uint32_t)agent_num(a, "lstride", 0);
	mrapi_request_t *req = NULL;
	mrapi_status_t st = MRAPI_SUCCESS;
	void *buf;

	if (!m || !local || !local->buf)
		return agent_reply_err(a, ENOENT, "no such rmem or local buffer");
	if (is_i) {
		if (!(q = new_obj(a, AO_MRAPI_REQ)))
			return 0;
		req = arg(a, M_MRAPI_NULL_REQUEST, &((union mobj *)q->ext)->req);
	}
	buf = arg(a, M_MRAPI_NULL_LOCAL, local->buf);
	if (is_read && is_i)
		mrapi_rmem_read_i_sized(m->rmem, roff, buf, loff, lsize, bytes, n, rs, ls, req, &st);
	else if (is_read)
		mrapi_rmem_read_sized(m->rmem, roff, buf, loff, lsize, bytes, n, rs, ls, &st);
	else if (is_i)
		mrapi_rmem_write_i(m->rmem, roff, buf, loff, bytes, n, rs, ls, req, &st);
	else
		mrapi_rmem_write(m->rmem, roff, buf, loff, bytes, n, rs, ls, &st);
	if (q)
		q->live = st == MRAPI_SUCCESS;
	return answer(a, st, NULL);
}

/* test, wait (bounded by the step budget), cancel. */
static int do_req(struct agent *a)
{
	union mobj *m = field(a, "id", AO_MRAPI_REQ);
	uint64_t t = agent_num(a, "timeout", MRAPI_TIMEOUT_INFINITE);
	mrapi_status_t st = MRAPI_SUCCESS;
	size_t size = 0;

	if (!m)
		return agent_reply_err(a, ENOENT, "no such request");
	if (proto_is(a->msg, "mrapi_test"))
		mrapi_test(&m->req, &size, &st);
	else if (proto_is(a->msg, "mrapi_wait"))
		mrapi_wait(&m->req, &size, (mrapi_timeout_t)(t < (uint64_t)a->step_ms ? t : (uint64_t)a->step_ms), &st);
	else
		mrapi_cancel(&m->req, &st);
	return answer(a, st, NULL);
}

/* The creator's store through its own pointer (RMEM-COH-1). */
static int do_local_store(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_MRAPI_RMEM, 0);
	uint64_t off = agent_num(a, "off", 0), len = agent_num(a, "len", 0);

	if (!o || !o->buf || off > o->len || len > o->len - off)
		return agent_reply_err(a, EINVAL, "not this node's rmem buffer, or past its end");
	memset(o->buf + off, (int)agent_num(a, "byte", 0), len);
	return proto_send(a->fd, "ok");
}

const struct agent_req agent_mrapi_reqs[] = {
	{ "mrapi_initialize", do_initialize }, { "mrapi_finalize", do_finalize }, { "mrapi_addr", do_addr },
	{ "mrapi_rmem_create", do_create }, { "mrapi_rmem_get", do_get },
	{ "mrapi_rmem_init_attributes", do_init_attributes }, { "mrapi_rmem_set_attribute", do_attribute },
	{ "mrapi_rmem_get_attribute", do_attribute }, { "mrapi_rmem_attach", do_rmem },
	{ "mrapi_rmem_detach", do_rmem }, { "mrapi_rmem_delete", do_rmem }, { "mrapi_rmem_flush", do_rmem },
	{ "mrapi_rmem_sync", do_rmem }, { "mrapi_rmem_read", do_rw }, { "mrapi_rmem_read_i", do_rw },
	{ "mrapi_rmem_write", do_rw }, { "mrapi_rmem_write_i", do_rw }, { "mrapi_test", do_req },
	{ "mrapi_wait", do_req }, { "mrapi_cancel", do_req }, { "mrapi_local_store", do_local_store },
	{ NULL, NULL },
};

void agent_mrapi_end(struct agent *a)
{
	struct mrapi_state *s = a->state[M_FAM_MRAPI];
	mrapi_status_t st;

	if (s && s->init)
		mrapi_finalize(&st);
	if (s && s->keyfile[0]) {
		unlink(s->keyfile);
		unsetenv("MRAPI_RDMA_KEYS");
	}
	free(s);
	a->state[M_FAM_MRAPI] = NULL;
}

/*
 * agent_rpma.c — the agent's librpma requests (protocol in agent.h).
 *
 * One librpma peer per node, on the rxe device that carries the node's IPv4
 * address (rpma_utils_get_ibv_context), made at the node's first librpma
 * request; an endpoint listening on that address (rpma_listen). Objects are
 * the scenario's: a librpma MR keeps its rpma_mr_local pointer in ext (NULL
 * after rpma_mr_dereg, which NULLs it, so later calls pass NULL as a program
 * would) over an agent_buffer buffer, so fill/read and the memory comparison
 * work as for verbs MRs; a remote MR keeps its rpma_mr_remote; a connection
 * (both halves, client and server, under the client's object id) its
 * rpma_conn and CQ. Every wait is bounded by the step budget and waits on a
 * librpma file descriptor (the endpoint's, the connection's event channel,
 * the CQ's completion channel). librpma's log goes nowhere but the last line,
 * kept for error messages. Everything is released when the agent ends.
 */
#include "harness/agent/agent_internal.h"
#include "harness/api/rpma/api_rpma.h"
#include "model/model.h"

#include <librpma.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RPMA_PORT "7471"        /* every node listens on its own address */
#define DESC_BYTES_MAX 4096     /* a descriptor size a scenario may pass */
#define F_ON_SUCCESS 2          /* RPMA_F_COMPLETION_ALWAYS & ~RPMA_F_COMPLETION_ON_ERROR */
#define DESC_MAX 32             /* room for a librpma MR descriptor (21 bytes in 1.2.0) */

struct rstate {
	struct ibv_context *ctx; /* librdmacm's, not ours to close */
	struct rpma_peer *peer;
	struct rpma_ep *ep;
	struct rpma_peer_cfg *pcfg;
};

struct rconn {
	struct rpma_conn *conn;
	struct rpma_cq *cq;
	int cq_fd;
};

/* The last message librpma logged (its log function has no context argument). */
static char last_log[200];

static void keep_log(enum rpma_log_level level, const char *file, const int line, const char *func,
		     const char *fmt, ...)
{
	va_list ap;

	(void)level;
	(void)file;
	(void)line;
	(void)func;
	va_start(ap, fmt);
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
	va_end(ap);
}

/* Answer a librpma call's failure rc as its outcome. */
static int reply_rpma(struct agent *a, int rc)
{
	return proto_send(a->fd, "ok outcome=%s", m_outcome_name((struct m_outcome){ M_OUT_RPMA, rc }));
}

/* The node's librpma state, made at first use; NULL after an err answer. */
static struct rstate *state(struct agent *a)
{
	struct rstate *s = a->state[M_FAM_RPMA];
	int rc;

	if (s)
		return s;
	rpma_log_set_function(keep_log);
	s = calloc(1, sizeof(*s));
	if (!s) {
		agent_reply_err(a, ENOMEM, "out of memory");
		return NULL;
	}
	rc = rpma_utils_get_ibv_context(a->node->ipv4, RPMA_UTIL_IBV_CONTEXT_LOCAL, &s->ctx);
	if (!rc)
		rc = rpma_peer_new(s->ctx, &s->peer);
	if (rc) {
		agent_reply_err(a, EIO, "librpma peer on %s (%s): %s: %s", a->node->ibdev, a->node->ipv4, rpma_err_2str(rc),
			  last_log);
		free(s);
		return NULL;
	}
	agent_rpma_source(a->node->ipv4);
	a->state[M_FAM_RPMA] = s;
	return s;
}

/* ---------------------------------------------------- memory regions -- */

static void release_mr(struct agent *a, struct aobj *o)
{
	(void)a;
	rpma_mr_dereg((struct rpma_mr_local **)&o->ext);
	o->live = o->ext != NULL; /* deregistered: not held (agent.h: reset counts what is live) */
}

static void release_remote(struct agent *a, struct aobj *o)
{
	(void)a;
	rpma_mr_remote_delete((struct rpma_mr_remote **)&o->ext);
	o->live = o->ext != NULL;
}

/* rpma_reg id len usage offset prot nulls [buf] */
static int do_reg(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *src = NULL;
	struct rstate *s = state(a);
	uint64_t len = agent_num(a, "len", 0), bufid;
	unsigned nulls = (unsigned)agent_num(a, "nulls", 0);
	struct rpma_mr_local *mr = NULL;
	uint8_t desc[DESC_MAX];
	char hex[2 * DESC_MAX + 1];
	size_t dsize = 0;
	uint32_t rkey;
	int rc;

	if (!s)
		return 0;
	if (!o)
		return agent_reply_err(a, EINVAL, "bad rpma_reg request");
	if (proto_get_u64(a->msg, "buf", &bufid) == 0 &&
	    (!(src = agent_field_obj(a, "buf", AO_RPMA_MR, 0)) || !src->buf || len > src->len))
		return agent_reply_err(a, EINVAL, "bad rpma_reg buf");
	*o = (struct aobj){ .kind = AO_RPMA_MR, .mem = o->mem, .buf = o->buf, .release = release_mr };
	if (src) {
		/* The same buffer again: one memory, one more reference to it. */
		agent_buffer_share(o, src, len);
	} else if ((rc = agent_buffer(o, len, agent_num(a, "offset", 0), (int)agent_num(a, "prot", 0))) != 0) {
		return agent_reply_err(a, -rc, "cannot make the buffer: %s", strerror(-rc));
	}
	rc = rpma_mr_reg((nulls & 1) ? NULL : s->peer, (nulls & 2) ? NULL : o->buf, len, (int)agent_num(a, "usage", 0),
			 (nulls & 4) ? NULL : &mr);
	if (rc)
		return reply_rpma(a, rc);
	o->ext = mr;
	o->live = 1;
	rc = rpma_mr_get_descriptor_size(mr, &dsize);
	if (!rc && (dsize < 21 || dsize > DESC_MAX))
		rc = RPMA_E_UNKNOWN;
	if (!rc)
		rc = rpma_mr_get_descriptor(mr, desc);
	if (rc)
		return agent_reply_err(a, EIO, "rpma_mr_get_descriptor: %s", rpma_err_2str(rc));
	memcpy(&rkey, desc + 16, 4); /* little-endian, as on this host */
	proto_hex_encode(desc, dsize, hex);
	return proto_send(a->fd, "ok addr=0x%llx len=%llu rkey=%u desc=%s", (unsigned long long)(uintptr_t)o->buf,
			  (unsigned long long)len, rkey, hex);
}

/* The librpma MR of the request's key (NULL handle: not registered now). */
static struct rpma_mr_local *mr_of(struct agent *a, const char *key)
{
	struct aobj *o = agent_field_obj(a, key, AO_RPMA_MR, 0);

	return o ? o->ext : NULL;
}

/* rpma_dereg id nulls: nulls bit 0 mr_ptr NULL, bit 1 *mr_ptr NULL. */
static int do_dereg(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMA_MR, 0);
	unsigned nulls = (unsigned)agent_num(a, "nulls", 0);
	struct rpma_mr_local *none = NULL;
	int rc;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad rpma_dereg request");
	rc = rpma_mr_dereg((nulls & 1) ? NULL : (nulls & 2) ? &none : (struct rpma_mr_local **)&o->ext);
	if (!o->ext)
		o->live = 0;
	return rc ? reply_rpma(a, rc) : proto_send(a->fd, "ok");
}

/* rpma_desc id nulls (mr, desc) | rpma_desc_size id nulls (mr, desc_size) */
static int do_desc(struct agent *a)
{
	unsigned nulls = (unsigned)agent_num(a, "nulls", 0);
	struct rpma_mr_local *mr = (nulls & 1) ? NULL : mr_of(a, "id");
	uint8_t desc[DESC_MAX];
	char hex[2 * DESC_MAX + 1];
	size_t size = 0;
	int rc;

	if (proto_is(a->msg, "rpma_desc_size")) {
		rc = rpma_mr_get_descriptor_size(mr, (nulls & 2) ? NULL : &size);
		return rc ? reply_rpma(a, rc) : proto_send(a->fd, "ok size=%zu", size);
	}
	rc = rpma_mr_get_descriptor_size(mr, &size);
	if (!rc && size > DESC_MAX)
		return agent_reply_err(a, EOVERFLOW, "a descriptor of %zu bytes", size);
	rc = rpma_mr_get_descriptor(mr, (nulls & 2) ? NULL : desc);
	if (rc)
		return reply_rpma(a, rc);
	proto_hex_encode(desc, size, hex);
	return proto_send(a->fd, "ok desc=%s", hex);
}

/* rpma_remote id size nulls [hex]: the bytes, zero-padded to size. */
static int do_remote(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);
	unsigned nulls = (unsigned)agent_num(a, "nulls", 0);
	uint64_t size = agent_num(a, "size", 0);
	uint8_t *buf = NULL;
	char hex[2 * DESC_MAX + 1] = "";
	struct rpma_mr_remote *r = NULL;
	int n = 0, rc;

	if (proto_get(a->msg, "hex", hex, sizeof(hex)) == 0)
		n = (int)(strlen(hex) / 2);
	if (!o || size > DESC_BYTES_MAX)
		return agent_reply_err(a, EINVAL, "bad rpma_remote request");
	buf = calloc(1, size > (uint64_t)n ? size : (uint64_t)n + 1);
	if (!buf)
		return agent_reply_err(a, ENOMEM, "out of memory");
	if (proto_hex_decode(hex, buf, (size_t)n) != n) {
		free(buf);
		return agent_reply_err(a, EINVAL, "bad rpma_remote bytes");
	}
	*o = (struct aobj){ .kind = AO_RPMA_REMOTE, .release = release_remote };
	rc = rpma_mr_remote_from_descriptor((nulls & 1) ? NULL : buf, size, (nulls & 2) ? NULL : &r);
	free(buf);
	if (rc)
		return reply_rpma(a, rc);
	o->ext = r;
	o->live = 1;
	return proto_send(a->fd, "ok");
}

/* rpma_remote_size id nulls (mr, size) | rpma_remote_flush_type id nulls (mr, flush_type) */
static int do_remote_query(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMA_REMOTE, 0);
	unsigned nulls = (unsigned)agent_num(a, "nulls", 0);
	struct rpma_mr_remote *r = (nulls & 1) || !o ? NULL : o->ext;
	size_t size = 0;
	int ft = 0, rc;

	if (proto_is(a->msg, "rpma_remote_size")) {
		rc = rpma_mr_remote_get_size(r, (nulls & 2) ? NULL : &size);
		return rc ? reply_rpma(a, rc) : proto_send(a->fd, "ok size=%zu", size);
	}
	rc = rpma_mr_remote_get_flush_type(r, (nulls & 2) ? NULL : &ft);
	return rc ? reply_rpma(a, rc) : proto_send(a->fd, "ok flush_type=%d", ft);
}

/* -------------------------------------------------------- connections -- */

static void release_conn(struct agent *a, struct aobj *o)
{
	struct rconn *c = o->ext;

	(void)a;
	if (c) {
		rpma_conn_delete(&c->conn);
		free(c);
	}
	o->ext = NULL;
	o->live = 0;
}

/* The next event of a connection within ms (-ETIMEDOUT if none). */
static int next_event(struct rpma_conn *conn, int64_t ms, enum rpma_conn_event *ev)
{
	struct pollfd p = { .events = POLLIN };
	int rc = rpma_conn_get_event_fd(conn, &p.fd);

	if (rc)
		return rc;
	rc = poll(&p, 1, ms < 0 ? 0 : (int)ms);
	if (rc == 0)
		return -ETIMEDOUT;
	if (rc < 0)
		return -errno;
	return rpma_conn_next_event(conn, ev);
}

/* Wait (the step budget) for ESTABLISHED on a fresh connection and make it o's. */
static int established(struct agent *a, struct aobj *o, struct rpma_conn **conn, int64_t deadline)
{
	enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
	struct rconn *c;
	int rc = next_event(*conn, deadline - proto_now_ms(), &ev);

	if (rc || ev != RPMA_CONN_ESTABLISHED) {
		rpma_conn_delete(conn);
		return agent_reply_err(a, rc == -ETIMEDOUT ? ETIMEDOUT : EIO, "not established: %s (%s) %s",
				 rc == -ETIMEDOUT ? "timeout" : rc ? rpma_err_2str(rc) : "event",
				 rpma_utils_conn_event_2str(ev), last_log);
	}
	c = calloc(1, sizeof(*c));
	if (!c || rpma_conn_get_cq(*conn, &c->cq) || rpma_cq_get_fd(c->cq, &c->cq_fd)) {
		free(c);
		rpma_conn_delete(conn);
		return agent_reply_err(a, EIO, "no completion queue");
	}
	c->conn = *conn;
	*o = (struct aobj){ .kind = AO_RPMA_CONN, .live = 1, .ext = c, .release = release_conn };
	return proto_send(a->fd, "ok");
}

/* rpma_listen: the endpoint on the node's address (once). */
static int do_listen(struct agent *a)
{
	struct rstate *s = state(a);
	int rc;

	if (!s)
		return 0;
	if (!s->ep && (rc = rpma_ep_listen(s->peer, a->node->ipv4, RPMA_PORT, &s->ep)) != 0)
		return agent_reply_err(a, EIO, "rpma_ep_listen(%s:%s): %s %s", a->node->ipv4, RPMA_PORT,
				 rpma_err_2str(rc), last_log);
	return proto_send(a->fd, "ok ip=%s port=%s", a->node->ipv4, RPMA_PORT);
}

/* rpma_peer_cfg: this node's peer cfg (direct write to pmem) as a descriptor. */
static int do_peer_cfg(struct agent *a)
{
	struct rstate *s = state(a);
	uint8_t d[DESC_MAX];
	char hex[2 * DESC_MAX + 1];
	size_t n = 0;
	int rc = 0;

	if (!s)
		return 0;
	if (!s->pcfg && ((rc = rpma_peer_cfg_new(&s->pcfg)) != 0 ||
			 (rc = rpma_peer_cfg_set_direct_write_to_pmem(s->pcfg, true)) != 0))
		return agent_reply_err(a, EIO, "rpma_peer_cfg: %s", rpma_err_2str(rc));
	if ((rc = rpma_peer_cfg_get_descriptor_size(s->pcfg, &n)) != 0 || n > DESC_MAX ||
	    (rc = rpma_peer_cfg_get_descriptor(s->pcfg, d)) != 0)
		return agent_reply_err(a, EIO, "rpma_peer_cfg_get_descriptor: %s", rpma_err_2str(rc));
	proto_hex_encode(d, n, hex);
	return proto_send(a->fd, "ok desc=%s", hex);
}

/* rpma_accept id: the server half of a connection. */
static int do_accept(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);
	struct rstate *s = state(a);
	int64_t deadline = proto_now_ms() + a->step_ms;
	struct rpma_conn_req *req = NULL;
	struct rpma_conn *conn = NULL;
	struct pollfd p = { .events = POLLIN };
	int rc;

	if (!s)
		return 0;
	if (!o || !s->ep)
		return agent_reply_err(a, EINVAL, "bad rpma_accept request (listening: %d)", s->ep != NULL);
	if ((rc = rpma_ep_get_fd(s->ep, &p.fd)) != 0)
		return agent_reply_err(a, EIO, "rpma_ep_get_fd: %s", rpma_err_2str(rc));
	for (;;) {
		rc = poll(&p, 1, (int)(deadline - proto_now_ms() > 0 ? deadline - proto_now_ms() : 0));
		if (rc <= 0)
			return agent_reply_err(a, ETIMEDOUT, "no connection request within %d ms", a->step_ms);
		/* A request its client already gave up fails here (rdma_create_qp_ex:
		 * EINVAL) and is consumed: wait for the next. */
		rc = rpma_ep_next_conn_req(s->ep, NULL, &req);
		if (rc != RPMA_E_PROVIDER)
			break;
	}
	if (rc || (rc = rpma_conn_req_connect(&req, NULL, &conn)) != 0)
		return agent_reply_err(a, EIO, "accepting: %s %s", rpma_err_2str(rc), last_log);
	return established(a, o, &conn, deadline);
}

/* rpma_connect id ip port [pcfg]: the client half; pcfg is the server's peer cfg to apply. */
static int do_connect(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);
	struct rstate *s = state(a);
	int64_t deadline = proto_now_ms() + a->step_ms;
	char ip[64], port[16], hex[2 * DESC_MAX + 1];
	struct rpma_conn_cfg *cfg = NULL;
	struct rpma_conn_req *req = NULL;
	struct rpma_conn *conn = NULL;
	int rc;

	if (!s)
		return 0;
	if (!o || proto_get(a->msg, "ip", ip, sizeof(ip)) || proto_get(a->msg, "port", port, sizeof(port)))
		return agent_reply_err(a, EINVAL, "bad rpma_connect request");
	/* The cfg's timeout bounds address and route resolution. */
	rc = rpma_conn_cfg_new(&cfg);
	if (!rc)
		rc = rpma_conn_cfg_set_timeout(cfg, a->step_ms / 4 > 0 ? a->step_ms / 4 : 1);
	if (!rc)
		rc = rpma_conn_req_new(s->peer, ip, port, cfg, &req);
	rpma_conn_cfg_delete(&cfg);
	if (rc || (rc = rpma_conn_req_connect(&req, NULL, &conn)) != 0)
		return agent_reply_err(a, EIO, "connecting to %s:%s: %s %s", ip, port, rpma_err_2str(rc), last_log);
	if (proto_get(a->msg, "pcfg", hex, sizeof(hex)) == 0) {
		uint8_t d[DESC_MAX];
		struct rpma_peer_cfg *pc = NULL;
		int n = proto_hex_decode(hex, d, sizeof(d));

		rc = n < 0 ? RPMA_E_INVAL : rpma_peer_cfg_from_descriptor(d, (size_t)n, &pc);
		if (!rc)
			rc = rpma_conn_apply_remote_peer_cfg(conn, pc);
		rpma_peer_cfg_delete(&pc);
		if (rc) {
			rpma_conn_delete(&conn);
			return agent_reply_err(a, EIO, "applying the peer cfg: %s", rpma_err_2str(rc));
		}
	}
	return established(a, o, &conn, deadline);
}

/* The connection of the request's id, NULL when disconnected (or never made). */
static struct rconn *conn_of(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMA_CONN, 0);

	return o ? o->ext : NULL;
}

/* rpma_disconnect id nulls: the client: disconnect, wait until closed, delete. */
static int do_disconnect(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMA_CONN, 0);
	struct rconn *c = conn_of(a);
	enum rpma_conn_event ev;
	int rc = rpma_conn_disconnect((agent_num(a, "nulls", 0) & 1) || !c ? NULL : c->conn);

	if (rc)
		return reply_rpma(a, rc);
	next_event(c->conn, a->step_ms, &ev); /* RPMA_CONN_CLOSED when the server answers */
	release_conn(a, o);
	return proto_send(a->fd, "ok");
}

/* rpma_close id: the server half: wait until the client disconnects, then go. */
static int do_close(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMA_CONN, 1);
	struct rconn *c = o ? o->ext : NULL;
	enum rpma_conn_event ev;

	if (c) {
		next_event(c->conn, a->step_ms, &ev);
		rpma_conn_disconnect(c->conn);
		release_conn(a, o);
	}
	return proto_send(a->fd, "ok");
}

/* ---------------------------------------------------------------- I/O -- */

/* The completion of one of two work requests (wr_id w1 or w2), bounded. */
static int wait_wc(struct rconn *c, uint64_t w1, uint64_t w2, int64_t deadline, struct ibv_wc *wc)
{
	for (;;) {
		struct pollfd p = { .fd = c->cq_fd, .events = POLLIN };
		int n = 0, rc = rpma_cq_get_wc(c->cq, 1, wc, &n);

		if (rc == 0 && n == 1) {
			if (wc->wr_id == w1 || wc->wr_id == w2)
				return 0;
			continue; /* a completion of an earlier request that timed out */
		}
		if (rc && rc != RPMA_E_NO_COMPLETION)
			return -EIO;
		rc = poll(&p, 1, (int)(deadline - proto_now_ms() > 0 ? deadline - proto_now_ms() : 0));
		if (rc == 0)
			return -ETIMEDOUT;
		if (rc < 0)
			return -errno;
		rc = rpma_cq_wait(c->cq); /* consume the event, re-arm */
		if (rc && rc != RPMA_E_NO_COMPLETION)
			return -EIO;
	}
}

/*
 * rpma_io id op=read|write|atomic_write|flush [local] loff [remote] roff len
 * flags type value nulls: nulls bit 0 conn, bit 1 dst, bit 2 src (the call's
 * order). A signaled request answers its completion's status. An unsignaled
 * one (COMPLETION_ON_ERROR) is followed by librpma's 0-byte read, signaled:
 * if that completes first, the request succeeded without a completion (ok);
 * if the request's error completion comes, that is the answer.
 */
static int do_io(struct agent *a)
{
	struct rconn *c = conn_of(a);
	unsigned nulls = (unsigned)agent_num(a, "nulls", 0);
	struct rpma_conn *conn = (nulls & 1) || !c ? NULL : c->conn;
	struct rpma_mr_local *l = mr_of(a, "local");
	struct aobj *ro = agent_field_obj(a, "remote", AO_RPMA_REMOTE, 0);
	struct rpma_mr_remote *r = ro ? ro->ext : NULL;
	uint64_t loff = agent_num(a, "loff", 0), roff = agent_num(a, "roff", 0), len = agent_num(a, "len", 0), v = agent_num(a, "value", 0);
	int flags = (int)agent_num(a, "flags", 0), rc;
	uint64_t wr = ++a->next_wr, fence = wr; /* fence == wr: none posted */
	int64_t deadline = proto_now_ms() + a->step_ms;
	char src[8], op[16];
	struct ibv_wc wc;

	if (proto_get(a->msg, "op", op, sizeof(op)))
		op[0] = '\0';
	if (strcmp(op, "read") == 0)
		rc = rpma_read(conn, (nulls & 2) ? NULL : l, loff, (nulls & 4) ? NULL : r, roff, len, flags,
			       (void *)(uintptr_t)wr);
	else if (strcmp(op, "write") == 0)
		rc = rpma_write(conn, (nulls & 2) ? NULL : r, roff, (nulls & 4) ? NULL : l, loff, len, flags,
				(void *)(uintptr_t)wr);
	else if (strcmp(op, "atomic_write") == 0) {
		for (int i = 0; i < 8; i++, v >>= 8)
			src[i] = (char)(uint8_t)v;
		rc = rpma_atomic_write(conn, (nulls & 2) ? NULL : r, roff, (nulls & 4) ? NULL : src, flags,
				       (void *)(uintptr_t)wr);
	} else if (strcmp(op, "flush") == 0)
		rc = rpma_flush(conn, (nulls & 2) ? NULL : r, roff, len, (enum rpma_flush_type)agent_num(a, "type", 0),
				flags, (void *)(uintptr_t)wr);
	else
		return agent_reply_err(a, EINVAL, "bad rpma_io request");
	if (rc)
		return reply_rpma(a, rc);
	if (!(flags & F_ON_SUCCESS) &&
	    rpma_read(conn, NULL, 0, NULL, 0, 0, RPMA_F_COMPLETION_ALWAYS, (void *)(uintptr_t)(wr + 1)) == 0)
		fence = ++a->next_wr; /* else: only an error completion of the request can come */
	rc = wait_wc(c, wr, fence, deadline, &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion within %d ms", ETIMEDOUT,
				  a->step_ms);
	if (rc)
		return agent_reply_err(a, -rc, "rpma_cq_get_wc failed");
	if (fence != wr && wc.wr_id == fence)
		return proto_send(a->fd, "ok"); /* the request succeeded silently */
	if (fence != wr) {
		struct ibv_wc fw;

		wait_wc(c, fence, fence, deadline, &fw); /* the fence, flushed after the error */
	}
	return proto_send(a->fd, "ok status=%s vendor_err=%u", agent_wc_status_str(wc.status), wc.vendor_err);
}

const struct agent_req agent_rpma_reqs[] = {
	{ "rpma_reg", do_reg },
	{ "rpma_dereg", do_dereg },
	{ "rpma_desc", do_desc },
	{ "rpma_desc_size", do_desc },
	{ "rpma_remote", do_remote },
	{ "rpma_remote_size", do_remote_query },
	{ "rpma_remote_flush_type", do_remote_query },
	{ "rpma_listen", do_listen },
	{ "rpma_peer_cfg", do_peer_cfg },
	{ "rpma_accept", do_accept },
	{ "rpma_connect", do_connect },
	{ "rpma_disconnect", do_disconnect },
	{ "rpma_close", do_close },
	{ "rpma_io", do_io },
	{ NULL, NULL },
};

void agent_rpma_end(struct agent *a)
{
	struct rstate *s = a->state[M_FAM_RPMA];

	if (!s)
		return;
	rpma_peer_cfg_delete(&s->pcfg);
	rpma_ep_shutdown(&s->ep);
	rpma_peer_delete(&s->peer);
	free(s);
	a->state[M_FAM_RPMA] = NULL;
	last_log[0] = '\0'; /* no message of this scenario's in a later one's error */
}

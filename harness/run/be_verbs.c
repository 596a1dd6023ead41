/* be_verbs.c — the real verbs stack through node agents (be_verbs.h). */
#include "harness/run/be_verbs.h"
#include "harness/agent/agent.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HELLO_MS 15000 /* opening the device can be slow under TCG */

static int vsend(struct be_verbs *bv, unsigned node, char *req, const char *fmt, va_list ap)
{
	int rc;

	vsnprintf(req, PROTO_LINE_MAX, fmt, ap);
	if (node >= bv->n || bv->ag[node].fd < 0)
		return -EPIPE;
	rc = proto_send(bv->ag[node].fd, "%s", req);
	if (rc) {
		snprintf(bv->err, sizeof(bv->err), "agent of node %s: cannot send: %s", bv->f->nodes[node],
			 strerror(-rc));
		return -EPIPE;
	}
	return 0;
}

int bv_send(struct be_verbs *bv, unsigned node, const char *fmt, ...)
{
	char req[PROTO_LINE_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vsend(bv, node, req, fmt, ap);
	va_end(ap);
	return rc;
}

int bv_recv(struct be_verbs *bv, unsigned node, char *reply, int timeout_ms)
{
	int rc = proto_recv(bv->ag[node].fd, reply, PROTO_LINE_MAX, timeout_ms);

	if (rc == -ETIMEDOUT) {
		snprintf(bv->err, sizeof(bv->err), "agent of node %s did not answer within %d ms",
			 bv->f->nodes[node], timeout_ms);
		return -ETIMEDOUT;
	}
	if (rc < 0) {
		snprintf(bv->err, sizeof(bv->err), "agent of node %s died", bv->f->nodes[node]);
		return -EPIPE;
	}
	return 0;
}

int bv_call(struct be_verbs *bv, unsigned node, char *reply, const char *fmt, ...)
{
	char req[PROTO_LINE_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vsend(bv, node, req, fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	rc = bv_recv(bv, node, reply, bv->step_ms + BV_SLACK_MS);
	if (rc) {
		size_t l = strlen(bv->err);

		snprintf(bv->err + l, sizeof(bv->err) - l, " (request '%.60s')", req);
	}
	return rc;
}

int bv_outcome(struct be_verbs *bv, const char *reply, struct m_outcome *o)
{
	char st[48];
	uint64_t v;

	if (proto_is(reply, "ok")) {
		*o = (struct m_outcome){ M_OUT_OK, 0 };
		if (proto_get(reply, "outcome", st, sizeof(st)) == 0 && m_outcome_parse(st, o))
			return -EPROTO;
		if (proto_get(reply, "status", st, sizeof(st)) == 0) {
			enum m_wc_status s;

			if (m_wc_status_parse(st, &s))
				return -EPROTO;
			*o = (struct m_outcome){ M_OUT_WC, (int16_t)s };
		}
		return 0;
	}
	if (proto_is(reply, "err") && proto_get_u64(reply, "errno", &v) == 0 && v < 4096) {
		if (proto_get_u64(reply, "timeout", &v) == 0) {
			snprintf(bv->err, sizeof(bv->err), "no completion within the step timeout (%d ms)",
				 bv->step_ms);
			return -ETIMEDOUT;
		}
		proto_get_u64(reply, "errno", &v);
		*o = (struct m_outcome){ M_OUT_ERRNO, (int16_t)v };
		return 0;
	}
	snprintf(bv->err, sizeof(bv->err), "malformed agent answer '%.80s'", reply);
	return -EPROTO;
}

uint64_t bv_field(const char *reply, const char *key)
{
	uint64_t v = 0;

	proto_get_u64(reply, key, &v);
	return v;
}

int bv_query_reply(struct be_verbs *bv, const struct scn_call *call, const char *reply, struct hres *r)
{
	for (int i = 0; call->query && call->query[i].key; i++) {
		const struct scn_arg_spec *sp = &call->query[i];
		char v[64], *end;

		if (proto_get(reply, sp->key, v, sizeof(v)))
			continue;
		if ((sp->kinds & SCN_V_WORD) && scn_table_lookup((enum scn_table)sp->table, v, &r->q[i]) == 0) {
			r->qset |= 1u << i;
			continue;
		}
		r->q[i] = strtoull(v, &end, 0);
		if (*end || v[0] == '-') {
			snprintf(bv->err, sizeof(bv->err), "%s: bad %s=%s in the answer", call->name, sp->key, v);
			return -EPROTO;
		}
		r->qset |= 1u << i;
	}
	return 0;
}

static int verbs_connect(struct be_verbs *bv, const struct hcall *c, char *reply, struct hres *r)
{
	static const char *const keys[HC_COUNT_] = { "mtu", "timeout", "retry_cnt", "rnr_retry",
						     "min_rnr_timer", "max_rd_atomic", "max_dest_rd_atomic" };
	char opts[256] = "";
	size_t off = 0;
	const struct bv_obj *qa = &bv->o[c->obj], *qb = &bv->o[c->peer];
	int rc;

	if (!qa->made || !qb->made)
		return -ENOENT;
	for (int i = 0; i < HC_COUNT_; i++)
		if (c->conn_set & (1u << i))
			off += (size_t)snprintf(opts + off, sizeof(opts) - off, " %s=%u", keys[i], c->conn[i]);
	rc = bv_call(bv, c->node, reply, "connect id=%d rqpn=%u rgid=%s%s", c->obj, qb->v.qpn,
		  bv->ag[c->peer_node].gid, opts);
	if (rc || (rc = bv_outcome(bv, reply, &r->out)) || r->out.kind != M_OUT_OK)
		return rc;
	rc = bv_call(bv, c->peer_node, reply, "connect id=%d rqpn=%u rgid=%s%s", c->peer, qa->v.qpn,
		  bv->ag[c->node].gid, opts);
	return rc ? rc : bv_outcome(bv, reply, &r->out);
}

static int verbs_exec(void *be, const struct hcall *c, struct hres *r)
{
	static const char *const post_op[M_OP_COUNT_] = {
		[M_OP_WRITE] = "write", [M_OP_READ] = "read", [M_OP_CAS] = "cas", [M_OP_FADD] = "fadd",
		[M_OP_SEND] = "send",
	};
	struct be_verbs *bv = be;
	char reply[PROTO_LINE_MAX];
	struct bv_obj *o = c->obj >= 0 ? &bv->o[c->obj] : NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	switch ((enum m_op_kind)c->op) {
	case M_OP_ALLOC_PD:
		rc = bv_call(bv, c->node, reply, "alloc_pd id=%d", c->obj);
		break;
	case M_OP_DEALLOC_PD:
		rc = bv_call(bv, c->node, reply, "dealloc_pd id=%d", c->obj);
		break;
	case M_OP_REG_MR: {
		char iova[40] = "";

		if (c->has_iova)
			snprintf(iova, sizeof(iova), " iova=0x%llx", (unsigned long long)c->iova);
		rc = bv_call(bv, c->node, reply, "reg_mr id=%d pd=%d len=%llu access=%u offset=%llu prot=%u%s", c->obj,
			  c->pd, (unsigned long long)c->len, c->access, (unsigned long long)c->offset, c->prot, iova);
		break;
	}
	case M_OP_DEREG_MR:
		rc = bv_call(bv, c->node, reply, "dereg_mr id=%d", c->obj);
		break;
	case M_OP_REREG_MR:
		rc = bv_call(bv, c->node, reply, "rereg_mr id=%d flags=%u access=%u pd=%d len=%llu", c->obj,
			  c->flags, c->access, c->pd, (unsigned long long)c->len);
		break;
	case M_OP_ALLOC_MW:
		rc = bv_call(bv, c->node, reply, "alloc_mw id=%d pd=%d type=%u", c->obj, c->pd, c->type);
		break;
	case M_OP_BIND_MW:
		rc = bv_call(bv, c->node, reply,
			     "bind_mw id=%d qp=%d mr=%d addr=0x%llx len=%llu access=%u zero_based=%u call=%u", c->obj,
			     c->qp, c->mr, (unsigned long long)c->offset, (unsigned long long)c->len, c->access,
			     c->zero_based, c->type == 1);
		break;
	case M_OP_DEALLOC_MW:
		rc = bv_call(bv, c->node, reply, "dealloc_mw id=%d", c->obj);
		break;
	case M_OP_CREATE_QP:
		rc = bv_call(bv, c->node, reply, "create_qp id=%d pd=%d access=%u max_recv_wr=%llu", c->obj, c->pd,
			     c->access, (unsigned long long)c->len);
		break;
	case M_OP_CONNECT:
		return verbs_connect(bv, c, reply, r);
	case M_OP_MODIFY_QP:
		rc = bv_call(bv, c->node, reply, "modify_qp id=%d state=%s", c->obj,
			  m_qp_state_str((enum m_qp_state)c->type));
		break;
	case M_OP_DESTROY_QP:
		rc = bv_call(bv, c->node, reply, "destroy_qp id=%d", c->obj);
		break;
	case M_OP_WRITE: case M_OP_READ: case M_OP_CAS: case M_OP_FADD: case M_OP_SEND: {
		char inv[32] = "";

		if (c->with_inv)
			snprintf(inv, sizeof(inv), " inv=%u", c->inv_rkey);
		rc = bv_call(bv, c->node, reply,
			  "post id=%d op=%s laddr=0x%llx lkey=%u len=%llu raddr=0x%llx rkey=%u compare=%llu swap=%llu%s",
			  c->obj, post_op[c->op], (unsigned long long)c->laddr, c->lkey, (unsigned long long)c->len,
			  (unsigned long long)c->raddr, c->rkey, (unsigned long long)c->compare,
			  (unsigned long long)c->swap, inv);
		break;
	}
	case M_OP_RECV:
		rc = bv_call(bv, c->node, reply, "recv id=%d laddr=0x%llx lkey=%u len=%llu", c->obj,
			  (unsigned long long)c->laddr, c->lkey, (unsigned long long)c->len);
		break;
	case M_OP_LOCAL_INV:
		rc = bv_call(bv, c->node, reply, "post id=%d op=local_inv inv=%u", c->obj, c->inv_rkey);
		break;
	case M_OP_QUERY_QP:
		rc = bv_call(bv, c->node, reply, "query_qp id=%d", c->obj);
		break;
	case M_OP_FILL:
		rc = bv_call(bv, c->node, reply, "fill id=%d byte=%u off=%llu len=%llu", c->obj, c->byte,
			  (unsigned long long)c->offset, (unsigned long long)c->len);
		break;
	default:
		if (M_OP_IS_RPMA(c->op))
			return bv_exec_rpma(bv, c, r);
		if (M_OP_IS_DAT(c->op))
			return bv_exec_dat(bv, c, r);
		return -EINVAL;
	}
	if (rc || (rc = bv_outcome(bv, reply, &r->out)))
		return rc;
	if (!proto_is(reply, "ok"))
		return 0;
	switch ((enum m_op_kind)c->op) {
	case M_OP_ALLOC_PD:
		o->made = 1;
		break;
	case M_OP_REG_MR:
		*o = (struct bv_obj){ .made = 1, .v = { .addr = bv_field(reply, "addr"),
						       .iova = bv_field(reply, "iova"), .len = c->len,
						       .lkey = (uint32_t)bv_field(reply, "lkey"),
						       .rkey = (uint32_t)bv_field(reply, "rkey") } };
		break;
	case M_OP_REREG_MR:
		o->v.lkey = (uint32_t)bv_field(reply, "lkey");
		o->v.rkey = (uint32_t)bv_field(reply, "rkey");
		break;
	case M_OP_ALLOC_MW:
		*o = (struct bv_obj){ .made = 1, .v = { .rkey = (uint32_t)bv_field(reply, "rkey") } };
		break;
	case M_OP_BIND_MW:
		o->v.rkey = (uint32_t)bv_field(reply, "rkey");
		if (r->out.kind == M_OUT_WC && r->out.code == M_WC_SUCCESS) {
			o->v.start = c->offset;
			o->v.len = c->len;
			o->v.zero_based = c->zero_based;
		}
		break;
	case M_OP_CREATE_QP:
		*o = (struct bv_obj){ .made = 1, .v = { .qpn = (uint32_t)bv_field(reply, "qpn") } };
		break;
	default:
		break;
	}
	if (scn_call_get(c->call)->kind == SCN_KIND_QUERY)
		return bv_query_reply(bv, scn_call_get(c->call), reply, r);
	return 0;
}

/* The view of object obj the agents reported, or NULL if it was never made. */
static const struct hview *view(struct be_verbs *bv, int32_t obj)
{
	struct bv_obj *o = &bv->o[obj];

	o->v.cls = bv->f->objs[obj].cls;
	return o->made ? &o->v : NULL;
}

static int verbs_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	const struct hview *v = view(be, obj);

	return v ? hview_ref(v, off, remote, addr, key) : -ENOENT;
}

static int verbs_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *out)
{
	const struct hview *v = view(be, obj);

	return v ? hview_attr(v, a, out) : -ENOENT;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int verbs_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	struct be_verbs *bv = be;
	char reply[PROTO_LINE_MAX];
	unsigned node = bv->f->objs[obj].node;

	if (!bv->o[obj].made)
		return -ENOENT;
	for (size_t done = 0; done < len;) {
		size_t n = len - done < AGENT_READ_MAX ? len - done : AGENT_READ_MAX;
		const char *hex;
		int rc = bv_call(bv, node, reply, "read id=%d off=%llu len=%zu", obj,
			      (unsigned long long)(off + done), n);

		if (rc)
			return rc;
		if (proto_is(reply, "err") && bv_field(reply, "errno") == ENOENT)
			return -ENOENT; /* no bytes behind it (an unmapped registration) */
		hex = strstr(reply, "hex=");
		if (!proto_is(reply, "ok") || !hex || strlen(hex + 4) != 2 * n)
			return -EPROTO;
		for (size_t i = 0; i < n; i++) {
			int hi = hexval(hex[4 + 2 * i]), lo = hexval(hex[5 + 2 * i]);

			if (hi < 0 || lo < 0)
				return -EPROTO;
			buf[done + i] = (uint8_t)(hi << 4 | lo);
		}
		done += n;
	}
	return 0;
}

static int verbs_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	struct be_verbs *bv = be;
	char reply[PROTO_LINE_MAX], st[40];
	unsigned node = bv->f->objs[qp].node;
	int rc;

	out->state = out->recv = -1;
	if (!bv->o[qp].made)
		return -ENOENT;
	rc = bv_call(bv, node, reply, "recvs id=%d wait_ms=%d", qp, wait_ms);
	if (rc)
		return rc;
	if (proto_is(reply, "err") && bv_field(reply, "errno") == ENOENT)
		return -ENOENT; /* destroyed: nothing to observe */
	if (proto_is(reply, "ok") && bv_field(reply, "n") == 1 && proto_get(reply, "status", st, sizeof(st)) == 0) {
		enum m_wc_status s;

		if (m_wc_status_parse(st, &s) == 0)
			out->recv = (int)s;
	}
	rc = bv_call(bv, node, reply, "query_qp id=%d", qp);
	if (rc)
		return rc;
	if (proto_is(reply, "ok") && proto_get(reply, "state", st, sizeof(st)) == 0) {
		enum m_qp_state s;

		if (m_qp_state_parse(st, &s) == 0)
			out->state = (int)s;
	}
	return 0;
}

static int verbs_blob(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	return bv_blob_rpma(be, obj, buf, cap, len);
}

const struct backend_ops be_verbs_ops = {
	.name = "verbs",
	.exec = verbs_exec,
	.ref = verbs_ref,
	.attr = verbs_attr,
	.read = verbs_read,
	.peer = verbs_peer,
	.blob = verbs_blob,
};

/* ------------------------------------------------------------ agents -- */

static int spawn(struct be_verbs *bv, unsigned i, const struct topo_node *tn)
{
	int sv[2];
	char hello[PROTO_LINE_MAX];
	int rc;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(NULL);
	bv->ag[i].pid = fork();
	if (bv->ag[i].pid < 0) {
		rc = -errno;
		close(sv[0]);
		close(sv[1]);
		return rc;
	}
	if (bv->ag[i].pid == 0) {
		for (unsigned j = 0; j < i; j++)
			close(bv->ag[j].fd);
		close(sv[0]);
		signal(SIGPIPE, SIG_IGN);
		rc = topo_enter_netns(tn);
		if (rc) {
			proto_send(sv[1], "err errno=%d msg=cannot enter netns %s", -rc, tn->netns);
			_exit(3);
		}
		struct agent_node an = { .name = bv->f->nodes[i], .ibdev = tn->rxe, .netdev = tn->netdev,
					 .ipv4 = tn->ipv4, .gid_index = tn->gid_index };

		rc = agent_serve(sv[1], &an, bv->step_ms);
		exit(rc ? 3 : 0); /* exit, not _exit: coverage data is flushed */
	}
	close(sv[1]);
	bv->ag[i].fd = sv[0];
	rc = proto_recv(sv[0], hello, sizeof(hello), HELLO_MS);
	if (rc < 0 || !proto_is(hello, "ok")) {
		char msg[200] = "no greeting";

		if (rc >= 0)
			proto_get_tail(hello, "msg", msg, sizeof(msg));
		snprintf(bv->err, sizeof(bv->err), "agent of node %s (%s on %s): %s", bv->f->nodes[i], tn->rxe,
			 tn->netdev, msg);
		return -EHOSTDOWN;
	}
	if (proto_get(hello, "gid", bv->ag[i].gid, sizeof(bv->ag[i].gid)))
		return -EPROTO;
	return 0;
}

int bv_start(struct be_verbs *bv, const struct scn_file *f, const struct topo *t, int step_ms)
{
	int rc = 0;

	memset(bv, 0, sizeof(*bv));
	bv->f = f;
	bv->step_ms = step_ms;
	for (unsigned i = 0; i < SCN_NODES_MAX; i++)
		bv->ag[i].fd = -1;
	if (f->nnodes > t->n) {
		snprintf(bv->err, sizeof(bv->err), "the topology has %zu nodes, the scenario needs %zu", t->n,
			 f->nnodes);
		return -ERANGE;
	}
	bv->n = (unsigned)f->nnodes;
	for (unsigned i = 0; i < bv->n && rc == 0; i++)
		rc = spawn(bv, i, &t->node[i]);
	if (rc)
		bv_stop(bv);
	return rc;
}

void bv_stop(struct be_verbs *bv)
{
	char reply[PROTO_LINE_MAX];

	for (unsigned i = 0; i < bv->n; i++)
		if (bv->ag[i].fd >= 0 && proto_send(bv->ag[i].fd, "quit") == 0)
			proto_recv(bv->ag[i].fd, reply, sizeof(reply), 3000);
	for (unsigned i = 0; i < bv->n; i++) {
		if (bv->ag[i].fd >= 0)
			close(bv->ag[i].fd);
		bv->ag[i].fd = -1;
		if (bv->ag[i].pid > 0) {
			int st;
			struct timespec ts = { 0, 10000000 };

			for (int k = 0; k < 300 && waitpid(bv->ag[i].pid, &st, WNOHANG) == 0; k++)
				nanosleep(&ts, NULL);
			if (waitpid(bv->ag[i].pid, &st, WNOHANG) == 0) {
				kill(bv->ag[i].pid, SIGKILL);
				waitpid(bv->ag[i].pid, &st, 0);
			}
			bv->ag[i].pid = 0;
		}
	}
}

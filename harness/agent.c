/* agent.c — the node agent: verbs calls on the real stack (see agent.h). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "harness/agent.h"
#include "harness/proto.h"
#include "harness/vnode.h"

#include <errno.h>
#include <stdarg.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum aobj_kind { AO_NONE, AO_PD, AO_MR, AO_MW, AO_QP };

struct aobj {
	uint8_t kind, live;
	struct ibv_pd *pd;
	/* MR: the buffer outlives the registration. */
	struct ibv_mr *mr;
	uint8_t *map, *buf;
	size_t maplen, len;
	int prot;
	/* MW */
	struct ibv_mw *mw;
	uint32_t mw_rkey;
	/* QP */
	struct ibv_qp *qp;
	struct ibv_cq *scq, *rcq;
	uint32_t qp_access;
};

struct agent {
	int fd, step_ms, gid_index;
	struct ibv_context *ctx;
	union ibv_gid gid;
	uint64_t next_wr;
	struct aobj obj[AGENT_OBJS_MAX];
	char msg[PROTO_LINE_MAX];
};

static int reply_err(struct agent *a, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Answer "err errno=N msg=TEXT" (err is a positive errno). Returns 0. */
static int reply_err(struct agent *a, int err, const char *fmt, ...)
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

/* The object named by field key (id, pd, mr, qp) of kind k, live or not. */
static struct aobj *field_obj(struct agent *a, const char *key, enum aobj_kind k, int need_live)
{
	uint64_t id;

	if (proto_get_u64(a->msg, key, &id) || id >= AGENT_OBJS_MAX)
		return NULL;
	struct aobj *o = &a->obj[id];

	if (o->kind != k || (need_live && !o->live))
		return NULL;
	return o;
}

/* The id field as a fresh slot for a new object. */
static struct aobj *new_obj(struct agent *a)
{
	uint64_t id;

	if (proto_get_u64(a->msg, "id", &id) || id >= AGENT_OBJS_MAX || a->obj[id].live)
		return NULL;
	return &a->obj[id];
}

static uint64_t num(struct agent *a, const char *key, uint64_t dflt)
{
	uint64_t v;

	return proto_get_u64(a->msg, key, &v) ? dflt : v;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Wait for the completion of wr_id on cq until the step budget runs out.
 * Returns 0 and *wc, -ETIMEDOUT, or -EIO if polling fails.
 */
static int wait_wc(struct agent *a, struct ibv_cq *cq, uint64_t wr_id, int budget_ms, struct ibv_wc *wc)
{
	int64_t deadline = now_ms() + budget_ms;

	for (;;) {
		int got = ibv_poll_cq(cq, 1, wc);

		if (got < 0)
			return -EIO;
		if (got == 1 && wc->wr_id == wr_id)
			return 0;
		if (got == 1)
			continue; /* a completion of an earlier request that timed out */
		if (now_ms() >= deadline)
			return -ETIMEDOUT;
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
	(void)a;
}

static int do_alloc_pd(struct agent *a)
{
	struct aobj *o = new_obj(a);

	if (!o)
		return reply_err(a, EINVAL, "bad alloc_pd request");
	*o = (struct aobj){ .kind = AO_PD };
	o->pd = ibv_alloc_pd(a->ctx);
	if (!o->pd)
		return reply_err(a, errno, "ibv_alloc_pd: %s", strerror(errno));
	o->live = 1;
	return proto_send(a->fd, "ok");
}

static int do_reg_mr(struct agent *a)
{
	struct aobj *o = new_obj(a), *pd = field_obj(a, "pd", AO_PD, 0);
	uint64_t len = num(a, "len", 0), off = num(a, "offset", 0), iova;
	int access = (int)num(a, "access", 0), prot = (int)num(a, "prot", 0);
	long page = sysconf(_SC_PAGESIZE);

	if (!o || !pd || off >= (uint64_t)page || len > (1u << 30))
		return reply_err(a, EINVAL, "bad reg_mr request");
	if (o->map) /* a name registered again: keep one buffer per object id */
		munmap(o->map, o->maplen);
	*o = (struct aobj){ .kind = AO_MR, .len = len };
	o->maplen = (size_t)((off + len + (uint64_t)page - 1) / (uint64_t)page * (uint64_t)page);
	if (o->maplen == 0)
		o->maplen = (size_t)page;
	o->map = mmap(NULL, o->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (o->map == MAP_FAILED) {
		o->map = NULL;
		return reply_err(a, errno, "mmap: %s", strerror(errno));
	}
	o->buf = o->map + off;
	if (prot == 3) {
		/* Unmapped (MR-MAP-1): the address range exists no more. The object
		 * keeps no bytes (fill and read refuse it). */
		munmap(o->map, o->maplen);
		o->map = NULL;
	}
	o->prot = prot == 1 ? PROT_READ : prot == 2 ? PROT_NONE : PROT_READ | PROT_WRITE;
	if (o->map && o->prot != (PROT_READ | PROT_WRITE))
		mprotect(o->map, o->maplen, o->prot);
	if (proto_get_u64(a->msg, "iova", &iova) == 0)
		o->mr = ibv_reg_mr_iova(pd->pd, o->buf, len, iova, access);
	else
		o->mr = ibv_reg_mr(pd->pd, o->buf, len, access);
	if (!o->mr)
		return reply_err(a, errno, "ibv_reg_mr: %s", strerror(errno));
	o->live = 1;
	return proto_send(a->fd, "ok addr=0x%llx iova=0x%llx lkey=%u rkey=%u",
			  (unsigned long long)(uintptr_t)o->buf,
			  (unsigned long long)(proto_get_u64(a->msg, "iova", &iova) ? (uintptr_t)o->buf : iova),
			  o->mr->lkey, o->mr->rkey);
}

static int do_rereg_mr(struct agent *a)
{
	struct aobj *o = field_obj(a, "id", AO_MR, 1), *pd = NULL;
	int flags = (int)num(a, "flags", 0), rc;
	uint64_t len;

	if (!o)
		return reply_err(a, EINVAL, "bad rereg_mr request");
	if (flags & IBV_REREG_MR_CHANGE_PD) {
		pd = field_obj(a, "pd", AO_PD, 0);
		if (!pd)
			return reply_err(a, EINVAL, "bad rereg_mr pd");
	}
	/* CHANGE_TRANSLATION re-registers [buf, buf+len): len 0 (the scenario gave
	 * none) passes NULL and 0, which libibverbs must refuse (MR-REREG-2). */
	len = num(a, "len", 0);
	errno = 0;
	rc = ibv_rereg_mr(o->mr, flags, pd ? pd->pd : NULL, len ? o->buf : NULL, len,
			  (int)num(a, "access", 0));
	if (rc)
		return reply_err(a, errno ? errno : EINVAL, "ibv_rereg_mr: %d", rc);
	return proto_send(a->fd, "ok lkey=%u rkey=%u", o->mr->lkey, o->mr->rkey);
}

static int do_alloc_mw(struct agent *a)
{
	struct aobj *o = new_obj(a), *pd = field_obj(a, "pd", AO_PD, 0);
	uint64_t type = num(a, "type", 0);

	if (!o || !pd)
		return reply_err(a, EINVAL, "bad alloc_mw request");
	*o = (struct aobj){ .kind = AO_MW };
	o->mw = ibv_alloc_mw(pd->pd, type == 1 ? IBV_MW_TYPE_1 : IBV_MW_TYPE_2);
	if (!o->mw)
		return reply_err(a, errno, "ibv_alloc_mw: %s", strerror(errno));
	o->live = 1;
	o->mw_rkey = o->mw->rkey;
	return proto_send(a->fd, "ok rkey=%u", o->mw_rkey);
}

static int do_bind_mw(struct agent *a)
{
	struct aobj *o = field_obj(a, "id", AO_MW, 1), *q = field_obj(a, "qp", AO_QP, 1);
	struct aobj *m = field_obj(a, "mr", AO_MR, 0);
	struct ibv_mw_bind_info bi;
	struct ibv_wc wc;
	uint64_t wr_id = ++a->next_wr;
	uint32_t rkey;
	int rc;

	if (!o || !q || !m || !m->mr)
		return reply_err(a, EINVAL, "bad bind_mw request");
	bi = (struct ibv_mw_bind_info){ .mr = m->mr, .addr = num(a, "addr", 0), .length = num(a, "len", 0),
					.mw_access_flags = (unsigned)num(a, "access", 0) |
							   (num(a, "zero_based", 0) ? IBV_ACCESS_ZERO_BASED : 0) };
	if (o->mw->type == IBV_MW_TYPE_1) {
		struct ibv_mw_bind b = { .wr_id = wr_id, .send_flags = IBV_SEND_SIGNALED, .bind_info = bi };

		rc = ibv_bind_mw(q->qp, o->mw, &b);
		rkey = o->mw->rkey;
	} else {
		struct ibv_send_wr wr = { .wr_id = wr_id, .opcode = IBV_WR_BIND_MW,
					  .send_flags = IBV_SEND_SIGNALED }, *bad = NULL;

		rkey = ibv_inc_rkey(o->mw_rkey);
		wr.bind_mw.mw = o->mw;
		wr.bind_mw.rkey = rkey;
		wr.bind_mw.bind_info = bi;
		rc = ibv_post_send(q->qp, &wr, &bad);
	}
	if (rc)
		return reply_err(a, rc, "bind post: %s", strerror(rc));
	rc = wait_wc(a, q->scq, wr_id, a->step_ms, &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no bind completion in time", ETIMEDOUT);
	if (rc)
		return reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	if (wc.status == IBV_WC_SUCCESS) {
		/* The provider takes a type-2 bind's current rkey from mw->rkey and
		 * post_send does not update it: the application must (MW-KEY-2). */
		o->mw_rkey = rkey;
		o->mw->rkey = rkey;
	}
	return proto_send(a->fd, "ok status=%s rkey=%u vendor_err=%u", vnode_wc_status_str(wc.status),
			  o->mw_rkey, wc.vendor_err);
}

static int do_create_qp(struct agent *a)
{
	struct aobj *o = new_obj(a), *pd = field_obj(a, "pd", AO_PD, 0);
	struct ibv_qp_init_attr qia;

	if (!o || !pd)
		return reply_err(a, EINVAL, "bad create_qp request");
	*o = (struct aobj){ .kind = AO_QP, .qp_access = (uint32_t)num(a, "access", 0) };
	o->scq = ibv_create_cq(a->ctx, 64, NULL, NULL, 0);
	o->rcq = o->scq ? ibv_create_cq(a->ctx, 64, NULL, NULL, 0) : NULL;
	if (!o->rcq)
		goto err_cq;
	memset(&qia, 0, sizeof(qia));
	qia.send_cq = o->scq;
	qia.recv_cq = o->rcq;
	qia.qp_type = IBV_QPT_RC;
	qia.sq_sig_all = 1;
	qia.cap = (struct ibv_qp_cap){ .max_send_wr = 32, .max_recv_wr = 32, .max_send_sge = 1,
				       .max_recv_sge = 1 };
	o->qp = ibv_create_qp(pd->pd, &qia);
	if (!o->qp) {
		int e = errno;

		ibv_destroy_cq(o->rcq);
		ibv_destroy_cq(o->scq);
		o->rcq = o->scq = NULL;
		return reply_err(a, e, "ibv_create_qp: %s", strerror(e));
	}
	o->live = 1;
	return proto_send(a->fd, "ok qpn=%u", o->qp->qp_num);
err_cq:
	{
		int e = errno;

		if (o->scq)
			ibv_destroy_cq(o->scq);
		o->scq = NULL;
		return reply_err(a, e, "ibv_create_cq: %s", strerror(e));
	}
}

/* IBV_MTU_* for a byte count (256..4096); 1024 for anything else. */
static enum ibv_mtu mtu_enum(uint64_t bytes)
{
	switch (bytes) {
	case 256: return IBV_MTU_256;
	case 512: return IBV_MTU_512;
	case 2048: return IBV_MTU_2048;
	case 4096: return IBV_MTU_4096;
	default: return IBV_MTU_1024;
	}
}

static int do_connect(struct agent *a)
{
	struct aobj *o = field_obj(a, "id", AO_QP, 1);
	char hex[64];
	union ibv_gid rgid;
	struct ibv_qp_attr at;
	uint64_t rqpn;
	int rc;

	if (!o || proto_get_u64(a->msg, "rqpn", &rqpn) || proto_get(a->msg, "rgid", hex, sizeof(hex)) ||
	    vnode_gid_from_hex(hex, &rgid))
		return reply_err(a, EINVAL, "bad connect request");
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_INIT;
	at.port_num = 1;
	at.qp_access_flags = (unsigned)o->qp_access;
	rc = ibv_modify_qp(o->qp, &at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (rc)
		return reply_err(a, rc, "modify INIT: %s", strerror(rc));
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTR;
	at.path_mtu = mtu_enum(num(a, "mtu", 1024));
	at.dest_qp_num = (uint32_t)rqpn;
	at.max_dest_rd_atomic = (uint8_t)num(a, "max_dest_rd_atomic", 1);
	at.min_rnr_timer = (uint8_t)num(a, "min_rnr_timer", 12);
	at.ah_attr.is_global = 1;
	at.ah_attr.port_num = 1;
	at.ah_attr.grh.dgid = rgid;
	at.ah_attr.grh.sgid_index = (uint8_t)a->gid_index;
	at.ah_attr.grh.hop_limit = 64;
	rc = ibv_modify_qp(o->qp, &at, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				 IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (rc)
		return reply_err(a, rc, "modify RTR: %s", strerror(rc));
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTS;
	at.timeout = (uint8_t)num(a, "timeout", 14);
	at.retry_cnt = (uint8_t)num(a, "retry_cnt", 3);
	at.rnr_retry = (uint8_t)num(a, "rnr_retry", 2);
	at.max_rd_atomic = (uint8_t)num(a, "max_rd_atomic", 1);
	rc = ibv_modify_qp(o->qp, &at, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc)
		return reply_err(a, rc, "modify RTS: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

static int do_modify_qp(struct agent *a)
{
	struct aobj *o = field_obj(a, "id", AO_QP, 1);
	char st[16];
	struct ibv_qp_attr at = { 0 };
	int rc;

	if (!o || proto_get(a->msg, "state", st, sizeof(st)))
		return reply_err(a, EINVAL, "bad modify_qp request");
	if (strcmp(st, "ERR") == 0)
		at.qp_state = IBV_QPS_ERR;
	else if (strcmp(st, "RESET") == 0)
		at.qp_state = IBV_QPS_RESET;
	else
		return reply_err(a, EINVAL, "modify_qp: state %s not supported", st);
	rc = ibv_modify_qp(o->qp, &at, IBV_QP_STATE);
	if (rc)
		return reply_err(a, rc, "ibv_modify_qp: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

static int do_destroy(struct agent *a, enum aobj_kind k)
{
	struct aobj *o = field_obj(a, "id", k, 1);
	int rc = EINVAL;

	if (!o)
		return reply_err(a, EINVAL, "no such live object");
	switch (k) {
	case AO_PD: rc = ibv_dealloc_pd(o->pd); break;
	case AO_MR: rc = ibv_dereg_mr(o->mr); break;
	case AO_MW: rc = ibv_dealloc_mw(o->mw); break;
	case AO_QP:
		rc = ibv_destroy_qp(o->qp);
		if (!rc) {
			ibv_destroy_cq(o->rcq);
			ibv_destroy_cq(o->scq);
			o->qp = NULL;
			o->rcq = o->scq = NULL;
		}
		break;
	default: break;
	}
	if (rc)
		return reply_err(a, rc, "destroy: %s", strerror(rc));
	o->live = 0;
	o->mr = NULL;
	return proto_send(a->fd, "ok");
}

static int do_post(struct agent *a)
{
	struct aobj *q = field_obj(a, "id", AO_QP, 1);
	char op[16];
	struct ibv_sge sge = { .addr = num(a, "laddr", 0), .length = (uint32_t)num(a, "len", 0),
			       .lkey = (uint32_t)num(a, "lkey", 0) };
	struct ibv_send_wr wr = { .wr_id = ++a->next_wr, .sg_list = &sge, .num_sge = 1,
				  .send_flags = IBV_SEND_SIGNALED }, *bad = NULL;
	struct ibv_wc wc;
	int rc;

	if (!q || proto_get(a->msg, "op", op, sizeof(op)))
		return reply_err(a, EINVAL, "bad post request");
	wr.wr.rdma.remote_addr = num(a, "raddr", 0);
	wr.wr.rdma.rkey = (uint32_t)num(a, "rkey", 0);
	if (strcmp(op, "write") == 0) {
		wr.opcode = IBV_WR_RDMA_WRITE;
	} else if (strcmp(op, "read") == 0) {
		wr.opcode = IBV_WR_RDMA_READ;
	} else if (strcmp(op, "cas") == 0 || strcmp(op, "fadd") == 0) {
		wr.opcode = op[0] == 'c' ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
		wr.wr.atomic.remote_addr = num(a, "raddr", 0);
		wr.wr.atomic.rkey = (uint32_t)num(a, "rkey", 0);
		wr.wr.atomic.compare_add = num(a, "compare", 0);
		wr.wr.atomic.swap = num(a, "swap", 0);
	} else if (strcmp(op, "send") == 0) {
		uint64_t inv;

		wr.opcode = IBV_WR_SEND;
		if (proto_get_u64(a->msg, "inv", &inv) == 0) {
			wr.opcode = IBV_WR_SEND_WITH_INV;
			wr.invalidate_rkey = (uint32_t)inv;
		}
	} else if (strcmp(op, "local_inv") == 0) {
		wr.opcode = IBV_WR_LOCAL_INV;
		wr.invalidate_rkey = (uint32_t)num(a, "inv", 0);
		wr.num_sge = 0;
		wr.sg_list = NULL;
	} else {
		return reply_err(a, EINVAL, "unknown post op %s", op);
	}
	rc = ibv_post_send(q->qp, &wr, &bad);
	if (rc)
		return reply_err(a, rc, "ibv_post_send: %s", strerror(rc));
	rc = wait_wc(a, q->scq, wr.wr_id, (int)num(a, "wait_ms", (uint64_t)a->step_ms), &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion in time", ETIMEDOUT);
	if (rc)
		return reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	return proto_send(a->fd, "ok status=%s vendor_err=%u", vnode_wc_status_str(wc.status), wc.vendor_err);
}

static int do_recv(struct agent *a)
{
	struct aobj *q = field_obj(a, "id", AO_QP, 1);
	struct ibv_sge sge = { .addr = num(a, "laddr", 0), .length = (uint32_t)num(a, "len", 0),
			       .lkey = (uint32_t)num(a, "lkey", 0) };
	struct ibv_recv_wr wr = { .wr_id = ++a->next_wr, .sg_list = &sge, .num_sge = 1 }, *bad = NULL;
	int rc;

	if (!q)
		return reply_err(a, EINVAL, "bad recv request");
	rc = ibv_post_recv(q->qp, &wr, &bad);
	if (rc)
		return reply_err(a, rc, "ibv_post_recv: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

static int do_recvs(struct agent *a)
{
	struct aobj *q = field_obj(a, "id", AO_QP, 0);
	int64_t deadline = now_ms() + (int64_t)num(a, "wait_ms", 0);
	struct ibv_wc wc;

	if (!q)
		return reply_err(a, EINVAL, "bad recvs request");
	if (!q->live)
		return reply_err(a, ENOENT, "the QP was destroyed");
	for (;;) {
		int got = ibv_poll_cq(q->rcq, 1, &wc);

		if (got < 0)
			return reply_err(a, EIO, "ibv_poll_cq failed");
		if (got == 1)
			return proto_send(a->fd, "ok n=1 status=%s", vnode_wc_status_str(wc.status));
		if (now_ms() >= deadline)
			return proto_send(a->fd, "ok n=0");
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
}

static int do_query_qp(struct agent *a)
{
	struct aobj *q = field_obj(a, "id", AO_QP, 0);
	struct ibv_qp_attr at;
	struct ibv_qp_init_attr init;
	int rc;

	if (!q)
		return reply_err(a, EINVAL, "bad query_qp request");
	if (!q->live)
		return reply_err(a, ENOENT, "the QP was destroyed");
	rc = ibv_query_qp(q->qp, &at, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS, &init);
	if (rc)
		return reply_err(a, rc, "ibv_query_qp: %s", strerror(rc));
	return proto_send(a->fd, "ok state=%s access=%u", vnode_qp_state_str(at.qp_state), at.qp_access_flags);
}

/* Make the MR's pages accessible for the harness while it touches them. */
static void open_pages(struct aobj *o, int open)
{
	if (o->prot != (PROT_READ | PROT_WRITE))
		mprotect(o->map, o->maplen, open ? PROT_READ | PROT_WRITE : o->prot);
}

static int do_fill(struct agent *a)
{
	struct aobj *o = field_obj(a, "id", AO_MR, 0);
	uint64_t off = num(a, "off", 0), len = num(a, "len", 0);

	if (!o || !o->buf || off > o->len || len > o->len - off)
		return reply_err(a, EINVAL, "bad fill request");
	if (!o->map)
		return reply_err(a, ENOENT, "the buffer is not mapped");
	open_pages(o, 1);
	memset(o->buf + off, (int)num(a, "byte", 0), len);
	open_pages(o, 0);
	return proto_send(a->fd, "ok");
}

static int do_read(struct agent *a)
{
	struct aobj *o = field_obj(a, "id", AO_MR, 0);
	uint64_t off = num(a, "off", 0), len = num(a, "len", 0);
	char hex[2 * AGENT_READ_MAX + 1];

	if (!o || !o->buf || off > o->len || len > o->len - off || len > AGENT_READ_MAX)
		return reply_err(a, EINVAL, "bad read request");
	if (!o->map)
		return reply_err(a, ENOENT, "the buffer is not mapped");
	open_pages(o, 1);
	for (uint64_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", o->buf[off + i]);
	open_pages(o, 0);
	hex[2 * len] = '\0';
	return proto_send(a->fd, "ok hex=%s", hex);
}

/* Release every object, in reverse order of dependency. */
static void release_all(struct agent *a)
{
	static const enum aobj_kind order[] = { AO_MW, AO_QP, AO_MR, AO_PD };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (int i = AGENT_OBJS_MAX - 1; i >= 0; i--) {
			struct aobj *o = &a->obj[i];

			if (o->kind != order[k])
				continue;
			if (o->live) {
				if (k == 0)
					ibv_dealloc_mw(o->mw);
				else if (k == 1 && !ibv_destroy_qp(o->qp)) {
					ibv_destroy_cq(o->rcq);
					ibv_destroy_cq(o->scq);
				} else if (k == 2)
					ibv_dereg_mr(o->mr);
				else if (k == 3)
					ibv_dealloc_pd(o->pd);
			}
			if (k == 2 && o->map)
				munmap(o->map, o->maplen);
			o->live = 0;
			o->map = NULL;
		}
}

static const struct {
	const char *verb;
	int (*fn)(struct agent *a);
	enum aobj_kind destroys;
} handlers[] = {
	{ "alloc_pd", do_alloc_pd, AO_NONE },     { "dealloc_pd", NULL, AO_PD },
	{ "reg_mr", do_reg_mr, AO_NONE },         { "dereg_mr", NULL, AO_MR },
	{ "rereg_mr", do_rereg_mr, AO_NONE },     { "alloc_mw", do_alloc_mw, AO_NONE },
	{ "bind_mw", do_bind_mw, AO_NONE },       { "dealloc_mw", NULL, AO_MW },
	{ "create_qp", do_create_qp, AO_NONE },   { "destroy_qp", NULL, AO_QP },
	{ "connect", do_connect, AO_NONE },       { "modify_qp", do_modify_qp, AO_NONE },
	{ "post", do_post, AO_NONE },             { "recv", do_recv, AO_NONE },
	{ "recvs", do_recvs, AO_NONE },           { "query_qp", do_query_qp, AO_NONE },
	{ "fill", do_fill, AO_NONE },             { "read", do_read, AO_NONE },
};

static int open_device(struct agent *a, const char *ibdev, char *err, size_t errlen)
{
	struct ibv_device **list;
	int num = 0, rc = -ENODEV;

	list = ibv_get_device_list(&num);
	if (!list) {
		snprintf(err, errlen, "ibv_get_device_list: %s", strerror(errno));
		return -errno;
	}
	for (int i = 0; i < num; i++)
		if (strcmp(ibv_get_device_name(list[i]), ibdev) == 0) {
			a->ctx = ibv_open_device(list[i]);
			rc = a->ctx ? 0 : -errno;
			break;
		}
	ibv_free_device_list(list);
	if (rc) {
		snprintf(err, errlen, "cannot open RDMA device %s: %s", ibdev, strerror(-rc));
		return rc;
	}
	if (ibv_query_gid(a->ctx, 1, a->gid_index, &a->gid)) {
		snprintf(err, errlen, "ibv_query_gid(%s, %d) failed", ibdev, a->gid_index);
		ibv_close_device(a->ctx);
		return -EINVAL;
	}
	return 0;
}

int agent_serve(int fd, const char *node, const char *ibdev, int gid_index, int step_ms)
{
	struct agent *a = calloc(1, sizeof(*a));
	char err[256], gid[33];
	int rc;

	if (!a)
		return -ENOMEM;
	a->fd = fd;
	a->step_ms = step_ms;
	a->gid_index = gid_index;
	rc = open_device(a, ibdev, err, sizeof(err));
	if (rc) {
		reply_err(a, -rc, "%s", err);
		free(a);
		return rc;
	}
	vnode_gid_to_hex(&a->gid, gid);
	proto_send(fd, "ok hello node=%s gid=%s", node, gid);
	while (proto_recv(fd, a->msg, sizeof(a->msg), -1) >= 0) {
		size_t i, n = sizeof(handlers) / sizeof(handlers[0]);

		if (proto_is(a->msg, "quit")) {
			proto_send(fd, "ok");
			break;
		}
		for (i = 0; i < n; i++)
			if (proto_is(a->msg, handlers[i].verb))
				break;
		if (i == n)
			reply_err(a, EINVAL, "unknown request");
		else if (handlers[i].fn)
			handlers[i].fn(a);
		else
			do_destroy(a, handlers[i].destroys);
	}
	release_all(a);
	ibv_close_device(a->ctx);
	free(a);
	return 0;
}

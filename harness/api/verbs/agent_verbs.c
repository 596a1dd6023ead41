/* agent_verbs.c — the agent's libibverbs requests (protocol in agent.h). */
#include "harness/agent/agent_internal.h"
#include "harness/api/verbs/agent_qpstate.h"
#include "harness/api/verbs/verbs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Wait for the completion of wr_id on cq until budget_ms runs out.
 * Returns 0 and *wc, -ETIMEDOUT, or -EIO if polling fails.
 */
static int wait_wc(struct ibv_cq *cq, uint64_t wr_id, int budget_ms, struct ibv_wc *wc)
{
	int64_t deadline = proto_now_ms() + budget_ms;

	for (;;) {
		int got = ibv_poll_cq(cq, 1, wc);

		if (got < 0)
			return -EIO;
		if (got == 1 && wc->wr_id == wr_id)
			return 0;
		if (got == 1)
			continue; /* a completion of an earlier request that timed out */
		if (proto_now_ms() >= deadline)
			return -ETIMEDOUT;
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
}

static int do_alloc_pd(struct agent *a)
{
	struct aobj *o = agent_new_obj(a);

	if (!o)
		return agent_reply_err(a, EINVAL, "bad alloc_pd request");
	*o = (struct aobj){ .kind = AO_PD };
	o->pd = ibv_alloc_pd(a->ctx);
	if (!o->pd)
		return agent_reply_err(a, errno, "ibv_alloc_pd: %s", strerror(errno));
	o->live = 1;
	return proto_send(a->fd, "ok");
}

static int do_reg_mr(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *pd = agent_field_obj(a, "pd", AO_PD, 0), *src = NULL;
	uint64_t len = agent_num(a, "len", 0), off = agent_num(a, "offset", 0), boff = agent_num(a, "boff", 0), iova;
	int access = (int)agent_num(a, "access", 0), prot = (int)agent_num(a, "prot", 0), rc = 0;

	if (!o || !pd)
		return agent_reply_err(a, EINVAL, "bad reg_mr request");
	if (proto_get_u64(a->msg, "buf", &iova) == 0 &&
	    (!(src = agent_field_obj(a, "buf", AO_MR, 0)) || !src->buf || boff > src->len || len > src->len - boff))
		return agent_reply_err(a, EINVAL, "bad reg_mr buf");
	*o = (struct aobj){ .kind = AO_MR, .mem = o->mem, .buf = o->buf }; /* agent_buffer drops it */
	if (src) {
		/* buf=: len bytes of src's buffer from boff, one more reference to it. */
		agent_buffer_share(o, src, len);
		o->buf += boff;
	} else {
		/* A length no buffer can have (addr+len wraps: MR-LEN-2) is registered
		 * over a one-page buffer that holds no bytes for the harness. */
		rc = agent_buffer(o, len > AGENT_BUF_MAX ? 0 : len, off, prot);
	}
	if (rc)
		return agent_reply_err(a, -rc, "cannot make the buffer: %s", strerror(-rc));
	if (proto_get_u64(a->msg, "iova", &iova) == 0)
		o->mr = ibv_reg_mr_iova(pd->pd, o->buf, len, iova, access);
	else
		o->mr = ibv_reg_mr(pd->pd, o->buf, len, access);
	if (!o->mr)
		return agent_reply_err(a, errno, "ibv_reg_mr: %s", strerror(errno));
	o->live = 1;
	return proto_send(a->fd, "ok addr=0x%llx iova=0x%llx lkey=%u rkey=%u",
			  (unsigned long long)(uintptr_t)o->buf,
			  (unsigned long long)(proto_get_u64(a->msg, "iova", &iova) ? (uintptr_t)o->buf : iova),
			  o->mr->lkey, o->mr->rkey);
}

static int do_rereg_mr(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_MR, 1), *pd = NULL;
	int flags = (int)agent_num(a, "flags", 0), rc;
	uint64_t len;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad rereg_mr request");
	if (flags & IBV_REREG_MR_CHANGE_PD) {
		pd = agent_field_obj(a, "pd", AO_PD, 0);
		if (!pd)
			return agent_reply_err(a, EINVAL, "bad rereg_mr pd");
	}
	/* CHANGE_TRANSLATION re-registers [buf, buf+len): len 0 (the scenario gave
	 * none) passes NULL and 0, which libibverbs must refuse (MR-REREG-2). */
	len = agent_num(a, "len", 0);
	errno = 0;
	rc = ibv_rereg_mr(o->mr, flags, pd ? pd->pd : NULL, len ? o->buf : NULL, len,
			  (int)agent_num(a, "access", 0));
	if (rc)
		return agent_reply_err(a, errno ? errno : EINVAL, "ibv_rereg_mr: %d", rc);
	return proto_send(a->fd, "ok lkey=%u rkey=%u", o->mr->lkey, o->mr->rkey);
}

static int do_alloc_mw(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *pd = agent_field_obj(a, "pd", AO_PD, 0);
	uint64_t type = agent_num(a, "type", 0);

	if (!o || !pd)
		return agent_reply_err(a, EINVAL, "bad alloc_mw request");
	*o = (struct aobj){ .kind = AO_MW };
	o->mw = ibv_alloc_mw(pd->pd, (enum ibv_mw_type)type); /* any type: the library and kernel judge it */
	if (!o->mw)
		return agent_reply_err(a, errno, "ibv_alloc_mw: %s", strerror(errno));
	o->live = 1;
	o->mw_rkey = o->mw->rkey;
	return proto_send(a->fd, "ok rkey=%u", o->mw_rkey);
}

static int do_bind_mw(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_MW, 1), *q = agent_field_obj(a, "qp", AO_QP, 1);
	struct aobj *m = agent_field_obj(a, "mr", AO_MR, 0);
	struct ibv_mw_bind_info bi;
	struct ibv_wc wc;
	uint64_t wr_id = ++a->next_wr;
	uint32_t rkey;
	int rc;

	if (!o || !q || !m || !m->mr)
		return agent_reply_err(a, EINVAL, "bad bind_mw request");
	bi = (struct ibv_mw_bind_info){ .mr = m->mr, .addr = agent_num(a, "addr", 0), .length = agent_num(a, "len", 0),
					.mw_access_flags = (unsigned)agent_num(a, "access", 0) |
							   (agent_num(a, "zero_based", 0) ? IBV_ACCESS_ZERO_BASED : 0) };
	if (o->mw->type == IBV_MW_TYPE_1 || agent_num(a, "call", 0)) { /* call: ibv_bind_mw() whatever the type */
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
		return agent_reply_err(a, rc, "bind post: %s", strerror(rc));
	rc = wait_wc(q->scq, wr_id, a->step_ms, &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no bind completion in time", ETIMEDOUT);
	if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	if (wc.status == IBV_WC_SUCCESS) {
		/* The provider takes a type-2 bind's current rkey from mw->rkey and
		 * post_send does not update it: the application must (MW-KEY-2). */
		o->mw_rkey = rkey;
		o->mw->rkey = rkey;
	}
	return proto_send(a->fd, "ok status=%s rkey=%u vendor_err=%u", agent_wc_status_str(wc.status),
			  o->mw_rkey, wc.vendor_err);
}

static int do_create_qp(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *pd = agent_field_obj(a, "pd", AO_PD, 0);
	struct ibv_qp_init_attr qia;

	if (!o || !pd)
		return agent_reply_err(a, EINVAL, "bad create_qp request");
	*o = (struct aobj){ .kind = AO_QP, .qp_access = (uint32_t)agent_num(a, "access", 0) };
	o->scq = ibv_create_cq(a->ctx, 64, NULL, NULL, 0);
	o->rcq = o->scq ? ibv_create_cq(a->ctx, 64, NULL, NULL, 0) : NULL;
	if (!o->rcq)
		goto err_cq;
	memset(&qia, 0, sizeof(qia));
	qia.send_cq = o->scq;
	qia.recv_cq = o->rcq;
	o->qp_uc = agent_num(a, "type", 0) == 1;
	o->qp_ud = agent_num(a, "type", 0) == 2;
	qia.qp_type = o->qp_ud ? IBV_QPT_UD : o->qp_uc ? IBV_QPT_UC : IBV_QPT_RC;
	qia.sq_sig_all = 1;
	qia.srq = agent_srq(a);
	qia.cap = (struct ibv_qp_cap){ .max_send_wr = 32, .max_recv_wr = (uint32_t)agent_num(a, "max_recv_wr", 16),
				       .max_send_sge = 1, .max_recv_sge = 1,
				       .max_inline_data = (uint32_t)agent_num(a, "max_inline", 0) };
	o->qp = ibv_create_qp(pd->pd, &qia);
	if (!o->qp) {
		int e = errno;

		ibv_destroy_cq(o->rcq);
		ibv_destroy_cq(o->scq);
		o->rcq = o->scq = NULL;
		return agent_reply_err(a, e, "ibv_create_qp: %s", strerror(e));
	}
	o->live = 1;
	return proto_send(a->fd, "ok qpn=%u", o->qp->qp_num);
err_cq:
	{
		int e = errno;

		if (o->scq)
			ibv_destroy_cq(o->scq);
		o->scq = NULL;
		return agent_reply_err(a, e, "ibv_create_cq: %s", strerror(e));
	}
}

static int do_connect(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_QP, 1);
	char hex[64];
	uint64_t rqpn;
	int rc;

	if (!o || proto_get_u64(a->msg, "rqpn", &rqpn) || proto_get(a->msg, "rgid", hex, sizeof(hex)))
		return agent_reply_err(a, EINVAL, "bad connect request");
	if ((rc = agent_qp_modify(a, o, IBV_QPS_INIT, 0)))
		return agent_reply_err(a, rc, "modify INIT: %s", strerror(rc));
	if ((rc = agent_qp_modify(a, o, IBV_QPS_RTR, 0)))
		return agent_reply_err(a, rc, "modify RTR: %s", strerror(rc));
	if ((rc = agent_qp_modify(a, o, IBV_QPS_RTS, 0)))
		return agent_reply_err(a, rc, "modify RTS: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

static int do_modify_qp(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_QP, 1);
	char st[16];
	struct ibv_qp_attr at = { 0 };
	int rc;

	if (!o || proto_get(a->msg, "state", st, sizeof(st)))
		return agent_reply_err(a, EINVAL, "bad modify_qp request");
	if (strcmp(st, "ERR") == 0)
		at.qp_state = IBV_QPS_ERR;
	else if (strcmp(st, "RESET") == 0)
		at.qp_state = IBV_QPS_RESET;
	else
		return agent_reply_err(a, EINVAL, "modify_qp: state %s not supported", st);
	rc = ibv_modify_qp(o->qp, &at, IBV_QP_STATE);
	if (rc)
		return agent_reply_err(a, rc, "ibv_modify_qp: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

static int do_destroy(struct agent *a, enum aobj_kind k)
{
	struct aobj *o = agent_field_obj(a, "id", k, 1);
	int rc = EINVAL;

	if (!o)
		return agent_reply_err(a, EINVAL, "no such live object");
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
		return agent_reply_err(a, rc, "destroy: %s", strerror(rc));
	o->live = 0;
	o->mr = NULL;
	return proto_send(a->fd, "ok");
}

static int do_post(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 1);
	char op[16];
	struct ibv_sge sge = { .addr = agent_num(a, "laddr", 0), .length = (uint32_t)agent_num(a, "len", 0),
			       .lkey = (uint32_t)agent_num(a, "lkey", 0) };
	struct ibv_send_wr wr = { .wr_id = ++a->next_wr, .sg_list = &sge, .num_sge = 1,
				  .send_flags = IBV_SEND_SIGNALED }, *bad = NULL;
	struct ibv_wc wc;
	int rc;

	if (!q || proto_get(a->msg, "op", op, sizeof(op)))
		return agent_reply_err(a, EINVAL, "bad post request");
	wr.wr.rdma.remote_addr = agent_num(a, "raddr", 0);
	wr.wr.rdma.rkey = (uint32_t)agent_num(a, "rkey", 0);
	if (strcmp(op, "write") == 0) {
		wr.opcode = IBV_WR_RDMA_WRITE;
	} else if (strcmp(op, "write_imm") == 0) {
		wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr.imm_data = 0;
	} else if (strcmp(op, "read") == 0) {
		wr.opcode = IBV_WR_RDMA_READ;
	} else if (strcmp(op, "cas") == 0 || strcmp(op, "fadd") == 0) {
		wr.opcode = op[0] == 'c' ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
		wr.wr.atomic.remote_addr = agent_num(a, "raddr", 0);
		wr.wr.atomic.rkey = (uint32_t)agent_num(a, "rkey", 0);
		wr.wr.atomic.compare_add = agent_num(a, "compare", 0);
		wr.wr.atomic.swap = agent_num(a, "swap", 0);
	} else if (strcmp(op, "send") == 0) {
		uint64_t inv;

		wr.opcode = agent_num(a, "imm", 0) ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		if (proto_get_u64(a->msg, "inv", &inv) == 0) {
			wr.opcode = IBV_WR_SEND_WITH_INV;
			wr.invalidate_rkey = (uint32_t)inv;
		}
	} else if (strcmp(op, "local_inv") == 0) {
		wr.opcode = IBV_WR_LOCAL_INV;
		wr.invalidate_rkey = (uint32_t)agent_num(a, "inv", 0);
		wr.num_sge = 0;
		wr.sg_list = NULL;
	} else {
		return agent_reply_err(a, EINVAL, "unknown post op %s", op);
	}
	if (agent_num(a, "inline", 0))
		wr.send_flags |= IBV_SEND_INLINE;
	if (agent_ud_wr(a, &wr))
		return agent_reply_err(a, EINVAL, "no such live AH");
	rc = ibv_post_send(q->qp, &wr, &bad);
	if (rc)
		return agent_reply_err(a, rc, "ibv_post_send: %s", strerror(rc));
	rc = wait_wc(q->scq, wr.wr_id, (int)agent_num(a, "wait_ms", (uint64_t)a->step_ms), &wc);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion in time", ETIMEDOUT);
	if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	return proto_send(a->fd, "ok status=%s vendor_err=%u", agent_wc_status_str(wc.status), wc.vendor_err);
}

static int do_recv(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 1);
	struct ibv_sge sge = { .addr = agent_num(a, "laddr", 0), .length = (uint32_t)agent_num(a, "len", 0),
			       .lkey = (uint32_t)agent_num(a, "lkey", 0) };
	struct ibv_recv_wr wr = { .wr_id = ++a->next_wr, .sg_list = &sge, .num_sge = 1 }, *bad = NULL;
	int rc;

	if (!q)
		return agent_reply_err(a, EINVAL, "bad recv request");
	rc = ibv_post_recv(q->qp, &wr, &bad);
	if (rc)
		return agent_reply_err(a, rc, "ibv_post_recv: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

/* " state=S" of live QP q, or "" if ibv_query_qp fails (out: 16 bytes). */
static void qp_state_field(struct aobj *q, char *out)
{
	struct ibv_qp_attr at;
	struct ibv_qp_init_attr init;

	out[0] = '\0';
	if (ibv_query_qp(q->qp, &at, IBV_QP_STATE, &init) == 0)
		snprintf(out, 16, " state=%s", agent_qp_state_str(at.qp_state));
}

/* The peer's facts in one answer: its next receive completion (waiting up to wait_ms), then its QP state. */
static int do_recvs(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 0);
	int64_t deadline = proto_now_ms() + (int64_t)agent_num(a, "wait_ms", 0);
	struct ibv_wc wc;
	char state[16];

	if (!q)
		return agent_reply_err(a, EINVAL, "bad recvs request");
	if (!q->live)
		return agent_reply_err(a, ENOENT, "the QP was destroyed");
	for (;;) {
		int got = ibv_poll_cq(q->rcq, 1, &wc);

		if (got < 0)
			return agent_reply_err(a, EIO, "ibv_poll_cq failed");
		if (got == 1 || proto_now_ms() >= deadline) {
			qp_state_field(q, state);
			if (got == 1)
				return proto_send(a->fd, "ok n=1 status=%s%s", agent_wc_status_str(wc.status), state);
			return proto_send(a->fd, "ok n=0%s", state);
		}
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
}

static int do_query_qp(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 0);
	struct ibv_qp_attr at;
	struct ibv_qp_init_attr init;
	int rc;

	if (!q)
		return agent_reply_err(a, EINVAL, "bad query_qp request");
	if (!q->live)
		return agent_reply_err(a, ENOENT, "the QP was destroyed");
	rc = ibv_query_qp(q->qp, &at, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS, &init);
	if (rc)
		return agent_reply_err(a, rc, "ibv_query_qp: %s", strerror(rc));
	return proto_send(a->fd, "ok state=%s access=%u", agent_qp_state_str(at.qp_state), at.qp_access_flags);
}


static int do_dealloc_pd(struct agent *a) { return do_destroy(a, AO_PD); }
static int do_dereg_mr(struct agent *a) { return do_destroy(a, AO_MR); }
static int do_dealloc_mw(struct agent *a) { return do_destroy(a, AO_MW); }
static int do_destroy_qp(struct agent *a) { return do_destroy(a, AO_QP); }

const struct agent_req agent_verbs_reqs[] = {
	{ "alloc_pd", do_alloc_pd },     { "dealloc_pd", do_dealloc_pd },
	{ "reg_mr", do_reg_mr },         { "dereg_mr", do_dereg_mr },
	{ "rereg_mr", do_rereg_mr },     { "alloc_mw", do_alloc_mw },
	{ "bind_mw", do_bind_mw },       { "dealloc_mw", do_dealloc_mw },
	{ "create_qp", do_create_qp },   { "destroy_qp", do_destroy_qp },
	{ "connect", do_connect },       { "modify_qp", do_modify_qp },
	{ "post", do_post },             { "recv", do_recv },
	{ "recvs", do_recvs },           { "query_qp", do_query_qp },
	{ "qp_to", agent_qp_to },        { "create_ah", agent_create_ah },
	{ "destroy_ah", agent_destroy_ah },   { "create_srq", agent_create_srq },
	{ "destroy_srq", agent_destroy_srq }, { "srq_recv", agent_srq_recv },
	{ NULL, NULL },
};

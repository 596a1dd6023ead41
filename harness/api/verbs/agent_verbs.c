/* agent_verbs.c — the agent's libibverbs requests (protocol in agent.h). */
#include "harness/agent/agent_internal.h"
#include "harness/api/verbs/agent_qpstate.h"
#include "harness/api/verbs/agent_cq.h"
#include "harness/api/verbs/agent_device.h"
#include "harness/api/verbs/agent_fields.h"
#include "harness/api/verbs/agent_handle.h"
#include "harness/api/verbs/agent_qpex.h"
#include "harness/api/verbs/agent_sge.h"
#include "harness/api/verbs/agent_wrpost.h"
#include "harness/api/verbs/api_verbs.h"

#include <arpa/inet.h>
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
	int64_t since = proto_now_ms(), deadline = since + budget_ms;

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
		agent_poll_pause(since);
	}
}

#define UNSIGNALED_WAIT_MS 300 /* an unsignaled WR without a completion by then succeeded */

/*
 * The completion of send WR wr_id of QP q (signaled: sig) within budget_ms
 * (an unsignaled one: UNSIGNALED_WAIT_MS): 0 and *wc, 1 when an unsignaled
 * WR gave none (it succeeded), -ETIMEDOUT, or -EIO.
 */
static int wait_send(struct agent *a, struct aobj *q, uint64_t wr_id, int sig, int budget_ms, struct ibv_wc *wc)
{
	struct aobj *c = (q->cq_given & AGENT_CQ_SEND) ? agent_cq_of(a, q->scq) : NULL;
	int rc;

	if (!sig)
		budget_ms = UNSIGNALED_WAIT_MS;
	rc = c ? agent_cq_wait(c, q->qp->qp_num, wr_id, budget_ms, wc) : wait_wc(q->scq, wr_id, budget_ms, wc);
	return rc == -ETIMEDOUT && !sig ? 1 : rc;
}

/* Wait for send WR wr_id of q and answer its status, or for an unsignaled WR that gave none, a plain ok. */
static int answer_send(struct agent *a, struct aobj *q, uint64_t wr_id, int sig, int budget_ms)
{
	struct ibv_wc wc;
	int rc = wait_send(a, q, wr_id, sig, budget_ms, &wc);

	if (rc == 1)
		return proto_send(a->fd, "ok");
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion in time", ETIMEDOUT);
	if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	return proto_send(a->fd, "ok status=%s vendor_err=%u opcode=%s", agent_wc_status_str(wc.status), wc.vendor_err,
			  agent_wc_opcode_str(wc.opcode));
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
	struct aobj *o = agent_field_obj(a, "id", AO_MR, 1), *pd = NULL, *src = NULL;
	int flags = (int)agent_num(a, "flags", 0), rc;
	uint64_t len = agent_num(a, "len", 0), boff = agent_num(a, "boff", 0), id;
	uint8_t *addr;

	if (!o)
		return agent_reply_err(a, EINVAL, "bad rereg_mr request");
	if (proto_get_u64(a->msg, "buf", &id) == 0 &&
	    (!(src = agent_field_obj(a, "buf", AO_MR, 0)) || !src->buf || boff > src->len || len > src->len - boff))
		return agent_reply_err(a, EINVAL, "bad rereg_mr buf");
	if (flags & IBV_REREG_MR_CHANGE_PD) {
		pd = agent_field_obj(a, "pd", AO_PD, 0);
		if (!pd)
			return agent_reply_err(a, EINVAL, "bad rereg_mr pd");
	}
	/* CHANGE_TRANSLATION re-registers [addr, addr+len): the MR's own buffer, or buf='s from
	 * boff; len 0 (the scenario gave none) passes NULL and 0, which libibverbs must refuse
	 * (MR-REREG-2). */
	addr = src ? src->buf + boff : o->buf;
	errno = 0;
	rc = ibv_rereg_mr(o->mr, flags, pd ? pd->pd : NULL, len ? addr : NULL, len, (int)agent_num(a, "access", 0));
	if (rc)
		return agent_reply_err(a, errno ? errno : EINVAL, "ibv_rereg_mr: %d", rc);
	if (src) { /* the MR's bytes are src's buffer's now, one more reference to it */
		agent_buffer_share(o, src, len);
		o->buf += boff;
	}
	return proto_send(a->fd, "ok lkey=%u rkey=%u addr=0x%llx", o->mr->lkey, o->mr->rkey,
			  (unsigned long long)(uintptr_t)o->buf);
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
	uint64_t wr_id = agent_num(a, "wr", ++a->next_wr);
	unsigned sig = agent_num(a, "sig", 1) ? IBV_SEND_SIGNALED : 0;
	uint64_t wrx = agent_num(a, "wrx", 0);
	uint32_t rkey;
	int rc;

	if (!o || !q || (m ? !m->mr : (int64_t)agent_num(a, "mr", 0) >= 0)) /* mr=-1: NULL (MW-BIND-2) */
		return agent_reply_err(a, EINVAL, "bad bind_mw request");
	bi = (struct ibv_mw_bind_info){ .mr = m ? m->mr : NULL, .addr = agent_num(a, "addr", 0), .length = agent_num(a, "len", 0),
					.mw_access_flags = (unsigned)agent_num(a, "access", 0) |
							   (agent_num(a, "zero_based", 0) ? IBV_ACCESS_ZERO_BASED : 0) };
	if (o->mw->type == IBV_MW_TYPE_1 || agent_num(a, "call", 0)) { /* call: ibv_bind_mw() whatever the type */
		struct ibv_mw_bind b = { .wr_id = wr_id, .send_flags = sig, .bind_info = bi };

		rc = ibv_bind_mw(q->qp, o->mw, &b);
		rkey = o->mw->rkey;
	} else {
		struct ibv_send_wr wr = { .wr_id = wr_id, .opcode = IBV_WR_BIND_MW, .send_flags = sig }, *bad = NULL;

		rkey = ibv_inc_rkey(o->mw_rkey);
		wr.bind_mw.mw = o->mw;
		wr.bind_mw.rkey = rkey;
		wr.bind_mw.bind_info = bi;
		rc = wrx ? agent_wr_post(q->qp, &wr, wrx == 2) : ibv_post_send(q->qp, &wr, &bad);
	}
	if (rc)
		return agent_reply_err(a, rc, "bind post: %s", strerror(rc));
	if (wrx == 2)
		return proto_send(a->fd, "ok rkey=%u", o->mw_rkey); /* ibv_wr_abort: not bound */
	rc = wait_send(a, q, wr_id, sig != 0, a->step_ms, &wc);
	if (rc == 1)
		wc = (struct ibv_wc){ .status = IBV_WC_SUCCESS }; /* unsignaled: no completion, it succeeded */
	else if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no bind completion in time", ETIMEDOUT);
	else if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	if (wc.status == IBV_WC_SUCCESS) {
		/* The provider takes a type-2 bind's current rkey from mw->rkey and
		 * post_send does not update it: the application must (MW-KEY-2). */
		o->mw_rkey = rkey;
		o->mw->rkey = rkey;
	}
	if (rc == 1)
		return proto_send(a->fd, "ok rkey=%u", o->mw_rkey);
	return proto_send(a->fd, "ok status=%s rkey=%u vendor_err=%u", agent_wc_status_str(wc.status),
			  o->mw_rkey, wc.vendor_err);
}

/* Destroy the CQs QP object o made for itself (not CQ objects'); forget them all. */
static void own_cqs_destroy(struct aobj *o)
{
	if (o->rcq && !(o->cq_given & AGENT_CQ_RECV))
		ibv_destroy_cq(o->rcq);
	if (o->scq && !(o->cq_given & AGENT_CQ_SEND))
		ibv_destroy_cq(o->scq);
	o->rcq = o->scq = NULL;
}

/* create_qp's scq=/rcq=: CQ objects to complete into (-1 or none: one of its own). -EINVAL for a bad one. */
static int qp_cqs(struct agent *a, struct aobj *o)
{
	static const char *const key[2] = { "scq", "rcq" };

	for (int i = 0; i < 2; i++) {
		uint64_t v;
		struct aobj *c;

		if (proto_get_u64(a->msg, key[i], &v) || (int64_t)v < 0)
			continue;
		if (!(c = agent_field_obj(a, key[i], AO_CQ, 1)))
			return -EINVAL;
		o->cq_given |= i ? AGENT_CQ_RECV : AGENT_CQ_SEND;
		if (i)
			o->rcq = c->scq;
		else
			o->scq = c->scq;
	}
	return 0;
}

static int do_create_qp(struct agent *a)
{
	struct aobj *o = agent_new_obj(a), *pd = agent_field_obj(a, "pd", AO_PD, 0);
	struct ibv_qp_init_attr qia;

	if (!o || !pd)
		return agent_reply_err(a, EINVAL, "bad create_qp request");
	*o = (struct aobj){ .kind = AO_QP, .qp_access = (uint32_t)agent_num(a, "access", 0) };
	if (qp_cqs(a, o))
		return agent_reply_err(a, EINVAL, "bad create_qp cq");
	if (!(o->cq_given & AGENT_CQ_SEND))
		o->scq = ibv_create_cq(a->ctx, 64, NULL, NULL, 0);
	if (o->scq && !(o->cq_given & AGENT_CQ_RECV))
		o->rcq = ibv_create_cq(a->ctx, 64, NULL, NULL, 0);
	if (!o->scq || !o->rcq)
		goto err_cq;
	memset(&qia, 0, sizeof(qia));
	qia.send_cq = o->scq;
	qia.recv_cq = o->rcq;
	o->qp_uc = agent_num(a, "type", 0) == 1;
	o->qp_ud = agent_num(a, "type", 0) == 2;
	qia.qp_type = o->qp_ud ? IBV_QPT_UD : o->qp_uc ? IBV_QPT_UC : IBV_QPT_RC;
	qia.srq = agent_srq(a);
	qia.sq_sig_all = (int)agent_num(a, "sig_all", 0); /* posts ask for a completion themselves */
	qia.cap = (struct ibv_qp_cap){ .max_send_wr = agent_limit(a, "max_send_wr", 32, AGENT_LIM_QP_WR), .max_recv_wr = agent_limit(a, "max_recv_wr", 16, AGENT_LIM_QP_WR),
				       .max_send_sge = agent_limit(a, "max_send_sge", 1, AGENT_LIM_SGE), .max_recv_sge = agent_limit(a, "max_recv_sge", 1, AGENT_LIM_SGE),
				       .max_inline_data = (uint32_t)agent_num(a, "max_inline", 0) };
	o->qp = agent_num(a, "ex", 0) ? agent_qpex_create(pd->pd, &qia, agent_num(a, "sops", 0)) : ibv_create_qp(pd->pd, &qia);
	if (!o->qp) {
		int e = errno;

		own_cqs_destroy(o);
		return agent_reply_err(a, e, "ibv_create_qp%s: %s", agent_num(a, "ex", 0) ? "_ex" : "", strerror(e));
	}
	o->live = 1;
	return proto_send(a->fd, "ok qpn=%u", o->qp->qp_num);
err_cq:
	{
		int e = errno;

		own_cqs_destroy(o);
		return agent_reply_err(a, e, "ibv_create_cq: %s", strerror(e));
	}
}

/* Live QP q's state into *st: 0, else ibv_query_qp's error. */
static int qp_state(struct aobj *q, enum ibv_qp_state *st)
{
	struct ibv_qp_attr at;
	struct ibv_qp_init_attr init;
	int rc = ibv_query_qp(q->qp, &at, IBV_QP_STATE, &init);

	if (rc == 0)
		*st = at.qp_state;
	return rc;
}

static int do_connect(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_QP, 1);
	enum ibv_qp_state st;
	char hex[64];
	uint64_t rqpn;
	int rc;

	if (!o || proto_get_u64(a->msg, "rqpn", &rqpn) || proto_get(a->msg, "rgid", hex, sizeof(hex)))
		return agent_reply_err(a, EINVAL, "bad connect request");
	/* connect starts from RESET (QP-CONN-1): INIT to INIT is a transition ibv_modify_qp allows,
	 * so walking them would connect a QP that modify_qp took to INIT. */
	if ((rc = qp_state(o, &st)))
		return agent_reply_err(a, rc, "ibv_query_qp: %s", strerror(rc));
	if (st != IBV_QPS_RESET)
		return agent_reply_err(a, EINVAL, "connect: the QP is in %s, not RESET", agent_qp_state_str(st));
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
			own_cqs_destroy(o);
			o->qp = NULL;
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

/* The request's numeric field pfx+key (a chain's WR i: pfx "wI."), or dflt. */
static uint64_t wr_num(struct agent *a, const char *pfx, const char *key, uint64_t dflt)
{
	char k[32];

	snprintf(k, sizeof(k), "%s%s", pfx, key);
	return agent_num(a, k, dflt);
}

/* Send WR *wr and its SGE *sge from the request's fields after pfx. Returns 0 or -EINVAL (unknown op). */
static int fill_wr(struct agent *a, const char *pfx, struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	char op[16], k[32];
	uint64_t inv;

	*sge = (struct ibv_sge){ .addr = wr_num(a, pfx, "laddr", 0), .length = (uint32_t)wr_num(a, pfx, "len", 0),
				 .lkey = (uint32_t)wr_num(a, pfx, "lkey", 0) };
	*wr = (struct ibv_send_wr){ .wr_id = wr_num(a, pfx, "wr", ++a->next_wr), .sg_list = sge, .num_sge = 1,
				    .send_flags = wr_num(a, pfx, "sig", 1) ? IBV_SEND_SIGNALED : 0 };
	snprintf(k, sizeof(k), "%sop", pfx);
	if (proto_get(a->msg, k, op, sizeof(op)))
		return -EINVAL;
	wr->wr.rdma.remote_addr = wr_num(a, pfx, "raddr", 0);
	wr->wr.rdma.rkey = (uint32_t)wr_num(a, pfx, "rkey", 0);
	snprintf(k, sizeof(k), "%sinv", pfx);
	if (strcmp(op, "write") == 0) {
		wr->opcode = IBV_WR_RDMA_WRITE;
	} else if (strcmp(op, "write_imm") == 0) {
		wr->opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr->imm_data = htonl((uint32_t)wr_num(a, pfx, "imm_data", 0)); /* network byte order */
	} else if (strcmp(op, "read") == 0) {
		wr->opcode = IBV_WR_RDMA_READ;
	} else if (strcmp(op, "cas") == 0 || strcmp(op, "fadd") == 0) {
		wr->opcode = op[0] == 'c' ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
		wr->wr.atomic.remote_addr = wr_num(a, pfx, "raddr", 0);
		wr->wr.atomic.rkey = (uint32_t)wr_num(a, pfx, "rkey", 0);
		wr->wr.atomic.compare_add = wr_num(a, pfx, "compare", 0);
		wr->wr.atomic.swap = wr_num(a, pfx, "swap", 0);
	} else if (strcmp(op, "send") == 0) {
		wr->opcode = wr_num(a, pfx, "imm", 0) ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
		wr->imm_data = htonl((uint32_t)wr_num(a, pfx, "imm_data", 0));
		if (proto_get_u64(a->msg, k, &inv) == 0) {
			wr->opcode = IBV_WR_SEND_WITH_INV;
			wr->invalidate_rkey = (uint32_t)inv;
		}
	} else if (strcmp(op, "local_inv") == 0) {
		wr->opcode = IBV_WR_LOCAL_INV;
		wr->invalidate_rkey = (uint32_t)wr_num(a, pfx, "inv", 0);
		wr->num_sge = 0;
		wr->sg_list = NULL;
	} else {
		return -EINVAL;
	}
	if (wr_num(a, pfx, "inline", 0))
		wr->send_flags |= IBV_SEND_INLINE;
	if (wr_num(a, pfx, "sol", 0))
		wr->send_flags |= IBV_SEND_SOLICITED;
	if (wr_num(a, pfx, "nosge", 0)) {
		wr->num_sge = 0;
		wr->sg_list = NULL;
	}
	return 0;
}

static int do_post(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 1);
	struct ibv_sge sge, *list = NULL;
	struct ibv_send_wr wr, *bad = NULL;
	uint64_t wrx;
	int rc;

	if (!q || fill_wr(a, "", &wr, &sge) || agent_sge_list(a, &wr, &list))
		return agent_reply_err(a, EINVAL, "bad post request");
	if (agent_ud_wr(a, &wr)) {
		free(list);
		return agent_reply_err(a, EINVAL, "no such live AH");
	}
	if (agent_num(a, "nowait", 0) && !(q->cq_given & AGENT_CQ_SEND)) {
		free(list);
		return agent_reply_err(a, EINVAL, "nowait: the QP's send CQ is no CQ object");
	}
	wrx = agent_num(a, "wrx", 0);
	rc = wrx ? agent_wr_post(q->qp, &wr, wrx == 2) : ibv_post_send(q->qp, &wr, &bad);
	free(list); /* the caller's SGE list is needed only until the post returns */
	if (rc)
		return agent_reply_err(a, rc, "%s: %s", wrx ? "ibv_wr_complete" : "ibv_post_send", strerror(rc));
	if (wrx == 2)
		return proto_send(a->fd, "ok"); /* ibv_wr_abort: nothing posted, no completion */
	if (agent_num(a, "nowait", 0))
		return proto_send(a->fd, "ok"); /* its completion is a wait request's */
	return answer_send(a, q, wr.wr_id, (wr.send_flags & IBV_SEND_SIGNALED) != 0,
			   (int)agent_num(a, "wait_ms", (uint64_t)a->step_ms));
}


/*
 * The statuses st[i] of chain WRs wr[0..posted) of QP q whose send CQ is a CQ
 * object, which keeps every completion: each waited for in turn ("none": an
 * unsignaled one that gave none). Returns 0, -ETIMEDOUT or -EIO.
 */
static int chain_cq_object(struct agent *a, struct aobj *q, const struct ibv_send_wr *wr, size_t posted,
			   const char **st)
{
	for (size_t i = 0; i < posted; i++) {
		struct ibv_wc wc;
		int w = wait_send(a, q, wr[i].wr_id, (wr[i].send_flags & IBV_SEND_SIGNALED) != 0, a->step_ms, &wc);

		if (w < 0)
			return w;
		st[i] = w ? "none" : agent_wc_status_str(wc.status);
	}
	return 0;
}

/*
 * The same for a QP whose send CQ is its own: every completion polled goes
 * to its WR (waiting for one WR must not drop an earlier unsignaled one's
 * error); after the last signaled WR's, unsignaled WRs behind it get
 * UNSIGNALED_WAIT_MS to fail.
 */
static int chain_own_cq(struct agent *a, struct aobj *q, const struct ibv_send_wr *wr, size_t posted,
			const char **st)
{
	int64_t deadline = proto_now_ms() + a->step_ms, quiet = -1;
	size_t left = 0, last = 0;

	for (size_t i = 0; i < posted; i++) {
		st[i] = NULL;
		if (wr[i].send_flags & IBV_SEND_SIGNALED) {
			left++;
			last = i + 1;
		}
	}
	for (;;) {
		struct ibv_wc wc;
		int got = ibv_poll_cq(q->scq, 1, &wc);

		if (got < 0)
			return -EIO;
		for (size_t i = 0; got == 1 && i < posted; i++)
			if (wr[i].wr_id == wc.wr_id && !st[i]) {
				st[i] = agent_wc_status_str(wc.status);
				left -= (wr[i].send_flags & IBV_SEND_SIGNALED) != 0;
			}
		if (got == 1)
			continue;
		if (left == 0 && quiet < 0)
			quiet = proto_now_ms() + (last < posted ? UNSIGNALED_WAIT_MS : 0);
		if (left == 0 && proto_now_ms() >= quiet)
			break;
		if (proto_now_ms() >= deadline)
			return -ETIMEDOUT;
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
	for (size_t i = 0; i < posted; i++)
		if (!st[i])
			st[i] = "none";
	return 0;
}

/*
 * n WRs (fields w0. .. wN-1.) in one ibv_post_send: "ok posted=P [errno=E]
 * s0=STATUS…" — the first P were posted (each its completion's status, none
 * for an unsignaled one that gave none), WR P was refused with E (LP-7).
 */
static int do_post_chain(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 1);
	size_t n = (size_t)agent_num(a, "n", 0), posted, off;
	struct ibv_sge sge[AGENT_CHAIN_MAX];
	struct ibv_send_wr wr[AGENT_CHAIN_MAX], *bad = NULL;
	const char *st[AGENT_CHAIN_MAX];
	char line[512];
	int rc;

	if (!q || n < 1 || n > AGENT_CHAIN_MAX)
		return agent_reply_err(a, EINVAL, "bad post_chain request");
	for (size_t i = 0; i < n; i++) {
		char pfx[24];

		snprintf(pfx, sizeof(pfx), "w%zu.", i);
		if (fill_wr(a, pfx, &wr[i], &sge[i]))
			return agent_reply_err(a, EINVAL, "bad post_chain WR %zu", i);
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	rc = ibv_post_send(q->qp, wr, &bad);
	posted = rc == 0 ? n : bad >= wr && bad < wr + n ? (size_t)(bad - wr) : 0;
	off = (size_t)snprintf(line, sizeof(line), "ok posted=%zu", posted);
	if (rc)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " errno=%d", rc);
	rc = (q->cq_given & AGENT_CQ_SEND) ? chain_cq_object(a, q, wr, posted, st) : chain_own_cq(a, q, wr, posted, st);
	if (rc == -ETIMEDOUT)
		return proto_send(a->fd, "err errno=%d timeout=1 msg=no completion of the chain in time", ETIMEDOUT);
	if (rc)
		return agent_reply_err(a, -rc, "polling the CQ: %s", strerror(-rc));
	for (size_t i = 0; i < posted; i++)
		off += (size_t)snprintf(line + off, sizeof(line) - off, " s%zu=%s", i, st[i]);
	return proto_send(a->fd, "%s", line);
}

static int do_recv(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 1);
	struct ibv_sge sge = { .addr = agent_num(a, "laddr", 0), .length = (uint32_t)agent_num(a, "len", 0),
			       .lkey = (uint32_t)agent_num(a, "lkey", 0) };
	struct ibv_recv_wr wr = { .wr_id = agent_num(a, "wr", ++a->next_wr) | AGENT_WR_RECV, .sg_list = &sge,
				  .num_sge = 1 }, *bad = NULL;
	struct ibv_sge *list = NULL;
	int rc;

	if (!q || agent_sge_fill(a, &wr.sg_list, &wr.num_sge, &list))
		return agent_reply_err(a, EINVAL, "bad recv request");
	if (agent_num(a, "nosge", 0)) {
		wr.num_sge = 0;
		wr.sg_list = NULL;
	}
	rc = ibv_post_recv(q->qp, &wr, &bad);
	free(list); /* needed only until the post returns, as a send's (agent_sge.c) */
	if (rc)
		return agent_reply_err(a, rc, "ibv_post_recv: %s", strerror(rc));
	return proto_send(a->fd, "ok");
}

/* " state=S" of live QP q, or "" if ibv_query_qp fails (out: 16 bytes). */
static void qp_state_field(struct aobj *q, char *out)
{
	enum ibv_qp_state st;

	out[0] = '\0';
	if (qp_state(q, &st) == 0)
		snprintf(out, 16, " state=%s", agent_qp_state_str(st));
}

/*
 * " status=S opcode=O len=N flags=F imm=N|inv=N" of receive completion wc:
 * flags its wc_flags as they are, imm (with IBV_WC_WITH_IMM) in host order,
 * else inv: the union's other member, invalidated_rkey, as it is (whichever
 * bit a provider marks it with).
 */
static void recv_wc_fields(const struct ibv_wc *wc, char *out, size_t len)
{
	int off = snprintf(out, len, " status=%s opcode=%s len=%u flags=%u", agent_wc_status_str(wc->status),
			   agent_wc_opcode_str(wc->opcode), wc->byte_len, wc->wc_flags);

	if (off > 0 && (size_t)off < len && (wc->wc_flags & IBV_WC_WITH_IMM))
		snprintf(out + off, len - (size_t)off, " imm=%u", ntohl(wc->imm_data));
	else if (off > 0 && (size_t)off < len)
		snprintf(out + off, len - (size_t)off, " inv=%u", wc->invalidated_rkey);
}

/* The peer's facts in one answer: its next receive completion (waiting up to wait_ms), then its QP state. */
static int do_recvs(struct agent *a)
{
	struct aobj *q = agent_field_obj(a, "id", AO_QP, 0);
	int64_t since = proto_now_ms(), deadline = since + (int64_t)agent_num(a, "wait_ms", 0);
	struct ibv_wc wc;
	char state[16], fields[128];

	if (!q)
		return agent_reply_err(a, EINVAL, "bad recvs request");
	if (!q->live)
		return agent_reply_err(a, ENOENT, "the QP was destroyed");
	if (q->cq_given & AGENT_CQ_RECV) { /* a CQ object's: look, and leave it for poll_cq */
		struct aobj *c = agent_cq_of(a, q->rcq);
		int got = c ? agent_cq_peek_recv(c, q->qp->qp_num, (int)agent_num(a, "wait_ms", 0), &wc) : -EIO;

		if (got < 0)
			return agent_reply_err(a, EIO, "ibv_poll_cq failed");
		qp_state_field(q, state);
		if (got) {
			recv_wc_fields(&wc, fields, sizeof(fields));
			return proto_send(a->fd, "ok n=1%s%s", fields, state);
		}
		return proto_send(a->fd, "ok n=0%s", state);
	}
	for (;;) {
		int got = ibv_poll_cq(q->rcq, 1, &wc);

		if (got < 0)
			return agent_reply_err(a, EIO, "ibv_poll_cq failed");
		if (got == 1 || proto_now_ms() >= deadline) {
			qp_state_field(q, state);
			if (got == 1) {
				recv_wc_fields(&wc, fields, sizeof(fields));
				return proto_send(a->fd, "ok n=1%s%s", fields, state);
			}
			return proto_send(a->fd, "ok n=0%s", state);
		}
		agent_poll_pause(since);
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
	rc = ibv_query_qp(q->qp, &at,
			  IBV_QP_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_CAP | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC,
			  &init);
	if (rc)
		return agent_reply_err(a, rc, "ibv_query_qp: %s", strerror(rc));
	return proto_send(a->fd,
			  "ok state=%s access=%u max_send_wr=%u max_recv_wr=%u max_send_sge=%u max_recv_sge=%u max_inline=%u "
			  "max_rd_atomic=%u max_dest_rd_atomic=%u",
			  agent_qp_state_str(at.qp_state), at.qp_access_flags, at.cap.max_send_wr, at.cap.max_recv_wr,
			  at.cap.max_send_sge, at.cap.max_recv_sge, at.cap.max_inline_data, at.max_rd_atomic,
			  at.max_dest_rd_atomic);
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
	{ "post_chain", do_post_chain },
	{ "recvs", do_recvs },           { "query_qp", do_query_qp },
	{ "qp_to", agent_qp_to },        { "create_ah", agent_create_ah },
	{ "destroy_ah", agent_destroy_ah },   { "create_srq", agent_create_srq },
	{ "destroy_srq", agent_destroy_srq }, { "srq_recv", agent_srq_recv },
	{ "modify_srq", agent_modify_srq }, { "query_srq", agent_query_srq },
	{ "create_cq", agent_do_create_cq }, { "destroy_cq", agent_do_destroy_cq },
	{ "poll_cq", agent_do_poll_cq }, { "wait", agent_do_wait },
	{ "garble", agent_garble }, { "fields", agent_fields },
	{ "create_comp_channel", agent_do_create_comp_channel },
	{ "destroy_comp_channel", agent_do_destroy_comp_channel },
	{ "req_notify_cq", agent_do_req_notify_cq }, { "get_cq_event", agent_do_get_cq_event },
	{ "ack_cq_events", agent_do_ack_cq_events }, { "resize_cq", agent_do_resize_cq },
	{ "query_device", agent_do_query_device }, { "query_port", agent_do_query_port },
	{ "query_gid", agent_do_query_gid }, { "query_gid_table", agent_do_query_gid_table },
	{ "query_pkey", agent_do_query_pkey }, { "get_pkey_index", agent_do_get_pkey_index },
	{ NULL, NULL },
};

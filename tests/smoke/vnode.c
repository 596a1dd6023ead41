/* vnode.c — one node's verbs objects on the real stack (see vnode.h). */
#include "tests/smoke/vnode.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CQ_DEPTH 64

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	if (errlen > 0) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* Names of the devices in list, blank-separated, into out (for messages). */
static void device_names(struct ibv_device **list, int num, char *out, size_t cap)
{
	size_t off = 0;

	out[0] = '\0';
	for (int i = 0; i < num && off < cap; i++) {
		int w = snprintf(out + off, cap - off, "%s%s", i ? " " : "", ibv_get_device_name(list[i]));

		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/*
 * Check what the topology promised about port 1: the port is ACTIVE and the
 * GID at gid_index is a RoCE v2 GID (an empty slot or a RoCE v1 GID would
 * only show up later as a connection that never completes). Fills n->gid.
 */
static int check_port_and_gid(struct vnode *n, const char *ibdev, int gid_index, char *err, size_t errlen)
{
	struct ibv_port_attr pa;
	struct ibv_gid_entry ge;
	static const union ibv_gid zero;
	int rc;

	rc = ibv_query_port(n->ctx, n->port, &pa);
	if (rc)
		return fail(err, errlen, -rc, "ibv_query_port(%s, %u): %s", ibdev, n->port, strerror(rc));
	if (pa.state != IBV_PORT_ACTIVE)
		return fail(err, errlen, -ENETDOWN, "port %u of %s is %s, not ACTIVE (is its netdev up?)",
			    n->port, ibdev, ibv_port_state_str(pa.state));
	if (gid_index < 0 || gid_index >= pa.gid_tbl_len)
		return fail(err, errlen, -EINVAL, "gid_index %d out of range for %s (table of %d)",
			    gid_index, ibdev, pa.gid_tbl_len);
	rc = ibv_query_gid_ex(n->ctx, n->port, (uint32_t)gid_index, &ge, 0);
	if (rc == 0) {
		if (ge.gid_type != IBV_GID_TYPE_ROCE_V2)
			return fail(err, errlen, -EPROTOTYPE, "GID %d of %s is not RoCE v2 (type %u)",
				    gid_index, ibdev, ge.gid_type);
		n->gid = ge.gid;
	} else if (rc == EOPNOTSUPP || rc == ENOSYS) {
		/* Old kernel ABI without the GID type: take the GID unchecked. */
		if (ibv_query_gid(n->ctx, n->port, gid_index, &n->gid))
			return fail(err, errlen, -EINVAL, "ibv_query_gid(%s, %d) failed", ibdev, gid_index);
	} else {
		return fail(err, errlen, -rc, "GID %d of %s: %s (empty slot?)", gid_index, ibdev, strerror(rc));
	}
	if (memcmp(&n->gid, &zero, sizeof(zero)) == 0)
		return fail(err, errlen, -ENOENT, "GID %d of %s is empty", gid_index, ibdev);
	return 0;
}

int vnode_open(struct vnode *n, const char *ibdev, int gid_index, char *err, size_t errlen)
{
	struct ibv_device **list;
	struct ibv_qp_init_attr qia;
	char names[256];
	int num = 0, rc;

	memset(n, 0, sizeof(*n));
	n->port = 1;
	n->gid_index = gid_index;
	list = ibv_get_device_list(&num);
	if (!list) {
		rc = -errno;
		return fail(err, errlen, rc, "no RDMA stack on this host (ibv_get_device_list: %s; "
			    "is rdma_rxe loaded and the node up?)", strerror(-rc));
	}
	for (int i = 0; i < num && !n->ctx; i++)
		if (strcmp(ibv_get_device_name(list[i]), ibdev) == 0) {
			n->ctx = ibv_open_device(list[i]);
			if (!n->ctx) {
				rc = -errno;
				ibv_free_device_list(list);
				return fail(err, errlen, rc, "ibv_open_device(%s): %s", ibdev, strerror(-rc));
			}
		}
	device_names(list, num, names, sizeof(names));
	ibv_free_device_list(list);
	if (!n->ctx)
		return fail(err, errlen, -ENODEV, "no RDMA device named %s (%d present: %s)", ibdev, num,
			    num ? names : "none");

	rc = check_port_and_gid(n, ibdev, gid_index, err, errlen);
	if (rc)
		goto out_ctx;
	n->pd = ibv_alloc_pd(n->ctx);
	if (!n->pd) {
		rc = fail(err, errlen, -ENOMEM, "ibv_alloc_pd failed");
		goto out_ctx;
	}
	n->cq = ibv_create_cq(n->ctx, CQ_DEPTH, NULL, NULL, 0);
	if (!n->cq) {
		rc = fail(err, errlen, -errno, "ibv_create_cq: %s", strerror(errno));
		goto out_pd;
	}
	memset(&qia, 0, sizeof(qia));
	qia.send_cq = n->cq;
	qia.recv_cq = n->cq;
	qia.qp_type = IBV_QPT_RC;
	qia.sq_sig_all = 1;
	qia.cap.max_send_wr = 16;
	qia.cap.max_recv_wr = 16;
	qia.cap.max_send_sge = 1;
	qia.cap.max_recv_sge = 1;
	n->qp = ibv_create_qp(n->pd, &qia);
	if (!n->qp) {
		rc = fail(err, errlen, -errno, "ibv_create_qp: %s", strerror(errno));
		goto out_cq;
	}
	return 0;

out_cq:
	ibv_destroy_cq(n->cq);
out_pd:
	ibv_dealloc_pd(n->pd);
out_ctx:
	ibv_close_device(n->ctx);
	memset(n, 0, sizeof(*n));
	return rc;
}

void vnode_close(struct vnode *n)
{
	for (int i = VNODE_MR_MAX - 1; i >= 0; i--) {
		if (n->mr[i].mr)
			ibv_dereg_mr(n->mr[i].mr);
		free(n->mr[i].buf);
	}
	if (n->qp)
		ibv_destroy_qp(n->qp);
	if (n->cq)
		ibv_destroy_cq(n->cq);
	if (n->pd)
		ibv_dealloc_pd(n->pd);
	if (n->ctx)
		ibv_close_device(n->ctx);
	memset(n, 0, sizeof(*n));
}

struct vnode_mr *vnode_find(struct vnode *n, const char *name)
{
	for (int i = 0; i < VNODE_MR_MAX; i++)
		if (n->mr[i].mr && strcmp(n->mr[i].name, name) == 0)
			return &n->mr[i];
	return NULL;
}

int vnode_reg(struct vnode *n, const char *name, size_t len, int access, char *err, size_t errlen)
{
	struct vnode_mr *slot = NULL;
	long page = sysconf(_SC_PAGESIZE);
	int rc;

	if (strlen(name) >= VNODE_NAME_MAX || len == 0)
		return fail(err, errlen, -EINVAL, "bad MR name or length");
	if (vnode_find(n, name))
		return fail(err, errlen, -EEXIST, "MR %s exists", name);
	for (int i = 0; i < VNODE_MR_MAX && !slot; i++)
		if (!n->mr[i].mr)
			slot = &n->mr[i];
	if (!slot)
		return fail(err, errlen, -ENOSPC, "more than %d MRs", VNODE_MR_MAX);
	rc = posix_memalign(&slot->buf, page > 0 ? (size_t)page : 4096, len);
	if (rc)
		return fail(err, errlen, -rc, "posix_memalign: %s", strerror(rc));
	memset(slot->buf, 0, len);
	slot->mr = ibv_reg_mr(n->pd, slot->buf, len, access);
	if (!slot->mr) {
		rc = -errno;
		free(slot->buf);
		slot->buf = NULL;
		return fail(err, errlen, rc, "ibv_reg_mr: %s", strerror(-rc));
	}
	slot->len = len;
	memcpy(slot->name, name, strlen(name) + 1);
	return 0;
}

int vnode_connect(struct vnode *n, uint32_t remote_qpn, const union ibv_gid *remote_gid,
		  char *err, size_t errlen)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = n->port;
	a.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC;
	if (ibv_modify_qp(n->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return fail(err, errlen, -errno, "modify_qp(INIT): %s", strerror(errno));

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = remote_qpn;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *remote_gid;
	a.ah_attr.grh.sgid_index = (uint8_t)n->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = n->port;
	if (ibv_modify_qp(n->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return fail(err, errlen, -errno, "modify_qp(RTR): %s", strerror(errno));

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(n->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		return fail(err, errlen, -errno, "modify_qp(RTS): %s", strerror(errno));
	return 0;
}

int vnode_rdma(struct vnode *n, enum ibv_wr_opcode opcode, struct vnode_mr *m, uint32_t len,
	       uint64_t raddr, uint32_t rkey, int timeout_ms, struct ibv_wc *wc)
{
	struct ibv_sge sge = { .addr = (uintptr_t)m->buf, .length = len, .lkey = m->mr->lkey };
	struct ibv_send_wr wr, *bad = NULL;
	int64_t deadline = proto_now_ms() + timeout_ms;
	uint64_t id = ++n->next_wr_id;
	int rc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = opcode;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	rc = ibv_post_send(n->qp, &wr, &bad);
	if (rc)
		return -rc;
	for (;;) {
		int got = ibv_poll_cq(n->cq, 1, wc);

		if (got < 0)
			return -EIO;
		if (got == 1 && wc->wr_id == id)
			return 0;
		if (proto_now_ms() >= deadline)
			return -ETIMEDOUT;
		if (got == 0)
			poll(NULL, 0, 1);
	}
}

int vnode_qp_state(struct vnode *n, enum ibv_qp_state *state)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	int rc = ibv_query_qp(n->qp, &a, IBV_QP_STATE, &ia);

	if (rc)
		return -rc;
	*state = a.qp_state;
	return 0;
}

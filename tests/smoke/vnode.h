/*
 * vnode.h — the smoke test's node (tests/smoke/rc_smoke.c): device context,
 * PD, CQ, one RC QP and a small table of named MRs with their buffers. Errors: negative errno
 * (HACKING.md); a reason goes into the caller's err buffer.
 */
#ifndef RDMACHECK_SMOKE_VNODE_H
#define RDMACHECK_SMOKE_VNODE_H

#include <infiniband/verbs.h>
#include <stddef.h>
#include <stdint.h>

#define VNODE_MR_MAX 16
#define VNODE_NAME_MAX 32

struct vnode_mr {
	char name[VNODE_NAME_MAX];
	void *buf;
	size_t len;
	struct ibv_mr *mr;
};

struct vnode {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint8_t port;
	int gid_index;
	union ibv_gid gid;
	uint64_t next_wr_id;
	struct vnode_mr mr[VNODE_MR_MAX];
};

/*
 * Open the device named ibdev and create a PD, a CQ and an RC QP in INIT-ready
 * RESET state; look up the GID at gid_index on port 1. Returns 0, -ENODEV if
 * no such device, -ENETDOWN if port 1 is not ACTIVE, -EINVAL if gid_index is
 * out of the GID table, -EPROTOTYPE if that GID is not RoCE v2, -ENOENT if it
 * is empty, or -errno of the failing verb; on failure nothing stays allocated.
 */
int vnode_open(struct vnode *n, const char *ibdev, int gid_index, char *err, size_t errlen);

/* Destroy everything vnode_open and vnode_reg made, in reverse order. */
void vnode_close(struct vnode *n);

/*
 * Allocate a page-aligned zeroed buffer of len bytes and register it with the
 * given IBV_ACCESS_* flags under name. Returns 0, -EEXIST, -ENOSPC (table
 * full), or -errno of ibv_reg_mr.
 */
int vnode_reg(struct vnode *n, const char *name, size_t len, int access, char *err, size_t errlen);

/* The named MR, or NULL. */
struct vnode_mr *vnode_find(struct vnode *n, const char *name);

/*
 * Bring the QP through INIT, RTR and RTS towards the remote QP (qpn, RoCE v2
 * gid), with all three remote access rights in qp_access_flags.
 * Returns 0 or -errno of ibv_modify_qp.
 */
int vnode_connect(struct vnode *n, uint32_t remote_qpn, const union ibv_gid *remote_gid,
		  char *err, size_t errlen);

/*
 * Post one signaled RDMA WRITE or READ (opcode) of len bytes between the local
 * MR m (offset 0) and (raddr, rkey), and wait up to timeout_ms for its
 * completion, busy-polling the CQ with 1 ms sleeps. Completions of earlier
 * requests that arrive meanwhile are dropped. On its completion returns 0 and
 * copies it into *wc (only wr_id, status, qp_num and vendor_err are meaningful
 * for an error status). A failed post returns its -errno; no completion in
 * time returns -ETIMEDOUT; a failing ibv_poll_cq returns -EIO.
 */
int vnode_rdma(struct vnode *n, enum ibv_wr_opcode opcode, struct vnode_mr *m, uint32_t len,
	       uint64_t raddr, uint32_t rkey, int timeout_ms, struct ibv_wc *wc);

/* The QP's current state (ibv_query_qp), or -errno. */
int vnode_qp_state(struct vnode *n, enum ibv_qp_state *state);

#endif

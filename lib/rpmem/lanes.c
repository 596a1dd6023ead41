/*
 * lanes.c — the client's librpma side: one peer on the device that routes
 * to the target, the pool registered once (WRITE_SRC), the target's pool
 * region as a remote MR, and one librpma connection (an RC QP with its own
 * CQ) per lane.
 *
 * A persist is RDMA WRITEs (unsignaled: a completion only on error) and an
 * rpma_flush, which librpma 1.2.0 carries out as the Appliance Persistency
 * Method: an RDMA READ after the writes on the same QP, signaled; when it
 * completes the writes are in the target's memory. The flush type is the
 * target's: PERSISTENT when its memory is persistent (its daemon says so and
 * sends its peer cfg with direct write to pmem), else VISIBILITY.
 */
#include "lib/rpmem/lanes.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQ_DEPTH 64
#define PENDING_MAX 32                  /* unsignaled writes before an internal drain */
#define WRITE_MAX (1ull << 30)          /* the largest single RDMA WRITE */
#define BOUNCE (64u << 10)              /* a lane's read buffer */
#define SPIN 4000                       /* CQ polls before sleeping on its channel */
#define CONNECT_TIMEOUT_MS 5000

static int rerr(char *err, size_t errlen, const char *what, int rc)
{
	snprintf(err, errlen, "%s: %s", what, rpma_err_2str(rc));
	return -ECONNABORTED;
}

/* Connect lane l to host:port; wait until the connection is established. */
static int lane_connect(struct rpmem_lanes *ls, struct rpmem_lane *l, const char *host, unsigned port,
			struct rpma_peer_cfg *pcfg, char *err, size_t errlen)
{
	struct rpma_conn_cfg *cfg = NULL;
	struct rpma_conn_req *req = NULL;
	enum rpma_conn_event ev = RPMA_CONN_UNDEFINED;
	char portstr[16];
	int rc;

	snprintf(portstr, sizeof(portstr), "%u", port);
	if ((rc = rpma_conn_cfg_new(&cfg)) != 0)
		return rerr(err, errlen, "rpma_conn_cfg_new", rc);
	if ((rc = rpma_conn_cfg_set_timeout(cfg, CONNECT_TIMEOUT_MS)) == 0 &&
	    (rc = rpma_conn_cfg_set_sq_size(cfg, SQ_DEPTH)) == 0 && (rc = rpma_conn_cfg_set_cq_size(cfg, SQ_DEPTH)) == 0)
		rc = rpma_conn_req_new(ls->peer, host, portstr, cfg, &req);
	rpma_conn_cfg_delete(&cfg);
	if (rc)
		return rerr(err, errlen, "rpma_conn_req_new", rc);
	if ((rc = rpma_conn_req_connect(&req, NULL, &l->conn)) != 0)
		return rerr(err, errlen, "rpma_conn_req_connect", rc);
	if ((rc = rpma_conn_next_event(l->conn, &ev)) != 0 || ev != RPMA_CONN_ESTABLISHED)
		return rerr(err, errlen, "the target did not accept the lane", rc ? rc : RPMA_E_UNKNOWN);
	if (pcfg && (rc = rpma_conn_apply_remote_peer_cfg(l->conn, pcfg)) != 0)
		return rerr(err, errlen, "rpma_conn_apply_remote_peer_cfg", rc);
	if ((rc = rpma_conn_get_cq(l->conn, &l->cq)) != 0)
		return rerr(err, errlen, "rpma_conn_get_cq", rc);
	l->bounce = malloc(BOUNCE);
	if (!l->bounce)
		return -ENOMEM;
	if ((rc = rpma_mr_reg(ls->peer, l->bounce, BOUNCE, RPMA_MR_USAGE_READ_DST, &l->bmr)) != 0)
		return rerr(err, errlen, "rpma_mr_reg (read buffer)", rc);
	return 0;
}

int rpmem_lanes_prepare(struct rpmem_lanes *ls, const char *host, void *addr, size_t size, char *err, size_t errlen)
{
	int rc;

	memset(ls, 0, sizeof(*ls));
	if ((rc = rpma_utils_get_ibv_context(host, RPMA_UTIL_IBV_CONTEXT_REMOTE, &ls->ctx)) != 0 ||
	    (rc = rpma_peer_new(ls->ctx, &ls->peer)) != 0) {
		rc = rerr(err, errlen, "no RDMA device routes to the target", rc);
		goto fail;
	}
	if ((rc = rpma_mr_reg(ls->peer, addr, size, RPMA_MR_USAGE_WRITE_SRC, &ls->mr)) != 0) {
		rc = rerr(err, errlen, "registering the pool", rc);
		goto fail;
	}
	return 0;
fail:
	rpmem_lanes_close(ls, 0);
	return rc;
}

int rpmem_lanes_connect(struct rpmem_lanes *ls, const struct rpmem_msg *resp, const char *host, unsigned nlanes,
			char *err, size_t errlen)
{
	struct rpma_peer_cfg *pcfg = NULL;
	int rc;

	ls->flush_type = resp->flush_type == RPMA_FLUSH_TYPE_PERSISTENT ? RPMA_FLUSH_TYPE_PERSISTENT
									 : RPMA_FLUSH_TYPE_VISIBILITY;
	ls->l = calloc(nlanes, sizeof(*ls->l));
	if (!ls->l) {
		rpmem_lanes_close(ls, 0);
		return -ENOMEM;
	}
	if ((rc = rpma_mr_remote_from_descriptor(resp->desc, resp->desc_len, &ls->rmr)) != 0) {
		rc = rerr(err, errlen, "registering the pool", rc);
		goto fail;
	}
	if (ls->flush_type == RPMA_FLUSH_TYPE_PERSISTENT &&
	    (rc = rpma_peer_cfg_from_descriptor(resp->pcfg, resp->pcfg_len, &pcfg)) != 0) {
		rc = rerr(err, errlen, "the target's peer cfg", rc);
		goto fail;
	}
	for (; ls->n < nlanes; ls->n++)
		if ((rc = lane_connect(ls, &ls->l[ls->n], host, resp->port, pcfg, err, errlen)) != 0) {
			ls->n++; /* closed with the others */
			goto fail;
		}
	rpma_peer_cfg_delete(&pcfg);
	return 0;
fail:
	rpma_peer_cfg_delete(&pcfg);
	rpmem_lanes_close(ls, 0);
	return rc;
}

void rpmem_lanes_close(struct rpmem_lanes *ls, int graceful)
{
	for (unsigned i = 0; ls->l && i < ls->n; i++) {
		struct rpmem_lane *l = &ls->l[i];
		enum rpma_conn_event ev;

		if (l->conn && rpma_conn_disconnect(l->conn) == 0 && graceful)
			(void)rpma_conn_next_event(l->conn, &ev);
		rpma_conn_delete(&l->conn);
		rpma_mr_dereg(&l->bmr);
		free(l->bounce);
	}
	free(ls->l);
	rpma_mr_remote_delete(&ls->rmr);
	rpma_mr_dereg(&ls->mr);
	rpma_peer_delete(&ls->peer);
	memset(ls, 0, sizeof(*ls));
}

/* A failed completion as errno: a broken connection ECONNABORTED, anything else EIO. */
static int wc_errno(enum ibv_wc_status s)
{
	return s == IBV_WC_WR_FLUSH_ERR || s == IBV_WC_RETRY_EXC_ERR || s == IBV_WC_RNR_RETRY_EXC_ERR ? -ECONNABORTED
												      : -EIO;
}

/*
 * Sleep until the lane's CQ has an event, or its connection has one: a
 * target that went away disconnects (its connection manager sends a DREQ
 * when the daemon's process ends), and a QP without a retry timeout would
 * otherwise wait for a completion forever. 0 (look at the CQ again) or
 * -ECONNABORTED.
 */
static int lane_sleep(struct rpmem_lane *l)
{
	struct pollfd pf[2] = { { .events = POLLIN }, { .events = POLLIN } };
	enum rpma_conn_event ev;
	int rc;

	if (rpma_cq_get_fd(l->cq, &pf[0].fd) || rpma_conn_get_event_fd(l->conn, &pf[1].fd))
		return -ECONNABORTED;
	rc = poll(pf, 2, -1);
	if (rc < 0)
		return errno == EINTR ? 0 : -ECONNABORTED;
	if (pf[1].revents && (rpma_conn_next_event(l->conn, &ev) || ev != RPMA_CONN_ESTABLISHED))
		return -ECONNABORTED;
	if (pf[0].revents && (rc = rpma_cq_wait(l->cq)) != 0 && rc != RPMA_E_NO_COMPLETION)
		return -ECONNABORTED;
	return 0;
}

/* Wait for the lane's one signaled operation (errors of unsignaled writes come first). */
static int lane_wait(struct rpmem_lane *l)
{
	for (unsigned spin = 0;;) {
		struct ibv_wc wc;
		int n = 0, rc = rpma_cq_get_wc(l->cq, 1, &wc, &n);

		if (rc == 0 && n == 1)
			return wc.status == IBV_WC_SUCCESS ? 0 : wc_errno(wc.status);
		if (rc && rc != RPMA_E_NO_COMPLETION)
			return -ECONNABORTED;
		if (++spin > SPIN && (rc = lane_sleep(l)) != 0)
			return rc;
	}
}

int rpmem_lane_drain(struct rpmem_lanes *ls, unsigned lane)
{
	struct rpmem_lane *l = &ls->l[lane];
	int rc = rpma_flush(l->conn, ls->rmr, 0, 1, ls->flush_type, RPMA_F_COMPLETION_ALWAYS, NULL);

	l->pending = 0;
	if (rc)
		return rc == RPMA_E_NOSUPP ? -EINVAL : -ECONNABORTED;
	return lane_wait(l);
}

int rpmem_lane_write(struct rpmem_lanes *ls, unsigned lane, size_t off, size_t len)
{
	struct rpmem_lane *l = &ls->l[lane];
	int rc;

	while (len) {
		size_t n = len < WRITE_MAX ? len : WRITE_MAX;

		if (l->pending >= PENDING_MAX && (rc = rpmem_lane_drain(ls, lane)) != 0)
			return rc;
		if (rpma_write(l->conn, ls->rmr, off, ls->mr, off, n, RPMA_F_COMPLETION_ON_ERROR, NULL))
			return -ECONNABORTED;
		l->pending++;
		off += n;
		len -= n;
	}
	return 0;
}

int rpmem_lane_read(struct rpmem_lanes *ls, unsigned lane, void *buf, size_t off, size_t len)
{
	struct rpmem_lane *l = &ls->l[lane];
	int rc;

	while (len) {
		size_t n = len < BOUNCE ? len : BOUNCE;

		if (rpma_read(l->conn, l->bmr, 0, ls->rmr, off, n, RPMA_F_COMPLETION_ALWAYS, NULL))
			return -ECONNABORTED;
		if ((rc = lane_wait(l)) != 0)
			return rc;
		memcpy(buf, l->bounce, n);
		buf = (uint8_t *)buf + n;
		off += n;
		len -= n;
	}
	return 0;
}

/* lanes.h — the client's lanes over librpma (lanes.c); internal. */
#ifndef RDMACHECK_RPMEM_LANES_H
#define RDMACHECK_RPMEM_LANES_H

#include "lib/rpmem/rpmem_int.h"

#include <librpma.h>

struct rpmem_lane {
	struct rpma_conn *conn;
	struct rpma_cq *cq;
	unsigned pending;            /* unsignaled writes since the last drain */
	struct rpma_mr_local *bmr;   /* the read buffer */
	uint8_t *bounce;
};

struct rpmem_lanes {
	struct ibv_context *ctx;     /* librdmacm's */
	struct rpma_peer *peer;
	struct rpma_mr_local *mr;    /* the local pool */
	struct rpma_mr_remote *rmr;  /* the target's pool region */
	int flush_type;              /* RPMA_FLUSH_TYPE_* */
	unsigned n;
	struct rpmem_lane *l;
};

/*
 * The client's side alone, before the target's answer: the device that routes
 * to host, its peer, addr[0..size) registered. 0 or -errno (-ECONNABORTED
 * with the reason in err); on failure nothing is left.
 */
int rpmem_lanes_prepare(struct rpmem_lanes *ls, const char *host, void *addr, size_t size, char *err, size_t errlen);
/*
 * On prepared lanes: connect nlanes lanes to host:resp->port, with the
 * target's region, flush type and peer cfg from resp. 0 or -errno
 * (-ECONNABORTED with the reason in err); on failure nothing is left.
 */
int rpmem_lanes_connect(struct rpmem_lanes *ls, const struct rpmem_msg *resp, const char *host, unsigned nlanes,
			char *err, size_t errlen);
/* Disconnect every lane (graceful: wait for the target to confirm) and release everything. */
void rpmem_lanes_close(struct rpmem_lanes *ls, int graceful);
/* Post the writes of pool bytes [off, off+len) on lane (no wait beyond an internal drain). */
int rpmem_lane_write(struct rpmem_lanes *ls, unsigned lane, size_t off, size_t len);
/* Flush the lane's writes to the target's memory and wait: 0, -ECONNABORTED or -EIO. */
int rpmem_lane_drain(struct rpmem_lanes *ls, unsigned lane);
/* Read the target's bytes [off, off+len) into buf. */
int rpmem_lane_read(struct rpmem_lanes *ls, unsigned lane, void *buf, size_t off, size_t len);

#endif

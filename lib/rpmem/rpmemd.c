/*
 * rpmemd.c — the target daemon, built as rpmemd-rpma and installed as rpmemd
 * (the role of PMDK's rpmemd).
 *
 * The client library starts one per rpmem_create/rpmem_open/rpmem_remove
 * (through ssh, or RPMEM_CMD directly) and speaks the control protocol on
 * its stdin/stdout. It serves pool sets from its root config directory:
 * creates or opens the pool (pool.c; locked while open, so a second client
 * gets EBUSY), registers the pool's region with librpma, listens on the
 * address the client names (one of this node's), accepts one connection
 * per lane, then answers set_attr / deep_persist / close. It ends, letting
 * go of the pool (written back to its files, unlocked), on close, when its
 * control channel ends (the client process or its ssh is gone) or when a
 * lane's connection drops: what the client persisted is in the part files'
 * pages already, so a client killed mid-persist loses nothing it was told
 * was persistent.
 *
 * stdout belongs to the protocol; messages go to stderr.
 */
#define _DEFAULT_SOURCE
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <getopt.h>
#include <librpma.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LANES_MAX 64
#define PORT_TRIES 100

struct daemon {
	const char *root;
	unsigned max_lanes, port_base;
	int pmem, timeout_ms, verbose;
	struct rpmem_tpool tp;
	int open;
	struct ibv_context *ctx;
	struct rpma_peer *peer;
	struct rpma_peer_cfg *pcfg;
	struct rpma_mr_local *mr;
	struct rpma_ep *ep;
	unsigned nconn;
	struct rpma_conn *conn[LANES_MAX];
};

static void say(const struct daemon *d, const char *fmt, const char *what)
{
	if (!d->verbose)
		return;
	fprintf(stderr, "rpmemd[%d]: ", (int)getpid());
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
}

static int reply(struct rpmem_msg *resp, int rc, const char *msg)
{
	resp->type = RPMEM_MSG_RESP;
	resp->status = rc ? rpmem_status_of(-rc) : RPMEM_ST_OK;
	snprintf(resp->name, sizeof(resp->name), "%s", rc ? msg : "");
	return rpmem_msg_send(1, resp);
}

/* Register the pool's region, listen on host; fills the response's lane data. */
static int expose(struct daemon *d, const char *host, struct rpmem_msg *resp, char *err, size_t errlen)
{
	int usage = RPMA_MR_USAGE_WRITE_DST | RPMA_MR_USAGE_READ_SRC |
		    (d->pmem ? RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT : RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY);
	size_t n = 0;
	char port[16];
	int rc;

	if ((rc = rpma_utils_get_ibv_context(host, RPMA_UTIL_IBV_CONTEXT_LOCAL, &d->ctx)) != 0) {
		snprintf(err, errlen, "%s is not an RDMA address of this target", host);
		return -EINVAL;
	}
	if ((rc = rpma_peer_new(d->ctx, &d->peer)) != 0 ||
	    (rc = rpma_mr_reg(d->peer, d->tp.base, d->tp.span, usage, &d->mr)) != 0 ||
	    (rc = rpma_mr_get_descriptor_size(d->mr, &n)) != 0 || n > RPMEM_DESC_MAX ||
	    (rc = rpma_mr_get_descriptor(d->mr, resp->desc)) != 0)
		goto rpma_fail;
	resp->desc_len = (uint8_t)n;
	if (d->pmem) {
		if ((rc = rpma_peer_cfg_new(&d->pcfg)) != 0 ||
		    (rc = rpma_peer_cfg_set_direct_write_to_pmem(d->pcfg, true)) != 0 ||
		    (rc = rpma_peer_cfg_get_descriptor_size(d->pcfg, &n)) != 0 || n > RPMEM_DESC_MAX ||
		    (rc = rpma_peer_cfg_get_descriptor(d->pcfg, resp->pcfg)) != 0)
			goto rpma_fail;
		resp->pcfg_len = (uint8_t)n;
	}
	for (unsigned i = 0; i < PORT_TRIES; i++) {
		snprintf(port, sizeof(port), "%u", d->port_base + i);
		if (rpma_ep_listen(d->peer, host, port, &d->ep) == 0) {
			resp->port = d->port_base + i;
			resp->flush_type = d->pmem ? RPMA_FLUSH_TYPE_PERSISTENT : RPMA_FLUSH_TYPE_VISIBILITY;
			return 0;
		}
	}
	snprintf(err, errlen, "no free port in %u..%u on %s", d->port_base, d->port_base + PORT_TRIES - 1, host);
	return -EREMOTEIO;
rpma_fail:
	snprintf(err, errlen, "librpma: %s", rc ? rpma_err_2str(rc) : "descriptor too large");
	return -EREMOTEIO;
}

/* Accept n lane connections; the control channel ending meanwhile aborts. */
static int accept_lanes(struct daemon *d, unsigned n)
{
	int fd, rc;

	if (rpma_ep_get_fd(d->ep, &fd))
		return -EIO;
	while (d->nconn < n) {
		struct pollfd pf[2] = { { .fd = fd, .events = POLLIN }, { .fd = 0, .events = POLLIN } };
		struct rpma_conn_req *req = NULL;
		enum rpma_conn_event ev;

		rc = poll(pf, 2, d->timeout_ms);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0 || (pf[1].revents && !pf[0].revents))
			return -ECONNABORTED; /* timeout, or the client went away */
		if (rpma_ep_next_conn_req(d->ep, NULL, &req) ||
		    rpma_conn_req_connect(&req, NULL, &d->conn[d->nconn]))
			return -ECONNABORTED;
		if (rpma_conn_next_event(d->conn[d->nconn++], &ev) || ev != RPMA_CONN_ESTABLISHED)
			return -ECONNABORTED;
	}
	return 0;
}

static void teardown(struct daemon *d)
{
	for (unsigned i = 0; i < d->nconn; i++) {
		rpma_conn_disconnect(d->conn[i]);
		rpma_conn_delete(&d->conn[i]);
	}
	d->nconn = 0;
	if (d->ep)
		rpma_ep_shutdown(&d->ep);
	rpma_mr_dereg(&d->mr);
	rpma_peer_cfg_delete(&d->pcfg);
	rpma_peer_delete(&d->peer);
	if (d->open)
		rpmem_tpool_close(&d->tp);
	d->open = 0;
}

/* CREATE / OPEN: answer, then accept the lanes. Returns 0 to go on serving, -1 to end. */
static int attach(struct daemon *d, const struct rpmem_msg *req)
{
	struct rpmem_msg resp = { 0 };
	char err[RPMEM_MSG_MAX] = "";
	unsigned n = req->nlanes < d->max_lanes ? req->nlanes : d->max_lanes;
	int rc;

	if (d->open || req->nlanes == 0)
		rc = -EINVAL, snprintf(err, sizeof(err), "%s", d->open ? "a pool is open already" : "nlanes 0");
	else if (req->type == RPMEM_MSG_CREATE)
		rc = rpmem_tpool_create(d->root, req->name, req->pool_size, req->has_attr ? &req->attr : NULL, &d->tp,
					err, sizeof(err));
	else
		rc = rpmem_tpool_open(d->root, req->name, req->pool_size, &d->tp, err, sizeof(err));
	d->open = rc == 0;
	if (rc == 0 && (rc = expose(d, req->host, &resp, err, sizeof(err))) != 0) {
		char ignored[RPMEM_MSG_MAX];

		teardown(d);
		if (req->type == RPMEM_MSG_CREATE) /* a create that fails leaves no pool behind */
			rpmem_tpool_remove(d->root, req->name, RPMEM_REMOVE_FORCE, ignored, sizeof(ignored));
	}
	if (rc) {
		say(d, "refused: %s", err);
		reply(&resp, rc, err);
		return -1;
	}
	resp.nlanes = n;
	resp.hdr = (uint32_t)d->tp.has_hdr;
	resp.attr = d->tp.attr;
	resp.pool_size = d->tp.span;
	if (reply(&resp, 0, "") || accept_lanes(d, n)) {
		say(d, "%s", "the client went away while connecting its lanes");
		return -1;
	}
	say(d, "serving %s", req->name);
	return 0;
}

/* One request after the pool is attached. Returns 0 to go on, -1 to end. */
static int serve(struct daemon *d, const struct rpmem_msg *req)
{
	struct rpmem_msg resp = { 0 };
	int rc;

	switch (req->type) {
	case RPMEM_MSG_SET_ATTR:
		rc = d->open ? rpmem_tpool_set_attr(&d->tp, req->has_attr ? &req->attr : NULL) : -EINVAL;
		return reply(&resp, rc, "set_attr refused (no header)") ? -1 : 0;
	case RPMEM_MSG_DEEP:
		rc = d->open ? rpmem_tpool_sync(&d->tp, req->offset, req->len) : -EINVAL;
		return reply(&resp, rc, "deep persist failed") ? -1 : 0;
	case RPMEM_MSG_CLOSE:
		teardown(d);
		reply(&resp, 0, "");
		return -1;
	default:
		reply(&resp, -EINVAL, "unexpected request");
		return -1;
	}
}

/* Wait for the next request; a lane's connection dropping ends the session. 0, or -1 to end. */
static int next_request(struct daemon *d, struct rpmem_msg *req)
{
	for (;;) {
		struct pollfd pf[LANES_MAX + 1] = { { .fd = 0, .events = POLLIN } };

		for (unsigned i = 0; i < d->nconn; i++) {
			pf[i + 1].events = POLLIN;
			if (rpma_conn_get_event_fd(d->conn[i], &pf[i + 1].fd))
				return -1;
		}
		if (poll(pf, d->nconn + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (unsigned i = 0; i < d->nconn; i++) {
			enum rpma_conn_event ev;

			if (pf[i + 1].revents && (rpma_conn_next_event(d->conn[i], &ev) || ev != RPMA_CONN_ESTABLISHED)) {
				say(d, "%s", "a lane's connection dropped: the client is gone");
				return -1;
			}
		}
		if (pf[0].revents)
			return rpmem_msg_recv(0, req) ? -1 : 0;
	}
}

static void usage(FILE *f)
{
	fputs("usage: rpmemd -r DIR [-n MAX_LANES] [-p PORT_BASE] [-t SECONDS] [--pmem] [-v]\n"
	      "  Started by the librpmem client (ssh or RPMEM_CMD); speaks its protocol on stdin/stdout.\n"
	      "  -r, --root DIR        root config directory: pool set files (pool set names are relative to it)\n"
	      "  -n, --max-lanes N     lanes per pool at most (default 16, at most 64)\n"
	      "  -p, --port-base N     first port to listen on for the lanes (default 7700; the next 99 are tried)\n"
	      "  -t, --timeout S       how long to wait for a client's lanes (default 10)\n"
	      "      --pmem            the part files are on persistent memory (fs-DAX): flush type PERSISTENT\n"
	      "  -v, --verbose         say what happens on stderr\n", f);
}

static int parse_args(int argc, char **argv, struct daemon *d)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' }, { "max-lanes", required_argument, NULL, 'n' },
		{ "port-base", required_argument, NULL, 'p' }, { "timeout", required_argument, NULL, 't' },
		{ "pmem", no_argument, NULL, 'P' }, { "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "r:n:p:t:vh", opts, NULL)) != -1) {
		char *end = NULL;
		unsigned long v = optarg ? strtoul(optarg, &end, 10) : 0;
		int num_ok = optarg && *optarg && !*end;

		switch (c) {
		case 'r': d->root = optarg; break;
		case 'n': if (!num_ok || v < 1 || v > LANES_MAX) return -1; d->max_lanes = (unsigned)v; break;
		case 'p': if (!num_ok || v < 1 || v > 65535 - PORT_TRIES) return -1; d->port_base = (unsigned)v; break;
		case 't': if (!num_ok || v < 1 || v > 3600) return -1; d->timeout_ms = (int)v * 1000; break;
		case 'P': d->pmem = 1; break;
		case 'v': d->verbose = 1; break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
	}
	return d->root && optind == argc ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct daemon d = { .max_lanes = 16, .port_base = 7700, .timeout_ms = 10000 };
	struct rpmem_msg req;

	if (parse_args(argc, argv, &d)) {
		usage(stderr);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	rpma_log_set_threshold(RPMA_LOG_THRESHOLD_AUX, RPMA_LOG_DISABLED);
	rpma_log_set_threshold(RPMA_LOG_THRESHOLD, d.verbose ? RPMA_LOG_LEVEL_ERROR : RPMA_LOG_DISABLED);
	if (rpmem_msg_recv(0, &req))
		return 0;
	if (req.type == RPMEM_MSG_REMOVE) {
		struct rpmem_msg resp = { 0 };
		char err[RPMEM_MSG_MAX] = "";
		int rc = rpmem_tpool_remove(d.root, req.name, (int)req.flags, err, sizeof(err));

		reply(&resp, rc, err);
		return 0;
	}
	if (req.type != RPMEM_MSG_CREATE && req.type != RPMEM_MSG_OPEN) {
		struct rpmem_msg resp = { 0 };

		reply(&resp, -EINVAL, "no pool is open");
		return 0;
	}
	if (attach(&d, &req) == 0)
		while (next_request(&d, &req) == 0 && serve(&d, &req) == 0)
			;
	teardown(&d);
	return 0;
}

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
 * Its command line and config files are PMDK's rpmemd's (rpmemd_config.c);
 * stdout belongs to the protocol; messages go to the log (syslog by default,
 * the log file, or stderr with -v) at rpmemd(1)'s levels.
 */
#define _DEFAULT_SOURCE
#include "lib/rpmem/rpmem_int.h"
#include "lib/rpmem/rpmemd_config.h"

#include <errno.h>
#include <getopt.h>
#include <librpma.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#define LANES_MAX RPMEMD_LANES_MAX
#define PORT_TRIES RPMEMD_PORT_TRIES

struct daemon {
	struct rpmemd_config cfg;
	const char *root;
	unsigned max_lanes, port_base;
	int pmem, timeout_ms;
	FILE *log;		/* the log file, stderr (-v), or NULL: syslog */
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

/* Log a message of level lv (printf-style) where the configuration says. */
__attribute__((format(printf, 3, 4))) static void say(const struct daemon *d, enum rpmemd_log_level lv,
						      const char *fmt, ...)
{
	static const int prio[] = { LOG_ERR, LOG_WARNING, LOG_NOTICE, LOG_INFO, LOG_DEBUG };
	va_list ap;

	if (lv > d->cfg.log_level)
		return;
	va_start(ap, fmt);
	if (!d->log) {
		vsyslog(prio[lv], fmt, ap);
	} else {
		fprintf(d->log, "rpmemd[%d]: %s: ", (int)getpid(), rpmemd_log_level_str(lv));
		vfprintf(d->log, fmt, ap);
		fputc('\n', d->log);
		fflush(d->log);
	}
	va_end(ap);
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
		say(d, RPMEMD_LOG_ERR, "%s %s refused: %s", req->type == RPMEM_MSG_CREATE ? "create" : "open",
		    req->name, err);
		reply(&resp, rc, err);
		return -1;
	}
	resp.nlanes = n;
	resp.hdr = (uint32_t)d->tp.has_hdr;
	resp.attr = d->tp.attr;
	resp.pool_size = d->tp.span;
	if (reply(&resp, 0, "") || accept_lanes(d, n)) {
		say(d, RPMEMD_LOG_NOTICE, "%s", "the client went away while connecting its lanes");
		return -1;
	}
	say(d, RPMEMD_LOG_NOTICE, "serving %s (%u lanes, persist method APM, flush type %s)", req->name, n,
	    d->pmem ? "PERSISTENT" : "VISIBILITY");
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
				say(d, RPMEMD_LOG_NOTICE, "%s", "a lane's connection dropped: the client is gone");
				return -1;
			}
		}
		if (pf[0].revents)
			return rpmem_msg_recv(0, req) ? -1 : 0;
	}
}

/* Where the log goes: stderr (-v), the log file (use-syslog no), or syslog. 0 or -1 (said on stderr). */
static int log_open(struct daemon *d)
{
	if (d->cfg.verbose) {
		d->log = stderr;
	} else if (!d->cfg.use_syslog) {
		if (!(d->log = fopen(d->cfg.log_file, "ae"))) {
			fprintf(stderr, "rpmemd: log file %s: %s\n", d->cfg.log_file, strerror(errno));
			return -1;
		}
	} else {
		openlog("rpmemd", LOG_PID, LOG_DAEMON);
	}
	return 0;
}

/* rpmemd -r POOLSET [-f] [-s]: remove a pool, as the client's rpmem_remove would. Exit status. */
static int remove_pool(struct daemon *d)
{
	char err[RPMEM_MSG_MAX] = "";
	int flags = (d->cfg.force ? RPMEM_REMOVE_FORCE : 0) | (d->cfg.pool_set ? RPMEM_REMOVE_POOL_SET : 0);
	int rc = rpmem_tpool_remove(d->root, d->cfg.rm_poolset, flags, err, sizeof(err));

	if (rc) {
		say(d, RPMEMD_LOG_ERR, "cannot remove pool (%s): %s", strerror(-rc), err);
		fprintf(stderr, "rpmemd: cannot remove pool (%s): %s\n", strerror(-rc), err);
		return 1;
	}
	say(d, RPMEMD_LOG_NOTICE, "removed pool %s", d->cfg.rm_poolset);
	return 0;
}

int rpmemd_main(int argc, char **argv)
{
	struct daemon d = { 0 };
	struct rpmem_msg req;
	char err[PATH_MAX + 256];

	if (rpmemd_config_read(&d.cfg, argc, argv, RPMEMD_GLOBAL_CONFIG, err, sizeof(err))) {
		fprintf(stderr, "rpmemd: %s (rpmemd -h: the usage)\n", err);
		return 2;
	}
	if (d.cfg.run == RPMEMD_HELP || d.cfg.run == RPMEMD_VERSION) {
		fputs(d.cfg.run == RPMEMD_HELP ? rpmemd_usage : "rpmemd version " RPMEMD_VERSION_STR "\n", stdout);
		return 0;
	}
	d.root = d.cfg.poolset_dir;
	d.max_lanes = d.cfg.max_lanes;
	d.port_base = d.cfg.port_base;
	d.timeout_ms = d.cfg.timeout_ms;
	d.pmem = d.cfg.pmem;
	if (log_open(&d))
		return 1;
	if (d.cfg.run == RPMEMD_REMOVE)
		return remove_pool(&d);
	signal(SIGPIPE, SIG_IGN);
	rpma_log_set_threshold(RPMA_LOG_THRESHOLD_AUX, RPMA_LOG_DISABLED);
	rpma_log_set_threshold(RPMA_LOG_THRESHOLD, d.cfg.verbose ? RPMA_LOG_LEVEL_ERROR : RPMA_LOG_DISABLED);
	say(&d, RPMEMD_LOG_INFO, "pool set directory %s, persist method APM%s", d.root,
	    d.cfg.persist_apm ? "" : " (persist-apm is no: GPSPM is not implemented, APM is used)");
	if (rpmem_msg_recv(0, &req))
		return 0;
	if (req.type == RPMEM_MSG_REMOVE) {
		struct rpmem_msg resp = { 0 };
		char rerr[RPMEM_MSG_MAX] = "";
		int rc = rpmem_tpool_remove(d.root, req.name, (int)req.flags, rerr, sizeof(rerr));

		if (rc)
			say(&d, RPMEMD_LOG_ERR, "remove %s refused: %s", req.name, rerr);
		reply(&resp, rc, rerr);
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

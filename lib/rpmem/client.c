/*
 * client.c — rpmem_create, rpmem_open, rpmem_set_attr, rpmem_close,
 * rpmem_remove: start the target daemon (command.c), ask it over the control
 * channel (proto.c), then connect the lanes (lanes.c). PMDK's conventions:
 * NULL or -1 and errno, the message in rpmem_errormsg().
 */
#include "lib/rpmem/client.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static _Thread_local char last_msg[256];
static _Thread_local int (*chan_dial)(void *);
static _Thread_local void *chan_arg;

void rpmem_set_channel(int (*dial)(void *arg), void *arg)
{
	chan_dial = dial;
	chan_arg = dial ? arg : NULL;
}

void rpmem_msg_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
}

const char *rpmem_errormsg(void)
{
	return last_msg;
}

const char *rpmem_check_version(unsigned major_required, unsigned minor_required)
{
	if (major_required != RPMEM_MAJOR_VERSION) {
		rpmem_msg_set("librpmem major version mismatch (need %u, found %u)", major_required,
			      RPMEM_MAJOR_VERSION);
		return last_msg;
	}
	if (minor_required > RPMEM_MINOR_VERSION) {
		rpmem_msg_set("librpmem minor version mismatch (need %u, found %u)", minor_required,
			      RPMEM_MINOR_VERSION);
		return last_msg;
	}
	return NULL;
}

/* Fail with errno e (positive) and a message; returns -1. */
static int fail(int e, const char *fmt, const char *what)
{
	rpmem_msg_set(fmt, what);
	errno = e;
	return -1;
}

/* Start the target daemon for target; *fd is its control channel, host the bare host. */
static int spawn(const char *target, pid_t *pid, int *fd, char *host, size_t hostlen)
{
	char buf[1024], *argv[RPMEM_ARGV_MAX];
	posix_spawn_file_actions_t fa;
	int sv[2], rc;

	static atomic_uint starts; /* PMDK's round robin over RPMEM_CMD's '|'-separated commands */

	if (rpmem_command(target, getenv("RPMEM_SSH"), getenv("RPMEM_CMD"), atomic_fetch_add(&starts, 1), buf,
			  sizeof(buf), argv, host, hostlen) < 1)
		return fail(EINVAL, "bad target '%s' (or RPMEM_SSH/RPMEM_CMD too long)", target);
	if (chan_dial) { /* rpmem_set_channel: no command; the target (its host part) as a command's */
		rc = chan_dial(chan_arg);
		if (rc < 0)
			return fail(ECONNREFUSED, "cannot reach the target daemon: %s", strerror(-rc));
		*pid = 0;
		*fd = rc;
		return 0;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return fail(errno, "socketpair: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (rc) {
		close(sv[0]);
		return fail(ECONNREFUSED, "cannot start the target daemon: %s", strerror(rc));
	}
	*fd = sv[0];
	return 0;
}

/* End the daemon's command: close its channel (it exits on EOF) and reap it. */
static void reap(struct rpmem_pool *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	while (p->pid > 0 && waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
		;
	p->pid = 0;
}

/* rpmem_ctl, with meanwhile(arg) run after the request went and before its answer is awaited (NULL: nothing). */
static int ctl_meanwhile(struct rpmem_pool *p, struct rpmem_msg *req, struct rpmem_msg *resp, void (*meanwhile)(void *),
			 void *arg)
{
	int rc;

	pthread_mutex_lock(&p->ctl);
	rc = rpmem_msg_send(p->fd, req);
	if (rc == 0 && meanwhile)
		meanwhile(arg);
	if (rc == 0)
		rc = rpmem_msg_recv(p->fd, resp);
	if (rc == 0 && resp->type != RPMEM_MSG_RESP)
		rc = -EPROTO;
	pthread_mutex_unlock(&p->ctl);
	return rc;
}

int rpmem_ctl(struct rpmem_pool *p, struct rpmem_msg *req, struct rpmem_msg *resp)
{
	return ctl_meanwhile(p, req, resp, NULL, NULL);
}

/* RPMEM_MAX_NLANES, or UINT_MAX when unset or not a positive number. */
static unsigned env_max_lanes(void)
{
	const char *s = getenv("RPMEM_MAX_NLANES");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return UINT_MAX;
	errno = 0;
	v = strtoul(s, &end, 10);
	return *end || errno || v == 0 || v > UINT_MAX ? UINT_MAX : (unsigned)v;
}

/* The client's side of the lanes (rpmem_lanes_prepare), made while the daemon makes its pool (attach). */
struct prepare {
	struct rpmem_pool *p;
	const char *host;
	int done, rc;
	char err[256];
};

static void prepare_lanes(void *arg)
{
	struct prepare *w = arg;

	w->rc = rpmem_lanes_prepare(&w->p->lanes, w->host, w->p->addr, w->p->size, w->err, sizeof(w->err));
	w->done = 1;
}

/* An answer to create/open (req) that lanes cannot be made from for pool p. */
static int answer_malformed(const struct rpmem_msg *resp, const struct rpmem_msg *req, const struct rpmem_pool *p)
{
	return resp->nlanes < 1 || resp->nlanes > req->nlanes || resp->desc_len == 0 || resp->pool_size < p->size;
}

/*
 * The target's answer to create/open, then the lanes. The client's own side of
 * them (device, peer, the pool registered: rpmem_lanes_prepare) is made while
 * the daemon makes its pool (each is tens of milliseconds under TCG); what the
 * caller is told is as if it came after the answer: the daemon's refusal
 * first, then a failure of that side. Returns 0 or -1 with errno.
 */
static int attach(struct rpmem_pool *p, struct rpmem_msg *req, const char *host, struct rpmem_pool_attr *attr_out,
		  unsigned *nlanes)
{
	struct rpmem_msg resp;
	struct prepare w = { .p = p, .host = host };
	char err[256] = "";
	int rc = ctl_meanwhile(p, req, &resp, prepare_lanes, &w);

	if (rc || resp.status != RPMEM_ST_OK || answer_malformed(&resp, req, p) || w.rc) {
		if (w.done && w.rc == 0)
			rpmem_lanes_close(&p->lanes, 0); /* prepared, not to be connected */
		if (rc)
			return fail(ECONNABORTED, "the target daemon did not answer (%s)", strerror(-rc));
		if (resp.status != RPMEM_ST_OK)
			return fail(rpmem_status_errno(resp.status), "target: %s", resp.name);
		if (answer_malformed(&resp, req, p))
			return fail(ECONNABORTED, "malformed answer from the target%s", "");
		return fail(-w.rc, "%s", w.err);
	}
	rc = rpmem_lanes_connect(&p->lanes, &resp, host, resp.nlanes, err, sizeof(err));
	if (rc)
		return fail(-rc, "%s", err);
	p->nlanes = resp.nlanes;
	p->hdr = !!resp.hdr;
	*nlanes = resp.nlanes;
	if (attr_out) {
		memset(attr_out, 0, sizeof(*attr_out));
		if (p->hdr)
			*attr_out = resp.attr;
	}
	return 0;
}

static RPMEMpool *create_open(enum rpmem_msg_type type, const char *target, const char *name, void *addr,
			      size_t size, unsigned *nlanes, const struct rpmem_pool_attr *attr_in,
			      struct rpmem_pool_attr *attr_out)
{
	long page = sysconf(_SC_PAGESIZE);
	struct rpmem_msg req = { .type = type, .pool_size = size };
	struct rpmem_pool *p;
	char host[RPMEM_HOST_MAX];
	int e;

	/* RPMEM-ARGS-1, in this order, before anything is started. */
	if (!addr || (uintptr_t)addr % (uintptr_t)page || size % (size_t)page || !size || !nlanes || !*nlanes) {
		fail(EINVAL, "%s", !addr || (uintptr_t)addr % (uintptr_t)page ? "pool_addr NULL or not page-aligned"
				   : size % (size_t)page || !size ? "pool_size 0 or not page-aligned"
								    : "nlanes NULL or 0");
		return NULL;
	}
	if (!target || !name || strlen(name) >= RPMEM_NAME_MAX) {
		fail(EINVAL, "%s", "target or pool set name missing or too long");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->fd = -1;
	p->addr = addr;
	p->size = size;
	pthread_mutex_init(&p->ctl, NULL);
	if (spawn(target, &p->pid, &p->fd, host, sizeof(host)))
		goto fail;
	strcpy(req.name, name);
	strcpy(req.host, host);
	req.nlanes = *nlanes < env_max_lanes() ? *nlanes : env_max_lanes();
	if (attr_in && !rpmem_attr_zero(attr_in)) {
		req.has_attr = 1;
		req.attr = *attr_in;
	}
	if (attach(p, &req, host, attr_out, nlanes) == 0)
		return p;
fail:
	e = errno;
	reap(p);
	pthread_mutex_destroy(&p->ctl);
	free(p);
	errno = e;
	return NULL;
}

RPMEMpool *rpmem_create(const char *target, const char *pool_set_name, void *pool_addr, size_t pool_size,
			unsigned *nlanes, const struct rpmem_pool_attr *create_attr)
{
	return create_open(RPMEM_MSG_CREATE, target, pool_set_name, pool_addr, pool_size, nlanes, create_attr, NULL);
}

RPMEMpool *rpmem_open(const char *target, const char *pool_set_name, void *pool_addr, size_t pool_size,
		      unsigned *nlanes, struct rpmem_pool_attr *open_attr)
{
	return create_open(RPMEM_MSG_OPEN, target, pool_set_name, pool_addr, pool_size, nlanes, NULL, open_attr);
}

int rpmem_set_attr(RPMEMpool *rpp, const struct rpmem_pool_attr *attr)
{
	struct rpmem_msg req = { .type = RPMEM_MSG_SET_ATTR }, resp;
	int rc;

	if (rpp->error)
		return fail(rpp->error, "%s", "an earlier call failed: only rpmem_close is left");
	if (!rpp->hdr)
		return fail(EINVAL, "%s", "the pool has no header for attributes");
	if (attr) {
		req.has_attr = 1;
		req.attr = *attr;
	}
	if ((rc = rpmem_ctl(rpp, &req, &resp)) != 0) {
		rpp->error = ECONNABORTED;
		return fail(ECONNABORTED, "the target went away (%s)", strerror(-rc));
	}
	if (resp.status != RPMEM_ST_OK)
		return fail(rpmem_status_errno(resp.status), "target: %s", resp.name);
	return 0;
}

int rpmem_close(RPMEMpool *rpp)
{
	struct rpmem_msg req = { .type = RPMEM_MSG_CLOSE }, resp;
	int rc, e = 0;

	/* The target first (it writes the pool back and lets go of it), then the lanes it dropped. */
	rc = rpmem_ctl(rpp, &req, &resp);
	if (rc)
		e = ECONNABORTED;
	else if (resp.status != RPMEM_ST_OK)
		e = rpmem_status_errno(resp.status);
	rpmem_lanes_close(&rpp->lanes, rc == 0 && rpp->error == 0);
	reap(rpp);
	pthread_mutex_destroy(&rpp->ctl);
	free(rpp);
	if (e)
		return fail(e, "%s", e == ECONNABORTED ? "the target had gone away" : "the target could not close it");
	return 0;
}

int rpmem_remove(const char *target, const char *pool_set_name, int flags)
{
	struct rpmem_pool p = { .fd = -1 };
	struct rpmem_msg req = { .type = RPMEM_MSG_REMOVE, .flags = (uint32_t)flags }, resp;
	char host[RPMEM_HOST_MAX];
	int rc, e = 0;

	if (flags & ~(RPMEM_REMOVE_FORCE | RPMEM_REMOVE_POOL_SET))
		return fail(EINVAL, "%s", "flags other than RPMEM_REMOVE_FORCE | RPMEM_REMOVE_POOL_SET");
	if (!target || !pool_set_name || strlen(pool_set_name) >= RPMEM_NAME_MAX)
		return fail(EINVAL, "%s", "target or pool set name missing or too long");
	pthread_mutex_init(&p.ctl, NULL);
	if (spawn(target, &p.pid, &p.fd, host, sizeof(host))) {
		pthread_mutex_destroy(&p.ctl);
		return -1;
	}
	strcpy(req.name, pool_set_name);
	if ((rc = rpmem_ctl(&p, &req, &resp)) != 0)
		e = ECONNABORTED, rpmem_msg_set("the target daemon did not answer (%s)", strerror(-rc));
	else if (resp.status != RPMEM_ST_OK)
		e = rpmem_status_errno(resp.status), rpmem_msg_set("target: %s", resp.name);
	reap(&p);
	pthread_mutex_destroy(&p.ctl);
	errno = e;
	return e ? -1 : 0;
}

/*
 * agent_rpmem.c — the node agent's librpmem requests (lib/rpmem,
 * librpmem-rpma linked in), for both roles a node can have in a scenario:
 *
 * A target keeps a root config directory, $TMPDIR/rpmem-NODE (TMPDIR is the
 * scenario's, removed with the agents; an agent started by hand without it
 * uses the shared /tmp, so a directory that is there already is taken only
 * when it is this user's own, no symlink, writable by no one else, and its
 * files are written under its fd with O_NOFOLLOW), holding the pool set files the
 * scenario declares (rpmem_poolset) and, once a pool is created, their part
 * files NAME.partI next to them. The target's daemon is not the agent's: a
 * client starts it, as PMDK's librpmem does.
 *
 * A client calls the library as an application would, pool memory being an
 * agent buffer (o->buf: fill reaches it, as the application's stores would).
 * Before create/open/remove it points the library at the target the PMDK way:
 * RPMEM_SSH="" and RPMEM_CMD="[ip netns exec NS] BUILD/rpmemd-rpma -c /dev/null --poolset-dir ROOT -n 64"
 * (ROOT and NS from the target's rpmem_target answer; -n 64: the model's
 * daemon limit), and lends librdmacm its own address as the lanes' source
 * (agent_rpma_source: the routed topology). A call that fails answers
 * "err errno=N" with librpmem's errno, the outcome the model predicts.
 *
 * Requests (harness/agent/agent.h lists them with the others):
 *   rpmem_target                                   ok ip=A.B.C.D root=DIR netns=NS|-
 *   rpmem_poolset set size parts opt malformed     ok (the file, written in ROOT)
 *   rpmem_pool_runs set off len (<= AGENT_RPMEM_RUNS_MAX)
 *                                                  ok n=N runs=HH:COUNT,... (the pool's bytes from its part
 *                                                  files, the first N of them as runs of one byte)
 *   rpmem_create|rpmem_open id ip root netns [port key] set size addr_off nlanes nulls max_nlanes_env [attr=HEX]
 *                                                  ok nlanes=N (open with open_attr: and signature=… major=…,
 *                                                  every field of m_rpmem_attr_keys)
 *   rpmem_set_attr id nulls [attr=HEX] | rpmem_close id
 *   rpmem_remove ip root netns [port key] set flags
 *   rpmem_persist|rpmem_deep_persist|rpmem_flush|rpmem_read id off len lane flags
 *   rpmem_drain id lane flags
 *   rpmem_link_down id                             ok (the pool's daemon killed and reaped)
 *   rpmem_serve                                    ok port=N key=HEX ip=A.B.C.D root=DIR netns=NS|-
 *                                                  (a target on another kernel: its daemon for one client
 *                                                  that dials N with the key; and rpmem_target's fields)
 *
 * A target on another kernel than its client (topology mode hosts: a node
 * per VM, real hosts) starts the daemon itself, as ssh would there
 * (rpmem_serve, lib/rpmem/serve.c); its client's RPMEM_CMD is then
 * "BUILD/rpmem-connect IP PORT", which relays the control channel.
 */
#define _GNU_SOURCE
#include "harness/agent/agent_internal.h"
#include "harness/base/proc.h"
#include "harness/api/rpma/api_rpma.h"
#include "harness/api/rpmem/api_rpmem.h"
#include "lib/rpmem/client.h"
#include "lib/rpmem/rpmem_int.h"
#include "model/model.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define DAEMON_LANES 64       /* the model's daemon limit (model/rpmem: max_lanes) */
#define READ_SCRATCH_MAX (64u << 20)
#define SERVED_MAX 64         /* daemons of rpmem_serve alive at once */
#define SERVE_WAIT_MS 30000   /* how long a served port waits for its client */

_Static_assert(sizeof(struct m_rpmem_attr) == sizeof(struct rpmem_pool_attr), "the model's attributes are librpmem's");

/* The node's librpmem state (a->state[M_FAM_RPMEM]): its root config directory as a target. */
struct rpmem_state {
	char root[PATH_MAX];
	int dirfd;                /* root, opened once it was found to be ours (private_dir) */
	pid_t served[SERVED_MAX]; /* daemons started by rpmem_serve (0: none, or reaped) */
	int served_fd[SERVED_MAX]; /* or, > 0, a pidfd of one a zygote forked (agent_rpmem_zygote_serve) */
};

/* A pool handle (o->ext of an AO_RPMEM_POOL). */
struct rpool {
	RPMEMpool *rpp;
	unsigned nlanes;
	int relayed; /* its command is rpmem-connect to a daemon its target's agent started */
};

static void release(struct agent *a, struct aobj *o)
{
	struct rpool *p = o->ext;

	(void)a;
	if (p && p->rpp)
		rpmem_close(p->rpp);
	free(p);
	o->ext = NULL;
	o->release = NULL;
	o->live = 0; /* released: a kept agent's reset finds nothing */
}

/*
 * Make path this agent's private directory and open it: created 0700, or, if
 * it exists already (the shared /tmp of an agent started by hand), taken only
 * when it is a directory (no symlink followed) that this user owns and no
 * one else may write. The directory's fd, or -errno with the reason in err
 * (a planted symlink or a directory of another user is refused, never used).
 */
static int private_dir(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, rc;

	if (mkdir(path, 0700) && errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "cannot make %s: %s", path, strerror(-rc));
		return rc;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s is %s: refused", path,
			 rc == -ELOOP || rc == -ENOTDIR ? "not a directory (a symlink?)" : strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(err, errlen, "%s belongs to uid %u with mode %03o: refused (not this agent's own)", path,
			 (unsigned)st.st_uid, (unsigned)st.st_mode & 0777);
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* The node's state with its root directory made, or NULL (errno; the reason in root_err). */
static char root_err[PATH_MAX + 128];
static struct rpmem_state *state(struct agent *a)
{
	struct rpmem_state *s = a->state[M_FAM_RPMEM];
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(root_err, sizeof(root_err), "no memory");
		return NULL;
	}
	snprintf(s->root, sizeof(s->root), "%s/rpmem-%s", tmp && *tmp ? tmp : "/tmp", a->node->name);
	fd = private_dir(s->root, root_err, sizeof(root_err));
	if (fd < 0) {
		fprintf(stderr, "agent %s: %s\n", a->node->name, root_err);
		free(s);
		errno = -fd;
		return NULL;
	}
	s->dirfd = fd;
	a->state[M_FAM_RPMEM] = s;
	return s;
}

/* The name of the network namespace this process is in (/run/netns/NAME), or "-". */
static void own_netns(char *out, size_t cap)
{
	struct stat self, st;
	struct dirent *e;
	DIR *d = opendir("/run/netns");
	char path[PATH_MAX];

	snprintf(out, cap, "-");
	if (!d)
		return;
	if (stat("/proc/self/ns/net", &self) == 0)
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && snprintf(path, sizeof(path), "/run/netns/%s", e->d_name) < (int)sizeof(path) &&
			    stat(path, &st) == 0 && st.st_ino == self.st_ino && st.st_dev == self.st_dev) {
				snprintf(out, cap, "%s", e->d_name);
				break;
			}
	closedir(d);
}

static int do_target(struct agent *a)
{
	struct rpmem_state *s = state(a);
	char ns[NAME_MAX + 1];

	if (!s)
		return agent_reply_err(a, errno, "no root config directory: %s", root_err);
	own_netns(ns, sizeof(ns));
	return proto_send(a->fd, "ok ip=%s root=%s netns=%s", a->node->ipv4, s->root, ns);
}

/* The directory of this program (where rpmemd-rpma and rpmem-connect are) into dir. 0 or EINVAL. */
static int exe_dir(char *dir, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
	char *slash;

	if (n <= 0)
		return EINVAL;
	dir[n] = '\0';
	if (!(slash = strrchr(dir, '/')) || strpbrk(dir, " \t"))
		return EINVAL; /* RPMEM_CMD is split at blanks */
	*slash = '\0';
	return 0;
}

int agent_rpmem_daemon_argv(const char *dir, const char *root, struct agent_rpmem_daemon *d,
			    const char *argv[AGENT_RPMEM_ARGC + 1])
{
	if ((size_t)snprintf(d->exe, sizeof(d->exe), "%s/rpmemd-rpma", dir) >= sizeof(d->exe) ||
	    (size_t)snprintf(d->root, sizeof(d->root), "%s", root) >= sizeof(d->root))
		return EINVAL;
	snprintf(d->lanes, sizeof(d->lanes), "%u", DAEMON_LANES);
	argv[0] = d->exe;
	argv[1] = "-c";
	argv[2] = "/dev/null"; /* no rpmemd.conf of the machine's or the user's (rpmemd_config.c) */
	argv[3] = "--poolset-dir";
	argv[4] = d->root;
	argv[5] = "-n";
	argv[6] = d->lanes;
	argv[7] = NULL;
	return 0;
}

/*
 * The child of rpmem_serve: wait for the client with the key on lfd
 * (SERVE_WAIT_MS in all; strangers without it are read side by side and
 * closed, rpmem_key_accept), and become the daemon on it (as the client's
 * RPMEM_CMD starts it: agent_rpmem_daemon_argv), its control channel on
 * stdin/stdout. Never returns.
 */
static void serve_child(int lfd, const char *key, const char *dir, const char *root, const char *node)
{
	struct agent_rpmem_daemon d;
	const char *argv[AGENT_RPMEM_ARGC + 1];
	int c;

	if (agent_rpmem_daemon_argv(dir, root, &d, argv))
		_exit(1);
	c = rpmem_key_accept(lfd, key, SERVE_WAIT_MS);
	close(lfd);
	if (c < 0) {
		fprintf(stderr, "agent %s: rpmem_serve: no client with the key: %s\n", node, strerror(-c));
		_exit(1);
	}
	if (dup2(c, 0) < 0 || dup2(c, 1) < 0)
		_exit(1);
	close(c);
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

/* Reap the served daemons that ended; the index of a free slot, or -1. */
static int served_slot(struct rpmem_state *s)
{
	int free_at = -1;

	for (int i = 0; i < SERVED_MAX; i++) {
		if (s->served[i] > 0 && waitpid(s->served[i], NULL, WNOHANG) == s->served[i])
			s->served[i] = 0;
		if (s->served_fd[i] > 0 && agent_rpmem_session_ended(s->served_fd[i], 0)) {
			close(s->served_fd[i]);
			s->served_fd[i] = 0;
		}
		if (!s->served[i] && !s->served_fd[i] && free_at < 0)
			free_at = i;
	}
	return free_at;
}

/*
 * rpmem_serve: start this target's daemon for a client on another kernel (a
 * node per VM, a real host), as ssh would: a port on the node's address that
 * takes one connection bringing the one-time key, then runs the daemon on it.
 */
static int do_serve(struct agent *a)
{
	struct rpmem_state *s = state(a);
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	char key[2 * RPMEM_KEY_BYTES + 1], dir[PATH_MAX];
	struct agent_rpmem_daemon d;
	const char *argv[AGENT_RPMEM_ARGC + 1];
	char ns[NAME_MAX + 1];
	int lfd = -1, slot, rc;
	pid_t pid, self = getpid();

	if (!s)
		return agent_reply_err(a, errno, "no root config directory: %s", root_err);
	if ((slot = served_slot(s)) < 0)
		return agent_reply_err(a, EAGAIN, "%d daemons served already", SERVED_MAX);
	if (exe_dir(dir, sizeof(dir)) || inet_pton(AF_INET, a->node->ipv4, &sin.sin_addr) != 1)
		return agent_reply_err(a, EINVAL, "no daemon or no address %s", a->node->ipv4);
	if ((rc = -rpmem_key_new(key, sizeof(key))) != 0)
		return agent_reply_err(a, rc, "no key");
	if ((lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 || bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(lfd, RPMEM_KEY_PEERS_MAX) || getsockname(lfd, (struct sockaddr *)&sin, &sl))
		goto fail;
	if (agent_rpmem_daemon_argv(dir, s->root, &d, argv) == 0 &&
	    (rc = agent_rpmem_zygote_serve(dir, lfd, key, SERVE_WAIT_MS, argv)) > 0) {
		close(lfd);
		s->served_fd[slot] = rc;
		goto served;
	}
	if ((pid = fork()) < 0) /* no zygote: a fork of this agent that execs the daemon */
		goto fail;
	if (pid == 0) {
		if (proc_die_with(self, SIGKILL) == -ESRCH) /* a killed agent's daemon goes with it */
			_exit(1);
		serve_child(lfd, key, dir, s->root, a->node->name);
	}
	close(lfd);
	s->served[slot] = pid;
served:
	own_netns(ns, sizeof(ns));
	return proto_send(a->fd, "ok port=%u key=%s ip=%s root=%s netns=%s", ntohs(sin.sin_port), key, a->node->ipv4,
			  s->root, ns);
fail:
	rc = errno;
	if (lfd >= 0)
		close(lfd);
	return agent_reply_err(a, rc, "cannot serve on %s: %s", a->node->ipv4, strerror(rc));
}

/* Write set `name`'s file: parts parts of size bytes (NAME.partI), option opt; malformed: text that does not parse. */
static int do_poolset(struct agent *a)
{
	struct rpmem_state *s = state(a);
	char name[M_RPMEM_NAME_MAX], path[PATH_MAX + M_RPMEM_NAME_MAX + 2];
	uint64_t size = agent_num(a, "size", 0), parts = agent_num(a, "parts", 1), opt = agent_num(a, "opt", 0);
	FILE *f;
	int bad, fd;

	if (!s)
		return agent_reply_err(a, errno, "no root config directory: %s", root_err);
	if (proto_get(a->msg, "set", name, sizeof(name)) || !rpmem_set_name_ok(name) || parts < 1 || parts > M_RPMEM_PARTS)
		return agent_reply_err(a, EINVAL, "bad pool set request");
	snprintf(path, sizeof(path), "%s/%s", s->root, name);
	fd = openat(s->dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return agent_reply_err(a, e, "cannot write %s", path);
	}
	bad = fputs(agent_num(a, "malformed", 0) ? "PMEMPOOLSET\nREPLICA\n" : "PMEMPOOLSET\n", f) < 0;
	if (opt && !agent_num(a, "malformed", 0))
		bad |= fprintf(f, "OPTION %s\n", rpmem_opt_str((enum rpmem_opt)opt)) < 0;
	for (uint64_t i = 0; i < parts; i++)
		bad |= fprintf(f, "%llu %s.part%llu\n", (unsigned long long)size, name, (unsigned long long)i) < 0;
	if (fclose(f) || bad)
		return agent_reply_err(a, EIO, "cannot write %s", path);
	return proto_send(a->fd, "ok");
}

/*
 * len bytes (<= AGENT_RPMEM_RUNS_MAX) of set `name`'s pool at pool offset off,
 * from the part files, as runs "HH:COUNT,..." (for check and the
 * end-of-scenario comparison: a pool is mostly long runs, so a line carries
 * much of it); n= says how many bytes the runs cover (as many as fit the line).
 */
#define RUNS_TEXT_MAX (PROTO_LINE_MAX - 64)
static int do_pool_runs(struct agent *a)
{
	struct rpmem_state *s = state(a);
	uint64_t off = agent_num(a, "off", 0), len = agent_num(a, "len", 0);
	char name[M_RPMEM_NAME_MAX], *text = NULL;
	uint8_t *buf = NULL;
	size_t at = 0, used = 0;
	int rc;

	if (!s || proto_get(a->msg, "set", name, sizeof(name)) || !len || len > AGENT_RPMEM_RUNS_MAX)
		return agent_reply_err(a, EINVAL, "bad pool read request");
	if (!(buf = malloc(len)) || !(text = malloc(RUNS_TEXT_MAX))) {
		free(buf);
		return agent_reply_err(a, ENOMEM, "no memory");
	}
	if ((rc = rpmem_poolset_pread(s->root, name, off, buf, (size_t)len)) != 0) {
		free(buf);
		free(text);
		return agent_reply_err(a, rc == -ERANGE ? ENOENT : -rc, "pool %s: no bytes at %llu", name,
				       (unsigned long long)off);
	}
	text[0] = '\0';
	while (at < len && used + 32 < RUNS_TEXT_MAX) {
		size_t run = 1;

		while (at + run < len && buf[at + run] == buf[at])
			run++;
		used += (size_t)snprintf(text + used, RUNS_TEXT_MAX - used, "%s%02x:%zu", used ? "," : "", buf[at], run);
		at += run;
	}
	rc = proto_send(a->fd, "ok n=%zu runs=%s", at, text);
	free(buf);
	free(text);
	return rc;
}

/* Where the daemon rpmem_serve started listens (target_env), for the library's dial. */
static struct {
	char ip[64], port[16], key[2 * RPMEM_KEY_BYTES + 1];
} served_at;

/* rpmem_set_channel's dial: what rpmem-connect IP PORT does, in this process. */
static int dial_served(void *arg)
{
	(void)arg;
	return rpmem_dial(served_at.ip, served_at.port, served_at.key);
}

/*
 * Point the library at the request's target (ip, root, netns, [port key]):
 * RPMEM_SSH empty; RPMEM_CMD the daemon next to this program, entered into
 * the target's namespace, or, with port and key (a target on another kernel
 * whose agent started the daemon: rpmem_serve), rpmem-connect IP PORT with
 * the key in RPMEM_CONNECT_KEY — which the library does itself, no process
 * started (rpmem_set_channel: dial_served; the command is still set, and
 * parsed as before). *ip receives the target. 0 or a positive errno.
 */
static int target_env(struct agent *a, char *ip, size_t cap)
{
	char root[PATH_MAX], ns[NAME_MAX + 1], exe[PATH_MAX], cmd[3 * PATH_MAX], port[16], key[2 * RPMEM_KEY_BYTES + 1];
	struct agent_rpmem_daemon d;
	const char *argv[AGENT_RPMEM_ARGC + 1];

	if (proto_get(a->msg, "ip", ip, cap) || proto_get(a->msg, "root", root, sizeof(root)) ||
	    proto_get(a->msg, "netns", ns, sizeof(ns)) || exe_dir(exe, sizeof(exe)) || strpbrk(root, " \t"))
		return EINVAL;
	if (proto_get(a->msg, "port", port, sizeof(port)) == 0) {
		if (proto_get(a->msg, "key", key, sizeof(key)) || strpbrk(ip, " \t") || strpbrk(port, " \t"))
			return EINVAL;
		snprintf(cmd, sizeof(cmd), "%s/rpmem-connect %s %s", exe, ip, port);
		setenv("RPMEM_CONNECT_KEY", key, 1);
		snprintf(served_at.ip, sizeof(served_at.ip), "%s", ip);
		snprintf(served_at.port, sizeof(served_at.port), "%s", port);
		snprintf(served_at.key, sizeof(served_at.key), "%s", key);
		rpmem_set_channel(dial_served, NULL);
	} else {
		rpmem_set_channel(NULL, NULL);
		size_t off = (size_t)snprintf(cmd, sizeof(cmd), "%s%s%s", strcmp(ns, "-") ? "ip netns exec " : "",
					      strcmp(ns, "-") ? ns : "", strcmp(ns, "-") ? " " : "");

		if (agent_rpmem_daemon_argv(exe, root, &d, argv))
			return EINVAL;
		for (int i = 0; argv[i] && off < sizeof(cmd); i++)
			off += (size_t)snprintf(cmd + off, sizeof(cmd) - off, "%s%s", i ? " " : "", argv[i]);
		if (off >= sizeof(cmd))
			return EINVAL;
	}
	setenv("RPMEM_SSH", "", 1);
	setenv("RPMEM_CMD", cmd, 1);
	agent_rpma_source(a->node->ipv4);
	return 0;
}

/* attr=HEX over zero attributes into *at; 1 if given. */
static int attr_field(struct agent *a, struct rpmem_pool_attr *at)
{
	char hex[2 * sizeof(*at) + 1];

	memset(at, 0, sizeof(*at));
	return proto_get(a->msg, "attr", hex, sizeof(hex)) == 0 && proto_hex_decode(hex, (uint8_t *)at, sizeof(*at)) >= 0;
}

static int reply_errno(struct agent *a, int e)
{
	return agent_reply_err(a, e ? e : EIO, "%s", rpmem_errormsg());
}

static int do_create_open(struct agent *a)
{
	int create = proto_is(a->msg, "rpmem_create");
	uint64_t size = agent_num(a, "size", 0), nulls = agent_num(a, "nulls", 0), env = agent_num(a, "max_nlanes_env", 0);
	struct aobj *o = agent_new_obj(a);
	struct rpmem_pool_attr at, got;
	char ip[64], set[M_RPMEM_NAME_MAX], envs[24];
	unsigned nlanes = (unsigned)agent_num(a, "nlanes", 1);
	struct rpool *p;
	int rc, has_attr = attr_field(a, &at);

	if (!o || proto_get(a->msg, "set", set, sizeof(set)))
		return agent_reply_err(a, EINVAL, "bad id or set");
	if ((rc = target_env(a, ip, sizeof(ip))) != 0)
		return agent_reply_err(a, rc, "bad target fields");
	if (!(p = calloc(1, sizeof(*p))))
		return agent_reply_err(a, ENOMEM, "no memory");
	o->kind = AO_RPMEM_POOL;
	o->ext = p;
	o->release = release;
	if ((rc = agent_buffer(o, size ? (size < AGENT_BUF_MAX ? size : AGENT_BUF_MAX) : 1, agent_num(a, "addr_off", 0), 0)))
		return agent_reply_err(a, -rc, "no pool memory of %llu bytes", (unsigned long long)size);
	if (env) {
		snprintf(envs, sizeof(envs), "%llu", (unsigned long long)env);
		setenv("RPMEM_MAX_NLANES", envs, 1);
	} else {
		unsetenv("RPMEM_MAX_NLANES");
	}
	void *addr = agent_num(a, "null_addr", 0) ? NULL : o->buf;
	unsigned *np = nulls & M_RPMEM_NULL_NLANES ? NULL : &nlanes;
	int null_attr = !!(nulls & M_RPMEM_NULL_ATTR);

	errno = 0;
	p->rpp = create ? rpmem_create(ip, set, addr, (size_t)size, np, null_attr || !has_attr ? NULL : &at)
			: rpmem_open(ip, set, addr, (size_t)size, np, null_attr ? NULL : &got);
	if (!p->rpp)
		return reply_errno(a, errno);
	p->nlanes = nlanes;
	p->relayed = !proto_get(a->msg, "port", envs, sizeof(envs));
	o->live = 1;
	if (create || null_attr)
		return proto_send(a->fd, "ok nlanes=%u", nlanes);
	/* open: what it put into open_attr, field by field (model/rpmem/query.c) */
	char attrs[PROTO_LINE_MAX];
	size_t off = 0;
	struct m_rpmem_attr ma;

	memcpy(&ma, &got, sizeof(ma));
	for (unsigned i = 0; i < M_RPMEM_ATTR_KEYS && off < sizeof(attrs); i++)
		off += (size_t)snprintf(attrs + off, sizeof(attrs) - off, " %s=0x%llx", m_rpmem_attr_keys[i],
					(unsigned long long)m_rpmem_attr_value(&ma, i));
	return proto_send(a->fd, "ok nlanes=%u%s", nlanes, attrs);
}

/* The live pool of the request's id, or NULL with the error answered. */
static struct rpool *pool(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMEM_POOL, 1);
	struct rpool *p = o ? o->ext : NULL;

	if (!p || !p->rpp)
		agent_reply_err(a, ENOENT, "no such pool");
	return p && p->rpp ? p : NULL;
}

static int do_set_attr(struct agent *a)
{
	struct rpool *p = pool(a);
	struct rpmem_pool_attr at;
	int has = attr_field(a, &at);

	if (!p)
		return 0;
	errno = 0;
	if (rpmem_set_attr(p->rpp, agent_num(a, "nulls", 0) & M_RPMEM_NULL_ATTR || !has ? NULL : &at))
		return reply_errno(a, errno);
	return proto_send(a->fd, "ok");
}

static int do_close(struct agent *a)
{
	struct aobj *o = agent_field_obj(a, "id", AO_RPMEM_POOL, 1);
	struct rpool *p = pool(a);
	int rc;

	if (!p)
		return 0;
	errno = 0;
	rc = rpmem_close(p->rpp); /* the handle is gone whatever it says */
	p->rpp = NULL;
	o->live = 0;
	return rc ? reply_errno(a, errno) : proto_send(a->fd, "ok");
}

static int do_remove(struct agent *a)
{
	char ip[64], set[M_RPMEM_NAME_MAX];
	int rc;

	if (proto_get(a->msg, "set", set, sizeof(set)))
		return agent_reply_err(a, EINVAL, "no set");
	if ((rc = target_env(a, ip, sizeof(ip))) != 0)
		return agent_reply_err(a, rc, "bad target fields");
	errno = 0;
	if (rpmem_remove(ip, set, (int)agent_num(a, "flags", 0)))
		return reply_errno(a, errno);
	return proto_send(a->fd, "ok");
}

/* persist, deep_persist, flush, drain, read. */
static int do_data(struct agent *a)
{
	struct rpool *p = pool(a);
	size_t off = (size_t)agent_num(a, "off", 0), len = (size_t)agent_num(a, "len", 0);
	unsigned lane = (unsigned)agent_num(a, "lane", 0), flags = (unsigned)agent_num(a, "flags", 0);
	void *scratch = NULL;
	int rc;

	if (!p)
		return 0;
	errno = 0;
	if (proto_is(a->msg, "rpmem_persist"))
		rc = rpmem_persist(p->rpp, off, len, lane, flags);
	else if (proto_is(a->msg, "rpmem_deep_persist"))
		rc = rpmem_deep_persist(p->rpp, off, len, lane);
	else if (proto_is(a->msg, "rpmem_flush"))
		rc = rpmem_flush(p->rpp, off, len, lane, flags);
	else if (proto_is(a->msg, "rpmem_drain"))
		rc = rpmem_drain(p->rpp, lane, flags);
	else {
		/* into a buffer of its own: what the client's pool memory holds stays the model's */
		scratch = len <= READ_SCRATCH_MAX ? malloc(len ? len : 1) : NULL;
		rc = rpmem_read(p->rpp, scratch, off, len, lane);
		free(scratch);
	}
	return rc ? reply_errno(a, errno) : proto_send(a->fd, "ok");
}

/*
 * The target goes away under the pool: its daemon (the command this client
 * started) is killed, or, on another kernel, ends with its channel.
 */
static int do_link_down(struct agent *a)
{
	struct rpool *p = pool(a);

	if (!p)
		return 0;
	if (p->relayed && p->rpp->pid == 0 && p->rpp->fd >= 0) {
		/* dialed in process (dial_served): end the channel as rpmem-connect's SIGTERM does, and
		 * wait for the daemon's end (its side closes) */
		char sink[256];
		struct pollfd pf = { .fd = p->rpp->fd, .events = POLLIN };

		shutdown(p->rpp->fd, SHUT_WR);
		while (poll(&pf, 1, SERVE_WAIT_MS) > 0 || errno == EINTR) {
			ssize_t n = read(p->rpp->fd, sink, sizeof(sink));

			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				break;
		}
	} else if (p->rpp->pid > 0) {
		/* a relay is told to end the channel and waits for the daemon's end (connect.c) */
		kill(p->rpp->pid, p->relayed ? SIGTERM : SIGKILL);
		while (waitpid(p->rpp->pid, NULL, 0) < 0 && errno == EINTR)
			;
		p->rpp->pid = 0; /* reaped: rpmem_close must not wait for it again */
	}
	return proto_send(a->fd, "ok");
}

const struct agent_req agent_rpmem_reqs[] = {
	{ "rpmem_target", do_target },       { "rpmem_poolset", do_poolset },       { "rpmem_pool_runs", do_pool_runs },
	{ "rpmem_create", do_create_open },  { "rpmem_open", do_create_open },      { "rpmem_set_attr", do_set_attr },
	{ "rpmem_close", do_close },         { "rpmem_remove", do_remove },         { "rpmem_persist", do_data },
	{ "rpmem_deep_persist", do_data },   { "rpmem_flush", do_data },            { "rpmem_drain", do_data },
	{ "rpmem_read", do_data },           { "rpmem_link_down", do_link_down },
	{ "rpmem_serve", do_serve },         { NULL, NULL },
};

/*
 * Remove the root config directory and what the scenario put there (set and
 * part files): an agent kept for the next scenario (a node on another
 * kernel) must not show it this one's pools.
 */
static void root_remove(const struct rpmem_state *s)
{
	int fd = dup(s->dirfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(s->dirfd, e->d_name, 0); /* in the directory found to be ours, not through a path */
	closedir(d);
	rmdir(s->root);
}

void agent_rpmem_end(struct agent *a)
{
	struct rpmem_state *s = a->state[M_FAM_RPMEM];

	for (int i = 0; s && i < SERVED_MAX; i++) {
		if (s->served[i] > 0) { /* its client is gone with the scenario */
			kill(s->served[i], SIGKILL);
			while (waitpid(s->served[i], NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (s->served_fd[i] > 0) {
			agent_rpmem_session_ended(s->served_fd[i], 1);
			close(s->served_fd[i]);
		}
	}
	if (s) {
		root_remove(s);
		close(s->dirfd);
	}
	free(a->state[M_FAM_RPMEM]);
	a->state[M_FAM_RPMEM] = NULL;
}

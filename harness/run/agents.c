/*
 * agents.c — the real stack's transport: one agent process per scenario node
 * (agent.h; the program build/rdmacheck-agent, harness/agent/main.c), spawned
 * into its node's network namespace and talked to over a socketpair with the
 * line protocol (proto.h), or, for a node on another kernel (topology mode
 * hosts), already listening there and dialled over TCP with the run's secret
 * (remote.h; the token file named by RDMACHECK_AGENT_TOKEN). stack.h declares
 * it. Only the agent program links the stack's libraries.
 */
#define _GNU_SOURCE /* nftw, POLLRDHUP */
#include "harness/base/proc.h"
#include "harness/run/stack.h"
#include "harness/run/proto.h"
#include "harness/run/remote.h"
#include "harness/run/steptime.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HELLO_MS 15000 /* opening the device can be slow under TCG */

/* Why agent i ended (ws from waitpid), for reports. */
static void say_died(struct stack *st, unsigned i, int ws)
{
	if (st->ag[i].remote)
		snprintf(st->err, sizeof(st->err), "agent of node %s at %s: the connection was lost", st->f->nodes[i],
			 st->ag[i].remote);
	else if (WIFSIGNALED(ws))
		snprintf(st->err, sizeof(st->err), "agent of node %s died (killed by signal %d)", st->f->nodes[i],
			 WTERMSIG(ws));
	else
		snprintf(st->err, sizeof(st->err), "agent of node %s died (exit status %d)", st->f->nodes[i],
			 WEXITSTATUS(ws));
}

/*
 * Whether agent i has ended (reaped now, waiting up to wait_ms for it, or
 * before): if so its fd is closed, st->err says how it ended and the
 * answer is 1; else 0.
 */
static int agent_ended(struct stack *st, unsigned i, int wait_ms)
{
	struct stack_agent *ag = &st->ag[i];
	const struct timespec tick = { 0, 10000000 };
	int ws;

	if (ag->remote && !ag->dead && ag->fd >= 0) { /* no process of ours: its connection tells */
		struct pollfd p = { .fd = ag->fd, .events = POLLRDHUP };

		if (poll(&p, 1, wait_ms) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
			ag->dead = 1;
	}
	for (int waited = 0; !ag->dead && ag->pid > 0; waited += 10) {
		if (waitpid(ag->pid, &ws, WNOHANG) == ag->pid) {
			ag->pid = 0;
			ag->dead = 1;
			ag->ws = ws;
			break;
		}
		if (waited >= wait_ms)
			return 0;
		nanosleep(&tick, NULL);
	}
	if (!ag->dead)
		return 0;
	if (ag->fd >= 0)
		close(ag->fd);
	ag->fd = -1;
	proto_rd_reset(&ag->rd);
	say_died(st, i, ag->ws);
	return 1;
}

/* Send the request line req to node's agent: 0, or -EPIPE with st->err. */
static int send_line(struct stack *st, unsigned node, const char *req)
{
	int rc;

	if (node >= st->n || st->ag[node].fd < 0)
		return -EPIPE;
	rc = proto_send(st->ag[node].fd, "%s", req);
	if (rc) {
		/* its socket closed: say how it ended once it is reaped, as stack_recv does */
		if (!agent_ended(st, node, 1000))
			snprintf(st->err, sizeof(st->err), "agent of node %s: cannot send: %s", st->f->nodes[node],
				 strerror(-rc));
		return -EPIPE;
	}
	return 0;
}

/* Run-ahead, st->capture: queue req for its stack_call, to be written by ahead_flush. -EINPROGRESS or -EAGAIN. */
static int ahead_queue(struct stack *st, unsigned node, const char *req)
{
	unsigned slot = (st->ahead_head + st->nahead) % STACK_AHEAD_MAX;
	size_t n = strnlen(req, STACK_AHEAD_LINE);

	if (st->nahead == STACK_AHEAD_MAX || n == STACK_AHEAD_LINE)
		return -EAGAIN; /* a full queue, or longer than a slot: it goes in its turn */
	if (node >= st->n || st->ag[node].fd < 0)
		return -EPIPE;
	memcpy(st->ahead[slot], req, n); /* a copy, not a format: this runs for every step sent ahead */
	st->ahead[slot][n] = '\0';
	st->ahead_nd[slot] = (uint8_t)node;
	st->ahead_per[node]++;
	st->nahead++;
	st->unsent++;
	return -EINPROGRESS;
}

/* Write the unsent requests queued ahead for node, all in one write (the agent reads them together, and may
 * answer them together: agent.h). 0, or -EPIPE with st->err as send_line. */
static int ahead_flush_node(struct stack *st, unsigned node)
{
	size_t len = 0, off = 0;
	char *buf;
	int rc;

	for (unsigned k = st->nahead - st->unsent; k < st->nahead; k++) {
		unsigned slot = (st->ahead_head + k) % STACK_AHEAD_MAX;

		if (st->ahead_nd[slot] == node)
			len += strlen(st->ahead[slot]) + 1;
	}
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	for (unsigned k = st->nahead - st->unsent; k < st->nahead; k++) {
		unsigned slot = (st->ahead_head + k) % STACK_AHEAD_MAX;
		size_t n = strlen(st->ahead[slot]);

		if (st->ahead_nd[slot] != node)
			continue;
		memcpy(buf + off, st->ahead[slot], n);
		buf[off + n] = '\n';
		off += n + 1;
	}
	rc = proto_send_bytes(st->ag[node].fd, buf, len);
	free(buf);
	if (rc && !agent_ended(st, node, 1000)) /* its socket closed: say how it ended, as send_line */
		snprintf(st->err, sizeof(st->err), "agent of node %s: cannot send: %s", st->f->nodes[node],
			 strerror(-rc));
	return rc ? -EPIPE : 0;
}

/* Write the requests queued ahead and not sent yet, each node's in one write (ahead_flush_node), in the order
 * of their oldest. 0, or the first failure of ahead_flush_node. */
static int ahead_flush(struct stack *st)
{
	uint32_t done = 0; /* bit N: node N's written */
	int rc = 0;

	_Static_assert(SCN_NODES_MAX <= 32, "a node a bit");
	for (unsigned k = st->nahead - st->unsent; k < st->nahead && !rc; k++) {
		unsigned node = st->ahead_nd[(st->ahead_head + k) % STACK_AHEAD_MAX];

		if (!(done & (1u << node))) {
			done |= 1u << node;
			rc = ahead_flush_node(st, node);
		}
	}
	st->unsent = 0;
	return rc;
}

/* With requests sent ahead to node, the one asked of it must be the oldest of all: 0 (taken off the queue),
 * -EPROTO, or as ahead_flush. */
static int ahead_take(struct stack *st, unsigned node, const char *req)
{
	int rc = ahead_flush(st); /* it among them: written before its answer is awaited */
	unsigned head = st->ahead_head;

	if (rc)
		return rc;
	if (st->ahead_nd[head] == node && strcmp(st->ahead[head], req) == 0) {
		st->ahead_head = (head + 1) % STACK_AHEAD_MAX;
		st->ahead_per[node]--;
		st->nahead--;
		return 0;
	}
	snprintf(st->err, sizeof(st->err), "request '%.60s' to node %s, but '%.60s' was sent ahead to node %s first", req,
		 st->f->nodes[node], st->ahead[head], st->f->nodes[st->ahead_nd[head]]);
	return -EPROTO;
}

int stack_send(struct stack *st, unsigned node, const char *fmt, ...)
{
	char req[PROTO_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(req, sizeof(req), fmt, ap);
	va_end(ap);
	if (node < st->n && st->ahead_per[node]) {
		snprintf(st->err, sizeof(st->err), "request '%.60s' to node %s while requests were sent ahead to it", req,
			 st->f->nodes[node]);
		return -EPROTO;
	}
	return send_line(st, node, req);
}

/* What a read from node's agent that returned rc (< 0) means: -ETIMEDOUT or -EPIPE, the reason in st->err. */
static int recv_failed(struct stack *st, unsigned node, int rc, int timeout_ms)
{
	if (rc == -ETIMEDOUT) {
		st->ag[node].stale = 1; /* its answer may still come: never kept for another scenario */
		snprintf(st->err, sizeof(st->err), "agent of node %s did not answer within %d ms",
			 st->f->nodes[node], timeout_ms);
		return -ETIMEDOUT;
	}
	if (rc < 0) {
		/* its socket closed: say how it ended once it is reaped (it exits just after) */
		if (!agent_ended(st, node, 1000))
			snprintf(st->err, sizeof(st->err), "agent of node %s died", st->f->nodes[node]);
		return -EPIPE;
	}
	return rc;
}

int stack_recv(struct stack *st, unsigned node, char *reply, int timeout_ms)
{
	int rc = ahead_flush(st);

	if (rc)
		return rc;
	st->waits += st->ag[node].rd.off == st->ag[node].rd.len;
	rc = proto_recv(st->ag[node].fd, &st->ag[node].rd, reply, PROTO_LINE_MAX, timeout_ms);
	return rc < 0 ? recv_failed(st, node, rc, timeout_ms) : 0;
}

int stack_recv_bytes(struct stack *st, unsigned node, void *out, size_t n, int timeout_ms)
{
	int rc = ahead_flush(st);

	if (rc)
		return rc;
	rc = proto_recv_bytes(st->ag[node].fd, &st->ag[node].rd, out, n, timeout_ms);

	return rc < 0 ? recv_failed(st, node, rc, timeout_ms) : 0;
}

int stack_call(struct stack *st, unsigned node, char *reply, const char *fmt, ...)
{
	char req[PROTO_LINE_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(req, sizeof(req), fmt, ap);
	va_end(ap);
	if (st->capture)
		return ahead_queue(st, node, req);
	double t0 = steptime_now();

	rc = node < st->n && st->ahead_per[node] ? ahead_take(st, node, req) : send_line(st, node, req);
	steptime_add(ST_SEND, t0);
	if (rc)
		return rc;
	t0 = steptime_now();
	rc = stack_recv(st, node, reply, st->step_ms + st->extra_ms + STACK_SLACK_MS);
	steptime_add(ST_WAIT, t0);
	if (rc) {
		size_t l = strlen(st->err);

		snprintf(st->err + l, sizeof(st->err) - l, " (request '%.60s')", req);
	}
	return rc;
}

/*
 * The agent program (main.c): $RDMACHECK_AGENT, else rdmacheck-agent beside
 * this executable (a build directory), else where `make install` puts it
 * (PREFIX/libexec/rdmacheck/ for PREFIX/bin/rdmacheck). 0 with its path in
 * buf, or -ENOENT.
 */
static int agent_path(char *buf, size_t len)
{
	const char *env = getenv("RDMACHECK_AGENT");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env)
		return snprintf(buf, len, "%s", env) < (int)len ? 0 : -ENAMETOOLONG;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -ENOENT;
	*slash = '\0';
	if (snprintf(buf, len, "%s/rdmacheck-agent", exe) >= (int)len)
		return -ENAMETOOLONG;
	if (access(buf, X_OK) == 0)
		return 0;
	return snprintf(buf, len, "%s/../libexec/rdmacheck/rdmacheck-agent", exe) < (int)len ? 0 : -ENAMETOOLONG;
}

/* In the forked child, in the node's namespace: become the node's agent serving fd. Does not return. */
static void exec_agent(int fd, const char *node, const struct topo_node *tn, int step_ms, const char *agent)
{
	char o_fd[32], o_node[SCN_NAME_MAX + 16], o_ib[96], o_net[96], o_ip[96], o_gid[32], o_step[32];
	char *argv[] = { (char *)agent, o_fd, o_node, o_ib, o_net, o_ip, o_gid, o_step, NULL };
	int flags = fcntl(fd, F_GETFD);

	snprintf(o_fd, sizeof(o_fd), "--fd=%d", fd);
	snprintf(o_node, sizeof(o_node), "--node=%s", node);
	snprintf(o_ib, sizeof(o_ib), "--ibdev=%s", tn->rxe);
	snprintf(o_net, sizeof(o_net), "--netdev=%s", tn->netdev);
	snprintf(o_ip, sizeof(o_ip), "--ipv4=%s", tn->ipv4);
	snprintf(o_gid, sizeof(o_gid), "--gid-index=%d", tn->gid_index);
	snprintf(o_step, sizeof(o_step), "--step-ms=%d", step_ms);
	if (flags < 0 || fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0) /* the agent inherits the socket */
		proto_send(fd, "err errno=%d msg=cannot hand the socket to the agent", errno);
	else
		execv(agent, argv);
	proto_send(fd, "err errno=%d msg=cannot run %s: %s (make builds it)", errno, agent, strerror(errno));
	_exit(3);
}

/*
 * Whether a child of this process may have ended and not been reaped: one
 * waitid over all of them that reaps none. 0 when none has, 1 when one has
 * (an agent or another child: the runner's streams) or the call cannot tell.
 */
static int child_ended(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return 1;
	return si.si_pid != 0;
}

/*
 * A forked agent that ended is a child not reaped yet, so while no child has
 * ended (one system call, child_ended) none of them is asked by its pid; an
 * agent known dead, or dialled (remote: its connection tells), is always.
 */
int stack_watch(struct stack *st)
{
	int look = -1; /* child_ended, asked once when a forked agent needs it */

	for (unsigned i = 0; i < st->n; i++) {
		const struct stack_agent *ag = &st->ag[i];

		if (!ag->dead && !ag->remote && ag->pid > 0) {
			if (look < 0)
				look = child_ended();
			if (!look)
				continue;
		}
		if (agent_ended(st, i, 0))
			return -EPIPE;
	}
	return 0;
}

int stack_tmp_make(char *tmp, size_t len, char *err, size_t errlen)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmp, len, "%s/rdmacheck-run-XXXXXX", base && base[0] && strlen(base) < 16 ? base : "/tmp");
	if (mkdtemp(tmp))
		return 0;
	int rc = -errno;

	snprintf(err, errlen, "cannot make a temporary directory %s: %s", tmp, strerror(-rc));
	tmp[0] = '\0';
	return rc;
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	if (ftw->level == 0 && type == FTW_DP)
		return 0; /* the directory itself: stack_tmp_remove's */
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void stack_tmp_clear(const char *tmp)
{
	if (tmp[0])
		nftw(tmp, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

void stack_tmp_remove(char *tmp)
{
	stack_tmp_clear(tmp);
	if (tmp[0])
		rmdir(tmp);
	tmp[0] = '\0';
}

/* Agent i's greeting on its fd: its GID, or the reason it could not serve in st->err. */
static int greeted(struct stack *st, unsigned i, const struct topo_node *tn)
{
	char hello[PROTO_LINE_MAX];
	int rc;

	proto_rd_reset(&st->ag[i].rd);
	rc = proto_recv(st->ag[i].fd, &st->ag[i].rd, hello, sizeof(hello), HELLO_MS);

	if (rc < 0 || !proto_is(hello, "ok")) {
		char msg[200] = "no greeting";

		if (rc >= 0)
			proto_get_tail(hello, "msg", msg, sizeof(msg));
		snprintf(st->err, sizeof(st->err), "agent of node %s (%s on %s%s%s): %s", st->f->nodes[i], tn->rxe,
			 tn->netdev, tn->agent[0] ? " at " : "", tn->agent, msg);
		return -EHOSTDOWN;
	}
	if (proto_get(hello, "gid", st->ag[i].gid, sizeof(st->ag[i].gid)))
		return -EPROTO;
	if (proto_get(hello, "driver", st->ag[i].driver, sizeof(st->ag[i].driver)))
		st->ag[i].driver[0] = '\0'; /* an agent of before it told */
	if (proto_get(hello, "kernel", st->ag[i].kernel, sizeof(st->ag[i].kernel)))
		st->ag[i].kernel[0] = '\0';
	return 0;
}

/* Agent i of a node on another kernel: dial it with the run's secret (its greeting follows). */
static int dial(struct stack *st, unsigned i, const struct topo_node *tn)
{
	const char *token = getenv("RDMACHECK_AGENT_TOKEN");
	struct remote_key key;
	char err[300];
	int fd;

	st->ag[i].remote = tn->agent;
	if (!token || !*token) {
		snprintf(st->err, sizeof(st->err), "node %s's agent listens at %s: set RDMACHECK_AGENT_TOKEN to the "
			 "run's token file", st->f->nodes[i], tn->agent);
		return -EACCES;
	}
	fd = remote_key_read(token, &key, err, sizeof(err));
	if (fd == 0)
		fd = remote_dial(tn->agent, &key, HELLO_MS, err, sizeof(err));
	memset(&key, 0, sizeof(key));
	if (fd < 0) {
		snprintf(st->err, sizeof(st->err), "agent of node %s at %s: %s", st->f->nodes[i], tn->agent, err);
		return fd;
	}
	st->ag[i].fd = fd;
	return 0;
}

int stack_agent_spawn(struct stack *st, unsigned i, const struct topo_node *tn)
{
	char agent[PATH_MAX];
	int sv[2];
	int rc;
	pid_t self = getpid();

	if (tn->agent[0])
		return dial(st, i, tn);

	if (agent_path(agent, sizeof(agent))) {
		snprintf(st->err, sizeof(st->err), "cannot find rdmacheck-agent (set RDMACHECK_AGENT)");
		return -ENOENT;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(NULL);
	st->ag[i].pid = fork();
	if (st->ag[i].pid < 0) {
		rc = -errno;
		close(sv[0]);
		close(sv[1]);
		return rc;
	}
	if (st->ag[i].pid == 0) {
		for (unsigned j = 0; j < i; j++)
			close(st->ag[j].fd);
		close(sv[0]);
		signal(SIGPIPE, SIG_IGN);
		signal(SIGINT, SIG_DFL); /* the runner's interrupt handling is not the agent's: */
		signal(SIGTERM, SIG_DFL); /* an interrupted run's agents end at once */
		if (proc_die_with(self, SIGKILL) == -ESRCH) /* and so does a killed one's */
			_exit(3);
		if (st->tmp[0])
			setenv("TMPDIR", st->tmp, 1); /* what an agent writes (uDAPL's dat.conf) goes with the scenario */
		rc = topo_enter_netns(tn);
		if (rc) {
			proto_send(sv[1], "err errno=%d msg=cannot enter netns %s", -rc, tn->netns);
			_exit(3);
		}
		exec_agent(sv[1], st->f->nodes[i], tn, st->step_ms, agent);
	}
	close(sv[1]);
	st->ag[i].fd = sv[0];
	return 0;
}

int stack_agent_greeted(struct stack *st, unsigned i, const struct topo_node *tn)
{
	return greeted(st, i, tn);
}


int stack_start(struct stack *st, const struct scn_file *f, const struct topo *t, int step_ms)
{
	int rc = 0;

	memset(st, 0, sizeof(*st));
	st->f = f;
	st->step_ms = step_ms;
	for (unsigned i = 0; i < SCN_NODES_MAX; i++)
		st->ag[i].fd = -1;
	if (f->nnodes > t->n) {
		snprintf(st->err, sizeof(st->err), "the topology has %zu nodes, the scenario needs %zu", t->n,
			 f->nnodes);
		return -ERANGE;
	}
	st->n = (unsigned)f->nnodes;
	rc = stack_tmp_make(st->tmp, sizeof(st->tmp), st->err, sizeof(st->err));
	for (unsigned i = 0; i < st->n && rc == 0; i++) /* all started, then all greet: they open their devices together */
		rc = stack_agent_spawn(st, i, &t->node[i]);
	for (unsigned i = 0; i < st->n && rc == 0; i++)
		rc = stack_agent_greeted(st, i, &t->node[i]);
	if (rc)
		stack_stop(st);
	return rc;
}

/*
 * Drop what agent ag sent that nobody read (a timed-out request's late answer,
 * bytes nobody asked for: pool.h), at most 64 reads of it: -EPIPE when its
 * end of the connection is closed (it ended), else 0.
 */
static int drain(struct stack_agent *ag)
{
	char buf[4096];
	ssize_t r = -1;

	proto_rd_reset(&ag->rd);
	for (int k = 0; k < 64 && (r = recv(ag->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0; k++)
		;
	return r == 0 ? -EPIPE : 0;
}

int stack_agents_quit(struct stack_agent *ag, unsigned n)
{
	char reply[PROTO_LINE_MAX];
	uint8_t ended[SCN_NODES_MAX] = { 0 }; /* running when asked, and gone without an answer */
	int first = -1;

	if (n > SCN_NODES_MAX)
		n = SCN_NODES_MAX;
	for (unsigned i = 0; i < n; i++) { /* all asked first: they wind down together */
		int rc;

		if (ag[i].fd < 0)
			continue;
		rc = drain(&ag[i]);
		if (rc == 0)
			rc = proto_send(ag[i].fd, "quit");
		if (rc == 0)
			rc = proto_recv(ag[i].fd, &ag[i].rd, reply, sizeof(reply), 3000);
		/* its connection closed: it ended (an answer, or none in 3 s: it ran) */
		ended[i] = !ag[i].dead && (rc == -EPIPE || rc == -ECONNRESET);
	}
	for (unsigned i = 0; i < n; i++) {
		if (ag[i].fd >= 0)
			close(ag[i].fd);
		ag[i].fd = -1;
		proto_rd_reset(&ag[i].rd);
		if (ag[i].pid > 0) {
			int ws = 0;
			struct timespec ts = { 0, 10000000 };

			for (int k = 0; k < 300 && waitpid(ag[i].pid, &ws, WNOHANG) == 0; k++)
				nanosleep(&ts, NULL);
			if (waitpid(ag[i].pid, &ws, WNOHANG) == 0) {
				kill(ag[i].pid, SIGKILL);
				waitpid(ag[i].pid, &ws, 0);
				ended[i] = 0; /* it did not end: it hung, and was killed here */
			}
			ag[i].ws = ws;
			ag[i].pid = 0;
		}
		if (ended[i]) {
			ag[i].dead = 1;
			first = first < 0 ? (int)i : first;
		}
	}
	return first;
}

int stack_agents_end(struct stack *st)
{
	int i = stack_agents_quit(st->ag, st->n);

	if (i < 0)
		return 0;
	say_died(st, (unsigned)i, st->ag[i].ws);
	return -EPIPE;
}

int stack_stop(struct stack *st)
{
	int rc = stack_agents_end(st);

	stack_tmp_remove(st->tmp);
	return rc;
}

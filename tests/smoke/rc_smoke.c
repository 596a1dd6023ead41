/*
 * rc_smoke — the real-traffic smoke test of rdmacheck's foundation.
 *
 * usage: rc-smoke TOPOLOGY-FILE
 *
 * The coordinator (this process) forks one agent per node (a and b of the
 * topology); in netns mode each agent enters its node's namespace first. They
 * talk over socketpairs with the line protocol of harness/run/proto.h; the
 * coordinator relays QPN, GID, address and rkey between them. Checks, on the
 * real stack:
 *   - an RC QP pair connects across the two nodes;
 *   - RDMA WRITE of 4 KiB with a pattern a->b lands byte for byte, and it
 *     crossed b's veth (its receive counter grew);
 *   - RDMA READ brings the same 4 KiB back;
 *   - WRITE into an MR without REMOTE_WRITE completes REM_ACCESS_ERR and leaves
 *     the target unchanged (catalog RA-ACC-1);
 *   - the next request is flushed, WR_FLUSH_ERR (RA-ERR-2);
 *   - both QPs are then in ERR (RA-ERR-2, RA-ERR-3).
 * Output: TAP lines, a trailing plan and a closing "N passed, N failed". Exit 0 iff all passed,
 * 1 if a check failed, 3 for an infrastructure failure (no device, topology
 * unreadable, an agent died or timed out).
 */
#define _GNU_SOURCE /* setns(2) for entering a node's network namespace */
#include "harness/run/proto.h"
#include "tests/smoke/vnode.h"
#include "model/model.h"
#include "netns/topo.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE 4096
#define STEP_TIMEOUT_MS 15000
#define EXIT_INFRA 3

/* ---------------------------------------------------------------- agent -- */

static void pattern(uint8_t *p, size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (uint8_t)x;
	}
}

static int agent_reply_err(int fd, int rc, const char *msg)
{
	char clean[256];
	size_t i;

	for (i = 0; msg[i] && i + 1 < sizeof(clean); i++)
		clean[i] = (msg[i] == ' ' || msg[i] == '\n') ? '_' : msg[i];
	clean[i] = '\0';
	return proto_send(fd, "err errno=%d msg=%s", -rc, clean);
}

/* Receive counters of the node's netdev, from /proc/net/dev of its namespace. */
static int netdev_counters(const char *dev, uint64_t *rx, uint64_t *tx)
{
	char line[512];
	FILE *f = fopen("/proc/net/dev", "r");
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *name = line;
		unsigned long long v[16];

		if (!colon)
			continue;
		*colon = '\0';
		while (*name == ' ')
			name++;
		if (strcmp(name, dev) != 0)
			continue;
		if (sscanf(colon + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) == 10) {
			*rx = v[1];
			*tx = v[9];
			rc = 0;
		}
		break;
	}
	fclose(f);
	return rc;
}

static int agent_main(int fd, const struct topo_node *node)
{
	char msg[PROTO_LINE_MAX], err[256] = "", name[VNODE_NAME_MAX];
	struct vnode n;
	struct proto_rd rd = { 0 };
	int opened = 0;

	for (;;) {
		int rc = proto_recv(fd, &rd, msg, sizeof(msg), -1);
		uint64_t u, len, raddr, rkey, seed;

		if (rc < 0)
			break;
		if (proto_is(msg, "quit")) {
			proto_send(fd, "ok");
			break;
		} else if (proto_is(msg, "open")) {
			char gid[33];

			rc = vnode_open(&n, node->rxe, node->gid_index, err, sizeof(err));
			if (rc) {
				agent_reply_err(fd, rc, err);
				continue;
			}
			opened = 1;
			proto_hex_encode(n.gid.raw, sizeof(n.gid.raw), gid);
			proto_send(fd, "ok qpn=%" PRIu32 " gid=%s", n.qp->qp_num, gid);
		} else if (!opened) {
			agent_reply_err(fd, -EINVAL, "not open");
		} else if (proto_is(msg, "reg")) {
			uint64_t access;
			struct vnode_mr *m;

			if (proto_get(msg, "name", name, sizeof(name)) || proto_get_u64(msg, "len", &len) ||
			    proto_get_u64(msg, "access", &access) || len > (1u << 24)) {
				agent_reply_err(fd, -EINVAL, "bad reg");
				continue;
			}
			rc = vnode_reg(&n, name, len, (int)access, err, sizeof(err));
			if (rc) {
				agent_reply_err(fd, rc, err);
				continue;
			}
			m = vnode_find(&n, name);
			proto_send(fd, "ok addr=0x%" PRIxPTR " lkey=%" PRIu32 " rkey=%" PRIu32,
				   (uintptr_t)m->buf, m->mr->lkey, m->mr->rkey);
		} else if (proto_is(msg, "pattern") || proto_is(msg, "fill") || proto_is(msg, "verify")) {
			struct vnode_mr *m;
			uint8_t *want;
			int by_seed;

			if (proto_get(msg, "name", name, sizeof(name)) || !(m = vnode_find(&n, name))) {
				agent_reply_err(fd, -ENOENT, "no such MR");
				continue;
			}
			by_seed = proto_get_u64(msg, "seed", &seed) == 0;
			if (!by_seed && proto_get_u64(msg, "byte", &u)) {
				agent_reply_err(fd, -EINVAL, "need seed= or byte=");
				continue;
			}
			want = malloc(m->len);
			if (!want) {
				agent_reply_err(fd, -ENOMEM, "malloc");
				continue;
			}
			if (by_seed)
				pattern(want, m->len, seed);
			else
				memset(want, (int)(u & 0xff), m->len);
			if (proto_is(msg, "verify")) {
				size_t i;
				const uint8_t *got = m->buf;

				for (i = 0; i < m->len && got[i] == want[i]; i++)
					;
				if (i == m->len)
					proto_send(fd, "ok");
				else
					proto_send(fd, "ok mismatch=%zu expected=0x%02x got=0x%02x", i, want[i], got[i]);
			} else {
				memcpy(m->buf, want, m->len);
				proto_send(fd, "ok");
			}
			free(want);
		} else if (proto_is(msg, "connect")) {
			char gidhex[40];
			union ibv_gid gid;

			if (proto_get_u64(msg, "qpn", &u) || proto_get(msg, "gid", gidhex, sizeof(gidhex)) ||
			    proto_hex_decode(gidhex, gid.raw, sizeof(gid.raw)) != (int)sizeof(gid.raw)) {
				agent_reply_err(fd, -EINVAL, "bad connect");
				continue;
			}
			rc = vnode_connect(&n, (uint32_t)u, &gid, err, sizeof(err));
			if (rc)
				agent_reply_err(fd, rc, err);
			else
				proto_send(fd, "ok");
		} else if (proto_is(msg, "write") || proto_is(msg, "read")) {
			struct ibv_wc wc;
			struct vnode_mr *m;

			if (proto_get(msg, "local", name, sizeof(name)) || !(m = vnode_find(&n, name)) ||
			    proto_get_u64(msg, "len", &len) || len > m->len ||
			    proto_get_u64(msg, "raddr", &raddr) || proto_get_u64(msg, "rkey", &rkey)) {
				agent_reply_err(fd, -EINVAL, "bad rdma request");
				continue;
			}
			rc = vnode_rdma(&n, proto_is(msg, "write") ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ, m,
					(uint32_t)len, raddr, (uint32_t)rkey, STEP_TIMEOUT_MS - 2000, &wc);
			if (rc)
				agent_reply_err(fd, rc, "post or completion failed");
			else
				proto_send(fd, "ok status=%s vendor_err=%u", m_wc_status_str((enum m_wc_status)wc.status), wc.vendor_err);
		} else if (proto_is(msg, "qp_state")) {
			enum ibv_qp_state s;

			rc = vnode_qp_state(&n, &s);
			if (rc)
				agent_reply_err(fd, rc, "ibv_query_qp");
			else
				proto_send(fd, "ok state=%s", m_qp_state_str((enum m_qp_state)s));
		} else if (proto_is(msg, "netstat")) {
			uint64_t rx = 0, tx = 0;

			rc = netdev_counters(node->netdev, &rx, &tx);
			if (rc)
				agent_reply_err(fd, rc, "no counters");
			else
				proto_send(fd, "ok rx_packets=%" PRIu64 " tx_packets=%" PRIu64, rx, tx);
		} else {
			agent_reply_err(fd, -EINVAL, "unknown request");
		}
	}
	if (opened)
		vnode_close(&n);
	return 0;
}

/* ---------------------------------------------------------- coordinator -- */

struct agent {
	const struct topo_node *node;
	pid_t pid;
	int fd;
	struct proto_rd rd;
};

static int tests_run, tests_failed;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	if (!ok)
		tests_failed++;
	printf("%s %d - ", ok ? "ok" : "not ok", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int spawn(struct agent *a, const struct topo_node *node)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	fflush(stdout);
	a->pid = fork();
	if (a->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	if (a->pid == 0) {
		int rc;

		close(sv[0]);
		rc = topo_enter_netns(node);
		if (rc) {
			proto_send(sv[1], "err errno=%d msg=cannot_enter_netns_%s", -rc, node->netns);
			_exit(EXIT_INFRA);
		}
		proto_send(sv[1], "ok hello node=%s", node->name);
		exit(agent_main(sv[1], node)); /* exit, not _exit: flushes gcov data */
	}
	close(sv[1]);
	a->fd = sv[0];
	a->node = node;
	return 0;
}

/* Send a request and wait for its reply; an infrastructure failure aborts. */
static void call(struct agent *a, char *reply, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static struct agent agents[2];

/* Ask every agent to quit; kill the ones that have not exited within 5 s. */
static void shutdown_agents(void)
{
	char reply[PROTO_LINE_MAX];

	for (int i = 0; i < 2; i++) {
		if (agents[i].pid <= 0)
			continue;
		if (proto_send(agents[i].fd, "quit") == 0)
			proto_recv(agents[i].fd, &agents[i].rd, reply, sizeof(reply), 2000);
		close(agents[i].fd);
		for (int waited = 0; waited < 50; waited++) {
			if (waitpid(agents[i].pid, NULL, WNOHANG) == agents[i].pid) {
				agents[i].pid = 0;
				break;
			}
			poll(NULL, 0, 100);
		}
		if (agents[i].pid > 0) {
			kill(agents[i].pid, SIGKILL);
			waitpid(agents[i].pid, NULL, 0);
			agents[i].pid = 0;
		}
	}
}

static void infra(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rc-smoke: infrastructure failure: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	shutdown_agents();
	printf("Bail out! infrastructure failure\n");
	exit(EXIT_INFRA);
}

static void call(struct agent *a, char *reply, const char *fmt, ...)
{
	char req[PROTO_LINE_MAX];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(req, sizeof(req), fmt, ap);
	va_end(ap);
	rc = proto_send(a->fd, "%s", req);
	if (rc == 0)
		rc = proto_recv(a->fd, &a->rd, reply, PROTO_LINE_MAX, STEP_TIMEOUT_MS);
	if (rc < 0)
		infra("node %s: '%s': %s", a->node->name, req, strerror(-rc));
	if (!proto_is(reply, "ok"))
		infra("node %s: '%s' answered '%s'", a->node->name, req, reply);
}

static uint64_t get_u64(const struct agent *a, const char *reply, const char *key)
{
	uint64_t v;

	if (proto_get_u64(reply, key, &v))
		infra("node %s: no %s= in '%s'", a->node->name, key, reply);
	return v;
}

static void expect_value(const char *reply, const char *key, const char *want, const char *what)
{
	char got[64] = "(none)";

	proto_get(reply, key, got, sizeof(got));
	tap(strcmp(got, want) == 0, "%s: %s=%s", what, key, want);
	if (strcmp(got, want) != 0)
		diag("  expected %s=%s, got %s", key, want, got);
}

static void expect_verified(const char *reply, const char *what)
{
	char off[32];

	tap(proto_get(reply, "mismatch", off, sizeof(off)) != 0, "%s", what);
	if (proto_get(reply, "mismatch", off, sizeof(off)) == 0)
		diag("  %s", reply);
}

int main(int argc, char **argv)
{
	char reply[PROTO_LINE_MAX], gid_a[40], gid_b[40], err[256];
	struct topo t;
	struct agent *a = &agents[0], *b = &agents[1];
	uint64_t qpn_a, qpn_b, dst_addr, dst_rkey, ro_addr, ro_rkey, rx0, rx1;
	const int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: rc-smoke TOPOLOGY-FILE\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	rc = topo_load(argv[1], &t, err, sizeof(err));
	if (rc)
		infra("topology: %s", err);
	if (t.n < 2 || !t.node[0].rxe[0] || !t.node[1].rxe[0])
		infra("topology %s needs two nodes with rxe devices", argv[1]);
	diag("topology %s: mode %s, nodes %s (%s, %s) and %s (%s, %s)", argv[1], topo_mode_str(t.mode),
	     t.node[0].name, t.node[0].rxe, t.node[0].ipv4, t.node[1].name, t.node[1].rxe, t.node[1].ipv4);

	for (int i = 0; i < 2; i++) {
		rc = spawn(&agents[i], &t.node[i]);
		if (rc)
			infra("cannot start agent %s: %s", t.node[i].name, strerror(-rc));
		rc = proto_recv(agents[i].fd, &agents[i].rd, reply, sizeof(reply), STEP_TIMEOUT_MS);
		if (rc < 0 || !proto_is(reply, "ok"))
			infra("agent %s did not start: %s", t.node[i].name, rc < 0 ? strerror(-rc) : reply);
	}

	call(a, reply, "open");
	qpn_a = get_u64(a, reply, "qpn");
	proto_get(reply, "gid", gid_a, sizeof(gid_a));
	call(b, reply, "open");
	qpn_b = get_u64(b, reply, "qpn");
	proto_get(reply, "gid", gid_b, sizeof(gid_b));

	call(a, reply, "reg name=src len=%d access=%d", SIZE, IBV_ACCESS_LOCAL_WRITE);
	call(b, reply, "reg name=dst len=%d access=%d", SIZE, rw);
	dst_addr = get_u64(b, reply, "addr");
	dst_rkey = get_u64(b, reply, "rkey");
	call(b, reply, "reg name=ro len=%d access=%d", SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	ro_addr = get_u64(b, reply, "addr");
	ro_rkey = get_u64(b, reply, "rkey");

	call(a, reply, "connect qpn=%" PRIu64 " gid=%s", qpn_b, gid_b);
	call(b, reply, "connect qpn=%" PRIu64 " gid=%s", qpn_a, gid_a);
	call(a, reply, "qp_state");
	expect_value(reply, "state", "RTS", "RC QP on a connected to b");
	call(b, reply, "qp_state");
	expect_value(reply, "state", "RTS", "RC QP on b connected to a");

	call(a, reply, "pattern name=src seed=7");
	call(b, reply, "netstat");
	rx0 = get_u64(b, reply, "rx_packets");
	call(a, reply, "write local=src len=%d raddr=0x%" PRIx64 " rkey=%" PRIu64, SIZE, dst_addr, dst_rkey);
	expect_value(reply, "status", "SUCCESS", "RDMA WRITE 4 KiB a->b completes");
	call(b, reply, "netstat");
	rx1 = get_u64(b, reply, "rx_packets");
	tap(rx1 - rx0 >= SIZE / 1024, "the WRITE crossed b's veth %s (%" PRIu64 " packets received)",
	    t.node[1].netdev, rx1 - rx0);
	call(b, reply, "verify name=dst seed=7");
	expect_verified(reply, "every byte of the 4 KiB pattern arrived on b");

	call(a, reply, "fill name=src byte=0");
	call(a, reply, "read local=src len=%d raddr=0x%" PRIx64 " rkey=%" PRIu64, SIZE, dst_addr, dst_rkey);
	expect_value(reply, "status", "SUCCESS", "RDMA READ 4 KiB b->a completes");
	call(a, reply, "verify name=src seed=7");
	expect_verified(reply, "every byte read back equals the pattern");

	call(a, reply, "write local=src len=%d raddr=0x%" PRIx64 " rkey=%" PRIu64, SIZE, ro_addr, ro_rkey);
	expect_value(reply, "status", "REM_ACCESS_ERR", "WRITE into an MR without REMOTE_WRITE (RA-ACC-1)");
	call(b, reply, "verify name=ro byte=0");
	expect_verified(reply, "the refused WRITE left the target unchanged");
	call(a, reply, "write local=src len=%d raddr=0x%" PRIx64 " rkey=%" PRIu64, SIZE, dst_addr, dst_rkey);
	expect_value(reply, "status", "WR_FLUSH_ERR", "the next request is flushed (RA-ERR-2)");
	call(a, reply, "qp_state");
	expect_value(reply, "state", "ERR", "requester QP is in ERR (RA-ERR-2)");
	call(b, reply, "qp_state");
	expect_value(reply, "state", "ERR", "responder QP is in ERR (RA-ERR-3)");

	shutdown_agents();
	printf("1..%d\n", tests_run);
	printf("%d passed, %d failed\n", tests_run - tests_failed, tests_failed);
	return tests_failed ? 1 : 0;
}

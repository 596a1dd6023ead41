/*
 * real_raw.c — the raw side of `make bench-real` (tests/bench/real): the
 * operations rdmacheck's scenarios time, as tight C loops on the same
 * topology (node a in its namespace, node b's RC QP and 4 KiB MR in another
 * process in its own), printed as "raw<TAB>OP<TAB>µs per operation":
 *
 *   reg_dereg_4k       mmap + ibv_reg_mr + ibv_dereg_mr + munmap of 4 KiB (as the agent does)
 *   reg_dereg_4k_bare  ibv_reg_mr + ibv_dereg_mr of one 4 KiB buffer
 *   pd_pair            ibv_alloc_pd + ibv_dealloc_pd
 *   write_64           a signaled 64 B RDMA WRITE to b, busy-polled to its completion
 *   read_4k            a signaled 4 KiB RDMA READ from b, likewise
 *   query_qp           ibv_query_qp (state)
 *
 * Usage: real-raw TOPOLOGY-FILE [ITERATIONS]. Exit 0, 1 when an operation
 * failed, 3 on an infrastructure failure (message on stderr).
 */
#define _GNU_SOURCE
#include "harness/run/proto.h"
#include "netns/topo.h"
#include "tests/smoke/vnode.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LEN 4096
#define RW (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ)

static void die(const char *what, const char *err)
{
	fprintf(stderr, "real-raw: %s: %s\n", what, err);
	exit(3);
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Open node's device in its namespace with a 4 KiB MR named "m". */
static void open_node(struct vnode *n, const struct topo_node *tn)
{
	char err[256];
	int rc = topo_enter_netns(tn);

	if (rc)
		die(tn->name, "cannot enter its namespace");
	if (vnode_open(n, tn->rxe, tn->gid_index, err, sizeof(err)) ||
	    vnode_reg(n, "m", LEN, RW, err, sizeof(err)))
		die(tn->rxe, err);
}

/* Send our QP's address and MR to the other side. */
static void say_addr(int fd, struct vnode *n)
{
	char gid[33];
	struct vnode_mr *m = vnode_find(n, "m");

	proto_hex_encode(n->gid.raw, 16, gid);
	proto_send(fd, "ok qpn=%u gid=%s addr=0x%" PRIxPTR " rkey=%u", n->qp->qp_num, gid, (uintptr_t)m->buf,
		   m->mr->rkey);
}

/* Read the other side's address and connect our QP to it; its MR into raddr/rkey. */
static void hear_addr(int fd, struct proto_rd *rd, struct vnode *n, uint64_t *raddr, uint64_t *rkey)
{
	char msg[PROTO_LINE_MAX], hex[40], err[256];
	union ibv_gid g;
	uint64_t qpn = 0;

	if (proto_recv(fd, rd, msg, sizeof(msg), 30000) < 0 || proto_get_u64(msg, "qpn", &qpn) ||
	    proto_get(msg, "gid", hex, sizeof(hex)) || proto_hex_decode(hex, g.raw, 16) != 16 ||
	    proto_get_u64(msg, "addr", raddr) || proto_get_u64(msg, "rkey", rkey))
		die("peer", "no address from the other node");
	if (vnode_connect(n, (uint32_t)qpn, &g, err, sizeof(err)))
		die("connect", err);
}

/* Node b: serve its MR until the coordinator's socket closes. Does not return. */
static void node_b(int fd, const struct topo_node *tn)
{
	struct vnode n = { 0 };
	struct proto_rd rd = { 0 };
	uint64_t raddr, rkey;
	char msg[PROTO_LINE_MAX];

	open_node(&n, tn);
	say_addr(fd, &n);
	hear_addr(fd, &rd, &n, &raddr, &rkey);
	proto_send(fd, "ok");
	while (proto_recv(fd, &rd, msg, sizeof(msg), -1) >= 0)
		;
	vnode_close(&n);
	_exit(0);
}

/* One signaled RDMA operation and its completion (busy-polled, 5 s at most). 0 or -EIO. */
static int rdma_once(struct vnode *n, enum ibv_wr_opcode op, uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct vnode_mr *m = vnode_find(n, "m");
	struct ibv_sge sge = { .addr = (uintptr_t)m->buf, .length = len, .lkey = m->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = op,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	struct ibv_wc wc;
	double deadline = now_us() + 5e6;
	int got;

	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	if (ibv_post_send(n->qp, &wr, &bad))
		return -EIO;
	while ((got = ibv_poll_cq(n->cq, 1, &wc)) == 0)
		if (now_us() > deadline)
			return -EIO;
	return got == 1 && wc.status == IBV_WC_SUCCESS ? 0 : -EIO;
}

enum op { REG_DEREG, REG_DEREG_BARE, PD_PAIR, WRITE_64, READ_4K, QUERY_QP, OPS_ };
static const char *const op_name[OPS_] = { "reg_dereg_4k", "reg_dereg_4k_bare", "pd_pair", "write_64", "read_4k",
					   "query_qp" };

/* One operation of kind op. 0 or -EIO. */
static int op_once(enum op op, struct vnode *n, void *buf, uint64_t raddr, uint32_t rkey)
{
	struct ibv_qp_attr at;
	struct ibv_qp_init_attr init;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	void *map;

	switch (op) {
	case REG_DEREG:
		map = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED)
			return -EIO;
		mr = ibv_reg_mr(n->pd, map, LEN, RW);
		if (mr)
			ibv_dereg_mr(mr);
		munmap(map, LEN);
		return mr ? 0 : -EIO;
	case REG_DEREG_BARE:
		mr = ibv_reg_mr(n->pd, buf, LEN, RW);
		return mr && ibv_dereg_mr(mr) == 0 ? 0 : -EIO;
	case PD_PAIR:
		pd = ibv_alloc_pd(n->ctx);
		return pd && ibv_dealloc_pd(pd) == 0 ? 0 : -EIO;
	case WRITE_64:
		return rdma_once(n, IBV_WR_RDMA_WRITE, 64, raddr, rkey);
	case READ_4K:
		return rdma_once(n, IBV_WR_RDMA_READ, LEN, raddr, rkey);
	case QUERY_QP:
		return ibv_query_qp(n->qp, &at, IBV_QP_STATE, &init) ? -EIO : 0;
	default:
		return -EINVAL;
	}
}

int main(int argc, char **argv)
{
	struct topo t;
	struct vnode n = { 0 };
	struct proto_rd rd = { 0 };
	char err[256], msg[PROTO_LINE_MAX];
	uint64_t raddr, rkey;
	int sv[2], iters = argc > 2 ? atoi(argv[2]) : 500, failed = 0, ws;
	static uint8_t buf[LEN] __attribute__((aligned(4096)));
	pid_t b;

	if (argc < 2 || iters <= 0) {
		fprintf(stderr, "usage: real-raw TOPOLOGY-FILE [ITERATIONS]\n");
		return 2;
	}
	if (topo_load(argv[1], &t, err, sizeof(err)) || t.n < 2)
		die(argv[1], t.n < 2 ? "needs two nodes" : err);
	signal(SIGPIPE, SIG_IGN);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair", strerror(errno));
	b = fork();
	if (b < 0)
		die("fork", strerror(errno));
	if (b == 0) {
		close(sv[0]);
		node_b(sv[1], &t.node[1]);
	}
	close(sv[1]);
	open_node(&n, &t.node[0]);
	say_addr(sv[0], &n);
	hear_addr(sv[0], &rd, &n, &raddr, &rkey);
	if (proto_recv(sv[0], &rd, msg, sizeof(msg), 30000) < 0 || !proto_is(msg, "ok"))
		die("node b", "not connected");
	for (int op = 0; op < OPS_; op++) {
		double t0;
		int bad = 0;

		for (int i = 0; i < 10; i++) /* warm-up: first-use costs are not the loop's */
			bad |= op_once((enum op)op, &n, buf, raddr, (uint32_t)rkey);
		t0 = now_us();
		for (int i = 0; i < iters && !bad; i++)
			bad |= op_once((enum op)op, &n, buf, raddr, (uint32_t)rkey);
		if (bad) {
			printf("raw\t%s\tfailed\n", op_name[op]);
			failed = 1;
		} else {
			printf("raw\t%s\t%.1f\n", op_name[op], (now_us() - t0) / iters);
		}
	}
	vnode_close(&n);
	close(sv[0]);
	waitpid(b, &ws, 0);
	return failed;
}

/*
 * mrapi_real — libmrapi-rdma on the real stack (rxe), three processes as
 * nodes a, b, c of a topology (tests/mrapi/run builds it).
 *
 * usage: mrapi-real TOPOLOGY-FILE
 *
 * The coordinator forks one node process per topology node (entering its
 * namespace in netns mode, with MRAPI_RDMA_ADDR its address and
 * MRAPI_RDMA_DIR node a's address). It drives them with one-line commands
 * over socketpairs and checks their answers: create on a, get + attach +
 * read on b (byte-exact, plain and strided), write back, delete by another
 * node refused, a false endpoint (b publishes a's address and rkey under an id
 * of its own: c's attach is refused by a's listener, which checks the claim),
 * one id created by b and c at the same moment (exactly one
 * SUCCESS, one EXISTS), a read_i completed by wait, node a finalizing while b
 * is attached (b then gets RMEM_INVALID, no crash), and the per-call latency
 * of create, get, attach, read 64 B and delete next to the verbs work under
 * them. Output: TAP, "bench" comment lines, "N passed, N failed". Exit 0 all
 * passed, 1 a check failed, 3 infrastructure.
 */
#define _GNU_SOURCE
#include "lib/mrapi/rmem.h"
#include "netns/topo.h"

#include <errno.h>
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

#define SIZE 8192
#define NODES 3
#define REPLY_TIMEOUT_MS 30000
#define EXIT_INFRA 3

/* ------------------------------------------------------------ node side -- */

static uint8_t mem[SIZE] __attribute__((aligned(4096)));
/* a second buffer, for a node's create while its first is still registered (RMEM_CONFLICT otherwise) */
static uint8_t mem2[SIZE] __attribute__((aligned(4096)));
static uint8_t spare[SIZE] __attribute__((aligned(4096)));
static mrapi_rmem_hndl_t h;

static uint8_t pat(unsigned seed, uint64_t i)
{
	return (uint8_t)(i * 7 + seed * 31 + (i >> 8));
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static const char *sname(mrapi_status_t st)
{
	static char b[48];

	return mrapi_display_status(st, b, sizeof(b));
}

/* read OFF BYTES N RSTRIDE LSTRIDE SEED: read and compare with the owner's pattern. */
static void cmd_read(FILE *out, unsigned off, unsigned bytes, unsigned n, unsigned rs, unsigned ls, unsigned seed)
{
	static uint8_t local[SIZE];
	mrapi_status_t st;
	unsigned bad = 0;

	memset(local, 0xee, sizeof(local));
	mrapi_rmem_read_sized(h, off, local, 0, sizeof(local), bytes, n, rs, ls, &st);
	for (unsigned i = 0; st == MRAPI_SUCCESS && i < n; i++)
		for (unsigned b = 0; b < bytes; b++)
			bad += local[(uint64_t)i * ls + b] != pat(seed, off + (uint64_t)i * rs + b);
	/* bytes between the local strides stay untouched */
	for (unsigned i = 0; st == MRAPI_SUCCESS && n > 1 && i + 1 < n; i++)
		for (unsigned b = bytes; b < ls; b++)
			bad += local[(uint64_t)i * ls + b] != 0xee;
	fprintf(out, "%s %s\n", sname(st), bad ? "mismatch" : "match");
}

static void cmd_readi(FILE *out, unsigned seed)
{
	uint8_t local[256];
	mrapi_request_t rq;
	mrapi_status_t st, st2 = MRAPI_SUCCESS;
	size_t size = 0;
	unsigned bad = 0;

	mrapi_rmem_read_i(h, 512, local, 0, 16, 16, 32, 16, &rq, &st);
	if (st == MRAPI_SUCCESS) {
		mrapi_wait(&rq, &size, 5000, &st2);
		for (unsigned i = 0; i < 256; i++)
			bad += local[i] != pat(seed, 512 + (i / 16) * 32 + i % 16);
	}
	fprintf(out, "%s %s %s %zu\n", sname(st), sname(st2), bad ? "mismatch" : "match", size);
}

/* Average microseconds of n runs of one call (st must stay SUCCESS). */
#define TIME_LOOP(n, label, body)                                                                   \
	do {                                                                                        \
		double t0 = now_us();                                                               \
		for (int i_ = 0; i_ < (n); i_++) {                                                  \
			body;                                                                       \
		}                                                                                   \
		fprintf(out, " %s=%.1f", label, (now_us() - t0) / (n));                             \
	} while (0)

/* bench-owner: create + delete of a fresh id, and the verbs registration under it. */
static void cmd_bench_owner(FILE *out)
{
	mrapi_status_t st = MRAPI_SUCCESS;
	struct tp_node *t;
	struct tp_mr *m;
	uint32_t rkey;
	mrapi_rmem_hndl_t x;
	int fail = 0;

	TIME_LOOP(100, "create+delete_us", {
		x = mrapi_rmem_create(100, spare, MRAPI_RMEM_ATYPE_DEFAULT, NULL, 4096, &st);
		fail |= st != MRAPI_SUCCESS;
		mrapi_rmem_delete(x, &st);
		fail |= st != MRAPI_SUCCESS;
	});
	/* create and delete timed apart: rounds of 8 ids over disjoint 512-byte pieces of spare */
	double tc = 0, td = 0;
	mrapi_rmem_hndl_t xs[8];
	for (int round = 0; round < 12; round++) {
		double t0 = now_us();
		for (int i = 0; i < 8; i++) {
			xs[i] = mrapi_rmem_create((mrapi_rmem_id_t)(200 + i), spare + i * 512, MRAPI_RMEM_ATYPE_DEFAULT,
						  NULL, 512, &st);
			fail |= st != MRAPI_SUCCESS;
		}
		double t1 = now_us();
		for (int i = 0; i < 8; i++) {
			mrapi_rmem_delete(xs[i], &st);
			fail |= st != MRAPI_SUCCESS;
		}
		tc += t1 - t0;
		td += now_us() - t1;
	}
	fprintf(out, " create_us=%.1f delete_us=%.1f", tc / 96, td / 96);
	if (lib_transport(&t))
		fail = 1;
	TIME_LOOP(100, "verbs_reg+dereg_us", {
		fail |= tp_reg(t, spare, 4096, &m, &rkey) != 0;
		tp_dereg(m);
	});
	fprintf(out, " %s\n", fail ? "FAIL" : "ok");
}

/* bench-client ID: get, attach+detach, read 64 B; and rdma_cm connect and one RDMA READ raw. */
static void cmd_bench_client(FILE *out, unsigned id)
{
	mrapi_status_t st = MRAPI_SUCCESS;
	uint8_t local[64];
	struct tp_node *t;
	struct tp_conn *c = NULL;
	struct tp_piece p = { 0, 64, 0 };
	int fail = 0, s;

	TIME_LOOP(200, "get_us", {
		mrapi_rmem_get(id, MRAPI_RMEM_ATYPE_DEFAULT, &st);
		fail |= st != MRAPI_SUCCESS;
	});
	TIME_LOOP(1000, "read64_us", {
		mrapi_rmem_read(h, 0, local, 0, 64, 1, 64, 64, &st);
		fail |= st != MRAPI_SUCCESS;
	});
	TIME_LOOP(20, "detach+attach_us", {
		mrapi_rmem_detach(h, &st);
		fail |= st != MRAPI_SUCCESS;
		mrapi_rmem_attach(h, MRAPI_RMEM_DEFAULT, &st);
		fail |= st != MRAPI_SUCCESS;
	});
	s = h_find(h);
	if (s < 0 || lib_transport(&t)) {
		fprintf(out, " FAIL\n");
		return;
	}
	TIME_LOOP(20, "verbs_connect+disconnect_us", {
		fail |= tp_connect(t, lib_state.h[s].ip, lib_state.h[s].port, lib_state.h[s].id, lib_state.h[s].gen,
				   lib_state.h[s].rkey, &c) != 0;
		if (i_ + 1 < 20)
			tp_disconnect(c);
	});
	p.raddr = lib_state.h[s].addr;
	TIME_LOOP(1000, "verbs_read64_us", {
		int rc;
		fail |= tp_post(c, 0, &p, 1, lib_state.h[s].rkey) != 0;
		while ((rc = tp_poll(c)) == 0)
			;
		fail |= rc != 1;
	});
	tp_disconnect(c);
	fprintf(out, " %s\n", fail ? "FAIL" : "ok");
}

/* One command line; the answer goes to out. */
static void node_cmd(char *line, FILE *out, unsigned seed)
{
	char cmd[32];
	unsigned a[6] = { 0 };
	mrapi_status_t st;

	if (sscanf(line, "%31s %u %u %u %u %u %u", cmd, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]) < 1)
		cmd[0] = '\0';
	if (!strcmp(cmd, "init")) {
		mrapi_initialize(a[0], a[1], 0, NULL, &st);
	} else if (!strcmp(cmd, "create")) { /* create ID [KEEP [BUF]]: KEEP 1 keeps the current handle, BUF 1 is mem2 */
		mrapi_rmem_hndl_t x;
		uint8_t *buf = a[2] ? mem2 : mem;

		for (unsigned i = 0; i < SIZE; i++)
			buf[i] = pat(seed, i);
		x = mrapi_rmem_create(a[0], buf, MRAPI_RMEM_ATYPE_DEFAULT, NULL, SIZE, &st);
		if (!a[1])
			h = x;
	} else if (!strcmp(cmd, "get")) {
		h = mrapi_rmem_get(a[0], MRAPI_RMEM_ATYPE_DEFAULT, &st);
	} else if (!strcmp(cmd, "attach")) {
		mrapi_rmem_attach(h, MRAPI_RMEM_DEFAULT, &st);
	} else if (!strcmp(cmd, "detach")) {
		mrapi_rmem_detach(h, &st);
	} else if (!strcmp(cmd, "delete")) {
		mrapi_rmem_delete(h, &st);
	} else if (!strcmp(cmd, "forge")) { /* forge ID OF: publish OF's endpoint (addr, rkey, port, ip) as our ID */
		struct dir_seg d;
		uint32_t id, gen;
		int rc = dir_get(lib_state.dir_fd, a[1], &d);

		if (rc == MRAPI_SUCCESS)
			rc = dir_create(lib_state.dir_fd, a[0], d.atype, 1, d.addr, d.size, d.rkey, d.port, d.ip, &id, &gen);
		st = rc < 0 ? MRAPI_TIMEOUT : rc;
	} else if (!strcmp(cmd, "finalize")) {
		mrapi_finalize(&st);
	} else if (!strcmp(cmd, "read")) {
		cmd_read(out, a[0], a[1], a[2], a[3], a[4], a[5]);
		return;
	} else if (!strcmp(cmd, "readi")) {
		cmd_readi(out, a[0]);
		return;
	} else if (!strcmp(cmd, "write")) { /* write OFF BYTES: 0xab bytes */
		uint8_t v[256];
		memset(v, 0xab, sizeof(v));
		mrapi_rmem_write(h, a[0], v, 0, a[1] < 256 ? a[1] : 256, 1, 256, 256, &st);
	} else if (!strcmp(cmd, "peek")) { /* peek OFF BYTES: our own buffer holds 0xab there */
		unsigned bad = 0;
		for (unsigned i = 0; i < a[1] && a[0] + i < SIZE; i++)
			bad += mem[a[0] + i] != 0xab;
		fprintf(out, "%s\n", bad ? "mismatch" : "match");
		return;
	} else if (!strcmp(cmd, "bench-owner")) {
		cmd_bench_owner(out);
		return;
	} else if (!strcmp(cmd, "bench-client")) {
		cmd_bench_client(out, a[0]);
		return;
	} else {
		fprintf(out, "unknown\n");
		return;
	}
	fprintf(out, "%s\n", sname(st));
}

static int node_main(int fd, const struct topo_node *nd, const char *dir, unsigned seed)
{
	FILE *in = fdopen(fd, "r"), *out = fdopen(dup(fd), "w");
	char line[256];

	if (!in || !out || topo_enter_netns(nd) || setenv("MRAPI_RDMA_ADDR", nd->ipv4, 1) ||
	    setenv("MRAPI_RDMA_DIR", dir, 1))
		return EXIT_INFRA;
	setvbuf(out, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), in))
		node_cmd(line, out, seed);
	return 0;
}

/* ------------------------------------------------------ coordinator side -- */

static int sock[NODES];
static pid_t pids[NODES];
static int passed, failed, testno;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++testno);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

static void send_cmd(int n, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	buf[len++] = '\n';
	if (write(sock[n], buf, (size_t)len) != len) {
		printf("Bail out! node %c gone\n", 'a' + n);
		exit(EXIT_INFRA);
	}
}

static void get_reply(int n, char *buf, size_t len)
{
	size_t got = 0;

	while (got + 1 < len) {
		struct pollfd pf = { .fd = sock[n], .events = POLLIN };
		char c;

		if (poll(&pf, 1, REPLY_TIMEOUT_MS) != 1 || read(sock[n], &c, 1) != 1) {
			printf("Bail out! node %c did not answer\n", 'a' + n);
			exit(EXIT_INFRA);
		}
		if (c == '\n')
			break;
		buf[got++] = c;
	}
	buf[got] = '\0';
}

/* Send a command, return the answer (static buffer). */
static const char *ask(int n, const char *fmt, ...)
{
	static char reply[512];
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	send_cmd(n, "%s", buf);
	get_reply(n, reply, sizeof(reply));
	return reply;
}

#define A 0
#define B 1
#define C 2
#define SEED_A 1

static void scenario(void)
{
	char r1[128], r2[128];
	const char *r;

	tap(!strcmp(ask(A, "init 1 1"), "MRAPI_SUCCESS"), "node a initializes (and starts the directory)");
	tap(!strcmp(ask(B, "init 1 2"), "MRAPI_SUCCESS"), "node b initializes");
	tap(!strcmp(ask(C, "init 1 3"), "MRAPI_SUCCESS"), "node c initializes");
	tap(!strcmp(ask(A, "create 1"), "MRAPI_SUCCESS"), "a: mrapi_rmem_create id 1, 8 KiB");
	tap(!strcmp(ask(B, "get 1"), "MRAPI_SUCCESS"), "b: mrapi_rmem_get id 1 (created on a)");
	tap(!strcmp(ask(B, "attach"), "MRAPI_SUCCESS"), "b: attach connects to a");
	r = ask(B, "read 0 64 1 64 64 %d", SEED_A);
	tap(!strcmp(r, "MRAPI_SUCCESS match"), "b: read 64 B byte-exact (%s)", r);
	r = ask(B, "read 100 3 16 100 5 %d", SEED_A);
	tap(!strcmp(r, "MRAPI_SUCCESS match"), "b: strided read, 16 x 3 B every 100 B, byte-exact (%s)", r);
	r = ask(B, "read 0 100 70 100 100 %d", SEED_A);
	tap(!strcmp(r, "MRAPI_SUCCESS match"), "b: 70 strides of 100 B (two batches) byte-exact (%s)", r);
	r = ask(B, "read 8100 64 2 64 64 %d", SEED_A);
	tap(!strncmp(r, "MRAPI_ERR_RMEM_BUFF_OVERRUN", 27), "b: read past the end: BUFF_OVERRUN (%s)", r);
	r = ask(B, "read 4294967295 64 4294967295 4294967295 64 %d", SEED_A);
	tap(!strncmp(r, "MRAPI_ERR_RMEM_BUFF_OVERRUN", 27), "b: huge offset and strides: BUFF_OVERRUN, no crash (%s)", r);
	r = ask(B, "readi %d", SEED_A);
	tap(!strcmp(r, "MRAPI_SUCCESS MRAPI_SUCCESS match 256"), "b: read_i + wait, strided, byte-exact (%s)", r);
	tap(!strcmp(ask(B, "write 4000 200"), "MRAPI_SUCCESS"), "b: write 200 B");
	tap(!strcmp(ask(A, "peek 4000 200"), "match"), "a: the write is in a's own memory");
	/* one id from two nodes at the same moment */
	send_cmd(B, "create 2 1"); /* b keeps its handle to id 1 */
	send_cmd(C, "create 2 1");
	get_reply(B, r1, sizeof(r1));
	get_reply(C, r2, sizeof(r2));
	tap((!strcmp(r1, "MRAPI_SUCCESS") && !strcmp(r2, "MRAPI_ERR_RMEM_EXISTS")) ||
		    (!strcmp(r2, "MRAPI_SUCCESS") && !strcmp(r1, "MRAPI_ERR_RMEM_EXISTS")),
	    "b and c create id 2 at once: one SUCCESS, one EXISTS (%s, %s)", r1, r2);
	/* a false endpoint: b, a keyed node, publishes a's buffer as its own id 99; c's attach is refused */
	r = ask(B, "forge 99 1");
	tap(!strcmp(r, "MRAPI_SUCCESS"), "b: publishes a's endpoint as its id 99 (the directory cannot tell: %s)", r);
	tap(!strcmp(ask(C, "get 99"), "MRAPI_SUCCESS"), "c: get id 99");
	r = ask(C, "attach");
	tap(!strcmp(r, "MRAPI_ERR_RMEM_INVALID"), "c: attach to id 99: a's listener refuses the claim (%s)", r);
	/* latencies: c attaches to a's id 1 for its client figures, a times create/delete */
	tap(!strcmp(ask(C, "get 1"), "MRAPI_SUCCESS") && !strcmp(ask(C, "attach"), "MRAPI_SUCCESS"),
	    "c: get + attach id 1");
	r = ask(C, "bench-client 1");
	printf("# bench client (c -> a):%s\n", r);
	tap(strstr(r, " ok") != NULL, "c: timed get / read 64 B / attach, and the raw verbs under them");
	r = ask(A, "bench-owner");
	printf("# bench owner (a):%s\n", r);
	tap(strstr(r, " ok") != NULL, "a: timed create / delete, and the raw registration");
	tap(!strcmp(ask(C, "detach"), "MRAPI_SUCCESS"), "c: detach");
	/* a leaves while b is attached */
	tap(!strcmp(ask(A, "finalize"), "MRAPI_SUCCESS"), "a: finalize while b is attached");
	r = ask(B, "read 0 64 1 64 64 %d", SEED_A);
	tap(!strncmp(r, "MRAPI_ERR_RMEM_INVALID", 22), "b: read after a left: RMEM_INVALID (%s)", r);
	r = ask(B, "detach");
	tap(!strcmp(r, "MRAPI_ERR_RMEM_INVALID"), "b: detach after a left: RMEM_INVALID (%s)", r);
	r = ask(B, "get 1");
	tap(!strcmp(r, "MRAPI_ERR_RMEM_ID_INVALID"), "b: id 1 is gone from the directory (%s)", r);
	/* a node of the buffer's domain that did not create it deletes it, as in the reference implementation */
	/* c may hold id 2 over mem (it may have won the race above): id 3 goes over mem2 */
	snprintf(r1, sizeof(r1), "%s", ask(C, "create 3 0 1"));
	snprintf(r2, sizeof(r2), "%s", ask(B, "get 3"));
	tap(!strcmp(r1, "MRAPI_SUCCESS") && !strcmp(r2, "MRAPI_SUCCESS"), "c: create id 3 (%s), b: get it (%s)", r1, r2);
	r = ask(B, "delete");
	tap(!strcmp(r, "MRAPI_SUCCESS"), "b (domain 1, not its creator): delete of c's id 3 (%s)", r);
	r = ask(B, "get 3");
	tap(!strcmp(r, "MRAPI_ERR_RMEM_ID_INVALID"), "b: id 3 is gone from the directory (%s)", r);
	tap(!strcmp(ask(B, "finalize"), "MRAPI_SUCCESS") && !strcmp(ask(C, "finalize"), "MRAPI_SUCCESS"),
	    "b and c finalize");
}

int main(int argc, char **argv)
{
	struct topo topo;
	char err[256], dir[64];
	int st, infra = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: mrapi-real TOPOLOGY-FILE\n");
		return 2;
	}
	if (topo_load(argv[1], &topo, err, sizeof(err)) || topo.n < NODES || !topo.node[0].rxe[0]) {
		printf("Bail out! topology %s: %s\n", argv[1], topo.n < NODES ? "needs 3 rxe nodes" : err);
		return EXIT_INFRA;
	}
	snprintf(dir, sizeof(dir), "%s:%u", topo.node[0].ipv4, 17000u + (unsigned)getpid() % 1000u);
	signal(SIGPIPE, SIG_IGN);
	for (int n = 0; n < NODES; n++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			return EXIT_INFRA;
		fflush(stdout);
		pids[n] = fork();
		if (pids[n] < 0)
			return EXIT_INFRA;
		if (pids[n] == 0) {
			close(sv[0]);
			for (int o = 0; o < n; o++)
				close(sock[o]);
			_exit(node_main(sv[1], &topo.node[n], dir, (unsigned)n + 1));
		}
		close(sv[1]);
		sock[n] = sv[0];
	}
	scenario();
	for (int n = 0; n < NODES; n++) {
		close(sock[n]);
		if (waitpid(pids[n], &st, 0) == pids[n] && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			tap(0, "node %c exited cleanly (status %#x)", 'a' + n, st);
			infra |= WIFEXITED(st) && WEXITSTATUS(st) == EXIT_INFRA;
		}
	}
	printf("1..%d\n%d passed, %d failed\n", testno, passed, failed);
	if (infra)
		return EXIT_INFRA;
	return failed ? 1 : 0;
}

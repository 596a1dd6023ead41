/*
 * Unit tests of how the real stack reads a librpmem pool's bytes
 * (harness/api/rpmem/stack_rpmem.c, through the registry's stack_read): from
 * the target node's agent, out of the part files, as runs, a stretch at a
 * time kept until the next librpmem call. The target's agent here is the
 * real request table (agent_rpmem.c) in a child process; no RDMA is needed.
 */
#include "harness/agent/agent_internal.h"
#include "harness/api/rpmem/api_rpmem.h"
#include "harness/run/stack.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1ul << 20)
#define STRIPES 8192 /* bytes alternating 0/1 at the start: more than one line of runs */

static const struct agent_node node_t = { .name = "t", .ibdev = "rxe0", .netdev = "eth0", .ipv4 = "192.0.2.9" };
static struct scn_file f;
static struct scn_obj objs[1];
static struct stack st;
static char tmp[64], part[160];

/* The target's agent: serve the librpmem requests on fd until quit. */
static void serve(int fd)
{
	struct agent a;

	memset(&a, 0, sizeof(a));
	a.fd = fd;
	a.node = &node_t;
	a.step_ms = 1000;
	proto_rd_reset(&a.rd);
	while (proto_recv(fd, &a.rd, a.msg, sizeof(a.msg), -1) >= 0 && !proto_is(a.msg, "quit")) {
		const struct agent_req *r = agent_rpmem_reqs;

		while (r->verb && !proto_is(a.msg, r->verb))
			r++;
		if (!r->verb || r->fn(&a))
			proto_send(fd, "err errno=%d msg=unknown", EINVAL);
	}
	proto_send(fd, "ok");
	agent_rpmem_end(&a);
	_exit(0);
}

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_ge(fputs(text, fp), 0);
	ck_assert_int_eq(fclose(fp), 0);
}

static void poke(off_t off, uint8_t b, size_t n)
{
	uint8_t buf[64];
	int fd = open(part, O_RDWR);

	ck_assert_int_ge(fd, 0);
	memset(buf, b, sizeof(buf));
	ck_assert_int_eq(pwrite(fd, buf, n, off), (ssize_t)n);
	close(fd);
}

static void setup(void)
{
	char path[160];
	uint8_t stripes[STRIPES];
	int sv[2], fd;

	signal(SIGPIPE, SIG_IGN);
	snprintf(tmp, sizeof(tmp), "/tmp/test-stack-rpmem.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	snprintf(path, sizeof(path), "%s/rpmem-t", tmp);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/rpmem-t/pool.set", tmp);
	write_file(path, "PMEMPOOLSET\nOPTION NOHDRS\n2M pool.set.part0\n");
	snprintf(part, sizeof(part), "%s/rpmem-t/pool.set.part0", tmp);
	for (size_t i = 0; i < STRIPES; i++)
		stripes[i] = (uint8_t)(i & 1);
	fd = open(part, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 2 * MIB), 0);
	ck_assert_int_eq(pwrite(fd, stripes, STRIPES, 0), STRIPES);
	close(fd);
	poke(MIB - 4, 0xab, 4);

	memset(&f, 0, sizeof(f));
	memset(&st, 0, sizeof(st));
	f.nnodes = 2;
	strcpy(f.nodes[0], "a");
	strcpy(f.nodes[1], "t");
	memset(objs, 0, sizeof(objs));
	objs[0].cls = SCN_C_RPMEM_POOL;
	f.objs = objs;
	f.nobjs = 1;
	st.f = &f;
	st.n = 2;
	st.step_ms = 1000;
	st.ag[0].fd = -1;
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	st.ag[1].pid = fork();
	ck_assert_int_ge(st.ag[1].pid, 0);
	if (st.ag[1].pid == 0) {
		close(sv[0]);
		serve(sv[1]);
	}
	close(sv[1]);
	st.ag[1].fd = sv[0];
	/* a.p: a pool of 1 MiB on target t's pool.set, as a successful create records it */
	st.o[0] = (struct stack_obj){ .made = 1, .peer_node = 1 };
	st.o[0].v.len = MIB;
	strcpy(st.o[0].set, "pool.set");
}

static void teardown(void)
{
	char cmd[128];

	stack_stop(&st);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	ck_assert_int_eq(system(cmd), 0);
}

/* A librpmem call on the target (a pool set file `set`): what the stack kept of the pools goes. */
static void poolset_call(const char *set)
{
	struct hcall c = { .op = M_OP_RPMEM_POOLSET, .node = 1, .obj = -1 };
	struct hres r;

	snprintf(c.rpmem.a.set, sizeof(c.rpmem.a.set), "%s", set);
	c.rpmem.a.nparts = 1;
	c.rpmem.a.part[0] = 2 * MIB;
	ck_assert_int_eq(stack_exec_rpmem(&st, &c, &r), 0);
	ck_assert_int_eq(r.out.kind, M_OUT_OK);
}

/* Byte i of the part file setup wrote: the stripes, zeroes, 0xab in the last four. */
static uint8_t part_byte(size_t i)
{
	return i < STRIPES ? (uint8_t)(i & 1) : i >= MIB - 4 ? 0xab : 0;
}

/* The whole pool, read as the end-of-scenario comparison does (4096 bytes at a time). */
START_TEST(test_pool_bytes_come_from_the_targets_part_file)
{
	static uint8_t got[MIB];

	size_t bad;

	for (size_t off = 0; off < MIB; off += 4096)
		ck_assert_int_eq(stack_ops.read(&st, 0, off, 4096, got + off), 0);
	/* One assertion for the megabyte (one each was a million of Check's mark points: seconds) */
	for (bad = 0; bad < MIB && got[bad] == part_byte(bad); bad++)
		;
	ck_assert_msg(bad == MIB, "byte %zu: read 0x%02x, the part file holds 0x%02x", bad, bad < MIB ? got[bad] : 0,
		      bad < MIB ? part_byte(bad) : 0);
	ck_assert_uint_eq(got[MIB - 4], 0xab);
	ck_assert_uint_eq(got[MIB - 1], 0xab);
	/* an unaligned range across the end of the stripes */
	ck_assert_int_eq(stack_ops.read(&st, 0, STRIPES - 3, 6, got), 0);
	ck_assert_uint_eq(got[0], 1);
	ck_assert_uint_eq(got[1], 0);
	ck_assert_uint_eq(got[2], 1);
	ck_assert_uint_eq(got[3], 0);
	ck_assert_uint_eq(got[5], 0);
}
END_TEST

/* What was read is kept until the next librpmem call, which forgets it. */
START_TEST(test_a_librpmem_call_forgets_what_was_read)
{
	uint8_t b[4];

	ck_assert_int_eq(stack_ops.read(&st, 0, 2 * STRIPES, 4, b), 0);
	ck_assert_uint_eq(b[0], 0);
	poke(2 * STRIPES, 0x5c, 4); /* the target's bytes change */
	ck_assert_int_eq(stack_ops.read(&st, 0, 2 * STRIPES, 4, b), 0);
	ck_assert_uint_eq(b[0], 0); /* kept */
	poolset_call("other.set");
	ck_assert_int_eq(stack_ops.read(&st, 0, 2 * STRIPES, 4, b), 0);
	ck_assert_uint_eq(b[0], 0x5c);
	ck_assert_uint_eq(b[3], 0x5c);
}
END_TEST

/* A pool the model holds bytes for but the target has no part file of: an engine error naming it. */
START_TEST(test_missing_part_file_is_an_error)
{
	uint8_t b[4];

	poolset_call("x.set");
	ck_assert_int_eq(unlink(part), 0);
	ck_assert_int_eq(stack_ops.read(&st, 0, 0, 4, b), -EIO);
	ck_assert_ptr_nonnull(strstr(st.err, "the pool of pool.set on node t"));
}
END_TEST

Suite *suite_test_stack_rpmem(void)
{
	Suite *s = suite_create("stack_rpmem");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pool_bytes_come_from_the_targets_part_file);
	tcase_add_test(tc, test_a_librpmem_call_forgets_what_was_read);
	tcase_add_test(tc, test_missing_part_file_is_an_error);
	suite_add_tcase(s, tc);
	return s;
}

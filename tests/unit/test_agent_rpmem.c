/*
 * Unit tests of the agent's librpmem requests (harness/api/rpmem/agent_rpmem.c)
 * that need no RDMA: a target's root config directory and the pool set files
 * it writes (read back by lib/rpmem's parser, as the daemon reads them), the
 * pool's bytes read from the part files for the end-of-scenario comparison
 * (as runs),
 * and a client's call refused before anything starts answering librpmem's
 * errno. The requests are served through the family's table, as the agent's
 * loop does, over a socketpair.
 */
#define _GNU_SOURCE
#include "harness/agent/agent_internal.h"
#include "harness/api/rpmem/api_rpmem.h"
#include "lib/rpmem/rpmem_int.h"
#include "lib/rpmem/rpmemd_config.h"

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1ul << 20)

static const struct agent_node node = { .name = "t", .ibdev = "rxe0", .netdev = "eth0", .ipv4 = "192.0.2.9" };
static struct agent ag;
static int peer = -1;
static char tmp[64];

static void setup(void)
{
	int sv[2];

	snprintf(tmp, sizeof(tmp), "/tmp/test-agent-rpmem.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	memset(&ag, 0, sizeof(ag));
	ag.fd = sv[0];
	ag.node = &node;
	ag.step_ms = 1000;
	peer = sv[1];
}

static void teardown(void)
{
	char cmd[128];

	agent_rpmem_end(&ag);
	close(ag.fd);
	close(peer);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	ck_assert_int_eq(system(cmd), 0);
}

/* Serve request line as the agent's loop would; the answer into reply. */
static const char *req(const char *line)
{
	static char reply[PROTO_LINE_MAX];
	const struct agent_req *r = agent_rpmem_reqs;
	struct proto_rd rd;

	snprintf(ag.msg, sizeof(ag.msg), "%s", line);
	while (r->verb && !proto_is(ag.msg, r->verb))
		r++;
	ck_assert_ptr_nonnull(r->verb);
	ck_assert_int_eq(r->fn(&ag), 0);
	proto_rd_reset(&rd);
	ck_assert_int_gt(proto_recv(peer, &rd, reply, sizeof(reply), 1000), 0);
	return reply;
}

static void write_at(const char *path, off_t off, uint8_t b, size_t n, off_t size)
{
	uint8_t buf[64];
	int fd = open(path, O_RDWR | O_CREAT, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	memset(buf, b, sizeof(buf));
	ck_assert_int_eq(pwrite(fd, buf, n, off), (ssize_t)n);
	close(fd);
}

START_TEST(test_target_answers_where_it_is)
{
	const char *r = req("rpmem_target");
	char want[128], v[128];

	ck_assert(proto_is(r, "ok"));
	ck_assert_int_eq(proto_get(r, "ip", v, sizeof(v)), 0);
	ck_assert_str_eq(v, "192.0.2.9");
	snprintf(want, sizeof(want), "%s/rpmem-t", tmp);
	ck_assert_int_eq(proto_get(r, "root", v, sizeof(v)), 0);
	ck_assert_str_eq(v, want);
	ck_assert_int_eq(access(want, W_OK), 0);
	ck_assert_int_eq(proto_get(r, "netns", v, sizeof(v)), 0); /* this process's: a name, or - */
	ck_assert_int_gt((int)strlen(v), 0);
}
END_TEST

/* The file rpmem_poolset writes is the set the scenario declared, in PMDK's format. */
START_TEST(test_poolset_file_is_what_the_scenario_declares)
{
	struct rpmem_poolset ps;
	char root[128], err[256], part[160];

	snprintf(root, sizeof(root), "%s/rpmem-t", tmp);
	ck_assert(proto_is(req("rpmem_poolset set=two.set size=2097152 parts=2 opt=1 malformed=0"), "ok"));
	ck_assert_int_eq(rpmem_poolset_load(root, "two.set", &ps, err, sizeof(err)), 0);
	ck_assert_uint_eq(ps.nparts, 2);
	ck_assert_int_eq(ps.opt, RPMEM_OPT_SINGLEHDR);
	ck_assert_uint_eq(ps.part[1].size, 2 * MIB);
	snprintf(part, sizeof(part), "%s/two.set.part1", root);
	ck_assert_str_eq(ps.part[1].path, part);
	rpmem_poolset_free(&ps);
	ck_assert(proto_is(req("rpmem_poolset set=nohdrs.set size=4194304 parts=1 opt=2 malformed=0"), "ok"));
	ck_assert_int_eq(rpmem_poolset_load(root, "nohdrs.set", &ps, err, sizeof(err)), 0);
	ck_assert_int_eq(ps.opt, RPMEM_OPT_NOHDRS);
	rpmem_poolset_free(&ps);
	/* malformed: a file the daemon refuses (EINVAL to the client) */
	ck_assert(proto_is(req("rpmem_poolset set=bad.set size=4194304 parts=1 opt=0 malformed=1"), "ok"));
	ck_assert_int_eq(rpmem_poolset_load(root, "bad.set", &ps, err, sizeof(err)), -EINVAL);
	/* a name the target would refuse is refused here too */
	ck_assert(proto_is(req("rpmem_poolset set=../x.set size=4194304 parts=1"), "err"));
}
END_TEST

/* The pool's bytes come from the part files at the daemon's layout (part 1 after its header), as runs. */
START_TEST(test_pool_runs_follow_the_part_layout)
{
	char path[160];

	ck_assert(proto_is(req("rpmem_poolset set=pool.set size=2097152 parts=2 opt=0 malformed=0"), "ok"));
	/* no part files yet: nothing to read (the stack reports it when the model holds bytes) */
	ck_assert(proto_is(req("rpmem_pool_runs set=pool.set off=8192 len=4"), "err errno=2"));
	snprintf(path, sizeof(path), "%s/rpmem-t/pool.set.part0", tmp);
	write_at(path, 8192, 0xab, 4, 2 * MIB);
	snprintf(path, sizeof(path), "%s/rpmem-t/pool.set.part1", tmp);
	write_at(path, 4096, 0xcd, 4, 2 * MIB);
	ck_assert_str_eq(req("rpmem_pool_runs set=pool.set off=8190 len=8"), "ok n=8 runs=00:2,ab:4,00:2");
	/* the end of part 0, then part 1's data: 2 MiB - 4096 + 2 MiB - 4096 bytes of pool in all */
	ck_assert_str_eq(req("rpmem_pool_runs set=pool.set off=2097150 len=6"), "ok n=6 runs=00:2,cd:4");
	ck_assert_str_eq(req("rpmem_pool_runs set=pool.set off=0 len=1048576"), "ok n=1048576 runs=00:8192,ab:4,00:1040380");
	ck_assert(proto_is(req("rpmem_pool_runs set=pool.set off=4190208 len=1"), "err")); /* past the span */
	ck_assert(proto_is(req("rpmem_pool_runs set=pool.set off=0 len=1048577"), "err")); /* over the maximum */
}
END_TEST

/* Runs stop where the line is full; n says how far they reach. */
START_TEST(test_pool_runs_stop_at_the_line)
{
	char path[160], *end;
	uint8_t stripes[8192];
	const char *r;
	unsigned long n;
	int fd;

	ck_assert(proto_is(req("rpmem_poolset set=pool.set size=2097152 parts=1 opt=2 malformed=0"), "ok"));
	snprintf(path, sizeof(path), "%s/rpmem-t/pool.set.part0", tmp);
	for (size_t i = 0; i < sizeof(stripes); i++)
		stripes[i] = (uint8_t)(i & 1);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 2 * MIB), 0);
	ck_assert_int_eq(pwrite(fd, stripes, sizeof(stripes), 0), (ssize_t)sizeof(stripes));
	close(fd);
	r = req("rpmem_pool_runs set=pool.set off=0 len=8192");
	ck_assert(proto_is(r, "ok"));
	n = strtoul(strstr(r, "n=") + 2, &end, 10);
	ck_assert_uint_gt(n, 500);
	ck_assert_uint_lt(n, 8192);
	ck_assert_uint_lt(strlen(r), PROTO_LINE_MAX);
}
END_TEST

/* A client's call refused before the daemon is started answers librpmem's errno (RPMEM-ARGS-1). */
START_TEST(test_RPMEM_ARGS_1_client_errno_is_the_answer)
{
	ck_assert_str_eq(req("rpmem_create id=3 ip=192.0.2.9 root=/nonexistent netns=- set=pool.set size=1048576 "
			     "addr_off=0 null_addr=1 nlanes=4 nulls=0 max_nlanes_env=0"),
			 "err errno=22 msg=pool_addr NULL or not page-aligned");
	ck_assert(proto_is(req("rpmem_open id=4 ip=192.0.2.9 root=/nonexistent netns=- set=pool.set size=1048576 "
			       "addr_off=8 null_addr=0 nlanes=4 nulls=0 max_nlanes_env=0"),
			   "err errno=22"));
	ck_assert(proto_is(req("rpmem_open id=4 ip=192.0.2.9 root=/nonexistent netns=- set=pool.set size=1048576 "
			       "addr_off=0 null_addr=0 nlanes=4 nulls=1 max_nlanes_env=0"),
			   "err errno=22"));
	ck_assert(proto_is(req("rpmem_remove ip=192.0.2.9 root=/nonexistent netns=- set=pool.set flags=4"),
			   "err errno=22"));
	/* the failed creations left no pool: a data call on one is the agent's ENOENT */
	ck_assert(proto_is(req("rpmem_persist id=3 off=8192 len=64 lane=0 flags=0"), "err errno=2"));
	ck_assert(proto_is(req("rpmem_link_down id=4"), "err errno=2"));
	/* and a client without the target's fields cannot be pointed at it */
	ck_assert(proto_is(req("rpmem_create id=5 set=pool.set size=1048576 nlanes=4"), "err errno=22"));
	for (int i = 0; i < AGENT_OBJS_MAX; i++)
		if (ag.obj[i].release)
			ag.obj[i].release(&ag, &ag.obj[i]);
	for (int i = 0; i < AGENT_OBJS_MAX; i++)
		agent_buffer_drop(&ag.obj[i]);
}
END_TEST

/* A kept agent (a node on another kernel) starts the next scenario with no set or part file of this one's. */
START_TEST(test_end_leaves_no_pools_for_the_next_scenario)
{
	char root[128], path[160];

	snprintf(root, sizeof(root), "%s/rpmem-t", tmp);
	ck_assert(proto_is(req("rpmem_poolset set=pool.set size=2097152 parts=1 opt=0 malformed=0"), "ok"));
	snprintf(path, sizeof(path), "%s/pool.set.part0", root);
	write_at(path, 0, 0x5a, 64, 2 * MIB);
	agent_rpmem_end(&ag);
	ck_assert_int_ne(access(root, F_OK), 0);
	ck_assert(proto_is(req("rpmem_target"), "ok")); /* the next scenario's: empty */
	snprintf(path, sizeof(path), "%s/pool.set", root);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(access(root, W_OK), 0);
}
END_TEST

/* A file at path with text (a victim a planted link points at). */
static void plant(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The first bytes of the file at path ("" when it cannot be read). */
static const char *contents(const char *path)
{
	static char buf[64];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	return buf;
}

/*
 * An agent started by hand shares /tmp (issue 29.10): a root directory
 * planted before it as a symlink to another directory is refused, nothing
 * is written through it, and the end of the scenario removes nothing there.
 */
START_TEST(test_root_planted_as_a_symlink_is_refused)
{
	char root[128], other[128], victim[160], r[PROTO_LINE_MAX];

	snprintf(root, sizeof(root), "%s/rpmem-t", tmp);
	snprintf(other, sizeof(other), "%s/elsewhere", tmp);
	snprintf(victim, sizeof(victim), "%s/keep", other);
	ck_assert_int_eq(mkdir(other, 0700), 0);
	plant(victim, "precious");
	ck_assert_int_eq(symlink(other, root), 0);
	snprintf(r, sizeof(r), "%s", req("rpmem_poolset set=x.set size=2097152 parts=1 opt=0 malformed=0"));
	ck_assert_msg(proto_is(r, "err") && strstr(r, "refused"), "%s", r);
	snprintf(victim, sizeof(victim), "%s/x.set", other);
	ck_assert_int_ne(access(victim, F_OK), 0);
	ck_assert(proto_is(req("rpmem_target"), "err"));
	agent_rpmem_end(&ag);
	snprintf(victim, sizeof(victim), "%s/keep", other);
	ck_assert_str_eq(contents(victim), "precious");
}
END_TEST

/* A root directory that others may write, or of another user, is refused too; one of ours is used. */
START_TEST(test_root_of_others_is_refused)
{
	char root[128];

	snprintf(root, sizeof(root), "%s/rpmem-t", tmp);
	ck_assert_int_eq(mkdir(root, 0700), 0);
	ck_assert_int_eq(chmod(root, 0777), 0);
	ck_assert(proto_is(req("rpmem_target"), "err"));
	ck_assert_int_eq(chmod(root, 0700), 0);
	if (geteuid() == 0) { /* as an agent by hand runs: another user's directory */
		ck_assert_int_eq(chown(root, 1, 1), 0);
		ck_assert(proto_is(req("rpmem_target"), "err"));
		ck_assert_int_eq(chown(root, 0, 0), 0);
	}
	ck_assert(proto_is(req("rpmem_target"), "ok")); /* our own, private: taken */
}
END_TEST

/* A pool set file name planted as a symlink in the root is not written through. */
START_TEST(test_poolset_not_written_through_a_symlink)
{
	char root[128], link[160], victim[160];

	snprintf(root, sizeof(root), "%s/rpmem-t", tmp);
	snprintf(link, sizeof(link), "%s/p.set", root);
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	ck_assert(proto_is(req("rpmem_target"), "ok"));
	plant(victim, "precious");
	ck_assert_int_eq(symlink(victim, link), 0);
	ck_assert(proto_is(req("rpmem_poolset set=p.set size=2097152 parts=1 opt=0 malformed=0"), "err"));
	ck_assert_str_eq(contents(victim), "precious");
}
END_TEST

/* A stranger on loopback: connected to port and silent. */
static int silent_peer(const char *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				   .sin_port = htons((uint16_t)atoi(port)) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	return fd;
}

/*
 * rpmem_serve's one port (issue 29.9): strangers that connect first (silent
 * ones, more than it reads at once, one sending a byte of a key and no more,
 * one with a wrong key) do not take it; the client with the key still gets
 * the daemon at once (its child got past the key and tried to exec the
 * daemon, which this test's directory has not: exit 127). Its answer has
 * rpmem_target's fields too (ip, root, netns).
 */
START_TEST(test_serve_port_is_not_taken_by_strangers)
{
	static const struct agent_node lo = { .name = "t", .ibdev = "rxe0", .netdev = "lo", .ipv4 = "127.0.0.1" };
	char port[16], key[2 * RPMEM_KEY_BYTES + 1];
	int strangers[RPMEM_KEY_PEERS_MAX + 2], fd, st = 0;
	const char *r;
	int64_t t0;
	pid_t pid = 0;

	ag.node = &lo;
	r = req("rpmem_serve");
	ck_assert_msg(proto_is(r, "ok"), "%s", r);
	ck_assert_int_eq(proto_get(r, "port", port, sizeof(port)), 0);
	ck_assert_int_eq(proto_get(r, "key", key, sizeof(key)), 0);
	{ /* rpmem_target's fields too: the coordinator asks a served target once a call */
		char ip[64], root[PATH_MAX], ns[64];

		ck_assert_int_eq(proto_get(r, "ip", ip, sizeof(ip)), 0);
		ck_assert_str_eq(ip, "127.0.0.1");
		ck_assert_int_eq(proto_get(r, "root", root, sizeof(root)), 0);
		ck_assert_ptr_nonnull(strstr(root, "/rpmem-t"));
		ck_assert_int_eq(proto_get(r, "netns", ns, sizeof(ns)), 0);
	}
	for (int i = 0; i < RPMEM_KEY_PEERS_MAX; i++)
		strangers[i] = silent_peer(port);
	strangers[RPMEM_KEY_PEERS_MAX] = silent_peer(port);
	ck_assert_int_eq(write(strangers[RPMEM_KEY_PEERS_MAX], key, 1), 1); /* a byte, then nothing */
	strangers[RPMEM_KEY_PEERS_MAX + 1] = rpmem_dial("127.0.0.1", port, "0123456789abcdef0123456789abcdef");
	ck_assert_int_ge(strangers[RPMEM_KEY_PEERS_MAX + 1], 0);
	t0 = proto_now_ms();
	fd = rpmem_dial("127.0.0.1", port, key);
	ck_assert_int_ge(fd, 0);
	while (proto_now_ms() - t0 < 3000 && (pid = waitpid(-1, &st, WNOHANG)) == 0)
		usleep(20000);
	ck_assert_msg(pid > 0, "the client with the key was kept out by the strangers");
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	close(fd);
	for (int i = 0; i < RPMEM_KEY_PEERS_MAX + 2; i++)
		close(strangers[i]);
}
END_TEST

/*
 * The daemon both paths start (the client's RPMEM_CMD, rpmem_serve's child
 * for a target on another kernel), read by the daemon's own option parser:
 * it serves pool set names relative to the target's root, with the model's
 * 64 lanes and no config file of the machine's. (issue 31: rpmem_serve ran
 * `rpmemd-rpma -r ROOT`, which is PMDK's --remove: every librpmem call of an
 * explore --stack=vm campaign, whose agents are remote, was ECONNABORTED.)
 */
START_TEST(test_served_daemon_serves_the_root)
{
	struct agent_rpmem_daemon d;
	const char *argv[AGENT_RPMEM_ARGC + 1];
	struct rpmemd_config c;
	char err[512] = "", *args[AGENT_RPMEM_ARGC + 1];
	int n = 0;

	ck_assert_int_eq(agent_rpmem_daemon_argv("/opt/rdmacheck/build", tmp, &d, argv), 0);
	ck_assert_str_eq(argv[0], "/opt/rdmacheck/build/rpmemd-rpma");
	while (argv[n])
		n++;
	ck_assert_int_le(n, AGENT_RPMEM_ARGC);
	memcpy(args, argv, sizeof(args));
	ck_assert_msg(rpmemd_config_read(&c, n, args, "/nonexistent/rpmemd.conf", err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(c.run, RPMEMD_SERVE);
	ck_assert_ptr_null(c.rm_poolset);
	ck_assert_str_eq(c.poolset_dir, tmp);
	ck_assert_uint_eq(c.max_lanes, 64);
}
END_TEST

Suite *suite_test_agent_rpmem(void)
{
	Suite *s = suite_create("agent_rpmem");
	TCase *tc = tcase_create("requests");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_target_answers_where_it_is);
	tcase_add_test(tc, test_poolset_file_is_what_the_scenario_declares);
	tcase_add_test(tc, test_pool_runs_follow_the_part_layout);
	tcase_add_test(tc, test_pool_runs_stop_at_the_line);
	tcase_add_test(tc, test_RPMEM_ARGS_1_client_errno_is_the_answer);
	tcase_add_test(tc, test_end_leaves_no_pools_for_the_next_scenario);
	tcase_add_test(tc, test_serve_port_is_not_taken_by_strangers);
	tcase_add_test(tc, test_served_daemon_serves_the_root);
	tcase_add_test(tc, test_root_planted_as_a_symlink_is_refused);
	tcase_add_test(tc, test_root_of_others_is_refused);
	tcase_add_test(tc, test_poolset_not_written_through_a_symlink);
	suite_add_tcase(s, tc);
	return s;
}

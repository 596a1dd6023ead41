/*
 * Host-side tests of librpmem-rpma (lib/rpmem/): the pool set parser and its
 * error positions, the header and control message encodings, the daemon's
 * command line, the target's pools on local files (create, EEXIST, EBUSY,
 * consistency, remove), and the library's argument checks, which run
 * before anything is started or connected. No RDMA needed.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "lib/rpmem/client.h"
#include "lib/rpmem/rpmem_int.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1ull << 20)

static int parse(const char *text, struct rpmem_poolset *ps, char *err, size_t errlen)
{
	return rpmem_poolset_parse("t.set", "/d", text, strlen(text), ps, err, errlen);
}

/* Parsing text fails with an error that starts with where. */
static void parse_fails_at(const char *text, const char *where)
{
	struct rpmem_poolset ps;
	char err[256] = "";

	ck_assert_int_eq(parse(text, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strncmp(err, where, strlen(where)) == 0, "'%s': got '%s', want '%s...'", text, err, where);
}

START_TEST(test_poolset_parses_pmdk_format)
{
	struct rpmem_poolset ps;
	char err[256] = "";

	ck_assert_int_eq(parse("PMEMPOOLSET\n# comment\nOPTION SINGLEHDR\n\n2M /a/p0 # trailing\n\t4MiB p1\n8192 p2\n",
			       &ps, err, sizeof(err)), 0);
	ck_assert_int_eq(ps.opt, RPMEM_OPT_SINGLEHDR);
	ck_assert_uint_eq(ps.nparts, 3);
	ck_assert_uint_eq(ps.part[0].size, 2 * MIB);
	ck_assert_str_eq(ps.part[0].path, "/a/p0");
	ck_assert_str_eq(ps.part[1].path, "/d/p1");
	ck_assert_uint_eq(ps.part[2].size, 8192);
	ck_assert_uint_eq(rpmem_poolset_usable(&ps), 6 * MIB + 8192); /* SINGLEHDR: part 0's header is in the pool */
	ck_assert_uint_eq(rpmem_poolset_span(&ps), 6 * MIB + 8192);
	rpmem_poolset_free(&ps);
	ck_assert_int_eq(parse("PMEMPOOLSET\r\n2M p0\r\n2M p1\r\n", &ps, err, sizeof(err)), 0);
	uint64_t fo, ml, start = rpmem_part_layout(&ps, 1, &fo, &ml);
	ck_assert_uint_eq(start, 2 * MIB); /* part 0 whole, part 1 after its header */
	ck_assert_uint_eq(fo, 4096);
	ck_assert_uint_eq(ml, 2 * MIB - 4096);
	ck_assert_uint_eq(rpmem_poolset_usable(&ps), 4 * MIB - 4096); /* PMDK: minus every header but the first */
	rpmem_poolset_free(&ps);
	ck_assert_int_eq(parse("PMEMPOOLSET\nOPTION NOHDRS\n2M p0\n", &ps, err, sizeof(err)), 0);
	ck_assert_uint_eq(rpmem_poolset_usable(&ps), 2 * MIB);
	rpmem_poolset_free(&ps);
}
END_TEST

START_TEST(test_poolset_errors_name_file_line_column)
{
	parse_fails_at("", "t.set:1:1: empty pool set");
	parse_fails_at("POOLSET\n", "t.set:1:1: expected 'PMEMPOOLSET'");
	parse_fails_at("PMEMPOOLSET\n", "t.set:1:1: no parts");
	parse_fails_at("PMEMPOOLSET\n  2X p0\n", "t.set:2:3: bad size '2X'");
	parse_fails_at("PMEMPOOLSET\n99999999999999999999 p\n", "t.set:2:1: size '99999999999999999999' out of range");
	parse_fails_at("PMEMPOOLSET\n2M\n", "t.set:2:1: a part needs a path");
	parse_fails_at("PMEMPOOLSET\n2M a b\n", "t.set:2:1: unexpected 'b'");
	parse_fails_at("PMEMPOOLSET\n2M a b c\n", "t.set:2:8: too many words");
	parse_fails_at("PMEMPOOLSET\n1000 p\n", "t.set:2:1: part size 1000 is not");
	parse_fails_at("PMEMPOOLSET\n2M dir/\n", "t.set:2:4: directory parts");
	parse_fails_at("PMEMPOOLSET\n2M p\n2M p\n", "t.set:3:4: part 'p' is listed twice");
	parse_fails_at("PMEMPOOLSET\nOPTION FOO\n2M p\n", "t.set:2:8: unknown option 'FOO'");
	parse_fails_at("PMEMPOOLSET\nOPTION\n", "t.set:2:1: OPTION takes one word");
	parse_fails_at("PMEMPOOLSET\nOPTION NOHDRS\nOPTION NOHDRS\n2M p\n", "t.set:3:1: a second OPTION");
	parse_fails_at("PMEMPOOLSET\n2M p\nOPTION NOHDRS\n", "t.set:3:1: OPTION after the first part");
	parse_fails_at("PMEMPOOLSET\n2M p\nREPLICA\n", "t.set:3:1: REPLICA is not supported");
	parse_fails_at("PMEMPOOLSET\n2M p\x01q\n", "t.set:2:4: control character");
	parse_fails_at("PMEMPOOLSET\n200T a\n200T b\n", "t.set:3:1: the parts add up");

	struct rpmem_poolset ps;
	char err[64];
	const char nul[] = "PMEMPOOLSET\n2M p\0\n";
	ck_assert_int_eq(rpmem_poolset_parse("t.set", "/d", nul, sizeof(nul) - 1, &ps, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "t.set:1:1: NUL byte in the file");
}
END_TEST

START_TEST(test_sizes_names_options)
{
	uint64_t v;
	enum rpmem_opt o;

	ck_assert_int_eq(rpmem_parse_size("4KiB", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(rpmem_parse_size("2GB", &v), 0);
	ck_assert_uint_eq(v, 2000000000ull);
	ck_assert_int_eq(rpmem_parse_size("1T", &v), 0);
	ck_assert_uint_eq(v, 1ull << 40);
	ck_assert_int_eq(rpmem_parse_size("-1", &v), -EINVAL);
	ck_assert_int_eq(rpmem_parse_size("1k", &v), -EINVAL);
	ck_assert_int_eq(rpmem_parse_size("20000000T", &v), -ERANGE);
	ck_assert(rpmem_set_name_ok("a.set") && rpmem_set_name_ok("dir/a.set") && rpmem_set_name_ok("..a"));
	ck_assert(!rpmem_set_name_ok("/etc/x") && !rpmem_set_name_ok("../x") && !rpmem_set_name_ok("a/..") &&
		  !rpmem_set_name_ok("") && !rpmem_set_name_ok("a b") && !rpmem_set_name_ok("a\nb"));
	ck_assert_int_eq(rpmem_opt_parse("nohdrs", &o), 0);
	ck_assert_int_eq(o, RPMEM_OPT_NOHDRS);
	ck_assert_int_eq(rpmem_opt_parse("NONE", &o), -EINVAL); /* not an OPTION word */
	ck_assert_str_eq(rpmem_opt_str(RPMEM_OPT_SINGLEHDR), "SINGLEHDR");
	ck_assert_str_eq(rpmem_opt_str((enum rpmem_opt)7), "?");
}
END_TEST

static struct rpmem_pool_attr attr_of(char c)
{
	struct rpmem_pool_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(a.signature, "UNITTST", 7);
	a.major = 0x01020304;
	a.ro_compat_features = 7;
	a.uuid[15] = 0xee;
	a.user_flags[0] = (unsigned char)c;
	return a;
}

START_TEST(test_header_round_trip_and_torn)
{
	uint8_t buf[RPMEM_HDR_SIZE];
	struct rpmem_hdr h = { .opt = 1, .part = 2, .nparts = 3, .part_size = 2 * MIB, .span = 6 * MIB,
			       .attr = attr_of('h') }, g;

	rpmem_hdr_encode(&h, buf);
	ck_assert_int_eq(memcmp(buf, "RPMEMRPA", 8), 0);
	ck_assert_int_eq(buf[40 + 8], 0x04); /* major, little-endian */
	memset(&g, 0xff, sizeof(g));
	ck_assert_int_eq(rpmem_hdr_decode(buf, &g), 0);
	ck_assert(g.opt == h.opt && g.part == h.part && g.nparts == h.nparts && g.part_size == h.part_size &&
		  g.span == h.span && memcmp(&g.attr, &h.attr, sizeof(g.attr)) == 0);
	buf[100] ^= 1; /* a torn attribute byte */
	ck_assert_int_eq(rpmem_hdr_decode(buf, &g), -EINVAL);
	buf[100] ^= 1;
	buf[0] = 'X';
	ck_assert_int_eq(rpmem_hdr_decode(buf, &g), -EINVAL);
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(rpmem_hdr_decode(buf, &g), -EINVAL);
	ck_assert(rpmem_attr_zero(&(struct rpmem_pool_attr){ 0 }) && !rpmem_attr_zero(&h.attr));
}
END_TEST

START_TEST(test_control_message_round_trip_and_refusals)
{
	uint8_t buf[RPMEM_MSG_WIRE];
	struct rpmem_msg m, g;

	memset(&m, 0, sizeof(m)); /* padding too: the round trip is compared with memcmp */
	m.type = RPMEM_MSG_CREATE;
	m.nlanes = 4;
	m.pool_size = 1ull << 33;
	m.offset = 5;
	m.len = 6;
	m.port = 7701;
	m.hdr = 1;
	m.has_attr = 1;
	m.attr = attr_of('m');
	m.desc_len = 3;
	m.desc[0] = 1;
	m.desc[2] = 3;

	strcpy(m.name, "dir/pool.set");
	strcpy(m.host, "198.18.0.2");
	rpmem_msg_encode(&m, buf);
	ck_assert_int_eq(rpmem_msg_decode(buf, &g), 0);
	ck_assert_int_eq(memcmp(&g, &m, sizeof(g)), 0);
	buf[8 + 4 * 4 + 3 * 8 + 4 * 4 + RPMEM_ATTR_WIRE + RPMEM_NAME_MAX - 1] = 'x'; /* name without NUL */
	memset(buf + 8 + 4 * 4 + 3 * 8 + 4 * 4 + RPMEM_ATTR_WIRE, 'x', RPMEM_NAME_MAX);
	ck_assert_int_eq(rpmem_msg_decode(buf, &g), -EPROTO);
	rpmem_msg_encode(&m, buf);
	buf[RPMEM_MSG_WIRE - 2 * RPMEM_DESC_MAX - 2] = RPMEM_DESC_MAX + 1; /* desc_len too large */
	ck_assert_int_eq(rpmem_msg_decode(buf, &g), -EPROTO);
	m.type = 99;
	rpmem_msg_encode(&m, buf);
	ck_assert_int_eq(rpmem_msg_decode(buf, &g), -EPROTO);
	m.type = RPMEM_MSG_RESP;
	rpmem_msg_encode(&m, buf);
	buf[4] = 9; /* version */
	ck_assert_int_eq(rpmem_msg_decode(buf, &g), -EPROTO);

	int sv[2];
	ck_assert_int_eq(pipe(sv), 0);
	ck_assert_int_eq(rpmem_msg_send(sv[1], &m), 0);
	ck_assert_int_eq(rpmem_msg_recv(sv[0], &g), 0);
	ck_assert_int_eq(g.port, 7701);
	close(sv[1]);
	ck_assert_int_eq(rpmem_msg_recv(sv[0], &g), -ECONNRESET);
	close(sv[0]);
}
END_TEST

START_TEST(test_RPMEM_ERRNO_1_status_to_errno)
{
	enum rpmem_status s;
	const int errs[] = { ENOENT, EEXIST, EBUSY, EINVAL, EFBIG, EACCES, ENOMEM };

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		ck_assert_int_eq(rpmem_status_errno(rpmem_status_of(errs[i])), errs[i]);
	ck_assert_int_eq(rpmem_status_errno(rpmem_status_of(EIO)), EREMOTEIO);
	ck_assert_int_eq(rpmem_status_errno(RPMEM_ST_PROTO), EPROTONOSUPPORT);
	ck_assert_int_eq(rpmem_status_errno(RPMEM_ST_OK), 0);
	ck_assert_str_eq(rpmem_status_str(RPMEM_ST_BUSY), "BUSY");
	ck_assert_int_eq(rpmem_status_parse("fbig", &s), 0);
	ck_assert_int_eq(s, RPMEM_ST_FBIG);
	ck_assert_int_eq(rpmem_status_parse("nope", &s), -EINVAL);
}
END_TEST

START_TEST(test_daemon_command_is_an_argv)
{
	char buf[512], host[64], *argv[RPMEM_ARGV_MAX];
	int n;

	n = rpmem_command("user@node2:2222", NULL, NULL, 0, buf, sizeof(buf), argv, host, sizeof(host));
	ck_assert_int_eq(n, 7);
	ck_assert_str_eq(argv[0], "ssh");
	ck_assert_str_eq(argv[1], "-T");
	ck_assert_str_eq(argv[2], "-oBatchMode=yes");
	ck_assert_str_eq(argv[3], "-p");
	ck_assert_str_eq(argv[4], "2222");
	ck_assert_str_eq(argv[5], "user@node2");
	ck_assert_str_eq(argv[6], "rpmemd"); /* PMDK's default command */
	ck_assert_ptr_null(argv[7]);
	ck_assert_str_eq(host, "node2");
	n = rpmem_command("10.0.0.2", "", "  ip netns exec b  rpmemd-rpma -r '/x y'", 0, buf, sizeof(buf), argv, host,
			  sizeof(host));
	ck_assert_int_eq(n, 8); /* no quoting: '/x and y' are two words */
	ck_assert_str_eq(argv[0], "ip");
	ck_assert_str_eq(argv[4], "rpmemd-rpma");
	ck_assert_str_eq(argv[6], "'/x");
	ck_assert_str_eq(argv[7], "y'");
	ck_assert_str_eq(host, "10.0.0.2");
	n = rpmem_command("h", "ssh -i key", "", 0, buf, sizeof(buf), argv, host, sizeof(host));
	ck_assert_int_eq(n, 7);
	ck_assert_str_eq(argv[5], "h");
	ck_assert_str_eq(argv[6], "rpmemd");
	ck_assert_int_eq(rpmem_command("", NULL, NULL, 0, buf, sizeof(buf), argv, host, sizeof(host)), -EINVAL);
	ck_assert_int_eq(rpmem_command("h;rm", NULL, NULL, 0, buf, sizeof(buf), argv, host, sizeof(host)), -EINVAL);
	ck_assert_int_eq(rpmem_command("h:x", NULL, NULL, 0, buf, sizeof(buf), argv, host, sizeof(host)), -EINVAL);
	ck_assert_int_eq(rpmem_command("h", "", "a b c", 0, buf, 4, argv, host, sizeof(host)), -EINVAL);
	/* RPMEM_CMD "c1|c2|c3": start number k takes command k mod 3 (PMDK's round robin) */
	for (unsigned k = 0; k < 7; k++) {
		static const char *const first[] = { "c1", "c2", "c3" };

		n = rpmem_command("h", "", "c1 -x| c2 |c3 a b", k, buf, sizeof(buf), argv, host, sizeof(host));
		ck_assert_int_eq(n, k % 3 == 0 ? 2 : k % 3 == 1 ? 1 : 3);
		ck_assert_str_eq(argv[0], first[k % 3]);
	}
	n = rpmem_command("h", NULL, "rpmemd|ip netns exec b rpmemd", 1, buf, sizeof(buf), argv, host, sizeof(host));
	ck_assert_int_eq(n, 9); /* ssh -T -oBatchMode=yes h ip netns exec b rpmemd */
	ck_assert_str_eq(argv[5], "netns");
	ck_assert_int_eq(rpmem_command("h", "", "a||b", 1, buf, sizeof(buf), argv, host, sizeof(host)), -EINVAL);
	ck_assert_int_eq(rpmem_command("h", "", "a|", 1, buf, sizeof(buf), argv, host, sizeof(host)), -EINVAL);
}
END_TEST

/* A root config directory with pool sets (parts inside it), removed by the test. */
static void root_make(char *root, size_t len)
{
	snprintf(root, len, "/tmp/rpmem-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void put_file(const char *root, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void root_rm(const char *root)
{
	const char *names[] = { "a.set", "n.set", "s.set", "bad.set", "a.p0", "a.p1", "n.p0", "s.p0" };
	char path[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(root), 0);
}

START_TEST(test_target_pool_create_open_busy_remove)
{
	char root[64], err[256];
	struct rpmem_tpool a, b;
	struct rpmem_pool_attr at = attr_of('t'), z;

	root_make(root, sizeof(root));
	put_file(root, "a.set", "PMEMPOOLSET\n2M a.p0\n2M a.p1\n");
	put_file(root, "n.set", "PMEMPOOLSET\nOPTION NOHDRS\n2M n.p0\n");
	put_file(root, "s.set", "PMEMPOOLSET\n1M s.p0\n");
	put_file(root, "bad.set", "PMEMPOOLSET\n2M\n");
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(rpmem_tpool_create(root, "../a.set", 8192, &at, &a, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(rpmem_tpool_create(root, "none.set", 8192, &at, &a, err, sizeof(err)), -ENOENT);
	ck_assert_int_eq(rpmem_tpool_create(root, "bad.set", 8192, &at, &a, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "bad.set:2:1: a part needs a path after its size");
	ck_assert_int_eq(rpmem_tpool_create(root, "s.set", 8192, &at, &a, err, sizeof(err)), -EINVAL); /* SIZE-2 */
	ck_assert_int_eq(rpmem_tpool_create(root, "a.set", 8192, NULL, &a, err, sizeof(err)), -EINVAL); /* HDR-1 */
	ck_assert_int_eq(rpmem_tpool_create(root, "n.set", 8192, &at, &a, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(rpmem_tpool_create(root, "a.set", 4 * MIB, &at, &a, err, sizeof(err)), -EFBIG);
	ck_assert_str_eq(err, "a.set: usable size smaller than the pool size");
	ck_assert_int_eq(rpmem_tpool_open(root, "a.set", 8192, &a, err, sizeof(err)), -ENOENT);
	ck_assert_int_eq(rpmem_tpool_create(root, "a.set", 4 * MIB - 4096, &at, &a, err, sizeof(err)), 0);
	ck_assert_uint_eq(a.span, 4 * MIB - 4096);
	a.base[2 * MIB + 5] = 0x42; /* part 1, file offset 4096 + 5 */
	ck_assert_int_eq(rpmem_tpool_sync(&a, 2 * MIB, 4096), 0);
	ck_assert_int_eq(rpmem_tpool_create(root, "a.set", 8192, &at, &b, err, sizeof(err)), -EEXIST);
	ck_assert_int_eq(rpmem_tpool_open(root, "a.set", 8192, &b, err, sizeof(err)), -EBUSY);
	ck_assert_int_eq(rpmem_tpool_remove(root, "a.set", 0, err, sizeof(err)), -EBUSY);
	ck_assert_int_eq(rpmem_tpool_set_attr(&a, &at), 0);
	rpmem_tpool_close(&a);
	ck_assert_int_eq(rpmem_tpool_open(root, "a.set", 4 * MIB, &b, err, sizeof(err)), -EFBIG);
	ck_assert_int_eq(rpmem_tpool_open(root, "a.set", 8192, &b, err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(&b.attr, &at, sizeof(at)), 0);
	ck_assert_int_eq(b.has_hdr, 1);
	ck_assert_int_eq(b.base[2 * MIB + 5], 0x42);
	ck_assert_int_eq(rpmem_tpool_set_attr(&b, NULL), 0);
	rpmem_tpool_close(&b);
	/* the byte is in the part file where the layout says */
	char path[512];
	uint8_t byte = 0;
	snprintf(path, sizeof(path), "%s/a.p1", root);
	int fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &byte, 1, 4096 + 5), 1);
	ck_assert_int_eq(byte, 0x42);
	/* tear part 1's header: inconsistent (open and remove without force refuse it) */
	ck_assert_int_eq(pwrite(fd, "X", 1, 0), 1);
	close(fd);
	ck_assert_int_eq(rpmem_tpool_open(root, "a.set", 8192, &b, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(rpmem_tpool_remove(root, "a.set", 0, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(rpmem_tpool_remove(root, "a.set", 4, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(rpmem_tpool_remove(root, "a.set", RPMEM_REMOVE_FORCE, err, sizeof(err)), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(rpmem_tpool_remove(root, "a.set", 0, err, sizeof(err)), -ENOENT);
	/* NOHDRS: no header, zeros for attributes, set_attr refused; POOL_SET removes the set file */
	ck_assert_int_eq(rpmem_tpool_create(root, "n.set", 2 * MIB, NULL, &a, err, sizeof(err)), 0);
	ck_assert_int_eq(a.has_hdr, 0);
	ck_assert_int_eq(rpmem_tpool_set_attr(&a, &at), -EINVAL);
	rpmem_tpool_close(&a);
	ck_assert_int_eq(rpmem_tpool_open(root, "n.set", 2 * MIB, &a, err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(&a.attr, &z, sizeof(z)), 0);
	rpmem_tpool_close(&a);
	ck_assert_int_eq(rpmem_tpool_remove(root, "n.set", RPMEM_REMOVE_POOL_SET, err, sizeof(err)), 0);
	ck_assert_int_eq(rpmem_tpool_open(root, "n.set", 8192, &a, err, sizeof(err)), -ENOENT);
	root_rm(root);
}
END_TEST

/*
 * RPMEM-SIZE-1 on the target's pools: PMDK's usable size (set.c
 * util_poolset_set_size: the parts minus 4096 for every header but the
 * first) at its boundary, for one 32 MiB part (librpmem(7)'s EXAMPLE), three
 * parts with headers, SINGLEHDR and NOHDRS; the last byte is mapped.
 */
START_TEST(test_RPMEM_SIZE_1_target_pools_at_pmdk_usable_size)
{
	static const struct { const char *name, *text; uint64_t usable; int hdr; } c[] = {
		{ "m32.set", "PMEMPOOLSET\n32M m32.p0\n", 32 * MIB, 1 },
		{ "three.set", "PMEMPOOLSET\n2M t.p0\n2M t.p1\n2M t.p2\n", 6 * MIB - 8192, 1 },
		{ "single.set", "PMEMPOOLSET\nOPTION SINGLEHDR\n2M s.p0\n2M s.p1\n", 4 * MIB, 1 },
		{ "nohdrs.set", "PMEMPOOLSET\nOPTION NOHDRS\n2M n.p0\n2M n.p1\n", 4 * MIB, 0 },
	};
	struct rpmem_pool_attr at;
	struct rpmem_tpool tp;
	char root[256], err[256];

	memset(&at, 0, sizeof(at));
	memcpy(at.signature, "RDCK", 4);
	root_make(root, sizeof(root));
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct rpmem_pool_attr *a = c[i].hdr ? &at : NULL;

		put_file(root, c[i].name, c[i].text);
		ck_assert_int_eq(rpmem_tpool_create(root, c[i].name, c[i].usable + 4096, a, &tp, err, sizeof(err)),
				 -EFBIG);
		ck_assert_int_eq(rpmem_tpool_create(root, c[i].name, c[i].usable, a, &tp, err, sizeof(err)), 0);
		ck_assert_uint_eq(tp.span, c[i].usable);
		tp.base[c[i].usable - 1] = 0x5a;
		ck_assert_int_eq(rpmem_tpool_sync(&tp, c[i].usable - 4096, 4096), 0);
		rpmem_tpool_close(&tp);
		ck_assert_int_eq(rpmem_tpool_open(root, c[i].name, c[i].usable + 4096, &tp, err, sizeof(err)), -EFBIG);
		ck_assert_int_eq(rpmem_tpool_open(root, c[i].name, c[i].usable, &tp, err, sizeof(err)), 0);
		ck_assert_int_eq(tp.base[c[i].usable - 1], 0x5a);
		rpmem_tpool_close(&tp);
		ck_assert_int_eq(rpmem_tpool_remove(root, c[i].name, RPMEM_REMOVE_POOL_SET, err, sizeof(err)), 0);
	}
	root_rm(root);
}
END_TEST

START_TEST(test_RPMEM_ARGS_1_library_checks_before_starting_anything)
{
	static uint8_t pool[3 * 4096] __attribute__((aligned(4096)));
	struct rpmem_pool_attr at = attr_of('a');
	unsigned n = 1, zero = 0;

	/* A daemon command that cannot start: an argument error must come first. */
	setenv("RPMEM_SSH", "", 1);
	setenv("RPMEM_CMD", "/nonexistent/rpmemd-rpma", 1);
	errno = 0;
	ck_assert_ptr_null(rpmem_create("h", "a.set", NULL, 4096, &n, &at));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(rpmem_create("h", "a.set", pool + 1, 4096, &n, &at));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(rpmem_open("h", "a.set", pool, 4095, &n, NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(rpmem_open("h", "a.set", pool, 0, &n, NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(rpmem_open("h", "a.set", pool, 4096, NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(rpmem_open("h", "a.set", pool, 4096, &zero, NULL));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "nlanes"));
	/* all arguments fine: now the start fails */
	ck_assert_ptr_null(rpmem_open("h", "a.set", pool, 4096, &n, NULL));
	/* posix_spawn reports the missing program, or (fork-based, e.g. under valgrind) the child exits */
	ck_assert_msg(errno == ECONNREFUSED || errno == ECONNABORTED, "errno %d", errno);
	ck_assert_int_eq(rpmem_remove("h", "a.set", 8), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(rpmem_check_version(RPMEM_MAJOR_VERSION, 0));
	ck_assert_ptr_nonnull(rpmem_check_version(RPMEM_MAJOR_VERSION + 1, 0));
	unsetenv("RPMEM_SSH");
	unsetenv("RPMEM_CMD");
}
END_TEST

/* A handle as create would leave it, without lanes: the checks run before any transfer. */
static struct rpmem_pool handle(uint8_t *pool, size_t size, int hdr)
{
	struct rpmem_pool p;

	memset(&p, 0, sizeof(p));
	p.fd = -1;
	p.addr = pool;
	p.size = size;
	p.nlanes = 2;
	p.hdr = hdr;
	return p;
}

START_TEST(test_RPMEM_PERSIST_1_checks_in_order_before_the_lane)
{
	static uint8_t pool[4 * 4096];
	struct rpmem_pool p = handle(pool, sizeof(pool), 1);
	char buf[8];

	errno = 0;
	ck_assert_int_eq(rpmem_persist(&p, 0, 8, 9, 2), -1); /* flags first */
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "flags"));
	ck_assert_int_eq(rpmem_persist(&p, 0, 8, 9, 0), -1);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "header"));
	ck_assert_int_eq(rpmem_persist(&p, 4096, 8, 2, 0), -1);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "lane"));
	ck_assert_int_eq(rpmem_flush(&p, 4096, 3 * 4096 + 1, 0, RPMEM_FLUSH_RELAXED), -1);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "range"));
	ck_assert_int_eq(rpmem_persist(&p, sizeof(pool), 0, 0, 0), -1); /* offset == pool_size, len 0 */
	ck_assert_int_eq(rpmem_persist(&p, 8192, 0, 1, RPMEM_PERSIST_RELAXED), 0); /* len 0: nothing */
	ck_assert_int_eq(rpmem_deep_persist(&p, 0, 8, 0), -1);
	ck_assert_int_eq(rpmem_drain(&p, 0, 1), -1);
	ck_assert_int_eq(rpmem_drain(&p, 2, 0), -1);
	ck_assert_int_eq(rpmem_read(&p, buf, 0, 8, 2), -1);
	ck_assert_int_eq(rpmem_read(&p, buf, 0, 0, 0), 0);
	ck_assert_int_eq(rpmem_read(&p, buf, sizeof(pool) - 4, 8, 0), -1); /* past pool_size (man page) */
	ck_assert_int_eq(errno, EINVAL);
	/* without a header, offset 0 passes the guard (and reaches the lane check) */
	p = handle(pool, sizeof(pool), 0);
	ck_assert_int_eq(rpmem_persist(&p, 0, 8, 5, 0), -1);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "lane"));
	ck_assert_int_eq(rpmem_deep_persist(&p, 0, 8, 5), -1);
	ck_assert_ptr_nonnull(strstr(rpmem_errormsg(), "lane"));
	ck_assert_int_eq(rpmem_set_attr(&p, NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_RPMEM_ERR_1_kept_error_comes_first)
{
	static uint8_t pool[2 * 4096];
	struct rpmem_pool p = handle(pool, sizeof(pool), 1);
	char buf[8];

	p.error = ECONNABORTED;
	errno = 0;
	ck_assert_int_eq(rpmem_persist(&p, 0, 8, 9, 7), -1);
	ck_assert_int_eq(errno, ECONNABORTED);
	ck_assert_int_eq(rpmem_flush(&p, 0, 8, 9, 7), -1);
	ck_assert_int_eq(errno, ECONNABORTED);
	ck_assert_int_eq(rpmem_deep_persist(&p, 0, 8, 9), -1);
	ck_assert_int_eq(errno, ECONNABORTED);
	ck_assert_int_eq(rpmem_drain(&p, 9, 1), -1);
	ck_assert_int_eq(errno, ECONNABORTED);
	ck_assert_int_eq(rpmem_read(&p, buf, 0, 8, 9), -1);
	ck_assert_int_eq(errno, ECONNABORTED);
	ck_assert_int_eq(rpmem_set_attr(&p, NULL), -1);
	ck_assert_int_eq(errno, ECONNABORTED);
}
END_TEST

Suite *suite_test_lib_rpmem(void)
{
	Suite *s = suite_create("lib_rpmem");
	TCase *tc = tcase_create("host");

	tcase_add_test(tc, test_poolset_parses_pmdk_format);
	tcase_add_test(tc, test_poolset_errors_name_file_line_column);
	tcase_add_test(tc, test_sizes_names_options);
	tcase_add_test(tc, test_header_round_trip_and_torn);
	tcase_add_test(tc, test_control_message_round_trip_and_refusals);
	tcase_add_test(tc, test_RPMEM_ERRNO_1_status_to_errno);
	tcase_add_test(tc, test_daemon_command_is_an_argv);
	tcase_add_test(tc, test_target_pool_create_open_busy_remove);
	tcase_add_test(tc, test_RPMEM_SIZE_1_target_pools_at_pmdk_usable_size);
	tcase_add_test(tc, test_RPMEM_ARGS_1_library_checks_before_starting_anything);
	tcase_add_test(tc, test_RPMEM_PERSIST_1_checks_in_order_before_the_lane);
	tcase_add_test(tc, test_RPMEM_ERR_1_kept_error_comes_first);
	suite_add_tcase(s, tc);
	return s;
}

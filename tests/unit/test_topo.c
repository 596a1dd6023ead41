/* Unit tests of the topology description reader (netns/topo.c). */
#include "netns/topo.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAD "rdmacheck-topology 1\nmode routed\nprefix rc0001\nhub rc0001-hub\n"
#define NODE_A "node a netns=- netdev=rc0001a rxe=rc0001_a ipv4=198.18.1.1/24 gid_index=1\n"
#define NODE_B "node b netns=- netdev=rc0001b rxe=rc0001_b ipv4=198.18.1.2/24 gid_index=1\n"

static struct topo t;
static char err[256];

static int parse(const char *text)
{
	return topo_parse(text, strlen(text), &t, err, sizeof(err));
}

START_TEST(test_valid_two_nodes)
{
	ck_assert_int_eq(parse(HEAD NODE_A NODE_B), 0);
	ck_assert_int_eq(t.version, 1);
	ck_assert_int_eq(t.mode, TOPO_MODE_ROUTED);
	ck_assert_str_eq(t.prefix, "rc0001");
	ck_assert_str_eq(t.hub, "rc0001-hub");
	ck_assert_uint_eq(t.n, 2);
	ck_assert_str_eq(t.node[1].name, "b");
	ck_assert_str_eq(t.node[1].netns, "");
	ck_assert_str_eq(t.node[1].netdev, "rc0001b");
	ck_assert_str_eq(t.node[1].rxe, "rc0001_b");
	ck_assert_str_eq(t.node[1].ipv4, "198.18.1.2");
	ck_assert_int_eq(t.node[1].prefix_len, 24);
	ck_assert_int_eq(t.node[1].gid_index, 1);
	ck_assert_ptr_eq(topo_find(&t, "b"), &t.node[1]);
	ck_assert_ptr_null(topo_find(&t, "c"));
}
END_TEST

START_TEST(test_comments_blanks_and_crlf)
{
	ck_assert_int_eq(parse("# hello\n\nrdmacheck-topology 1\r\nmode netns # trailing\n"
			       "prefix rc0001\nhub rc0001-hub\n"
			       "node a netns=rc0001-a netdev=rc0001a rxe=rc0001_a ipv4=198.18.1.1/24 gid_index=3\r\n"),
			 0);
	ck_assert_int_eq(t.mode, TOPO_MODE_NETNS);
	ck_assert_str_eq(t.node[0].netns, "rc0001-a");
	ck_assert_int_eq(t.node[0].gid_index, 3);
}
END_TEST

START_TEST(test_no_rxe_node)
{
	ck_assert_int_eq(parse(HEAD "node a netns=- netdev=x0 rxe=- ipv4=198.18.1.1/24 gid_index=-1\n"), 0);
	ck_assert_str_eq(t.node[0].rxe, "");
	ck_assert_int_eq(t.node[0].gid_index, -1);
}
END_TEST

START_TEST(test_fixtures_written_by_the_script)
{
	ck_assert_msg(topo_load("tests/fixtures/routed-3-norxe.topo", &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_str_eq(t.node[2].name, "c");
	ck_assert_msg(topo_load("tests/fixtures/routed-2-rxe.topo", &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(t.node[0].rxe, "rcede0_a");
	ck_assert_msg(topo_load("tests/fixtures/netns-2-norxe.topo", &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(t.mode, TOPO_MODE_NETNS);
	ck_assert_str_eq(t.node[1].netns, "rc0c0d-b");
	ck_assert_str_eq(t.node[1].ipv4, "198.18.13.2");
	ck_assert_int_eq(t.node[1].gid_index, -1);
}
END_TEST

/*
 * Round trip with a file netns/topology just wrote: tests/shell/test-topology
 * runs this suite with RDMACHECK_TOPO_FILE set (and RDMACHECK_TOPO_NODES to
 * the node count it asked for). Without it, the committed fixtures stand in.
 */
START_TEST(test_file_from_the_script)
{
	const char *path = getenv("RDMACHECK_TOPO_FILE");
	const char *nodes = getenv("RDMACHECK_TOPO_NODES");

	if (!path || !*path)
		return;
	ck_assert_msg(topo_load(path, &t, err, sizeof(err)) == 0, "%s", err);
	if (nodes)
		ck_assert_uint_eq(t.n, (size_t)atoi(nodes));
	for (size_t i = 0; i < t.n; i++) {
		const struct topo_node *nd = &t.node[i];
		char want[2] = { (char)('a' + i), '\0' };

		ck_assert_str_eq(nd->name, want);
		ck_assert_int_eq(strncmp(nd->netdev, t.prefix, strlen(t.prefix)), 0);
		ck_assert_int_eq(nd->prefix_len, 24);
		ck_assert_ptr_eq(topo_find(&t, want), nd);
	}
}
END_TEST

START_TEST(test_load_rejects_with_line_number)
{
	char path[] = "/tmp/test_topo_XXXXXX";
	int fd = mkstemp(path);
	const char text[] = HEAD NODE_A "node b netns=- netdev=q rxe=- ipv4=198.18.1.2/24 gid_index=3\n";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	ck_assert_int_eq(topo_load(path, &t, err, sizeof(err)), -EINVAL);
	unlink(path);
	ck_assert_str_eq(err, "line 6: rxe=- goes with gid_index=-1 and only with it");
}
END_TEST

START_TEST(test_load_too_large)
{
	char path[] = "/tmp/test_topo_XXXXXX";
	int fd = mkstemp(path);
	static char text[64 * 1024 + 1];

	ck_assert_int_ge(fd, 0);
	memset(text, '#', sizeof(text));
	ck_assert_int_eq(write(fd, text, sizeof(text)), (ssize_t)sizeof(text));
	close(fd);
	ck_assert_int_eq(topo_load(path, &t, err, sizeof(err)), -EINVAL);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(err, "larger than"));
}
END_TEST

START_TEST(test_load_directory)
{
	ck_assert_int_lt(topo_load("tests/fixtures", &t, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "tests/fixtures"));
}
END_TEST

START_TEST(test_sixteen_nodes_netns)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "rdmacheck-topology 1\nmode netns\nprefix rc0001\nhub rc0001-hub\n");

	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "node %c netns=rc0001-%c netdev=rc0001%c rxe=rc0001_%c ipv4=198.18.1.%d/24 gid_index=%d\n",
				      'a' + i, 'a' + i, 'a' + i, 'a' + i, i + 1, i);
	ck_assert_msg(parse(text) == 0, "%s", err);
	ck_assert_uint_eq(t.n, 16);
	ck_assert_str_eq(t.node[15].netns, "rc0001-p");
	ck_assert_str_eq(t.node[15].ipv4, "198.18.1.16");
	ck_assert_int_eq(t.node[15].gid_index, 15);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_load_missing_file)
{
	ck_assert_int_eq(topo_load("tests/fixtures/does-not-exist.topo", &t, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "does-not-exist"));
}
END_TEST

START_TEST(test_mode_names)
{
	enum topo_mode m;

	ck_assert_str_eq(topo_mode_str(TOPO_MODE_ROUTED), "routed");
	ck_assert_str_eq(topo_mode_str(TOPO_MODE_NETNS), "netns");
	ck_assert_str_eq(topo_mode_str((enum topo_mode)42), "?");
	ck_assert_int_eq(topo_mode_parse("netns", &m), 0);
	ck_assert_int_eq(m, TOPO_MODE_NETNS);
	ck_assert_int_eq(topo_mode_parse("NETNS", &m), -EINVAL);
}
END_TEST

/* Every rejection, with the message it must give. */
static const struct bad {
	const char *text;
	const char *msg;
} bad[] = {
	{ "", "empty file" },
	{ "hello 1\n", "not a topology file" },
	{ "rdmacheck-topology 2\n", "unsupported version" },
	{ "rdmacheck-topology 1\nmode bridged\n", "bad or repeated mode" },
	{ "rdmacheck-topology 1\nmode routed\nmode routed\n", "bad or repeated mode" },
	{ "rdmacheck-topology 1\nprefix a;b\n", "bad or repeated prefix" },
	{ "rdmacheck-topology 1\nhub\n", "bad or repeated hub" },
	{ "rdmacheck-topology 1\nwhat ever\n", "unknown statement" },
	{ "rdmacheck-topology 1\nprefix rc0001\nhub h\n", "missing mode line" },
	{ HEAD, "no node" },
	{ HEAD "node\n", "node needs a name" },
	{ HEAD "node A netns=-\n", "bad node name" },
	{ HEAD NODE_A NODE_A, "defined twice" },
	{ HEAD "node a netns\n", "expected KEY=VALUE" },
	{ HEAD "node a color=red\n", "unknown key" },
	{ HEAD "node a netns=- netns=-\n", "given twice" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=198.18.1.1/24\n", "lacks gid_index=" },
	{ HEAD "node a netns=- netdev=this-is-far-too-long rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "bad value for netdev" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.256/24 gid_index=1\n", "bad value for ipv4" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3/24 gid_index=1\n", "bad value for ipv4" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/33 gid_index=1\n", "bad value for ipv4" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4 gid_index=1\n", "bad value for ipv4" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=x\n", "bad value for gid_index" },
	{ HEAD "node a netns=- netdev=x rxe=$(reboot) ipv4=1.2.3.4/24 gid_index=1\n", "bad value for rxe" },
	{ HEAD "node a netns=- netdev=x rxe=- ipv4=1.2.3.4/24 gid_index=1\n", "rxe=- goes with gid_index=-1" },
	{ HEAD NODE_A "node b netns=- netdev=rc0001a rxe=r2 ipv4=198.18.1.2/24 gid_index=1\n", "netdev rc0001a used twice" },
	{ HEAD NODE_A "node b netns=- netdev=y rxe=r2 ipv4=198.18.1.1/24 gid_index=1\n", "address 198.18.1.1 used twice" },
	{ HEAD NODE_A "node b netns=- netdev=y rxe=rc0001_a ipv4=198.18.1.2/24 gid_index=1\n", "rxe device rc0001_a used twice" },
	{ HEAD "node a netns=ns1 netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "does not fit mode routed" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1 a b c d e f g h i j k l m n\n", "too many fields" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.04/24 gid_index=1\n", "bad value for ipv4" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/024 gid_index=1\n", "bad value for ipv4" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=65536\n", "bad value for gid_index" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=-2\n", "bad value for gid_index" },
	{ HEAD "node a netns=.. netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "bad value for netns" },
	{ HEAD "node a netns=-n netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "bad value for netns" },
	{ HEAD "node a netns=- netdev=-x rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "bad value for netdev" },
	{ HEAD "node a netns=- netdev=x/y rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "bad value for netdev" },
	{ HEAD "node a netns=- netdev= rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "bad value for netdev" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1\nnode b_ netns=- netdev=y rxe=s ipv4=1.2.3.5/24 gid_index=1\nnode c netns=- netdev=y rxe=t ipv4=1.2.3.6/24 gid_index=1\n", "line 7: netdev y used twice" },
	{ "rdmacheck-topology 1\nmode netns\nprefix p\nhub h\n"
	  "node a netns=n1 netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1\n"
	  "node b netns=n1 netdev=y rxe=s ipv4=1.2.3.5/24 gid_index=1\n", "netns n1 used twice" },
	{ "rdmacheck-topology 1\nmode netns\nprefix p\nhub h\n"
	  "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1\n", "does not fit mode netns" },
	{ "rdmacheck-topology 1\nmode routed\nprefix p\n" NODE_A, "missing hub line" },
	{ "rdmacheck-topology 1\nmode routed\nhub h\n" NODE_A, "missing prefix line" },
	{ "rdmacheck-topology 1\nrdmacheck-topology 1\n", "unknown statement" },
	{ "mode routed\nrdmacheck-topology 1\n", "line 1: not a topology file" },
	{ "rdmacheck-topology 1 extra\n", "not a topology file" },
	{ "rdmacheck-topology 1\nprefix rc0001 rc0002\n", "bad or repeated prefix" },
	{ "\n\n# only comments\n", "empty file" },
	{ "rdmacheck-topology 1\nmode hosts\n"
	  "node a netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3\n", "agent= is required in mode hosts" },
	{ HEAD "node a netns=- netdev=x rxe=r ipv4=1.2.3.4/24 gid_index=1 agent=h:1\n", "agent= is for mode hosts only" },
	{ "rdmacheck-topology 1\nmode hosts\n"
	  "node a netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3 agent=h:0\n", "bad value for agent" },
	{ "rdmacheck-topology 1\nmode hosts\n"
	  "node a netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3 agent=nocolon\n", "bad value for agent" },
	{ "rdmacheck-topology 1\nmode hosts\n"
	  "node a netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3 agent=$(id):7000\n", "bad value for agent" },
	{ "rdmacheck-topology 1\nmode hosts\n"
	  "node a netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3 agent=a:7000\n"
	  "node b netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3 agent=b:7000\n",
	  "line 4: address 10.0.0.1 used twice" },
};

START_TEST(test_hosts_mode)
{
	/* every node on its own kernel: the same NIC and device names on each host, no prefix or hub */
	static const char text[] = "rdmacheck-topology 1\nmode hosts\n"
				   "node a netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.1/24 gid_index=3 agent=10.1.0.1:7000\n"
				   "node b netns=- netdev=ens1 rxe=mlx5_0 ipv4=10.0.0.2/24 gid_index=3 agent=[fd00::2]:7000\n";
	struct topo t;
	char err[256];

	ck_assert_msg(topo_parse(text, sizeof(text) - 1, &t, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(t.mode, TOPO_MODE_HOSTS);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_str_eq(t.node[0].agent, "10.1.0.1:7000");
	ck_assert_str_eq(t.node[1].agent, "[fd00::2]:7000");
	ck_assert_str_eq(topo_mode_str(TOPO_MODE_HOSTS), "hosts");
}
END_TEST

START_TEST(test_rejects)
{
	const struct bad *b = &bad[_i];

	ck_assert_int_eq(parse(b->text), -EINVAL);
	ck_assert_msg(strstr(err, b->msg) != NULL, "case %d: got '%s', want '%s'", _i, err, b->msg);
	ck_assert_msg(strncmp(err, "line ", 5) == 0, "case %d: no line number in '%s'", _i, err);
}
END_TEST

START_TEST(test_reject_long_line_and_nul)
{
	char text[1200];

	memset(text, 'x', sizeof(text));
	memcpy(text, "rdmacheck-topology 1\n", 21);
	ck_assert_int_eq(topo_parse(text, sizeof(text), &t, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "line 2: line longer than"));
	ck_assert_int_eq(topo_parse("rdmacheck-topology 1\nmo\0de routed\n", 33, &t, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "NUL byte"));
}
END_TEST

START_TEST(test_seventeen_nodes_rejected)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof(text), "%s", HEAD);

	for (int i = 0; i < 17; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "node n%d netns=- netdev=d%d rxe=r%d ipv4=198.18.1.%d/24 gid_index=1\n",
				      i, i, i, i + 1);
	ck_assert_int_eq(parse(text), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "line 21: more than 16 nodes"));
}
END_TEST

START_TEST(test_tiny_error_buffer_is_safe)
{
	char small[8];

	ck_assert_int_eq(topo_parse("x", 1, &t, small, sizeof(small)), -EINVAL);
	ck_assert_uint_lt(strlen(small), sizeof(small));
	ck_assert_int_eq(topo_parse("x", 1, &t, NULL, 0), -EINVAL);
}
END_TEST

Suite *suite_test_topo(void)
{
	Suite *s = suite_create("topo");
	TCase *tc = tcase_create("reader");

	tcase_add_test(tc, test_valid_two_nodes);
	tcase_add_test(tc, test_comments_blanks_and_crlf);
	tcase_add_test(tc, test_no_rxe_node);
	tcase_add_test(tc, test_fixtures_written_by_the_script);
	tcase_add_test(tc, test_load_missing_file);
	tcase_add_test(tc, test_file_from_the_script);
	tcase_add_test(tc, test_load_rejects_with_line_number);
	tcase_add_test(tc, test_load_too_large);
	tcase_add_test(tc, test_load_directory);
	tcase_add_test(tc, test_sixteen_nodes_netns);
	tcase_add_test(tc, test_mode_names);
	tcase_add_test(tc, test_hosts_mode);
	tcase_add_loop_test(tc, test_rejects, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_reject_long_line_and_nul);
	tcase_add_test(tc, test_seventeen_nodes_rejected);
	tcase_add_test(tc, test_tiny_error_buffer_is_safe);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Host-side tests of libmrapi-rdma (lib/mrapi): the directory's line codec,
 * the directory service over loopback TCP (its protocol, atomic create from
 * two processes, a node leaving), and the public calls that need no RDMA
 * device: argument checks, attributes, handles that are garbage, of another
 * process or of a withdrawn buffer, and requests. Every test runs in its own
 * process (Check's fork mode) on its own port.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/dir.h"
#include "lib/mrapi/mrapi.h"
#include "tests/unit/port_fx.h"
#include "lib/mrapi/rmem.h" /* attached(): an attachment without an RDMA device */

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The test's directory port, chosen by the fixture before each test: unique
 * per test process (fork mode) and per test (CK_FORK=no, e.g. valgrind);
 * the test's own forked children inherit it.
 */
static unsigned port_;

static unsigned test_port(void)
{
	return port_;
}

static void setup(void)
{
	port_ = fx_free_port();
}

/* A test that initialized the library leaves it (its directory connection closes). */
static void teardown(void)
{
	mrapi_status_t st;

	mrapi_finalize(&st);
}

static int dir(uint32_t domain, uint32_t node)
{
	int fd = -1;

	ck_assert_int_eq(dir_open("127.0.0.1", test_port(), domain, node, 3000, &fd), 0);
	return fd;
}

static int create(int fd, uint32_t id, uint32_t *gen)
{
	uint32_t got;

	return dir_create(fd, id, MRAPI_RMEM_ATYPE_DEFAULT, 1, 0x1000, 64, 7, 5000, "127.0.0.1", &got, gen);
}

START_TEST(test_wire_codec)
{
	struct wline w;
	char line[] = "  GET  12 x ", *argv[4];
	uint64_t v;

	wl_init(&w);
	wl_str(&w, "OK");
	wl_u64(&w, 0);
	wl_u64(&w, UINT64_MAX);
	wl_end(&w);
	ck_assert_str_eq(w.buf, "OK 0 18446744073709551615\n");
	ck_assert_int_eq(wl_split(line, argv, 4), 3);
	ck_assert_str_eq(argv[0], "GET");
	ck_assert_str_eq(argv[2], "x");
	ck_assert_int_eq(wl_u64_parse("18446744073709551615", &v), 0);
	ck_assert_int_eq(wl_u64_parse("18446744073709551616", &v), -EINVAL);
	ck_assert_int_eq(wl_u64_parse("-1", &v), -EINVAL);
	ck_assert_int_eq(wl_u64_parse("", &v), -EINVAL);
	wl_init(&w);
	for (int i = 0; i < 100; i++)
		wl_str(&w, "abcd");
	ck_assert(w.over);
	ck_assert_int_eq(dir_status("OK 1 2"), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_status("ERR EXISTS"), MRAPI_ERR_RMEM_EXISTS);
	ck_assert_int_eq(dir_status("OKAY"), -EPROTO);
}
END_TEST

START_TEST(test_dir_protocol)
{
	int a = dir(1, 1), b = dir(1, 2), fd;
	uint32_t gen, gen2, id1, id2;
	struct dir_seg s;

	ck_assert_int_eq(dir_open("127.0.0.1", test_port(), 1, 1, 3000, &fd), -EEXIST);
	ck_assert_int_eq(create(a, 5, &gen), MRAPI_SUCCESS);
	ck_assert_int_eq(create(b, 5, &gen2), MRAPI_ERR_RMEM_EXISTS);
	ck_assert_int_eq(create(b, DIR_ANY_FIRST, &gen2), MRAPI_SUCCESS); /* every id but ANY is a user's */
	ck_assert_int_eq(dir_create(a, MRAPI_RMEM_ID_ANY, 3, 1, 1, 1, 1, 1, "10.0.0.1", &id1, &gen2), 0);
	ck_assert_int_eq(dir_create(b, MRAPI_RMEM_ID_ANY, 3, 1, 1, 1, 1, 1, "10.0.0.1", &id2, &gen2), 0);
	ck_assert_uint_ne(id1, id2);
	ck_assert(id1 > DIR_ANY_FIRST && id2 > DIR_ANY_FIRST); /* ANY skips the ids in use */
	ck_assert_int_eq(dir_get(b, 5, &s), MRAPI_SUCCESS);
	ck_assert_uint_eq(s.gen, gen);
	ck_assert_uint_eq(s.rkey, 7);
	ck_assert_uint_eq(s.port, 5000);
	ck_assert_str_eq(s.ip, "127.0.0.1");
	ck_assert_int_eq(dir_get(b, 6, &s), MRAPI_ERR_RMEM_ID_INVALID);
	ck_assert_int_eq(dir_get(b, MRAPI_RMEM_ID_ANY, &s), MRAPI_ERR_RMEM_ID_INVALID);
	ck_assert_int_eq(dir_op(b, "ATTACH", 5, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(b, "ATTACH", 5, gen), MRAPI_ERR_RMEM_ATTACHED);
	ck_assert_int_eq(dir_op(a, "ATTACH", 5, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(b, "DETACH", 5, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(b, "DETACH", 5, gen), MRAPI_ERR_RMEM_NOTATTACHED);
	ck_assert_int_eq(dir_op(b, "ATTACH", 5, gen), MRAPI_SUCCESS);
	/* b still attached: the delete succeeds, as the reference implementation's (no attach-count check) */
	ck_assert_int_eq(dir_op(a, "DELETE", 5, gen), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(b, "ATTACH", 5, gen), MRAPI_ERR_RMEM_INVALID);
	ck_assert_int_eq(dir_op(a, "DETACH", 5, gen), MRAPI_ERR_RMEM_INVALID); /* the owner's went with it */
	ck_assert_int_eq(dir_op(b, "DETACH", 5, gen), MRAPI_SUCCESS); /* b ends its attachment */
	ck_assert_int_eq(dir_op(b, "DETACH", 5, gen), MRAPI_ERR_RMEM_INVALID);
	ck_assert_int_eq(create(b, 5, &gen2), MRAPI_SUCCESS); /* the id is free again */
	ck_assert_uint_ne(gen2, gen);
	ck_assert_int_eq(dir_op(a, "ATTACH", 5, gen), MRAPI_ERR_RMEM_INVALID); /* the old life */
	close(a);
	close(b);
}
END_TEST

START_TEST(test_dir_limit_and_garbage)
{
	int a = dir(1, 1), b = dir(1, 2), c;
	uint32_t gen;
	struct wline w;
	char reply[DIR_LINE], big[600];

	for (uint32_t id = 0; id < DIR_MAX_SEGS; id++)
		ck_assert_int_eq(create(a, id, &gen), MRAPI_SUCCESS);
	ck_assert_int_eq(create(b, 100, &gen), MRAPI_ERR_MEM_LIMIT);
	wl_init(&w);
	wl_str(&w, "CREATE 1 2");
	wl_end(&w);
	ck_assert_int_eq(dir_call(b, &w, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ERR PROTO");
	wl_init(&w);
	wl_str(&w, "DELETE 1 0");
	wl_end(&w);
	ck_assert_int_eq(dir_call(b, &w, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ERR PROTO");
	/* a line longer than the protocol allows ends that node, not the service */
	memset(big, 'x', sizeof(big));
	ck_assert_int_eq(write(b, big, sizeof(big)), (ssize_t)sizeof(big));
	ck_assert_int_eq(dir_get(b, 1, &(struct dir_seg){ 0 }), -ECONNRESET);
	c = dir(1, 3);
	ck_assert_int_eq(dir_get(c, 1, &(struct dir_seg){ 0 }), MRAPI_SUCCESS);
	close(a);
	close(b);
	close(c);
}
END_TEST

START_TEST(test_dir_node_leaving_withdraws_its_ids)
{
	int a = dir(1, 1), b = dir(1, 2);
	uint32_t gen, gen2;
	struct dir_seg s;

	ck_assert_int_eq(create(a, 9, &gen), MRAPI_SUCCESS);
	ck_assert_int_eq(create(b, 10, &gen2), MRAPI_SUCCESS);
	ck_assert_int_eq(dir_op(a, "ATTACH", 10, gen2), MRAPI_SUCCESS);
	close(a); /* node 1 finalizes (or dies) while attached to node 2's buffer */
	for (int i = 0; i < 100 && dir_get(b, 9, &s) == MRAPI_SUCCESS; i++)
		usleep(10000);
	ck_assert_int_eq(dir_get(b, 9, &s), MRAPI_ERR_RMEM_ID_INVALID);
	ck_assert_int_eq(dir_op(b, "DELETE", 10, gen2), MRAPI_SUCCESS); /* its attachment went too */
	a = dir(1, 1); /* and the node id is free again */
	close(a);
	close(b);
}
END_TEST

/* Two processes create one id at once: exactly one SUCCESS, one EXISTS. */
START_TEST(test_dir_concurrent_create_is_atomic)
{
	int fds[2], results[2], ready[2][2], go[2][2]; /* per child: a byte each (start, then leave) */
	pid_t pid[2];

	close(dir(9, 99)); /* the service runs */
	ck_assert_int_eq(pipe(fds), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(pipe(ready[i]), 0);
		ck_assert_int_eq(pipe(go[i]), 0);
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (pid[i] == 0) {
			uint32_t gen;
			int fd = -1, st;
			char c;

			if (dir_open("127.0.0.1", test_port(), 1, (uint32_t)i + 1, 3000, &fd))
				_exit(99);
			if (write(ready[i][1], "r", 1) != 1 || read(go[i][0], &c, 1) != 1)
				_exit(98);
			st = create(fd, 77, &gen);
			if (write(fds[1], &st, sizeof(st)) != sizeof(st))
				_exit(97);
			/* stay a node until both answered: leaving would withdraw the id */
			if (read(go[i][0], &c, 1) != 1)
				_exit(96);
			_exit(0);
		}
	}
	for (int i = 0; i < 2; i++) {
		char c;
		ck_assert_int_eq(read(ready[i][0], &c, 1), 1);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(write(go[i][1], "g", 1), 1);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(read(fds[0], &results[i], sizeof(int)), (ssize_t)sizeof(int));
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(write(go[i][1], "x", 1), 1);
	for (int i = 0; i < 2; i++) {
		int st;
		ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
		ck_assert(WIFEXITED(st)); /* (its exit code may be valgrind's when the suite runs under it) */
	}
	ck_assert_int_eq(results[0] + results[1], MRAPI_ERR_RMEM_EXISTS);
	ck_assert(results[0] == MRAPI_SUCCESS || results[1] == MRAPI_SUCCESS);
}
END_TEST

/* ---------------------------------------------------------- public API -- */

static void init_node(uint32_t node)
{
	char v[32];
	mrapi_status_t st;

	snprintf(v, sizeof(v), "127.0.0.1:%u", test_port());
	ck_assert_int_eq(setenv("MRAPI_RDMA_DIR", v, 1), 0);
	mrapi_initialize(1, node, 0, NULL, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
}

START_TEST(test_api_before_initialize)
{
	mrapi_status_t st;
	mrapi_rmem_attributes_t at;
	mrapi_request_t rq = 0;
	char buf[8];
	uint8_t t = MRAPI_TRUE;

	mrapi_rmem_get(1, MRAPI_RMEM_ATYPE_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_rmem_create(1, buf, MRAPI_RMEM_ATYPE_DEFAULT, NULL, 0, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_rmem_read_i(1, 0, buf, 0, 8, 1, 8, 8, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_rmem_init_attributes(&at, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_test(&rq, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_finalize(&st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_rmem_set_attribute(&at, MRAPI_DOMAIN_SHARED, &t, 1, &st); /* needs no node */
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	/* a NULL status: nothing happens, nothing crashes */
	mrapi_rmem_get(1, MRAPI_RMEM_ATYPE_DEFAULT, NULL);
	mrapi_finalize(NULL);
	ck_assert_str_eq(mrapi_display_status(MRAPI_ERR_RMEM_EXISTS, buf, sizeof(buf)), "MRAPI_E");
}
END_TEST

START_TEST(test_api_initialize_twice_and_finalize)
{
	mrapi_status_t st;
	mrapi_info_t info;

	init_node(1);
	mrapi_initialize(1, 1, 0, &info, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_INITIALIZED);
	mrapi_finalize(&st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_initialize(1, 1, 0, &info, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	ck_assert_str_eq(info.mrapi_version, MRAPI_VERSION);
	ck_assert_int_eq(setenv("MRAPI_RDMA_DIR", "not-an-address", 1), 0);
	mrapi_finalize(&st);
	mrapi_initialize(1, 1, 0, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_NODE_INITFAILED);
}
END_TEST

START_TEST(test_api_attributes)
{
	mrapi_rmem_attributes_t at;
	mrapi_status_t st;
	uint8_t f = MRAPI_FALSE;
	uint32_t u = 5;

	init_node(1);
	mrapi_rmem_init_attributes(NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	mrapi_rmem_init_attributes(&at, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	ck_assert(at.domain_shared == MRAPI_TRUE && at.error_ext == MRAPI_FALSE);
	mrapi_rmem_set_attribute(&at, MRAPI_DOMAIN_SHARED, &f, sizeof(f), &st);
	ck_assert(st == MRAPI_SUCCESS && at.domain_shared == MRAPI_FALSE);
	mrapi_rmem_set_attribute(&at, 99, &f, sizeof(f), &st);
	ck_assert_int_eq(st, MRAPI_ERR_ATTR_NUM);
	mrapi_rmem_set_attribute(&at, MRAPI_ERROR_EXT, &u, sizeof(u), &st);
	ck_assert_int_eq(st, MRAPI_ERR_ATTR_SIZE);
	mrapi_rmem_set_attribute(&at, MRAPI_RMEM_SIZE, &u, sizeof(u), &st);
	ck_assert_int_eq(st, MRAPI_ERR_ATTR_READONLY);
	mrapi_rmem_set_attribute(NULL, MRAPI_ERROR_EXT, &f, 1, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	mrapi_rmem_set_attribute(&at, MRAPI_ERROR_EXT, NULL, 1, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
}
END_TEST

START_TEST(test_api_create_argument_checks)
{
	static char buf[256];
	mrapi_rmem_attributes_t raw;
	mrapi_status_t st;

	init_node(1);
	ck_assert_uint_eq(mrapi_rmem_create(1, NULL, MRAPI_RMEM_ATYPE_DEFAULT, NULL, 64, &st), 0);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	mrapi_rmem_create(1, buf, MRAPI_RMEM_ATYPE_DEFAULT, NULL, 0, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	memset(&raw, 0, sizeof(raw)); /* never initialised */
	mrapi_rmem_create(1, buf, MRAPI_RMEM_ATYPE_DEFAULT, &raw, 64, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	mrapi_rmem_create(1, buf, (mrapi_rmem_atype_t)42, NULL, 64, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_TYPENOTVALID);
	mrapi_rmem_create(1, buf, MRAPI_RMEM_ATYPE_SWCACHE, NULL, 64, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_TYPENOTVALID);
	mrapi_rmem_create(MRAPI_MAX_USER_RMEM_ID, buf, MRAPI_RMEM_ATYPE_DEFAULT, NULL, 64, &st);
	ck_assert_int_eq(st, MRAPI_ERR_MEM_LIMIT); /* a valid id: past the checks, no RDMA device here */
}
END_TEST

START_TEST(test_api_get_checks_and_handles)
{
	int owner = dir(1, 50), other;
	uint32_t id, gen;
	mrapi_status_t st;
	mrapi_rmem_hndl_t h, h2, h4;
	uint32_t size = 0;
	uint8_t shared = 9;

	init_node(1);
	/* a buffer "node 50" offers, published through the directory */
	ck_assert_int_eq(dir_create(owner, 3, MRAPI_RMEM_ATYPE_DMA, 1, 0x5000, 300, 9, 4791, "127.0.0.1", &id, &gen), 0);
	ck_assert_int_eq(dir_create(owner, 4, MRAPI_RMEM_ATYPE_ANY, 0, 0x9000, 64, 9, 4791, "127.0.0.1", &id, &gen), 0);
	mrapi_rmem_get(MRAPI_RMEM_ID_ANY, MRAPI_RMEM_ATYPE_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_ID_INVALID);
	mrapi_rmem_get(77, MRAPI_RMEM_ATYPE_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_ID_INVALID);
	mrapi_rmem_get(3, MRAPI_RMEM_ATYPE_ANY, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_TYPENOTVALID);
	mrapi_rmem_get(3, MRAPI_RMEM_ATYPE_DEFAULT, &st); /* strict DMA */
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_ATYPE);
	h = mrapi_rmem_get(3, MRAPI_RMEM_ATYPE_DMA, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	h2 = mrapi_rmem_get(3, MRAPI_RMEM_ATYPE_DMA, &st);
	ck_assert_uint_eq(h, h2);
	mrapi_rmem_get_attribute(h, MRAPI_RMEM_SIZE, &size, sizeof(size), &st);
	ck_assert(st == MRAPI_SUCCESS && size == 300);
	mrapi_rmem_get_attribute(h, MRAPI_DOMAIN_SHARED, &shared, sizeof(shared), &st);
	ck_assert(st == MRAPI_SUCCESS && shared == MRAPI_TRUE);
	mrapi_rmem_get_attribute(h, MRAPI_DOMAIN_SHARED, &shared, 4, &st);
	ck_assert_int_eq(st, MRAPI_ERR_ATTR_SIZE);
	mrapi_rmem_get_attribute(h, MRAPI_DOMAIN_SHARED, NULL, 1, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	/* not shared, seen from another domain */
	other = dir(2, 60);
	h4 = mrapi_rmem_get(4, MRAPI_RMEM_ATYPE_DMA, &st); /* same domain, ANY type: fine */
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	close(other);
	/* a node of the buffer's domain that did not create it deletes it, as the reference implementation lets it */
	mrapi_rmem_delete(h4, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_rmem_get(4, MRAPI_RMEM_ATYPE_DMA, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_ID_INVALID);
	mrapi_rmem_attach(h4, MRAPI_RMEM_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	/* read before attach; deleted by its owner: the handle dies */
	char b[16];
	mrapi_rmem_read(h, 0, b, 0, 4, 2, 2, 4, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_STRIDE);
	mrapi_rmem_read(h, 0, b, 0, 4, 1, 4, 4, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_NOTATTACHED);
	ck_assert_int_eq(dir_create(owner, 5, 0, 0, 0x1, 8, 1, 1, "127.0.0.1", &id, &gen), 0);
	close(owner); /* the owner leaves */
	usleep(100000);
	mrapi_rmem_attach(h, MRAPI_RMEM_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_flush(h, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
}
END_TEST

START_TEST(test_api_domain_not_shared)
{
	int owner = dir(2, 50);
	uint32_t id, gen;
	mrapi_status_t st;

	init_node(1); /* domain 1 */
	ck_assert_int_eq(dir_create(owner, 4, MRAPI_RMEM_ATYPE_ANY, 0, 0x9000, 64, 9, 4791, "127.0.0.1", &id, &gen), 0);
	mrapi_rmem_get(4, MRAPI_RMEM_ATYPE_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_DOMAIN_NOTSHARED);
	/* a shared one: got from domain 1, but only a node of domain 2 may delete it */
	ck_assert_int_eq(dir_create(owner, 5, MRAPI_RMEM_ATYPE_ANY, 1, 0xa000, 64, 9, 4791, "127.0.0.1", &id, &gen), 0);
	mrapi_rmem_hndl_t h = mrapi_rmem_get(5, MRAPI_RMEM_ATYPE_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_rmem_delete(h, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_NOTOWNER);
	mrapi_rmem_get(5, MRAPI_RMEM_ATYPE_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	close(owner);
}
END_TEST

START_TEST(test_api_bad_handles_and_requests)
{
	mrapi_status_t st;
	mrapi_request_t rq = 0x1234, rqs[2] = { 1, 2 };
	char b[8];
	const mrapi_rmem_hndl_t bad[] = { 0, 1, UINT32_MAX, 0xdeadbe03u };

	init_node(1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mrapi_rmem_attach(bad[i], MRAPI_RMEM_DEFAULT, &st);
		ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
		mrapi_rmem_detach(bad[i], &st);
		ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
		mrapi_rmem_delete(bad[i], &st);
		ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
		mrapi_rmem_read(bad[i], 0, b, 0, 8, 1, 8, 8, &st);
		ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
		mrapi_rmem_write_i(bad[i], 0, b, 0, 8, 0xffffffffu, 0xffffffffu, 8, &rq, &st);
		ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
		mrapi_rmem_sync(bad[i], &st);
		ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	}
	mrapi_rmem_read_i(bad[1], 0, b, 0, 8, 1, 8, 8, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	ck_assert_uint_eq(mrapi_test(&rq, NULL, &st), MRAPI_FALSE);
	ck_assert_int_eq(st, MRAPI_ERR_REQUEST_INVALID);
	mrapi_test(NULL, NULL, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	mrapi_wait(&rq, NULL, 10, &st);
	ck_assert_int_eq(st, MRAPI_ERR_REQUEST_INVALID);
	mrapi_cancel(&rq, &st);
	ck_assert_int_eq(st, MRAPI_ERR_REQUEST_INVALID);
	mrapi_wait_any(0, rqs, NULL, 10, &st);
	ck_assert_int_eq(st, MRAPI_ERR_PARAMETER);
	ck_assert_uint_eq(mrapi_wait_any(2, rqs, NULL, 10, &st), 0xffffffffu);
	ck_assert_int_eq(st, MRAPI_ERR_REQUEST_INVALID);
}
END_TEST

/*
 * Node 1 attached to handle v as mrapi_rmem_attach leaves it (the directory
 * counts the attachment, the handle says attached), without the RDMA
 * connection attach would open: there is no RDMA device here. Only calls
 * that answer before a transfer may then be made on v.
 */
static void attached(mrapi_rmem_hndl_t v)
{
	mrapi_status_t st;
	int h;

	ck_assert(lib_enter(&st));
	h = h_find(v);
	ck_assert_int_ge(h, 0);
	ck_assert_int_eq(dir_op(lib_state.dir_fd, "ATTACH", lib_state.h[h].id, lib_state.h[h].gen), MRAPI_SUCCESS);
	lib_state.h[h].attached = 1;
	lib_leave();
}

/*
 * The handle first, as the reference implementation checks it
 * (ke4harper/MxAPI mca-2.0.3 mrapi_rmem.c: mrapi_impl_valid_rmem_hndl before
 * anything else of the handle) and the model (RMEM-NODE-1, RMEM-DELETE-2):
 * once the buffer's creator finalized, every call on a handle of it is
 * MRAPI_ERR_RMEM_INVALID, attached or not, whatever else is wrong with the
 * call. Before, the node's own state answered first: attach ATTACHED, flush
 * and get_attribute SUCCESS, a read past the end BUFF_OVERRUN (docs/explore.md, 012).
 */
START_TEST(test_api_handle_checked_first_after_creator_left)
{
	int owner = dir(1, 50);
	uint32_t id, gen, size = 0;
	mrapi_status_t st;
	mrapi_rmem_hndl_t h[5];
	char b[16];

	init_node(1);
	for (uint32_t i = 0; i < 5; i++) {
		ck_assert_int_eq(dir_create(owner, 80 + i, MRAPI_RMEM_ATYPE_DEFAULT, 1, 0x1000, 64, 9, 4791, "127.0.0.1",
					    &id, &gen),
				 0);
		h[i] = mrapi_rmem_get(80 + i, MRAPI_RMEM_ATYPE_DEFAULT, &st);
		ck_assert_int_eq(st, MRAPI_SUCCESS);
		if (i < 4)
			attached(h[i]);
	}
	/* while the creator is there, the node's own state answers */
	mrapi_rmem_attach(h[0], MRAPI_RMEM_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_ATTACHED);
	mrapi_rmem_read(h[1], 60, b, 0, 8, 1, 8, 8, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_BUFF_OVERRUN);
	mrapi_rmem_flush(h[2], &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_rmem_get_attribute(h[3], MRAPI_RMEM_SIZE, &size, sizeof(size), &st);
	ck_assert(st == MRAPI_SUCCESS && size == 64);
	close(owner); /* the creator finalizes: the directory drops its buffers and the attachments to them */
	usleep(100000);
	mrapi_rmem_attach(h[0], MRAPI_RMEM_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_read(h[1], 60, b, 0, 8, 1, 8, 8, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_write(h[1], 60, b, 0, 8, 1, 4, 8, &st); /* a stride below the access too */
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_flush(h[2], &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_get_attribute(h[3], MRAPI_RMEM_SIZE, &size, sizeof(size), &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_get_attribute(h[4], MRAPI_RMEM_SIZE, &size, sizeof(size), &st); /* never attached */
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_read(h[4], 0, b, 0, 8, 1, 4, 8, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	/* the directory dropped the attachment with the buffer: nothing is left to detach or delete */
	mrapi_rmem_detach(h[0], &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_delete(h[2], &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
}
END_TEST

/* Deleted by its creator while node 1 is attached: the same, and the attachment is still node 1's to end. */
START_TEST(test_api_handle_checked_first_after_delete)
{
	int owner = dir(1, 50);
	uint32_t id, gen[2];
	mrapi_status_t st;
	mrapi_rmem_hndl_t h[2];

	init_node(1);
	for (uint32_t i = 0; i < 2; i++) {
		ck_assert_int_eq(dir_create(owner, 90 + i, MRAPI_RMEM_ATYPE_DEFAULT, 1, 0x1000, 64, 9, 4791, "127.0.0.1",
					    &id, &gen[i]),
				 0);
		h[i] = mrapi_rmem_get(90 + i, MRAPI_RMEM_ATYPE_DEFAULT, &st);
		ck_assert_int_eq(st, MRAPI_SUCCESS);
		attached(h[i]);
	}
	for (uint32_t i = 0; i < 2; i++)
		ck_assert_int_eq(dir_op(owner, "DELETE", 90 + i, gen[i]), MRAPI_SUCCESS);
	mrapi_rmem_attach(h[0], MRAPI_RMEM_DEFAULT, &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_detach(h[0], &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_rmem_sync(h[1], &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_detach(h[1], &st);
	ck_assert_int_eq(st, MRAPI_SUCCESS);
	mrapi_rmem_detach(h[1], &st);
	ck_assert_int_eq(st, MRAPI_ERR_RMEM_INVALID);
	close(owner);
}
END_TEST

Suite *suite_test_lib_mrapi(void)
{
	Suite *s = suite_create("lib_mrapi");
	TCase *tc = tcase_create("host");

	tcase_set_timeout(tc, 20);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_wire_codec);
	tcase_add_test(tc, test_dir_protocol);
	tcase_add_test(tc, test_dir_limit_and_garbage);
	tcase_add_test(tc, test_dir_node_leaving_withdraws_its_ids);
	tcase_add_test(tc, test_dir_concurrent_create_is_atomic);
	tcase_add_test(tc, test_api_before_initialize);
	tcase_add_test(tc, test_api_initialize_twice_and_finalize);
	tcase_add_test(tc, test_api_attributes);
	tcase_add_test(tc, test_api_create_argument_checks);
	tcase_add_test(tc, test_api_get_checks_and_handles);
	tcase_add_test(tc, test_api_domain_not_shared);
	tcase_add_test(tc, test_api_bad_handles_and_requests);
	tcase_add_test(tc, test_api_handle_checked_first_after_creator_left);
	tcase_add_test(tc, test_api_handle_checked_first_after_delete);
	suite_add_tcase(s, tc);
	return s;
}

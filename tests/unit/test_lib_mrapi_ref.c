/*
 * libmrapi-rdma as the MCA reference implementation declares MRAPI
 * (lib/mrapi/mrapi.h): its status numbers and constants, its signatures
 * (attach with an access type, read without a local size, synch,
 * set_debug_level), ids over the whole mrapi_rmem_id_t range, and threads
 * as nodes (several nodes in one process, each with its own handles) — what
 * the reference's tests rmem1..rmem5 rely on. Host only (no RDMA device):
 * the directory over loopback TCP, a "remote" buffer published by a bare
 * directory connection. Every test runs in its own process (Check's fork
 * mode) on its own port.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/dir.h"
#include "lib/mrapi/mrapi.h"
#include "tests/unit/port_fx.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned port_;

static void setup(void)
{
	char v[32];

	port_ = fx_free_port();
	snprintf(v, sizeof(v), "127.0.0.1:%u", port_);
	setenv("MRAPI_RDMA_DIR", v, 1);
}

/* A bare directory connection as node `node` of domain 1, which publishes a buffer id (no RDMA behind it). */
static int publish(uint32_t node, uint32_t id)
{
	uint32_t got, gen;
	int fd = -1;

	ck_assert_int_eq(dir_open("127.0.0.1", port_, 1, node, 3000, &fd), 0);
	ck_assert_int_eq(dir_create(fd, id, MRAPI_RMEM_DEFAULT, 1, 0x1000, 1024, 7, 4791, "127.0.0.1", &got, &gen),
			 0);
	ck_assert_uint_eq(got, id);
	return fd;
}

START_TEST(test_ref_status_numbers_and_constants)
{
	char b[MRAPI_MAX_STATUS_SIZE];

	/* the reference's numbering (mrapi_status_flags of MRAPI_VERSION "FSL 0.9.3.4") */
	ck_assert_int_eq(MRAPI_INCOMPLETE, 2);
	ck_assert_int_eq(MRAPI_ERR_MEM_LIMIT, 8);
	ck_assert_int_eq(MRAPI_ERR_NODE_INITIALIZED, 21);
	ck_assert_int_eq(MRAPI_ERR_NODE_NOTINIT, 23);
	ck_assert_int_eq(MRAPI_ERR_RMEM_ID_INVALID, 29);
	ck_assert_int_eq(MRAPI_ERR_RMEM_EXISTS, 37);
	ck_assert_int_eq(MRAPI_ERR_RMEM_TYPENOTVALID, 42);
	ck_assert_int_eq(MRAPI_ERR_SHM_NOTATTACHED, 75);
	ck_assert_int_eq(MRAPI_RMEM_DMA, 0);
	ck_assert_int_eq(MRAPI_RMEM_DUMMY, 2);
	ck_assert_int_eq(MRAPI_RMEM_DEFAULT, MRAPI_RMEM_DUMMY);
	ck_assert_uint_eq(MRAPI_NONE, 0xffffffffu);
	ck_assert_uint_eq(sizeof(mrapi_rmem_hndl_t), 4);
	ck_assert_uint_eq(sizeof(mrapi_request_t), 4);
	ck_assert_uint_eq(sizeof(mca_status_t), sizeof(unsigned));
	ck_assert_str_eq(MRAPI_VERSION, "FSL 0.9.3.4");
	ck_assert_str_eq(mrapi_display_status(MRAPI_ERR_RMEM_STRIDE, b, sizeof(b)), "MRAPI_ERR_RMEM_STRIDE");
	ck_assert_str_eq(mrapi_display_status(MRAPI_ERR_SHM_NOTATTACHED, b, sizeof(b)), "MRAPI_ERR_SHM_NOTATTACHED");
	ck_assert_str_eq(mrapi_display_status(9999, b, sizeof(b)), "MRAPI_STATUS_UNKNOWN");
}
END_TEST

/* Ids the reference's tests use (0xdeadbabe) and every other id but ANY. */
START_TEST(test_ref_ids_over_the_whole_range)
{
	const mrapi_rmem_id_t ids[] = { (mrapi_rmem_id_t)0xdeadbabe, 0x10000, (mrapi_rmem_id_t)0xfffffffe, 0 };
	mca_status_t st;
	mrapi_info_t info;
	int fds[4];

	mrapi_initialize(1, 1, 0, &info, &st);
	ck_assert_uint_eq(st, MRAPI_SUCCESS);
	ck_assert_str_eq(info.mrapi_version, MRAPI_VERSION);
	for (unsigned i = 0; i < 4; i++) {
		mrapi_rmem_hndl_t h;
		uint32_t size = 0;

		fds[i] = publish(50 + i, (uint32_t)ids[i]);
		h = mrapi_rmem_get(ids[i], MRAPI_RMEM_DUMMY, &st);
		ck_assert_uint_eq(st, MRAPI_SUCCESS);
		mrapi_rmem_get_attribute(h, MRAPI_RMEM_SIZE, &size, sizeof(size), &st);
		ck_assert(st == MRAPI_SUCCESS && size == 1024);
	}
	mrapi_rmem_get((mrapi_rmem_id_t)MRAPI_RMEM_ID_ANY, MRAPI_RMEM_DUMMY, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_ID_INVALID);
	for (unsigned i = 0; i < 4; i++)
		close(fds[i]);
	mrapi_finalize(&st);
	ck_assert_uint_eq(st, MRAPI_SUCCESS);
}
END_TEST

/* rmem4's error answers, with the reference's signatures. */
START_TEST(test_ref_rmem4_errors)
{
	mrapi_status_t st;
	mrapi_rmem_hndl_t rmem = 0;
	char buf[10] = { 0 };

	rmem = mrapi_rmem_create((mrapi_rmem_id_t)0xdeadbabe, &buf, MRAPI_RMEM_DUMMY, NULL, sizeof(buf), &st);
	ck_assert_uint_eq(st, MRAPI_ERR_NODE_NOTINIT);
	rmem = mrapi_rmem_get((mrapi_rmem_id_t)0xdeadbabe, MRAPI_RMEM_DUMMY, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_NODE_NOTINIT);
	mrapi_initialize(1, 1, 0, NULL, &st);
	ck_assert_uint_eq(st, MRAPI_SUCCESS);
	mrapi_rmem_create((mrapi_rmem_id_t)0xdeadbabe, &buf, 42, NULL, sizeof(buf), &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_TYPENOTVALID);
	mrapi_rmem_get((mrapi_rmem_id_t)0xdeadbabe, 42, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_TYPENOTVALID);
	rmem = mrapi_rmem_get((mrapi_rmem_id_t)0xdeadbabe, MRAPI_RMEM_DUMMY, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_ID_INVALID);
	mrapi_rmem_attach(rmem, MRAPI_RMEM_DUMMY, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_read(rmem, 0, buf, 0, sizeof(buf), 1, sizeof(buf), sizeof(buf), &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_write(rmem, 0, buf, 0, sizeof(buf), 1, sizeof(buf), sizeof(buf), &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_rmem_synch(rmem, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_RMEM_INVALID);
	mrapi_finalize(&st);
	ck_assert_uint_eq(st, MRAPI_SUCCESS);
}
END_TEST

/* ------------------------------------------------------ threads as nodes -- */

struct tnode {
	mrapi_node_t node;
	mrapi_rmem_hndl_t got;      /* the handle this thread's node got for id 77 */
	mrapi_rmem_hndl_t foreign;  /* a handle of the other thread's node, to try here */
	mca_status_t init, get, use_foreign, finalize, notinit;
	mrapi_node_t node_id;
	pthread_barrier_t *b;
};

static void *node_thread(void *arg)
{
	struct tnode *t = arg;
	mca_status_t st;
	uint32_t size;

	mrapi_initialize(1, t->node, 0, NULL, &t->init);
	t->node_id = mrapi_node_id_get(&st);
	t->got = mrapi_rmem_get(77, MRAPI_RMEM_DUMMY, &t->get);
	pthread_barrier_wait(t->b); /* both have their handles */
	pthread_barrier_wait(t->b); /* main has handed each the other's */
	mrapi_rmem_get_attribute(t->foreign, MRAPI_RMEM_SIZE, &size, sizeof(size), &t->use_foreign);
	mrapi_finalize(&t->finalize);
	mrapi_rmem_get(77, MRAPI_RMEM_DUMMY, &t->notinit); /* no node any more */
	return NULL;
}

START_TEST(test_ref_two_threads_are_two_nodes)
{
	pthread_barrier_t b;
	pthread_t th[2];
	struct tnode t[2] = { { .node = 1, .b = &b }, { .node = 2, .b = &b } };
	mca_status_t st;
	int owner = publish(50, 77);

	pthread_barrier_init(&b, NULL, 3);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, node_thread, &t[i]), 0);
	pthread_barrier_wait(&b);
	/* the main thread is no node: it sees none of theirs */
	mrapi_rmem_get(77, MRAPI_RMEM_DUMMY, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_NODE_NOTINIT);
	t[0].foreign = t[1].got;
	t[1].foreign = t[0].got;
	pthread_barrier_wait(&b);
	for (int i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		ck_assert_uint_eq(t[i].init, MRAPI_SUCCESS);
		ck_assert_uint_eq(t[i].node_id, t[i].node);
		ck_assert_uint_eq(t[i].get, MRAPI_SUCCESS);
		ck_assert_uint_eq(t[i].use_foreign, MRAPI_ERR_RMEM_INVALID); /* handles are per node */
		ck_assert_uint_eq(t[i].finalize, MRAPI_SUCCESS);
		ck_assert_uint_eq(t[i].notinit, MRAPI_ERR_NODE_NOTINIT);
	}
	ck_assert_uint_ne(t[0].got, t[1].got);
	pthread_barrier_destroy(&b);
	close(owner);
}
END_TEST

static void *init_as_node_1(void *arg)
{
	mca_status_t *st = arg;

	mrapi_initialize(1, 1, 0, NULL, st);
	return NULL;
}

/* One node id is one node, in a thread of this process as anywhere; a thread is one node at a time. */
START_TEST(test_ref_node_ids_stay_unique)
{
	mca_status_t st, other = MRAPI_SUCCESS;
	pthread_t th;

	mrapi_initialize(1, 1, 0, NULL, &st);
	ck_assert_uint_eq(st, MRAPI_SUCCESS);
	mrapi_initialize(1, 2, 0, NULL, &st);
	ck_assert_uint_eq(st, MRAPI_ERR_NODE_INITIALIZED);
	ck_assert_int_eq(pthread_create(&th, NULL, init_as_node_1, &other), 0);
	pthread_join(th, NULL);
	ck_assert_uint_eq(other, MRAPI_ERR_NODE_INITIALIZED);
	ck_assert_uint_eq(mrapi_domain_id_get(&st), 1);
	mrapi_finalize(&st);
	ck_assert_uint_eq(st, MRAPI_SUCCESS);
	ck_assert_uint_eq(mrapi_domain_id_get(&st), (mrapi_domain_t)MRAPI_DOMAIN_INVALID);
	ck_assert_uint_eq(st, MRAPI_ERR_NODE_NOTINIT);
}
END_TEST

/* mrapi_set_debug_level: a line on stderr for each call that fails, none at level 0. */
START_TEST(test_ref_debug_level)
{
	char path[] = "/tmp/mrapi-debug-XXXXXX", text[512] = { 0 };
	int fd = mkstemp(path), saved = dup(2);
	mca_status_t st;
	ssize_t n;

	ck_assert(fd >= 0 && saved >= 0);
	ck_assert_int_eq(dup2(fd, 2), 2);
	mrapi_rmem_get(5, MRAPI_RMEM_DUMMY, &st); /* level 0: quiet */
	mrapi_set_debug_level(1);
	mrapi_rmem_get(5, MRAPI_RMEM_DUMMY, &st);
	mrapi_initialize(1, 1, 0, NULL, &st);
	mrapi_rmem_get(5, MRAPI_RMEM_DUMMY, &st);
	mrapi_finalize(&st); /* success: quiet */
	mrapi_set_debug_level(0);
	fflush(stderr);
	dup2(saved, 2);
	n = pread(fd, text, sizeof(text) - 1, 0);
	unlink(path);
	ck_assert_int_gt(n, 0);
	ck_assert_str_eq(text, "mrapi: mrapi_rmem_get: MRAPI_ERR_NODE_NOTINIT\n"
			       "mrapi: mrapi_rmem_get: MRAPI_ERR_RMEM_ID_INVALID\n");
}
END_TEST

Suite *suite_test_lib_mrapi_ref(void)
{
	Suite *s = suite_create("lib_mrapi_ref");
	TCase *tc = tcase_create("host");

	tcase_set_timeout(tc, 20);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_ref_status_numbers_and_constants);
	tcase_add_test(tc, test_ref_ids_over_the_whole_range);
	tcase_add_test(tc, test_ref_rmem4_errors);
	tcase_add_test(tc, test_ref_two_threads_are_two_nodes);
	tcase_add_test(tc, test_ref_node_ids_stay_unique);
	tcase_add_test(tc, test_ref_debug_level);
	suite_add_tcase(s, tc);
	return s;
}

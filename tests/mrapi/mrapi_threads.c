/*
 * mrapi-threads — two threads of one process as two MRAPI nodes of one
 * domain, on the real stack (run by tests/mrapi/run on a node's rxe
 * address), with the MCA reference implementation's signatures: node 1
 * creates a buffer id 0xdeadbabe over memory of its own, node 2 gets it;
 * both attach (node 1 to its own buffer), each writes a message into its
 * half and raises a flag, spins reading the other's flag, then reads the
 * other's message (node 2 by RDMA READ, node 1 through its own pointer),
 * plainly, strided and with read_i + wait. Node 2 then checks two answers
 * the reference's tests/rmem1.c relies on (a stride below bytes_per_access
 * with one stride is MRAPI_ERR_RMEM_STRIDE; mrapi_wait_any over one request
 * and entries that are none reports the request) and says it is done; node 1
 * detaches and deletes the buffer while node 2 is still attached (rmem3's
 * order: SUCCESS, as the reference answers); node 2 then finds the buffer
 * gone (a read: MRAPI_ERR_RMEM_INVALID) and detaches (SUCCESS); both
 * finalize. Prints TAP, one line per node, and exits 0 when both passed.
 *
 * Environment: MRAPI_RDMA_ADDR (the node's rxe address) and MRAPI_RDMA_DIR.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/mrapi.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define KEY ((mrapi_rmem_id_t)0xdeadbabe)
#define HALF 512u
#define SPIN_S 30 /* a flag that does not come in this long fails the node */

static char shared_mem[2 * HALF]; /* node 1's buffer */
static atomic_int deleted;         /* node 1 deleted it */

struct node {
	mrapi_node_t id;
	int me, other;
	char why[160];
};

static int failed(struct node *n, const char *what, mca_status_t st)
{
	char b[MRAPI_MAX_STATUS_SIZE];

	snprintf(n->why, sizeof(n->why), "%s: %s", what, mrapi_display_status(st, b, sizeof(b)));
	return 1;
}

/* Spin on the other's flag (byte 0 of its half) until it reads 'V'. */
static int wait_flag(struct node *n, mrapi_rmem_hndl_t h)
{
	time_t end = time(NULL) + SPIN_S;
	mca_status_t st;
	char f = 0;

	while (f != 'V') {
		mrapi_rmem_read(h, (unsigned)n->other * HALF, &f, 0, 1, 1, 1, 1, &st);
		if (st != MRAPI_SUCCESS)
			return failed(n, "read flag", st);
		if (time(NULL) > end)
			return failed(n, "the other node's flag never came", MRAPI_TIMEOUT);
	}
	return 0;
}

/* Read the other's message three ways and compare. */
static int read_other(struct node *n, mrapi_rmem_hndl_t h, const char *want)
{
	char plain[64] = { 0 }, every2[32] = { 0 }, viai[64] = { 0 };
	unsigned len = (unsigned)strlen(want), base = (unsigned)n->other * HALF + 8;
	mrapi_request_t rq;
	mca_status_t st, st2;
	size_t size = 0;

	mrapi_rmem_read(h, base, plain, 0, len, 1, len, len, &st);
	if (st != MRAPI_SUCCESS || strcmp(plain, want))
		return failed(n, "read message", st);
	mrapi_rmem_read(h, base, every2, 0, 1, (len + 1) / 2, 2, 1, &st); /* every second byte */
	for (unsigned i = 0; st == MRAPI_SUCCESS && i < (len + 1) / 2; i++)
		if (every2[i] != want[2 * i])
			return failed(n, "strided read gave other bytes", st);
	if (st != MRAPI_SUCCESS)
		return failed(n, "strided read", st);
	mrapi_rmem_read_i(h, base, viai, 0, len, 1, len, len, &rq, &st);
	if (st != MRAPI_SUCCESS)
		return failed(n, "read_i", st);
	mrapi_wait(&rq, &size, 5000, &st2);
	if (st2 != MRAPI_SUCCESS || size != len || strcmp(viai, want))
		return failed(n, "wait for read_i", st2);
	return 0;
}

/* rmem1's corners, on node 2's attachment: one stride below bytes_per_access, wait_any over garbage. */
static int reference_answers(struct node *n, mrapi_rmem_hndl_t h)
{
	char buf[16];
	mrapi_request_t rqs[4] = { 0, 0xdeadbeefu, 0, 0 };
	mca_status_t st;
	size_t size = 0;
	mrapi_uint_t i;

	mrapi_rmem_read(h, 0, buf, 0, 8, 1, 7, 8, &st);
	if (st != MRAPI_ERR_RMEM_STRIDE)
		return failed(n, "one stride below bytes_per_access (want MRAPI_ERR_RMEM_STRIDE)", st);
	mrapi_rmem_read_i(h, 0, buf, 0, 8, 1, 8, 8, &rqs[2], &st);
	if (st != MRAPI_SUCCESS)
		return failed(n, "read_i", st);
	i = mrapi_wait_any(4, rqs, &size, 5000, &st);
	if (st != MRAPI_SUCCESS || i != 2 || size != 8)
		return failed(n, "wait_any over one request and three that are none (want index 2)", st);
	return 0;
}

static int node_run(struct node *n)
{
	char msg[48], want[48], v = 'V';
	mrapi_rmem_hndl_t h;
	mca_status_t st;

	mrapi_initialize(1, n->id, 0, NULL, &st);
	if (st != MRAPI_SUCCESS)
		return failed(n, "initialize", st);
	if (n->me == 0)
		h = mrapi_rmem_create(KEY, shared_mem, MRAPI_RMEM_DUMMY, NULL, sizeof(shared_mem), &st);
	else
		for (time_t end = time(NULL) + SPIN_S; (h = mrapi_rmem_get(KEY, MRAPI_RMEM_DUMMY, &st)) == 0 &&
						  st == MRAPI_ERR_RMEM_ID_INVALID && time(NULL) <= end;)
			;
	if (st != MRAPI_SUCCESS)
		return failed(n, n->me ? "get" : "create", st);
	mrapi_rmem_attach(h, MRAPI_RMEM_DUMMY, &st);
	if (st != MRAPI_SUCCESS)
		return failed(n, "attach", st);
	snprintf(msg, sizeof(msg), "hello from node %u", n->id);
	snprintf(want, sizeof(want), "hello from node %u", n->id == 1 ? 2u : 1u);
	mrapi_rmem_write(h, (unsigned)n->me * HALF + 8, msg, 0, (unsigned)strlen(msg), 1, 64, 64, &st);
	if (st == MRAPI_SUCCESS)
		mrapi_rmem_write(h, (unsigned)n->me * HALF, &v, 0, 1, 1, 1, 1, &st);
	if (st != MRAPI_SUCCESS)
		return failed(n, "write", st);
	if (wait_flag(n, h) || read_other(n, h, want))
		return 1;
	if (n->me == 1 && reference_answers(n, h))
		return 1;
	/* node 2 says it is done (byte 1 of its half); node 1 deletes once it is, node 2 still attached */
	mrapi_rmem_write(h, (unsigned)n->me * HALF + 1, &v, 0, 1, 1, 1, 1, &st);
	if (n->me == 0) {
		time_t end = time(NULL) + SPIN_S;
		char d = 0;

		while (d != 'V' && st == MRAPI_SUCCESS && time(NULL) <= end)
			mrapi_rmem_read(h, HALF + 1, &d, 0, 1, 1, 1, 1, &st);
		if (d == 'V')
			mrapi_rmem_detach(h, &st);
		if (st == MRAPI_SUCCESS)
			mrapi_rmem_delete(h, &st);
		atomic_store(&deleted, st == MRAPI_SUCCESS ? 1 : -1);
		if (st != MRAPI_SUCCESS)
			return failed(n, "detach and delete while node 2 is attached", st);
	} else {
		char d;

		for (time_t end = time(NULL) + SPIN_S; !atomic_load(&deleted) && time(NULL) <= end;)
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		if (atomic_load(&deleted) != 1)
			return failed(n, "node 1 did not delete the buffer", MRAPI_TIMEOUT);
		mrapi_rmem_read(h, 0, &d, 0, 1, 1, 1, 1, &st);
		if (st != MRAPI_ERR_RMEM_INVALID)
			return failed(n, "read after the delete (want MRAPI_ERR_RMEM_INVALID)", st);
		mrapi_rmem_detach(h, &st);
		if (st != MRAPI_SUCCESS)
			return failed(n, "detach from the deleted buffer", st);
	}
	mrapi_finalize(&st);
	return st != MRAPI_SUCCESS ? failed(n, "finalize", st) : 0;
}

static void *node_thread(void *arg)
{
	struct node *n = arg;

	return node_run(n) ? n : NULL;
}

int main(void)
{
	struct node nodes[2] = { { .id = 1, .me = 0, .other = 1 }, { .id = 2, .me = 1, .other = 0 } };
	pthread_t th[2];
	int bad = 0;

	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, node_thread, &nodes[i]))
			return 3;
	printf("1..2\n");
	for (int i = 0; i < 2; i++) {
		void *r;

		pthread_join(th[i], &r);
		if (r)
			printf("not ok %d - thread node %u: %s\n", i + 1, nodes[i].id, nodes[i].why);
		else
			printf("ok %d - thread node %u: attach, write, read (plain, strided, read_i), %s\n", i + 1,
			       nodes[i].id, i ? "STRIDE with one stride, wait_any past garbage, detach after the delete"
					      : "detach, delete while node 2 is attached");
		bad += r != NULL;
	}
	return bad ? 1 : 0;
}

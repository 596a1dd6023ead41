/*
 * rpmem_test.c — librpmem-rpma and rpmemd-rpma on a real RDMA stack (run by
 * tests/rpmem/run on a 2-node rxe topology; the client on node a, the
 * target on node b, started through RPMEM_SSH="" RPMEM_CMD=...).
 *
 *   rpmem-test TARGET ROOT            TAP: the checks below
 *   rpmem-test --bench TARGET ROOT    per-call figures, librpmem next to raw librpma
 *   rpmem-test --loop TARGET ROOT     (internal) the client the test kills
 *
 * ROOT is the target's root config directory (the same file system here),
 * so the part files can be read directly.
 */
#define _DEFAULT_SOURCE
#include "lib/rpmem/client.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB (1ul << 20)
#define POOL (4 * MIB - 8192) /* pool.set: two 2 MiB parts with headers (usable: 4 MiB - 4096) */
#define REC 64

static const char *target, *root;
static unsigned tests, failures;

static void check(int ok, const char *what, const char *why)
{
	tests++;
	if (!ok)
		failures++;
	printf("%sok %u - %s", ok ? "" : "not ", tests, what);
	if (!ok && why)
		printf(" # %s (errno %s, %s)", why, strerror(errno), rpmem_errormsg());
	printf("\n");
	fflush(stdout);
}

static void write_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "rpmem-test: cannot write %s\n", path);
		exit(3);
	}
}

static uint8_t *pool_mem(size_t size)
{
	void *p;

	if (posix_memalign(&p, 4096, size)) {
		fprintf(stderr, "rpmem-test: out of memory\n");
		exit(3);
	}
	memset(p, 0, size);
	return p;
}

/* Read n bytes of set `name`'s pool at pool offset off straight from its part files. */
static int read_parts(const char *name, uint64_t off, uint8_t *out, size_t n)
{
	return rpmem_poolset_pread(root, name, off, out, n);
}

/* Record i: 64 bytes derived from i. */
static void record(uint64_t i, uint8_t *r)
{
	for (unsigned k = 0; k < REC; k++)
		r[k] = (uint8_t)(i * 31 + k * 7 + (i >> 8));
	memcpy(r, &i, sizeof(i));
}

static struct rpmem_pool_attr attr_of(char c)
{
	struct rpmem_pool_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(a.signature, "RPMEMTST", 8);
	a.major = 1;
	a.user_flags[0] = (unsigned char)c;
	return a;
}

static void test_basics(void)
{
	uint8_t *pool = pool_mem(POOL), buf[256], *other = pool_mem(POOL);
	struct rpmem_pool_attr at = attr_of('1'), got;
	unsigned n = 4, n2 = 1;
	RPMEMpool *rpp, *r2;

	rpp = rpmem_create(target, "pool.set", pool, POOL, &n, &at);
	check(rpp != NULL && n >= 1 && n <= 4, "rpmem_create pool.set (2 parts), up to 4 lanes", "create");
	if (!rpp)
		return;
	memset(pool + 4096, 0xa1, 100);
	memset(pool + 2 * MIB + 10, 0xb2, 3000); /* in part 1 */
	int rc = rpmem_persist(rpp, 4096, 100, 0, 0) | rpmem_persist(rpp, 2 * MIB + 10, 3000, n - 1, 0);
	memset(pool + 8192, 0xc3, 512);
	rc |= rpmem_flush(rpp, 8192, 512, 0, RPMEM_FLUSH_RELAXED) | rpmem_drain(rpp, 0, 0);
	memset(pool + 12288, 0xd4, 64);
	rc |= rpmem_deep_persist(rpp, 12288, 64, 0);
	check(rc == 0, "persist (two lanes, two parts), flush+drain, deep_persist return 0", "persist");
	errno = 0;
	check(rpmem_persist(rpp, 100, 8, 0, 0) == -1 && errno == EINVAL, "persist inside the header: EINVAL", NULL);
	check(rpmem_persist(rpp, 4096, 8, n, 0) == -1 && errno == EINVAL, "persist on lane nlanes: EINVAL", NULL);
	r2 = rpmem_open(target, "pool.set", other, POOL, &n2, NULL);
	check(r2 == NULL && errno == EBUSY, "a second client opening the open pool: EBUSY", "second open");
	check(rpmem_create(target, "pool.set", other, POOL, &n2, &at) == NULL && errno == EEXIST,
	      "create of an existing pool: EEXIST", NULL);
	check(rpmem_open(target, "none.set", other, POOL, &n2, NULL) == NULL && errno == ENOENT,
	      "open of a missing pool set: ENOENT", NULL);
	check(rpmem_close(rpp) == 0, "rpmem_close", "close");
	check(read_parts("pool.set", 4096, buf, 100) == 0 && buf[0] == 0xa1 && buf[99] == 0xa1,
	      "persisted bytes are in part 0", NULL);
	uint8_t big[3000];
	check(read_parts("pool.set", 2 * MIB + 10, big, 3000) == 0 && big[0] == 0xb2 && big[2999] == 0xb2,
	      "persisted bytes are in part 1 after its header", NULL);
	check(rpmem_open(target, "pool.set", other, POOL + 8192, &n2, NULL) == NULL && errno == EFBIG,
	      "open with a pool_size above the usable size: EFBIG", NULL);
	n2 = 2;
	r2 = rpmem_open(target, "pool.set", other, POOL, &n2, &got);
	check(r2 && memcmp(&got, &at, sizeof(at)) == 0, "open again: the attributes of create", "reopen");
	if (!r2)
		return;
	memset(buf, 0, sizeof(buf));
	check(rpmem_read(r2, buf, 8192, 256, 0) == 0 && buf[0] == 0xc3 && buf[255] == 0xc3,
	      "rpmem_read gives the flushed+drained bytes", "read");
	struct rpmem_pool_attr at2 = attr_of('2');
	check(rpmem_set_attr(r2, &at2) == 0 && rpmem_close(r2) == 0, "set_attr and close", "set_attr");
	r2 = rpmem_open(target, "pool.set", other, POOL, &n2, &got);
	check(r2 && memcmp(&got, &at2, sizeof(at2)) == 0, "reopen sees the new attributes", "reopen 2");
	if (r2)
		rpmem_close(r2);
	free(pool);
	free(other);
}

/* --loop: persist record after record on pool.set; report each index that returned 0 on fd. */
static void persist_loop(int fd)
{
	uint8_t *pool = pool_mem(POOL);
	unsigned n = 1;
	RPMEMpool *rpp = rpmem_open(target, "pool.set", pool, POOL, &n, NULL);
	uint64_t max = (POOL - 4096) / REC;

	if (!rpp)
		_exit(5);
	for (uint64_t i = 0;; i = (i + 1) % max) {
		record(i, pool + 4096 + i * REC);
		if (rpmem_persist(rpp, 4096 + i * REC, REC, 0, 0))
			_exit(6);
		if (write(fd, &i, sizeof(i)) != sizeof(i))
			_exit(7);
	}
}

static void test_sigkill(void)
{
	uint8_t *pool2 = pool_mem(8192 * 2), rec[REC], got[REC];
	struct rpmem_pool_attr at = attr_of('k');
	unsigned n = 1, bad = 0;
	uint64_t i, last = 0, count = 0;
	int pfd[2], st;
	pid_t pid;

	/* the other client, on the other pool, stays connected through the kill */
	RPMEMpool *other = rpmem_create(target, "two.set", pool2, 8192 * 2, &n, &at);
	check(other != NULL, "a second client creates two.set", "create two.set");
	/* The killed client is a process of its own (fork + exec: no RDMA state shared with us). */
	if (pipe(pfd) || (pid = fork()) < 0)
		exit(3);
	if (pid == 0) {
		close(pfd[0]);
		if (dup2(pfd[1], 1) < 0)
			_exit(3);
		execl("/proc/self/exe", "rpmem-test", "--loop", target, root, (char *)NULL);
		_exit(4);
	}
	close(pfd[1]);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (read(pfd[0], &i, sizeof(i)) != sizeof(i))
			break;
		last = i, count++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 1500);
	kill(pid, SIGKILL);
	while (read(pfd[0], &i, sizeof(i)) == sizeof(i))
		last = i, count++; /* reported before it died */
	close(pfd[0]);
	waitpid(pid, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && count > 10, "a client killed (SIGKILL) mid persist loop",
	      "the loop did not run");
	if (WIFEXITED(st))
		printf("# the persist loop exited with %d\n", WEXITSTATUS(st));
	printf("# %lu persists returned 0 before the kill (last record %lu)\n", (unsigned long)count,
	       (unsigned long)last);
	for (i = 0; i < count && i <= last; i++) {
		record(i, rec);
		if (read_parts("pool.set", 4096 + i * REC, got, REC) || memcmp(rec, got, REC))
			bad++;
	}
	check(bad == 0 && count > 0, "every persist that returned 0 is in the part files", "records missing");
	if (bad)
		printf("# %u of %lu records missing\n", bad, (unsigned long)(last + 1));
	memset(pool2 + 4096, 0x5c, 64);
	check(other && rpmem_persist(other, 4096, 64, 0, 0) == 0, "the other client persists after the kill",
	      "persist two.set");
	/* the killed client's daemon lets go of the pool when it sees its client gone */
	uint8_t *pool = pool_mem(POOL);
	RPMEMpool *again = NULL;
	int tries = 0;
	for (; tries < 50 && !again; tries++) {
		n = 1;
		again = rpmem_open(target, "pool.set", pool, POOL, &n, NULL);
		if (!again && errno != EBUSY)
			break;
		if (!again)
			usleep(100000);
	}
	check(again != NULL, "the pool is opened again after the kill", "reopen");
	printf("# reopened after %d EBUSY answer(s)\n", tries - 1);
	memset(got, 0, sizeof(got));
	record(last, rec);
	check(again && rpmem_read(again, got, 4096 + last * REC, REC, 0) == 0 && memcmp(got, rec, REC) == 0,
	      "the last persisted record reads back", "read");
	if (again)
		rpmem_close(again);
	check(other && rpmem_close(other) == 0, "the other client closes", NULL);
	uint8_t b[64];
	check(read_parts("two.set", 4096, b, 64) == 0 && b[0] == 0x5c && b[63] == 0x5c,
	      "the other client's bytes are in two.set's part file", NULL);
	check(rpmem_remove(target, "pool.set", 0) == 0 && rpmem_remove(target, "two.set", RPMEM_REMOVE_POOL_SET) == 0,
	      "rpmem_remove of both pools", "remove");
	check(rpmem_open(target, "pool.set", pool, POOL, &n, NULL) == NULL && errno == ENOENT,
	      "a removed pool: ENOENT", NULL);
	free(pool);
	free(pool2);
}

/* RPMEM-ERR-1 on the wire: the target's daemon dies under an open pool. */
static void test_target_dies(void)
{
	uint8_t *pool = pool_mem(POOL);
	struct rpmem_pool_attr at = attr_of('d');
	unsigned n = 1;
	RPMEMpool *rpp = rpmem_open(target, "pool.set", pool, POOL, &n, &at);
	int e1 = 0, e2 = 0, e3 = 0;

	check(rpp != NULL, "open pool.set again", "open");
	if (!rpp)
		return;
	/* RPMEM_SSH="": the command is the daemon itself, our child; gone (its QPs too) once reaped */
	kill(rpp->pid, SIGKILL);
	waitpid(rpp->pid, NULL, 0);
	memset(pool + 4096, 0x77, 64);
	errno = 0;
	int rc1 = rpmem_persist(rpp, 4096, 64, 0, 0);
	e1 = errno;
	int rc2 = rpmem_persist(rpp, 8192, 0, 0, 0) == -1 && rpmem_read(rpp, pool, 4096, 8, 0) == -1;
	e2 = errno;
	int rc3 = rpmem_set_attr(rpp, NULL);
	e3 = errno;
	printf("# after the daemon was killed: persist -1 errno %s, then %s, set_attr %s\n", strerror(e1),
	       strerror(e2), strerror(e3));
	check(rc1 == -1 && (e1 == ECONNABORTED || e1 == EIO), "a persist over lanes whose target died fails",
	      "persist");
	check(rc2 && e2 == e1 && rc3 == -1 && e3 == e1,
	      "the error is kept: persist (even of 0 bytes), read and set_attr return it again", "kept");
	errno = 0;
	check(rpmem_close(rpp) != 0 && errno == ECONNABORTED, "close frees the handle and reports ECONNABORTED",
	      "close");
	n = 1;
	rpp = rpmem_open(target, "pool.set", pool, POOL, &n, NULL);
	check(rpp != NULL, "a new daemon opens the pool again", "reopen");
	if (rpp)
		rpmem_close(rpp);
	free(pool);
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* The raw librpma sequence for the same bytes on the same connection: write, flush, wait. */
static int raw_persist(struct rpmem_lanes *ls, size_t off, size_t len)
{
	struct rpmem_lane *l = &ls->l[0];
	struct ibv_wc wc;
	int n = 0, rc;

	if (rpma_write(l->conn, ls->rmr, off, ls->mr, off, len, RPMA_F_COMPLETION_ON_ERROR, NULL) ||
	    rpma_flush(l->conn, ls->rmr, off, len, ls->flush_type, RPMA_F_COMPLETION_ALWAYS, NULL))
		return -1;
	while ((rc = rpma_cq_get_wc(l->cq, 1, &wc, &n)) == RPMA_E_NO_COMPLETION)
		;
	return rc || wc.status != IBV_WC_SUCCESS ? -1 : 0;
}

static void bench(void)
{
	const size_t size = 4 * MIB - 8192;
	uint8_t *pool = pool_mem(size);
	struct rpmem_pool_attr at = attr_of('b');
	double t, c_us = 0, o_us = 0, cl_us = 0;
	const int reps = 5;
	unsigned n = 1;
	RPMEMpool *rpp;

	for (int r = 0; r < reps; r++) {
		t = now_us();
		rpp = rpmem_create(target, "pool.set", pool, size, &n, &at);
		c_us += now_us() - t;
		if (!rpp || rpmem_close(rpp) || rpmem_remove(target, "pool.set", 0))
			exit(3);
	}
	rpp = rpmem_create(target, "pool.set", pool, size, &n, &at);
	if (!rpp || rpmem_close(rpp))
		exit(3);
	for (int r = 0; r < reps; r++) {
		t = now_us();
		rpp = rpmem_open(target, "pool.set", pool, size, &n, NULL);
		o_us += now_us() - t;
		if (!rpp)
			exit(3);
		t = now_us();
		if (rpmem_close(rpp))
			exit(3);
		cl_us += now_us() - t;
	}
	printf("rpmem_create %.0f us, rpmem_open %.0f us, rpmem_close %.0f us (1 lane, mean of %d)\n", c_us / reps,
	       o_us / reps, cl_us / reps, reps);
	rpp = rpmem_open(target, "pool.set", pool, size, &n, NULL);
	if (!rpp)
		exit(3);
	const size_t lens[] = { 64, MIB };
	for (size_t k = 0; k < 2; k++) {
		int iters = lens[k] == 64 ? 2000 : 100;
		double lib = 0, raw = 0;

		for (int pass = 0; pass < 2; pass++) /* interleaved passes: the second counts */
			for (int mode = 0; mode < 2; mode++) {
				t = now_us();
				for (int i = 0; i < iters; i++)
					if (mode ? raw_persist(&rpp->lanes, 4096, lens[k])
						 : rpmem_persist(rpp, 4096, lens[k], 0, 0))
						exit(3);
				if (pass)
					*(mode ? &raw : &lib) = (now_us() - t) / iters;
			}
		printf("persist %7zu B: rpmem_persist %8.1f us, raw rpma_write+rpma_flush %8.1f us (mean of %d)\n",
		       lens[k], lib, raw, iters);
	}
	rpmem_close(rpp);
	rpmem_remove(target, "pool.set", 0);
	free(pool);
}

int main(int argc, char **argv)
{
	int b = argc == 4 && strcmp(argv[1], "--bench") == 0;

	if (argc == 4 && strcmp(argv[1], "--loop") == 0) {
		target = argv[2];
		root = argv[3];
		persist_loop(1);
	}

	if (argc != 3 && !b) {
		fprintf(stderr, "usage: rpmem-test [--bench] TARGET ROOT\n");
		return 3;
	}
	target = argv[1 + b];
	root = argv[2 + b];
	write_file("pool.set", "PMEMPOOLSET\n2M pool.part0\n2M pool.part1\n");
	if (b) {
		bench();
		return 0;
	}
	write_file("two.set", "PMEMPOOLSET\nOPTION SINGLEHDR\n2M two.part0\n");
	test_basics();
	test_target_dies();
	test_sigkill();
	printf("1..%u\n%u passed, %u failed\n", tests, tests - failures, failures);
	return failures ? 1 : 0;
}

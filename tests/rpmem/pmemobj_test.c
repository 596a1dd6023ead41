/*
 * pmemobj_test.c — a small libpmemobj program (Debian's libpmemobj 1.12.1)
 * whose pool set has a remote replica: libpmemobj replicates every persist
 * to it through dlopen("librpmem.so.1"), this project's library. Run by
 * tests/rpmem/pmemobj-run.
 *
 *   pmemobj-test write POOLSET N    create the pool, commit N transactions, close
 *   pmemobj-test verify POOLSET N   open the pool (its replicas), check the N records, close
 *
 * Record i (0 <= i < N) is 8 bytes, value i * 0x9e3779b97f4a7c15 + 1, in the
 * root object; each transaction adds one and bumps the count. Exit 0, or 1
 * with the reason on stderr.
 */
#include <libpmemobj.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAYOUT "rdmacheck-pmemobj-test"
#define RECS_MAX 4096

struct root {
	uint64_t count;
	uint64_t rec[RECS_MAX];
};

static uint64_t value(uint64_t i)
{
	return i * 0x9e3779b97f4a7c15ull + 1;
}

static int write_recs(const char *set, unsigned n)
{
	PMEMobjpool *pop = pmemobj_create(set, LAYOUT, 0, 0600);

	if (!pop) {
		fprintf(stderr, "pmemobj_create %s: %s\n", set, pmemobj_errormsg());
		return 1;
	}
	PMEMoid root = pmemobj_root(pop, sizeof(struct root));
	struct root *r = pmemobj_direct(root);
	int failed = 0;

	for (unsigned i = 0; i < n && !failed; i++) {
		TX_BEGIN(pop) {
			pmemobj_tx_add_range(root, offsetof(struct root, rec) + i * sizeof(uint64_t), sizeof(uint64_t));
			pmemobj_tx_add_range(root, offsetof(struct root, count), sizeof(uint64_t));
			r->rec[i] = value(i);
			r->count = i + 1;
		} TX_ONABORT {
			fprintf(stderr, "transaction %u aborted: %s\n", i, pmemobj_errormsg());
			failed = 1;
		} TX_END
	}
	pmemobj_close(pop);
	return failed;
}

static int verify_recs(const char *set, unsigned n)
{
	PMEMobjpool *pop = pmemobj_open(set, LAYOUT);

	if (!pop) {
		fprintf(stderr, "pmemobj_open %s: %s\n", set, pmemobj_errormsg());
		return 1;
	}
	struct root *r = pmemobj_direct(pmemobj_root(pop, sizeof(struct root)));
	int bad = r->count != n;

	if (bad)
		fprintf(stderr, "count %llu, want %u\n", (unsigned long long)r->count, n);
	for (unsigned i = 0; i < n && !bad; i++)
		if (r->rec[i] != value(i)) {
			fprintf(stderr, "record %u is %llx, want %llx\n", i, (unsigned long long)r->rec[i],
				(unsigned long long)value(i));
			bad = 1;
		}
	pmemobj_close(pop);
	return bad;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	unsigned long n = argc == 4 ? strtoul(argv[3], &end, 10) : 0;

	if (argc != 4 || !end || *end || n == 0 || n > RECS_MAX ||
	    (strcmp(argv[1], "write") && strcmp(argv[1], "verify"))) {
		fprintf(stderr, "usage: pmemobj-test write|verify POOLSET N (1..%d)\n", RECS_MAX);
		return 2;
	}
	return strcmp(argv[1], "write") == 0 ? write_recs(argv[2], (unsigned)n) : verify_recs(argv[2], (unsigned)n);
}

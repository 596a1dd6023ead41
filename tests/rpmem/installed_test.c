/*
 * installed_test.c — what PMDK 1.12.1's librpmem examples do (librpmem(7)'s
 * EXAMPLE: a 32 MiB pool on a pool set of one 32 MiB part), as a program
 * built the way their users build them: against the installed librpmem
 * (`#include <librpmem.h>`, `pkg-config --cflags --libs librpmem`, so
 * NEEDED librpmem.so.1), its daemon started as PMDK's client starts it:
 * "rpmemd", found on PATH, its pool set directory from $HOME/.rpmemd.conf.
 * Run by tests/rpmem/run on a 2-node rxe topology.
 *
 *   rpmem-installed-test TARGET ROOT SET     TAP; ROOT is the daemon's pool set directory, SET a 32M part
 */
#define _DEFAULT_SOURCE
#include <librpmem.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POOL_SIZE (32ul << 20)
#define DATA_OFF 4096ul /* the pool header */
#define NLANES 4

static unsigned tests, failures;

static void check(int ok, const char *what)
{
	tests++;
	failures += !ok;
	printf("%sok %u - %s", ok ? "" : "not ", tests, what);
	if (!ok)
		printf(" # errno %s, %s", strerror(errno), rpmem_errormsg());
	printf("\n");
	fflush(stdout);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131 + seed) >> 3);
}

/* The part file's bytes [off, off + n) equal want (the one part: pool offset = file offset). */
static int part_has(const char *root, const char *set, const unsigned char *want, size_t off, size_t n)
{
	char path[4096];
	unsigned char *buf = malloc(n);
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%.*s.part", root, (int)(strlen(set) - 4), set);
	fd = open(path, O_RDONLY);
	ok = buf && fd >= 0 && pread(fd, buf, n, (off_t)off) == (ssize_t)n && memcmp(buf, want, n) == 0;
	if (fd >= 0)
		close(fd);
	free(buf);
	return ok;
}

int main(int argc, char **argv)
{
	struct rpmem_pool_attr attr, got;
	unsigned char *pool, *back;
	unsigned nlanes = NLANES;
	RPMEMpool *rpp;
	double t0, t;

	if (argc != 4) {
		fprintf(stderr, "usage: rpmem-installed-test TARGET ROOT SET\n");
		return 3;
	}
	if (posix_memalign((void **)&pool, 4096, POOL_SIZE) || posix_memalign((void **)&back, 4096, POOL_SIZE))
		return 3;
	memset(&attr, 0, sizeof(attr));
	memcpy(attr.signature, "MANPAGE", 7);
	check(rpmem_check_version(RPMEM_MAJOR_VERSION, RPMEM_MINOR_VERSION) == NULL, "rpmem_check_version(1, 3)");
	t0 = now();
	rpp = rpmem_create(argv[1], argv[3], pool, POOL_SIZE, &nlanes, &attr);
	check(rpp != NULL && nlanes >= 1 && nlanes <= NLANES, "rpmem_create: a 32 MiB pool on one 32 MiB part");
	if (!rpp)
		return 1;
	fill(pool + DATA_OFF, POOL_SIZE - DATA_OFF, 1);
	t = now();
	check(rpmem_persist(rpp, DATA_OFF, POOL_SIZE - DATA_OFF, 0, 0) == 0, "rpmem_persist of 32 MiB - 4096");
	printf("# persist 32 MiB - 4096: %.2f s\n", now() - t);
	check(rpmem_persist(rpp, POOL_SIZE - 4096, 4096, nlanes - 1, 0) == 0, "the last page, on the last lane");
	check(rpmem_close(rpp) == 0, "rpmem_close");
	check(part_has(argv[2], argv[3], pool + DATA_OFF, DATA_OFF, POOL_SIZE - DATA_OFF),
	      "the part file holds the 32 MiB - 4096 bytes at their offsets");
	nlanes = NLANES;
	memset(&got, 0, sizeof(got));
	rpp = rpmem_open(argv[1], argv[3], back, POOL_SIZE, &nlanes, &got);
	check(rpp != NULL && memcmp(&got, &attr, sizeof(attr)) == 0, "rpmem_open at 32 MiB: the attributes are back");
	if (!rpp)
		return 1;
	t = now();
	check(rpmem_read(rpp, back + DATA_OFF, DATA_OFF, POOL_SIZE - DATA_OFF, 0) == 0 &&
		      memcmp(back + DATA_OFF, pool + DATA_OFF, POOL_SIZE - DATA_OFF) == 0,
	      "rpmem_read: the 32 MiB - 4096 bytes read back equal");
	printf("# read 32 MiB - 4096: %.2f s\n", now() - t);
	check(rpmem_close(rpp) == 0, "rpmem_close");
	nlanes = NLANES;
	check(rpmem_open(argv[1], argv[3], back, POOL_SIZE + 4096, &nlanes, &got) == NULL && errno == EFBIG,
	      "rpmem_open at 32 MiB + 4096: EFBIG");
	check(rpmem_remove(argv[1], argv[3], RPMEM_REMOVE_POOL_SET) == 0, "rpmem_remove with RPMEM_REMOVE_POOL_SET");
	printf("# 32 MiB pool: create to remove %.2f s\n", now() - t0);
	printf("1..%u\n", tests);
	free(pool);
	free(back);
	return failures ? 1 : 0;
}

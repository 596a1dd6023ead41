/*
 * example.c — the smallest librpmem program: create a pool on a target,
 * persist a message, close; open it again, check the attributes, read the
 * message back; remove the pool.
 *
 *   rpmem-example TARGET POOL_SET     e.g. RPMEM_SSH= RPMEM_CMD='rpmemd --poolset-dir /srv/pools' \
 *                                          rpmem-example 192.0.2.2 example.set
 * Build: cc example.c -lrpmem (or librpmem-rpma.a -lrpma -libverbs -lrdmacm -lpthread)
 */
#define _POSIX_C_SOURCE 200809L
#include "lib/rpmem/librpmem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define POOL_SIZE (64 * 1024)
#define MSG_OFF 4096 /* the first 4096 bytes are the pool header */

static int die(const char *what)
{
	fprintf(stderr, "rpmem-example: %s: %s (%s)\n", what, strerror(errno), rpmem_errormsg());
	return 1;
}

int main(int argc, char **argv)
{
	struct rpmem_pool_attr attr = { .signature = "EXAMPLE", .major = 1 }, got;
	const char *msg = "hello, remote persistent memory";
	unsigned nlanes = 1;
	static char pool[POOL_SIZE] __attribute__((aligned(4096)));
	char back[64] = "";
	RPMEMpool *rpp;

	if (argc != 3) {
		fprintf(stderr, "usage: rpmem-example TARGET POOL_SET\n");
		return 2;
	}
	rpp = rpmem_create(argv[1], argv[2], pool, POOL_SIZE, &nlanes, &attr);
	if (!rpp)
		return die("rpmem_create");
	strcpy(pool + MSG_OFF, msg);
	if (rpmem_persist(rpp, MSG_OFF, strlen(msg) + 1, 0, 0))
		return die("rpmem_persist");
	if (rpmem_close(rpp))
		return die("rpmem_close");
	rpp = rpmem_open(argv[1], argv[2], pool, POOL_SIZE, &nlanes, &got);
	if (!rpp)
		return die("rpmem_open");
	if (rpmem_read(rpp, back, MSG_OFF, strlen(msg) + 1, 0))
		return die("rpmem_read");
	printf("signature %.8s, %u lane(s), read back: %s\n", got.signature, nlanes, back);
	if (rpmem_close(rpp) || rpmem_remove(argv[1], argv[2], 0))
		return die("rpmem_close/rpmem_remove");
	return strcmp(back, msg) != 0 || memcmp(got.signature, "EXAMPLE", 8) != 0;
}

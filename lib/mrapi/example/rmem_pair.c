/*
 * rmem_pair.c — two processes sharing remote memory with libmrapi-rdma.
 *
 *   mrapi-example creator   node 1: offers a 4 KiB buffer as rmem id 42, waits
 *                           until the reader is done, deletes it, leaves
 *   mrapi-example reader    node 2: finds id 42, attaches, reads every 64th
 *                           byte-pair (a strided read) and the greeting, writes
 *                           a reply into the buffer, detaches, leaves
 *
 * Both take MRAPI_RDMA_DIR (the directory, ip:port) and MRAPI_RDMA_ADDR (the
 * node's address on its RDMA device) from the environment
 * (lib/mrapi/README.md). Exit 0 on success.
 */
#define _POSIX_C_SOURCE 200809L
#include "lib/mrapi/mrapi.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define ID 42
#define SIZE 4096
#define DOMAIN 1

static int ok(const char *what, mrapi_status_t st)
{
	char name[48];

	if (st == MRAPI_SUCCESS)
		return 1;
	fprintf(stderr, "%s: %s\n", what, mrapi_display_status(st, name, sizeof(name)));
	return 0;
}

static void nap(void)
{
	nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
}

static int creator(void)
{
	static char buf[SIZE];
	mrapi_status_t st;
	mrapi_rmem_hndl_t h;

	for (int i = 0; i < SIZE; i++)
		buf[i] = (char)('a' + i % 26);
	snprintf(buf, 64, "hello from the creator");
	mrapi_initialize(DOMAIN, 1, 0, NULL, &st);
	if (!ok("mrapi_initialize", st))
		return 1;
	h = mrapi_rmem_create(ID, buf, MRAPI_RMEM_ATYPE_DEFAULT, NULL, SIZE, &st);
	if (!ok("mrapi_rmem_create", st))
		return 1;
	printf("creator: id %d offered\n", ID);
	fflush(stdout);
	/* the reader's reply lands in our own memory; delete is refused while it is attached */
	for (int tries = 0; tries < 600; tries++) {
		if (strncmp(buf + 1024, "thanks", 6) == 0) {
			mrapi_rmem_delete(h, &st);
			if (st == MRAPI_SUCCESS)
				break;
			if (st != MRAPI_ERR_RMEM_ATTACH)
				return !ok("mrapi_rmem_delete", st);
		}
		nap();
	}
	if (!ok("mrapi_rmem_delete", st))
		return 1;
	printf("creator: reader wrote \"%s\"; deleted\n", buf + 1024);
	mrapi_finalize(&st);
	return !ok("mrapi_finalize", st);
}

static int reader(void)
{
	char greet[32] = { 0 }, pairs[2 * 8];
	mrapi_status_t st;
	mrapi_rmem_hndl_t h = 0;

	mrapi_initialize(DOMAIN, 2, 0, NULL, &st);
	if (!ok("mrapi_initialize", st))
		return 1;
	for (int tries = 0; tries < 200; tries++) {
		h = mrapi_rmem_get(ID, MRAPI_RMEM_ATYPE_DEFAULT, &st);
		if (st != MRAPI_ERR_RMEM_ID_INVALID)
			break;
		nap(); /* the creator has not offered it yet */
	}
	if (!ok("mrapi_rmem_get", st))
		return 1;
	mrapi_rmem_attach(h, MRAPI_RMEM_DEFAULT, &st);
	if (!ok("mrapi_rmem_attach", st))
		return 1;
	mrapi_rmem_read(h, 0, greet, 0, 22, 1, 22, 22, &st);
	if (!ok("mrapi_rmem_read", st))
		return 1;
	/* 8 strides of 2 bytes, every 64 bytes of the buffer from offset 64 */
	mrapi_rmem_read(h, 64, pairs, 0, 2, 8, 64, 2, &st);
	if (!ok("mrapi_rmem_read (strided)", st))
		return 1;
	printf("reader: \"%s\", pairs %.16s\n", greet, pairs);
	mrapi_rmem_write(h, 1024, "thanks", 0, 7, 1, 7, 7, &st);
	if (!ok("mrapi_rmem_write", st))
		return 1;
	mrapi_rmem_detach(h, &st);
	if (!ok("mrapi_rmem_detach", st))
		return 1;
	mrapi_finalize(&st);
	return !ok("mrapi_finalize", st);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "creator") == 0)
		return creator();
	if (argc == 2 && strcmp(argv[1], "reader") == 0)
		return reader();
	fprintf(stderr, "usage: mrapi-example creator|reader\n");
	return 2;
}

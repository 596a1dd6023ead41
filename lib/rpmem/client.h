/* client.h — the client handle (client.c, persist.c); internal. */
#ifndef RDMACHECK_RPMEM_CLIENT_H
#define RDMACHECK_RPMEM_CLIENT_H

#include "lib/rpmem/lanes.h"

#include <pthread.h>
#include <sys/types.h>

struct rpmem_pool {
	pid_t pid;                  /* the command that runs the target daemon */
	int fd;                     /* its stdin/stdout: the control channel */
	pthread_mutex_t ctl;        /* one request at a time on it */
	struct rpmem_lanes lanes;
	uint8_t *addr;
	size_t size;
	unsigned nlanes;
	int hdr;                    /* the pool has a header: offsets below 4096 are refused */
	int error;                  /* the kept errno (RPMEM-ERR-1), 0 */
};

/* Set the calling thread's rpmem_errormsg(). */
void rpmem_msg_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One request/response on the control channel; 0 or -errno (transport), *st the response's status. */
int rpmem_ctl(struct rpmem_pool *p, struct rpmem_msg *req, struct rpmem_msg *resp);

#endif

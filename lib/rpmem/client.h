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

/*
 * The calling thread's way to the target's daemon instead of a command
 * (internal: rdmacheck's agent, for a target whose own side starts the daemon,
 * agent_rpmem.c): while set, rpmem_create, rpmem_open and rpmem_remove of this
 * thread take their control channel from dial(arg) — a connected stream's fd,
 * or -errno — instead of starting RPMEM_SSH/RPMEM_CMD (what `rpmem-connect
 * HOST PORT` relays, without that process: the pool's pid is 0); a dial that
 * fails is ECONNREFUSED, as a command that cannot start. NULL: the command
 * again. dial and arg must outlive the calls made while it is set.
 */
void rpmem_set_channel(int (*dial)(void *arg), void *arg);
/* Set the calling thread's rpmem_errormsg(). */
void rpmem_msg_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One request/response on the control channel; 0 or -errno (transport), *st the response's status. */
int rpmem_ctl(struct rpmem_pool *p, struct rpmem_msg *req, struct rpmem_msg *resp);

#endif

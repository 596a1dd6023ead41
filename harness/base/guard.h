/*
 * guard.h — the parent-death watch of a run: a process of its own (not this
 * one's child, in a process group of its own) that holds one end of a socket
 * pair whose other end only this process holds. When this process ends
 * without guard_end — SIGKILL, a crash — the socket reads EOF and the guard
 * waits the grace for every process group it was given to end (their leaders
 * are this process's children, which have SIGTERM at its death:
 * proc_die_with; a second SIGTERM would hurry an inner runner past taking its
 * topology down), sends SIGKILL to what is left, and then calls the cleanup it
 * was given (the run's files), so that no process or file of the run stays.
 * One guard per process.
 */
#ifndef RDMACHECK_GUARD_H
#define RDMACHECK_GUARD_H

#include <sys/types.h>

/* The grace a group gets, after the run's death, before the guard's SIGKILL. */
#define GUARD_GRACE_S 5

/*
 * Start the guard: on this process's death it stops the groups given to
 * guard_group, then calls cleanup(arg) (in the guard: a fork of this
 * process, so arg may point to memory as it is now). Returns 0, -EALREADY
 * when one runs, or -errno (no guard: the run goes on without).
 */
int guard_start(void (*cleanup)(void *), void *arg);

/* Have the guard stop process group pgid on this process's death (on: 1), or no more (on: 0). No guard: nothing. */
void guard_group(pid_t pgid, int on);

/* The run ended as it should: the guard exits without stopping or removing anything. */
void guard_end(void);

#endif

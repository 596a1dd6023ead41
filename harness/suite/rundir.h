/*
 * rundir.h — a run's files in the checkout's build/run: records-PID*,
 * list-PID*, console-PID*, stack-PID* (and their .topo), scn-PID/ (stage.h),
 * vms-PID/ (ci/vms's), each named after the coordinator's pid. A run on the
 * real stack claims the directory: owner-PID says which kernel (its boot id)
 * and which process (its start time) the pid is, and the run's guard
 * (guard.h) removes the run's files, once its processes are stopped, when the
 * coordinator dies without ending. What a run whose guard died too left
 * (SIGKILL of both, a machine that went down) the next run's claim removes:
 * files of an owner of this kernel that is gone (or of another kernel that
 * started before this one booted), never those of a live run; a guest's run
 * (another kernel) keeps its files.
 */
#ifndef RDMACHECK_RUNDIR_H
#define RDMACHECK_RUNDIR_H

#include <stddef.h>

/*
 * Claim dir (ROOT/build/run, made already) for this process: remove what
 * runs that died left there (rundir_sweep), write owner-PID, start the guard
 * that removes this run's files there should it die (the rounds give the
 * guard their process groups, guard_group). Said on stderr when it cannot
 * (the run goes on without). Once per process: a second call does nothing.
 */
void rundir_claim(const char *dir);

/* The run ended as it should (its files removed): the guard told so, owner-PID removed. */
void rundir_release(void);

/*
 * Write dir/owner-PID for pid, a process of this kernel: the boot id and its
 * start time. 0, -ESRCH (no such process, or no boot id), or -errno.
 */
int rundir_own(const char *dir, long pid);

/* Remove what runs whose owner-PID says they died left in dir: their count. */
size_t rundir_sweep(const char *dir);

/* Remove every file and directory of pid's in dir (the names above; owner-PID last). */
void rundir_remove_pid(const char *dir, long pid);

#endif

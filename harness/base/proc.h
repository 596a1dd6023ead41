/*
 * proc.h — the processes and paths rdmacheck run needs: its own executable,
 * the checkout it belongs to, a child run without a shell.
 */
#ifndef RDMACHECK_PROC_H
#define RDMACHECK_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * This executable's path into exe. When it was rebuilt while running, the
 * link says "PATH (deleted)": the later rounds use what stands at PATH now.
 * Returns 0 or -errno.
 */
int self_exe(char *exe, size_t len);

/* The checkout: the nearest directory above this executable with ci/stack; 0 or -ENOENT. */
int cli_find_root(char *root, size_t len);

/*
 * In a child just forked from parent (its pid, taken before the fork): have
 * the kernel send it sig when parent ends (PR_SET_PDEATHSIG: kept across
 * exec, lost at a set-user-ID exec and at the child's own forks; it fires when
 * the forking thread ends, and every fork of rdmacheck's is from its one
 * thread). Returns 0; -ESRCH when parent has ended already (the signal would
 * never come: the child _exits); -errno.
 */
int proc_die_with(pid_t parent, int sig);

/* Run argv (no shell; stdout to /dev/null when quiet) and wait. Returns its exit status, or -errno. */
int spawn_wait(char *const argv[], int quiet);

/*
 * Start argv as spawn_wait does, without waiting: its pid, or -errno.
 * spawn_finish(pid) waits. The child gets SIGTERM when this process ends (proc_die_with).
 */
int spawn_start(char *const argv[], int quiet);

/* Wait for pid (from spawn_start; a negative pid is returned as is): its exit status, or -errno. */
int spawn_finish(int pid);

#endif

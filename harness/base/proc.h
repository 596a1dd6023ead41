/*
 * proc.h — the processes and paths rdmacheck run needs: its own executable,
 * the checkout it belongs to, a child run without a shell.
 */
#ifndef RDMACHECK_PROC_H
#define RDMACHECK_PROC_H

#include <stddef.h>

/*
 * This executable's path into exe. When it was rebuilt while running, the
 * link says "PATH (deleted)": the later rounds use what stands at PATH now.
 * Returns 0 or -errno.
 */
int self_exe(char *exe, size_t len);

/* The checkout: the nearest directory above this executable with ci/stack; 0 or -ENOENT. */
int cli_find_root(char *root, size_t len);

/* Run argv (no shell; stdout to /dev/null when quiet) and wait. Returns its exit status, or -errno. */
int spawn_wait(char *const argv[], int quiet);

/* Start argv as spawn_wait does, without waiting: its pid, or -errno. spawn_finish(pid) waits. */
int spawn_start(char *const argv[], int quiet);

/* Wait for pid (from spawn_start; a negative pid is returned as is): its exit status, or -errno. */
int spawn_finish(int pid);

#endif

/* proc.c — own executable, checkout, child processes (proc.h). */
#define _GNU_SOURCE /* setpgid */
#include "harness/base/proc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * This executable's path. When it was rebuilt while running, the link says
 * "PATH (deleted)": the later rounds use what stands at PATH now.
 */
int self_exe(char *exe, size_t len)
{
	static const char deleted[] = " (deleted)";
	ssize_t n = readlink("/proc/self/exe", exe, len - 1);
	size_t dl = sizeof(deleted) - 1;

	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	if ((size_t)n > dl && strcmp(exe + n - dl, deleted) == 0)
		exe[n - dl] = '\0';
	return 0;
}

/* The checkout: the nearest directory above this executable with ci/stack. */
/* (cli.h) */
int cli_find_root(char *root, size_t len)
{
	char exe[PATH_MAX];

	if (self_exe(exe, sizeof(exe)))
		return -errno;
	for (char *slash; (slash = strrchr(exe, '/')) != NULL;) {
		char probe[PATH_MAX + 16];

		*slash = '\0';
		snprintf(probe, sizeof(probe), "%s/ci/stack", exe);
		if (access(probe, X_OK) == 0) {
			snprintf(root, len, "%s", exe[0] ? exe : "/");
			return 0;
		}
	}
	return -ENOENT;
}

int proc_die_with(pid_t parent, int sig)
{
	if (prctl(PR_SET_PDEATHSIG, sig) != 0)
		return -errno;
	return getppid() == parent ? 0 : -ESRCH; /* (reparented: it ended before the call) */
}

/* Run argv (no shell) and wait. Returns its exit status, or -errno. */
int spawn_start(char *const argv[], int quiet)
{
	pid_t pid, self = getpid();

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (proc_die_with(self, SIGTERM) == -ESRCH)
			_exit(127);
		if (quiet && !freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	return (int)pid;
}

int spawn_finish(int pid)
{
	int st;

	if (pid < 0)
		return pid;
	if (waitpid((pid_t)pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int spawn_wait(char *const argv[], int quiet)
{
	return spawn_finish(spawn_start(argv, quiet));
}

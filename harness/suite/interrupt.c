/* interrupt.c — Ctrl-C and SIGTERM during `rdmacheck run` (interrupt.h). */
#define _GNU_SOURCE /* kill */
#include "harness/suite/interrupt.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t caught, watched[INTERRUPT_SLOTS];

static void on_signal(int sig)
{
	if (caught) {
		for (unsigned i = 0; i < INTERRUPT_SLOTS; i++)
			if (watched[i] > 0)
				kill(-(pid_t)watched[i], SIGKILL);
		_exit(EXIT_INTERRUPTED);
	}
	caught = sig;
}

int interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -errno;
	return 0;
}

int interrupt_caught(void)
{
	return caught;
}

void interrupt_watch(pid_t pgid)
{
	interrupt_watch_slot(0, pgid);
}

void interrupt_watch_slot(unsigned slot, pid_t pgid)
{
	if (slot < INTERRUPT_SLOTS)
		watched[slot] = pgid;
}

int interrupt_stop(pid_t pid, pid_t pgid, int grace_s, int *status)
{
	double end = proto_now_s() + grace_s;
	pid_t w = 0;
	int killed = 0;

	kill(-pgid, SIGTERM);
	while ((w = waitpid(pid, status, WNOHANG)) == 0 && proto_now_s() < end)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	if (w == 0) {
		killed = 1;
		kill(-pgid, SIGKILL);
		w = waitpid(pid, status, 0);
	}
	kill(-pgid, SIGKILL); /* stragglers of the group (its leader is gone) */
	return w < 0 ? -errno : killed;
}

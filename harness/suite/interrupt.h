/*
 * interrupt.h — Ctrl-C and SIGTERM during `rdmacheck run` (interrupt.c).
 * The first SIGINT or SIGTERM is only noted: the run stops at its next
 * look (interrupt_caught), shuts the inner runner down (the guest, or the
 * host's agents and topology) through interrupt_stop, writes its partial
 * report and exits EXIT_INTERRUPTED. A second one kills the inner runner's
 * process group (interrupt_watch) at once and exits EXIT_INTERRUPTED.
 */
#ifndef RDMACHECK_INTERRUPT_H
#define RDMACHECK_INTERRUPT_H

#include <sys/types.h>

#define EXIT_INTERRUPTED 130 /* 128 + SIGINT, as a shell reports it */
#define INTERRUPT_GRACE_S 20 /* what the inner runner gets to clean up before SIGKILL */

/* Catch SIGINT and SIGTERM as above (no SA_RESTART: sleeps end early). 0 or -errno. */
int interrupt_install(void);
/* The signal caught first (SIGINT, SIGTERM), or 0. */
int interrupt_caught(void);
/* The process group a second signal kills (0: none); interrupt_watch_slot(0, pgid). */
void interrupt_watch(pid_t pgid);
/* One of INTERRUPT_SLOTS process groups a second signal kills (0: none in that slot). */
#define INTERRUPT_SLOTS 4 /* the main round and ROUND_SIDES side rounds (round.h) */
void interrupt_watch_slot(unsigned slot, pid_t pgid);
/*
 * Stop process group pgid led by pid: SIGTERM to the group, wait for pid up
 * to grace_s seconds, then SIGKILL to whatever of the group is left. *status
 * receives pid's wait status. Returns 0 if pid ended within the grace, 1 if it
 * had to be killed, -errno if it could not be waited for.
 */
int interrupt_stop(pid_t pid, pid_t pgid, int grace_s, int *status);

#endif

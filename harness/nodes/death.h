/*
 * death.h — the verdict of a scenario whose machine died under it: the one
 * VM (--stack=vm: the guest kernel panicked or hung) or one node's guest
 * (--stack=vms). Both judge alike: a panic at a step the profile says kills
 * the kernel is the declared deviation (xfail), any other death a failure.
 */
#ifndef RDMACHECK_DEATH_H
#define RDMACHECK_DEATH_H

#include "harness/nodes/records.h"
#include "harness/run/runner.h"

/*
 * Judge r, whose machine died while s says it ran (its last step begun,
 * whether the profile predicts that step kills the kernel, the deviation):
 * panicked 1 for a kernel panic (KERNEL_CRASH), 0 for a machine that stopped
 * answering (TIMEOUT). who names the machine in the reason ("" the one VM,
 * else e.g. " of node b"). console is its console log: the excerpt goes into
 * r->detail (one line when the crash was declared), and *tail (if not NULL)
 * gets the log's last lines for the results directory (malloc'd, replacing
 * what it held).
 */
void death_judge(struct result *r, const struct rec_state *s, int panicked, const char *who, const char *console,
		 char **tail);

#endif

/*
 * crash_pred.h — which scenarios the model predicts may kill the kernel,
 * so that the VM runs them after everything else (a panic then ends no
 * other scenario's work), which declare a slow step (run first, jobs.h),
 * and the kernel version the profile should take.
 */
#ifndef RDMACHECK_CRASH_PRED_H
#define RDMACHECK_CRASH_PRED_H

#include "model/model.h"

#include <stdint.h>

struct scn_file;

/* The running kernel's version as KVER(major, minor), 0 if unknown. */
uint32_t cli_running_kernel(void);

/*
 * The profile of the stack the steps run on, when it is not the one results
 * are judged by: profile name (the nodes netns/topology builds are rxe
 * devices; --device's driver chooses) at the running kernel (judge->kernel
 * when that is unknown). A run judged by --profile=generic (as explore
 * judges), or by rxe at another kernel, still runs on that stack, whose
 * deviations say which steps may kill it. Fills *out and returns out, or
 * returns NULL when judge is that profile already (or name is none).
 */
const struct m_profile *cli_stack_profile(const struct m_profile *judge, const char *name, struct m_profile *out);

/*
 * What the model predicts of running f, for scheduling it (a walk on the
 * model engine under each profile, steps that kill the kernel allowed):
 * crash_si the first step that may kill the kernel under judge or under
 * stack (NULL: judge alone), -1 none, with crash_prof the profile and dev
 * the deviation that say so; warns the number of its steps a profile
 * declares a kernel WARN for (struct m_kwarn), and slow_ms the longest step
 * budget such a WARN asks (rxe 6.1's destroy_qp with a bound type-2 window
 * waits 50 s), 0 none.
 */
struct cli_pred {
	long crash_si;
	const struct m_profile *crash_prof;
	const struct m_deviation *dev;
	unsigned warns;
	uint32_t slow_ms;
};
void cli_predict(const struct scn_file *f, const struct m_profile *judge, const struct m_profile *stack,
		 struct cli_pred *out);

/*
 * Whether a stack that must survive (--stack=host: this machine, or the
 * guest's own kernel under make bench-real) skips f as a whole: 1, with the
 * SKIP reason in why (len bytes: the first step p says may kill the kernel,
 * its line, the profile, the deviation and its citation), when p says one
 * may; else 0 (why untouched). Skipping only that step is not enough: a WR
 * an earlier step left queued (QP-STATE-1's kept WRs, verbs/197) runs at
 * the next doorbell or teardown anyway.
 */
int cli_crash_reason(const struct scn_file *f, const struct cli_pred *p, char *why, size_t len);

#endif

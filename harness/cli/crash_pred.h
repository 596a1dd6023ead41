/*
 * crash_pred.h — which scenarios the model predicts may kill the kernel,
 * so that the VM runs them after everything else (a panic then ends no
 * other scenario's work), and the kernel version the profile should take.
 */
#ifndef RDMACHECK_CRASH_PRED_H
#define RDMACHECK_CRASH_PRED_H

#include "model/model.h"

#include <stdint.h>

struct scn_file;

/* The running kernel's version as KVER(major, minor), 0 if unknown. */
uint32_t cli_running_kernel(void);

/*
 * 1 if some step of f has KERNEL_CRASH among the outcomes prof allows for
 * it (as far as the model runs f: a walk on the model engine, steps that
 * kill the kernel allowed), else 0.
 */
int cli_may_crash(const struct scn_file *f, const struct m_profile *prof);

/*
 * Whether a stack that must survive (--stack=host: this machine, or the
 * guest's own kernel under make bench-real) skips f as a whole: 1, with the
 * SKIP reason in why (len bytes: the first such step's line, the deviation
 * and its citation), when cli_may_crash(f, prof); else 0. Skipping only that
 * step is not enough: a WR an earlier step left queued (QP-STATE-1's kept
 * WRs, verbs/197) runs at the next doorbell or teardown anyway.
 */
int cli_host_skip(const struct scn_file *f, const struct m_profile *prof, char *why, size_t len);

#endif

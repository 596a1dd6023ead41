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

#endif

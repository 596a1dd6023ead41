/*
 * steptime.h — where a real step's time goes, measured on demand: with
 * RDMACHECK_STEP_PROFILE=FILE in the environment, the runner and the stack's
 * transport add up, per scenario, the wall time of each phase of a step
 * (clock_gettime), and append one line per scenario to FILE:
 *
 *   NAME steps=N total_us=T predict=U record=U send=U wait=U exec=U judge=U commit=U ahead=U
 *
 * (µs in all; wait: blocked on an agent's answer, inside exec; record: the
 * step record written by on_step, inside predict). Without the variable
 * every call is a test of one flag. For `make bench-real` and for finding
 * the next cost; never part of a result.
 */
#ifndef RDMACHECK_STEPTIME_H
#define RDMACHECK_STEPTIME_H

#include <stddef.h>

enum steptime_phase {
	ST_PREDICT, ST_RECORD, ST_SEND, ST_WAIT, ST_EXEC, ST_JUDGE, ST_COMMIT, ST_AHEAD, ST_COUNT_
};

/* The time now (CLOCK_MONOTONIC seconds) when profiling is on, else 0. */
double steptime_now(void);
/* Add the time since t0 (a steptime_now) to phase p; nothing when t0 is 0. */
void steptime_add(enum steptime_phase p, double t0);
/* Append the scenario's line (name, steps run, its wall time) to the file, and start again from zero. */
void steptime_flush(const char *name, size_t steps, double secs);

#endif

/*
 * records.h — results streamed out of a machine that may die. The inner runner
 * (inside the VM) appends one line per event to a file on the shared
 * checkout and flushes it (records.c: why that survives a guest panic); the outer runner (host) reads the file after the
 * guest exits, however it exited, and rebuilds the results — including the
 * scenario and step that were running when the guest kernel died or hung.
 *
 * Lines (fields separated by one TAB; text fields have TAB/newline replaced):
 *   defer  IDX                      the inner run leaves IDX, crash-predicted, to a round of
 *                                   its own beside it (round.h: a guest of its own)
 *   start  IDX [batch]              batch: the scenario's step records are not written as
 *                                   it runs (rec_start_batched)
 *   step   IDX LINE CRASH NOTE      CRASH 1: the profile says this step kills the kernel
 *   detail IDX TEXT                 one line of the result's detail
 *   kernel IDX TEXT                 one kernel log line the scenario produced (before its result)
 *   rules  IDX HEX                  the result's rule set (struct result.rules, 2 hex digits a byte)
 *   result IDX VERDICT LINE SECS STEPS_RUN STEPS REASON
 */
#ifndef RDMACHECK_RECORDS_H
#define RDMACHECK_RECORDS_H

#include "harness/run/runner.h"

#include <stdio.h>
#include <sys/types.h>

struct text;

void rec_start(FILE *f, size_t idx);
void rec_step(FILE *f, size_t idx, uint32_t line, int crash, const char *note);

/*
 * A batched scenario (one no step of which is predicted to kill the kernel):
 * its start says so, and its steps are not recorded one by one — a record
 * reaches the host before its write returns (records.c), ~0.3 ms a step over
 * the VM's share — only a beat: rec_step_beat writes the step's record
 * (crash 0, no note) when REC_BEAT_S have passed since *beat (the last
 * beat's time, on a coarse monotonic clock, updated; 0 at the start), so that the file grows while
 * a long scenario runs (the outer runner's hang watch). Should the machine
 * die under a batched scenario, its records do not say at which step: the
 * outer runner runs it again careful (careful.h), with a record per step.
 */
#define REC_BEAT_S 1.0
void rec_start_batched(FILE *f, size_t idx);
void rec_step_beat(FILE *f, size_t idx, uint32_t line, double *beat);
/* Scenario idx is not run here: the outer runner runs it in a round of its own (round.h). */
void rec_defer(FILE *f, size_t idx);
/* One kernel log line per line of lines (NULL: none), before the result of idx. */
void rec_kernel(FILE *f, size_t idx, const char *lines);
/* detail lines and then the result line of r. */
void rec_result(FILE *f, size_t idx, const struct result *r);

/* What a records file says about scenario IDX, filled in while reading. */
struct rec_state {
	int started, finished;
	int not_run;            /* the run was interrupted before it began: counted, not reported one by one */
	int batched;            /* its last start said batch: its steps were not recorded one by one */
	int deferred;           /* an inner run deferred it (rec_defer): a side round's (round.h), kept over starts */
	uint32_t step_line;     /* the last step begun */
	int step_crash;
	char step_note[512];
	char *kernel;           /* the kernel log lines of the scenario (malloc'd), NULL none */
};

/*
 * Where a reader of a growing records file got to (rec_read_more): the bytes
 * of whole lines it has taken, and the detail and kernel lines of scenarios
 * whose result line it has not read yet. Zeroed (or rec_cursor_reset): the
 * file's start. The outer runner reads its rounds' files every 200 ms while
 * they grow by every scenario's detail (a scenario's record of reality among
 * it): reading each from its start again was a cost that grew with the run.
 */
struct rec_cursor {
	off_t off;          /* whole lines taken */
	size_t n;           /* scenarios det and kern hold */
	struct text *det;   /* [n]: detail lines of a scenario not finished in the file yet */
	struct text *kern;  /* [n]: its kernel lines */
};

/* Back to the file's start, what c held released (the file was removed or is another). */
void rec_cursor_reset(struct rec_cursor *c);

/* Release what st holds (its kernel lines). */
void rec_state_clear(struct rec_state *st);

/*
 * Read records from path into rs[base..] (results of scenario idx go to
 * rs[idx], which must be below n; file and title are kept) and st[idx]. A
 * result finished before this call (st[idx].finished: an earlier read of the
 * growing file) is left as the reader has it; within one read a later result
 * line replaces an earlier one.
 * Returns 0 or -errno (a missing file is not an error: nothing happened).
 */
int rec_read(const char *path, struct result *rs, struct rec_state *st, size_t n);

/*
 * As rec_read, from where c got to: the same results and states as reading
 * the whole file again (a file shorter than c's place is read from its start,
 * c reset). A torn last line is left for the next read. 0 or -errno.
 */
int rec_read_more(struct rec_cursor *c, const char *path, struct result *rs, struct rec_state *st, size_t n);

#endif

/*
 * tape_out.h — a run's record of reality (harness/run/tape.h) in the results
 * directory: results.jsonl's "tape" object, one per scenario that has one,
 * after its scenario and step lines:
 *   {"type":"tape","file":F,"record":[HEAD, EVENT...],"kernel":KERNEL_LINES}
 * KERNEL_LINES: the kernel log lines the scenario produced ("" none), bytes
 * outside ASCII as '?'. `rdmacheck rejudge` reads it back (suite/rejudge.c).
 */
#ifndef RDMACHECK_TAPE_OUT_H
#define RDMACHECK_TAPE_OUT_H

#include "harness/report/results.h"

/*
 * Write the "tape" object of file: tape is what tape_take gave (one JSON
 * text a line, as the recorder tape_rec.c wrote it; NULL or "": nothing is
 * written), kernel the scenario's kernel lines (NULL none). The lines go in
 * as they are, not parsed and written again (in the TCG guest that was
 * ~50 µs a line, two lines a step); one that is not whole (tape_line_whole)
 * is left out. 0 or -errno (also kept in rd->werr).
 */
int results_tape(struct results *rd, const char *file, const char *tape, const char *kernel);

/*
 * 1 when the len bytes at p are one whole array or object as the recorder
 * writes its head and events: '[' or '{' first, printable ASCII, its strings
 * closed, its brackets and braces matched (16 deep at most), nothing after
 * the first value's end; 0 otherwise (a line cut
 * short when a runner died while writing it). A check that a line arrived
 * whole, not a JSON parser: the recorder's lines are JSON by construction.
 */
int tape_line_whole(const char *p, size_t len);

#endif

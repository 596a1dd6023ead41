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
 * text a line; NULL or "": nothing is written), kernel the scenario's kernel
 * lines (NULL none). 0 or -errno (also kept in rd->werr).
 */
int results_tape(struct results *rd, const char *file, const char *tape, const char *kernel);

#endif

/*
 * rerun.h — `run --rerun-failed[=DIR]`: the scenarios that failed in the last
 * run, or in the results DIR (RESULTS/latest/results.jsonl, DIR/results.jsonl;
 * one JSON object a line;
 * the lines {"type":"scenario","file":F,"verdict":V,...} with V FAIL or ERROR
 * name them).
 */
#ifndef RDMACHECK_RERUN_H
#define RDMACHECK_RERUN_H

#include "harness/corpus/files.h"

#include <stddef.h>

/*
 * Append to out->v (each name once, in the order of the file) the "file" of
 * every scenario line of the JSON-lines file path whose verdict is FAIL or
 * ERROR (history.h reads it). Lines of another type are skipped; a line that
 * is not a results line (cut short by a crash or a full disk) is an error: a
 * failure it held would be lost.
 * Returns 0, or -errno with a message in err: the file cannot be read, or
 * -EBADMSG naming its first bad line (PATH:LINE) and how many there are.
 */
int rerun_read(const char *path, struct filelist *out, char *err, size_t errlen);

/*
 * The results.jsonl the failures are read from into path: that of from (a
 * results.jsonl, a results directory as --results=DIR writes, or a directory
 * of them with a latest link as build/results), or with from NULL that of
 * $RDMACHECK_RESULTS/latest, RDMACHECK_RESULTS defaulting to build/results in
 * the checkout (cli_find_root). 0 or -errno with err.
 */
int rerun_path(const char *from, char *path, size_t len, char *err, size_t errlen);

#endif

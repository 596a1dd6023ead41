/*
 * rerun.h — `run --rerun-failed`: the scenarios that failed in the last run,
 * read from its results (RESULTS/latest/results.jsonl, one JSON object a line;
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
 * ERROR (history.h reads it). Lines that are not JSON objects, or of another
 * type, are skipped.
 * Returns 0, or -errno with a message in err (the file cannot be read).
 */
int rerun_read(const char *path, struct filelist *out, char *err, size_t errlen);

/*
 * The failed scenarios of the last run: rerun_read of
 * $RDMACHECK_RESULTS/latest/results.jsonl, RDMACHECK_RESULTS defaulting to
 * build/results in the checkout (cli_find_root). 0 or -errno with err.
 */
int rerun_last(struct filelist *out, char *err, size_t errlen);

#endif

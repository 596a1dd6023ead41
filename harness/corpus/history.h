/*
 * history.h — reading a run's results.jsonl back (results.h writes it): the
 * scenario lines as struct result, the step lines as they are. Used by
 * `run --rerun-failed` (what failed), `run --shard` (how long each file took)
 * and `rdmacheck merge` (several shards' results as one run). Jansson parses.
 */
#ifndef RDMACHECK_HISTORY_H
#define RDMACHECK_HISTORY_H

#include "harness/run/runner.h"

#include <stddef.h>

/*
 * Called for each line of the file: r is the scenario the line describes
 * ({"type":"scenario",...}: file, title, verdict, reason, line, secs, rules;
 * detail NULL), or NULL for any other well-formed object line (a step);
 * text is the line itself, without its newline. A non-zero return stops the
 * reading and is hist_read's return.
 */
typedef int (*hist_fn)(void *ctx, const struct result *r, const char *text);

/*
 * Read the JSON-lines file at path, calling fn(ctx, ...) for every line that
 * is a JSON object. Lines that are not (torn by a crash or a full disk,
 * another tool's) are skipped and counted in *skipped (may be NULL), the first
 * of them named in err ("PATH:LINE: ..."); blank lines are no results and no
 * error; a scenario line whose verdict is unknown counts as skipped too.
 * Returns 0, fn's non-zero return, or -errno with a message in err (the file
 * cannot be read).
 */
int hist_read(const char *path, hist_fn fn, void *ctx, size_t *skipped, char *err, size_t errlen);

/*
 * The results.jsonl of arg: arg itself when it is a regular file, else
 * arg/results.jsonl (a results directory). Returns 0 or -ENAMETOOLONG.
 */
int hist_path(const char *arg, char *path, size_t len);

#endif

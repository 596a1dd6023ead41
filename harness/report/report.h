/*
 * report.h — what a run prints: text (one line per scenario, details only for
 * failures, a progress line on a TTY), TAP version 13 (xfail as TODO, skip as
 * SKIP with the reason), and JUnit XML for GitLab/GitHub test reporters.
 */
#ifndef RDMACHECK_REPORT_H
#define RDMACHECK_REPORT_H

#include "harness/run/runner.h"

#include <stdio.h>

enum report_format { REPORT_TEXT, REPORT_TAP };

/* "text", "tap"; parse returns 0 or -EINVAL. */
const char *report_format_str(enum report_format f);
int report_format_parse(const char *name, enum report_format *out);

/* Before the first result: TAP's version and plan; nothing for text. */
void report_begin(FILE *out, enum report_format f, size_t total);
/* One scenario's result (index k of total, 0-based). */
void report_result(FILE *out, enum report_format f, size_t k, const struct result *r);
/* The closing summary line(s). */
void report_end(FILE *out, enum report_format f, const struct result *rs, size_t n, double secs);
/*
 * After report_end of an interrupted run (why: strsignal's name of the
 * signal): one line for the not_run scenarios of total that never began,
 * "interrupted (WHY): N of TOTAL scenarios not run"; in TAP a "Bail out!"
 * (its plan counted them: a consumer must not read the run as complete).
 */
void report_not_run(FILE *out, enum report_format f, size_t not_run, size_t total, const char *why);
/* The same as one JUnit case: r an ERROR "(interrupted)" whose reason says it. */
void report_not_run_case(struct result *r, size_t not_run, size_t total, const char *why);
/*
 * A progress line on stderr when it is a terminal ("[k+1/total] file": file
 * may be any status text); cleared with k == total. A line the terminal
 * shows already is not drawn again.
 */
void report_progress(size_t k, size_t total, const char *file);

/* Write the whole run as JUnit XML to path, whole or not at all (afile.h: a
 * concurrent run or reader never sees a torn file). Returns 0 or -errno. */
int report_junit(const char *path, const struct result *rs, size_t n, double secs);

/*
 * XML-escape s (attribute or text; also HTML) onto out. Control characters
 * other than \n and \t become spaces; bytes that are not UTF-8 (file names
 * are whatever the file system holds) become '?', so the document stays
 * well-formed. NULL writes nothing.
 */
void report_xml_text(FILE *out, const char *s);

/* Counts per verdict into counts[V_COUNT_]. */
void report_count(const struct result *rs, size_t n, size_t counts[V_COUNT_]);

#endif

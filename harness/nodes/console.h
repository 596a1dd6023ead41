/*
 * console.h — reading what the machine under test said: the guest console log
 * ci/vm keeps, the log of ci/stack and the inner runner's stderr, and kernel
 * log lines. Pure text functions (no global state); the results directory and
 * the reports take their excerpts from here.
 */
#ifndef RDMACHECK_CONSOLE_H
#define RDMACHECK_CONSOLE_H

#include "harness/run/runner.h"

#include <stddef.h>

/*
 * The lines of the console log at path that say why the kernel died (at most
 * 12, each "  console: LINE\n") into out; "" when there are none or no file.
 */
void console_excerpt(const char *path, char *out, size_t len);

/* The last lines (at most lines, > 0) of the file at path (malloc'd; NULL: none, or no file). */
char *console_tail(const char *path, size_t lines);

/*
 * The last line of the log at path that contains mark (NULL: the last
 * non-blank line), from just after mark (the whole line with NULL), without
 * its newline, into out. Returns 1 if found, else 0 with out "".
 */
int console_last_line(const char *path, const char *mark, char *out, size_t len);

/*
 * Why the real stack's runner ended with exit status (not 0) into why, from
 * its log (ci/stack's and the inner run's stderr): 77, ci/stack's "SKIP:"
 * reason ("no real RDMA stack: ..."); otherwise the log's last line.
 */
void console_stack_reason(const char *log, int status, char *why, size_t len);

/* What the kernel printed that is a finding on its own, worst last. */
enum splat { SPLAT_NONE, SPLAT_WARN, SPLAT_UBSAN, SPLAT_HUNG, SPLAT_BUG, SPLAT_OOPS, SPLAT_PANIC, SPLAT_COUNT_ };

/* "none", "WARN", "UBSAN", "HUNG", "BUG", "OOPS", "PANIC"; "?" out of range. */
const char *splat_str(enum splat s);
int splat_parse(const char *name, enum splat *out);

/*
 * The first splat in text (kernel log or console lines): a WARN ("WARNING:
 * CPU: N PID: N at FILE:LINE FUNC"), an UBSAN report, a hung task or RCU
 * stall, a BUG ("BUG: ...", "kernel BUG at"), an Oops or general protection
 * fault, a panic. Its line, without a "[ SECS]" stamp or console prefix
 * before the marker, into what ("" for none). Returns its kind.
 */
enum splat console_splat(const char *text, char *what, size_t len);

/*
 * Judge the kernel lines a scenario produced: a splat (console_splat) is a
 * finding of its own. A PASS or XFAIL becomes a FAIL whose reason is "kernel
 * KIND during the scenario: LINE" (what the scenario gave goes into the
 * detail); a FAIL or ERROR keeps its verdict and gets the splat as a note.
 * A WARN whose line holds the location of one of the nwarn WARNs declared
 * for the steps that ran (struct m_kwarn: run_kwarn_add) is no finding: it
 * goes into the detail as "declared kernel WARN (RULE): LINE"; any other
 * splat, before or after it, still is. Returns 1 when there was an
 * undeclared splat, 0 none, -ENOMEM.
 */
int console_finding(struct result *r, const char *kernel, const struct m_kwarn *const *warn, size_t nwarn);

/*
 * The kernel log from now on: /dev/kmsg opened non-blocking at its end.
 * Returns the descriptor, or -errno (not root, no /dev/kmsg: no kernel lines).
 */
int kmsg_open(void);
/*
 * Every kernel log record since kmsg_open (or the last take) as "[SECS.USEC]
 * MESSAGE\n" lines (malloc'd; NULL when there are none). Does not close fd.
 */
char *kmsg_take(int fd);

#endif

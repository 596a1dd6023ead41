/*
 * console.h — reading what the machine under test said: the guest console log
 * ci/vm keeps, the log of ci/stack and the inner runner's stderr, and kernel
 * log lines. Pure text functions (no global state); the results directory and
 * the reports take their excerpts from here.
 */
#ifndef RDMACHECK_CONSOLE_H
#define RDMACHECK_CONSOLE_H

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

#endif

/*
 * careful.h — a scenario run again with a record per step. The inner runner
 * batches the step records of a scenario no step of which the profile
 * predicts kills the kernel (records.h: rec_start_batched), and runs its
 * steps ahead of their answers (runner.h: run_opts.ahead). Should the
 * machine die under such a scenario anyway (an unpredicted panic, or a
 * hang), its records do not say at which step, so the outer runner runs it
 * again after the reboot in careful mode — a flushed record per step, no
 * run-ahead, among the scenarios that may kill the kernel (run last) — and
 * judges it from that run, as it judged every scenario before batching:
 * the same verdict at the same step, with a note that says so.
 *
 * The outer runner tells the inner one which scenarios to run careful with
 * --careful=IDX[,IDX...] (record indices, as --base).
 */
#ifndef RDMACHECK_CAREFUL_H
#define RDMACHECK_CAREFUL_H

#include <stddef.h>

/* The note a careful run's result carries in its detail (one line, ending in a newline). */
#define CAREFUL_NOTE "  note: run again with a record per step and no run-ahead: the machine died during " \
	"its first run, where no step was predicted to kill the kernel\n"

/* 1 when list (--careful's value; NULL none) holds idx, else 0. */
int careful_has(const char *list, size_t idx);

/*
 * The --careful=... option for the scenarios from..n-1 with flag[i] set, into
 * buf (len bytes); "" when there is none or it does not fit (then every
 * scenario is run batched, as without this: a rerun that loses its precision,
 * never its verdict's kind). Returns buf.
 */
char *careful_option(const char *flag, size_t from, size_t n, char *buf, size_t len);

/*
 * The note of a scenario the inner runner ran again at once, without
 * run-ahead, because run-ahead could not judge one of its steps exactly
 * (runner.h: result.rerun; a peer QP seen in ERR after later posts had run).
 */
#define CAREFUL_AHEAD_NOTE "  note: run again without run-ahead: a peer QP was seen after later steps had run\n"

/* Append note (one of the above) to *detail (malloc'd or NULL; replaced). 0 or -ENOMEM (unchanged). */
int careful_note(char **detail, const char *note);

#endif

/*
 * exits.h — the exit statuses of every rdmacheck subcommand:
 *   0 nothing failed · 1 some scenario failed (or lint found a disagreement)
 *   2 usage or parse error · 3 infrastructure error
 *   77 (run) every scenario skipped: nothing ran (automake's SKIP)
 * run reports a file that does not parse (or a path it cannot read) as an
 * ERROR and goes on; it exits 2 then, unless a scenario failed (1).
 *   130 run: interrupted by Ctrl-C or SIGTERM (harness/suite/interrupt.h)
 */
#ifndef RDMACHECK_EXITS_H
#define RDMACHECK_EXITS_H

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INFRA 3
#define EXIT_SKIP 77

#endif

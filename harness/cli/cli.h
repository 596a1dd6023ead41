/*
 * cli.h — the rdmacheck command's subcommands: each turns its argv into a
 * request and hands it to the layer that does the work (harness/cli/rdmacheck.c:
 * main, lint, predict, coverage, help; run.c: run (harness/suite/); cmd_explore.c:
 * explore (harness/explore/); merge.c: merge (harness/report/); explain.c).
 * Their exit statuses: harness/base/exits.h.
 */
#ifndef RDMACHECK_CLI_H
#define RDMACHECK_CLI_H

#include "harness/base/exits.h"

/* `rdmacheck run` (run.c): argv[0] is "run". Returns an exit status. */
int cli_run(int argc, char **argv);
/* `rdmacheck explore` (cmd_explore.c): argv[0] is "explore". Returns an exit status. */
int cmd_explore(int argc, char **argv);
/* `rdmacheck exec` (cmd_exec.c): explore's in-guest executor (harness/explore/exec.h). Returns an exit status. */
int cmd_exec(int argc, char **argv);
/* `rdmacheck merge RESULTS...` (merge.c): several runs' results as one report. */
int cmd_merge(int argc, char **argv);
/* `rdmacheck rejudge RESULTS...` (rejudge.c): a recorded run judged again (harness/suite/rejudge.h). */
int cmd_rejudge(int argc, char **argv);

#endif

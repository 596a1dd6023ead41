/*
 * cli.h — the rdmacheck command (harness/cli/rdmacheck.c: main, lint, predict,
 * help; harness/cli/cli_run.c: run; harness/cli/cli_load.c: what they share).
 * Exit statuses of every subcommand:
 *   0 nothing failed · 1 some scenario failed (or lint found a disagreement)
 *   2 usage or parse error · 3 infrastructure error
 *   130 run: interrupted by Ctrl-C or SIGTERM (interrupt.h)
 */
#ifndef RDMACHECK_CLI_H
#define RDMACHECK_CLI_H

#include "harness/cli/files.h"
#include "harness/run/runner.h"
#include "harness/lang/scn.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INFRA 3

/*
 * Collect PATHs and parse every file; print each diagnostic to stderr.
 * Returns 0 with fl and *files (parsed, same order; release with cli_unload),
 * or EXIT_USAGE when a path is unusable or a file has errors.
 */
int cli_load(int npaths, char **paths, struct filelist *fl, struct scn_file ***files);
/* Release what cli_load gave. */
void cli_unload(struct filelist *fl, struct scn_file **files);

/* Look up --profile=NAME[:MAJOR.MINOR]; 0 or -EINVAL with a message printed. */
int cli_profile(const char *arg, struct m_profile *out);

/* The model capabilities every model engine has (all of them). */
uint32_t cli_all_caps(void);

int cli_run(int argc, char **argv);

#endif

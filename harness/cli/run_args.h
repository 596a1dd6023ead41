/*
 * run_args.h — `rdmacheck run`'s command line (harness/cli/run_args.c reads
 * it from the command line; harness/suite/outer.c runs it).
 */
#ifndef RDMACHECK_RUN_ARGS_H
#define RDMACHECK_RUN_ARGS_H

#include "harness/suite/args.h"

#include <stddef.h>


/*
 * Read run's options (argv[0] is "run") into *a, which holds the defaults.
 * Returns the index of the first path, -1 after --help or --version (printed;
 * exit 0), -2 on a usage error (printed; exit EXIT_USAGE).
 */
int run_parse(int argc, char **argv, struct run_args *a);

#endif

/*
 * opts.h — the one way every rdmacheck subcommand reads its options:
 * getopt_long (so `--stack model` and `--stack=model` are the same, and
 * options may follow the paths), with our own messages: an unknown option is
 * named with the closest known one ("did you mean '--stack'?"), a missing
 * argument says which option lacks it. Also the version and singular/plural.
 */
#ifndef RDMACHECK_OPTS_H
#define RDMACHECK_OPTS_H

#include <getopt.h>
#include <stddef.h>

#ifndef RDMACHECK_VERSION
#define RDMACHECK_VERSION "0.0.0-dev"
#endif

/*
 * getopt_long over argv (argv[0] is the subcommand's name, cmd, e.g. "run"),
 * with opterr off. Returns what getopt_long returns; on an unknown option or
 * a missing argument prints one line to stderr ("rdmacheck CMD: unknown
 * option '--stak' (did you mean '--stack'?)") and returns '?'. The caller
 * resets nothing: the first call of a process starts at argv[1].
 */
int cli_getopt(int argc, char **argv, const char *cmd, const char *shortopts, const struct option *longopts);

/*
 * The candidate of names[0..n) closest to word (edit distance, at most a
 * third of the word's length and at least 2), or NULL when none is close.
 */
const char *cli_closest(const char *word, const char *const *names, size_t n);

/*
 * A whole decimal number v within [lo, hi] (an option's value) into *out:
 * 0, or -1 with *out untouched (empty, trailing characters, out of bounds).
 */
int cli_int_in(const char *v, long lo, long hi, int *out);

/* "1 file" / "2 files": word for n == 1, plural otherwise. */
const char *cli_plural(size_t n, const char *word, const char *plural);

/* Print "rdmacheck VERSION" (what --version prints) to stdout. */
void cli_version(void);

#endif

/*
 * distance.h — how far apart two words are, for every "did you mean" (the
 * scenario language's hints, the command line's options and subcommands).
 */
#ifndef RDMACHECK_DISTANCE_H
#define RDMACHECK_DISTANCE_H

#include <stdbool.h>
#include <stddef.h>

/* Levenshtein distance of a and b (their first 64 bytes), case-folded when nocase. */
size_t edit_distance(const char *a, const char *b, bool nocase);

#endif

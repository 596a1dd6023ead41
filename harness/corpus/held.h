/*
 * held.h — the scenarios the kernel holds (issue 32): those an earlier run
 * recorded as taking far longer than a guest's boot (rxe 6.1's destroy_qp
 * with a bound type-2 window sleeps 50 s in __rxe_cleanup: verbs/290). The
 * VM run starts each in a guest of its own, first, beside the main guest's
 * share (harness/suite/round.h), so that the corpus's wall time is the
 * longest of them plus a boot, not their sum with the rest. Chosen from the
 * recorded durations (shard.h's shard_times: a results.jsonl, by default
 * the checkout's committed record, HELD_RECORD), not from names.
 */
#ifndef RDMACHECK_HELD_H
#define RDMACHECK_HELD_H

#include "harness/corpus/shard.h"

#include <stddef.h>
#include <stdint.h>

/*
 * A scenario recorded at least this long is held: a side guest's boot costs
 * about 10 s of a CPU under TCG (measured 2026-12-02; ci/vm), so a scenario
 * much longer than that, whose time is a wait in the kernel, gains a guest of
 * its own; the corpus's next longest (rpmem/029, 4 s) is all CPU and stays.
 */
#define HELD_MIN_S 20.0
#define HELD_MIN_TEXT "20" /* HELD_MIN_S in the usage text */

/*
 * A scenario that registers more than this (MiB, all its MRs summed) is held
 * too, whatever its duration: rxe pins every page of an MR, so its guest
 * gets the memory (harness/suite/round.h, ROUND_VM_PIN_MB is this step), and
 * the pinning and zeroing of it is a CPU's work under TCG. verbs/450's 1 GiB
 * MR took 12.5 s alone in a guest of its own, but in the main guest beside
 * the other streams, in make check, its steps outran the step timeout
 * (measured 2026-12-02); in a side guest it runs alone.
 */
#define HELD_PIN_MB 256
#define HELD_PIN_TEXT "256" /* HELD_PIN_MB in the usage text */

/* The durations read when run is not given --times: the checkout's record of reality (ci/ci.mk RECORD). */
#define HELD_RECORD "tests/record/corpus-rxe-6.1.jsonl"

/*
 * held[i] = 1 for each of the n paths whose recorded mean duration in t
 * (looked up by the path as given, as results.jsonl names it; t NULL: none
 * recorded) is at least HELD_MIN_S, or whose registrations pinned[i] (bytes;
 * pinned NULL: none known) exceed HELD_PIN_MB, else 0. Returns how many are
 * held.
 */
size_t held_pick(size_t n, char *const *paths, const struct shard_times *t, const uint64_t *pinned,
		 unsigned char *held);

#endif

/*
 * round.h — the rounds of `rdmacheck run` on the real stack (outer.c's
 * outer runner): a round is one inner run through ci/stack (in the VM: one
 * guest boot), its records read while it grows. The main round runs every
 * scenario not finished; when its guest dies the next one resumes after the
 * scenario that killed it. A scenario the main round's inner run deferred
 * (records.h: `defer`; it asks for that with --defer-crashes) runs in a side
 * round: a guest of its own with that one scenario, beside the main round,
 * up to ROUND_SIDES side rounds at a time. The model says it may kill the kernel, and the
 * main round keeps only the first such, so each panic ends one guest that
 * held nothing else, and those boots overlap the main round (the corpus's
 * verbs/290 waits 50 s in its kernel) instead of following it. A scenario
 * the kernel holds (harness/corpus/held.h: recorded as long) is deferred by
 * the outer runner itself before the main round starts (outer.c
 * defer_held), so its side round boots with the main guest. Private to
 * harness/suite.
 */
#ifndef RDMACHECK_ROUND_H
#define RDMACHECK_ROUND_H

#include "harness/corpus/held.h"
#include "harness/nodes/records.h"
#include "harness/suite/jobs.h"
#include "harness/suite/suite.h"

#include <limits.h>
#include <sys/types.h>

#define ROUND_ALL ((size_t)-1)
/*
 * Side rounds at once: up to ROUND_CRASH_SIDES of them for crash-predicted
 * scenarios, two guests beside the main one, whose CPUs are mostly idle by
 * then (the corpus: two deferred panics boot together instead of one after
 * the other into the main guest's last scenarios), and the rest for the
 * scenarios the kernel holds (held.h), whose guests sleep while their
 * kernel waits: verbs/290's guest does not keep a panic's from booting.
 */
#define ROUND_SIDES 3
#define ROUND_CRASH_SIDES 2
/*
 * The guest's virtual CPUs (run --vm-cpus for the main round's). One: under
 * TCG a second one is a thread of its own whose cost (cross-CPU flushes, and
 * spinning in the guest's locks while the host runs the other one elsewhere)
 * outweighed what the second stream gained: the corpus on 2 host CPUs took
 * 73.6 s and 68 CPU-s on one, 74.2 s and 83 CPU-s on two, the same verdicts.
 */
#define ROUND_VM_CPUS 1
/*
 * The guest's memory: ci/vm's default (MiB) unless a scenario of the round
 * registers more than ROUND_VM_PIN_MB (scn_registered_bytes: rxe pins every
 * page of an MR), when the guest gets the default plus that (the largest
 * ones its streams may run side by side, summed), in steps of
 * ROUND_VM_PIN_MB: a scenario with an MR of 1 GiB runs in a guest of
 * 2304 MiB, the other rounds boot as they did. With --jobs above 1 such a
 * scenario is held (held.h, HELD_PIN_MB), so in the VM it has a side round
 * of its own and the main guest keeps the default. Its steps get one step
 * timeout more (run --timeout) per ROUND_VM_PIN_MB beyond the default: rxe
 * pins the MR's pages in reg_mr, and with run-ahead the answers before it
 * wait for that too (verbs/450, 1 GiB: alloc_pd timed out at 10 s in a
 * guest of its own on a loaded host, measured 2026-12-02; 60 s for it).
 */
#define ROUND_VM_MEM_MB 1024
#define ROUND_VM_PIN_MB HELD_PIN_MB

struct round {
	char rec[PATH_MAX + 64], list[PATH_MAX + 64], console[PATH_MAX + 64], stacklog[PATH_MAX + 64];
	unsigned jobs;      /* its inner run's streams (jobs.h) */
	unsigned slot;      /* its interrupt_watch slot (interrupt.h) */
	size_t from;        /* its first scenario */
	size_t only;        /* a side round's one scenario; ROUND_ALL: the main round */
	pid_t pid;          /* its ci/stack (a process group) while it runs, else 0 */
	off_t last;         /* the size of its records at their last change */
	double last_change; /* when that was (its hang watch) */
	struct rec_cursor cur[JOBS_MAX]; /* where reading each stream's records got to (rec_read_more) */
};

/*
 * Name r's files in dir (records-PIDSUFFIX.txt, list-, console-, stack-;
 * suffix "" for the main round), with jobs streams and interrupt slot slot.
 */
void round_init(struct round *r, const char *dir, long pid, const char *suffix, unsigned jobs, unsigned slot);

/*
 * Start r: the inner runner through ci/stack on the scenarios from `from` on
 * that are not finished (only == ROUND_ALL: every one not deferred to a side
 * round; else that one alone, in one stream). defer: ask the inner run to
 * defer the crash-predicted scenarios after the first (--defer-crashes).
 * Returns 0, or -errno said on stderr (nothing started).
 */
int round_start(struct outer *o, struct round *r, size_t from, size_t only, int defer);

/*
 * Read what r's records say into o (r running: started, not yet seen to end).
 * Returns -1 while it runs; else its exit
 * status (ci/stack's, ci/vm's 120 panic; 121 when no record came for the hang
 * watch's time, and it was stopped), r->pid then 0.
 */
int round_poll(struct outer *o, struct round *r);

/*
 * The end of round r with status st when it is not a panic or a hang (120,
 * 121: round_death): a stack that is not there (77) skips what r had to run,
 * any other failure makes that an ERROR with ci/stack's reason (said on
 * stderr); a side round that ended well without its scenario's result makes
 * it an ERROR (ROUND_NO_RESULT). Returns 1 on an infrastructure failure.
 */
#define ROUND_NO_RESULT "not run: the runner on the real stack gave no result for it"
int round_failed(struct outer *o, struct round *r, int st);

/*
 * Which real stack ci/stack --stack=auto would choose here ("host", "vm")
 * into where, its lines to log (appended); where "" when it chose none.
 * Returns 0, or -errno said on stderr.
 */
int round_probe(const struct outer *o, const char *log, char *where, size_t len);

/* After Ctrl-C or SIGTERM: stop r (if it runs) and read its last records. */
void round_stop(struct outer *o, struct round *r);

/* Remove r's records files (every stream's), list and console. */
void round_remove(struct round *r);

/*
 * The scenario r was running when its machine died: record KERNEL_CRASH or
 * TIMEOUT for it (status 120 or 121), or arrange for the next main round to
 * find it (--jobs streams: run one at a time; a batched one: again, careful).
 * Returns where the next main round starts.
 */
size_t round_death(struct outer *o, struct round *r, int status);

/*
 * The scenario running from `from` on: the one started and not finished (the
 * inner runner runs crash-predicted scenarios last, so it need not be the
 * first unfinished one), else the first unfinished one; side: only those
 * deferred to a side round, else only the others. o->fl.n: none.
 */
size_t round_running(const struct outer *o, size_t from, int side);

#endif

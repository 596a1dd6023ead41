/*
 * jobs.h — `rdmacheck run --jobs=N` (issue 18): the inner runner's scenarios
 * in N streams at once on its one topology. Each stream is a process with
 * agents of its own (a pool, pool.h) and a records file of its own
 * (jobs_records_path); the outer runner reads them all and prints the
 * results in list order, so a report is the same whatever N.
 *
 * What a stream may run (enum jobs_kind, jobs_kind_of):
 *   JOBS_ANY    verbs and harness calls only (an agent's objects are its
 *               process's): any stream;
 *   JOBS_FIRST  a call of a family whose node listens on a fixed port or
 *               keeps state outside the agent (librpma's 7471, uDAPL's 45248
 *               + node, librpmem's daemon and its ports from 7700, MRAPI's
 *               directory): any stream, but no two scenarios of one family at
 *               once (jobs_families: a stream claims the scenario's families
 *               on the board, jobs_done and jobs_again let them go), so the
 *               families' scenarios spread over the streams (all of them in
 *               stream 0 made it the corpus's critical path: 89 s of recorded
 *               scenario time against 62 s of verbs beside it);
 *   JOBS_LEAD   as JOBS_ANY, with a step a declared kernel WARN makes slow
 *               (crash_pred.h: rxe 6.1's destroy_qp with a bound type-2
 *               window waits 50 s): taken before any other, by a stream
 *               other than 0 when there is one, so that its wait runs beside
 *               all of them instead of after them;
 *   JOBS_WARN   a step of it makes a kernel WARN a profile declares (not a
 *               slow one): run beside others, the WARN would land in what
 *               they run (a scenario that sees a splat it does not declare
 *               is handed back, below: verbs/280's WARN in verbs/290's 50 s
 *               cost those 50 s again); so it runs alone after every
 *               stream has ended, before the crash-predicted ones;
 *   JOBS_ALONE  the model predicts a step may kill the kernel (in the VM,
 *               crash_pred.h): after every stream has ended, one at a
 *               time: a panic then ends no other scenario's work;
 *   JOBS_DEFERRED  a JOBS_ALONE one after the first, when the outer runner
 *               asked (--defer-crashes, round.h): not run here; the outer
 *               runner, told once stream 0 has run out of work (the guest
 *               then has a CPU to spare), runs it in a guest of its own.
 * The kernel's log is the machine's: a WARN (or any splat) logged while
 * several streams ran cannot be told to be one scenario's. A stream that
 * sees one during a scenario, other than a WARN the scenario's own steps
 * declare (struct m_kwarn), records nothing of it and hands it back
 * (jobs_again); it runs again alone with the JOBS_ALONE ones, where what the
 * kernel says is its own. A scenario that declares a WARN (rxe 6.1's 50 s
 * destroy_qp) thus runs beside the others, and those the WARN falls into run
 * again.
 * A stream takes the JOBS_LEAD ones first, then, in list order, the first
 * scenario not taken that it may run and whose families no other stream
 * holds (a claim on a board in shared memory), so the streams end close
 * together and the results arrive in about list order.
 */
#ifndef RDMACHECK_JOBS_H
#define RDMACHECK_JOBS_H

#include "harness/corpus/crash_pred.h"
#include "model/model.h"

#include <stddef.h>
#include <stdint.h>

#define JOBS_MAX 16
/* --jobs's default: two streams on the VM's 2 vCPUs (measured in the README's "Speed" section). */
#define JOBS_DEFAULT 2
/* The stream of the crash-predicted phase (jobs_take). */
#define JOBS_STREAM_ALONE ((unsigned)-1)

struct scn_file;

enum jobs_kind { JOBS_NONE, JOBS_ANY, JOBS_FIRST, JOBS_ALONE, JOBS_LEAD, JOBS_WARN, JOBS_DEFERRED };

/*
 * What f is (above) by the model's prediction p of it (crash_pred.h:
 * cli_predict, under the judging profile and the stack's own): JOBS_NONE
 * for NULL (not to run here), JOBS_ALONE when allow_crash and a step may
 * kill the kernel, JOBS_LEAD when a step declares a slow kernel WARN,
 * JOBS_WARN when one declares another.
 */
enum jobs_kind jobs_kind_of(const struct scn_file *f, const struct cli_pred *p, int allow_crash);

/*
 * The families of f's calls that make it JOBS_FIRST (every family but verbs
 * and the harness's memory calls), one bit (1u << enum m_family) each; 0 for
 * NULL. No two scenarios sharing a bit run at once (jobs_take).
 */
uint32_t jobs_families(const struct scn_file *f);

/* The scenarios of one inner run and who has taken which (jobs_take). */
struct jobs_board {
	size_t n;
	uint8_t *kind;  /* enum jobs_kind per scenario */
	uint8_t *state; /* JOBS_FREE, JOBS_TAKEN, JOBS_DONE, JOBS_AGAIN; shared by the streams' processes */
	uint32_t *fams; /* per scenario: jobs_families, set by the caller (0: none) */
	uint32_t *held; /* the families a stream runs a scenario of now; shared as state is */
	unsigned streams; /* as jobs_streams last said (1 before) */
	struct cli_pred *pred; /* per scenario: what the model predicts of it (its kind's ground), set by the caller */
};

enum { JOBS_FREE, JOBS_TAKEN, JOBS_DONE, JOBS_AGAIN };

/*
 * A board of n scenarios, every one JOBS_NONE, of no family and free; its
 * states and held families in memory the processes forked after this share.
 * 0 or -errno.
 */
int jobs_board_init(struct jobs_board *b, size_t n);
void jobs_board_free(struct jobs_board *b);

/*
 * How many streams to run for streams wanted: 1 when fewer than two
 * scenarios may go in a stream. Kept in b->streams (jobs_take asks it).
 */
unsigned jobs_streams(struct jobs_board *b, unsigned wanted);

/*
 * The next scenario stream s (0..; JOBS_STREAM_ALONE: the crash-predicted
 * phase) may run, claimed as taken: a JOBS_LEAD one first (stream 0 takes
 * them there only when it is the one stream), and in the alone phase
 * every one handed back first (jobs_again), then the JOBS_WARN ones, then
 * the crash-predicted ones from *cursor on (a panic then ends none of the
 * others, and the outer run sees only the scenario that killed the guest
 * begun and not ended); else the first from *cursor on (start it at 0)
 * whose families (b->fams) no other stream holds, its families then held
 * until jobs_done or jobs_again; b->n when none is left. The cursor stays
 * at the first one passed by for its families: the stream holding them
 * runs it next, or this one when they are let go first.
 */
size_t jobs_take(struct jobs_board *b, unsigned s, size_t *cursor);

/* Scenario i has its result; its families are let go. */
void jobs_done(struct jobs_board *b, size_t i);

/*
 * Scenario i, taken, is to run again alone (above): JOBS_STREAM_ALONE takes it
 * next, whatever its kind; its families are let go.
 */
void jobs_again(struct jobs_board *b, size_t i);

/*
 * The forked streams have ended (or died): no family is held any more, and
 * stream 0 is the one stream (it takes what a dead stream's families kept
 * from it, and the JOBS_LEAD ones).
 */
void jobs_streams_ended(struct jobs_board *b);

/* Stream s's records file: records itself for stream 0, else "records.S". 0 or -ENAMETOOLONG. */
int jobs_records_path(const char *records, unsigned s, char *out, size_t len);

#endif

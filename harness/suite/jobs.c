/* jobs.c — scenarios in parallel streams of the inner runner (jobs.h). */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include "harness/suite/jobs.h"
#include "harness/lang/scn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

enum jobs_kind jobs_kind_of(const struct scn_file *f, const struct cli_pred *p, int allow_crash)
{
	if (!f)
		return JOBS_NONE;
	if (allow_crash && p->crash_si >= 0)
		return JOBS_ALONE;
	for (size_t i = 0; i < f->nsteps; i++) {
		const struct scn_call *c = scn_call_get(f->steps[i].call);

		if (c && c->api != M_FAM_VERBS && c->api != M_FAM_MEM)
			return JOBS_FIRST;
	}
	return p->slow_ms ? JOBS_LEAD : p->warns ? JOBS_WARN : JOBS_ANY;
}

uint32_t jobs_families(const struct scn_file *f)
{
	uint32_t fams = 0;

	for (size_t i = 0; f && i < f->nsteps; i++) {
		const struct scn_call *c = scn_call_get(f->steps[i].call);

		if (c && c->api != M_FAM_VERBS && c->api != M_FAM_MEM && c->api < 32)
			fams |= 1u << c->api;
	}
	return fams;
}

/* Where the held families begin in the shared map of a board of n (after the states, aligned). */
static size_t held_at(size_t n)
{
	return ((n ? n : 1) + sizeof(uint32_t) - 1) / sizeof(uint32_t) * sizeof(uint32_t);
}

int jobs_board_init(struct jobs_board *b, size_t n)
{
	size_t len = n ? n : 1;
	uint8_t *st = mmap(NULL, held_at(n) + sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			   -1, 0);

	b->n = n;
	b->streams = 1;
	b->kind = calloc(len, 1);
	b->pred = calloc(len, sizeof(*b->pred));
	b->fams = calloc(len, sizeof(*b->fams));
	b->state = st == MAP_FAILED ? NULL : st; /* zeroed: every one JOBS_FREE, no family held */
	b->held = b->state ? (uint32_t *)(void *)(st + held_at(n)) : NULL;
	if (!b->kind || !b->pred || !b->fams || !b->state) {
		jobs_board_free(b);
		return -ENOMEM;
	}
	return 0;
}

void jobs_board_free(struct jobs_board *b)
{
	free(b->kind);
	free(b->pred);
	free(b->fams);
	b->pred = NULL;
	b->fams = b->held = NULL;
	if (b->state)
		munmap(b->state, held_at(b->n) + sizeof(uint32_t));
	b->kind = b->state = NULL;
	b->n = 0;
}

unsigned jobs_streams(struct jobs_board *b, unsigned wanted)
{
	size_t shareable = 0, any = 0, lanes = 0; /* lanes: how many of the JOBS_FIRST ones may run at once */
	uint32_t fams = 0;

	for (size_t i = 0; i < b->n; i++) {
		shareable += b->kind[i] == JOBS_ANY || b->kind[i] == JOBS_LEAD || b->kind[i] == JOBS_FIRST;
		any += b->kind[i] == JOBS_ANY || b->kind[i] == JOBS_LEAD;
		if (b->kind[i] == JOBS_FIRST) {
			lanes += !b->fams[i];
			fams |= b->fams[i];
		}
	}
	lanes += (size_t)__builtin_popcount(fams);
	if (!any && shareable > lanes) /* only families: no more streams than may run at once */
		shareable = lanes;
	if (wanted < 2 || shareable < 2)
		b->streams = 1;
	else
		b->streams = wanted < shareable ? wanted : (unsigned)shareable;
	return b->streams;
}

/* Whether stream s may run a scenario of kind k. */
static int may_run(unsigned s, uint8_t k)
{
	if (s == JOBS_STREAM_ALONE)
		return k == JOBS_ALONE;
	return k == JOBS_ANY || k == JOBS_LEAD || k == JOBS_FIRST;
}

/* Hold families fams for a stream: 1, or 0 when another stream holds one of them. */
static int hold(struct jobs_board *b, uint32_t fams)
{
	uint32_t h = __atomic_load_n(b->held, __ATOMIC_ACQUIRE);

	do {
		if (h & fams)
			return 0;
	} while (fams && !__atomic_compare_exchange_n(b->held, &h, h | fams, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	return 1;
}

/* Claim the first scenario in list order of kind kind (JOBS_NONE: any) in state from: its index, or b->n. */
static size_t claim_first(struct jobs_board *b, uint8_t kind, uint8_t from)
{
	for (size_t i = 0; i < b->n; i++) {
		uint8_t st = from;

		if ((kind == JOBS_NONE || b->kind[i] == kind) &&
		    __atomic_compare_exchange_n(&b->state[i], &st, JOBS_TAKEN, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return i;
	}
	return b->n;
}

/*
 * The first scenario from *cursor on that stream s may run, free, and whose
 * families it could hold, claimed; the cursor past it, or at the first one
 * passed by for its families (jobs.h). b->n when none.
 */
static size_t take_next(struct jobs_board *b, unsigned s, size_t *cursor)
{
	size_t kept = b->n; /* the first one passed by: another stream holds its families */

	for (size_t i = *cursor; i < b->n; i++) {
		uint8_t free_ = JOBS_FREE;
		uint32_t fams = s == JOBS_STREAM_ALONE ? 0 : b->fams[i]; /* alone, no stream runs beside */

		if (!may_run(s, b->kind[i]) || __atomic_load_n(&b->state[i], __ATOMIC_ACQUIRE) != JOBS_FREE)
			continue;
		if (!hold(b, fams)) {
			kept = kept < i ? kept : i;
			continue;
		}
		if (__atomic_compare_exchange_n(&b->state[i], &free_, JOBS_TAKEN, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			*cursor = kept < i ? kept : i + 1;
			return i;
		}
		if (fams) /* another stream took it, between the load and here: not held for it */
			__atomic_fetch_and(b->held, ~fams, __ATOMIC_ACQ_REL);
	}
	*cursor = kept;
	return b->n;
}

size_t jobs_take(struct jobs_board *b, unsigned s, size_t *cursor)
{
	size_t first = b->n;

	if (s == JOBS_STREAM_ALONE) { /* handed back by a stream, then a WARN's, before any crash-predicted one: */
		first = claim_first(b, JOBS_NONE, JOBS_AGAIN); /* a panic then ends none of them */
		if (first == b->n)
			first = claim_first(b, JOBS_WARN, JOBS_FREE);
	} else if (s != 0 || b->streams <= 1) /* stream 0 ending lets the side rounds boot (inner.c): not after a wait */
		first = claim_first(b, JOBS_LEAD, JOBS_FREE);
	if (first < b->n)
		return first; /* the cursor stays: what it passed by is still to take */
	return take_next(b, s, cursor);
}

/* Let the families of scenario i go (a stream holds them while it runs it; none else runs then). */
static void let_go(struct jobs_board *b, size_t i)
{
	if (b->fams[i])
		__atomic_fetch_and(b->held, ~b->fams[i], __ATOMIC_ACQ_REL);
}

void jobs_done(struct jobs_board *b, size_t i)
{
	__atomic_store_n(&b->state[i], JOBS_DONE, __ATOMIC_RELEASE);
	let_go(b, i);
}

void jobs_again(struct jobs_board *b, size_t i)
{
	__atomic_store_n(&b->state[i], JOBS_AGAIN, __ATOMIC_RELEASE);
	let_go(b, i);
}

void jobs_streams_ended(struct jobs_board *b)
{
	__atomic_store_n(b->held, 0, __ATOMIC_RELEASE);
	b->streams = 1;
}

int jobs_records_path(const char *records, unsigned s, char *out, size_t len)
{
	int w = s ? snprintf(out, len, "%s.%u", records, s) : snprintf(out, len, "%s", records);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

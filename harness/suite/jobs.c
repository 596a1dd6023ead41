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

int jobs_board_init(struct jobs_board *b, size_t n)
{
	size_t len = n ? n : 1;
	void *st = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	b->n = n;
	b->streams = 1;
	b->kind = calloc(len, 1);
	b->pred = calloc(len, sizeof(*b->pred));
	b->state = st == MAP_FAILED ? NULL : st; /* zeroed: every one JOBS_FREE */
	if (!b->kind || !b->pred || !b->state) {
		jobs_board_free(b);
		return -ENOMEM;
	}
	return 0;
}

void jobs_board_free(struct jobs_board *b)
{
	free(b->kind);
	free(b->pred);
	b->pred = NULL;
	if (b->state)
		munmap(b->state, b->n ? b->n : 1);
	b->kind = b->state = NULL;
	b->n = 0;
}

unsigned jobs_streams(struct jobs_board *b, unsigned wanted)
{
	size_t shareable = 0, any = 0;

	for (size_t i = 0; i < b->n; i++) {
		shareable += b->kind[i] == JOBS_ANY || b->kind[i] == JOBS_LEAD || b->kind[i] == JOBS_FIRST;
		any += b->kind[i] == JOBS_ANY || b->kind[i] == JOBS_LEAD;
	}
	if (wanted < 2 || shareable < 2 || !any)
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
	return k == JOBS_ANY || k == JOBS_LEAD || (k == JOBS_FIRST && s == 0);
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

size_t jobs_take(struct jobs_board *b, unsigned s, size_t *cursor)
{
	size_t first = b->n;

	if (s == JOBS_STREAM_ALONE) { /* handed back by a stream, then a WARN's, before any crash-predicted one: */
		first = claim_first(b, JOBS_NONE, JOBS_AGAIN); /* a panic then ends none of them */
		if (first == b->n)
			first = claim_first(b, JOBS_WARN, JOBS_FREE);
	} else if (s != 0 || b->streams <= 1) /* stream 0 has the JOBS_FIRST ones */
		first = claim_first(b, JOBS_LEAD, JOBS_FREE);
	if (first < b->n)
		return first; /* the cursor stays: what it passed by is still to take */
	for (size_t i = *cursor; i < b->n; i++) {
		uint8_t free_ = JOBS_FREE;

		if (may_run(s, b->kind[i]) && __atomic_compare_exchange_n(&b->state[i], &free_, JOBS_TAKEN, 0,
									  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			*cursor = i + 1;
			return i;
		}
	}
	*cursor = b->n;
	return b->n;
}

void jobs_done(struct jobs_board *b, size_t i)
{
	__atomic_store_n(&b->state[i], JOBS_DONE, __ATOMIC_RELEASE);
}

void jobs_again(struct jobs_board *b, size_t i)
{
	__atomic_store_n(&b->state[i], JOBS_AGAIN, __ATOMIC_RELEASE);
}

int jobs_records_path(const char *records, unsigned s, char *out, size_t len)
{
	int w = s ? snprintf(out, len, "%s.%u", records, s) : snprintf(out, len, "%s", records);

	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

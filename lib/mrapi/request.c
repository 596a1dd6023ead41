/*
 * request.c — requests (spec 3.9): how a transfer moves (batches of RDMA
 * READ / WRITE through the attachment's bounce buffer, one work request per
 * stride or per bounce-sized piece of one), and mrapi_test / mrapi_wait /
 * mrapi_wait_any / mrapi_cancel.
 *
 * The whole transfer is num_strides * bytes_per_access bytes, numbered in
 * order; a batch is the next run of them that fits the bounce buffer and
 * BATCH_WR work requests. A write copies the batch into the bounce buffer
 * before posting it; a read copies it out when the batch's last (signaled)
 * work request completes.
 */
#define _DEFAULT_SOURCE
#include "lib/mrapi/request.h"

#include <string.h>
#include <time.h>

#define RETURN_VALUE_INVALID 0xffffffffu
/* A request's value (32 bits, the reference's mrapi_request_t): node magic << 16 | gen << 4 | slot. */
#define RQ_SLOT_BITS 4u
#define RQ_GEN_MASK 0xfffu
_Static_assert(MRAPI_MAX_REQUESTS <= 1u << RQ_SLOT_BITS, "slot fits its bits");

/* Local offset of byte b of the whole transfer. */
static uint64_t local_off(const struct request *r, uint64_t b)
{
	return (uint64_t)r->local_offset + (b / r->bytes) * r->local_stride + b % r->bytes;
}

/* The pieces of the batch starting at byte from; *total its bytes. */
static unsigned plan(const struct request *r, const struct handle *x, uint64_t from, struct tp_piece *p,
		     uint32_t *total)
{
	uint64_t all = (uint64_t)r->bytes * r->nstrides;
	uint32_t used = 0;
	unsigned n = 0;

	while (from < all && n < BATCH_WR && used < BOUNCE_SIZE) {
		uint64_t i = from / r->bytes, within = from % r->bytes;
		uint64_t len = r->bytes - within;

		if (len > BOUNCE_SIZE - used)
			len = BOUNCE_SIZE - used;
		p[n++] = (struct tp_piece){ .loff = used, .len = (uint32_t)len,
					    .raddr = x->addr + r->rmem_offset + i * r->rmem_stride + within };
		used += (uint32_t)len;
		from += len;
	}
	*total = used;
	return n;
}

/* Copy the batch from byte from between the caller's buffer and the bounce buffer. */
static void copy_batch(const struct request *r, const struct handle *x, uint64_t from, int to_bounce)
{
	struct tp_piece p[BATCH_WR];
	uint32_t total;
	unsigned n = plan(r, x, from, p, &total);
	uint8_t *bounce = tp_bounce(x->conn);

	for (unsigned i = 0; i < n; i++) {
		uint64_t l = local_off(r, from);

		if (to_bounce)
			memcpy(bounce + p[i].loff, r->wsrc + l, p[i].len);
		else
			memcpy(r->local + l, bounce + p[i].loff, p[i].len);
		from += p[i].len;
	}
}

static void finish(struct request *r, mrapi_status_t st)
{
	r->done = 1;
	r->posted = 0;
	r->status = st;
	lib_state.h[r->h].busy = 0;
}

/* The connection failed: the owner withdrew the buffer or went away. */
static int failed(struct request *r, struct handle *x)
{
	x->dead = 1;
	finish(r, MRAPI_ERR_RMEM_INVALID);
	return 1;
}

int rq_progress(struct request *r, int blocking)
{
	struct handle *x = &lib_state.h[r->h];
	uint64_t all = (uint64_t)r->bytes * r->nstrides;

	while (!r->done) {
		struct tp_piece p[BATCH_WR];
		uint32_t total;
		unsigned n;

		if (r->posted) {
			int rc = tp_poll(x->conn);

			if (rc == 0) {
				if (!blocking)
					return 0;
				continue;
			}
			if (rc < 0)
				return failed(r, x);
			if (!r->write)
				copy_batch(r, x, r->inflight_from, 0);
			r->posted = 0;
			r->next = r->inflight_from + r->inflight;
		}
		if (r->next >= all || r->canceled) {
			finish(r, MRAPI_SUCCESS);
			break;
		}
		n = plan(r, x, r->next, p, &total);
		if (r->write)
			copy_batch(r, x, r->next, 1);
		if (tp_post(x->conn, r->write, p, n, x->rkey))
			return failed(r, x);
		r->posted = 1;
		r->inflight_from = r->next;
		r->inflight = total;
	}
	return 1;
}

void rq_abort_handle(int h, mrapi_status_t st)
{
	for (unsigned i = 0; i < MRAPI_MAX_REQUESTS; i++) {
		struct request *r = &lib_state.rq[i];

		if (r->live && r->h == h && !r->done)
			finish(r, st);
	}
	lib_state.h[h].busy = 0;
}

mrapi_request_t rq_value(int slot)
{
	return lib_state.magic << 16 | (lib_state.rq[slot].gen & RQ_GEN_MASK) << RQ_SLOT_BITS | (uint32_t)slot;
}

/* The live request slot of v, or -1. */
static int rq_find(mrapi_request_t v)
{
	uint32_t slot = v & ((1u << RQ_SLOT_BITS) - 1);

	if (v >> 16 != lib_state.magic || slot >= MRAPI_MAX_REQUESTS || !lib_state.rq[slot].live ||
	    (lib_state.rq[slot].gen & RQ_GEN_MASK) != (v >> RQ_SLOT_BITS & RQ_GEN_MASK))
		return -1;
	return (int)slot;
}

/* Report a done request and end it. */
static mrapi_boolean_t report(struct request *r, size_t *size, mrapi_status_t *status)
{
	*status = r->canceled ? MRAPI_ERR_REQUEST_CANCELED : r->status;
	if (size)
		*size = (size_t)r->next;
	r->live = 0;
	return MRAPI_TRUE;
}

mrapi_boolean_t mrapi_test(const mrapi_request_t *request, size_t *size, mrapi_status_t *status)
{
	mrapi_boolean_t done = MRAPI_FALSE;
	int s;

	if (!lib_enter(status))
		return MRAPI_FALSE;
	if (!request)
		*status = MRAPI_ERR_PARAMETER;
	else if ((s = rq_find(*request)) < 0)
		*status = MRAPI_ERR_REQUEST_INVALID;
	else if (lib_state.rq[s].canceled || rq_progress(&lib_state.rq[s], 0))
		done = report(&lib_state.rq[s], size, status);
	else
		*status = MRAPI_INCOMPLETE;
	lib_leave();
	return done;
}

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int expired(int64_t start, mrapi_timeout_t timeout)
{
	return timeout != (mrapi_timeout_t)MRAPI_TIMEOUT_INFINITE && now_ms() - start >= (int64_t)timeout;
}

mrapi_boolean_t mrapi_wait(const mrapi_request_t *request, size_t *size, mrapi_timeout_t timeout, mrapi_status_t *status)
{
	mrapi_boolean_t done = MRAPI_FALSE;
	int64_t start = now_ms();
	int s;

	if (!lib_enter(status))
		return MRAPI_FALSE;
	if (!request) {
		*status = MRAPI_ERR_PARAMETER;
	} else if ((s = rq_find(*request)) < 0) {
		*status = MRAPI_ERR_REQUEST_INVALID;
	} else {
		struct request *r = &lib_state.rq[s];

		while (!r->canceled && !rq_progress(r, 0) && !expired(start, timeout))
			;
		if (r->canceled || r->done)
			done = report(r, size, status);
		else
			*status = MRAPI_TIMEOUT;
	}
	lib_leave();
	return done;
}

/*
 * As the reference implementation (ke4harper/MxAPI mca-2.0.3, mrapi_vtime.c
 * mrapi_wait_any): an entry that is no request of this node is passed over and
 * the first request found complete is reported (its tests/rmem1.c passes an
 * array of one request and nine others); only when none can complete is the
 * answer MRAPI_ERR_REQUEST_INVALID (every entry invalid, or the wait timed out
 * with an invalid entry in the array). The spec's text allows both readings
 * (RMEM-RW-5: the model's set has either).
 */
mrapi_uint_t mrapi_wait_any(const size_t number, const mrapi_request_t *requests, size_t *size, mrapi_timeout_t timeout,
			    mrapi_status_t *status)
{
	int64_t start = now_ms();
	mrapi_uint_t idx = RETURN_VALUE_INVALID;
	int valid = 0, invalid = 0;

	if (!lib_enter(status))
		return idx;
	if (!requests || number == 0) {
		*status = MRAPI_ERR_PARAMETER;
		goto out;
	}
	for (size_t i = 0; i < number; i++) {
		valid += rq_find(requests[i]) >= 0;
		invalid += rq_find(requests[i]) < 0;
	}
	if (!valid) {
		*status = MRAPI_ERR_REQUEST_INVALID;
		goto out;
	}
	do {
		for (size_t i = 0; i < number; i++) {
			int s = rq_find(requests[i]);
			struct request *r = s >= 0 ? &lib_state.rq[s] : NULL;

			if (r && (r->canceled || rq_progress(r, 0))) {
				report(r, size, status);
				idx = (mrapi_uint_t)i;
				goto out;
			}
		}
	} while (!expired(start, timeout));
	*status = invalid ? MRAPI_ERR_REQUEST_INVALID : MRAPI_TIMEOUT;
out:
	lib_leave();
	return idx;
}

void mrapi_cancel(const mrapi_request_t *request, mrapi_status_t *status)
{
	int s;

	if (!lib_enter(status))
		return;
	if (!request) {
		*status = MRAPI_ERR_PARAMETER;
	} else if ((s = rq_find(*request)) < 0) {
		*status = MRAPI_ERR_REQUEST_INVALID;
	} else if (lib_state.rq[s].canceled) {
		*status = MRAPI_ERR_REQUEST_CANCELED;
	} else {
		struct request *r = &lib_state.rq[s];

		/* the batch under way finishes (its DMA cannot be recalled); no further batch starts */
		r->canceled = 1;
		rq_progress(r, 1);
		*status = MRAPI_SUCCESS;
	}
	lib_leave();
}

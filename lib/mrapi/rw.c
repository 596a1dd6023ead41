/*
 * rw.c — mrapi_rmem_read / write and their _i forms: the argument checks
 * (RMEM-RW-1/3), then the transfer. The owner of a buffer copies with its
 * own pointer (RMEM-COH-1); every other node goes through a request (see
 * request.c) that moves the strides with RDMA READ / WRITE, a blocking call
 * being a request driven to its end at once.
 */
#include "lib/mrapi/rmem.h"
#include "model/mrapi/mrapi.h" /* m_mrapi_last_byte: the bounds arithmetic the model uses */

#include <string.h>

struct rw_args {
	int write;
	int sized;  /* read: local_size is the local buffer's size (the _sized forms) */
	uint32_t rmem_offset, local_offset, local_size, bytes, nstrides, rmem_stride, local_stride;
	void *local;
	const void *wsrc;
};

/*
 * RMEM-RW-1/3/4 on handle h. A stride below bytes_per_access is
 * MRAPI_ERR_RMEM_STRIDE whatever num_strides is, as the reference
 * implementation answers (ke4harper/MxAPI mca-2.0.3, mrapi_rmem.c
 * mrapi_rmem_read/write: the check does not look at num_strides; its
 * tests/rmem1.c expects it with one stride). The spec's text names the error
 * for num_strides > 1 only: a deviation declared in the rxe profile.
 */
static mrapi_status_t rw_arg_checks(int h, const struct rw_args *a)
{
	const struct handle *x = &lib_state.h[h];

	if (a->rmem_stride < a->bytes || a->local_stride < a->bytes)
		return MRAPI_ERR_RMEM_STRIDE;
	if (!x->attached)
		return MRAPI_ERR_RMEM_NOTATTACHED;
	if ((a->write ? !a->wsrc : !a->local) || a->bytes == 0 || (a->sized && a->local_size == 0))
		return MRAPI_ERR_PARAMETER;
	if (a->nstrides && m_mrapi_last_byte(a->rmem_offset, a->bytes, a->nstrides, a->rmem_stride) >= x->size)
		return MRAPI_ERR_RMEM_BUFF_OVERRUN;
	if (a->sized && a->nstrides &&
	    m_mrapi_last_byte(a->local_offset, a->bytes, a->nstrides, a->local_stride) >= a->local_size)
		return MRAPI_ERR_RMEM_BUFF_OVERRUN;
	if (x->busy)
		return MRAPI_ERR_RMEM_BLOCKED;
	return MRAPI_SUCCESS;
}

/*
 * The handle first, as the reference checks it (mrapi_impl_valid_rmem_hndl
 * before the stride and the attachment): a call one of whose checks fails
 * on a buffer deleted, or whose creator finalized, is RMEM_INVALID
 * (RMEM-DELETE-2, RMEM-NODE-1). Only a failing call asks the directory: one
 * that passes finds it out from its transfer, which fails (request.c).
 */
static mrapi_status_t rw_checks(int h, const struct rw_args *a)
{
	mrapi_status_t st = rw_arg_checks(h, a);

	return st != MRAPI_SUCCESS && h_withdrawn(h) ? MRAPI_ERR_RMEM_INVALID : st;
}

/* The owner's own copy (RMEM-RW-2 with local pointers). */
static void own_copy(const struct handle *x, const struct rw_args *a)
{
	uint8_t *base = (uint8_t *)(uintptr_t)x->addr;

	for (uint32_t i = 0; i < a->nstrides; i++) {
		uint64_t r = (uint64_t)a->rmem_offset + (uint64_t)i * a->rmem_stride;
		uint64_t l = (uint64_t)a->local_offset + (uint64_t)i * a->local_stride;

		if (a->write)
			memmove(base + r, (const uint8_t *)a->wsrc + l, a->bytes);
		else
			memmove((uint8_t *)a->local + l, base + r, a->bytes);
	}
}

static void rq_fill(struct request *r, int h, const struct rw_args *a)
{
	memset(r, 0, sizeof(*r));
	r->h = h;
	r->write = a->write;
	r->local = a->local;
	r->wsrc = a->wsrc;
	r->rmem_offset = a->rmem_offset;
	r->local_offset = a->local_offset;
	r->bytes = a->bytes;
	r->nstrides = a->nstrides;
	r->rmem_stride = a->rmem_stride;
	r->local_stride = a->local_stride;
}

/* A free request slot (this node has at most MRAPI_MAX_REQUESTS outstanding), or -1. */
static int rq_alloc(void)
{
	for (unsigned i = 0; i < MRAPI_MAX_REQUESTS; i++)
		if (!lib_state.rq[i].live)
			return (int)i;
	return -1;
}

/* One read or write; is_i: the _i form, with its request pointer. */
static void rw_call(mrapi_rmem_hndl_t rmem, const struct rw_args *a, int is_i, mrapi_request_t *request,
		    mrapi_status_t *status, const char *call)
{
	struct request tmp, *r = &tmp;
	int h, slot = -1;

	if (!lib_enter_call(status, call))
		return;
	if (is_i && !request) {
		*status = MRAPI_ERR_PARAMETER;
		goto out;
	}
	h = h_find(rmem);
	if (h < 0 || lib_state.h[h].dead) {
		*status = MRAPI_ERR_RMEM_INVALID;
		goto out;
	}
	if ((*status = rw_checks(h, a)) != MRAPI_SUCCESS)
		goto out;
	if (request && (slot = rq_alloc()) < 0) {
		*status = MRAPI_ERR_REQUEST_LIMIT;
		goto out;
	}
	if (request)
		r = &lib_state.rq[slot];
	rq_fill(r, h, a);
	if (lib_state.h[h].kind == H_OWN) {
		own_copy(&lib_state.h[h], a);
		r->done = 1;
		r->next = (uint64_t)a->bytes * a->nstrides;
	} else {
		lib_state.h[h].busy = 1;
		rq_progress(r, !request);
	}
	if (request) {
		r->live = 1;
		r->gen = ++lib_state.next_gen;
		*request = rq_value(slot);
		*status = MRAPI_SUCCESS;
	} else {
		*status = r->status;
	}
out:
	lib_leave();
}

void mrapi_rmem_read(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
		     mrapi_uint32_t local_offset, mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides,
		     mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride, mrapi_status_t *status)
{
	struct rw_args a = { 0, 0, rmem_offset, local_offset, 0, bytes_per_access, num_strides,
			     rmem_stride, local_stride, local_buf, NULL };

	rw_call(rmem, &a, 0, NULL, status, __func__);
}

void mrapi_rmem_read_i(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
		       mrapi_uint32_t local_offset, mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides,
		       mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride, mrapi_request_t *request,
		       mrapi_status_t *status)
{
	struct rw_args a = { 0, 0, rmem_offset, local_offset, 0, bytes_per_access, num_strides,
			     rmem_stride, local_stride, local_buf, NULL };

	rw_call(rmem, &a, 1, request, status, __func__);
}

void mrapi_rmem_read_sized(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
			   mrapi_uint32_t local_offset, mrapi_uint32_t local_buf_size,
			   mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides, mrapi_uint32_t rmem_stride,
			   mrapi_uint32_t local_stride, mrapi_status_t *status)
{
	struct rw_args a = { 0, 1, rmem_offset, local_offset, local_buf_size, bytes_per_access, num_strides,
			     rmem_stride, local_stride, local_buf, NULL };

	rw_call(rmem, &a, 0, NULL, status, __func__);
}

void mrapi_rmem_read_i_sized(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
			     mrapi_uint32_t local_offset, mrapi_uint32_t local_buf_size,
			     mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides, mrapi_uint32_t rmem_stride,
			     mrapi_uint32_t local_stride, mrapi_request_t *request, mrapi_status_t *status)
{
	struct rw_args a = { 0, 1, rmem_offset, local_offset, local_buf_size, bytes_per_access, num_strides,
			     rmem_stride, local_stride, local_buf, NULL };

	rw_call(rmem, &a, 1, request, status, __func__);
}

void mrapi_rmem_write(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, const void *local_buf,
		      mrapi_uint32_t local_offset, mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides,
		      mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride, mrapi_status_t *status)
{
	struct rw_args a = { 1, 0, rmem_offset, local_offset, 0, bytes_per_access, num_strides, rmem_stride,
			     local_stride, NULL, local_buf };

	rw_call(rmem, &a, 0, NULL, status, __func__);
}

void mrapi_rmem_write_i(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, const void *local_buf,
			mrapi_uint32_t local_offset, mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides,
			mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride, mrapi_request_t *request,
			mrapi_status_t *status)
{
	struct rw_args a = { 1, 0, rmem_offset, local_offset, 0, bytes_per_access, num_strides, rmem_stride,
			     local_stride, NULL, local_buf };

	rw_call(rmem, &a, 1, request, status, __func__);
}

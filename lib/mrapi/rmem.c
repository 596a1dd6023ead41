/*
 * rmem.c — rmem handles and their life: create, get, attach, detach, delete,
 * flush and sync, and mrapi_finalize (the node's handles withdrawn). The directory decides what is domain-wide (ids, owners,
 * attach counts); this file keeps the node's handles and its RDMA pieces.
 *
 * A handle's value (32 bits, the reference's mrapi_rmem_hndl_t) is
 * magic << 16 | slot_gen << 6 | slot: magic is fresh per node and differs
 * from every other live node's of the process, so another node's handle (or
 * garbage, or 0) is not found, and slot_gen changes when a slot is reused,
 * so a deleted handle stays dead.
 */
#include "lib/mrapi/rmem.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define FLAG_SHARED 1u
#define FLAG_ERROR_EXT 2u

#define H_SLOT_BITS 6u  /* LIB_MAX_HANDLES */
#define H_GEN_MASK 0x3ffu
_Static_assert(LIB_MAX_HANDLES <= 1 << H_SLOT_BITS, "slot fits its bits");

int h_find(mrapi_rmem_hndl_t v)
{
	uint32_t slot = v & ((1u << H_SLOT_BITS) - 1), sgen = v >> H_SLOT_BITS & H_GEN_MASK;

	if (v >> 16 != lib_state.magic || slot >= LIB_MAX_HANDLES)
		return -1;
	if (lib_state.h[slot].kind == H_FREE || (lib_state.h[slot].slot_gen & H_GEN_MASK) != sgen)
		return -1;
	return (int)slot;
}

mrapi_rmem_hndl_t h_value(int slot)
{
	return lib_state.magic << 16 | (lib_state.h[slot].slot_gen & H_GEN_MASK) << H_SLOT_BITS | (uint32_t)slot;
}

static int h_alloc(void)
{
	for (int s = 0; s < LIB_MAX_HANDLES; s++)
		if (lib_state.h[s].kind == H_FREE) {
			uint32_t g = lib_state.h[s].slot_gen + 1;

			memset(&lib_state.h[s], 0, sizeof(lib_state.h[s]));
			lib_state.h[s].slot_gen = g;
			return s;
		}
	return -1;
}

void h_release(int h)
{
	struct handle *x = &lib_state.h[h];

	rq_abort_handle(h, MRAPI_ERR_RMEM_INVALID);
	tp_disconnect(x->conn);
	x->conn = NULL;
	tp_dereg(x->mr);
	x->mr = NULL;
	x->kind = H_FREE;
	x->slot_gen++;
}

/* The handle this node already has for (id, gen), or -1. */
static int h_by_identity(uint32_t id, uint32_t gen)
{
	for (int s = 0; s < LIB_MAX_HANDLES; s++)
		if (lib_state.h[s].kind != H_FREE && lib_state.h[s].id == id && lib_state.h[s].gen == gen)
			return s;
	return -1;
}

/* A directory reply that is not a status (the directory is unreachable) as a status. */
static mrapi_status_t dir_failure(int rc)
{
	return rc < 0 ? MRAPI_TIMEOUT : rc;
}

static int atype_supported(uint32_t t)
{
	return t == MRAPI_RMEM_DEFAULT || t == MRAPI_RMEM_DMA;
}

static int overlaps_own(uintptr_t mem, uint64_t size)
{
	for (int s = 0; s < LIB_MAX_HANDLES; s++) {
		const struct handle *x = &lib_state.h[s];

		if (x->kind == H_OWN && !x->dead && mem < x->addr + x->size && x->addr < mem + size)
			return 1;
	}
	return 0;
}

/* The argument checks of create that need no directory (RMEM-CREATE-2/3/4/6). */
static mrapi_status_t create_checks(const void *mem, uint32_t atype, const mrapi_rmem_attributes_t *attr,
				    mrapi_uint_t size)
{
	if (!mem || size == 0 || (attr && attr->magic != ATTR_MAGIC))
		return MRAPI_ERR_PARAMETER;
	if (atype != MRAPI_RMEM_ATYPE_ANY && !atype_supported(atype))
		return MRAPI_ERR_RMEM_TYPENOTVALID;
	if (overlaps_own((uintptr_t)mem, size))
		return MRAPI_ERR_RMEM_CONFLICT;
	return MRAPI_SUCCESS;
}

/* Register mem and publish it; on success fill slot h. */
static mrapi_status_t create_publish(int h, uint32_t id, void *mem, uint32_t atype, uint32_t flags,
				     mrapi_uint_t size)
{
	struct handle *x = &lib_state.h[h];
	struct tp_node *t;
	int rc;

	if (lib_transport(&t) || tp_reg(t, mem, size, &x->mr, &x->rkey))
		return MRAPI_ERR_MEM_LIMIT; /* no RDMA device, or the memory cannot be registered */
	rc = dir_create(lib_state.dir_fd, id, atype, (int)flags, (uintptr_t)mem, size, x->rkey, tp_port(t),
			lib_state.ip, &x->id, &x->gen);
	if (rc != MRAPI_SUCCESS) {
		tp_dereg(x->mr);
		x->mr = NULL;
		return dir_failure(rc);
	}
	tp_publish(x->mr, x->id, x->gen);
	x->kind = H_OWN;
	x->atype = atype;
	x->shared = !!(flags & FLAG_SHARED);
	x->error_ext = !!(flags & FLAG_ERROR_EXT);
	x->domain = lib_state.domain;
	x->addr = (uintptr_t)mem;
	x->size = size;
	x->port = tp_port(t);
	memcpy(x->ip, lib_state.ip, sizeof(x->ip));
	return MRAPI_SUCCESS;
}

mrapi_rmem_hndl_t mrapi_rmem_create(mrapi_rmem_id_t rmem_id, const void *mem, mrapi_rmem_atype_t access_type,
				    const mrapi_rmem_attributes_t *attributes, mrapi_uint_t size,
				    mrapi_status_t *status)
{
	mrapi_rmem_hndl_t v = 0;
	uint32_t flags = FLAG_SHARED;
	int h;

	if (!lib_enter(status))
		return 0;
	if ((*status = create_checks(mem, (uint32_t)access_type, attributes, size)) != MRAPI_SUCCESS)
		goto out;
	if (attributes)
		flags = (attributes->domain_shared ? FLAG_SHARED : 0) | (attributes->error_ext ? FLAG_ERROR_EXT : 0);
	if ((h = h_alloc()) < 0) {
		*status = MRAPI_ERR_MEM_LIMIT;
		goto out;
	}
	/* the memory is the caller's to offer for remote writes: the reference takes it as const too */
	*status = create_publish(h, (uint32_t)rmem_id, (void *)(uintptr_t)mem, (uint32_t)access_type, flags, size);
	if (*status == MRAPI_SUCCESS)
		v = h_value(h);
out:
	lib_leave();
	return v;
}

mrapi_rmem_hndl_t mrapi_rmem_get(mrapi_rmem_id_t rmem_id, mrapi_rmem_atype_t access_type, mrapi_status_t *status)
{
	struct dir_seg d;
	mrapi_rmem_hndl_t v = 0;
	int h, rc;

	if (!lib_enter(status))
		return 0;
	if ((uint32_t)rmem_id == MRAPI_RMEM_ID_ANY) {
		*status = MRAPI_ERR_RMEM_ID_INVALID;
		goto out;
	}
	if (!atype_supported((uint32_t)access_type)) {
		/* the reference's name (the spec's text names ATYPE_INVALID: catalog RMEM-GET-1 takes any) */
		*status = MRAPI_ERR_RMEM_TYPENOTVALID;
		goto out;
	}
	if ((rc = dir_get(lib_state.dir_fd, (uint32_t)rmem_id, &d)) != MRAPI_SUCCESS) {
		*status = dir_failure(rc);
		goto out;
	}
	if (d.atype != MRAPI_RMEM_ATYPE_ANY && d.atype != (uint32_t)access_type)
		*status = MRAPI_ERR_RMEM_ATYPE;
	else if (!(d.shared & FLAG_SHARED) && d.domain != lib_state.domain)
		*status = MRAPI_ERR_DOMAIN_NOTSHARED;
	else if ((h = h_by_identity(d.id, d.gen)) >= 0)
		*status = MRAPI_SUCCESS;
	else if ((h = h_alloc()) < 0)
		*status = MRAPI_ERR_MEM_LIMIT;
	else {
		struct handle *x = &lib_state.h[h];

		x->kind = H_REMOTE;
		x->id = d.id;
		x->gen = d.gen;
		x->atype = d.atype;
		x->shared = !!(d.shared & FLAG_SHARED);
		x->error_ext = !!(d.shared & FLAG_ERROR_EXT);
		x->domain = d.domain;
		x->addr = d.addr;
		x->size = d.size;
		x->rkey = d.rkey;
		x->port = d.port;
		memcpy(x->ip, d.ip, sizeof(x->ip));
		*status = MRAPI_SUCCESS;
	}
	if (*status == MRAPI_SUCCESS)
		v = h_value(h);
out:
	lib_leave();
	return v;
}

int h_withdrawn(int h)
{
	struct handle *x = &lib_state.h[h];
	struct dir_seg d;
	int rc;

	if (x->dead || x->kind != H_REMOTE)
		return x->dead;
	rc = dir_get(lib_state.dir_fd, x->id, &d);
	if (rc == MRAPI_ERR_RMEM_ID_INVALID || (rc == MRAPI_SUCCESS && d.gen != x->gen))
		x->dead = 1;
	return x->dead;
}

/* The live handle slot of v, or -1 with *status = RMEM_INVALID. */
static int live_handle(mrapi_rmem_hndl_t v, mrapi_status_t *status)
{
	int h = h_find(v);

	if (h < 0 || lib_state.h[h].dead) {
		*status = MRAPI_ERR_RMEM_INVALID;
		return -1;
	}
	return h;
}

/* Connect an attachment of a remote buffer; the directory has counted it already. */
static mrapi_status_t attach_connect(struct handle *x)
{
	struct tp_node *t;

	if (x->kind == H_OWN)
		return MRAPI_SUCCESS; /* the owner reaches its buffer through its own pointer */
	if (lib_transport(&t) || tp_connect(t, x->ip, x->port, x->id, x->gen, x->rkey, &x->conn))
		return MRAPI_ERR_RMEM_INVALID; /* the owner cannot be reached */
	return MRAPI_SUCCESS;
}

void mrapi_rmem_attach(mrapi_rmem_hndl_t rmem, mrapi_rmem_atype_t access_type, mrapi_status_t *status)
{
	struct handle *x;
	int h, rc;

	(void)access_type; /* as the reference: the handle's type is create's or get's */
	if (!lib_enter(status))
		return;
	if ((h = live_handle(rmem, status)) < 0)
		goto out;
	x = &lib_state.h[h];
	/*
	 * The directory first, attached or not: it answers INVALID for a buffer
	 * deleted or whose creator finalized, before ATTACHED (the reference's
	 * order: mrapi_impl_valid_rmem_hndl, then the attachment; RMEM-NODE-1,
	 * RMEM-DELETE-2). This node's own flag would answer ATTACHED for both.
	 */
	rc = dir_op(lib_state.dir_fd, "ATTACH", x->id, x->gen);
	if (rc != MRAPI_SUCCESS) {
		x->dead = rc == MRAPI_ERR_RMEM_INVALID;
		*status = dir_failure(rc);
		goto out;
	}
	if ((*status = attach_connect(x)) != MRAPI_SUCCESS) {
		(void)dir_op(lib_state.dir_fd, "DETACH", x->id, x->gen);
		goto out;
	}
	x->attached = 1;
out:
	lib_leave();
}

void mrapi_rmem_detach(mrapi_rmem_hndl_t rmem, mrapi_status_t *status)
{
	struct handle *x;
	int h, rc;

	if (!lib_enter(status))
		return;
	/* an attachment whose transfers failed (the buffer deleted under it, or its owner gone) is
	 * still ours to end: the directory says which (OK, or INVALID when the owner left) */
	h = h_find(rmem);
	if (h < 0 || (lib_state.h[h].dead && !lib_state.h[h].attached)) {
		*status = MRAPI_ERR_RMEM_INVALID;
		goto out;
	}
	x = &lib_state.h[h];
	if (!x->attached) {
		*status = h_withdrawn(h) ? MRAPI_ERR_RMEM_INVALID : MRAPI_ERR_RMEM_NOTATTACHED;
		goto out;
	}
	/* the directory first: the owner may delete the buffer as soon as it has counted us out */
	rq_abort_handle(h, MRAPI_ERR_RMEM_NOTATTACHED);
	rc = dir_op(lib_state.dir_fd, "DETACH", x->id, x->gen);
	tp_disconnect(x->conn);
	x->conn = NULL;
	x->attached = 0;
	x->dead = rc == MRAPI_ERR_RMEM_INVALID;
	*status = dir_failure(rc);
out:
	lib_leave();
}

void mrapi_rmem_delete(mrapi_rmem_hndl_t rmem, mrapi_status_t *status)
{
	int h, rc;

	if (!lib_enter(status))
		return;
	if ((h = live_handle(rmem, status)) < 0)
		goto out;
	rc = dir_op(lib_state.dir_fd, "DELETE", lib_state.h[h].id, lib_state.h[h].gen);
	if (rc == MRAPI_SUCCESS || rc == MRAPI_ERR_RMEM_INVALID)
		h_release(h); /* demoted: the memory stays the caller's, unregistered */
	*status = dir_failure(rc);
out:
	lib_leave();
}

/* flush and sync: a completed RDMA WRITE is in the owner's memory, a READ fetches it: nothing to do. */
static void sync_call(mrapi_rmem_hndl_t rmem, mrapi_status_t *status, const char *call)
{
	int h;

	if (!lib_enter_call(status, call))
		return;
	if ((h = live_handle(rmem, status)) >= 0)
		*status = h_withdrawn(h)            ? MRAPI_ERR_RMEM_INVALID
			  : lib_state.h[h].attached ? MRAPI_SUCCESS
						    : MRAPI_ERR_RMEM_NOTATTACHED;
	lib_leave();
}

void mrapi_rmem_flush(mrapi_rmem_hndl_t rmem, mrapi_status_t *status)
{
	sync_call(rmem, status, __func__);
}

void mrapi_rmem_synch(mrapi_rmem_hndl_t rmem, mrapi_status_t *status)
{
	sync_call(rmem, status, __func__);
}

void mrapi_rmem_sync(mrapi_rmem_hndl_t rmem, mrapi_status_t *status)
{
	sync_call(rmem, status, __func__);
}

void mrapi_finalize(mrapi_status_t *status)
{
	struct lib *n;

	if (!lib_enter(status))
		return;
	n = lib_cur;
	for (unsigned r = 0; r < MRAPI_MAX_REQUESTS; r++)
		n->rq[r].live = 0;
	/* attachments first (they use the PD), then our registrations */
	for (int pass = 0; pass < 2; pass++)
		for (int h = 0; h < LIB_MAX_HANDLES; h++)
			if (n->h[h].kind == (pass ? H_OWN : H_REMOTE))
				h_release(h);
	tp_close(n->tp);
	n->tp = NULL;
	/* closing the directory connection withdraws our ids and attachments there */
	close(n->dir_fd);
	n->dir_fd = -1;
	n->init = 0;
	*status = MRAPI_SUCCESS;
	lib_leave();
	lib_node_release(n);
}

/*
 * mrapi.h — MRAPI remote memory (MRAPI API Specification V0.9.3, sections
 * 3.9 and 4.4.2) over RDMA (libibverbs + librdmacm): libmrapi-rdma.
 *
 * Nodes are processes. A node's rmem buffers are registered RDMA memory
 * regions; another node attaches by connecting an RC queue pair to the
 * owner, and reads and writes with RDMA READ / WRITE (one work request per
 * stride). Ids are domain-wide: a directory service (lib/mrapi/README.md)
 * keeps every id, owner, type and attach count, so creating an id is atomic
 * across nodes and a node that finalizes (or dies) takes its buffers with it.
 *
 * Every call reports through *status with the spec's names (MRAPI_SUCCESS or
 * an MRAPI_ERR_*); a NULL status makes the call do nothing. Handles are
 * opaque 64-bit values checked on every use: a handle of another process, a
 * deleted one or garbage gives MRAPI_ERR_RMEM_INVALID (or
 * MRAPI_ERR_REQUEST_INVALID), never a crash. The calls are thread-safe (one
 * lock per process).
 *
 * Configuration: environment variables, read by mrapi_initialize (README).
 */
#ifndef MRAPI_H
#define MRAPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t mrapi_domain_t;
typedef uint32_t mrapi_node_t;
typedef uint32_t mrapi_uint_t;
typedef uint32_t mrapi_uint32_t;
typedef uint8_t mrapi_boolean_t;
typedef uint32_t mrapi_timeout_t;
typedef uint32_t mrapi_rmem_id_t;
typedef uint64_t mrapi_rmem_hndl_t;
typedef uint64_t mrapi_request_t;
typedef int mrapi_parameters_t;

#define MRAPI_TRUE ((mrapi_boolean_t)1)
#define MRAPI_FALSE ((mrapi_boolean_t)0)
#define MRAPI_TIMEOUT_INFINITE ((mrapi_timeout_t)0xffffffffu)
#define MRAPI_TIMEOUT_IMMEDIATE ((mrapi_timeout_t)0)
#define MRAPI_RMEM_ID_ANY ((mrapi_rmem_id_t)0xffffffffu)
/* User ids are 0..MRAPI_MAX_USER_RMEM_ID; the ids above are MRAPI_RMEM_ID_ANY's (3.12.13). */
#define MRAPI_MAX_USER_RMEM_ID ((mrapi_rmem_id_t)0xffffu)
#define MRAPI_MAX_RMEMS 12u          /* live rmem buffers per domain */
#define MRAPI_MAX_REQUESTS 8u        /* outstanding requests per node */
#define MRAPI_VERSION "0.9.3-rdma"

typedef struct {
	char mrapi_version[32];
} mrapi_info_t;

/*
 * Statuses. The values are those of the rdmacheck model (model/mrapi.h,
 * enum m_mrapi_st), so a status is its model outcome code.
 */
typedef enum {
	MRAPI_SUCCESS = 0, MRAPI_TIMEOUT = 1, MRAPI_ERR_MEM_LIMIT = 2, MRAPI_ERR_NODE_NOTINIT = 3,
	MRAPI_ERR_NOT_SUPPORTED = 4, MRAPI_ERR_PARAMETER = 5, MRAPI_ERR_RMEM_ID_INVALID = 6,
	MRAPI_ERR_RMEM_ATTACH = 7, MRAPI_ERR_RMEM_ATTACHED = 8, MRAPI_ERR_RMEM_ATYPE = 9,
	MRAPI_ERR_RMEM_ATYPE_NOTVALID = 10, MRAPI_ERR_RMEM_BLOCKED = 11, MRAPI_ERR_RMEM_BUFF_OVERRUN = 12,
	MRAPI_ERR_RMEM_CONFLICT = 13, MRAPI_ERR_RMEM_EXISTS = 14, MRAPI_ERR_RMEM_INVALID = 15,
	MRAPI_ERR_RMEM_NOTATTACHED = 16, MRAPI_ERR_RMEM_NOTOWNER = 17, MRAPI_ERR_RMEM_STRIDE = 18,
	MRAPI_ERR_RMEM_TYPENOTVALID = 19, MRAPI_ERR_RMEM_ATYPE_INVALID = 20, MRAPI_ERR_DOMAIN_NOTSHARED = 21,
	MRAPI_ERR_ATTR_NUM = 22, MRAPI_ERR_ATTR_SIZE = 23, MRAPI_ERR_ATTR_READONLY = 24,
	MRAPI_ERR_REQUEST_LIMIT = 25, MRAPI_ERR_REQUEST_INVALID = 26, MRAPI_ERR_REQUEST_CANCELED = 27,
	MRAPI_INCOMPLETE = 28, MRAPI_ERR_NODE_INITIALIZED = 29, MRAPI_ERR_NODE_INITFAILED = 30,
	MRAPI_ERR_NODE_FINALFAILED = 31,
} mrapi_status_flags;
typedef int32_t mrapi_status_t;

/* Access types (3.12.12). DEFAULT and DMA are RDMA here; SWCACHE is not supported. */
typedef enum {
	MRAPI_RMEM_ATYPE_DEFAULT = 0, MRAPI_RMEM_ATYPE_DMA = 1, MRAPI_RMEM_ATYPE_SWCACHE = 2,
	MRAPI_RMEM_ATYPE_ANY = 3,
} mrapi_rmem_atype_t;

/* rmem attributes (4.4.2.3): the first two are set by the caller, the others read-only. */
typedef enum {
	MRAPI_ERROR_EXT = 1,      /* mrapi_boolean_t, default MRAPI_FALSE */
	MRAPI_DOMAIN_SHARED = 2,  /* mrapi_boolean_t, default MRAPI_TRUE */
	MRAPI_RMEM_SIZE = 3,      /* mrapi_uint_t, read-only */
	MRAPI_RMEM_ATYPE = 4,     /* mrapi_uint_t (mrapi_rmem_atype_t), read-only */
} mrapi_rmem_attr_num;

typedef struct {
	uint32_t magic;           /* set by mrapi_rmem_init_attributes */
	mrapi_boolean_t error_ext;
	mrapi_boolean_t domain_shared;
} mrapi_rmem_attributes_t;

/* The status's name ("MRAPI_ERR_RMEM_EXISTS"), copied into buf; returns buf. */
char *mrapi_display_status(mrapi_status_t status, char *buf, size_t size);

/*
 * Make this process node node_id of domain_id: reach the domain's directory
 * (starting it if this is the first node), register there. Errors:
 * MRAPI_ERR_NODE_INITIALIZED (this process, or another live node, is
 * already that node), MRAPI_ERR_NODE_INITFAILED (no directory reachable or
 * startable). mrapi_info may be NULL.
 */
void mrapi_initialize(mrapi_domain_t domain_id, mrapi_node_t node_id, mrapi_parameters_t init_parameters,
		      mrapi_info_t *mrapi_info, mrapi_status_t *status);

/*
 * Leave the domain: this node's buffers are withdrawn (the ids become free,
 * other nodes' handles to them give MRAPI_ERR_RMEM_INVALID), its attachments
 * are closed, its requests end. MRAPI_ERR_NODE_NOTINIT if not initialized.
 */
void mrapi_finalize(mrapi_status_t *status);

/*
 * Offer [mem, mem+size) of this process as rmem id (MRAPI_RMEM_ID_ANY: an
 * id of the ANY range is chosen). access_type ANY lets clients use any
 * supported type; any other supported type is strict. Errors: NODE_NOTINIT,
 * RMEM_ID_INVALID (a user id above MRAPI_MAX_USER_RMEM_ID), RMEM_EXISTS (the
 * id is live anywhere in the domain), RMEM_TYPENOTVALID, MEM_LIMIT (domain
 * full, or the memory cannot be registered), PARAMETER (mem NULL, size 0,
 * attributes not initialised), RMEM_CONFLICT (overlaps a live buffer of
 * this node). attributes NULL: the defaults. Returns the handle (0 on error).
 */
mrapi_rmem_hndl_t mrapi_rmem_create(mrapi_rmem_id_t rmem_id, void *mem, mrapi_rmem_atype_t access_type,
				    const mrapi_rmem_attributes_t *attributes, mrapi_uint_t size,
				    mrapi_status_t *status);

/* Fill *attributes with the defaults. PARAMETER if NULL; NODE_NOTINIT. */
void mrapi_rmem_init_attributes(mrapi_rmem_attributes_t *attributes, mrapi_status_t *status);

/*
 * Set one attribute in the caller's struct (never in a created buffer).
 * PARAMETER (NULL attributes or attribute), ATTR_NUM, ATTR_SIZE, ATTR_READONLY.
 */
void mrapi_rmem_set_attribute(mrapi_rmem_attributes_t *attributes, mrapi_uint_t attribute_num,
			      const void *attribute, size_t attr_size, mrapi_status_t *status);

/* Read one attribute of a buffer. NODE_NOTINIT, PARAMETER, RMEM_INVALID, ATTR_NUM, ATTR_SIZE. */
void mrapi_rmem_get_attribute(mrapi_rmem_hndl_t rmem, mrapi_uint_t attribute_num, void *attribute,
			      size_t attribute_size, mrapi_status_t *status);

/*
 * A handle to the buffer rmem_id, created on any node of the domain (or of
 * another domain, if shared). RMEM_ID_INVALID (no such id, or
 * MRAPI_RMEM_ID_ANY), RMEM_ATYPE_INVALID (ANY or unsupported type),
 * RMEM_ATYPE (a strict buffer of another type), DOMAIN_NOTSHARED.
 */
mrapi_rmem_hndl_t mrapi_rmem_get(mrapi_rmem_id_t rmem_id, mrapi_rmem_atype_t access_type, mrapi_status_t *status);

/* Connect to the owner (RMEM_INVALID, RMEM_ATTACHED if this node is attached already). */
void mrapi_rmem_attach(mrapi_rmem_hndl_t rmem, mrapi_status_t *status);

/* Disconnect (RMEM_INVALID, RMEM_NOTATTACHED). */
void mrapi_rmem_detach(mrapi_rmem_hndl_t rmem, mrapi_status_t *status);

/*
 * Withdraw the buffer (the creator only: RMEM_NOTOWNER; RMEM_ATTACH while
 * other nodes are attached). The memory stays the caller's; the handle and
 * the id stop working (the id can be created again).
 */
void mrapi_rmem_delete(mrapi_rmem_hndl_t rmem, mrapi_status_t *status);

/*
 * Copy num_strides blocks of bytes_per_access bytes: block i from rmem
 * offset rmem_offset + i*rmem_stride to local_buf + local_offset +
 * i*local_stride (read; write the other way). Errors: RMEM_INVALID (also
 * when the owner went away), RMEM_NOTATTACHED, PARAMETER (local_buf NULL,
 * bytes_per_access 0, read: local_buf_size 0), RMEM_STRIDE (num_strides > 1
 * and a stride < bytes_per_access), RMEM_BUFF_OVERRUN (past the buffer, or
 * for read past local_buf_size), RMEM_BLOCKED (a request of this node is
 * still using the attachment).
 */
void mrapi_rmem_read(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
		     mrapi_uint32_t local_offset, mrapi_uint32_t local_buf_size, mrapi_uint32_t bytes_per_access,
		     mrapi_uint32_t num_strides, mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride,
		     mrapi_status_t *status);
/* read, returning at once with *request; local_buf is the library's until test/wait say done. */
void mrapi_rmem_read_i(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
		       mrapi_uint32_t local_offset, mrapi_uint32_t local_buf_size, mrapi_uint32_t bytes_per_access,
		       mrapi_uint32_t num_strides, mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride,
		       mrapi_request_t *request, mrapi_status_t *status);
void mrapi_rmem_write(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, const void *local_buf,
		      mrapi_uint32_t local_offset, mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides,
		      mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride, mrapi_status_t *status);
void mrapi_rmem_write_i(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, const void *local_buf,
			mrapi_uint32_t local_offset, mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides,
			mrapi_uint32_t rmem_stride, mrapi_uint32_t local_stride, mrapi_request_t *request,
			mrapi_status_t *status);

/*
 * flush / sync (4.4.2.13/14): a completed RDMA WRITE here is already in the
 * owner's memory and every read goes to it, so there is nothing to do:
 * MRAPI_SUCCESS (RMEM_INVALID, RMEM_NOTATTACHED).
 */
void mrapi_rmem_flush(mrapi_rmem_hndl_t rmem, mrapi_status_t *status);
void mrapi_rmem_sync(mrapi_rmem_hndl_t rmem, mrapi_status_t *status);

/*
 * Requests (3.9). test: MRAPI_TRUE when the request is done (*status its
 * result, and the request ends), else MRAPI_FALSE with MRAPI_INCOMPLETE.
 * wait: until done or timeout ms (MRAPI_TIMEOUT). wait_any: the index of a
 * done request among requests[0..number). cancel: the request ends, its
 * buffers' contents are unspecified, the next test/wait says
 * REQUEST_CANCELED. REQUEST_INVALID for a request not outstanding on this node.
 */
mrapi_boolean_t mrapi_test(mrapi_request_t *request, size_t *size, mrapi_status_t *status);
mrapi_boolean_t mrapi_wait(mrapi_request_t *request, size_t *size, mrapi_timeout_t timeout, mrapi_status_t *status);
mrapi_uint_t mrapi_wait_any(size_t number, mrapi_request_t *requests, size_t *size, mrapi_timeout_t timeout,
			    mrapi_status_t *status);
void mrapi_cancel(mrapi_request_t *request, mrapi_status_t *status);

#ifdef __cplusplus
}
#endif
#endif

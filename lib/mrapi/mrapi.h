/*
 * mrapi.h — MRAPI remote memory (MRAPI API Specification V0.9.3, sections
 * 3.9 and 4.4.2) over RDMA (libibverbs + librdmacm): libmrapi-rdma.
 *
 * The declarations are those of the MCA reference implementation
 * (ke4harper/MxAPI mca-2.0.3 mrapi/include/mrapi.h, MRAPI_VERSION
 * "FSL 0.9.3.4"): its types (from mca.h), constants, status names and
 * numbers, and the signatures of its node, rmem and request calls, so a
 * program written for the reference compiles unchanged against this header
 * (its mutex, semaphore, reader/writer lock, shared memory and resource
 * calls are not part of this library). What this library adds is marked
 * "extension" (lib/mrapi/README.md lists them and where the behaviour
 * differs from the reference's).
 *
 * A node is a thread (the spec's "a process, a thread, or a processor"):
 * mrapi_initialize makes the calling thread a node; every other call acts
 * for the calling thread's node (NODE_NOTINIT in a thread that is none).
 * Several threads of one process may be nodes of one or more domains.
 * A node's rmem buffers are registered RDMA memory regions; another node
 * attaches by connecting an RC queue pair to the owner, and reads and
 * writes with RDMA READ / WRITE (one work request per stride). Ids are
 * domain-wide: a directory service (lib/mrapi/README.md) keeps every id,
 * owner, type and attach count, so creating an id is atomic across nodes
 * and a node that finalizes (or whose process dies) takes its buffers with it.
 *
 * Every call reports through *status (MRAPI_SUCCESS or an MRAPI_ERR_*); a
 * NULL status makes the call do nothing. Handles and requests are checked
 * values: another node's, a deleted one or garbage gives
 * MRAPI_ERR_RMEM_INVALID (MRAPI_ERR_REQUEST_INVALID), never a crash.
 *
 * Configuration: environment variables, read by mrapi_initialize (README).
 */
#ifndef MRAPI_H
#define MRAPI_H

#include "mca.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef mca_domain_t mrapi_domain_t;
typedef mca_node_t mrapi_node_t;
typedef mca_status_t mrapi_status_t;
typedef mca_timeout_t mrapi_timeout_t;
typedef mca_int_t mrapi_int_t;
typedef mca_uint_t mrapi_uint_t;
typedef mca_uint8_t mrapi_uint8_t;
typedef mca_uint16_t mrapi_uint16_t;
typedef mca_uint32_t mrapi_uint32_t;
typedef mca_uint64_t mrapi_uint64_t;
typedef mca_boolean_t mrapi_boolean_t;
typedef mca_request_t mrapi_request_t;
typedef int mrapi_parameters_t;
typedef int mrapi_rmem_id_t;        /* the shared key: every value but MRAPI_RMEM_ID_ANY is a user id */
typedef uint32_t mrapi_rmem_hndl_t;

/*
 * Access types (3.12.12), numbered as the reference's. DMA and DUMMY (the
 * default) are both RDMA here; SWCACHE is not supported. Extension:
 * MRAPI_RMEM_ATYPE_ANY at create lets clients use any supported type.
 */
typedef enum {
	MRAPI_RMEM_DMA,
	MRAPI_RMEM_SWCACHE,
	MRAPI_RMEM_DUMMY,
	MRAPI_RMEM_ATYPE_ANY, /* extension */
} mrapi_rmem_atype_t;
#define MRAPI_RMEM_DEFAULT MRAPI_RMEM_DUMMY
/* The names of earlier releases of this library (extension). */
#define MRAPI_RMEM_ATYPE_DEFAULT MRAPI_RMEM_DEFAULT
#define MRAPI_RMEM_ATYPE_DMA MRAPI_RMEM_DMA
#define MRAPI_RMEM_ATYPE_SWCACHE MRAPI_RMEM_SWCACHE

#define MRAPI_VERSION "FSL 0.9.3.4"          /* the API level, as the reference declares it */
#define MRAPI_RDMA_VERSION "0.9.3.4-rdma"    /* extension: this implementation */
typedef struct {
	char mrapi_version[64];
} mrapi_info_t;

#define MRAPI_TRUE MCA_TRUE
#define MRAPI_FALSE MCA_FALSE
#define MRAPI_NULL MCA_NULL
#define MRAPI_IN const
#define MRAPI_OUT
#define MRAPI_FUNCTION_PTR
#define MRAPI_TIMEOUT_INFINITE (~0)
#define MRAPI_TIMEOUT_IMMEDIATE 0
#define MRAPI_NODE_INVALID MCA_NODE_INVALID
#define MRAPI_DOMAIN_INVALID MCA_DOMAIN_INVALID
#define MRAPI_RETURN_VALUE_INVALID MCA_RETURN_VALUE_INVALID
#define MRAPI_NONE 0xffffffff
#define MRAPI_RMEM_ID_ANY 0xffffffff
#define MRAPI_MAX_STATUS_SIZE 32
/* Extensions: this library's limits. */
#define MRAPI_MAX_USER_RMEM_ID 0xfffffffeu  /* every id but MRAPI_RMEM_ID_ANY */
#define MRAPI_MAX_RMEMS 12u          /* live rmem buffers per domain */
#define MRAPI_MAX_REQUESTS 8u        /* outstanding requests per node */
#define MRAPI_MAX_LOCAL_NODES 16u    /* nodes (threads) per process */

/* Statuses: the reference's names and numbers (those past RMEM are never returned here). */
typedef enum {
	MRAPI_SUCCESS, MRAPI_TIMEOUT, MRAPI_INCOMPLETE, MRAPI_ERR_ATTR_NUM, MRAPI_ERR_ATTR_READONLY,
	MRAPI_ERR_ATTR_SIZE, MRAPI_ERR_DOMAIN_INVALID, MRAPI_ERR_DOMAIN_NOTSHARED, MRAPI_ERR_MEM_LIMIT,
	MRAPI_ERR_MUTEX_DELETED, MRAPI_ERR_MUTEX_EXISTS, MRAPI_ERR_MUTEX_ID_INVALID, MRAPI_ERR_MUTEX_INVALID,
	MRAPI_ERR_MUTEX_KEY, MRAPI_ERR_MUTEX_LIMIT, MRAPI_ERR_MUTEX_LOCKED, MRAPI_ERR_MUTEX_LOCKORDER,
	MRAPI_ERR_MUTEX_NOTLOCKED, MRAPI_ERR_MUTEX_NOTVALID, MRAPI_ERR_NODE_INITFAILED, MRAPI_ERR_NODE_FINALFAILED,
	MRAPI_ERR_NODE_INITIALIZED, MRAPI_ERR_NODE_INVALID, MRAPI_ERR_NODE_NOTINIT, MRAPI_ERR_NOT_SUPPORTED,
	MRAPI_ERR_PARAMETER, MRAPI_ERR_REQUEST_CANCELED, MRAPI_ERR_REQUEST_INVALID, MRAPI_ERR_REQUEST_LIMIT,
	MRAPI_ERR_RMEM_ID_INVALID, MRAPI_ERR_RMEM_ATTACH, MRAPI_ERR_RMEM_ATTACHED, MRAPI_ERR_RMEM_ATYPE,
	MRAPI_ERR_RMEM_ATYPE_NOTVALID, MRAPI_ERR_RMEM_BLOCKED, MRAPI_ERR_RMEM_BUFF_OVERRUN, MRAPI_ERR_RMEM_CONFLICT,
	MRAPI_ERR_RMEM_EXISTS, MRAPI_ERR_RMEM_INVALID, MRAPI_ERR_RMEM_NOTATTACHED, MRAPI_ERR_RMEM_NOTOWNER,
	MRAPI_ERR_RMEM_STRIDE, MRAPI_ERR_RMEM_TYPENOTVALID, MRAPI_ERR_RSRC_COUNTER_INUSE, MRAPI_ERR_RSRC_INVALID,
	MRAPI_ERR_RSRC_INVALID_CALLBACK, MRAPI_ERR_RSRC_INVALID_EVENT, MRAPI_ERR_RSRC_INVALID_SUBSYSTEM,
	MRAPI_ERR_RSRC_INVALID_TREE, MRAPI_ERR_RSRC_NOTDYNAMIC, MRAPI_ERR_RSRC_NOTOWNER, MRAPI_ERR_RSRC_NOTSTARTED,
	MRAPI_ERR_RSRC_STARTED, MRAPI_ERR_RWL_DELETED, MRAPI_ERR_RWL_EXISTS, MRAPI_ERR_RWL_ID_INVALID,
	MRAPI_ERR_RWL_INVALID, MRAPI_ERR_RWL_LIMIT, MRAPI_ERR_RWL_LOCKED, MRAPI_ERR_RWL_NOTLOCKED,
	MRAPI_ERR_SEM_DELETED, MRAPI_ERR_SEM_EXISTS, MRAPI_ERR_SEM_ID_INVALID, MRAPI_ERR_SEM_INVALID,
	MRAPI_ERR_SEM_LIMIT, MRAPI_ERR_SEM_LOCKED, MRAPI_ERR_SEM_LOCKLIMIT, MRAPI_ERR_SEM_NOTLOCKED,
	MRAPI_ERR_SHM_ATTACHED, MRAPI_ERR_SHM_ATTCH, MRAPI_ERR_SHM_EXISTS, MRAPI_ERR_SHM_ID_INVALID,
	MRAPI_ERR_SHM_INVALID, MRAPI_ERR_SHM_NODES_INCOMPAT, MRAPI_ERR_SHM_NODE_NOTSHARED, MRAPI_ERR_SHM_NOTATTACHED,
} mrapi_status_flags;

/* Attribute numbers, the reference's (rmem takes ERROR_EXT and DOMAIN_SHARED, 4.4.2.3). */
typedef enum {
	MRAPI_MUTEX_RECURSIVE, MRAPI_ERROR_EXT, MRAPI_DOMAIN_SHARED, MRAPI_SHMEM_RESOURCE, MRAPI_SHMEM_ADDRESS,
	MRAPI_SHMEM_SIZE,
} attributes;
/* Extension: read-only rmem attributes (numbers the reference gives shmem attributes). */
#define MRAPI_RMEM_SIZE 3   /* mrapi_uint_t: the buffer's size */
#define MRAPI_RMEM_ATYPE 4  /* mrapi_uint_t: its mrapi_rmem_atype_t */

typedef struct {
	uint32_t magic;           /* set by mrapi_rmem_init_attributes */
	mrapi_boolean_t error_ext;      /* MRAPI_ERROR_EXT, default MRAPI_FALSE */
	mrapi_boolean_t domain_shared;  /* MRAPI_DOMAIN_SHARED, default MRAPI_TRUE */
} mrapi_rmem_attributes_t;

/* The status's name ("MRAPI_ERR_RMEM_EXISTS"), copied into status_message (size bytes); returns it. */
char *mrapi_display_status(mrapi_status_t status, char *status_message, size_t size);

/*
 * The library's debug output: level 0 (the default) none; 1 and above, one
 * line on stderr for every call that does not succeed ("mrapi: call:
 * STATUS"). Process-wide.
 */
void mrapi_set_debug_level(int d);

/*
 * Make the calling thread node node_id of domain_id: reach the domain's
 * directory (starting it if this is the first node), register there.
 * Errors: MRAPI_ERR_NODE_INITIALIZED (this thread is a node already, or
 * another live node is that node), MRAPI_ERR_NODE_INITFAILED (no directory
 * reachable or startable, or MRAPI_MAX_LOCAL_NODES nodes in this process).
 * mrapi_info may be NULL.
 */
void mrapi_initialize(MRAPI_IN mrapi_domain_t domain_id, MRAPI_IN mrapi_node_t node_id,
		      MRAPI_IN mrapi_parameters_t init_parameters, MRAPI_OUT mrapi_info_t *mrapi_info,
		      MRAPI_OUT mrapi_status_t *status);

/*
 * The calling thread's node leaves the domain: its buffers are withdrawn
 * (the ids become free, other nodes' handles to them give
 * MRAPI_ERR_RMEM_INVALID), its attachments are closed, its requests end.
 * MRAPI_ERR_NODE_NOTINIT if the thread is no node.
 */
void mrapi_finalize(MRAPI_OUT mrapi_status_t *status);

/* The calling thread's node's domain and node id (MRAPI_ERR_NODE_NOTINIT: MRAPI_DOMAIN/NODE_INVALID). */
mrapi_domain_t mrapi_domain_id_get(MRAPI_OUT mrapi_status_t *status);
mrapi_node_t mrapi_node_id_get(MRAPI_OUT mrapi_status_t *status);

/*
 * Offer [mem, mem+size) of this process as rmem id (MRAPI_RMEM_ID_ANY: an
 * id not in use is chosen). access_type MRAPI_RMEM_ATYPE_ANY lets clients
 * use any supported type; any other supported type is strict. Errors:
 * NODE_NOTINIT, RMEM_EXISTS (the id is live anywhere in the domain),
 * RMEM_TYPENOTVALID, MEM_LIMIT (domain full, or the memory cannot be
 * registered), PARAMETER (mem NULL, size 0, attributes not initialised),
 * RMEM_CONFLICT (overlaps a live buffer of this node). attributes NULL: the
 * defaults. Returns the handle (0 on error).
 */
mrapi_rmem_hndl_t mrapi_rmem_create(MRAPI_IN mrapi_rmem_id_t rmem_id, MRAPI_IN void *mem,
				    MRAPI_IN mrapi_rmem_atype_t access_type,
				    MRAPI_IN mrapi_rmem_attributes_t *attributes, MRAPI_IN mrapi_uint_t size,
				    MRAPI_OUT mrapi_status_t *status);

/* Fill *attributes with the defaults. PARAMETER if NULL; NODE_NOTINIT. */
void mrapi_rmem_init_attributes(MRAPI_OUT mrapi_rmem_attributes_t *attributes, MRAPI_OUT mrapi_status_t *status);

/*
 * Set one attribute in the caller's struct (never in a created buffer).
 * PARAMETER (NULL attributes or attribute), ATTR_NUM, ATTR_SIZE, ATTR_READONLY.
 */
void mrapi_rmem_set_attribute(MRAPI_OUT mrapi_rmem_attributes_t *attributes, MRAPI_IN mrapi_uint_t attribute_num,
			      MRAPI_IN void *attribute, MRAPI_IN size_t attr_size, MRAPI_OUT mrapi_status_t *status);

/* Read one attribute of a buffer. NODE_NOTINIT, PARAMETER, RMEM_INVALID, ATTR_NUM, ATTR_SIZE. */
void mrapi_rmem_get_attribute(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_IN mrapi_uint_t attribute_num,
			      MRAPI_OUT void *attribute, MRAPI_IN size_t attribute_size,
			      MRAPI_OUT mrapi_status_t *status);

/*
 * A handle to the buffer rmem_id, created on any node of the domain (or of
 * another domain, if shared). RMEM_ID_INVALID (no such id, or
 * MRAPI_RMEM_ID_ANY), RMEM_TYPENOTVALID (ATYPE_ANY or an unsupported type,
 * as the reference answers), RMEM_ATYPE (a strict buffer of another type),
 * DOMAIN_NOTSHARED.
 */
mrapi_rmem_hndl_t mrapi_rmem_get(MRAPI_IN mrapi_rmem_id_t rmem_id, MRAPI_IN mrapi_rmem_atype_t access_type,
				 MRAPI_OUT mrapi_status_t *status);

/*
 * Connect to the owner (RMEM_INVALID, RMEM_ATTACHED if this node is
 * attached already). access_type is not looked at (as in the reference):
 * the handle's type is the one create or get was given.
 */
void mrapi_rmem_attach(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_IN mrapi_rmem_atype_t access_type,
		       MRAPI_OUT mrapi_status_t *status);

/* Disconnect (RMEM_INVALID, RMEM_NOTATTACHED). */
void mrapi_rmem_detach(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_OUT mrapi_status_t *status);

/*
 * Withdraw the buffer. As in the reference implementation, any node of the
 * buffer's domain may (the spec: the creator only), a node of another domain
 * gets RMEM_NOTOWNER, and nodes still attached do not stop it (they may then
 * detach). The creator's memory stays its own; the handle and the id stop
 * working (the id can be created again).
 */
void mrapi_rmem_delete(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_OUT mrapi_status_t *status);

/*
 * Copy num_strides blocks of bytes_per_access bytes: block i from rmem
 * offset rmem_offset + i*rmem_stride to local_buf + local_offset +
 * i*local_stride (read; write the other way). Errors: RMEM_INVALID (also
 * when the owner went away), RMEM_NOTATTACHED, PARAMETER (local_buf NULL,
 * bytes_per_access 0), RMEM_STRIDE (num_strides > 1 and a stride <
 * bytes_per_access), RMEM_BUFF_OVERRUN (past the buffer), RMEM_BLOCKED (a
 * request of this node is still using the attachment). The _i forms return
 * at once with *mrapi_request; local_buf is the library's until test/wait
 * say done.
 */
void mrapi_rmem_read(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_IN mrapi_uint32_t rmem_offset,
		     MRAPI_OUT void *local_buf, MRAPI_IN mrapi_uint32_t local_offset,
		     MRAPI_IN mrapi_uint32_t bytes_per_access, MRAPI_IN mrapi_uint32_t num_strides,
		     MRAPI_IN mrapi_uint32_t rmem_stride, MRAPI_IN mrapi_uint32_t local_stride,
		     MRAPI_OUT mrapi_status_t *status);
void mrapi_rmem_read_i(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_IN mrapi_uint32_t rmem_offset,
		       MRAPI_OUT void *local_buf, MRAPI_IN mrapi_uint32_t local_offset,
		       MRAPI_IN mrapi_uint32_t bytes_per_access, MRAPI_IN mrapi_uint32_t num_strides,
		       MRAPI_IN mrapi_uint32_t rmem_stride, MRAPI_IN mrapi_uint32_t local_stride,
		       MRAPI_OUT mrapi_request_t *mrapi_request, MRAPI_OUT mrapi_status_t *status);
void mrapi_rmem_write(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_IN mrapi_uint32_t rmem_offset,
		      MRAPI_IN void *local_buf, MRAPI_IN mrapi_uint32_t local_offset,
		      MRAPI_IN mrapi_uint32_t bytes_per_access, MRAPI_IN mrapi_uint32_t num_strides,
		      MRAPI_IN mrapi_uint32_t rmem_stride, MRAPI_IN mrapi_uint32_t local_stride,
		      MRAPI_OUT mrapi_status_t *status);
void mrapi_rmem_write_i(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_IN mrapi_uint32_t rmem_offset,
			MRAPI_IN void *local_buf, MRAPI_IN mrapi_uint32_t local_offset,
			MRAPI_IN mrapi_uint32_t bytes_per_access, MRAPI_IN mrapi_uint32_t num_strides,
			MRAPI_IN mrapi_uint32_t rmem_stride, MRAPI_IN mrapi_uint32_t local_stride,
			MRAPI_OUT mrapi_request_t *mrapi_request, MRAPI_OUT mrapi_status_t *status);

/*
 * Extension: read and read_i with the local buffer's size, as the V0.9.3
 * spec text declares them: also PARAMETER for local_buf_size 0 and
 * RMEM_BUFF_OVERRUN past local_buf_size. (The reference's forms above take
 * no size: the local side is the caller's to get right.)
 */
void mrapi_rmem_read_sized(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
			   mrapi_uint32_t local_offset, mrapi_uint32_t local_buf_size,
			   mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides, mrapi_uint32_t rmem_stride,
			   mrapi_uint32_t local_stride, mrapi_status_t *status);
void mrapi_rmem_read_i_sized(mrapi_rmem_hndl_t rmem, mrapi_uint32_t rmem_offset, void *local_buf,
			     mrapi_uint32_t local_offset, mrapi_uint32_t local_buf_size,
			     mrapi_uint32_t bytes_per_access, mrapi_uint32_t num_strides, mrapi_uint32_t rmem_stride,
			     mrapi_uint32_t local_stride, mrapi_request_t *request, mrapi_status_t *status);

/*
 * flush / synch (4.4.2.13/14): a completed RDMA WRITE here is already in the
 * owner's memory and every read goes to it, so there is nothing to do:
 * MRAPI_SUCCESS (RMEM_INVALID, RMEM_NOTATTACHED). mrapi_rmem_sync is the
 * same call under this library's earlier name (extension).
 */
void mrapi_rmem_flush(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_OUT mrapi_status_t *status);
void mrapi_rmem_synch(MRAPI_IN mrapi_rmem_hndl_t rmem, MRAPI_OUT mrapi_status_t *status);
void mrapi_rmem_sync(mrapi_rmem_hndl_t rmem, mrapi_status_t *status);

/*
 * Requests (3.9). test: MRAPI_TRUE when the request is done (*status its
 * result, and the request ends), else MRAPI_FALSE with MRAPI_INCOMPLETE.
 * wait: until done or timeout ms (MRAPI_TIMEOUT). wait_any: the index of a
 * done request among requests[0..number) (MRAPI_RETURN_VALUE_INVALID when
 * none). cancel: the request ends, its buffers' contents are unspecified,
 * the next test/wait says REQUEST_CANCELED. REQUEST_INVALID for a request
 * not outstanding on this node.
 */
mrapi_boolean_t mrapi_test(MRAPI_IN mrapi_request_t *request, MRAPI_OUT size_t *size,
			   MRAPI_OUT mrapi_status_t *mrapi_status);
mrapi_boolean_t mrapi_wait(MRAPI_IN mrapi_request_t *request, MRAPI_OUT size_t *size,
			   MRAPI_IN mrapi_timeout_t timeout, MRAPI_OUT mrapi_status_t *mrapi_status);
mrapi_uint_t mrapi_wait_any(MRAPI_IN size_t number, MRAPI_IN mrapi_request_t *requests, MRAPI_OUT size_t *size,
			    MRAPI_IN mrapi_timeout_t timeout, MRAPI_OUT mrapi_status_t *mrapi_status);
void mrapi_cancel(MRAPI_IN mrapi_request_t *request, MRAPI_OUT mrapi_status_t *mrapi_status);

#ifdef __cplusplus
}
#endif
#endif

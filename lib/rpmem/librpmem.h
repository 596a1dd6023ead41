/*
 * librpmem.h — a librpmem-compatible library over librpma (rdmacheck's
 * librpmem-rpma). Same names, types, flags and errno behaviour as PMDK's
 * librpmem 1.12 (deprecated there, removed in 1.13), so code written against
 * it builds and links unchanged: -lrpmem (installed; or build/librpmem-rpma.a with
 * -lrpma -libverbs -lrdmacm -lpthread). The target side is rpmemd
 * (lib/rpmem/README.md).
 *
 * Error convention (PMDK's): calls returning a pointer return NULL and set
 * errno; calls returning int return 0, or -1 (rpmem_close/rpmem_remove:
 * non-zero) and set errno. rpmem_errormsg() has the last message of the
 * calling thread.
 */
#ifndef LIBRPMEM_H
#define LIBRPMEM_H 1

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rpmem_pool RPMEMpool;

#define RPMEM_POOL_HDR_SIG_LEN 8
#define RPMEM_POOL_HDR_UUID_LEN 16
#define RPMEM_POOL_USER_FLAGS_LEN 16

/* The attributes kept in the pool header (4096 bytes at offset 0 of a pool with headers). */
struct rpmem_pool_attr {
	char signature[RPMEM_POOL_HDR_SIG_LEN];
	uint32_t major;
	uint32_t compat_features;
	uint32_t incompat_features;
	uint32_t ro_compat_features;
	unsigned char poolset_uuid[RPMEM_POOL_HDR_UUID_LEN];
	unsigned char uuid[RPMEM_POOL_HDR_UUID_LEN];
	unsigned char next_uuid[RPMEM_POOL_HDR_UUID_LEN];
	unsigned char prev_uuid[RPMEM_POOL_HDR_UUID_LEN];
	unsigned char user_flags[RPMEM_POOL_USER_FLAGS_LEN];
};

#define RPMEM_MAJOR_VERSION 1
#define RPMEM_MINOR_VERSION 3

#define RPMEM_MIN_POOL ((size_t)(1024 * 8))        /* the smallest usable remote pool */
#define RPMEM_MIN_PART ((size_t)(1024 * 1024 * 2)) /* the smallest part file */

#define RPMEM_PERSIST_RELAXED (1U << 0)
#define RPMEM_FLUSH_RELAXED (1U << 0)
#define RPMEM_REMOVE_FORCE 0x1
#define RPMEM_REMOVE_POOL_SET 0x2

/*
 * Create the pool described by pool set file pool_set_name (relative to the
 * target daemon's root config directory) on target "[user@]host[:port]" and
 * map it to the local pool_addr[0..pool_size). pool_addr and pool_size must
 * be page-aligned, pool_size > 0, *nlanes > 0 (else EINVAL, before anything
 * is started). create_attr non-NULL and not all zero gives the pool a 4096-byte
 * header holding it (the set must not be NOHDRS); NULL or zero needs a NOHDRS
 * set. On success *nlanes is the number of lanes (1 <= *nlanes <= the
 * request, RPMEM_MAX_NLANES and the target's limit) and the handle is
 * returned. Errors: EEXIST (the pool exists), ENOENT (no such set), EBUSY,
 * EFBIG (the set's usable size < pool_size), EINVAL (bad name or set),
 * ECONNREFUSED / ECONNABORTED (the target could not be reached or set up).
 */
RPMEMpool *rpmem_create(const char *target, const char *pool_set_name, void *pool_addr, size_t pool_size,
			unsigned *nlanes, const struct rpmem_pool_attr *create_attr);

/*
 * Open an existing pool as rpmem_create does; open_attr, when not NULL,
 * receives the header's attributes (zeros for a pool without header).
 * Errors as rpmem_create, with ENOENT for a pool that does not exist, EBUSY
 * for one another client has open, EINVAL for an inconsistent one.
 */
RPMEMpool *rpmem_open(const char *target, const char *pool_set_name, void *pool_addr, size_t pool_size,
		      unsigned *nlanes, struct rpmem_pool_attr *open_attr);

/*
 * Overwrite the header's attributes (attr NULL: zeros). 0, or -1 with errno:
 * the kept error (see rpmem_persist), EINVAL for a pool without header.
 */
int rpmem_set_attr(RPMEMpool *rpp, const struct rpmem_pool_attr *attr);

/*
 * Close the pool: the target flushes it to its files, closes it and it can
 * be opened again. The handle is freed whatever the result: 0, or non-zero
 * with errno (ECONNABORTED: the target had gone away).
 */
int rpmem_close(RPMEMpool *rpp);

/*
 * Make pool_addr[offset, offset+length) persistent on the target: an RDMA
 * write on `lane` then a flush (read-after-write, APM) that completes only
 * when the bytes are in the target's memory. Checked in this order: a kept
 * error of an earlier call (returned again), flags other than 0 or
 * RPMEM_PERSIST_RELAXED (EINVAL), offset < 4096 on a pool with header
 * (EINVAL), lane >= nlanes (EINVAL), offset >= pool_size or offset+length >
 * pool_size (EINVAL); length 0 then returns 0. A transport failure is kept:
 * every later data call and rpmem_set_attr returns it (only close is left).
 * Calls on one lane must not run concurrently; lanes are independent.
 */
int rpmem_persist(RPMEMpool *rpp, size_t offset, size_t length, unsigned lane, unsigned flags);

/* As rpmem_persist, then the target also writes the range back to its files (msync). */
int rpmem_deep_persist(RPMEMpool *rpp, size_t offset, size_t length, unsigned lane);

/*
 * Start copying pool_addr[offset, offset+length) to the target on `lane`
 * (checks as rpmem_persist, flags 0 or RPMEM_FLUSH_RELAXED); the bytes are
 * persistent only after a later rpmem_drain on the same lane returns 0.
 */
int rpmem_flush(RPMEMpool *rpp, size_t offset, size_t length, unsigned lane, unsigned flags);

/* Wait until every rpmem_flush on `lane` is persistent. flags must be 0 (EINVAL). */
int rpmem_drain(RPMEMpool *rpp, unsigned lane, unsigned flags);

/*
 * Read length bytes of the remote pool at offset into buff on `lane`.
 * lane >= nlanes: EINVAL; length 0 returns 0; a range past pool_size: EINVAL.
 * The header may be read.
 */
int rpmem_read(RPMEMpool *rpp, void *buff, size_t offset, size_t length, unsigned lane);

/*
 * Remove the pool of pool_set_name on target: its part files, and with
 * RPMEM_REMOVE_POOL_SET the set file too. Without RPMEM_REMOVE_FORCE a
 * missing (ENOENT) or inconsistent (EINVAL) pool is an error; an open one is
 * EBUSY; other flag bits EINVAL. 0 or non-zero with errno.
 */
int rpmem_remove(const char *target, const char *pool_set_name, int flags);

/* NULL if this library is compatible with major_required.minor_required, else a message. */
const char *rpmem_check_version(unsigned major_required, unsigned minor_required);

/* The last error message of the calling thread ("" if none). */
const char *rpmem_errormsg(void);

#ifdef __cplusplus
}
#endif
#endif

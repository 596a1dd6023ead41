/*
 * rpma.h — the librpma family's part of the public model API (included by
 * model/model.h through model/families.h): librpma's values, the arguments
 * of its operations, its per-node state. The family: model/rpma/.
 */
#ifndef RDMACHECK_MODEL_RPMA_H
#define RDMACHECK_MODEL_RPMA_H

#include <stdint.h>

/* librpma's values (librpma.h 1.2.0). */
enum m_rpma_err {
	M_RPMA_E_UNKNOWN = -100000, M_RPMA_E_NOSUPP = -100001, M_RPMA_E_PROVIDER = -100002,
	M_RPMA_E_NOMEM = -100003, M_RPMA_E_INVAL = -100004, M_RPMA_E_NO_COMPLETION = -100005,
	M_RPMA_E_NO_EVENT = -100006, M_RPMA_E_AGAIN = -100007, M_RPMA_E_SHARED_CHANNEL = -100008,
	M_RPMA_E_NOT_SHARED_CHNL = -100009,
};
enum m_rpma_usage {
	M_RPMA_READ_SRC = 1 << 0, M_RPMA_READ_DST = 1 << 1, M_RPMA_WRITE_SRC = 1 << 2,
	M_RPMA_WRITE_DST = 1 << 3, M_RPMA_USAGE_FLUSH_VISIBILITY = 1 << 4, M_RPMA_USAGE_FLUSH_PERSISTENT = 1 << 5,
	M_RPMA_SEND = 1 << 6, M_RPMA_RECV = 1 << 7,
};
#define M_RPMA_USAGE_ALL 0xffu
enum m_rpma_flag { M_RPMA_F_COMPLETION_ON_ERROR = 1, M_RPMA_F_COMPLETION_ALWAYS = 3 };
enum m_rpma_flush_type { M_RPMA_FLUSH_PERSISTENT = 0, M_RPMA_FLUSH_VISIBILITY = 1 };
#define M_RPMA_DESC_SIZE 21 /* u64 addr, u64 length, u32 rkey, u8 usage (RPMA-DESC-1) */
/*
 * librpma pointer arguments passed as NULL (struct m_rpma_args.nulls): bit i is the
 * i-th pointer argument of the C call, in its order:
 *   rpma_mr_reg(peer, ptr, mr_ptr)          rpma_mr_dereg(mr_ptr, *mr_ptr)
 *   rpma_mr_get_descriptor(mr, desc)        rpma_mr_get_descriptor_size(mr, desc_size)
 *   rpma_mr_remote_from_descriptor(desc, mr_ptr)
 *   rpma_mr_remote_get_size(mr, size)       rpma_mr_remote_get_flush_type(mr, flush_type)
 *   rpma_read(conn, dst, src)               rpma_write(conn, dst, src)
 *   rpma_atomic_write(conn, dst, src)       rpma_flush(conn, dst)
 *   rpma_conn_disconnect(conn)
 * (rpma_read's dst is the local MR, rpma_write's dst the remote one.)
 */
enum m_rpma_null { M_RPMA_NULL_ARG0 = 1 << 0, M_RPMA_NULL_ARG1 = 1 << 1, M_RPMA_NULL_ARG2 = 1 << 2 };

/*
 * Arguments of the librpma operations (struct m_op.rpma; the handle acted on
 * is struct m_op.obj: the rpma MR (mr[]) of dereg / get_descriptor(_size),
 * the remote MR (rremote[]) of the remote getters, the connection (conn[])
 * of disconnect and the I/O calls).
 */
struct m_rpma_args {
	int16_t mr;         /* mr_reg: an rpma MR whose buffer is registered again (-1: a new
	                       buffer); read/write: the local MR (-1: none) */
	int16_t remote;     /* read/write/atomic_write/flush: the remote MR (rremote[]; -1: none) */
	int16_t peer_node;  /* connect: the server's node */
	uint8_t pmem;       /* connect: 1 = the server applies a peer cfg with direct_write_to_pmem */
	uint8_t prot;       /* mr_reg: enum m_prot of the buffer's pages */
	uint32_t usage;     /* mr_reg: the RPMA_MR_USAGE_* bits (enum m_rpma_usage) */
	uint32_t flags;     /* read/write/atomic_write/flush: the RPMA_F_* flags (enum m_rpma_flag) */
	uint32_t flush_type; /* flush: enum m_rpma_flush_type (other values: an unknown type) */
	uint64_t len;       /* mr_reg: the buffer's length; read/write/flush: bytes */
	uint64_t offset;    /* mr_reg: the buffer's page offset; read/write: offset in the local MR */
	uint64_t roff;      /* read/write/atomic_write/flush: offset in the remote MR */
	uint64_t value;     /* atomic_write: the 8 bytes written (little-endian) */
	uint8_t nulls;      /* pointer arguments passed as NULL: enum m_rpma_null */
	uint8_t ndesc;      /* remote_from_descriptor: the descriptor's bytes in desc */
	uint8_t desc[32];
	uint32_t size;      /* remote_from_descriptor: the size passed (may differ from ndesc) */
};

/* A librpma remote MR: what a descriptor said (RPMA-DESC-2/3). */
struct m_rremote {
	uint8_t live, ever;
	uint8_t usage;
	uint64_t addr, len;
	uint32_t rkey;
};

#define M_MAX_RREMOTE 16

struct model;
/*
 * The librpma descriptor (RPMA-DESC-2: little-endian addr, length, rkey,
 * usage; M_RPMA_DESC_SIZE bytes) of an rpma MR (remote = 0: mr[h]) or of
 * what a remote MR was made from (remote = 1: rremote[h]) on node n, into
 * out. Returns 0, or -EINVAL for a handle that is neither.
 */
int model_rpma_descriptor(const struct model *m, unsigned n, int remote, int h, uint8_t out[M_RPMA_DESC_SIZE]);

/* A node's librpma state (struct m_node.rpma). */
struct m_rpma_node {
	int16_t pd;                 /* the PD of this node's librpma peer, -1 before first use */
	uint8_t nrremote;           /* remote MRs made so far (never reused) */
	struct m_rremote rremote[M_MAX_RREMOTE];
};

#endif

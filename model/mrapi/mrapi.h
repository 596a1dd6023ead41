/*
 * mrapi.h — the MRAPI family's part of the public model API (included by
 * model/model.h through model/families.h): the model of MRAPI remote memory (catalog area D, spec V0.9.3
 * sections 3.5.2, 3.8, 3.9, 3.12.12/13, 4.4.2.1–4.4.2.14), a self-contained
 * family of the reference model (model/mrapi/): its domain-wide state
 * (struct m_mrapi_model: segments, per-node init/attach state, attribute
 * structs, requests; struct model's member mrapi), the arguments of its
 * operations (struct m_mrapi_args, struct m_op's member mrapi; the op kinds
 * M_OP_MRAPI_* of model/ops.def are the calls). predict / apply / query over
 * that state alone are in model/mrapi/internal.h.
 *
 * Outcomes are M_OUT_MRAPI with code = enum m_mrapi_st, the index of the
 * status name in model/names.c (m_mrapi_st_str names the same).
 *
 * Where the spec leaves several readings, a rule's decision part gives the
 * set. Where the question is *which reading applies* rather than which
 * status is returned (the order of checks, where a _i call reports its error,
 * which bounds formula the MCA reference implementation uses), the decision
 * is made over "reading" outcomes: M_OUT_OK with code = enum m_mrapi_reading.
 * The generic profile gives the spec's reading, the profile "mca-ref" (MCA
 * reference implementation) replaces it: deviations stay data.
 *
 * Pure C11: no I/O, no globals.
 */
#ifndef RDMACHECK_MODEL_MRAPI_H
#define RDMACHECK_MODEL_MRAPI_H

#include <stddef.h>
#include <stdint.h>

#define M_MRAPI_NODES 8          /* nodes of the model (the scenario's nodes) */
#define M_MRAPI_SEGS 16          /* rmem segments created, domain-wide, never reused */
#define M_MRAPI_ATTRS 8          /* mrapi_rmem_attributes_t structs the callers hold */
#define M_MRAPI_REQS 16          /* requests handed out, never reused */
#define M_MRAPI_REQ_LIMIT 8      /* outstanding requests per node (MRAPI_ERR_REQUEST_LIMIT) */
#define M_MRAPI_BYTES 1024       /* contents tracked per segment (bytes past it: not compared) */
#define M_MRAPI_SEG_LIMIT 12     /* the library's segment limit per domain (MRAPI_ERR_MEM_LIMIT) */
#define M_MRAPI_REF_SEG_LIMIT 10 /* the MCA reference implementation's MRAPI_MAX_RMEMS */
#define M_MRAPI_ID_ANY 0xffffffffu
#define M_MRAPI_MAX_USER_ID 0xfffffffeu  /* user ids: every id but ID_ANY (lib/mrapi, as the reference) */
#define M_MRAPI_ANY_FIRST 0x10000u       /* ID_ANY ids: from here, skipping the ids in use */
#define M_MRAPI_SIZE_MAX 0xffffffffu     /* the largest size mrapi_uint_t (32 bits) carries */
#define M_MRAPI_TIMEOUT_INFINITE 0xffffffffu

/* Statuses (code of an M_OUT_MRAPI outcome). */
enum m_mrapi_st {
	M_MRAPI_SUCCESS = 0, M_MRAPI_TIMEOUT = 1, M_MRAPI_ERR_MEM_LIMIT = 2,
	M_MRAPI_ERR_NODE_NOTINIT = 3, M_MRAPI_ERR_NOT_SUPPORTED = 4, M_MRAPI_ERR_PARAMETER = 5,
	M_MRAPI_ERR_RMEM_ID_INVALID = 6, M_MRAPI_ERR_RMEM_ATTACH = 7, M_MRAPI_ERR_RMEM_ATTACHED = 8,
	M_MRAPI_ERR_RMEM_ATYPE = 9, M_MRAPI_ERR_RMEM_ATYPE_NOTVALID = 10, M_MRAPI_ERR_RMEM_BLOCKED = 11,
	M_MRAPI_ERR_RMEM_BUFF_OVERRUN = 12, M_MRAPI_ERR_RMEM_CONFLICT = 13, M_MRAPI_ERR_RMEM_EXISTS = 14,
	M_MRAPI_ERR_RMEM_INVALID = 15, M_MRAPI_ERR_RMEM_NOTATTACHED = 16, M_MRAPI_ERR_RMEM_NOTOWNER = 17,
	M_MRAPI_ERR_RMEM_STRIDE = 18, M_MRAPI_ERR_RMEM_TYPENOTVALID = 19,
	M_MRAPI_ERR_RMEM_ATYPE_INVALID = 20, M_MRAPI_ERR_DOMAIN_NOTSHARED = 21, M_MRAPI_ERR_ATTR_NUM = 22,
	M_MRAPI_ERR_ATTR_SIZE = 23, M_MRAPI_ERR_ATTR_READONLY = 24, M_MRAPI_ERR_REQUEST_LIMIT = 25,
	M_MRAPI_ERR_REQUEST_INVALID = 26, M_MRAPI_ERR_REQUEST_CANCELED = 27, M_MRAPI_INCOMPLETE = 28,
	M_MRAPI_ERR_NODE_INITIALIZED = 29,
	M_MRAPI_ST_COUNT_
};
const char *m_mrapi_st_str(enum m_mrapi_st s);
int m_mrapi_st_parse(const char *name, enum m_mrapi_st *out);

/* Readings a decision chooses between (M_OUT_OK outcomes, code = this). */
enum m_mrapi_reading {
	M_MRAPI_R_SPEC = 0,        /* the spec's reading */
	M_MRAPI_R_FIRST_CHECK = 1, /* checks in the implementation's order, the first failing one answers */
	M_MRAPI_R_AT_COMPLETION = 2, /* a _i call's error is stored in the request, the post says SUCCESS */
	M_MRAPI_R_REF_BOUNDS = 3,  /* the reference implementation's bounds formula, overrun copies nothing */

	M_MRAPI_R_DONE_AT_POST = 4, /* a _i call's transfer is done when the call returns */
};

/*
 * Decision parts of the area-D rules (struct m_deviation.part); 0 is the
 * step's status. The rule each part belongs to is in its comment.
 */
enum m_mrapi_part {
	M_MRAPI_P_STEP = 0,
	M_MRAPI_P_ORDER = 1,        /* RMEM-0, RMEM-CREATE-1, RMEM-RW-4: readings SPEC / FIRST_CHECK */
	M_MRAPI_P_ANY_AGAIN = 3,    /* RMEM-CREATE-2: ID_ANY while a segment created with it lives */
	M_MRAPI_P_ATYPE_ANY = 4,    /* RMEM-CREATE-6: create with ATYPE_ANY */
	M_MRAPI_P_ATYPE_OTHER = 5,  /* RMEM-CREATE-6, RMEM-GET-1: a supported type other than DEFAULT */
	M_MRAPI_P_REF_LIMIT = 6,    /* RMEM-CREATE-1: the 11th segment of a domain */
	M_MRAPI_P_ERR_AT = 7,       /* RMEM-RW-5: readings SPEC / AT_COMPLETION */
	M_MRAPI_P_PENDING = 8,      /* RMEM-RW-5: readings SPEC / DONE_AT_POST */
	M_MRAPI_P_BOUNDS = 9,       /* RMEM-RW-4: readings SPEC / REF_BOUNDS */
	M_MRAPI_P_STRIDE_ONE = 10,  /* RMEM-RW-4: a stride below bytes_per_access with num_strides <= 1 */
	M_MRAPI_P_LITERAL = 11,     /* RMEM-RW-3: inside by the exact end, outside by the literal formula */
	M_MRAPI_P_BAD_ATYPE = 12,   /* RMEM-GET-1: the names of the invalid-atype error */
	M_MRAPI_P_STRICT = 13,      /* RMEM-GET-1: a strict buffer fetched with another type */
	M_MRAPI_P_GET_ANY = 14,     /* RMEM-GET-1: get(ID_ANY) while a segment created with it lives */
	M_MRAPI_P_DELETED = 15,     /* RMEM-GET-2: get of an id whose segment was deleted */
	M_MRAPI_P_PARAM = 16,       /* RMEM-CREATE-3: mem NULL, size 0, attributes not initialised */
	M_MRAPI_P_OVERLAP = 17,     /* RMEM-CREATE-4 */
	M_MRAPI_P_TWICE = 18,       /* RMEM-ATTACH-1: attach again */
	M_MRAPI_P_NOTATT = 19,      /* RMEM-DETACH-1: detach while not attached */
	M_MRAPI_P_OWNER = 20,       /* RMEM-DELETE-1: not the creator */
	M_MRAPI_P_OTHERS = 21,      /* RMEM-DELETE-1: others attached */
	M_MRAPI_P_BLOCKED = 22,     /* RMEM-RW-1: a request of the node on the buffer may be under way */
	M_MRAPI_P_HUGE = 23,        /* RMEM-CREATE-1: a size above M_MRAPI_SIZE_MAX */
	M_MRAPI_P_OWNER_DOMAIN = 24, /* RMEM-DELETE-1: not the creator, a node of the buffer's domain */
	M_MRAPI_P_ANY_ID = 25,      /* RMEM-CREATE-2, RMEM-GET-1: a user id that a live ID_ANY buffer got */
};

/*
 * Besides the outcome, an MRAPI alternative carries in struct m_alt.detail
 * (-1 when nothing; its peer_recv is always -1): for a _i call whose
 * error is reported at completion, the status the request will report; for
 * wait_any, the index (req[]) of the request that completed.
 */

/* Access types (3.12.12): DEFAULT, two real ones, ANY; any other value is not a type. */
enum m_mrapi_atype { M_MRAPI_ATYPE_DEFAULT = 0, M_MRAPI_ATYPE_DMA = 1, M_MRAPI_ATYPE_SWCACHE = 2,
		     M_MRAPI_ATYPE_ANY = 3 };
const char *m_mrapi_atype_str(enum m_mrapi_atype a);
int m_mrapi_atype_parse(const char *name, enum m_mrapi_atype *out);

/* rmem attributes (4.4.2.3): two the caller sets, two read-only ones the implementation reports. */
enum m_mrapi_attr { M_MRAPI_ATTR_ERROR_EXT = 1, M_MRAPI_ATTR_DOMAIN_SHARED = 2,
		    M_MRAPI_ATTR_SIZE = 3, M_MRAPI_ATTR_ATYPE = 4 };
const char *m_mrapi_attr_str(enum m_mrapi_attr a);
int m_mrapi_attr_parse(const char *name, enum m_mrapi_attr *out);
/* The attribute's size in the library's ABI (mrapi_boolean_t, mrapi_uint_t...); 0: no such attribute. */
size_t m_mrapi_attr_size(uint32_t num);

enum m_mrapi_call {
	M_MRAPI_INITIALIZE, M_MRAPI_FINALIZE, M_MRAPI_CREATE, M_MRAPI_INIT_ATTRIBUTES,
	M_MRAPI_SET_ATTRIBUTE, M_MRAPI_GET_ATTRIBUTE, M_MRAPI_GET, M_MRAPI_ATTACH, M_MRAPI_DETACH,
	M_MRAPI_DELETE, M_MRAPI_READ, M_MRAPI_READ_I, M_MRAPI_WRITE, M_MRAPI_WRITE_I, M_MRAPI_FLUSH,
	M_MRAPI_SYNC, M_MRAPI_TEST, M_MRAPI_WAIT, M_MRAPI_WAIT_ANY, M_MRAPI_CANCEL,
	M_MRAPI_LOCAL_STORE, /* the creator writes its own buffer through a pointer (RMEM-COH-1) */
	M_MRAPI_CALL_COUNT_
};
const char *m_mrapi_call_str(enum m_mrapi_call c);
int m_mrapi_call_parse(const char *name, enum m_mrapi_call *out);

/* Pointer arguments passed as NULL (struct m_mrapi_args.nulls). */
enum m_mrapi_null {
	M_MRAPI_NULL_MEM = 1 << 0,     /* create: mem */
	M_MRAPI_NULL_ATTRS = 1 << 1,   /* create, init_attributes, set_attribute: attributes */
	M_MRAPI_NULL_VALUE = 1 << 2,   /* set_attribute: attribute; get_attribute: the output */
	M_MRAPI_NULL_LOCAL = 1 << 3,   /* read/write: local_buf */
	M_MRAPI_NULL_REQUEST = 1 << 4, /* _i calls, test/wait/cancel: the request pointer */
};

/*
 * One call on one node, with every argument of the C call (struct m_op's
 * member mrapi). In an operation, call and node come from the op's kind and
 * node, and the handle the call acts on (struct m_op.obj: the rmem of the
 * rmem calls, the request of test/wait/cancel, the attributes of
 * set_attribute) goes into rmem, req or attrs; init_attributes and the _i
 * calls create (obj -1). Handles are model indexes: rmem = a segment (seg[]), attrs = an attribute struct (attrs[]),
 * req = a request (req[]); the real handle a node holds is valid only if
 * that node obtained it (create or get on that node).
 */
struct m_mrapi_args {
	uint8_t call;        /* enum m_mrapi_call */
	uint8_t node;        /* the model node that calls */
	uint8_t nulls;       /* enum m_mrapi_null bits */
	uint32_t domain;     /* initialize: domain id */
	uint32_t node_id;    /* initialize: node id */
	uint32_t id;         /* create, get: rmem id */
	uint32_t atype;      /* create, get: access type (any value) */
	uint64_t mem, size;  /* create: the buffer's address in the node, size; local_store: offset, len */
	int16_t attrs;       /* create (-1 or NULL bit: NULL), init/set_attribute: attrs[] */
	int16_t rmem;        /* seg[] handle the call names */
	uint32_t attr_num;   /* set/get_attribute */
	uint64_t attr_size;  /* set/get_attribute: the size passed */
	uint64_t attr_value; /* set_attribute: the value */
	/* read/write(_i): the spec's arguments; local_size is read's local_buf_size */
	uint32_t rmem_offset, local_offset, bytes, nstrides, rmem_stride, local_stride;
	uint64_t local_size;
	int16_t local;       /* read/write(_i): the seg[] whose buffer (the calling node created it) is
	                        local_buf, so the model tracks what the call reads and writes there
	                        (model/mrapi/mrapi.c fills data from it); -1: a buffer it does not track */
	const uint8_t *data; /* write: the local buffer's bytes (local_offset.. as the call reads them);
	                        local_store: the bytes stored; NULL: unspecified contents */
	uint64_t data_len;
	int16_t req;         /* test, wait, cancel: req[] */
	uint16_t reqs;       /* wait_any: bit i = req[i] is in the array */
	uint32_t timeout;    /* wait, wait_any */
};

struct m_mrapi_seg {
	uint8_t live, ever;    /* ever: created; live: not deleted, owner not finalized */
	uint8_t owner;         /* model node */
	uint8_t any;           /* created with MRAPI_RMEM_ID_ANY */
	uint8_t strict;        /* RMEM-CREATE-6: the type given is the only one clients may use */
	uint8_t shared, error_ext;
	uint32_t domain, id, atype;
	uint64_t mem, size;
	uint16_t attached;     /* bit n: node n attached */
	uint8_t bytes[M_MRAPI_BYTES];
	uint8_t unknown[M_MRAPI_BYTES];  /* 1: contents unspecified */
};

struct m_mrapi_attrs { uint8_t inited, error_ext, shared; };

struct m_mrapi_req {
	struct m_mrapi_args rw; /* the call that made it (its data pointer is not kept) */
	uint8_t live;          /* handed out and not yet reported complete or canceled */
	uint8_t canceled;      /* canceled: the next test/wait says REQUEST_CANCELED */
	uint8_t node;
	uint8_t status;        /* what the request reports when it completes */
};

struct m_mrapi_node {
	uint8_t init;          /* mrapi_initialize succeeded, no finalize since */
	uint32_t domain, node_id;
	uint16_t held[(M_MRAPI_SEGS + 15) / 16]; /* bit s: this node obtained a handle to seg[s] */
};

struct m_mrapi_model {
	uint8_t nnodes;
	uint8_t nsegs, nreqs;
	uint32_t next_any_id;
	uint32_t atypes;       /* bit t: access type t is supported (the implementation's choice) */
	struct m_mrapi_node node[M_MRAPI_NODES];
	struct m_mrapi_attrs attrs[M_MRAPI_ATTRS];
	struct m_mrapi_req req[M_MRAPI_REQS];
	struct m_mrapi_seg seg[M_MRAPI_SEGS]; /* last; seg[nsegs..]: no part of the state (never read;
	                                         each is written whole when made): see below */
};

/* The bytes of st in use, from its start (seg[nsegs..] left out), and of an empty state: model_init
 * zeroes and model_clone copies only those (a model without MRAPI segments: 2.5 KB, not 35). */
static inline size_t m_mrapi_model_used(const struct m_mrapi_model *st)
{
	return offsetof(struct m_mrapi_model, seg) + st->nsegs * sizeof(st->seg[0]);
}
static inline size_t m_mrapi_model_fixed(void)
{
	return offsetof(struct m_mrapi_model, seg);
}

/* Inline: lib/mrapi (the library) checks its bounds with the same arithmetic, without linking the model. */
static inline uint64_t m_mrapi_last_byte(uint64_t off, uint32_t bytes, uint32_t n, uint32_t stride)
{
	uint64_t span, tail;

	if (n == 0 || bytes == 0)
		return UINT64_MAX;
	span = (uint64_t)(n - 1) * stride; /* < 2^64 */
	if (off > UINT64_MAX - (bytes - 1))
		return UINT64_MAX;
	tail = off + bytes - 1;
	return span > UINT64_MAX - tail ? UINT64_MAX : span + tail;
}

#endif

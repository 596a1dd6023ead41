/*
 * rpmem.h — the model of PMDK's librpmem API (catalog area E), a
 * self-contained module: its own state (targets with their pool sets and
 * pools, clients' handles), its own argument struct, predict and apply.
 *
 * A target is a node running the librpmem target daemon; its root config
 * directory holds pool set files (struct m_rpmem_set: part sizes and the
 * SINGLEHDR / NOHDRS option), each of which describes at most one pool. A
 * handle is what rpmem_create/rpmem_open gave a client. The pool's bytes
 * are modelled as the concatenation the client addresses (pool offset 0 is
 * the first byte of the first part; with headers that first 4096-byte page is
 * the pool header), plus a mask of bytes whose value is unknown (flushed but
 * not drained, RPMEM-FLUSH-1). Headers of later parts are not addressable.
 *
 * Outcomes are errno values (M_OUT_ERRNO) or M_OUT_OK, as librpmem reports
 * them. Alternatives carry effect M_EFF_DO (the call takes effect),
 * M_EFF_NONE (nothing changes) or M_EFF_QP_ERR (a data call failed in the
 * transport: the handle keeps the error, RPMEM-ERR-1).
 *
 * Pure C11: no I/O, no globals. The state owns the pools' bytes: release
 * them with m_rpmem_free(); m_rpmem_clone() deep-copies. It is the family's
 * domain-wide state (model/state.def MODEL_STATE(rpmem): struct model's
 * member rpmem; target t is node t), registered as m_family_rpmem
 * (model/rpmem/rpmem.c) with clone/free hooks for those bytes.
 */
#ifndef RDMACHECK_MODEL_RPMEM_H
#define RDMACHECK_MODEL_RPMEM_H

#include <stddef.h>
#include <stdint.h>

struct m_pred;
struct m_profile;

#define M_RPMEM_TARGETS 4
#define M_RPMEM_SETS 8          /* pool set files per target */
#define M_RPMEM_PARTS 8         /* parts per pool set */
#define M_RPMEM_HANDLES 16
#define M_RPMEM_LANES 16        /* lanes the model tracks pending flushes for */
#define M_RPMEM_PENDING 8       /* flushed, undrained ranges per lane */
#define M_RPMEM_NAME_MAX 64
#define M_RPMEM_HDR 4096u                 /* the pool (and part) header */
#define M_RPMEM_MIN_POOL 8192u            /* RPMEM_MIN_POOL */
#define M_RPMEM_MIN_PART (2u << 20)       /* RPMEM_MIN_PART */
#define M_RPMEM_SPAN_MAX (64u << 20)      /* the largest pool the model holds bytes for */

/* Flags: librpmem.h's values. */
#define M_RPMEM_PERSIST_RELAXED 1u
#define M_RPMEM_FLUSH_RELAXED 1u
#define M_RPMEM_REMOVE_FORCE 1u
#define M_RPMEM_REMOVE_POOL_SET 2u

/* Pool set options (PMDK's OPTION lines). */
enum m_rpmem_opt { M_RPMEM_OPT_NONE = 0, M_RPMEM_OPT_SINGLEHDR = 1, M_RPMEM_OPT_NOHDRS = 2 };
const char *m_rpmem_opt_str(enum m_rpmem_opt o);
int m_rpmem_opt_parse(const char *name, enum m_rpmem_opt *out);

/* struct rpmem_pool_attr (librpmem.h), byte for byte. */
struct m_rpmem_attr {
	char signature[8];
	uint32_t major, compat_features, incompat_features, ro_compat_features;
	unsigned char poolset_uuid[16], uuid[16], next_uuid[16], prev_uuid[16], user_flags[16];
};

struct m_rpmem_set {
	uint8_t used;
	uint8_t malformed;          /* the file does not parse (RPMEM-ERRNO-1: EINVAL) */
	uint8_t opt;                /* enum m_rpmem_opt */
	uint8_t nparts;
	char name[M_RPMEM_NAME_MAX];
	uint64_t part[M_RPMEM_PARTS];
	/* the pool it describes */
	uint8_t exists;             /* part files are there */
	uint8_t consistent;         /* every part and header is intact */
	uint8_t has_hdr;            /* created with attributes (RPMEM-HDR-1) */
	int16_t owner;              /* the handle that has it open, -1 */
	struct m_rpmem_attr attr;
	uint64_t span;              /* addressable bytes (m_rpmem_span) */
	uint8_t *data, *unknown;    /* span bytes each; NULL while the pool does not exist */
};

struct m_rpmem_target {
	uint8_t used;
	uint32_t max_lanes;         /* the daemon's limit */
	struct m_rpmem_set set[M_RPMEM_SETS];
};

struct m_rpmem_range { uint64_t off, len; };

struct m_rpmem_handle {
	uint8_t live, ever;
	uint8_t target, set;
	uint8_t hdr;                /* the pool has a header (guard at offset 4096) */
	uint8_t attr_null_or_zero;  /* open: open_attr NULL or all-zero attributes (RPMEM-HDR-2) */
	int32_t error;              /* the sticky errno, 0 (RPMEM-ERR-1) */
	uint32_t nlanes;
	uint64_t pool_size;
	uint8_t *local;             /* the client's pool_addr bytes (pool_size) */
	uint8_t npend[M_RPMEM_LANES];
	struct m_rpmem_range pend[M_RPMEM_LANES][M_RPMEM_PENDING];
};

struct m_rpmem_model {
	uint8_t ntargets;
	uint16_t nh;
	struct m_rpmem_target target[M_RPMEM_TARGETS];
	struct m_rpmem_handle h[M_RPMEM_HANDLES]; /* h[nh..]: no part of the state (never read; each
	                                             is written whole when made): see below */
};

/* The bytes of s in use, from its start (h[nh..] left out), and of an empty state: model_init zeroes
 * and model_clone copies only those (a model without librpmem handles: 9 KB, not 42). */
static inline size_t m_rpmem_model_used(const struct m_rpmem_model *s)
{
	return offsetof(struct m_rpmem_model, h) + s->nh * sizeof(s->h[0]);
}
static inline size_t m_rpmem_model_fixed(void)
{
	return offsetof(struct m_rpmem_model, h);
}

enum m_rpmem_kind {
	M_RPMEM_CREATE, M_RPMEM_OPEN, M_RPMEM_SET_ATTR, M_RPMEM_CLOSE, M_RPMEM_REMOVE,
	M_RPMEM_PERSIST, M_RPMEM_DEEP_PERSIST, M_RPMEM_FLUSH, M_RPMEM_DRAIN, M_RPMEM_READ,
	M_RPMEM_FILL,       /* the client writes byte into [offset, offset+len) of its pool_addr */
	M_RPMEM_LINK_DOWN,  /* the lanes' connections break (the target went away) */
	M_RPMEM_KILL,       /* the client process vanishes (SIGKILL): the target closes the pool */
	M_RPMEM_POOLSET,    /* configuration: a pool set file on the target (m_rpmem_set_add) */
	M_RPMEM_KIND_COUNT_
};
const char *m_rpmem_kind_str(enum m_rpmem_kind k);
int m_rpmem_kind_parse(const char *name, enum m_rpmem_kind *out);

/*
 * Every argument of every call. Pointer arguments passed as NULL are bits of
 * nulls (M_RPMEM_NULL_*); pool_addr is the address value (its page offset
 * matters, RPMEM-ARGS-1; 0 is NULL).
 */
enum m_rpmem_null {
	M_RPMEM_NULL_NLANES = 1 << 0,   /* create/open: nlanes */
	M_RPMEM_NULL_ATTR = 1 << 1,     /* create: create_attr; open: open_attr; set_attr: attr */
};
struct m_rpmem_args {
	uint8_t kind;                   /* enum m_rpmem_kind */
	uint8_t target;
	uint8_t nulls;
	char set[M_RPMEM_NAME_MAX];     /* create/open/remove: pool_set_name */
	uint64_t pool_addr, pool_size;  /* create/open */
	uint32_t nlanes;                /* create/open: *nlanes on input */
	uint32_t nlanes_out;            /* create/open: what the call gave back (apply; 0: the most allowed) */
	uint32_t max_nlanes_env;        /* RPMEM_MAX_NLANES of the client (0: unset) */
	struct m_rpmem_attr attr;       /* create_attr / set_attr's attr */
	int16_t h;                      /* the handle acted on */
	uint64_t offset, len;
	uint32_t lane;
	uint32_t flags;
	uint8_t byte;                   /* fill */
	/* poolset: the file `set` on target, its option, parts and whether it parses */
	uint8_t opt;                    /* enum m_rpmem_opt */
	uint8_t nparts;
	uint8_t malformed;
	uint64_t part[M_RPMEM_PARTS];
};

/* Initialise with ntargets targets (1..M_RPMEM_TARGETS). Returns 0 or -EINVAL. */
int m_rpmem_init(struct m_rpmem_model *s, unsigned ntargets);
void m_rpmem_free(struct m_rpmem_model *s);
int m_rpmem_clone(struct m_rpmem_model *dst, const struct m_rpmem_model *src);

/*
 * Configure target t: a pool set file `name` in its root config directory
 * (parts sizes[0..nparts), option opt; malformed: a file that does not
 * parse). Returns 0, -EINVAL, -EEXIST (the name is taken) or -ENOSPC.
 */
int m_rpmem_set_add(struct m_rpmem_model *s, unsigned t, const char *name, enum m_rpmem_opt opt, unsigned nparts,
		    const uint64_t *sizes, int malformed);
/* The daemon's lane limit on target t (default 64). */
int m_rpmem_set_max_lanes(struct m_rpmem_model *s, unsigned t, uint32_t max_lanes);
/* Damage the pool of set `name` out of band (a part file removed or a header torn). */
int m_rpmem_damage(struct m_rpmem_model *s, unsigned t, const char *name);

/* Usable size of a set (RPMEM-SIZE-1) and the bytes a client can address (span). */
uint64_t m_rpmem_usable(const struct m_rpmem_set *st);
uint64_t m_rpmem_span(const struct m_rpmem_set *st);

/* The largest *nlanes a create/open of a may report (RPMEM-NLANES-1); at least 1. */
uint32_t m_rpmem_nlanes_max(const struct m_rpmem_model *s, const struct m_rpmem_args *a);

/*
 * Predict a on s under profile p: every allowed alternative, each with the
 * rules that decided. Returns 0 (out->n >= 1), or -EINVAL for arguments the
 * model cannot express (unknown target, a handle that is not live, a fill
 * outside the client's pool, a successful create/open of more than
 * M_RPMEM_SPAN_MAX bytes) — a scenario error, not an outcome.
 * out->op is left zero (the args are the caller's), out->res resolves nothing
 * and every alternative has peer_state M_NO_PEER.
 */
int m_rpmem_predict(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
		    struct m_pred *out);
/*
 * Commit alternative i of pred (made by m_rpmem_predict for a on this s).
 * *created receives the new handle for a successful create/open, else -1.
 * Returns 0, -EINVAL (bad index) or -ENOSPC / -ENOMEM.
 */
int m_rpmem_apply(struct m_rpmem_model *s, const struct m_rpmem_args *a, const struct m_pred *pred, size_t i,
		  int *created);

/* The attributes rpmem_open puts into open_attr for pool set `name` (zeros without a header). */
int m_rpmem_open_attr(const struct m_rpmem_model *s, unsigned t, const char *name, struct m_rpmem_attr *out);

/*
 * The attributes' fields as query results (model/rpmem/query.c): names, and
 * field i of a as a number (8-byte fields little-endian; a 16-byte field is
 * two, NAME_lo its bytes 0-7 and NAME_hi 8-15).
 */
#define M_RPMEM_ATTR_KEYS 15
extern const char *const m_rpmem_attr_keys[M_RPMEM_ATTR_KEYS];
uint64_t m_rpmem_attr_value(const struct m_rpmem_attr *a, unsigned i);
/*
 * What the create or open a just committed gave back (call after apply):
 * "nlanes" from 1 to m_rpmem_nlanes_max (RPMEM-NLANES-1) and, for an open
 * with open_attr, every attribute field (RPMEM-HDR-2). 0, or -EINVAL when a
 * is neither or its pool is not open.
 */
struct m_qres;
int m_rpmem_query(const struct m_rpmem_model *s, const struct m_rpmem_args *a, struct m_qres *out);

/*
 * Compare len bytes of part `part` of set `name`'s pool, from part-file
 * offset off, with real[]. Header pages and bytes whose value is unknown
 * match anything. Returns -1 if equal, the first differing offset (relative
 * to off), or -2 for a part or range that does not exist.
 */
long m_rpmem_part_compare(const struct m_rpmem_model *s, unsigned t, const char *name, unsigned part, uint64_t off,
			  const uint8_t *real, size_t len);

#endif

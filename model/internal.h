/* internal.h — helpers shared by the model's files (not a public API). */
#ifndef RDMACHECK_MODEL_INTERNAL_H
#define RDMACHECK_MODEL_INTERNAL_H

#include "model/model.h"

#include <errno.h>
#include <stddef.h>

#define M_SET_MAX 8
/* A set of outcomes a rule allows at one decision. */
struct m_set {
	uint8_t n;
	uint8_t dev; /* m_decide's sets: 1 + the index in the profile's table (struct m_profile.dev) of the
	                last deviation that changed the set, 0 none (struct m_alt.dev); unset in sets built
	                by hand */
	struct m_outcome o[M_SET_MAX];
};

/* Decision parts (struct m_deviation.part). */
enum { PART_STEP = 0, PART_PEER_RECV = 1, PART_UNBOUND_T2 = 1, PART_PROT_NONE = 1,
       PART_REMOTE = 2, PART_RANGE = 1, PART_KEPT = 1, PART_RECV_Q = 1, PART_RECV_FLUSH = 2,
       /* MW-INV-3: a kept LOCAL_INV of an unbound type-2 window, when it runs */
       PART_KEPT_T2 = 2,
       /* LP-7: num_sge over the QP's max_send_sge */
       PART_SGE = 1,
       /* SRQ-3: a receive SGE valid in its SRQ's PD only (PART_STEP: in its QP's only) */
       PART_SRQ_PD = 1,
       /* LP-8: the later-packet failure of a SEND its RC peer has no receive for (RNR NAKs) */
       PART_LATER_RNR = 1,
       /* LP-9: an inline READ a profile sends as a READ, whose response lands in the caller's bytes */
       PART_INLINE_LAND = 1,
       /* LIM-2: an SRQ of max_srq_wr WQEs of max_srq_sge SGEs (PART_STEP: any other create at a limit) */
       PART_LIM_SRQ = 1,
       /* RECV-WC-1 (recvwc.c; outcomes M_OUT_OK whose code is wc_flags bits): PART_STEP the flags an RC or
        * UC receive carries besides the immediate's and the invalidate's; UD's; the bit(s) a
        * SEND_WITH_INV's receive carries for IBV_WC_WITH_INV */
       PART_WCF_UD = 1, PART_WCF_INV = 2,
       /* librpma (rpma.c): RPMA-DESC-3 usage byte 0; RPMA-FLUSH-1 unknown type */
       PART_RPMA_USAGE0 = 1, PART_RPMA_FLUSH_TYPE = 1 };

#define O_OK ((struct m_outcome){ M_OUT_OK, 0 })
#define O_ERR(e) ((struct m_outcome){ M_OUT_ERRNO, (int32_t)(e) })
#define O_WC(s) ((struct m_outcome){ M_OUT_WC, (int32_t)(s) })
#define O_CRASH ((struct m_outcome){ M_OUT_CRASH, 0 })
#define O_RPMA(e) ((struct m_outcome){ M_OUT_RPMA, (int32_t)(e) })
#define O_DAT(e) ((struct m_outcome){ M_OUT_DAT, (int32_t)(e) })
#define O_DTO(e) ((struct m_outcome){ M_OUT_DTO, (int32_t)(e) })

/* Decision parts chained apart in a built-in profile's table (profile.c); a deviation of a later
 * part is found along its rule's chain. */
#define M_DEV_PARTS 4

/*
 * The index of p's first deviation on rule at or after index d, or p->ndev if
 * none: a walk along a built-in profile's deviations of one rule (profile.c
 * keeps them chained) takes no look at the others'.
 */
size_t m_profile_dev_next(const struct m_profile *p, enum m_rule rule, size_t d);
/*
 * The same walk with one look for the profile's chain (m_decide's): the
 * first index as m_profile_dev_next(p, rule, 0) gives it, and *chain the
 * built-in table's chain of it (NULL for another table); after index d the
 * next is m_profile_dev_after's.
 */
size_t m_profile_dev_first(const struct m_profile *p, enum m_rule rule, const uint16_t **chain);
/* A built-in profile's deviations chained (profile.c builds them once; m_profile_get's hint in
 * struct m_profile.walks). */
#define CHAIN_DEV_MAX 1024
struct m_dev_walks {
	const struct m_deviation *dev; /* the table these chains are of, and its length */
	size_t ndev;
	uint16_t first[M_RULE_COUNT_]; /* the rule's first deviation; ndev: none */
	uint16_t next[CHAIN_DEV_MAX];  /* the next of deviation d's rule after d; ndev: none */
	uint16_t part_first[M_RULE_COUNT_][M_DEV_PARTS]; /* the first of the rule's at that part; ndev: none */
	uint16_t part_next[CHAIN_DEV_MAX]; /* the next of deviation d's rule and part after d; ndev: none */
};
/* Are w the chains of p's table (a copy of a profile may have been given another table or length)? */
static inline int m_dev_walks_hold(const struct m_dev_walks *w, const struct m_profile *p)
{
	return w && w->dev == p->dev && w->ndev == p->ndev;
}
/* The same walk for the deviations of rule at decision part only (m_decide's: *chain then the
 * built-in table's chain of that rule and part); the walk may visit others (a table scanned).
 * Inline, as every decision of every step asks: the hint's check and two loads; else
 * m_profile_dev_part_scan (profile.c) looks. */
size_t m_profile_dev_part_scan(const struct m_profile *p, enum m_rule rule, unsigned part, const uint16_t **chain);
static inline size_t m_profile_dev_part_first(const struct m_profile *p, enum m_rule rule, unsigned part,
					      const uint16_t **chain)
{
	const struct m_dev_walks *w = p->walks;

	if (m_dev_walks_hold(w, p) && (unsigned)rule < M_RULE_COUNT_ && part < M_DEV_PARTS) {
		*chain = w->part_next;
		return w->part_first[rule][part];
	}
	return m_profile_dev_part_scan(p, rule, part, chain);
}
static inline size_t m_profile_dev_after(const struct m_profile *p, enum m_rule rule, const uint16_t *chain,
					 size_t d)
{
	return chain ? chain[d] : m_profile_dev_next(p, rule, d + 1);
}
/* The set rule allows at decision part under profile p: generic outs[0..n),
 * then every matching deviation applied in table order. m_decide_into writes
 * it into *s in place: for the decisions most steps make, as a set built in
 * m_decide's frame and copied out is a stalled copy (its bytes just stored). */
struct m_set m_decide(const struct m_profile *p, enum m_rule rule, unsigned part,
		      const struct m_outcome *outs, unsigned n);
void m_decide_into(struct m_set *s, const struct m_profile *p, enum m_rule rule, unsigned part,
		   const struct m_outcome *outs, unsigned n);
#define DECIDE(p, rule, part, ...)                                                      \
	m_decide(p, M_RULE_##rule, part, (const struct m_outcome[]){ __VA_ARGS__ },     \
		 sizeof((const struct m_outcome[]){ __VA_ARGS__ }) / sizeof(struct m_outcome))
#define DECIDE_INTO(s, p, rule, part, ...)                                                 \
	m_decide_into(s, p, M_RULE_##rule, part, (const struct m_outcome[]){ __VA_ARGS__ },   \
		      sizeof((const struct m_outcome[]){ __VA_ARGS__ }) / sizeof(struct m_outcome))

/* Inline, as the few helpers below: every decision of every step calls them. */
static inline int m_outcome_eq(struct m_outcome a, struct m_outcome b)
{
	return a.kind == b.kind && a.code == b.code;
}
/* Does alternative a name rule r among the rules that decided it? */
int m_alt_has_rule(const struct m_alt *a, enum m_rule r);
static inline int m_set_has(const struct m_set *s, struct m_outcome o)
{
	for (unsigned i = 0; i < s->n; i++)
		if (m_outcome_eq(s->o[i], o))
			return 1;
	return 0;
}

/* Rules that decided an alternative, up to M_RULES_MAX. */
struct m_why {
	uint8_t n;
	uint8_t dev; /* 1 + the index of the profile's deviation that decided, 0 none (struct m_alt.dev) */
	uint16_t r[M_RULES_MAX];
};
/* Add r to w unless it is there (bounded by M_RULES_MAX). */
static inline void m_why_add(struct m_why *w, enum m_rule r)
{
	for (unsigned i = 0; i < w->n; i++)
		if (w->r[i] == r)
			return;
	if (w->n < M_RULES_MAX)
		w->r[w->n++] = (uint16_t)r;
}

/*
 * Add one alternative per outcome of set to pred, all with the given effect,
 * rules and peer receive status; duplicates (same outcome, effect and peer
 * receive) are merged. Silently bounded by M_ALT_MAX.
 */
void m_alts_add(struct m_pred *pred, const struct m_set *set, enum m_effect effect,
		const struct m_why *why, int peer_recv);
/* Same for one outcome. */
void m_alt_add(struct m_pred *pred, struct m_outcome o, enum m_effect effect,
	       const struct m_why *why, int peer_recv);
/* One outcome with no peer receive and the family's datum detail (struct m_alt.detail; merged
 * only with an alternative of the same detail). */
void m_alt_add_detail(struct m_pred *pred, struct m_outcome o, enum m_effect effect,
		      const struct m_why *why, int detail);

/* State helpers (state.c). */
int m_mr_by_lkey(const struct m_node *nd, uint32_t lkey);   /* live MR handle or -1 */
int m_mr_by_rkey(const struct m_node *nd, uint32_t rkey);   /* live MR handle or -1 */
int m_mw_by_rkey(const struct m_node *nd, uint32_t rkey);   /* live MW handle or -1 */
/* [a, a+len) inside [lo, lo+span)? Overflow-safe. */
static inline int m_range_ok(uint64_t a, uint64_t len, uint64_t lo, uint64_t span)
{
	return a >= lo && len <= span && a - lo <= span - len;
}
/* A key of node nd never given before. */
static inline uint32_t m_new_key(struct m_node *nd)
{
	return nd->next_key++;
}

/* ----------------------------------------------------- the registry -- */

/*
 * An API family's hooks (model/family.c dispatches through them; each
 * family defines const struct m_family_ops m_family_<name> in its own files and
 * has a row in model/families.def).
 *
 * init     set up the family's state on a freshly zeroed model (nnodes set);
 *          NULL: zeroed state is the start state.
 * predict  out->op is the operation (a kind of this family, on an existing
 *          node, model not crashed), out->res reset (m_pred_init): add every
 *          allowed alternative. Returns 0 or -EINVAL (model_predict's).
 * apply    commit alternative i (< pred->n) of a prediction this family made;
 *          *created is -1 on entry. Returns model_apply's.
 * query    what query op reports (out->n = 0, node checked); NULL: the family
 *          has no queries (model_query returns -EINVAL).
 * clone    for state that owns memory (NULL: plain data, copied by value).
 *          On entry dst's state is a byte copy of src's; make dst own a deep
 *          copy. On failure dst's state must own nothing (its pointers NULL)
 *          and the hook returns -ENOMEM; model_clone then releases dst.
 * free     release what the family's state owns and leave it owning nothing
 *          (NULL: nothing to release). Called by model_free, also on a model
 *          whose clone failed.
 */
struct m_family_ops {
	void (*init)(struct model *m);
	int (*predict)(const struct model *m, const struct m_profile *p, struct m_pred *out);
	int (*apply)(struct model *m, const struct m_pred *pred, size_t i, int *created);
	int (*query)(const struct model *m, const struct m_profile *p, const struct m_op *op,
		     struct m_qres *out);
	int (*clone)(struct model *dst, const struct model *src);
	void (*free)(struct model *m);
};

/* Every family's clone / free hook (family.c): model_clone, model_free. */
int m_families_clone(struct model *dst, const struct model *src);
void m_families_free(struct model *m);

#define M_FAMILY_OPS_0(name)
#define M_FAMILY_OPS_1(name) extern const struct m_family_ops m_family_##name;
#define FAMILY(sym, name, model) M_FAMILY_OPS_##model(name)
#include "model/families.def"
#undef FAMILY
#undef M_FAMILY_OPS_0
#undef M_FAMILY_OPS_1

/* An empty prediction of op: no alternative, nothing resolved. */
void m_pred_init(struct m_pred *pred, const struct m_op *op);

/*
 * The verbs underneath another family (model/verbs/step.c). A family that
 * its library carries out with verbs translates its step into the verbs
 * operation vop and asks the verbs family itself (never the public entry
 * points again), so the same rule IDs decide underneath.
 *
 * m_verbs_step_predict: predict verbs op vop on m into *vp (as model_predict
 * would, minus the crash and peer-state bookkeeping the caller's own
 * prediction gets). Returns 0 or -EINVAL.
 * m_verbs_step_apply: commit vop with the effect of alternative a and what
 * predict resolved (res); a NULL: the plain success (M_EFF_DO), res NULL:
 * nothing resolved. *created receives the new handle or -1. Returns
 * model_apply's.
 */
int m_verbs_step_predict(const struct model *m, const struct m_profile *p, const struct m_op *vop,
			 struct m_pred *vp);
int m_verbs_step_apply(struct model *m, const struct m_op *vop, const struct m_resolved *res,
		       const struct m_alt *a, int *created);

/* Add one query result to q (bounded by M_QRES_MAX). */
void m_qres_add(struct m_qres *q, const char *key, enum m_qmode mode, uint64_t value, enum m_rule rule);
/* A result allowed from lo to hi (M_Q_RANGE). */
void m_qres_add_range(struct m_qres *q, const char *key, uint64_t lo, uint64_t hi, enum m_rule rule);
/* A result that is one of the flags of mask, a single bit (M_Q_ONEFLAG). */
void m_qres_add_flag(struct m_qres *q, const char *key, uint64_t mask, enum m_rule rule);

/* Where struct model's domain-wide state begins, after node[M_MAX_NODES] (model_clone). */

/* A page of a buffer's contents (mem.c): shared by the models that hold it (refs), copied on write. */
struct m_page {
	uint32_t refs;
	uint8_t bytes[M_PAGE];
	uint8_t unknown[M_PAGE]; /* 1 where unspecified */
};
struct m_pgref {
	uint64_t idx; /* the page's index: its bytes are [idx * M_PAGE, (idx + 1) * M_PAGE) of the buffer */
	struct m_page *p;
};
/* One buffer's contents: the pages written, sorted by idx; any other byte is 0, known. */
struct m_mem {
	uint64_t len;
	uint32_t n, cap;
	uint8_t full; /* a write went past M_MR_BYTES_MAX of pages, or found no memory: not all was written */
	struct m_pgref *pg;
};
/* A new buffer's contents, len bytes, all 0 and known. 0 or -ENOMEM. */
int m_mem_new(struct m_mem **out, uint64_t len);
/* Release mem (NULL: nothing); its pages go when no other copy holds them. */
void m_mem_drop(struct m_mem *mem);
/* A copy of src sharing its pages (copied when either writes), or NULL (no memory). */
struct m_mem *m_mem_clone(const struct m_mem *src);
/* The writes: [off, off+len) of mem set to byte (known); marked unknown (1) or known (0), bytes kept;
 * set to b[] with every byte's mark unknown; copied from src at soff with its marks (src may be mem,
 * overlapping: as memmove). A buffer full (m_mem.full) takes no more. */
void m_mem_fill(struct m_mem *mem, uint64_t off, int byte, uint64_t len);
void m_mem_mark(struct m_mem *mem, uint64_t off, uint64_t len, int unknown);
void m_mem_put(struct m_mem *mem, uint64_t off, const uint8_t *b, uint64_t len, int unknown);
void m_mem_copy(struct m_mem *dst, uint64_t doff, const struct m_mem *src, uint64_t soff, uint64_t len);
/* len bytes of mem from off into b; *unknown: 1 if any of them is unspecified. */
void m_mem_get(const struct m_mem *mem, uint64_t off, uint8_t *b, uint64_t len, int *unknown);

/* [off, off+len) of MR mr (its own offsets) becomes unspecified; an MR without memory: nothing. */
static inline void m_mr_unknown(struct m_mr *mr, uint64_t off, uint64_t len)
{
	if (mr->mem)
		m_mem_mark(mr->mem, mr->moff + off, len, 1);
}
/* len bytes b[] (all unspecified, or all known: unknown) at off of MR mr. */
static inline void m_mr_put(struct m_mr *mr, uint64_t off, const uint8_t *b, uint64_t len, int unknown)
{
	if (mr->mem)
		m_mem_put(mr->mem, mr->moff + off, b, len, unknown);
}

#endif

/*
 * scngen_int.h — what the scenario generator's proposal makers share
 * (internal to harness/explore: scngen.c for verbs, scngen_api.c for the
 * librpma and uDAPL families and the families' dispatch, scngen_mrapi.c
 * MRAPI, scngen_rpmem.c librpmem, scngen_pick.c what they all draw with). A proposal
 * reads the prefix's run on the model (its parse, its objects' model handles)
 * and draws with the
 * generator's random source; it writes one step line or answers -EAGAIN
 * (nothing to act on: draw again).
 */
#ifndef RDMACHECK_EXPLORE_SCNGEN_INT_H
#define RDMACHECK_EXPLORE_SCNGEN_INT_H

#include "harness/explore/scngen.h"

/* What a proposal reads: the prefix's run and the random source. */
struct gctx {
	struct model_gen *g;
	const struct ex_eval *e;
	const struct model *m;
	unsigned nnodes, step; /* step: the index the proposal will have (names are unique by it) */
	enum m_family fam;      /* the family the case draws from */
};

enum want { W_ANY, W_LIVE };

/* Is object o (created in the model, handle h) live there? */
int obj_live(const struct gctx *x, const struct scn_obj *o, int h);
/* How many objects of class cls live on node (nothing drawn). */
unsigned live_n(const struct gctx *x, unsigned node, uint32_t cls);
/* A uniformly drawn integer in [0, n) (0 when n is 0). */
uint32_t below(struct gctx *x, uint32_t n);
/* Another node than node, uniformly (x->nnodes >= 2). */
unsigned other(struct gctx *x, unsigned node);
/* A kind drawn by weights w[0..n) (all zero: kind 0). */
unsigned weighted(struct gctx *x, const unsigned *w, unsigned n);
/*
 * A random scenario object of class cls on node that the model created
 * (live or, with W_ANY, dead too: stale handles and keys); *h its handle
 * (h may be NULL). Returns its index in the case's objects, or -1.
 */
int32_t pick(struct gctx *x, unsigned node, uint32_t cls, enum want w, int *h);
/* The name of object o of the prefix. */
const char *oname(const struct gctx *x, int32_t o);
/* The flags of table t whose bits are in v, joined by '|' ("0" for none). */
void flags_str(enum scn_table t, uint64_t v, char *buf, size_t len);
/* Each of bits' flags with probability 1/2. */
uint32_t some_of(struct gctx *x, uint32_t bits);
/* An offset in a buffer of len bytes: the start, inside, at and across the end (atomic: 8-aligned mostly). */
uint64_t edge_off(struct gctx *x, uint64_t len, int atomic);
/* A length for a request starting at off in len bytes: empty, small, exact, across the end. */
uint64_t edge_len(struct gctx *x, uint64_t len, uint64_t off);

/*
 * "NODE: CALL NAME[TAIL]" into line, NAME an object of class cls on node
 * picked as pick() does. 0, or -EAGAIN (none).
 */
int act_on(struct gctx *x, unsigned node, uint32_t cls, enum want w, const char *call, const char *tail, char *line,
	   size_t len);
/* "NODE: fill NAME byte=B" for a live object of class cls on node (B random, 1..254). 0 or -EAGAIN. */
int fill_one(struct gctx *x, unsigned node, uint32_t cls, char *line, size_t len);

/*
 * The families but verbs (scngen_api.c dispatches): a node and a kind of
 * step for family x->fam, drawn by the objects the prefix holds; then one
 * proposal of that kind (0, or -EAGAIN: draw again).
 */
void api_draw(struct gctx *x, unsigned *node, unsigned *kind);
int api_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len);
/* The steps a case of family fam begins with (uDAPL: dat_ia_open on every node). 0 or -ENOMEM. */
int api_opening(enum m_family fam, struct ex_case *c);

/*
 * The verbs steps beyond PDs, MRs, windows and RC posts (scngen_verbs.c): CQs and their
 * actions, completion channels, SRQs, UD address handles and sends through them, device and
 * port queries, rereg_mr, modify_qp one transition at a time. vx_weight: the kind's weight on
 * node in the prefix's state (0: nothing to act on); vx_propose: one proposal (0 or -EAGAIN);
 * vx_qp_tail: create_qp's extra arguments (type, CQs, SRQ, queue depths, inline, ex=yes) or "".
 */
enum vx_kind { VX_CQ, VX_CQ_ACT, VX_CHAN, VX_SRQ, VX_AH, VX_UD_SEND, VX_QUERY, VX_REREG, VX_STATE, VX_COUNT_ };
unsigned vx_weight(const struct gctx *x, unsigned node, enum vx_kind k);
int vx_propose(struct gctx *x, unsigned node, enum vx_kind k, char *line, size_t len);
void vx_qp_tail(struct gctx *x, unsigned node, int all, char *tail, size_t len); /* all 0: the type alone */

/* MRAPI (scngen_mrapi.c), as api_draw / api_propose; its opening: mrapi_initialize on every node. */
void mrapi_draw(struct gctx *x, unsigned *node, unsigned *kind);
int mrapi_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len);
int mrapi_opening(struct ex_case *c);
/* librpmem (scngen_rpmem.c), as api_draw / api_propose; its opening: a pool set file on node b (a alone: a). */
void rpmem_draw(struct gctx *x, unsigned *node, unsigned *kind);
int rpmem_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len);
int rpmem_opening(struct ex_case *c);

#endif

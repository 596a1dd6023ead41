/*
 * be_model.h — the reference model as a backend (backend.h), and as the
 * oracle the coordinator consults before every real step.
 *
 * It keeps one struct model for a scenario and maps scenario objects to
 * model handles. As a backend (be_model_ops) it runs each call as the model
 * would simulate it (first allowed alternative). As the oracle, bm_predict
 * gives the allowed sets under the profile and under the generic reading,
 * and bm_commit advances the model along the alternative reality took.
 */
#ifndef RDMACHECK_BE_MODEL_H
#define RDMACHECK_BE_MODEL_H

#include "harness/run/backend.h"

#define BM_TABLES 4    /* the model's per-node object tables scenario objects share */
#define BM_HOLD_MAX M_MAX_MR /* handles a table gives: its slots, the MR table's the most */

struct be_model {
	struct model m;
	struct m_profile prof, gen;
	const struct scn_file *f;
	int16_t h[SCN_OBJS_MAX];   /* model handle of each scenario object; -1 not created,
	                              BM_STALE destroyed and its slot given to another */
	int8_t recv[SCN_OBJS_MAX]; /* as an engine: a QP's receive completion not yet
	                              reported by peer() (enum m_wc_status), -1 none */
	/* The object that was last given handle h of node n's model table t (be_model.c's
	 * tables: pd, mr, mw, qp), -1 none: the only one that can still hold h there. */
	int16_t holder[SCN_NODES_MAX][BM_TABLES][BM_HOLD_MAX];
};

#define BM_STALE (-2) /* be_model.h: a destroyed object whose model slot was reused */

extern const struct backend_ops be_model_ops;

/*
 * *gen = the specification's reading of prof's stack: the generic rules with
 * prof's capabilities (a missing optional feature is not a deviation). The
 * one computation of the generic set's profile (bm_init's gen, run_walk's
 * engine).
 */
void bm_generic(const struct m_profile *prof, struct m_profile *gen);

/* Start an empty model for f (its nodes) under profile prof. Returns 0 or -errno. */
int bm_init(struct be_model *bm, const struct scn_file *f, const struct m_profile *prof);
/* Release what bm owns. */
void bm_free(struct be_model *bm);

/*
 * dst = a copy of src in its state (its own model: model_clone) for file f
 * (src's file or one grown from it). dst needs no release on failure. 0 or
 * -ENOMEM.
 */
int bm_clone(struct be_model *dst, const struct be_model *src, const struct scn_file *f);

/*
 * The model's allowed sets for c: under the profile (*prof) and under the
 * generic reading (*gen; may be NULL). Returns 0, -ENOENT when c names an
 * object the model never created (its creation failed), or -EINVAL when the
 * model rejects the operation as malformed.
 */
int bm_predict(const struct be_model *bm, const struct hcall *c, struct m_pred *prof, struct m_pred *gen);

/*
 * Commit alternative i of p (from bm_predict for c); creations record c->obj
 * (and forget the handle of a destroyed object whose slot it got: BM_STALE).
 * Returns 0, model_apply's error, or -EFBIG when the memory the model holds
 * passed its bound (model_mem_check: M_MR_BYTES_MAX of pages written).
 */
int bm_commit(struct be_model *bm, const struct hcall *c, const struct m_pred *p, size_t i);

/* The model handle of scenario object o, or -1 (not created, or o < 0), or BM_STALE. */
int16_t bm_handle(const struct be_model *bm, int32_t o);
/*
 * *h = the model handle of scenario object o; o < 0 (none named) leaves *h
 * alone. Returns 0, or -ENOENT when o was named but never created or is stale (for the
 * families' model_op, family.h).
 */
int bm_map(const struct be_model *bm, int32_t o, int16_t *h);

/*
 * The results of q (model_query's for a step of call on node) that are objects (the call's query
 * spec takes SCN_V_OBJ: fields pd=) as scenario objects, as the real engine reports them: the model
 * handle of each into the object of its class holding it there (M_QREF_OTHER: none does); none,
 * own stay. The one translation of object results, for every judge of them.
 */
void bm_qres_objects(const struct be_model *bm, const struct scn_call *call, unsigned node, struct m_qres *q);
/* The scenario object of class cls on node whose model handle is h, or -1. */
int32_t bm_object(const struct be_model *bm, unsigned node, uint32_t cls, int h);

/*
 * The bytes the model holds for a buffer: contents and where they are
 * unspecified (1), len of them: flat (bytes, unknown: another family's
 * buffer) or an MR's pages (mem from moff, model/mem.c). Read them with bm_buf_at.
 */
struct bm_buf {
	const uint8_t *bytes, *unknown;
	const struct m_mem *mem;
	uint64_t moff, len;
};
/* The contents and marks at off (< b->len) of b, valid for the count returned (1..n, n >= 1). */
size_t bm_buf_at(const struct bm_buf *b, uint64_t off, size_t n, const uint8_t **bytes, const uint8_t **unknown);
/*
 * The first offset >= off of b that is judged against reality: off itself
 * for flat contents and for an MR up to M_MEM_WHOLE long (compared whole);
 * in a longer MR the first byte >= off of a page the model holds (written
 * there; any other byte is 0 by the model), or b->len when none.
 */
uint64_t bm_buf_judged_from(const struct bm_buf *b, uint64_t off);
/*
 * Is scenario object obj a buffer the model holds bytes for (an MR, a
 * librpma MR, a DAT LMR: mr[] of the model; another family's buffer: what
 * its model_buf says, family.h)? Then *out.
 */
int bm_buf(const struct be_model *bm, int32_t obj, struct bm_buf *out);

#endif

/*
 * internal.h — the MRAPI family's model over its own state (not a public
 * API): the entry points the registry row (mrapi.c) and the unit tests use,
 * and what pred.c and state.c share.
 */
#ifndef RDMACHECK_MODEL_MRAPI_INT_H
#define RDMACHECK_MODEL_MRAPI_INT_H

#include "model/internal.h"

/*
 * Empty state for nnodes nodes (1..M_MRAPI_NODES), supporting the access
 * types whose bits are in atypes (bit M_MRAPI_ATYPE_DEFAULT at least; the
 * ANY bit is ignored: ANY is a mode, not a type). Returns 0 or -EINVAL.
 */
int m_mrapi_init(struct m_mrapi_model *st, unsigned nnodes, uint32_t atypes);
/* m_mrapi_init on a state already all zero (model_init's): the same without zeroing its 35 KB again. */
int m_mrapi_init_zeroed(struct m_mrapi_model *st, unsigned nnodes, uint32_t atypes);

/*
 * Every allowed outcome of call a on st under profile p, into out (out->op is
 * zeroed: the adapter fills it). Each alternative's effect is M_EFF_DO (the
 * call takes effect) or M_EFF_NONE. Returns 0, or -EINVAL when the call is
 * malformed for the model (unknown node or call, an index out of range).
 */
int m_mrapi_predict(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		    struct m_pred *out);

/*
 * Commit alternative i of pred (made by m_mrapi_predict for a on st). A
 * successful create or get gives the segment in *created, a create that
 * answers MRAPI_ERR_RMEM_EXISTS the invalid handle it returns (a segment that
 * names no buffer: every call on it is MRAPI_ERR_RMEM_INVALID), a successful
 * _i call the request, else -1. Returns 0, -EINVAL (bad index) or -ENOSPC (a
 * table is full).
 */
int m_mrapi_apply(struct m_mrapi_model *st, const struct m_mrapi_args *a, const struct m_pred *pred, size_t i,
		  int *created);

/*
 * What get_attribute a reports (call after applying its SUCCESS): one result
 * "value". Returns 0, or -EINVAL when a is not a valid get_attribute.
 */
int m_mrapi_query(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		  struct m_qres *out);

/*
 * The bytes a read a (valid, predicted SUCCESS with M_EFF_DO) puts into a
 * local buffer of n bytes: local[k] for every byte the read writes, known[k]
 * = 1 where the model knows its value (0: unspecified or past the tracked
 * contents). Bytes the read does not touch are left alone. Returns the number
 * of bytes written, or -EINVAL.
 */
long m_mrapi_read_image(const struct m_mrapi_model *st, const struct m_mrapi_args *a, uint8_t *local,
			uint8_t *known, size_t n);

/*
 * RMEM-RW-2: transfer i of a strided call moves bytes between rmem offset
 * *roff and local offset *loff. RMEM-RW-3: the exact last byte the call
 * touches in rmem (UINT64_MAX when nstrides or bytes is 0) and the literal
 * formula's end (rmem_offset + rmem_stride * nstrides). Overflow-free (64-bit).
 */
void m_mrapi_transfer(const struct m_mrapi_args *a, uint32_t i, uint64_t *roff, uint64_t *loff);
uint64_t m_mrapi_literal_end(const struct m_mrapi_args *a);
/* Did node n obtain a handle to seg[s] (create or get on n)? */
int m_mrapi_held(const struct m_mrapi_model *st, unsigned n, int s);
/*
 * The segment mrapi_rmem_get(a->id) finds: the live one with that id (for
 * ID_ANY: one created with ID_ANY), else the newest deleted one (*deleted =
 * 1), else -1.
 */
int m_mrapi_get_target(const struct m_mrapi_model *st, const struct m_mrapi_args *a, int *deleted);

#endif

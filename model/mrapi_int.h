/* mrapi_int.h — what model/mrapi.c and model/mrapi_state.c share (not a public API). */
#ifndef RDMACHECK_MODEL_MRAPI_INT_H
#define RDMACHECK_MODEL_MRAPI_INT_H

#include "model/mrapi.h"

/* Did node n obtain a handle to seg[s] (create or get on n)? */
int m_mrapi_held(const struct m_mrapi *st, unsigned n, int s);
/*
 * The segment mrapi_rmem_get(a->id) finds: the live one with that id (for
 * ID_ANY: one created with ID_ANY), else the newest deleted one (*deleted =
 * 1), else -1.
 */
int m_mrapi_get_target(const struct m_mrapi *st, const struct m_mrapi_args *a, int *deleted);

#endif

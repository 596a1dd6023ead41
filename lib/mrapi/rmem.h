/*
 * rmem.h — a node's handles (rmem.c): found from their public values,
 * checked against the directory, released (with their requests). Builds on
 * request.h (not a public API); rw.c, attr.c and the public rmem calls use it.
 */
#ifndef MRAPI_RMEM_H
#define MRAPI_RMEM_H

#include "lib/mrapi/request.h"

/* The slot of handle v, or -1. Dead handles are found (the caller reports them invalid). */
int h_find(mrapi_rmem_hndl_t v);
mrapi_rmem_hndl_t h_value(int slot);
/*
 * A handle of another node's buffer may have been deleted, or its creator
 * finalized, and no transfer told this node yet (attached or not): ask the
 * directory. Returns 1 (the handle is marked dead) if its (id, gen) is gone,
 * else 0. A call checks this before any other error of the handle, as the
 * reference implementation checks the handle first.
 */
int h_withdrawn(int h);
/* Release handle slot h's resources (connection, registration) and end its requests. */
void h_release(int h);

#endif

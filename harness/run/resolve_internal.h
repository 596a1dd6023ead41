/*
 * resolve_internal.h — what resolve.c (verbs calls) shares with the per-API
 * parts, resolve_rpma.c and resolve_dat.c (not a public API).
 */
#ifndef RDMACHECK_RESOLVE_INTERNAL_H
#define RDMACHECK_RESOLVE_INTERNAL_H

#include "harness/run/resolve.h"

/* One resolution: the engine, and the first failure (rc, *missing). */
struct rctx {
	const struct backend_ops *ops;
	void *be;
	int32_t *missing;
	int rc;
};

/* The number v stands for in this engine (dflt when v is NULL; 0 after a failure, recorded in r). */
uint64_t rc_num(struct rctx *r, const struct scn_value *v, uint64_t dflt);
/* Address and key of an address reference (remote: as a peer addresses it). */
void rc_ref(struct rctx *r, const struct scn_value *v, int remote, uint64_t *addr, uint32_t *key);
/* The object v names, or -1. */
int32_t rc_obj(const struct scn_value *v);

/* The API-specific part of resolve_step: fill c (call, op, node, obj, prefer set) from s. */
int resolve_rpma(struct rctx *r, const struct scn_step *s, struct hcall *c);
int resolve_dat(struct rctx *r, const struct scn_step *s, struct hcall *c);


#endif

/*
 * resolve_internal.h — what resolve.c (the part every step shares) gives the
 * families' resolve functions (harness/api/<family>/resolve_<family>.c,
 * family.h: resolve). Not a public API. The rsv_* helpers read a step's
 * values in one engine's numbers, recording the first failure in the
 * resolution instead of returning it, so a family's code reads straight.
 */
#ifndef RDMACHECK_RESOLVE_INTERNAL_H
#define RDMACHECK_RESOLVE_INTERNAL_H

#include "harness/run/resolve.h"

/* One resolution: the engine, and the first failure (rc, *missing). */
struct rsv {
	const struct backend_ops *ops;
	void *be;
	int32_t *missing;
	int rc;
	const struct scn_file *f; /* the step's file (its objects' classes) */
};

/* Record a failure (the first one counts): rc, and the object it concerns. */
void rsv_fail(struct rsv *r, int rc, int32_t obj);
/* The number v stands for in this engine (dflt when v is NULL; 0 after a failure, recorded in r). */
uint64_t rsv_num(struct rsv *r, const struct scn_value *v, uint64_t dflt);
/* Address and key of an address reference (remote: as a peer addresses it); 0 after a failure.
 * A number or NAME.ATTR where the key takes one is a raw address, its key 0. */
void rsv_ref(struct rsv *r, const struct scn_value *v, int remote, uint64_t *addr, uint32_t *key);
/* The object v names, or -1. */
int32_t rsv_obj(const struct scn_value *v);
/* Attribute a of object obj into *out (0 if it has none: -ENOENT recorded in r, obj missing). */
void rsv_attr(struct rsv *r, int32_t obj, enum scn_attr a, uint64_t *out);
/* Is the bare key given in s? */
int rsv_bare(const struct scn_step *s, const char *key);

#endif

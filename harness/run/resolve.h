/*
 * resolve.h — turn a parsed scenario step into a struct hcall for one engine:
 * object references become scenario object indexes, address and attribute
 * references become that engine's own numbers (backend.h: ref, attr).
 */
#ifndef RDMACHECK_RESOLVE_H
#define RDMACHECK_RESOLVE_H

#include "harness/run/backend.h"

/* The model operation a call name stands for, or -1 (check, other APIs). */
int resolve_op_kind(const struct scn_call *call);
/* resolve_op_kind of the call of index ci (scn_call_get), its name parsed once per process: every step asks. */
int resolve_call_kind(size_t ci);

/*
 * Resolve step s of f into *c for engine (ops, be). Returns 0; -ENOENT when an
 * object the step refers to does not exist in that engine (*missing: its
 * index); -EOPNOTSUPP for a call that is not a verbs or fill step.
 */
int resolve_step(const struct scn_file *f, const struct scn_step *s, const struct backend_ops *ops,
		 void *be, struct hcall *c, int32_t *missing);

#endif

/* rpmem_internal.h — helpers shared by model/rpmem.c and model/rpmem_apply.c (not a public API). */
#ifndef RDMACHECK_MODEL_RPMEM_INTERNAL_H
#define RDMACHECK_MODEL_RPMEM_INTERNAL_H

#include "model/internal.h"
#include "model/rpmem/rpmem.h"

/* Pool set `name` of target t, or NULL. */
struct m_rpmem_set *m_rpmem_set_find(struct m_rpmem_model *s, unsigned t, const char *name);
const struct m_rpmem_set *m_rpmem_set_cfind(const struct m_rpmem_model *s, unsigned t, const char *name);
/* Are the attributes all zero? */
int m_rpmem_attr_zero(const struct m_rpmem_attr *a);
/* Part i's first addressable byte in the pool, and the part-file offset it comes from. */
uint64_t m_rpmem_part_start(const struct m_rpmem_set *st, unsigned i, uint64_t *file_off);
/* Release a pool's bytes. */
void m_rpmem_set_bytes_free(struct m_rpmem_set *st);

#endif

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
/* m_rpmem_init on a state already all zero (model_init's, which zeroes the domain-wide state):
 * the same result without zeroing its 42 KB again. */
int m_rpmem_init_zeroed(struct m_rpmem_model *s, unsigned ntargets);
/* dst, a byte copy of a state (model_clone's), becomes one more owner of each of its buffers:
 * m_rpmem_clone without copying the struct again. */
void m_rpmem_share_bytes(struct m_rpmem_model *dst);
/* Release a pool's bytes. */
void m_rpmem_set_bytes_free(struct m_rpmem_set *st);

/*
 * The state's byte buffers (bytes.c), shared by a model and its clones:
 * m_rpmem_bytes_new gives n zero bytes with one owner (NULL: no memory);
 * _share another owner of p (NULL stays NULL; nothing is copied); _drop
 * gives an owner's reference back (the last frees; NULL: nothing);
 * _own makes *p (n bytes) this owner's alone before a write, copying it
 * when it is shared: 0 or -ENOMEM (*p unchanged).
 */
uint8_t *m_rpmem_bytes_new(uint64_t n);
uint8_t *m_rpmem_bytes_share(const uint8_t *p);
void m_rpmem_bytes_drop(uint8_t *p);
int m_rpmem_bytes_own(uint8_t **p, uint64_t n);

#endif

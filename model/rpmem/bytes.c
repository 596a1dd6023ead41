/*
 * bytes.c — the pools' and the clients' bytes of the librpmem model, shared
 * between a model and its clones (copy on write). A clone of the model (one
 * per proposal of the generator, one per prediction that looks ahead) takes
 * another reference to each buffer instead of copying it; the first write
 * through a shared buffer copies that one buffer (m_rpmem_bytes_own). The
 * reference count is atomic: clones may be dropped on other threads.
 */
#include "model/rpmem/internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The header in front of a buffer's bytes (aligned as malloc aligns). */
union bytes_hdr {
	atomic_size_t refs;
	max_align_t align;
};

static union bytes_hdr *hdr_of(const uint8_t *p)
{
	return (union bytes_hdr *)(void *)((uint8_t *)(uintptr_t)p - sizeof(union bytes_hdr));
}

uint8_t *m_rpmem_bytes_new(uint64_t n)
{
	union bytes_hdr *h;

	if (n > SIZE_MAX - sizeof(*h))
		return NULL;
	h = calloc(1, sizeof(*h) + (size_t)(n ? n : 1));
	if (!h)
		return NULL;
	atomic_init(&h->refs, 1);
	return (uint8_t *)(h + 1);
}

uint8_t *m_rpmem_bytes_share(const uint8_t *p)
{
	if (!p)
		return NULL;
	atomic_fetch_add_explicit(&hdr_of(p)->refs, 1, memory_order_relaxed);
	return (uint8_t *)(uintptr_t)p;
}

void m_rpmem_bytes_drop(uint8_t *p)
{
	union bytes_hdr *h;

	if (!p)
		return;
	h = hdr_of(p);
	if (atomic_fetch_sub_explicit(&h->refs, 1, memory_order_acq_rel) == 1)
		free(h);
}

int m_rpmem_bytes_own(uint8_t **p, uint64_t n)
{
	uint8_t *copy;

	if (!*p || atomic_load_explicit(&hdr_of(*p)->refs, memory_order_acquire) == 1)
		return 0;
	copy = m_rpmem_bytes_new(n);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, *p, (size_t)n);
	m_rpmem_bytes_drop(*p);
	*p = copy;
	return 0;
}

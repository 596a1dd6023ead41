/*
 * hdr.c — the pool header on disk (the first 4096 bytes of a part with a
 * header) and the attributes' wire form. Little-endian fields after an
 * 8-byte magic and a version, then a Fletcher-64 checksum of everything
 * before it: a torn or foreign header does not decode.
 *
 *   0 magic "RPMEMRPA"  8 version u32  12 opt u32  16 part u32  20 nparts u32
 *   24 part_size u64  32 span u64  40 attributes (112 bytes)  152 checksum u64
 */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <string.h>

#define HDR_MAGIC "RPMEMRPA"
#define HDR_VERSION 1u
#define HDR_CSUM_AT (40 + RPMEM_ATTR_WIRE)

void rpmem_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void rpmem_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t rpmem_get32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

uint64_t rpmem_get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void rpmem_attr_put(uint8_t *p, const struct rpmem_pool_attr *a)
{
	memcpy(p, a->signature, 8);
	rpmem_put32(p + 8, a->major);
	rpmem_put32(p + 12, a->compat_features);
	rpmem_put32(p + 16, a->incompat_features);
	rpmem_put32(p + 20, a->ro_compat_features);
	memcpy(p + 24, a->poolset_uuid, 16);
	memcpy(p + 40, a->uuid, 16);
	memcpy(p + 56, a->next_uuid, 16);
	memcpy(p + 72, a->prev_uuid, 16);
	memcpy(p + 88, a->user_flags, 16);
}

void rpmem_attr_get(const uint8_t *p, struct rpmem_pool_attr *a)
{
	memcpy(a->signature, p, 8);
	a->major = rpmem_get32(p + 8);
	a->compat_features = rpmem_get32(p + 12);
	a->incompat_features = rpmem_get32(p + 16);
	a->ro_compat_features = rpmem_get32(p + 20);
	memcpy(a->poolset_uuid, p + 24, 16);
	memcpy(a->uuid, p + 40, 16);
	memcpy(a->next_uuid, p + 56, 16);
	memcpy(a->prev_uuid, p + 72, 16);
	memcpy(a->user_flags, p + 88, 16);
}

int rpmem_attr_zero(const struct rpmem_pool_attr *a)
{
	static const struct rpmem_pool_attr zero;

	return memcmp(a, &zero, sizeof(zero)) == 0;
}

/* Fletcher-64 over 32-bit little-endian words (n a multiple of 4). */
static uint64_t fletcher64(const uint8_t *p, size_t n)
{
	uint64_t lo = 0, hi = 0;

	for (size_t i = 0; i < n; i += 4) {
		lo = (lo + rpmem_get32(p + i)) % 0xffffffffu;
		hi = (hi + lo) % 0xffffffffu;
	}
	return hi << 32 | lo;
}

void rpmem_hdr_encode(const struct rpmem_hdr *h, uint8_t *out)
{
	memset(out, 0, RPMEM_HDR_SIZE);
	memcpy(out, HDR_MAGIC, 8);
	rpmem_put32(out + 8, HDR_VERSION);
	rpmem_put32(out + 12, h->opt);
	rpmem_put32(out + 16, h->part);
	rpmem_put32(out + 20, h->nparts);
	rpmem_put64(out + 24, h->part_size);
	rpmem_put64(out + 32, h->span);
	rpmem_attr_put(out + 40, &h->attr);
	rpmem_put64(out + HDR_CSUM_AT, fletcher64(out, HDR_CSUM_AT));
}

int rpmem_hdr_decode(const uint8_t *in, struct rpmem_hdr *h)
{
	if (memcmp(in, HDR_MAGIC, 8) || rpmem_get32(in + 8) != HDR_VERSION ||
	    rpmem_get64(in + HDR_CSUM_AT) != fletcher64(in, HDR_CSUM_AT))
		return -EINVAL;
	h->opt = rpmem_get32(in + 12);
	h->part = rpmem_get32(in + 16);
	h->nparts = rpmem_get32(in + 20);
	h->part_size = rpmem_get64(in + 24);
	h->span = rpmem_get64(in + 32);
	rpmem_attr_get(in + 40, &h->attr);
	return 0;
}

/*
 * resolve_fx.h — the fixture of the step-resolution tests (test_resolve*.c):
 * a fake engine whose every number tells where it came from, and the step of
 * a parsed scenario by its line.
 *
 * Object o: its local address is LADDR(o) + off with lkey 0x1000 + o; a peer
 * addresses it at RADDR(o) + off with rkey 0x2000 + o. Attributes: addr
 * 0xa0000000 + o, len 0x400 + o, lkey 0x1000 + o, rkey 0x2000 + o, qpn
 * 0x40 + o, va 0xb0000000 + o. Its descriptor (blob) is 21 bytes of value 0x10 + o. Objects in
 * fx_missing[] do not exist. The engine counts the calls it answers.
 */
#ifndef RDMACHECK_TEST_RESOLVE_FX_H
#define RDMACHECK_TEST_RESOLVE_FX_H

#include "harness/run/resolve.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#define LADDR(o) (0x1000000ull * ((uint64_t)(o) + 1))
#define RADDR(o) (0x80000000ull + 0x1000000ull * ((uint64_t)(o) + 1))
#define FX_MISSING 4

static int32_t fx_missing[FX_MISSING];
static unsigned fx_nref, fx_nattr, fx_nblob;
static struct scn_file *fx_f;

static inline int fx_gone(int32_t o)
{
	for (size_t i = 0; i < FX_MISSING; i++)
		if (fx_missing[i] == o)
			return 1;
	return 0;
}

static inline int fx_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	ck_assert_ptr_eq(be, &fx_nref); /* resolve hands the engine its own pointer */
	fx_nref++;
	if (fx_gone(obj))
		return -ENOENT;
	*addr = (remote ? RADDR(obj) : LADDR(obj)) + off;
	*key = (uint32_t)((remote ? 0x2000 : 0x1000) + obj);
	return 0;
}

static inline int fx_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *v)
{
	ck_assert_ptr_eq(be, &fx_nref);
	fx_nattr++;
	if (fx_gone(obj))
		return -ENOENT;
	switch (a) {
	case SCN_ATTR_ADDR: *v = 0xa0000000u + (uint64_t)obj; return 0;
	case SCN_ATTR_LEN: *v = 0x400u + (uint64_t)obj; return 0;
	case SCN_ATTR_LKEY: *v = 0x1000u + (uint64_t)obj; return 0;
	case SCN_ATTR_RKEY: *v = 0x2000u + (uint64_t)obj; return 0;
	case SCN_ATTR_QPN: *v = 0x40u + (uint64_t)obj; return 0;
	case SCN_ATTR_VA: *v = 0xb0000000u + (uint64_t)obj; return 0;
	default: return -EINVAL;
	}
}

static inline int fx_blob(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	ck_assert_ptr_eq(be, &fx_nref);
	fx_nblob++;
	if (fx_gone(obj))
		return -ENOENT;
	ck_assert_uint_ge(cap, 21);
	memset(buf, 0x10 + obj, 21);
	*len = 21;
	return 0;
}

static const struct backend_ops fx_ops = { .name = "fake", .ref = fx_ref, .attr = fx_attr, .blob = fx_blob };

/* Parse text (it must be valid) into fx_f; reset the engine. */
static inline void fx_parse(const char *text, const char *name)
{
	struct scn_diags d;
	char buf[512] = "";
	int rc = scn_parse_text(text, strlen(text), name, &fx_f, &d);

	if (rc && d.n)
		scn_diag_format(&d.d[0], name, buf, sizeof(buf));
	ck_assert_msg(rc == 0, "%s", buf);
	for (size_t i = 0; i < FX_MISSING; i++)
		fx_missing[i] = -1;
	fx_nref = fx_nattr = fx_nblob = 0;
}

static inline void fx_free(void)
{
	scn_free(fx_f);
	fx_f = NULL;
}

/* Resolve the step on line on the fake engine; returns resolve_step's result. */
static inline int fx_res(uint32_t line, struct hcall *c, int32_t *missing)
{
	for (size_t i = 0; i < fx_f->nsteps; i++)
		if (fx_f->steps[i].line == line) {
			memset(c, 0x5a, sizeof(*c)); /* resolve must set every field it uses */
			*missing = 77;
			return resolve_step(fx_f, &fx_f->steps[i], &fx_ops, &fx_nref, c, missing);
		}
	ck_abort_msg("no step on line %u", line);
	return 0;
}

/* The step on line, resolved without a failure. */
static inline struct hcall fx_ok(uint32_t line)
{
	struct hcall c;
	int32_t missing;

	ck_assert_int_eq(fx_res(line, &c, &missing), 0);
	ck_assert_int_eq(missing, -1);
	return c;
}

#endif

/*
 * Unit tests of the model's librpmem module (model/rpmem.c, catalog area E):
 * one test per encoded rule, each with its allowed and its refused path; the
 * PMDK 1.12.1 deviations of the rxe profile next to the generic reading.
 */
#include "model/rpmem/rpmem.h"
#include "tests/unit/model_fx.h"

#include <stdio.h>

#define MIB (1ull << 20)
#define POOL (4 * MIB)

struct rfx {
	struct m_rpmem_model s;
	struct m_profile p;
};

static void rfx_init(struct rfx *f, const char *profile)
{
	static const uint64_t two[] = { 2 * MIB, 2 * MIB }, small[] = { MIB }, big[] = { 8 * MIB };

	ck_assert_int_eq(m_rpmem_init(&f->s, 2), 0);
	ck_assert_int_eq(m_profile_get(profile, 0, &f->p), 0);
	ck_assert_int_eq(m_rpmem_set_add(&f->s, 0, "pool.set", M_RPMEM_OPT_NONE, 2, two, 0), 0);
	ck_assert_int_eq(m_rpmem_set_add(&f->s, 0, "single.set", M_RPMEM_OPT_SINGLEHDR, 2, two, 0), 0);
	ck_assert_int_eq(m_rpmem_set_add(&f->s, 0, "nohdrs.set", M_RPMEM_OPT_NOHDRS, 2, two, 0), 0);
	ck_assert_int_eq(m_rpmem_set_add(&f->s, 0, "small.set", M_RPMEM_OPT_NONE, 1, small, 0), 0);
	ck_assert_int_eq(m_rpmem_set_add(&f->s, 0, "bad.set", M_RPMEM_OPT_NONE, 1, big, 1), 0);
	ck_assert_int_eq(m_rpmem_set_add(&f->s, 0, "pool.set", M_RPMEM_OPT_NONE, 1, big, 0), -EEXIST);
}

static struct m_rpmem_attr attr_of(char c)
{
	struct m_rpmem_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(a.signature, "RDMACHK", 7);
	a.major = 1;
	a.user_flags[0] = (unsigned char)c;
	return a;
}

static struct m_rpmem_args args(enum m_rpmem_kind k, const char *set, uint64_t size)
{
	struct m_rpmem_args a;

	memset(&a, 0, sizeof(a));
	a.kind = (uint8_t)k;
	a.h = -1;
	snprintf(a.set, sizeof(a.set), "%s", set);
	a.pool_addr = 0x10000;
	a.pool_size = size;
	a.nlanes = 4;
	return a;
}

static struct m_rpmem_args on(enum m_rpmem_kind k, int h, uint64_t off, uint64_t len, uint32_t lane, uint32_t flags)
{
	struct m_rpmem_args a = args(k, "", 0);

	a.h = (int16_t)h;
	a.offset = off;
	a.len = len;
	a.lane = lane;
	a.flags = flags;
	return a;
}

static struct m_pred rpredict(struct rfx *f, struct m_rpmem_args a)
{
	struct m_pred pr;

	ck_assert_int_eq(m_rpmem_predict(&f->s, &f->p, &a, &pr), 0);
	ck_assert_int_ge(pr.n, 1);
	return pr;
}

static int rdo(struct rfx *f, struct m_rpmem_args a, struct m_outcome o)
{
	struct m_pred pr = rpredict(f, a);
	int i = model_pred_find(&pr, o), created;

	ck_assert_msg(i >= 0, "%s: outcome %s not allowed", m_rpmem_kind_str(a.kind), m_outcome_name(o));
	ck_assert_int_eq(m_rpmem_apply(&f->s, &a, &pr, (size_t)i, &created), 0);
	return created;
}

static int create(struct rfx *f, const char *set, uint64_t size, int with_attr)
{
	struct m_rpmem_args a = args(M_RPMEM_CREATE, set, size);

	if (with_attr)
		a.attr = attr_of('c');
	else
		a.nulls = M_RPMEM_NULL_ATTR;
	return rdo(f, a, ok_());
}

/* Fill the client's bytes [off, off+len) with b and persist them on lane 0. */
static void fill(struct rfx *f, int h, uint64_t off, uint64_t len, uint8_t b)
{
	struct m_rpmem_args a = on(M_RPMEM_FILL, h, off, len, 0, 0);

	a.byte = b;
	rdo(f, a, ok_());
}

/* Does part `part` of set at file offset off hold n bytes b (per the model)? */
static int part_holds(struct rfx *f, const char *set, unsigned part, uint64_t off, size_t n, uint8_t b)
{
	uint8_t buf[256];

	ck_assert_uint_le(n, sizeof(buf));
	memset(buf, b, n);
	return m_rpmem_part_compare(&f->s, 0, set, part, off, buf, n) == -1;
}

static const char *const catalog_e[] = {
	"RPMEM-ARGS-1", "RPMEM-SIZE-1", "RPMEM-SIZE-2", "RPMEM-ERRNO-1", "RPMEM-NLANES-1", "RPMEM-HDR-1",
	"RPMEM-HDR-2", "RPMEM-SETATTR-1", "RPMEM-CLOSE-1", "RPMEM-REMOVE-1", "RPMEM-PERSIST-1",
	"RPMEM-PERSIST-2", "RPMEM-FLUSH-1", "RPMEM-DEEP-1", "RPMEM-READ-1", "RPMEM-ERR-1", "RPMEM-ORDER-1",
};

START_TEST(test_every_area_e_rule_is_in_the_table)
{
	size_t n = sizeof(catalog_e) / sizeof(catalog_e[0]);

	ck_assert_uint_eq(n, 17);
	for (size_t i = 0; i < n; i++) {
		enum m_rule r;

		ck_assert_msg(m_rule_find(catalog_e[i], &r) == 0, "%s missing from model/rules.def", catalog_e[i]);
		ck_assert_str_eq(m_rule_info(r)->section, "E");
	}
}
END_TEST

START_TEST(test_RPMEM_ARGS_1_checked_before_the_target)
{
	struct rfx f;
	struct m_rpmem_args a;

	rfx_init(&f, "generic");
	for (int k = M_RPMEM_CREATE; k <= M_RPMEM_OPEN; k++) {
		a = args((enum m_rpmem_kind)k, "nonexistent.set", POOL); /* ENOENT would come later */
		a.pool_addr = 0;
		ck_assert(fx_rule(rpredict(&f, a), err_(EINVAL), M_RULE_RPMEM_ARGS_1));
		a.pool_addr = 0x10010;
		ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
		a = args((enum m_rpmem_kind)k, "nonexistent.set", POOL + 1);
		ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
		a.pool_size = 0;
		ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
		a = args((enum m_rpmem_kind)k, "nonexistent.set", POOL);
		a.nulls = M_RPMEM_NULL_NLANES;
		ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
		a.nulls = 0;
		a.nlanes = 0;
		ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
		a.nlanes = 1; /* all arguments fine: the target answers */
		ck_assert(fx_only(rpredict(&f, a), err_(ENOENT)));
	}
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_SIZE_1_usable_size_per_header_option)
{
	struct rfx f;
	struct m_rpmem_args a;

	rfx_init(&f, "generic");
	/*
	 * two 2 MiB parts (PMDK set.c util_poolset_set_size: the parts minus
	 * 4096 for every header but the first): default 4 MiB - 4 KiB,
	 * SINGLEHDR 4 MiB, NOHDRS 4 MiB
	 */
	a = args(M_RPMEM_CREATE, "pool.set", POOL);
	a.attr = attr_of('x');
	ck_assert(fx_rule(rpredict(&f, a), err_(EFBIG), M_RULE_RPMEM_SIZE_1));
	a.pool_size = POOL - 4096;
	ck_assert(fx_only(rpredict(&f, a), ok_()));
	a = args(M_RPMEM_CREATE, "single.set", POOL + 4096);
	a.attr = attr_of('x');
	ck_assert(fx_only(rpredict(&f, a), err_(EFBIG)));
	a.pool_size = POOL;
	ck_assert(fx_only(rpredict(&f, a), ok_()));
	a = args(M_RPMEM_CREATE, "nohdrs.set", POOL + 4096);
	a.nulls = M_RPMEM_NULL_ATTR;
	ck_assert(fx_only(rpredict(&f, a), err_(EFBIG)));
	a.pool_size = POOL;
	ck_assert(fx_only(rpredict(&f, a), ok_()));
	/* open checks the size against the pool too */
	int h = create(&f, "nohdrs.set", POOL, 0);
	rdo(&f, on(M_RPMEM_CLOSE, h, 0, 0, 0, 0), ok_());
	a = args(M_RPMEM_OPEN, "nohdrs.set", POOL + 4096);
	ck_assert(fx_only(rpredict(&f, a), err_(EFBIG)));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_SIZE_2_minimum_part_and_pool)
{
	struct rfx f;
	struct m_rpmem_args a;
	static const uint64_t tiny[] = { 2 * MIB, 4096 };

	rfx_init(&f, "generic");
	a = args(M_RPMEM_CREATE, "small.set", 8192);
	a.attr = attr_of('x');
	ck_assert(fx_rule(rpredict(&f, a), err_(EINVAL), M_RULE_RPMEM_SIZE_2));
	ck_assert_int_eq(m_rpmem_set_add(&f.s, 1, "tiny.set", M_RPMEM_OPT_NONE, 2, tiny, 0), 0);
	a.target = 1;
	snprintf(a.set, sizeof(a.set), "tiny.set");
	ck_assert(fx_rule(rpredict(&f, a), err_(EINVAL), M_RULE_RPMEM_SIZE_2));
	/* the local pool_size has no minimum beyond one page */
	a = args(M_RPMEM_CREATE, "pool.set", 4096);
	a.attr = attr_of('x');
	ck_assert(fx_only(rpredict(&f, a), ok_()));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_ERRNO_1_target_answers_in_order)
{
	struct rfx f;
	struct m_rpmem_args a;

	rfx_init(&f, "generic");
	const char *bad[] = { "/abs.set", "../up.set", "a/../../b", "sp ace", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = args(M_RPMEM_OPEN, bad[i], POOL);
		ck_assert_msg(fx_rule(rpredict(&f, a), err_(EINVAL), M_RULE_RPMEM_ERRNO_1), "%s", bad[i]);
	}
	a = args(M_RPMEM_OPEN, "dir/..x.set", POOL); /* a name with dots, not a parent */
	ck_assert(fx_only(rpredict(&f, a), err_(ENOENT)));
	a = args(M_RPMEM_OPEN, "bad.set", POOL);
	ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
	a = args(M_RPMEM_OPEN, "pool.set", 8192);
	ck_assert(fx_rule(rpredict(&f, a), err_(ENOENT), M_RULE_RPMEM_ERRNO_1)); /* not created yet */
	int h = create(&f, "pool.set", 8192, 1);
	a = args(M_RPMEM_CREATE, "pool.set", 8192);
	a.attr = attr_of('y');
	ck_assert(fx_only(rpredict(&f, a), err_(EEXIST)));
	a = args(M_RPMEM_OPEN, "pool.set", 8192);
	ck_assert(fx_only(rpredict(&f, a), err_(EBUSY)));
	rdo(&f, on(M_RPMEM_CLOSE, h, 0, 0, 0, 0), ok_());
	ck_assert(fx_only(rpredict(&f, a), ok_()));
	ck_assert_int_eq(m_rpmem_damage(&f.s, 0, "pool.set"), 0);
	ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_NLANES_1_min_of_request_env_target)
{
	struct rfx f;
	struct m_rpmem_args a;

	rfx_init(&f, "generic");
	a = args(M_RPMEM_CREATE, "pool.set", 8192);
	a.attr = attr_of('x');
	a.nlanes = 8;
	ck_assert_uint_eq(m_rpmem_nlanes_max(&f.s, &a), 8);
	a.max_nlanes_env = 3;
	ck_assert_uint_eq(m_rpmem_nlanes_max(&f.s, &a), 3);
	ck_assert_int_eq(m_rpmem_set_max_lanes(&f.s, 0, 2), 0);
	ck_assert_uint_eq(m_rpmem_nlanes_max(&f.s, &a), 2);
	/* reality reporting more lanes than allowed is refused at apply */
	struct m_pred pr = rpredict(&f, a);
	a.nlanes_out = 3;
	ck_assert_int_eq(m_rpmem_apply(&f.s, &a, &pr, 0, NULL), -ERANGE);
	a.nlanes_out = 1;
	int h = rdo(&f, a, ok_());
	ck_assert_uint_eq(f.s.h[h].nlanes, 1);
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 0, 0)), ok_()));
	ck_assert(fx_rule(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 1, 0)), err_(EINVAL),
			  M_RULE_RPMEM_PERSIST_1));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_HDR_1_attributes_need_headers)
{
	struct rfx f;
	struct m_rpmem_args a;

	rfx_init(&f, "generic");
	a = args(M_RPMEM_CREATE, "pool.set", 8192);
	a.nulls = M_RPMEM_NULL_ATTR; /* no attributes on a set with headers */
	ck_assert(fx_rule(rpredict(&f, a), err_(EINVAL), M_RULE_RPMEM_HDR_1));
	a.nulls = 0; /* all-zero attributes count as none */
	ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
	a = args(M_RPMEM_CREATE, "nohdrs.set", 8192);
	a.attr = attr_of('x');
	ck_assert(fx_only(rpredict(&f, a), err_(EINVAL)));
	int h = create(&f, "pool.set", 8192, 1);
	ck_assert(fx_rule(rpredict(&f, on(M_RPMEM_PERSIST, h, 4095, 1, 0, 0)), err_(EINVAL), M_RULE_RPMEM_HDR_1));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_FLUSH, h, 0, 8, 0, 0)), err_(EINVAL)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 1, 0, 0)), ok_()));
	int g = create(&f, "nohdrs.set", 8192, 0);
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, g, 0, 8, 0, 0)), ok_()));
	struct m_rpmem_args sa = on(M_RPMEM_SET_ATTR, g, 0, 0, 0, 0);
	sa.attr = attr_of('z');
	ck_assert(fx_rule(rpredict(&f, sa), err_(EINVAL), M_RULE_RPMEM_HDR_1));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_HDR_2_open_attr_and_the_guard)
{
	struct rfx f, x;
	struct m_rpmem_attr got;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 8192, 1);
	rdo(&f, on(M_RPMEM_CLOSE, h, 0, 0, 0, 0), ok_());
	ck_assert_int_eq(m_rpmem_open_attr(&f.s, 0, "pool.set", &got), 0);
	struct m_rpmem_attr want = attr_of('c');
	ck_assert_mem_eq(&got, &want, sizeof(got));
	ck_assert_int_eq(m_rpmem_open_attr(&f.s, 0, "single.set", &got), -ENOENT);
	int g = create(&f, "nohdrs.set", 8192, 0);
	ck_assert_int_eq(m_rpmem_open_attr(&f.s, 0, "nohdrs.set", &got), 0);
	struct m_rpmem_attr zero;
	memset(&zero, 0, sizeof(zero));
	ck_assert_mem_eq(&got, &zero, sizeof(got));
	(void)g;
	/* open with open_attr NULL: generic keeps the guard, PMDK 1.12.1 (rxe profile) may not */
	struct m_rpmem_args a = args(M_RPMEM_OPEN, "pool.set", 8192);
	a.nulls = M_RPMEM_NULL_ATTR;
	ck_assert_int_eq(m_rpmem_clone(&x.s, &f.s), 0);
	int o = rdo(&f, a, ok_());
	struct m_pred pr = rpredict(&f, on(M_RPMEM_PERSIST, o, 0, 8, 0, 0));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_RPMEM_HDR_2));
	ck_assert_int_eq(m_profile_get("rxe", 0, &x.p), 0);
	o = rdo(&x, a, ok_());
	pr = rpredict(&x, on(M_RPMEM_PERSIST, o, 0, 8, 0, 0));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, ok_()) && pr.n == 2);
	/* with open_attr given and non-zero the guard is on in both */
	rdo(&x, on(M_RPMEM_CLOSE, o, 0, 0, 0, 0), ok_());
	a.nulls = 0;
	o = rdo(&x, a, ok_());
	ck_assert(fx_only(rpredict(&x, on(M_RPMEM_PERSIST, o, 0, 8, 0, 0)), err_(EINVAL)));
	m_rpmem_free(&f.s);
	m_rpmem_free(&x.s);
}
END_TEST

START_TEST(test_RPMEM_SETATTR_1_overwrites_or_zeroes)
{
	struct rfx f;
	struct m_rpmem_attr got, zero;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 8192, 1);
	struct m_rpmem_args sa = on(M_RPMEM_SET_ATTR, h, 0, 0, 0, 0);
	sa.attr = attr_of('s');
	ck_assert(fx_rule(rpredict(&f, sa), ok_(), M_RULE_RPMEM_SETATTR_1));
	rdo(&f, sa, ok_());
	ck_assert_int_eq(m_rpmem_open_attr(&f.s, 0, "pool.set", &got), 0);
	ck_assert_int_eq(got.user_flags[0], 's');
	sa.nulls = M_RPMEM_NULL_ATTR;
	rdo(&f, sa, ok_());
	ck_assert_int_eq(m_rpmem_open_attr(&f.s, 0, "pool.set", &got), 0);
	memset(&zero, 0, sizeof(zero));
	ck_assert_mem_eq(&got, &zero, sizeof(got));
	/* a sticky error refuses it */
	rdo(&f, on(M_RPMEM_LINK_DOWN, h, 0, 0, 0, 0), ok_());
	rdo(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 0, 0), err_(ECONNABORTED));
	ck_assert(fx_only(rpredict(&f, sa), err_(ECONNABORTED)));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_CLOSE_1_pool_stays_and_reopens)
{
	struct rfx f;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 8192, 1);
	fill(&f, h, 4096, 64, 0xab);
	rdo(&f, on(M_RPMEM_PERSIST, h, 4096, 64, 0, 0), ok_());
	ck_assert(fx_rule(rpredict(&f, on(M_RPMEM_CLOSE, h, 0, 0, 0, 0)), ok_(), M_RULE_RPMEM_CLOSE_1));
	rdo(&f, on(M_RPMEM_CLOSE, h, 0, 0, 0, 0), ok_());
	ck_assert_int_eq(f.s.h[h].live, 0);
	struct m_pred pr;
	struct m_rpmem_args c = on(M_RPMEM_CLOSE, h, 0, 0, 0, 0);
	ck_assert_int_eq(m_rpmem_predict(&f.s, &f.p, &c, &pr), -EINVAL); /* the handle is gone */
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 64, 0xab));
	int o = rdo(&f, args(M_RPMEM_OPEN, "pool.set", 8192), ok_());
	/* a client that vanishes (SIGKILL) leaves the pool as closed */
	rdo(&f, on(M_RPMEM_KILL, o, 0, 0, 0, 0), ok_());
	ck_assert(fx_only(rpredict(&f, args(M_RPMEM_OPEN, "pool.set", 8192)), ok_()));
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 64, 0xab));
	/* a target that went away: close still frees the handle, and may say so */
	o = rdo(&f, args(M_RPMEM_OPEN, "pool.set", 8192), ok_());
	rdo(&f, on(M_RPMEM_LINK_DOWN, o, 0, 0, 0, 0), ok_());
	pr = rpredict(&f, on(M_RPMEM_CLOSE, o, 0, 0, 0, 0));
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(ECONNABORTED)));
	rdo(&f, on(M_RPMEM_CLOSE, o, 0, 0, 0, 0), err_(ECONNABORTED));
	ck_assert_int_eq(f.s.h[o].live, 0);
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_REMOVE_1_flags_busy_force_pool_set)
{
	struct rfx f;
	struct m_rpmem_args r = args(M_RPMEM_REMOVE, "pool.set", 0);

	rfx_init(&f, "generic");
	r.flags = 4;
	ck_assert(fx_rule(rpredict(&f, r), err_(EINVAL), M_RULE_RPMEM_REMOVE_1));
	r.flags = 0;
	ck_assert(fx_only(rpredict(&f, r), err_(ENOENT))); /* no pool */
	r.flags = M_RPMEM_REMOVE_FORCE;
	ck_assert(fx_only(rpredict(&f, r), ok_()));
	int h = create(&f, "pool.set", 8192, 1);
	r.flags = 0;
	ck_assert(fx_only(rpredict(&f, r), err_(EBUSY)));
	rdo(&f, on(M_RPMEM_CLOSE, h, 0, 0, 0, 0), ok_());
	ck_assert_int_eq(m_rpmem_damage(&f.s, 0, "pool.set"), 0);
	ck_assert(fx_only(rpredict(&f, r), err_(EINVAL))); /* inconsistent */
	r.flags = M_RPMEM_REMOVE_FORCE;
	rdo(&f, r, ok_());
	ck_assert(fx_only(rpredict(&f, args(M_RPMEM_OPEN, "pool.set", 8192)), err_(ENOENT)));
	create(&f, "single.set", 8192, 1);
	ck_assert(fx_only(rpredict(&f, args(M_RPMEM_REMOVE, "bad.set", 0)), err_(EINVAL))); /* must parse */
	r = args(M_RPMEM_REMOVE, "nohdrs.set", 0);
	r.flags = M_RPMEM_REMOVE_POOL_SET | M_RPMEM_REMOVE_FORCE;
	rdo(&f, r, ok_());
	ck_assert(fx_only(rpredict(&f, args(M_RPMEM_OPEN, "nohdrs.set", 8192)), err_(ENOENT)));
	ck_assert(fx_only(rpredict(&f, r), err_(ENOENT))); /* the set file went too */
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_PERSIST_1_order_of_checks_and_bytes)
{
	struct rfx f;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 3 * 4096, 1);
	ck_assert(fx_rule(rpredict(&f, on(M_RPMEM_PERSIST, h, 0, 8, 9, 2)), err_(EINVAL), M_RULE_RPMEM_PERSIST_1));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 0, 8, 9, 0)), err_(EINVAL)));    /* header */
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 4, 0)), err_(EINVAL))); /* lane */
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 8192, 4097, 0, 0)), err_(EINVAL)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 3 * 4096, 0, 0, 0)), err_(EINVAL)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, ~0ull, 2, 0, 0)), err_(EINVAL)));
	struct m_pred pr = rpredict(&f, on(M_RPMEM_PERSIST, h, 8192, 0, 0, 0));
	ck_assert(fx_only(pr, ok_()) && pr.alt[0].effect == M_EFF_NONE);
	fill(&f, h, 8192, 100, 0x5a);
	ck_assert(!part_holds(&f, "pool.set", 0, 8192, 100, 0x5a)); /* only the client has them */
	rdo(&f, on(M_RPMEM_PERSIST, h, 8192, 100, 3, 0), ok_());
	ck_assert(part_holds(&f, "pool.set", 0, 8192, 100, 0x5a));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_PERSIST_2_relaxed_same_guarantee)
{
	struct rfx f;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 4 * 4096, 1);
	fill(&f, h, 4096, 32, 7);
	struct m_pred pr = rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 32, 0, M_RPMEM_PERSIST_RELAXED));
	ck_assert(fx_rule(pr, ok_(), M_RULE_RPMEM_PERSIST_2));
	rdo(&f, on(M_RPMEM_PERSIST, h, 4096, 32, 0, M_RPMEM_PERSIST_RELAXED), ok_());
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 32, 7));
	fill(&f, h, 8192, 32, 9);
	rdo(&f, on(M_RPMEM_FLUSH, h, 8192, 32, 1, M_RPMEM_FLUSH_RELAXED), ok_());
	rdo(&f, on(M_RPMEM_DRAIN, h, 0, 0, 1, 0), ok_());
	ck_assert(part_holds(&f, "pool.set", 0, 8192, 32, 9));
	ck_assert(!fx_rule(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 32, 0, 0)), ok_(), M_RULE_RPMEM_PERSIST_2));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_FLUSH_1_unknown_until_drain_on_that_lane)
{
	struct rfx f;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 4 * 4096, 1);
	ck_assert(fx_rule(rpredict(&f, on(M_RPMEM_FLUSH, h, 4096, 8, 0, M_RPMEM_PERSIST_RELAXED << 1)), err_(EINVAL),
			  M_RULE_RPMEM_FLUSH_1));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_FLUSH, h, 0, 8, 0, 0)), err_(EINVAL)));
	fill(&f, h, 4096, 16, 0x11);
	rdo(&f, on(M_RPMEM_FLUSH, h, 4096, 16, 2, 0), ok_());
	/* old (zero) or new bytes both match until the drain */
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 16, 0x11));
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 16, 0x00));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_DRAIN, h, 0, 0, 2, 1)), err_(EINVAL)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_DRAIN, h, 0, 0, 4, 0)), err_(EINVAL)));
	rdo(&f, on(M_RPMEM_DRAIN, h, 0, 0, 1, 0), ok_()); /* another lane: still unknown */
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 16, 0x00));
	rdo(&f, on(M_RPMEM_DRAIN, h, 0, 0, 2, 0), ok_());
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 16, 0x11));
	ck_assert(!part_holds(&f, "pool.set", 0, 4096, 16, 0x00));
	m_rpmem_free(&f.s);
}
END_TEST

/*
 * A flush over broken lanes (the target gone) only posts its writes: it may
 * return 0 or fail in the transport; nothing lands, and the drain after it
 * fails (issue 31's campaign: rpmem_flush after rpmem_link_down gave ok on
 * rxe 6.1 where the model allowed only ECONNABORTED or EIO). A persist,
 * which waits, still fails.
 */
START_TEST(test_RPMEM_FLUSH_1_over_broken_lanes_may_return_0)
{
	struct rfx f;
	struct m_pred pr;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 8192, 1);
	rdo(&f, on(M_RPMEM_LINK_DOWN, h, 0, 0, 0, 0), ok_());
	ck_assert(!fx_has(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 0, 0)), ok_()));
	pr = rpredict(&f, on(M_RPMEM_FLUSH, h, 4096, 4096, 0, M_RPMEM_FLUSH_RELAXED));
	ck_assert(fx_rule(pr, ok_(), M_RULE_RPMEM_FLUSH_1));
	ck_assert(fx_has(pr, err_(ECONNABORTED)) && fx_has(pr, err_(EIO)));
	fill(&f, h, 4096, 8, 0x5a);
	rdo(&f, on(M_RPMEM_FLUSH, h, 4096, 8, 0, 0), ok_());
	pr = rpredict(&f, on(M_RPMEM_DRAIN, h, 0, 0, 0, 0));
	ck_assert(!fx_has(pr, ok_()) && fx_has(pr, err_(ECONNABORTED)));
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 8, 0x00)); /* nothing landed */
	m_rpmem_free(&f.s);
}
END_TEST

/*
 * Explore's signature 014 (the one-hour campaign of 2026-12-02): after the link of pool handle 0 went
 * down, a forced remove of its pool set file (POOL_SET|FORCE) cleared the set, owner and all, and the
 * cleared owner (0) named handle 0 again: the model took the link for up and allowed only ok for the
 * drain that reality answered ECONNABORTED.
 */
START_TEST(test_RPMEM_ERR_1_link_stays_down_after_forced_remove)
{
	struct rfx f;
	struct m_rpmem_args r = args(M_RPMEM_REMOVE, "pool.set", 0);
	struct m_pred pr;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 131072, 1);
	ck_assert_int_eq(h, 0); /* the first handle: the one a cleared owner field names */
	rdo(&f, on(M_RPMEM_LINK_DOWN, h, 0, 0, 0, 0), ok_());
	r.flags = M_RPMEM_REMOVE_POOL_SET | M_RPMEM_REMOVE_FORCE;
	rdo(&f, r, ok_());
	pr = rpredict(&f, on(M_RPMEM_DRAIN, h, 0, 0, 0, 0));
	ck_assert(!fx_has(pr, ok_()) && fx_has(pr, err_(ECONNABORTED)));
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_RPMEM_DEEP_1_nohdrs_guard_man_page_vs_pmdk)
{
	struct rfx f, x;

	rfx_init(&f, "generic");
	int g = create(&f, "nohdrs.set", 8192, 0);
	int h = create(&f, "pool.set", 8192, 1);
	ck_assert_int_eq(m_rpmem_clone(&x.s, &f.s), 0);
	ck_assert_int_eq(m_profile_get("rxe", 0, &x.p), 0);
	struct m_pred pr = rpredict(&f, on(M_RPMEM_DEEP_PERSIST, g, 0, 8, 0, 0));
	ck_assert(fx_only(pr, ok_()) && fx_rule(pr, ok_(), M_RULE_RPMEM_DEEP_1));
	pr = rpredict(&x, on(M_RPMEM_DEEP_PERSIST, g, 0, 8, 0, 0));
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(EINVAL)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_DEEP_PERSIST, h, 0, 8, 0, 0)), err_(EINVAL)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_DEEP_PERSIST, h, 4096, 8, 0, 1)), err_(EINVAL))); /* no flags */
	fill(&f, h, 4096, 8, 3);
	rdo(&f, on(M_RPMEM_DEEP_PERSIST, h, 4096, 8, 0, 0), ok_());
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 8, 3));
	m_rpmem_free(&f.s);
	m_rpmem_free(&x.s);
}
END_TEST

START_TEST(test_RPMEM_READ_1_bounds_man_page_vs_pmdk)
{
	struct rfx f, x;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 8192, 1);
	ck_assert_int_eq(m_rpmem_clone(&x.s, &f.s), 0);
	ck_assert_int_eq(m_profile_get("rxe", 0, &x.p), 0);
	ck_assert(fx_rule(rpredict(&f, on(M_RPMEM_READ, h, 0, 8, 4, 0)), err_(EINVAL), M_RULE_RPMEM_READ_1));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_READ, h, 0, 64, 0, 0)), ok_())); /* the header may be read */
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_READ, h, 99999, 0, 0, 0)), ok_()));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_READ, h, 8000, 200, 0, 0)), err_(EINVAL)));
	struct m_pred pr = rpredict(&x, on(M_RPMEM_READ, h, 8000, 200, 0, 0)); /* inside the region */
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(EINVAL)) && pr.n == 2);
	pr = rpredict(&x, on(M_RPMEM_READ, h, 8 * MIB, 8, 0, 0)); /* beyond the region */
	ck_assert(fx_has(pr, err_(EIO)) && fx_has(pr, err_(EINVAL)));
	rdo(&x, on(M_RPMEM_READ, h, 8 * MIB, 8, 0, 0), err_(EIO));
	ck_assert(fx_only(rpredict(&x, on(M_RPMEM_READ, h, 4096, 8, 0, 0)), err_(EIO))); /* kept */
	m_rpmem_free(&f.s);
	m_rpmem_free(&x.s);
}
END_TEST

START_TEST(test_RPMEM_ERR_1_sticky_after_a_transport_failure)
{
	struct rfx f;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", 8192, 1);
	fill(&f, h, 4096, 8, 1);
	rdo(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 0, 0), ok_());
	/* argument errors are not kept */
	rdo(&f, on(M_RPMEM_PERSIST, h, 0, 8, 0, 0), err_(EINVAL));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 0, 0)), ok_()));
	rdo(&f, on(M_RPMEM_LINK_DOWN, h, 0, 0, 0, 0), ok_());
	struct m_pred pr = rpredict(&f, on(M_RPMEM_DRAIN, h, 0, 0, 0, 0));
	ck_assert(fx_rule(pr, err_(EIO), M_RULE_RPMEM_ERR_1) && fx_has(pr, err_(ECONNABORTED)));
	ck_assert(fx_only(rpredict(&f, on(M_RPMEM_PERSIST, h, 4096, 0, 0, 0)), ok_())); /* len 0: no transfer */
	rdo(&f, on(M_RPMEM_PERSIST, h, 4096, 8, 0, 0), err_(EIO));
	const enum m_rpmem_kind k[] = { M_RPMEM_PERSIST, M_RPMEM_FLUSH, M_RPMEM_DEEP_PERSIST, M_RPMEM_DRAIN,
					M_RPMEM_READ, M_RPMEM_SET_ATTR };
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		pr = rpredict(&f, on(k[i], h, 0, 0, 99, 99)); /* even bad arguments: the error first */
		ck_assert_msg(fx_only(pr, err_(EIO)), "%s", m_rpmem_kind_str(k[i]));
		ck_assert(fx_rule(pr, err_(EIO), M_RULE_RPMEM_ERR_1));
	}
	ck_assert(part_holds(&f, "pool.set", 0, 4096, 8, 1)); /* what was persisted stays */
	ck_assert(fx_only(rpredict(&f, args(M_RPMEM_OPEN, "pool.set", 8192)), ok_())); /* the target let go */
	m_rpmem_free(&f.s);
}
END_TEST

START_TEST(test_rpmem_parts_layout_and_names)
{
	struct rfx f;
	uint8_t buf[16];
	enum m_rpmem_kind k;
	enum m_rpmem_opt o;

	rfx_init(&f, "generic");
	/* default headers: part 1's first data byte is pool offset 2 MiB, file offset 4096 */
	int h = create(&f, "pool.set", POOL - 8192, 1);
	fill(&f, h, 2 * MIB, 16, 0x77);
	rdo(&f, on(M_RPMEM_PERSIST, h, 2 * MIB, 16, 0, 0), ok_());
	ck_assert(part_holds(&f, "pool.set", 1, 4096, 16, 0x77));
	memset(buf, 0x99, sizeof(buf));
	ck_assert_int_eq(m_rpmem_part_compare(&f.s, 0, "pool.set", 1, 0, buf, 16), -1); /* header page */
	memset(buf, 0x77, 8); /* bytes 8..15 persisted, then zeros */
	ck_assert_int_eq(m_rpmem_part_compare(&f.s, 0, "pool.set", 1, 4096 + 8, buf, 16), 8);
	ck_assert_int_eq(m_rpmem_part_compare(&f.s, 0, "pool.set", 2, 0, buf, 16), -2);
	ck_assert_int_eq(m_rpmem_part_compare(&f.s, 0, "single.set", 0, 0, buf, 16), -2);
	/* SINGLEHDR: part 1 starts at its byte 0 */
	int g = create(&f, "single.set", 2 * MIB + 4096, 1);
	fill(&f, g, 2 * MIB, 16, 0x33);
	rdo(&f, on(M_RPMEM_PERSIST, g, 2 * MIB, 16, 0, 0), ok_());
	ck_assert(part_holds(&f, "single.set", 1, 0, 16, 0x33));
	ck_assert_uint_eq(m_rpmem_span(&f.s.target[0].set[1]), POOL);
	ck_assert_str_eq(m_rpmem_kind_str(M_RPMEM_DRAIN), "rpmem_drain");
	ck_assert_int_eq(m_rpmem_kind_parse("RPMEM_READ", &k), 0);
	ck_assert_int_eq(k, M_RPMEM_READ);
	ck_assert_int_eq(m_rpmem_kind_parse("nope", &k), -EINVAL);
	ck_assert_str_eq(m_rpmem_opt_str(M_RPMEM_OPT_NOHDRS), "NOHDRS");
	ck_assert_int_eq(m_rpmem_opt_parse("singlehdr", &o), 0);
	ck_assert_int_eq(o, M_RPMEM_OPT_SINGLEHDR);
	ck_assert_str_eq(m_rpmem_opt_str((enum m_rpmem_opt)9), "?");
	struct m_rpmem_model c;
	ck_assert_int_eq(m_rpmem_clone(&c, &f.s), 0);
	ck_assert_ptr_eq(c.target[0].set[0].data, f.s.target[0].set[0].data); /* shared until written */
	ck_assert_int_eq(memcmp(c.target[0].set[0].data, f.s.target[0].set[0].data, c.target[0].set[0].span), 0);
	m_rpmem_free(&c);
	m_rpmem_free(&f.s);
}
END_TEST

/* The pool header page is the target's (magic, shape, attributes): its bytes are unknown to the
 * model in the pool's byte image, so a comparison with the real pool never trips on them; a NOHDRS
 * pool's first page is data like any other. */
START_TEST(test_rpmem_header_page_is_not_the_models)
{
	struct rfx f;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", POOL - 8192, 1);
	const struct m_rpmem_set *st = &f.s.target[0].set[0];
	ck_assert_ptr_nonnull(st->unknown);
	ck_assert_uint_eq(st->unknown[0], 1);
	ck_assert_uint_eq(st->unknown[4095], 1);
	ck_assert_uint_eq(st->unknown[4096], 0);
	(void)h;
	create(&f, "nohdrs.set", POOL, 0);
	ck_assert_uint_eq(f.s.target[0].set[2].unknown[0], 0);
	m_rpmem_free(&f.s);
}
END_TEST

/* A clone shares the pools' and the clients' bytes (no copy per proposal, issue 31); a write on
 * either side copies only the buffer written, and the other side keeps what it had. */
START_TEST(test_rpmem_clone_shares_bytes_until_written)
{
	struct rfx f, c;

	rfx_init(&f, "generic");
	int h = create(&f, "pool.set", POOL - 8192, 1);
	fill(&f, h, 8192, 16, 0x11);
	rdo(&f, on(M_RPMEM_PERSIST, h, 8192, 16, 0, 0), ok_());
	c.p = f.p;
	ck_assert_int_eq(m_rpmem_clone(&c.s, &f.s), 0);
	ck_assert_ptr_eq(c.s.target[0].set[0].data, f.s.target[0].set[0].data);
	ck_assert_ptr_eq(c.s.target[0].set[0].unknown, f.s.target[0].set[0].unknown);
	ck_assert_ptr_eq(c.s.h[h].local, f.s.h[h].local);
	/* the clone writes its client's bytes and its pool: the original sees none of it */
	fill(&c, h, 8192, 16, 0x22);
	ck_assert_ptr_ne(c.s.h[h].local, f.s.h[h].local);
	ck_assert_ptr_eq(c.s.target[0].set[0].data, f.s.target[0].set[0].data);
	rdo(&c, on(M_RPMEM_FLUSH, h, 8192, 16, 0, 0), ok_());
	ck_assert_ptr_ne(c.s.target[0].set[0].data, f.s.target[0].set[0].data);
	rdo(&c, on(M_RPMEM_DRAIN, h, 0, 0, 0, 0), ok_());
	ck_assert(part_holds(&c, "pool.set", 0, 8192, 16, 0x22));
	ck_assert(part_holds(&f, "pool.set", 0, 8192, 16, 0x11));
	ck_assert_uint_eq(f.s.h[h].local[8192], 0x11);
	/* the original writes after the clone is gone: its bytes are its own again */
	m_rpmem_free(&c.s);
	fill(&f, h, 8192, 16, 0x33);
	rdo(&f, on(M_RPMEM_PERSIST, h, 8192, 16, 0, 0), ok_());
	ck_assert(part_holds(&f, "pool.set", 0, 8192, 16, 0x33));
	/* a clone of a clone, each freed in any order */
	struct m_rpmem_model c1, c2;
	ck_assert_int_eq(m_rpmem_clone(&c1, &f.s), 0);
	ck_assert_int_eq(m_rpmem_clone(&c2, &c1), 0);
	m_rpmem_free(&f.s);
	m_rpmem_free(&c1);
	f.s = c2;
	ck_assert(part_holds(&f, "pool.set", 0, 8192, 16, 0x33));
	m_rpmem_free(&c2);
}
END_TEST

Suite *suite_test_model_rpmem(void)
{
	Suite *s = suite_create("model_rpmem");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_every_area_e_rule_is_in_the_table);
	RTEST(tc, RPMEM_ARGS_1, test_RPMEM_ARGS_1_checked_before_the_target);
	RTEST(tc, RPMEM_SIZE_1, test_RPMEM_SIZE_1_usable_size_per_header_option);
	RTEST(tc, RPMEM_SIZE_2, test_RPMEM_SIZE_2_minimum_part_and_pool);
	RTEST(tc, RPMEM_ERRNO_1, test_RPMEM_ERRNO_1_target_answers_in_order);
	RTEST(tc, RPMEM_NLANES_1, test_RPMEM_NLANES_1_min_of_request_env_target);
	RTEST(tc, RPMEM_HDR_1, test_RPMEM_HDR_1_attributes_need_headers);
	RTEST(tc, RPMEM_HDR_2, test_RPMEM_HDR_2_open_attr_and_the_guard);
	RTEST(tc, RPMEM_SETATTR_1, test_RPMEM_SETATTR_1_overwrites_or_zeroes);
	RTEST(tc, RPMEM_CLOSE_1, test_RPMEM_CLOSE_1_pool_stays_and_reopens);
	RTEST(tc, RPMEM_REMOVE_1, test_RPMEM_REMOVE_1_flags_busy_force_pool_set);
	RTEST(tc, RPMEM_PERSIST_1, test_RPMEM_PERSIST_1_order_of_checks_and_bytes);
	RTEST(tc, RPMEM_PERSIST_2, test_RPMEM_PERSIST_2_relaxed_same_guarantee);
	RTEST(tc, RPMEM_FLUSH_1, test_RPMEM_FLUSH_1_unknown_until_drain_on_that_lane);
	RTEST(tc, RPMEM_FLUSH_1, test_RPMEM_FLUSH_1_over_broken_lanes_may_return_0);
	RTEST(tc, RPMEM_DEEP_1, test_RPMEM_DEEP_1_nohdrs_guard_man_page_vs_pmdk);
	RTEST(tc, RPMEM_READ_1, test_RPMEM_READ_1_bounds_man_page_vs_pmdk);
	RTEST(tc, RPMEM_ERR_1, test_RPMEM_ERR_1_sticky_after_a_transport_failure);
	RTEST(tc, RPMEM_ERR_1, test_RPMEM_ERR_1_link_stays_down_after_forced_remove);
	tcase_add_test(tc, test_rpmem_parts_layout_and_names);
	tcase_add_test(tc, test_rpmem_header_page_is_not_the_models);
	tcase_add_test(tc, test_rpmem_clone_shares_bytes_until_written);
	suite_add_tcase(s, tc);
	return s;
}

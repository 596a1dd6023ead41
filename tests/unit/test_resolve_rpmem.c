/*
 * Unit tests of the resolution of librpmem steps (harness/api/rpmem/resolve_rpmem.c):
 * the struct hc_rpmem fields (the model's struct m_rpmem_args) each call fills.
 */
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.p, 1 a.q. */
static const char text[] =
	"require rpmem\nnodes a b\n"
	"b: rpmem_poolset set=\"s.set\" size=2M parts=3 option=\"SINGLEHDR\"\n"                 /* 3 */
	"b: rpmem_poolset set=\"bad.set\" size=4M malformed\n"                                  /* 4 */
	"a: rpmem_create p target=b set=\"s.set\" size=1M nlanes=2 attr=5244\n"                 /* 5 */
	"a: rpmem_open q target=b set=\"s.set\" size=64K null_attr null_nlanes addr_offset=8\n" /* 6 */
	"a: rpmem_persist p offset=8K len=64 lane=1 flags=1\n"                                  /* 7 */
	"a: rpmem_set_attr p\n"                                                                 /* 8 */
	"a: rpmem_remove target=b set=\"s.set\" flags=3\n"                                      /* 9 */
	"a: rpmem_fill p offset=4K len=16 byte=0x5a\n"                                          /* 10 */
	"a: rpmem_create z target=b set=\"s.set\" size=1M null_addr max_nlanes_env=3 expect EINVAL\n"; /* 11 */

static void setup(void)
{
	fx_parse(text, "r.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_poolset)
{
	struct hcall c = fx_ok(3);

	ck_assert_uint_eq(c.op, M_OP_RPMEM_POOLSET);
	ck_assert_uint_eq(c.node, 1);
	ck_assert_uint_eq(c.rpmem.a.target, 1);
	ck_assert_str_eq(c.rpmem.a.set, "s.set");
	ck_assert_uint_eq(c.rpmem.a.nparts, 3);
	ck_assert_uint_eq(c.rpmem.a.part[2], 2u << 20);
	ck_assert_uint_eq(c.rpmem.a.opt, M_RPMEM_OPT_SINGLEHDR);
	ck_assert_uint_eq(c.rpmem.a.malformed, 0);
	c = fx_ok(4);
	ck_assert_uint_eq(c.rpmem.a.nparts, 1);
	ck_assert_uint_eq(c.rpmem.a.opt, M_RPMEM_OPT_NONE);
	ck_assert_uint_eq(c.rpmem.a.malformed, 1);
}
END_TEST

START_TEST(test_create_open)
{
	struct hcall c = fx_ok(5);

	ck_assert_uint_eq(c.op, M_OP_RPMEM_CREATE);
	ck_assert_int_eq(c.obj, 0);
	ck_assert_uint_eq(c.rpmem.a.target, 1);
	ck_assert_uint_eq(c.rpmem.a.pool_size, 1u << 20);
	ck_assert_uint_eq(c.rpmem.a.pool_addr % 4096, 0);
	ck_assert_uint_ne(c.rpmem.a.pool_addr, 0);
	ck_assert_uint_eq(c.rpmem.a.nlanes, 2);
	ck_assert_uint_eq(c.rpmem.a.nulls, 0);
	ck_assert_uint_eq(c.rpmem.nattr, 2);
	ck_assert_int_eq(c.rpmem.a.attr.signature[0], 'R');
	ck_assert_int_eq(c.rpmem.a.attr.signature[1], 'D');
	ck_assert_int_eq(c.rpmem.a.attr.signature[2], 0);
	c = fx_ok(6);
	ck_assert_uint_eq(c.op, M_OP_RPMEM_OPEN);
	ck_assert_uint_eq(c.rpmem.a.pool_addr % 4096, 8);
	ck_assert_uint_eq(c.rpmem.a.nlanes, 4);
	ck_assert_uint_eq(c.rpmem.a.nulls, M_RPMEM_NULL_ATTR | M_RPMEM_NULL_NLANES);
	c = fx_ok(11);
	ck_assert_uint_eq(c.rpmem.a.pool_addr, 0);
	ck_assert_uint_eq(c.rpmem.a.max_nlanes_env, 3);
	ck_assert_uint_eq(c.rpmem.a.nulls, M_RPMEM_NULL_ATTR);
}
END_TEST

START_TEST(test_data_calls)
{
	struct hcall c = fx_ok(7);

	ck_assert_uint_eq(c.op, M_OP_RPMEM_PERSIST);
	ck_assert_int_eq(c.obj, 0);
	ck_assert_uint_eq(c.rpmem.a.offset, 8192);
	ck_assert_uint_eq(c.rpmem.a.len, 64);
	ck_assert_uint_eq(c.rpmem.a.lane, 1);
	ck_assert_uint_eq(c.rpmem.a.flags, 1);
	c = fx_ok(8);
	ck_assert_uint_eq(c.op, M_OP_RPMEM_SET_ATTR);
	ck_assert_uint_eq(c.rpmem.a.nulls, M_RPMEM_NULL_ATTR);
	c = fx_ok(9);
	ck_assert_uint_eq(c.op, M_OP_RPMEM_REMOVE);
	ck_assert_int_eq(c.obj, -1);
	ck_assert_str_eq(c.rpmem.a.set, "s.set");
	ck_assert_uint_eq(c.rpmem.a.flags, 3);
	c = fx_ok(10);
	ck_assert_uint_eq(c.op, M_OP_RPMEM_FILL);
	ck_assert_uint_eq(c.rpmem.a.byte, 0x5a);
	ck_assert_uint_eq(c.rpmem.a.offset, 4096);
	ck_assert_uint_eq(c.rpmem.a.len, 16);
}
END_TEST

Suite *suite_test_resolve_rpmem(void)
{
	Suite *s = suite_create("resolve_rpmem");
	TCase *tc = tcase_create("rpmem");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_poolset);
	tcase_add_test(tc, test_create_open);
	tcase_add_test(tc, test_data_calls);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the resolution of modify_srq and query_srq
 * (harness/api/verbs/resolve_verbs.c, SRQ-MOD-1, SRQ-MOD-2): modify_srq's
 * attribute mask is the keys given (max_wr= IBV_SRQ_MAX_WR, srq_limit=
 * IBV_SRQ_LIMIT), a key left out is 0 and out of the mask; query_srq names
 * the SRQ alone.
 */
#include "tests/unit/resolve_fx.h"

static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                   /* 2 */
	"a: create_srq s pd=pd max_wr=8\n"                   /* 3 */
	"a: modify_srq s max_wr=20\n"                        /* 4 */
	"a: modify_srq s srq_limit=5\n"                      /* 5 */
	"a: modify_srq s max_wr=0 srq_limit=0\n"             /* 6 */
	"a: modify_srq s\n"                                  /* 7 */
	"a: query_srq s expect max_wr=8 srq_limit=5\n";      /* 8 */

static void setup(void)
{
	fx_parse(text, "srq.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_modify_srq_mask_is_the_keys_given)
{
	struct hcall c = fx_ok(4);

	ck_assert_uint_eq(c.op, M_OP_MODIFY_SRQ);
	ck_assert_uint_eq(c.verbs.srq_mask, M_SRQ_MAX_WR);
	ck_assert_uint_eq(c.verbs.max_recv_wr, 20);
	c = fx_ok(5);
	ck_assert_uint_eq(c.verbs.srq_mask, M_SRQ_LIMIT);
	ck_assert_uint_eq(c.verbs.srq_limit, 5);
	ck_assert_uint_eq(c.verbs.max_recv_wr, 0);
	c = fx_ok(6); /* zeros given are in the mask */
	ck_assert_uint_eq(c.verbs.srq_mask, M_SRQ_MAX_WR | M_SRQ_LIMIT);
	ck_assert_uint_eq(c.verbs.max_recv_wr, 0);
	ck_assert_uint_eq(c.verbs.srq_limit, 0);
	ck_assert_uint_eq(fx_ok(7).verbs.srq_mask, 0);
	c = fx_ok(8);
	ck_assert_uint_eq(c.op, M_OP_QUERY_SRQ);
	ck_assert_int_ge(c.obj, 0);
}
END_TEST

Suite *suite_test_resolve_srq(void)
{
	Suite *s = suite_create("resolve_srq");
	TCase *tc = tcase_create("srq");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_modify_srq_mask_is_the_keys_given);
	suite_add_tcase(s, tc);
	return s;
}

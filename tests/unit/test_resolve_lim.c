/*
 * Unit tests of the resolution of a create's size at the device's own limit
 * (harness/api/verbs/resolve_verbs.c, LIM-1, LIM-2): `max` and `max+1` on
 * create_cq depth=, create_srq max_wr= and max_sge=, create_qp max_send_wr=,
 * max_recv_wr=, max_send_sge= and max_recv_sge= are M_LIM_MAX and
 * M_LIM_PAST, which the agent resolves with ibv_query_device; a number
 * stays a number and an absent key its default.
 */
#include "tests/unit/resolve_fx.h"

static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                                           /* 2 */
	"a: create_cq c depth=max\n"                                                 /* 3 */
	"a: create_cq c2 depth=max+1\n"                                              /* 4 */
	"a: create_srq s pd=pd max_wr=max max_sge=max+1\n"                           /* 5 */
	"a: create_srq s2 pd=pd max_wr=5\n"                                          /* 6 */
	"a: create_qp q pd=pd max_send_wr=max max_recv_wr=max+1\n"                   /* 7 */
	"a: create_qp q2 pd=pd max_send_sge=max+1 max_recv_sge=max max_send_wr=3\n"; /* 8 */

static void setup(void)
{
	fx_parse(text, "lim.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_limit_words_resolve_to_the_sentinels)
{
	struct hcall c = fx_ok(3);

	ck_assert_uint_eq(c.op, M_OP_CREATE_CQ);
	ck_assert_uint_eq(c.verbs.cq_depth, M_LIM_MAX);
	ck_assert_uint_eq(fx_ok(4).verbs.cq_depth, M_LIM_PAST);
	c = fx_ok(5);
	ck_assert_uint_eq(c.verbs.max_recv_wr, M_LIM_MAX);
	ck_assert_uint_eq(c.verbs.srq_max_sge, M_LIM_PAST);
	c = fx_ok(6);
	ck_assert_uint_eq(c.verbs.max_recv_wr, 5);
	ck_assert_uint_eq(c.verbs.srq_max_sge, 1); /* the harness's one SGE per SRQ receive */
	c = fx_ok(7);
	ck_assert_uint_eq(c.verbs.max_send_wr, M_LIM_MAX);
	ck_assert_uint_eq(c.verbs.max_recv_wr, M_LIM_PAST);
	ck_assert_uint_eq(c.verbs.max_send_sge, 1);
	c = fx_ok(8);
	ck_assert_uint_eq(c.verbs.max_send_sge, M_LIM_PAST);
	ck_assert_uint_eq(c.verbs.max_recv_sge, M_LIM_MAX);
	ck_assert_uint_eq(c.verbs.max_send_wr, 3);
}
END_TEST

Suite *suite_test_resolve_lim(void)
{
	Suite *s = suite_create("resolve_lim");
	TCase *tc = tcase_create("lim");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_limit_words_resolve_to_the_sentinels);
	suite_add_tcase(s, tc);
	return s;
}

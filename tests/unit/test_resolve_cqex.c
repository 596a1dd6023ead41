/*
 * Unit tests of the resolution of create_cq's and create_qp's extended keys
 * (harness/api/verbs/resolve_verbs.c): ex=yes, wc_flags=, flags= and
 * send_ops= reach the call (and so the model's and the agent's arguments);
 * a plain create carries none.
 */
#include "tests/unit/resolve_fx.h"

static const char text[] =
	"nodes a\n"
	"a: create_cq plain depth=4\n"                                                        /* 2 */
	"a: create_cq ex depth=10 ex=yes wc_flags=BYTE_LEN|QP_NUM flags=IGNORE_OVERRUN\n"      /* 3 */
	"a: create_cq bare ex=yes\n"                                                           /* 4 */
	"a: alloc_pd pd\n"                                                                     /* 5 */
	"a: create_qp q pd=pd ex=yes send_ops=SEND|RDMA_READ\n"                                /* 6 */
	"a: create_qp plainq pd=pd\n";                                                         /* 7 */

static void setup(void)
{
	fx_parse(text, "cqex.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_create_cq_ex_keys_resolve)
{
	struct hcall c = fx_ok(2);

	ck_assert_uint_eq(c.verbs.cq_ex, 0);
	ck_assert_uint_eq(c.verbs.wc_flags, 0);
	ck_assert_uint_eq(c.verbs.cq_flags, 0);
	c = fx_ok(3);
	ck_assert_uint_eq(c.verbs.cq_ex, 1);
	ck_assert_uint_eq(c.verbs.cq_depth, 10);
	ck_assert_uint_eq(c.verbs.wc_flags, M_WC_EX_BYTE_LEN | (1u << 2));
	ck_assert_uint_eq(c.verbs.cq_flags, 2);
	c = fx_ok(4);
	ck_assert_uint_eq(c.verbs.cq_ex, 1);
	ck_assert_uint_eq(c.verbs.wc_flags, 0);
	c = fx_ok(6);
	ck_assert_uint_eq(c.verbs.qp_ex, 1);
	ck_assert_uint_eq(c.verbs.send_ops, (1u << 2) | (1u << 4));
	c = fx_ok(7);
	ck_assert_uint_eq(c.verbs.qp_ex, 0);
	ck_assert_uint_eq(c.verbs.send_ops, 0);
}
END_TEST

Suite *suite_test_resolve_cqex(void)
{
	Suite *s = suite_create("resolve_cqex");
	TCase *tc = tcase_create("cqex");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_cq_ex_keys_resolve);
	suite_add_tcase(s, tc);
	return s;
}

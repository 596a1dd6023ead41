/*
 * Unit tests of the resolution of SGE lists and garbled handles
 * (harness/api/verbs/resolve_sge.c, resolve_verbs.c) and of the SGE fields
 * of the agent's post request (stack_sge.c): local2= len2= lkey2= ... after
 * the first SGE, the WR's length their sum; create_qp's max_send_sge;
 * garble=; bind_mw without mr=.
 */
#include "tests/unit/resolve_fx.h"
#include "harness/api/verbs/api_verbs.h"

#include <string.h>

/* Objects: 0 a.pd, 1 a.m, 2 a.m2, 3 a.q, 4 a.cq, 5 a.w. */
static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                                                  /* 2 */
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n"                        /* 3 */
	"a: reg_mr m2 pd=pd len=4K access=LOCAL_WRITE\n"                                    /* 4 */
	"a: create_qp q pd=pd max_send_sge=3\n"                                             /* 5 */
	"a: write q local=m+8 len=4 local2=m2+16 len2=12 local3=m+100 len3=2 lkey3=7 remote=m+0\n" /* 6 */
	"a: fadd q local=m+8 len=4 local2=m+16 len2=4 remote=m+0 add=1\n"                   /* 7 */
	"a: write q local=m+0 len=8 remote=m+0\n"                                          /* 8 */
	"a: create_cq cq\n"                                                                 /* 9 */
	"a: dealloc_pd pd garble=self\n"                                                    /* 10 */
	"a: create_qp q2 pd=pd send_cq=cq garble=send_cq\n"                                 /* 11 */
	"a: alloc_mw w pd=pd type=1\n"                                                      /* 12 */
	"a: bind_mw w qp=q len=64 access=REMOTE_WRITE\n";                                   /* 13 */

static void setup(void)
{
	fx_parse(text, "sge.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_sge_list_resolves_in_order)
{
	struct hcall c = fx_ok(6);

	ck_assert_uint_eq(c.verbs.nsge_more, 2);
	ck_assert_uint_eq(c.verbs.len, 4 + 12 + 2);
	ck_assert_uint_eq(c.verbs.sge_more[0].len, 12);
	ck_assert_uint_eq(c.verbs.sge_more[1].len, 2);
	ck_assert_uint_eq(c.verbs.sge_more[1].lkey, 7);
	ck_assert(c.verbs.sge_more[0].lkey != 7);
	ck_assert_uint_eq(c.verbs.sge_more[1].addr - c.verbs.laddr, 92); /* m+100 after m+8 */
	c = fx_ok(7);
	ck_assert_uint_eq(c.verbs.nsge_more, 1);
	ck_assert_uint_eq(c.verbs.len, 8);
	c = fx_ok(8);
	ck_assert_uint_eq(c.verbs.nsge_more, 0);
	ck_assert_uint_eq(c.verbs.len, 8);
	ck_assert_uint_eq(fx_ok(5).verbs.max_send_sge, 3);
}
END_TEST

START_TEST(test_sge_fields_of_the_post_request)
{
	struct hcall c = fx_ok(6);
	char buf[512];

	ck_assert_uint_eq(stack_sge_fields(&c, buf, sizeof(buf)), strlen(buf));
	ck_assert_ptr_nonnull(strstr(buf, " nsge=3 "));
	ck_assert_ptr_nonnull(strstr(buf, " s1.len=12"));
	ck_assert_ptr_nonnull(strstr(buf, " s2.lkey=7 s2.len=2"));
	c = fx_ok(8);
	ck_assert_uint_eq(stack_sge_fields(&c, buf, sizeof(buf)), 0);
	/* A short buffer: cut, never overrun. */
	c = fx_ok(6);
	ck_assert_uint_lt(stack_sge_fields(&c, buf, 16), 16);
}
END_TEST

START_TEST(test_garble_and_bind_without_mr)
{
	struct hcall c = fx_ok(10);

	ck_assert_uint_eq(c.verbs.garble, M_GARBLE_SELF);
	c = fx_ok(11);
	ck_assert_uint_eq(c.verbs.garble, M_GARBLE_SEND_CQ);
	ck_assert_int_eq(c.verbs.scq, 4);
	ck_assert_uint_eq(fx_ok(5).verbs.garble, M_GARBLE_NONE);
	c = fx_ok(13);
	ck_assert_int_eq(c.verbs.mr, -1);
	ck_assert_uint_eq(c.verbs.start, 0);
	ck_assert_uint_eq(c.verbs.len, 64);
}
END_TEST

Suite *suite_test_resolve_sge(void)
{
	Suite *s = suite_create("resolve_sge");
	TCase *tc = tcase_create("sge");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sge_list_resolves_in_order);
	tcase_add_test(tc, test_sge_fields_of_the_post_request);
	tcase_add_test(tc, test_garble_and_bind_without_mr);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the resolution of the CQ steps and keys (harness/api/verbs/
 * resolve_verbs.c): create_cq's depth, create_qp's CQs and sig_all, a WR's
 * id (its line when none is given) and signaled=no, poll_cq's max, a WR
 * without local= (num_sge 0).
 */
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.pd, 1 a.cq, 2 a.cq2, 3 a.q, 4 a.q2, 5 a.q3, 6 a.m. */
static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                                    /* 2 */
	"a: create_cq cq\n"                                                   /* 3 */
	"a: create_cq cq2 depth=3\n"                                          /* 4 */
	"a: create_qp q pd=pd cq=cq sig_all\n"                                /* 5 */
	"a: create_qp q2 pd=pd cq=cq recv_cq=cq2\n"                           /* 6 */
	"a: create_qp q3 pd=pd\n"                                             /* 7 */
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"                       /* 8 */
	"a: send q local=m len=8 id=77 signaled=no\n"                         /* 9 */
	"a: send q local=m len=8 signaled=yes\n"                              /* 10 */
	"a: recv q local=m len=8\n"                                           /* 11 */
	"a: poll_cq cq max=2\n"                                               /* 12 */
	"a: poll_cq cq\n"                                                     /* 13 */
	"a: destroy_cq cq2 expect EBUSY\n"                                    /* 14 */
	"a: recv q len=0\n";                                                  /* 15 */

static void setup(void)
{
	fx_parse(text, "cq.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_create_cq_and_qp_cqs)
{
	struct hcall c = fx_ok(3);

	ck_assert_uint_eq(c.op, M_OP_CREATE_CQ);
	ck_assert_uint_eq(c.verbs.cq_depth, M_CQ_DEPTH_DEFAULT);
	ck_assert_uint_eq(fx_ok(4).verbs.cq_depth, 3);
	c = fx_ok(5);
	ck_assert_int_eq(c.verbs.scq, 1);
	ck_assert_int_eq(c.verbs.rcq, 1);
	ck_assert_uint_eq(c.verbs.sig_all, 1);
	c = fx_ok(6);
	ck_assert_int_eq(c.verbs.scq, 1);
	ck_assert_int_eq(c.verbs.rcq, 2);
	ck_assert_uint_eq(c.verbs.sig_all, 0);
	c = fx_ok(7);
	ck_assert_int_eq(c.verbs.scq, -1);
	ck_assert_int_eq(c.verbs.rcq, -1);
	c = fx_ok(14);
	ck_assert_uint_eq(c.op, M_OP_DESTROY_CQ);
	ck_assert_int_eq(c.obj, 2);
}
END_TEST

START_TEST(test_wr_ids_and_signaled)
{
	struct hcall c = fx_ok(9);

	ck_assert_uint_eq(c.verbs.wr_id, 77);
	ck_assert_uint_eq(c.verbs.unsignaled, 1);
	c = fx_ok(10);
	ck_assert_uint_eq(c.verbs.wr_id, 10); /* none given: the step's line */
	ck_assert_uint_eq(c.verbs.unsignaled, 0);
	c = fx_ok(11);
	ck_assert_uint_eq(c.verbs.wr_id, 11);
	ck_assert_uint_eq(c.verbs.no_sge, 0);
	c = fx_ok(15); /* no local=: num_sge 0 */
	ck_assert_uint_eq(c.verbs.no_sge, 1);
	ck_assert_uint_eq(c.verbs.lkey, 0);
	ck_assert_uint_eq(c.verbs.laddr, 0);
	ck_assert_uint_eq(fx_ok(12).verbs.max_wc, 2);
	ck_assert_uint_eq(fx_ok(13).verbs.max_wc, M_POLL_MAX);
}
END_TEST

Suite *suite_test_resolve_cq(void)
{
	Suite *s = suite_create("resolve_cq");
	TCase *tc = tcase_create("cq");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_cq_and_qp_cqs);
	tcase_add_test(tc, test_wr_ids_and_signaled);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the resolution of a receive's SGE (harness/api/verbs/
 * resolve_verbs.c, calls_verbs.c): recv's lkey= replaces the lkey of the MR
 * that local= names, as on the send side, so a receive SGE can point outside
 * the MR whose key it carries (rdma-unit-test BufferMrTest.SendZeroByteOutsideMr);
 * send's and write_imm's imm_data=.
 */
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.pd, 1 a.m, 2 a.n, 3 a.q. */
static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                                    /* 2 */
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"                       /* 3 */
	"a: reg_mr n pd=pd len=4K access=LOCAL_WRITE\n"                       /* 4 */
	"a: create_qp q pd=pd\n"                                              /* 5 */
	"a: recv q local=m+8 len=0 lkey=n.lkey\n"                             /* 6 */
	"a: recv q local=m+8 len=16 lkey=0xdeadbeef\n"                        /* 7 */
	"a: recv q local=m+8 len=16\n"                                        /* 8 */
	"a: send q local=m len=8 imm_data=0xbaddcafe\n"                      /* 9 */
	"a: send q local=m len=8 imm\n"                                      /* 10 */
	"a: write_imm q local=m remote=n+0 len=0 imm_data=5\n"               /* 11 */
	"a: write_imm q local=m remote=n+0 len=0\n";                         /* 12 */

static void setup(void)
{
	fx_parse(text, "recv.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_recv_lkey_replaces_the_mrs)
{
	struct hcall c = fx_ok(6);

	ck_assert_uint_eq(c.op, M_OP_RECV);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1) + 8);
	ck_assert_uint_eq(c.verbs.lkey, 0x1002); /* n's lkey, m's address */
	ck_assert_uint_eq(c.verbs.len, 0);
	ck_assert_uint_eq(c.verbs.no_sge, 0);
	c = fx_ok(7);
	ck_assert_uint_eq(c.verbs.lkey, 0xdeadbeef);
	ck_assert_uint_eq(c.verbs.len, 16);
	ck_assert_uint_eq(fx_ok(8).verbs.lkey, 0x1001); /* none given: local='s MR */
}
END_TEST

/* imm_data= is the immediate of a SEND (which it makes SEND_WITH_IMM) and of a WRITE with immediate. */
START_TEST(test_imm_data)
{
	struct hcall c = fx_ok(9);

	ck_assert_uint_eq(c.verbs.with_imm, 1);
	ck_assert_uint_eq(c.verbs.imm_data, 0xbaddcafe);
	c = fx_ok(10);
	ck_assert_uint_eq(c.verbs.with_imm, 1);
	ck_assert_uint_eq(c.verbs.imm_data, 0);
	ck_assert_uint_eq(fx_ok(11).verbs.imm_data, 5);
	ck_assert_uint_eq(fx_ok(12).verbs.imm_data, 0);
}
END_TEST

Suite *suite_test_resolve_recv(void)
{
	Suite *s = suite_create("resolve_recv");
	TCase *tc = tcase_create("recv");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_recv_lkey_replaces_the_mrs);
	tcase_add_test(tc, test_imm_data);
	suite_add_tcase(s, tc);
	return s;
}

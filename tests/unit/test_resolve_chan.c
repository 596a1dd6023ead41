/*
 * Unit tests of the resolution of the completion channel steps and keys
 * (harness/api/verbs/resolve_verbs.c): create_cq's channel= and vector=,
 * req_notify_cq's solicited=, a SEND's solicited=, get_cq_event's channel,
 * ack_cq_events' n=.
 */
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.pd, 1 a.ch, 2 a.cq, 3 a.cq2, 4 a.cq3, 5 a.q, 6 a.m. */
static const char text[] =
	"nodes a\n"
	"a: alloc_pd pd\n"                                                    /* 2 */
	"a: create_comp_channel ch\n"                                         /* 3 */
	"a: create_cq cq depth=10 channel=ch vector=last\n"                   /* 4 */
	"a: create_cq cq2 vector=-1\n"                                        /* 5 */
	"a: create_cq cq3 vector=past\n"                                      /* 6 */
	"a: create_qp q pd=pd cq=cq\n"                                        /* 7 */
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"                       /* 8 */
	"a: req_notify_cq cq solicited=yes\n"                                 /* 9 */
	"a: req_notify_cq cq\n"                                               /* 10 */
	"a: send q local=m len=8 solicited=yes\n"                             /* 11 */
	"a: get_cq_event ch expect n=0\n"                                     /* 12 */
	"a: ack_cq_events cq n=3\n"                                           /* 13 */
	"a: ack_cq_events cq\n"                                               /* 14 */
	"a: destroy_comp_channel ch expect EBUSY\n";                          /* 15 */

static void setup(void)
{
	fx_parse(text, "chan.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_create_cq_channel_and_vector)
{
	struct hcall c = fx_ok(3);

	ck_assert_uint_eq(c.op, M_OP_CREATE_COMP_CHANNEL);
	c = fx_ok(4);
	ck_assert_uint_eq(c.op, M_OP_CREATE_CQ);
	ck_assert_int_eq(c.verbs.chan, 1);
	ck_assert_uint_eq(c.verbs.comp_vec, M_VEC_LAST);
	ck_assert_uint_eq(c.verbs.cq_depth, 10);
	c = fx_ok(5);
	ck_assert_int_eq(c.verbs.chan, -1);
	ck_assert_uint_eq(c.verbs.comp_vec, M_VEC_MINUS1);
	ck_assert_uint_eq(fx_ok(6).verbs.comp_vec, M_VEC_PAST);
	ck_assert_uint_eq(fx_ok(7).verbs.comp_vec, M_VEC_ZERO);
	c = fx_ok(15);
	ck_assert_uint_eq(c.op, M_OP_DESTROY_COMP_CHANNEL);
	ck_assert_int_eq(c.obj, 1);
}
END_TEST

START_TEST(test_notify_event_ack)
{
	struct hcall c = fx_ok(9);

	ck_assert_uint_eq(c.op, M_OP_REQ_NOTIFY_CQ);
	ck_assert_int_eq(c.obj, 2);
	ck_assert_uint_eq(c.verbs.solicited, 1);
	ck_assert_uint_eq(fx_ok(10).verbs.solicited, 0);
	ck_assert_uint_eq(fx_ok(11).verbs.solicited, 1);
	c = fx_ok(12);
	ck_assert_uint_eq(c.op, M_OP_GET_CQ_EVENT);
	ck_assert_int_eq(c.obj, 1);
	c = fx_ok(13);
	ck_assert_uint_eq(c.op, M_OP_ACK_CQ_EVENTS);
	ck_assert_uint_eq(c.verbs.nack, 3);
	ck_assert_uint_eq(fx_ok(14).verbs.nack, 1);
}
END_TEST

Suite *suite_test_resolve_chan(void)
{
	Suite *s = suite_create("resolve_chan");
	TCase *tc = tcase_create("chan");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_cq_channel_and_vector);
	tcase_add_test(tc, test_notify_event_ack);
	suite_add_tcase(s, tc);
	return s;
}

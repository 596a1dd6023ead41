/*
 * Unit tests of the scenario language's completion channel steps: every
 * call and key parses and prints back in canonical form, and the refusals
 * with their codes (a comp_vector the model cannot place, a channel where a
 * CQ is needed, n= out of range, a fifth channel on a node).
 */
#include "harness/lang/scn.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <string.h>

#define BASE "nodes a b\n"

static const char *const canonical[] = {
	"a: create_comp_channel ch",
	"a: create_cq cq depth=10 channel=ch vector=last",
	"a: create_cq cq2 vector=-1 expect EINVAL",
	"a: create_cq cq3 vector=past expect EINVAL",
	"a: create_cq cq4 vector=0",
	"a: req_notify_cq cq solicited=yes",
	"a: req_notify_cq cq",
	"a: get_cq_event ch expect n=1 cq=1",
	"a: ack_cq_events cq n=2",
	"a: resize_cq cq depth=7 expect cqe=7",
	"a: destroy_comp_channel ch expect EBUSY",
};

START_TEST(test_every_chan_call_parses_and_prints)
{
	struct scn_file *f = parse_canonical(BASE, 0, canonical, sizeof(canonical) / sizeof(canonical[0]));

	ck_assert_uint_eq(f->objs[f->steps[0].obj].cls, SCN_C_CHAN);
	ck_assert_uint_eq(f->objs[f->steps[1].obj].cls, SCN_C_CQ);
	scn_free(f);
}
END_TEST

START_TEST(test_chan_refusals)
{
	ck_assert_int_eq(parse_err(BASE "a: create_cq cq vector=1\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: create_comp_channel ch\na: req_notify_cq ch\n"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(parse_err(BASE "a: create_cq cq\na: get_cq_event cq\n"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(parse_err(BASE "a: create_cq cq\na: ack_cq_events cq n=17\n"), SCN_E_RANGE);
	ck_assert_int_eq(parse_err(BASE "a: create_cq cq\na: resize_cq cq\n"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(parse_err(BASE "a: create_comp_channel c1\na: create_comp_channel c2\na: create_comp_channel c3\n"
				   "a: create_comp_channel c4\na: create_comp_channel c5\n"), SCN_E_MODEL_LIMIT);
}
END_TEST

Suite *suite_test_scn_chan(void)
{
	Suite *s = suite_create("scn_chan");
	TCase *tc = tcase_create("chan");

	tcase_add_test(tc, test_every_chan_call_parses_and_prints);
	tcase_add_test(tc, test_chan_refusals);
	suite_add_tcase(s, tc);
	return s;
}

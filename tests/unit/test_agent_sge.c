/*
 * Unit tests of the agent's SGE lists (harness/api/verbs/agent_sge.c): the
 * request's nsge= and sI.* fields after the WR's first SGE, which keeps what
 * is left of the WR's length; one SGE leaves the WR alone; a bad count.
 */
#include "harness/api/verbs/agent_sge.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static struct agent *agent_with(const char *msg)
{
	struct agent *a = calloc(1, sizeof(*a));

	ck_assert_ptr_nonnull(a);
	snprintf(a->msg, sizeof(a->msg), "%s", msg);
	return a;
}

START_TEST(test_list_after_the_first_sge)
{
	struct agent *a = agent_with("post id=3 op=write len=18 nsge=3 s1.laddr=0x2000 s1.lkey=6 s1.len=12 "
				     "s2.laddr=0x3000 s2.lkey=7 s2.len=2");
	struct ibv_sge first = { .addr = 0x1000, .length = 18, .lkey = 5 }, *list;
	struct ibv_send_wr wr = { .sg_list = &first, .num_sge = 1 };

	ck_assert_int_eq(agent_sge_list(a, &wr, &list), 0);
	ck_assert_ptr_eq(wr.sg_list, list);
	ck_assert_int_eq(wr.num_sge, 3);
	ck_assert_uint_eq(list[0].addr, 0x1000);
	ck_assert_uint_eq(list[0].length, 4);
	ck_assert_uint_eq(list[0].lkey, 5);
	ck_assert_uint_eq(list[1].addr, 0x2000);
	ck_assert_uint_eq(list[1].length, 12);
	ck_assert_uint_eq(list[2].lkey, 7);
	free(list);
	free(a);
}
END_TEST

START_TEST(test_one_sge_or_a_bad_count)
{
	struct agent *a = agent_with("post id=3 op=write len=8");
	struct ibv_sge first = { .addr = 0x1000, .length = 8 }, *list = &first;
	struct ibv_send_wr wr = { .sg_list = &first, .num_sge = 1 };

	ck_assert_int_eq(agent_sge_list(a, &wr, &list), 0);
	ck_assert_ptr_null(list);
	ck_assert_ptr_eq(wr.sg_list, &first);
	free(a);
	a = agent_with("post id=3 op=write len=8 nsge=9");
	ck_assert_int_eq(agent_sge_list(a, &wr, &list), -EINVAL);
	ck_assert_ptr_null(list);
	free(a);
}
END_TEST

Suite *suite_test_agent_sge(void)
{
	Suite *s = suite_create("agent_sge");
	TCase *tc = tcase_create("sge");

	tcase_add_test(tc, test_list_after_the_first_sge);
	tcase_add_test(tc, test_one_sge_or_a_bad_count);
	suite_add_tcase(s, tc);
	return s;
}

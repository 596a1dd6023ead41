/*
 * Unit tests of the agent's buffers (harness/agent/agent.c, issue 16.1):
 * a buffer registered by several objects (DAT from=, librpma buf=) belongs
 * to all of them; re-creating or dropping one never unmaps the others'
 * bytes, and the last reference unmaps it.
 */
#include "harness/agent/agent_internal.h"

#include <check.h>
#include <errno.h>
#include <string.h>

START_TEST(test_shared_buffer_survives_its_first_owner)
{
	struct aobj a = { 0 }, b = { 0 };

	ck_assert_int_eq(agent_buffer(&a, 4096, 0, 0), 0);
	memset(a.buf, 0x7e, 4096);
	agent_buffer_share(&b, &a, 4096);
	ck_assert_ptr_eq(a.mem, b.mem);
	ck_assert_uint_eq(a.mem->refs, 2);
	/* a is created again: b keeps the old bytes, a gets new ones. */
	ck_assert_int_eq(agent_buffer(&a, 4096, 0, 0), 0);
	memset(a.buf, 0x11, 4096);
	ck_assert_ptr_ne(a.mem, b.mem);
	ck_assert_uint_eq(b.mem->refs, 1);
	ck_assert_uint_eq(b.buf[0], 0x7e);
	ck_assert_uint_eq(b.buf[4095], 0x7e);
	agent_buffer_drop(&a);
	agent_buffer_drop(&b);
	ck_assert_ptr_null(b.mem);
}
END_TEST

START_TEST(test_twin_created_again_keeps_the_owners_bytes)
{
	struct aobj a = { 0 }, b = { 0 };

	ck_assert_int_eq(agent_buffer(&a, 100, 8, 0), 0);
	a.buf[0] = 0x5a;
	agent_buffer_share(&b, &a, 50);
	ck_assert_ptr_eq(b.buf, a.buf);
	ck_assert_uint_eq(b.len, 50);
	ck_assert_int_eq(agent_buffer(&b, 64, 0, 0), 0); /* the twin's name again */
	ck_assert_uint_eq(a.mem->refs, 1);
	ck_assert_uint_eq(a.buf[0], 0x5a);
	agent_buffer_share(&a, &a, 100); /* sharing with itself keeps it */
	ck_assert_uint_eq(a.mem->refs, 1);
	ck_assert_uint_eq(a.buf[0], 0x5a);
	agent_buffer_drop(&a);
	agent_buffer_drop(&b);
	agent_buffer_drop(&b); /* dropping nothing is harmless */
}
END_TEST

START_TEST(test_unmapped_buffer_has_no_bytes)
{
	struct aobj a = { 0 }, b = { 0 };

	ck_assert_int_eq(agent_buffer(&a, 4096, 0, 3), 0);
	ck_assert_ptr_nonnull(a.mem);
	ck_assert_ptr_null(a.mem->map);
	agent_buffer_share(&b, &a, 4096);
	ck_assert_ptr_null(b.mem->map);
	agent_buffer_drop(&a);
	agent_buffer_drop(&b);
	ck_assert_int_eq(agent_buffer(&a, 1, 4096 * 16, 0), -EINVAL);
	ck_assert_ptr_null(a.mem);
}
END_TEST

Suite *suite_test_agent_buf(void)
{
	Suite *s = suite_create("test_agent_buf");
	TCase *tc = tcase_create("buffers");

	tcase_add_test(tc, test_shared_buffer_survives_its_first_owner);
	tcase_add_test(tc, test_twin_created_again_keeps_the_owners_bytes);
	tcase_add_test(tc, test_unmapped_buffer_has_no_bytes);
	suite_add_tcase(s, tc);
	return s;
}

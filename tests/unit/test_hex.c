/*
 * Unit tests of lib/common/hex.h: bytes as hex (the handshakes' nonces and
 * MACs) and random nonces.
 */
#include "lib/common/hex.h"

#include <check.h>
#include <errno.h>
#include <string.h>

START_TEST(test_hex_encode)
{
	static const unsigned char b[] = { 0x00, 0x01, 0x7f, 0x80, 0xab, 0xff };
	char out[2 * sizeof(b) + 2];

	memset(out, 'x', sizeof(out));
	hex_encode(b, sizeof(b), out);
	ck_assert_str_eq(out, "00017f80abff");
	ck_assert_int_eq(out[sizeof(out) - 1], 'x'); /* 2n digits and a NUL, no more */
	hex_encode(b, 0, out);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_hex_random)
{
	char a[65], b[65], big[2 * 257 + 1];

	ck_assert_int_eq(hex_random(32, a), 0);
	ck_assert_int_eq(hex_random(32, b), 0);
	ck_assert_uint_eq(strlen(a), 64);
	ck_assert_uint_eq(strspn(a, "0123456789abcdef"), 64);
	ck_assert_str_ne(a, b); /* 256 random bits each */
	ck_assert_int_eq(hex_random(257, big), -EIO);
	ck_assert_str_eq(big, "");
}
END_TEST

Suite *suite_test_hex(void)
{
	Suite *s = suite_create("test_hex");
	TCase *tc = tcase_create("hex");

	tcase_add_test(tc, test_hex_encode);
	tcase_add_test(tc, test_hex_random);
	suite_add_tcase(s, tc);
	return s;
}

/* Unit tests of the growing text buffer of reports (harness/base/text.c) and of JSON lines (jline.c). */
#include "harness/base/jline.h"
#include "harness/base/text.h"

#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

START_TEST(test_empty)
{
	struct text t = { 0 };

	ck_assert_str_eq(text_str(&t), "");
	ck_assert_ptr_null(text_take(&t));
	text_free(&t);
	ck_assert_ptr_null(t.s);
	ck_assert_uint_eq(t.len, 0);
}
END_TEST

START_TEST(test_appends)
{
	struct text t = { 0 };

	text_addf(&t, "line %u: %s", 12u, "write");
	text_addf(&t, "%s", "");
	text_addf(&t, " gave %s\n", "SUCCESS");
	ck_assert_str_eq(text_str(&t), "line 12: write gave SUCCESS\n");
	ck_assert_uint_eq(t.len, strlen("line 12: write gave SUCCESS\n"));
	ck_assert_uint_gt(t.cap, t.len);
	ck_assert_int_eq(t.oom, 0);
	text_free(&t);
	ck_assert_ptr_null(t.s);
	ck_assert_uint_eq(t.len, 0);
	ck_assert_uint_eq(t.cap, 0);
}
END_TEST

START_TEST(test_grows)
{
	struct text t = { 0 };
	char big[3000];

	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < 1000; i++)
		text_addf(&t, "%03d,", i);
	ck_assert_uint_eq(t.len, 4000);
	ck_assert_int_eq(strncmp(text_str(&t), "000,001,002,", 12), 0);
	ck_assert_str_eq(text_str(&t) + 3996, "999,");
	/* one append bigger than the doubled capacity */
	text_addf(&t, "%s", big);
	ck_assert_uint_eq(t.len, 6999);
	ck_assert_uint_eq(strlen(text_str(&t)), 6999);
	ck_assert_uint_ge(t.cap, 7000);
	ck_assert_str_eq(text_str(&t) + 4000, big);
	text_free(&t);
}
END_TEST

/* An append that fills the room to its last byte stays; one byte more grows it: the text is the same either way. */
START_TEST(test_fills_the_room_to_the_byte)
{
	struct text t = { 0 };
	char ref[2048] = "", fill[600];
	size_t room, cap;

	text_addf(&t, "%s", "start:");
	strcat(ref, "start:");
	cap = t.cap;
	room = cap - t.len;
	memset(fill, 'f', room - 1);
	fill[room - 1] = '\0';
	text_addf(&t, "%s", fill); /* room - 1 bytes and the NUL: the room exactly */
	strcat(ref, fill);
	ck_assert_uint_eq(t.cap, cap);
	ck_assert_uint_eq(t.len, cap - 1);
	ck_assert_str_eq(text_str(&t), ref);
	text_addf(&t, "%c", 'x'); /* no room for it and its NUL */
	strcat(ref, "x");
	ck_assert_uint_gt(t.cap, cap);
	ck_assert_str_eq(text_str(&t), ref);
	for (int i = 0; i < 40; i++) { /* lengths across the next boundaries */
		char part[64];

		snprintf(part, sizeof(part), "%0*d|", i % 17 + 1, i);
		text_addf(&t, "%0*d|", i % 17 + 1, i);
		strcat(ref, part);
		ck_assert_str_eq(text_str(&t), ref);
		ck_assert_uint_eq(t.len, strlen(ref));
	}
	text_free(&t);
}
END_TEST

START_TEST(test_take)
{
	struct text t = { 0 };
	char *s;

	text_addf(&t, "a%cb", '\n');
	s = text_take(&t);
	ck_assert_str_eq(s, "a\nb");
	ck_assert_ptr_null(t.s);
	ck_assert_uint_eq(t.len, 0);
	ck_assert_uint_eq(t.cap, 0);
	/* t is usable again, independently of what was taken */
	text_addf(&t, "c");
	ck_assert_str_eq(text_str(&t), "c");
	ck_assert_str_eq(s, "a\nb");
	free(s);
	text_free(&t);
}
END_TEST

START_TEST(test_oom_stops_appends)
{
	struct text t = { 0 };

	text_addf(&t, "kept");
	t.oom = 1; /* as after a failed allocation */
	text_addf(&t, " dropped");
	ck_assert_str_eq(text_str(&t), "kept");
	ck_assert_uint_eq(t.len, 4);
	text_free(&t);
	ck_assert_int_eq(t.oom, 0);
}
END_TEST

START_TEST(test_copies_as_the_format_would)
{
	struct text t = { 0 }, f = { 0 };
	char big[700];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	text_add(&t, "ab\ncd", 3);
	text_adds(&t, big); /* past the first buffer: grows */
	text_addu(&t, 0);
	text_addu(&t, 18446744073709551615ull);
	text_addl(&t, " -> ", "", "ok", (const char *)NULL);
	text_addf(&f, "%.*s%s%llu%llu -> ok", 3, "ab\ncd", big, 0ull, 18446744073709551615ull);
	ck_assert_str_eq(text_str(&t), text_str(&f));
	ck_assert_uint_eq(t.len, f.len);
	text_free(&t);
	text_add(&t, "", 0); /* as text_addf(t, "%s", ""): an empty text, not NULL */
	ck_assert_ptr_nonnull(t.s);
	ck_assert_str_eq(t.s, "");
	t.oom = 1;
	text_adds(&t, "dropped");
	ck_assert_str_eq(text_str(&t), "");
	text_free(&t);
	text_free(&f);
}
END_TEST

/* jline's line is json_dumps(JSON_COMPACT)'s text of the same value, or not ok. */
START_TEST(test_jline_as_jansson_writes)
{
	const char *plain[] = { "", "a: query_qp q", "ok [PD-2 MR-KEY-1]", "~ !#$%&'()*+,-./09:;<=>?@[]^_`{|}" };
	const char *escaped[] = { "a\"b", "back\\slash", "tab\there", "\x7f", "\xc3\xa9", NULL };
	const int64_t nums[] = { 0, -1, 4096, INT64_MAX, INT64_MIN };
	struct jline l;

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
			json_t *v = json_pack("[s,I]", plain[i], (json_int_t)nums[k]);
			char *want = json_dumps(v, JSON_COMPACT);

			jline_init(&l);
			jline_raw(&l, "[");
			jline_str(&l, plain[i]);
			jline_raw(&l, ",");
			jline_int(&l, nums[k]);
			jline_raw(&l, "]");
			ck_assert(l.ok);
			ck_assert_uint_eq(l.n, strlen(want));
			ck_assert(memcmp(l.b, want, l.n) == 0);
			free(want);
			json_decref(v);
		}
	for (size_t i = 0; i < sizeof(escaped) / sizeof(escaped[0]); i++) {
		jline_init(&l);
		jline_str(&l, escaped[i]);
		ck_assert_msg(!l.ok, "%s", escaped[i] ? escaped[i] : "NULL");
	}
	jline_init(&l);
	for (size_t i = 0; i < JLINE_MAX; i++)
		jline_raw(&l, "x");
	ck_assert(!l.ok); /* too long: the caller builds it with jansson */
	ck_assert_uint_lt(l.n, JLINE_MAX);
}
END_TEST

Suite *suite_test_text(void)
{
	Suite *s = suite_create("test_text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_appends);
	tcase_add_test(tc, test_grows);
	tcase_add_test(tc, test_fills_the_room_to_the_byte);
	tcase_add_test(tc, test_take);
	tcase_add_test(tc, test_oom_stops_appends);
	tcase_add_test(tc, test_copies_as_the_format_would);
	tcase_add_test(tc, test_jline_as_jansson_writes);
	suite_add_tcase(s, tc);
	return s;
}

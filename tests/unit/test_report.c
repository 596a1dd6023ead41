/*
 * Unit tests of what a run prints (harness/report/report.c): the text lines per
 * verdict, TAP version 13 (plan, ok / not ok, SKIP and TODO directives, the
 * YAML block of a failure and its escaping), the summary line and the progress
 * line on a terminal. The JUnit XML: test_report_junit.c.
 */
#define _XOPEN_SOURCE 600 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "tests/unit/report_fx.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* report_result of rs[k] (of total) in format fmt, as a string. */
static char *one(enum report_format fmt, size_t k)
{
	FILE *f = out();

	report_result(f, fmt, k, &rs[k]);
	return slurp(f);
}

#define ck_assert_out(fmt, k, want)                 \
	do {                                        \
		char *s_ = one(fmt, k);             \
		ck_assert_str_eq(s_, want);         \
		free(s_);                           \
	} while (0)

START_TEST(test_format_names)
{
	enum report_format f;

	ck_assert_str_eq(report_format_str(REPORT_TEXT), "text");
	ck_assert_str_eq(report_format_str(REPORT_TAP), "tap");
	ck_assert_str_eq(report_format_str((enum report_format)7), "?");
	ck_assert_int_eq(report_format_parse("tap", &f), 0);
	ck_assert_int_eq(f, REPORT_TAP);
	ck_assert_int_eq(report_format_parse("text", &f), 0);
	ck_assert_int_eq(f, REPORT_TEXT);
	ck_assert_int_eq(report_format_parse("junit", &f), -EINVAL);
	ck_assert_int_eq(report_format_parse("TAP", &f), -EINVAL);
	ck_assert_int_eq(report_format_parse("", &f), -EINVAL);
}
END_TEST

START_TEST(test_count)
{
	size_t c[V_COUNT_];

	five();
	mk(5, V_FAIL, "f", "t", "r", NULL, 0, 0);
	rs[6].v = (enum verdict)42; /* not a verdict: not counted */
	report_count(rs, 7, c);
	ck_assert_uint_eq(c[V_PASS], 1);
	ck_assert_uint_eq(c[V_FAIL], 2);
	ck_assert_uint_eq(c[V_XFAIL], 1);
	ck_assert_uint_eq(c[V_SKIP], 1);
	ck_assert_uint_eq(c[V_ERROR], 1);
	report_count(rs, 0, c);
	for (int v = 0; v < V_COUNT_; v++)
		ck_assert_uint_eq(c[v], 0);
}
END_TEST

START_TEST(test_text_lines)
{
	FILE *f = out();
	char *s;

	five();
	rs[0].reason[0] = 'x'; /* a pass prints no reason even if it has one */
	ck_assert_out(REPORT_TEXT, 0, "PASS  scenarios/verbs/001-pd.scn  PD dealloc (0.2 s)\n");
	ck_assert_out(REPORT_TEXT, 1,
		      "FAIL  scenarios/verbs/063-ra.scn  WRITE with a corrupted rkey (1.5 s)\n"
		      "      line 20: write gave SUCCESS, outside the allowed set\n"
		      "      step:    b: write q\n"
		      "      allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	ck_assert_out(REPORT_TEXT, 2,
		      "XFAIL scenarios/verbs/085-lp.scn  SEND longer than the receive (0.1 s)\n"
		      "      line 19: send gave REM_OP_ERR: declared deviation LP-5 of profile rxe\n"
		      "      line 19: send: REM_OP_ERR\n"
		      "        deviation LP-5: F: 64-byte send\n");
	rs[3].detail = strdup("  never shown\n");
	ck_assert_out(REPORT_TEXT, 3,
		      "SKIP  scenarios/verbs/030-rereg.scn  rereg grants write (0.0 s)\n"
		      "      requires rereg, which the profile of this stack does not offer\n");
	ck_assert_out(REPORT_TEXT, 4,
		      "ERROR scenarios/examples/x.scn  agents (3.0 s)\n"
		      "      cannot start the agents\n");
	/* a failure without reason or detail is one line; a detail without a final newline is whole */
	mk(5, V_FAIL, "f.scn", "t", "", "  a\n\n  b", 0, 0);
	ck_assert_out(REPORT_TEXT, 5, "FAIL  f.scn  t (0.0 s)\n      a\n    \n      b\n");
	/* nothing before the first result */
	report_begin(f, REPORT_TEXT, 5);
	s = slurp(f);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_summary_line)
{
	FILE *f = out();
	char *s;

	five();
	report_end(f, REPORT_TEXT, rs, 5, 12.34);
	s = slurp(f);
	ck_assert_str_eq(s, "5 scenarios: 1 pass, 1 fail, 1 xfail, 1 skip, 1 error (12.3 s)\n");
	free(s);
	f = out();
	report_end(f, REPORT_TAP, rs, 2, 0);
	s = slurp(f);
	ck_assert_str_eq(s, "# 2 scenarios: 1 pass, 1 fail, 0 xfail, 0 skip, 0 error (0.0 s)\n");
	free(s);
}
END_TEST

START_TEST(test_tap_version_and_plan)
{
	FILE *f = out();
	char *s;

	report_begin(f, REPORT_TAP, 5);
	s = slurp(f);
	ck_assert_str_eq(s, "TAP version 13\n1..5\n");
	free(s);
	f = out();
	report_begin(f, REPORT_TAP, 0);
	s = slurp(f);
	ck_assert_str_eq(s, "TAP version 13\n1..0\n");
	free(s);
}
END_TEST

START_TEST(test_tap_lines)
{
	five();
	ck_assert_out(REPORT_TAP, 0, "ok 1 - scenarios/verbs/001-pd.scn: PD dealloc\n");
	ck_assert_out(REPORT_TAP, 1,
		      "not ok 2 - scenarios/verbs/063-ra.scn: WRITE with a corrupted rkey\n"
		      "  ---\n"
		      "  verdict: fail\n"
		      "  message: \"line 20: write gave SUCCESS, outside the allowed set\"\n"
		      "  line: 20\n"
		      "  detail: \"  step:    b: write q\\n  allowed: REM_ACCESS_ERR [RA-KEY-1]\\n\"\n"
		      "  ...\n");
	ck_assert_out(REPORT_TAP, 2,
		      "not ok 3 - scenarios/verbs/085-lp.scn: SEND longer than the receive"
		      " # TODO line 19: send gave REM_OP_ERR: declared deviation LP-5 of profile rxe\n");
	ck_assert_out(REPORT_TAP, 3,
		      "ok 4 - scenarios/verbs/030-rereg.scn: rereg grants write"
		      " # SKIP requires rereg, which the profile of this stack does not offer\n");
	/* an error: no line, no detail */
	ck_assert_out(REPORT_TAP, 4,
		      "not ok 5 - scenarios/examples/x.scn: agents\n"
		      "  ---\n"
		      "  verdict: error\n"
		      "  message: \"cannot start the agents\"\n"
		      "  ...\n");
}
END_TEST

START_TEST(test_tap_yaml_escaping)
{
	mk(0, V_FAIL, "f.scn", "t", "say \"hi\" to C:\\dir\\ and \\\"", NULL, 3, 0);
	ck_assert_out(REPORT_TAP, 0,
		      "not ok 1 - f.scn: t\n"
		      "  ---\n"
		      "  verdict: fail\n"
		      "  message: \"say \\\"hi\\\" to C:\\\\dir\\\\ and \\\\\\\"\"\n"
		      "  line: 3\n"
		      "  ...\n");
	/* control characters cannot end the line or the YAML block */
	mk(1, V_ERROR, "f.scn", "t", "agent a:\tdied\nstderr: \x1b[1mboom", NULL, 0, 0);
	ck_assert_out(REPORT_TAP, 1,
		      "not ok 2 - f.scn: t\n"
		      "  ---\n"
		      "  verdict: error\n"
		      "  message: \"agent a:\\tdied\\nstderr: \\x1b[1mboom\"\n"
		      "  ...\n");
	/* a detail whose first line is indented more than the next ones (a parse error's
	 * source line, then its hint) is one scalar; C1 controls and bytes that are not
	 * UTF-8 are escaped, other UTF-8 kept */
	mk(2, V_ERROR, "f.scn", "t", "r", "      3 | caf\xc3\xa9\n        | ^\nhint: \xc2\x85\xff.", 3, 0);
	ck_assert_out(REPORT_TAP, 2,
		      "not ok 3 - f.scn: t\n"
		      "  ---\n"
		      "  verdict: error\n"
		      "  message: \"r\"\n"
		      "  line: 3\n"
		      "  detail: \"      3 | caf\xc3\xa9\\n        | ^\\nhint: \\x85\\uFFFD.\"\n"
		      "  ...\n");
}
END_TEST

START_TEST(test_tap_description_cannot_fake_a_directive)
{
	char *s;

	/* a '#' in the title or file would start a directive: a failure must stay one */
	mk(0, V_FAIL, "dir#1/f.scn", "a \"# SKIP\" b", "why", NULL, 0, 0);
	s = one(REPORT_TAP, 0);
	ck_assert_msg(strncmp(s, "not ok 1 - dir\\#1/f.scn: a \"\\# SKIP\" b\n", 39) == 0, "%s", s);
	free(s);
	/* a backslash before it cannot unescape it */
	mk(1, V_PASS, "f.scn", "back\\# slash", "", NULL, 0, 0);
	ck_assert_out(REPORT_TAP, 1, "ok 2 - f.scn: back\\\\\\# slash\n");
	/* nor can a newline in a skip reason or file name start a line of its own */
	mk(2, V_SKIP, "new\nline.scn", "t", "because\nnot ok 9", NULL, 0, 0);
	ck_assert_out(REPORT_TAP, 2, "ok 3 - new line.scn: t # SKIP because not ok 9\n");
}
END_TEST

START_TEST(test_progress_only_on_a_terminal)
{
	int saved = dup(STDERR_FILENO), m, sl;
	FILE *f = out();
	char buf[128];
	ssize_t n;
	char *s;

	ck_assert_int_ge(saved, 0);
	/* not a terminal: nothing */
	ck_assert_int_ge(dup2(fileno(f), STDERR_FILENO), 0);
	report_progress(2, 10, "scenarios/x.scn");
	report_progress(10, 10, "");
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
	s = slurp(f);
	ck_assert_str_eq(s, "");
	free(s);

	/* a terminal: "[k+1/total] file", then cleared */
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0) {
		close(saved);
		return; /* no pseudo-terminals here */
	}
	ck_assert_int_eq(grantpt(m), 0);
	ck_assert_int_eq(unlockpt(m), 0);
	sl = open(ptsname(m), O_RDWR | O_NOCTTY);
	ck_assert_int_ge(sl, 0);
	ck_assert_int_ge(dup2(sl, STDERR_FILENO), 0);
	report_progress(2, 10, "scenarios/x.scn");
	report_progress(2, 10, "scenarios/x.scn"); /* the same line: not drawn again */
	report_progress(10, 10, "");
	report_progress(10, 10, "");
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
	close(saved);
	/* both writes are in the terminal's buffer; a read may return them one by one */
	for (size_t got = 0, want = strlen("\r\033[K[3/10] scenarios/x.scn\r\033[K"); got < want; got += (size_t)n) {
		n = read(m, buf + got, sizeof(buf) - 1 - got);
		ck_assert_int_gt(n, 0);
		buf[got + (size_t)n] = '\0';
	}
	ck_assert_str_eq(buf, "\r\033[K[3/10] scenarios/x.scn\r\033[K");
	close(sl);
	close(m);
}
END_TEST

Suite *suite_test_report(void)
{
	Suite *s = suite_create("test_report");
	TCase *tt = tcase_create("text_tap");

	tcase_add_checked_fixture(tt, NULL, teardown);
	tcase_add_test(tt, test_format_names);
	tcase_add_test(tt, test_count);
	tcase_add_test(tt, test_text_lines);
	tcase_add_test(tt, test_summary_line);
	tcase_add_test(tt, test_tap_version_and_plan);
	tcase_add_test(tt, test_tap_lines);
	tcase_add_test(tt, test_tap_yaml_escaping);
	tcase_add_test(tt, test_tap_description_cannot_fake_a_directive);
	tcase_add_test(tt, test_progress_only_on_a_terminal);
	suite_add_tcase(s, tt);
	return s;
}

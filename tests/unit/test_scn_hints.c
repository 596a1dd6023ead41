/*
 * Unit tests of the parser's hints for the usual slips (a missing `expect`,
 * a name with its parts transposed, an object of another node) and of a
 * diagnostic shown with its source line and a caret (scn_diag_format_src);
 * a byte printed back in hex.
 */
#include "harness/lang/scn.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#define SETUP                                                                                      \
	"nodes a b\na: alloc_pd pd\na: reg_mr dst pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n" \
	"b: alloc_pd pd\nb: reg_mr src pd=pd len=4K\na: create_qp q pd=pd\nb: create_qp q pd=pd\nconnect a.q b.q\n"

static struct scn_diags d;

/* The only diagnostic of text: its hint (and code in *code). */
static const char *hint_of(const char *text, enum scn_err *code)
{
	struct scn_file *f = NULL;

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), -EINVAL);
	ck_assert_uint_eq(d.n, 1);
	*code = (enum scn_err)d.d[0].code;
	return d.d[0].hint;
}

START_TEST(test_hint_forgotten_expect)
{
	enum scn_err e;

	ck_assert_str_eq(hint_of(SETUP "b: write q local=src remote=a.dst len=64 REM_ACCESS_ERR\n", &e),
			 "did you forget 'expect'? ('... expect REM_ACCESS_ERR')");
	ck_assert_int_eq(e, SCN_E_UNKNOWN_KEY);
	ck_assert_str_eq(hint_of("nodes a\na: alloc_pd p\na: dealloc_pd p EBUSY|ok\n", &e),
			 "did you forget 'expect'? ('... expect EBUSY|ok')");
	ck_assert_int_eq(e, SCN_E_UNEXPECTED);
	/* a key that is no outcome keeps the old hint */
	ck_assert_str_eq(hint_of("nodes a\na: alloc_pd p lenn=1\n", &e), "it takes no keys");
	ck_assert_str_eq(hint_of("nodes a\na: alloc_pd p\na: dealloc_pd p EBUSY|nothing\n", &e), "arguments are KEY=VALUE");
}
END_TEST

START_TEST(test_hint_transposed_name)
{
	enum scn_err e;

	ck_assert_str_eq(hint_of(SETUP "a: mr_dereg dst\n", &e), "did you mean 'dereg_mr'?");
	ck_assert_int_eq(e, SCN_E_UNKNOWN_CALL);
	ck_assert_str_eq(hint_of("nodes a\na: rpma_reg_mr r len=1 usage=READ_SRC\n", &e), "did you mean 'rpma_mr_reg'?");
	ck_assert_str_eq(hint_of("nodes a\na: frobnicate q\n", &e), "scenarios/README.md lists the calls");
}
END_TEST

START_TEST(test_hint_object_on_another_node)
{
	enum scn_err e;

	ck_assert_str_eq(hint_of(SETUP "b: write q local=src remote=dst len=64\n", &e), "'dst' is on node a: write a.dst");
	ck_assert_int_eq(e, SCN_E_UNKNOWN_NAME);
	ck_assert_uint_eq(d.d[0].line, 9);
	ck_assert_uint_eq(d.d[0].col, 29);
	/* a name on no node still gets the closest one of its own node */
	ck_assert_str_eq(hint_of(SETUP "b: write q local=srcc remote=a.dst len=64\n", &e), "did you mean 'src'?");
}
END_TEST

START_TEST(test_format_with_source_and_caret)
{
	struct scn_diag x = { .line = 12, .col = 4, .msg = "unknown call 'mr_dereg'", .hint = "did you mean 'dereg_mr'?" };
	char buf[512];
	size_t n = scn_diag_format_src(&x, "t.scn", "a:\tmr_dereg dst", buf, sizeof(buf));

	ck_assert_str_eq(buf, "t.scn:12:4: unknown call 'mr_dereg'\n"
			      "   12 | a:\tmr_dereg dst\n"
			      "      |   \t^~~~~~~~\n"
			      "  hint: did you mean 'dereg_mr'?\n");
	ck_assert_uint_eq(n, strlen(buf));
	/* characters, not bytes, before the caret */
	x.col = 4;
	x.hint[0] = '\0';
	scn_diag_format_src(&x, "t.scn", "\xc3\xa9\xc3\xa9\xc3\xa9x y", buf, sizeof(buf));
	ck_assert_str_eq(buf, "t.scn:12:4: unknown call 'mr_dereg'\n   12 | \xc3\xa9\xc3\xa9\xc3\xa9x y\n      |    ^\n");
	/* no source: as scn_diag_format */
	ck_assert_uint_eq(scn_diag_format_src(&x, "t.scn", NULL, buf, sizeof(buf)), strlen("t.scn:12:4: unknown call 'mr_dereg'\n"));
	/* short buffer: cut, terminated, the full length returned */
	n = scn_diag_format_src(&x, "t.scn", "abc", buf, sizeof(buf));
	ck_assert_uint_eq(scn_diag_format_src(&x, "t.scn", "abc", buf, 8), n);
	ck_assert_uint_eq(strlen(buf), 7);
}
END_TEST

START_TEST(test_print_byte_in_hex)
{
	const char *text = "nodes a\na: alloc_pd p\na: reg_mr m pd=p len=64\na: fill m byte=90 len=8\n";
	struct scn_file *f = NULL;
	char buf[256];

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), 0);
	scn_step_format(f, &f->steps[2], buf, sizeof(buf));
	ck_assert_str_eq(buf, "a: fill m byte=0x5a len=8");
	/* a buffer too short: its prefix, NUL-terminated, and the whole length, as snprintf */
	ck_assert_uint_eq(scn_step_format(f, &f->steps[2], buf, 6), strlen("a: fill m byte=0x5a len=8"));
	ck_assert_str_eq(buf, "a: fi");
	ck_assert_uint_eq(scn_step_format(f, &f->steps[2], buf, 10), strlen("a: fill m byte=0x5a len=8"));
	ck_assert_str_eq(buf, "a: fill m");
	scn_free(f);
}
END_TEST

Suite *suite_test_scn_hints(void)
{
	Suite *s = suite_create("test_scn_hints");
	TCase *tc = tcase_create("hints");

	tcase_add_test(tc, test_hint_forgotten_expect);
	tcase_add_test(tc, test_hint_transposed_name);
	tcase_add_test(tc, test_hint_object_on_another_node);
	tcase_add_test(tc, test_format_with_source_and_caret);
	tcase_add_test(tc, test_print_byte_in_hex);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of `repeat N { ... }` blocks (scn_parse.c): the body's steps
 * are in the file N times, in order, each with the body's line numbers; a
 * step that is wrong only from the second iteration on is refused at its
 * line; a body with errors is reported once; the step cap and the bound
 * on the text parsed again hold.
 */
#include "harness/lang/scn.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SETUP                                                                  \
	"nodes a b\na: alloc_pd pd\na: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n" \
	"a: create_qp q pd=pd\nb: alloc_pd pd\nb: reg_mr s pd=pd len=4K access=LOCAL_WRITE\n"  \
	"b: create_qp q pd=pd\nconnect a.q b.q\n" /* lines 1-8, steps 0-6 */

START_TEST(test_body_unrolled_in_order)
{
	struct scn_file *f = parse_ok(SETUP "repeat 3 {\n"
					    "b: fill s byte=0x63\n"
					    "b: write q local=s+0 remote=a.m+0 len=64 expect SUCCESS\n"
					    "}\n"
					    "a: check m\n");

	ck_assert_uint_eq(f->nsteps, 7 + 3 * 2 + 1);
	for (size_t k = 0; k < 3; k++) {
		ck_assert_uint_eq(f->steps[7 + 2 * k].line, 10);
		ck_assert_str_eq(fmt(f, 7 + 2 * k), "b: fill s byte=0x63");
		ck_assert_uint_eq(f->steps[8 + 2 * k].line, 11);
		ck_assert_uint_eq(f->steps[8 + 2 * k].nexpect, 1);
	}
	ck_assert_uint_eq(f->steps[13].line, 13);
	scn_free(f);
}
END_TEST

START_TEST(test_once_and_comments)
{
	struct scn_file *f = parse_ok(SETUP "repeat 1 {   # once\n"
					    "# a comment in the body\n"
					    "\n"
					    "b: fill s byte=1\n"
					    "}  # closed\n");

	ck_assert_uint_eq(f->nsteps, 8);
	ck_assert_uint_eq(f->steps[7].line, 12);
	scn_free(f);
}
END_TEST

START_TEST(test_second_iteration_refused_at_its_line)
{
	/* The first iteration makes c; the second finds it made. */
	ck_assert_int_eq(parse_err(SETUP "repeat 2 {\na: create_cq c\n}\n"), SCN_E_LIVE);
	ck_assert_uint_eq(scn_fx_d.n, 1);
	ck_assert_uint_eq(scn_fx_d.d[0].line, 10);
}
END_TEST

START_TEST(test_body_errors_once)
{
	ck_assert_int_eq(parse_err(SETUP "repeat 50 {\nb: fill nosuch byte=1\n}\n"), SCN_E_UNKNOWN_NAME);
	ck_assert_uint_eq(scn_fx_d.n, 1);
}
END_TEST

START_TEST(test_blocks_in_sequence)
{
	struct scn_file *f = parse_ok(SETUP "repeat 2 {\nb: fill s byte=1\n}\nrepeat 4 {\nb: fill s byte=2\n}\n");

	ck_assert_uint_eq(f->nsteps, 7 + 2 + 4);
	ck_assert_uint_eq(f->steps[8].line, 10);
	ck_assert_uint_eq(f->steps[9].line, 13);
	ck_assert_uint_eq(f->steps[12].line, 13);
	/* The blocks are kept: where each starts, its body's length, N (the canonical printer's). */
	ck_assert_uint_eq(f->nblocks, 2);
	ck_assert_uint_eq(f->blocks[0].line, 9);
	ck_assert_uint_eq(f->blocks[0].first, 7);
	ck_assert_uint_eq(f->blocks[0].nbody, 1);
	ck_assert_uint_eq(f->blocks[0].times, 2);
	ck_assert_uint_eq(f->blocks[1].line, 12);
	ck_assert_uint_eq(f->blocks[1].first, 9);
	ck_assert_uint_eq(f->blocks[1].times, 4);
	scn_free(f);
}
END_TEST

START_TEST(test_step_cap)
{
	/* 1000 iterations of 66 steps pass SCN_STEPS_MAX: refused with the cap, once. */
	char *text = malloc(64 * 1024);
	size_t n;

	ck_assert_ptr_nonnull(text);
	n = (size_t)snprintf(text, 64 * 1024, "%srepeat 1000 {\n", SETUP);
	for (int i = 0; i < 66; i++)
		n += (size_t)snprintf(text + n, 64 * 1024 - n, "b: fill s byte=%d\n", i);
	snprintf(text + n, 64 * 1024 - n, "}\n");
	ck_assert_int_eq(parse_err(text), SCN_E_TOO_MANY);
	ck_assert_uint_eq(scn_fx_d.n, 1);
	free(text);
}
END_TEST

START_TEST(test_text_bound)
{
	/* 1000 iterations of a body of 9 KiB of comments and one step: 9 MB to parse again, refused. */
	size_t cap = 16 * 1024, n;
	char *text = malloc(cap);

	ck_assert_ptr_nonnull(text);
	n = (size_t)snprintf(text, cap, "%srepeat 1000 {\n", SETUP);
	for (int i = 0; i < 9 * 16; i++)
		n += (size_t)snprintf(text + n, cap - n, "# %060d\n", i);
	snprintf(text + n, cap - n, "b: fill s byte=1\n}\n");
	ck_assert_int_eq(parse_err(text), SCN_E_REPEAT);
	ck_assert_uint_eq(scn_fx_d.n, 1);
	ck_assert_str_eq(scn_err_str(SCN_E_REPEAT), "repeat: %s");
	free(text);
}
END_TEST

START_TEST(test_not_in_one_step_append)
{
	struct scn_file *f = parse_ok(SETUP);
	struct scn_mark *m = calloc(1, sizeof(*m));
	struct scn_diags d;

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(scn_append_step(f, "repeat 2 {", 10, 9, &d, m), -EINVAL);
	ck_assert_int_eq(d.d[0].code, SCN_E_UNKNOWN_STATEMENT);
	free(m);
	scn_free(f);
}
END_TEST

/* `seen` groups over a block's iterations: each a set of the expect list's outcomes, printed back. */
#define STREAM                                                                              \
	"nodes a b\na: alloc_pd pd\na: create_cq cq\na: reg_mr dst pd=pd len=4K access=LOCAL_WRITE\n" \
	"a: create_qp q pd=pd cq=cq\nb: alloc_pd pd\n"                                          \
	"b: reg_mr src pd=pd len=4K access=LOCAL_WRITE|REMOTE_READ\nb: create_qp q pd=pd\n"      \
	"connect a.q b.q\n" /* lines 1-9 */

START_TEST(test_seen_groups_parsed)
{
	struct scn_file *f = parse_ok(STREAM "repeat 2 {\n"
					     "a: read q local=dst+0 remote=b.src+0 len=4K id=1 wait=no expect ok\n"
					     "}\na: dereg_mr dst\nrepeat 2 {\n"
					     "a: wait q id=1 expect SUCCESS|LOC_PROT_ERR|WR_FLUSH_ERR seen LOC_PROT_ERR "
					     "seen WR_FLUSH_ERR|SUCCESS\n"
					     "}\n");
	const struct scn_step *w = &f->steps[f->nsteps - 1];

	ck_assert_uint_eq(w->line, 15);
	ck_assert_uint_eq(w->nseen, 2);
	ck_assert_uint_eq(w->seen[0], 1u << 1);
	ck_assert_uint_eq(w->seen[1], (1u << 0) | (1u << 2));
	ck_assert_uint_eq(w->seen_col[0], 62);
	ck_assert_str_eq(fmt(f, f->nsteps - 1),
			 "a: wait q id=1 expect SUCCESS|LOC_PROT_ERR|WR_FLUSH_ERR seen LOC_PROT_ERR seen SUCCESS|WR_FLUSH_ERR");
	ck_assert_uint_eq(f->steps[f->nsteps - 2].nseen, 2); /* every iteration */
	ck_assert_uint_eq(f->steps[8].nseen, 0);
	scn_free(f);
}
END_TEST

START_TEST(test_seen_refusals)
{
	/* outside a block: one run of a step is judged by its expect alone */
	ck_assert_int_eq(parse_err(STREAM "a: read q local=dst+0 remote=b.src+0 len=4K expect SUCCESS seen SUCCESS\n"),
			 SCN_E_SEEN);
	ck_assert_uint_eq(scn_fx_d.d[0].line, 10);
	ck_assert_uint_eq(scn_fx_d.d[0].col, 60);
	/* an outcome the list does not allow */
	ck_assert_int_eq(parse_err(STREAM "repeat 2 {\na: read q local=dst+0 remote=b.src+0 len=4K "
					  "expect SUCCESS seen REM_ACCESS_ERR\n}\n"), SCN_E_SEEN);
	ck_assert_str_eq(scn_fx_d.d[0].hint, "add REM_ACCESS_ERR to the expect list: every iteration may give it");
	/* the word alone, an unknown outcome, too many groups, words after the list that are not groups */
	ck_assert_int_eq(parse_err(STREAM "repeat 2 {\na: read q local=dst+0 remote=b.src+0 len=4K expect SUCCESS seen\n}\n"),
			 SCN_E_SEEN);
	ck_assert_int_eq(parse_err(STREAM "repeat 2 {\na: read q local=dst+0 remote=b.src+0 len=4K expect SUCCESS seen SUCESS\n}\n"),
			 SCN_E_UNKNOWN_OUTCOME);
	ck_assert_int_eq(parse_err(STREAM "repeat 2 {\na: read q local=dst+0 remote=b.src+0 len=4K expect SUCCESS "
					  "seen SUCCESS seen SUCCESS seen SUCCESS seen SUCCESS seen SUCCESS\n}\n"), SCN_E_TOO_MANY);
	ck_assert_int_eq(parse_err(STREAM "repeat 2 {\na: read q local=dst+0 remote=b.src+0 len=4K expect SUCCESS "
					  "LOC_PROT_ERR\n}\n"), SCN_E_UNEXPECTED);
}
END_TEST

Suite *suite_test_scn_repeat(void)
{
	Suite *s = suite_create("test_scn_repeat");
	TCase *tc = tcase_create("repeat");

	tcase_add_test(tc, test_body_unrolled_in_order);
	tcase_add_test(tc, test_once_and_comments);
	tcase_add_test(tc, test_second_iteration_refused_at_its_line);
	tcase_add_test(tc, test_body_errors_once);
	tcase_add_test(tc, test_blocks_in_sequence);
	tcase_add_test(tc, test_step_cap);
	tcase_add_test(tc, test_text_bound);
	tcase_add_test(tc, test_not_in_one_step_append);
	tcase_add_test(tc, test_seen_groups_parsed);
	tcase_add_test(tc, test_seen_refusals);
	suite_add_tcase(s, tc);
	return s;
}

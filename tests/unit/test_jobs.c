/*
 * Unit tests of the streams of `run --jobs=N` (harness/suite/jobs.c, issue 18):
 * what each scenario may share, and which stream takes which scenario.
 */
#include "harness/suite/jobs.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

/* f's kind by the model's prediction of it under judge and stack (as the inner runner takes it). */
static enum jobs_kind kind_of(const struct scn_file *f, const struct m_profile *judge, const struct m_profile *stack,
			      int allow_crash)
{
	struct cli_pred p = { .crash_si = -1 };

	if (f)
		cli_predict(f, judge, stack, &p);
	return jobs_kind_of(f, &p, allow_crash);
}

START_TEST(test_kind_of_verbs_rpma_and_crash)
{
	struct scn_file *verbs = parse_ok("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=64\n");
	struct scn_file *rpma = parse_ok("nodes a\na: rpma_mr_reg m len=4K usage=READ_SRC null=PEER expect RPMA_E_INVAL\n");
	struct scn_file *crash = parse_ok(SCN_FX_UNBOUND_INV);
	struct scn_file *slow = parse_ok(SCN_FX_DESTROY_BOUND);
	struct scn_file *warn = parse_ok(SCN_FX_DEREG_UNDER_READ);
	struct m_profile p, g;

	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &p), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &g), 0);
	ck_assert_int_eq(kind_of(NULL, &p, NULL, 1), JOBS_NONE);
	ck_assert_int_eq(kind_of(verbs, &p, NULL, 1), JOBS_ANY);
	ck_assert_int_eq(kind_of(rpma, &p, NULL, 1), JOBS_FIRST);
	ck_assert_int_eq(kind_of(crash, &p, NULL, 1), JOBS_ALONE);
	ck_assert_int_eq(kind_of(crash, &p, NULL, 0), JOBS_ANY); /* a host runs no step that kills it */
	ck_assert_int_eq(kind_of(crash, &g, NULL, 1), JOBS_ANY);
	ck_assert_int_eq(kind_of(crash, &g, &p, 1), JOBS_ALONE); /* judged by generic, run on rxe 6.1 */
	ck_assert_int_eq(kind_of(slow, &p, NULL, 1), JOBS_LEAD);
	ck_assert_int_eq(kind_of(slow, &g, &p, 1), JOBS_LEAD);
	ck_assert_int_eq(kind_of(slow, &g, NULL, 1), JOBS_ANY);
	ck_assert_int_eq(kind_of(warn, &p, NULL, 1), JOBS_WARN);
	ck_assert_int_eq(kind_of(warn, &g, &p, 0), JOBS_WARN);
	ck_assert_int_eq(kind_of(warn, &g, NULL, 1), JOBS_ANY);
	scn_free(warn);
	scn_free(slow);
	scn_free(verbs);
	scn_free(rpma);
	scn_free(crash);
}
END_TEST

/*
 * A board of the kinds in k (a string of N, A, F, D, M, L, S, W for none, any,
 * first: librpma's, uDAPL's, MRAPI's, alone, lead: slow, warn).
 */
static void board(struct jobs_board *b, const char *k)
{
	ck_assert_int_eq(jobs_board_init(b, strlen(k)), 0);
	for (size_t i = 0; k[i]; i++) {
		b->fams[i] = k[i] == 'F'   ? 1u << M_FAM_RPMA
			     : k[i] == 'D' ? 1u << M_FAM_DAT
			     : k[i] == 'M' ? 1u << M_FAM_MRAPI
					   : 0;
		b->kind[i] = (uint8_t)(b->fams[i]    ? JOBS_FIRST
				       : k[i] == 'A' ? JOBS_ANY
				       : k[i] == 'L' ? JOBS_ALONE
				       : k[i] == 'S' ? JOBS_LEAD
				       : k[i] == 'W' ? JOBS_WARN
						     : JOBS_NONE);
	}
}

START_TEST(test_take_in_list_order_alone_last)
{
	struct jobs_board b;
	size_t c0 = 0, c1 = 0, cl = 0;

	board(&b, "FAALNAF");
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 0); /* a librpma one: any stream's */
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 2);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 5); /* 2 taken, 3 alone, 4 nothing */
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 7); /* 6: stream 1 runs a librpma one */
	jobs_done(&b, 0);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 6);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 7);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 3);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 7);
	ck_assert_int_eq(b.state[3], JOBS_TAKEN);
	jobs_done(&b, 3);
	ck_assert_int_eq(b.state[3], JOBS_DONE);
	ck_assert_int_eq(b.state[4], JOBS_FREE);
	jobs_board_free(&b);
}
END_TEST

/* A scenario a stream hands back (the kernel logged a splat beside other streams) runs again alone, first. */
START_TEST(test_handed_back_runs_alone)
{
	struct jobs_board b;
	size_t c0 = 0, c1 = 0, cl = 0;

	board(&b, "AAL");
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 0);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1);
	jobs_again(&b, 0);
	jobs_done(&b, 1);
	ck_assert_int_eq(b.state[0], JOBS_AGAIN);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 3); /* not for a stream: it waits for the alone phase */
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 0);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 2);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 3);
	jobs_board_free(&b);
	/*
	 * One handed back after a crash-predicted one in list order still runs
	 * before it: when the crash-predicted one panicked the guest, the outer
	 * run saw two begun and not ended, judged neither and ran the rest again
	 * one at a time (a boot more: verbs/057 with 290's WARN in a stream).
	 */
	board(&b, "LAA");
	c0 = c1 = cl = 0;
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 2);
	jobs_done(&b, 1);
	jobs_again(&b, 2);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 2);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 0);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 3);
	jobs_board_free(&b);
}
END_TEST

/*
 * verbs/290 (a 50 s destroy_qp) came late in list order: the corpus's other
 * scenarios were done while it waited alone. A slow one is taken first, by a
 * stream other than 0 (stream 0 alone runs the librpma/uDAPL/... ones).
 */
START_TEST(test_slow_taken_first_not_by_stream_0)
{
	struct jobs_board b;
	size_t c0 = 0, c1 = 0, cl = 0;

	board(&b, "FAASAL");
	ck_assert_uint_eq(jobs_streams(&b, 2), 2);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 0); /* stream 0 does not take it while another stream may */
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 3);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 1); /* then list order, from the start */
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 2);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 4);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 6);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 5);
	jobs_board_free(&b);
	board(&b, "FAAS"); /* one stream: it takes it first */
	ck_assert_uint_eq(jobs_streams(&b, 1), 1);
	c0 = 0;
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 3);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 0);
	jobs_board_free(&b);
	board(&b, "SSA"); /* two slow ones, two streams: stream 0 takes the second in list order */
	ck_assert_uint_eq(jobs_streams(&b, 2), 2);
	c0 = c1 = 0;
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 0);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 2);
	jobs_board_free(&b);
}
END_TEST

/*
 * A scenario whose step makes a declared WARN (verbs/280) runs alone, after
 * the streams and before the crash-predicted ones: beside verbs/290 its WARN
 * made 290 hand itself back and wait its 50 s again.
 */
START_TEST(test_warn_runs_alone_before_the_crash_predicted)
{
	struct jobs_board b;
	size_t c0 = 0, c1 = 0, cl = 0;

	board(&b, "LWSAW");
	ck_assert_uint_eq(jobs_streams(&b, 2), 2);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 2);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 3); /* no stream takes a WARN's */
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 5);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 5);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 1);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 4);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 0);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 5);
	jobs_board_free(&b);
	board(&b, "WW"); /* nothing to share: one stream */
	ck_assert_uint_eq(jobs_streams(&b, 2), 1);
	jobs_board_free(&b);
}
END_TEST

/*
 * The library families' scenarios spread over the streams (all in stream 0,
 * they made it the corpus's critical path), never two of one family at once
 * (librpma's fixed port 7471): one passed by for its family is taken next by
 * the stream that holds it, or by this one once it is let go.
 */
START_TEST(test_families_spread_one_of_each_at_once)
{
	struct jobs_board b;
	size_t c0 = 0, c1 = 0, cl = 0;

	board(&b, "FFDDMA");
	ck_assert_uint_eq(jobs_streams(&b, 2), 2);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 0);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 2); /* not 1: stream 0 runs a librpma one; uDAPL beside it */
	jobs_done(&b, 0);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1); /* 1's family let go */
	jobs_done(&b, 2);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 3);
	jobs_done(&b, 1);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 4);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 5);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 6);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 6);
	ck_assert_uint_eq(jobs_take(&b, JOBS_STREAM_ALONE, &cl), 6);
	jobs_board_free(&b);
	/* passed by while held, then the holder (its cursor before it) runs it; the other stream ends */
	board(&b, "FAF");
	c0 = c1 = 0;
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 0);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 3);
	jobs_done(&b, 0);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 2);
	jobs_done(&b, 2);
	jobs_board_free(&b);
	/* a stream that passed one by for its family takes it once the family is let go */
	board(&b, "FFA");
	c0 = c1 = 0;
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 0);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 2);
	jobs_done(&b, 0);
	jobs_done(&b, 2);
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 1);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 3);
	jobs_board_free(&b);
	/* a stream died holding librpma: once the streams ended, stream 0 runs what that kept from it */
	board(&b, "FF");
	c0 = c1 = 0;
	ck_assert_uint_eq(jobs_streams(&b, 2), 1); /* one family: nothing to run at once */
	b.streams = 2;
	ck_assert_uint_eq(jobs_take(&b, 1, &c1), 0);
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 2);
	jobs_streams_ended(&b);
	c0 = 0;
	ck_assert_uint_eq(jobs_take(&b, 0, &c0), 1);
	jobs_board_free(&b);
}
END_TEST

START_TEST(test_streams_only_when_two_can_share)
{
	struct jobs_board b;

	board(&b, "AAFL");
	ck_assert_uint_eq(jobs_streams(&b, 1), 1);
	ck_assert_uint_eq(jobs_streams(&b, 2), 2);
	ck_assert_uint_eq(jobs_streams(&b, 8), 3); /* no more streams than scenarios to share */
	jobs_board_free(&b);
	board(&b, "FFFL"); /* one family's: one at a time */
	ck_assert_uint_eq(jobs_streams(&b, 2), 1);
	jobs_board_free(&b);
	board(&b, "FFDML"); /* three families: up to three at once */
	ck_assert_uint_eq(jobs_streams(&b, 2), 2);
	ck_assert_uint_eq(jobs_streams(&b, 8), 3);
	jobs_board_free(&b);
	board(&b, "ALLN");
	ck_assert_uint_eq(jobs_streams(&b, 2), 1);
	jobs_board_free(&b);
}
END_TEST

START_TEST(test_records_path_per_stream)
{
	char p[32];

	ck_assert_int_eq(jobs_records_path("/r/records-1.txt", 0, p, sizeof(p)), 0);
	ck_assert_str_eq(p, "/r/records-1.txt");
	ck_assert_int_eq(jobs_records_path("/r/records-1.txt", 12, p, sizeof(p)), 0);
	ck_assert_str_eq(p, "/r/records-1.txt.12");
	ck_assert_int_eq(jobs_records_path("/a/very/long/path/of/records.txt", 1, p, sizeof(p)), -ENAMETOOLONG);
}
END_TEST

Suite *suite_test_jobs(void)
{
	Suite *s = suite_create("test_jobs");
	TCase *tc = tcase_create("jobs");

	tcase_add_test(tc, test_kind_of_verbs_rpma_and_crash);
	tcase_add_test(tc, test_take_in_list_order_alone_last);
	tcase_add_test(tc, test_families_spread_one_of_each_at_once);
	tcase_add_test(tc, test_streams_only_when_two_can_share);
	tcase_add_test(tc, test_slow_taken_first_not_by_stream_0);
	tcase_add_test(tc, test_warn_runs_alone_before_the_crash_predicted);
	tcase_add_test(tc, test_handed_back_runs_alone);
	tcase_add_test(tc, test_records_path_per_stream);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the streamed result records (harness/nodes/records.c): what the
 * inner runner writes (rec_start, rec_step, rec_result) is what the outer
 * runner rebuilds (rec_read), field by field; text fields cannot break the
 * line format; a file cut short by a dying machine, unknown or damaged lines
 * and out-of-range indexes are handled; reading again (the outer runner polls
 * the growing file) gives the same results; a batched scenario's start says
 * so and its steps are a beat only, and a later start of it (its careful
 * rerun) replaces what the batched run said.
 */
#include "harness/nodes/records.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];
static FILE *f;

static void setup(void)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/rdmacheck-rec-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
}

static void teardown(void)
{
	if (f)
		fclose(f);
	f = NULL;
	unlink(path);
}

/* Append raw text to the records file. */
static void raw(const char *s)
{
	ck_assert_int_ge(fputs(s, f), 0);
	fflush(f);
}

static struct result mk(enum verdict v, uint32_t line, double secs, unsigned run, unsigned steps,
			const char *reason, const char *detail)
{
	struct result r = { .v = v, .line = line, .secs = secs, .steps_run = run, .steps = steps,
			    .detail = (char *)detail };

	snprintf(r.file, sizeof(r.file), "written.scn");
	snprintf(r.title, sizeof(r.title), "written title");
	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	return r;
}

/* Results with file and title set as the outer runner sets them, and error "not run". */
static void prepare(struct result *rs, struct rec_state *st, size_t n)
{
	memset(rs, 0, n * sizeof(*rs));
	memset(st, 0, n * sizeof(*st));
	for (size_t i = 0; i < n; i++) {
		snprintf(rs[i].file, sizeof(rs[i].file), "s%zu.scn", i);
		snprintf(rs[i].title, sizeof(rs[i].title), "title %zu", i);
		rs[i].v = V_ERROR;
		snprintf(rs[i].reason, sizeof(rs[i].reason), "not run");
	}
}

static void clear(struct result *rs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		result_clear(&rs[i]);
}

START_TEST(test_round_trip)
{
	struct result w0 = mk(V_FAIL, 21, 1.25, 7, 12, "line 21: write gave SUCCESS, outside the allowed set",
			      "  step:    b: write q\n  allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	struct result w1 = mk(V_XFAIL, 9, 0.5, 9, 9, "line 9: declared deviation MW-INV-3", "  deviation\n");
	struct result w2 = mk(V_PASS, 0, 0.001, 3, 3, "", NULL);
	struct result rs[3];
	struct rec_state st[3];

	result_rule_add(&w0, M_RULE_RA_KEY_1);
	result_rule_add(&w0, M_RULE_PD_1);
	result_rule_add(&w0, (enum m_rule)(M_RULE_COUNT_ - 1));
	rec_start(f, 0);
	rec_step(f, 0, 20, 0, "");
	rec_step(f, 0, 21, 0, "");
	rec_result(f, 0, &w0);
	rec_start(f, 1);
	rec_step(f, 1, 9, 1, "MW-INV-3: F: LOCAL_INV of an unbound type-2 window panics");
	rec_result(f, 1, &w1);
	rec_start(f, 2);
	rec_result(f, 2, &w2);
	prepare(rs, st, 3);
	ck_assert_int_eq(rec_read(path, rs, st, 3), 0);

	ck_assert_int_eq(st[0].started, 1);
	ck_assert_int_eq(st[0].finished, 1);
	ck_assert_uint_eq(st[0].step_line, 21); /* the last step begun */
	ck_assert_int_eq(st[0].step_crash, 0);
	ck_assert_str_eq(st[0].step_note, "");
	ck_assert_int_eq(rs[0].v, V_FAIL);
	ck_assert_uint_eq(rs[0].line, 21);
	ck_assert_double_eq_tol(rs[0].secs, 1.25, 1e-9);
	ck_assert_uint_eq(rs[0].steps_run, 7);
	ck_assert_uint_eq(rs[0].steps, 12);
	ck_assert_str_eq(rs[0].reason, "line 21: write gave SUCCESS, outside the allowed set");
	ck_assert_str_eq(rs[0].detail, "  step:    b: write q\n  allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	/* the rule set round-trips, bit for bit */
	ck_assert_mem_eq(rs[0].rules, w0.rules, sizeof(w0.rules));
	ck_assert(result_rule_has(&rs[0], M_RULE_RA_KEY_1) && result_rule_has(&rs[0], M_RULE_PD_1));
	ck_assert(!result_rule_has(&rs[0], M_RULE_PD_2));
	ck_assert(!result_rule_has(&rs[0], M_RULE_COUNT_));
	/* file and title stay the reader's */
	ck_assert_str_eq(rs[0].file, "s0.scn");
	ck_assert_str_eq(rs[0].title, "title 0");

	ck_assert_uint_eq(st[1].step_line, 9);
	ck_assert_int_eq(st[1].step_crash, 1);
	ck_assert_str_eq(st[1].step_note, "MW-INV-3: F: LOCAL_INV of an unbound type-2 window panics");
	ck_assert_int_eq(rs[1].v, V_XFAIL);
	ck_assert_double_eq_tol(rs[1].secs, 0.5, 1e-9);
	ck_assert_str_eq(rs[1].reason, "line 9: declared deviation MW-INV-3");
	ck_assert_str_eq(rs[1].detail, "  deviation\n");

	ck_assert_int_eq(st[2].finished, 1);
	ck_assert_uint_eq(st[2].step_line, 0);
	ck_assert_int_eq(rs[2].v, V_PASS);
	ck_assert_uint_eq(rs[2].line, 0);
	ck_assert_double_eq_tol(rs[2].secs, 0.001, 1e-9);
	ck_assert_str_eq(rs[2].reason, "");
	ck_assert_ptr_null(rs[2].detail);
	clear(rs, 3);
}
END_TEST

START_TEST(test_every_verdict)
{
	struct result rs[V_COUNT_];
	struct rec_state st[V_COUNT_];

	for (int v = 0; v < V_COUNT_; v++) {
		struct result w = mk((enum verdict)v, (uint32_t)v + 1, v, (unsigned)v, 10, verdict_str((enum verdict)v),
				     NULL);

		rec_result(f, (size_t)v, &w);
	}
	prepare(rs, st, V_COUNT_);
	ck_assert_int_eq(rec_read(path, rs, st, V_COUNT_), 0);
	for (int v = 0; v < V_COUNT_; v++) {
		ck_assert_int_eq(rs[v].v, v);
		ck_assert_uint_eq(rs[v].line, (uint32_t)v + 1);
		ck_assert_str_eq(rs[v].reason, verdict_str((enum verdict)v));
		ck_assert_int_eq(st[v].finished, 1);
		ck_assert_int_eq(st[v].started, 0); /* no start line was written */
	}
	clear(rs, V_COUNT_);
}
END_TEST

/* A scenario's seconds keep microseconds (bench-real's per-step figures are differences of them). */
START_TEST(test_secs_keep_microseconds)
{
	struct result w = mk(V_PASS, 0, 0.012345, 400, 400, "", NULL), rs[1];
	struct rec_state st[1];

	rec_result(f, 0, &w);
	prepare(rs, st, 1);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_double_eq_tol(rs[0].secs, 0.012345, 1e-7);
	clear(rs, 1);
}
END_TEST

START_TEST(test_text_fields_neutralised)
{
	struct result w = mk(V_ERROR, 3, 2.0, 1, 2, "cannot start\tthe agents:\nagent a\rdied",
			     "  one\tline\r\n\n  after an empty line\n  last without newline");
	struct result rs[2];
	struct rec_state st[2];
	char *line = NULL;
	size_t cap = 0;
	FILE *in;
	int lines = 0;

	rec_step(f, 0, 5, 0, "note\twith\ttabs\nand a newline");
	rec_result(f, 0, &w);
	rec_start(f, 1);
	/* every record is one line of TAB-separated fields: no field grew extra ones */
	in = fopen(path, "r");
	ck_assert_ptr_nonnull(in);
	while (getline(&line, &cap, in) > 0) {
		int tabs = 0;

		for (char *p = line; *p; p++)
			tabs += *p == '\t';
		ck_assert_ptr_null(strchr(line, '\r'));
		if (strncmp(line, "step\t", 5) == 0)
			ck_assert_int_eq(tabs, 4);
		else if (strncmp(line, "detail\t", 7) == 0)
			ck_assert_int_eq(tabs, 2);
		else if (strncmp(line, "result\t", 7) == 0)
			ck_assert_int_eq(tabs, 7);
		else if (strncmp(line, "start\t", 6) == 0)
			ck_assert_int_eq(tabs, 1);
		else if (strncmp(line, "rules\t", 6) == 0)
			ck_assert_int_eq(tabs, 2);
		else
			ck_abort_msg("unexpected record line '%s'", line);
		lines++;
	}
	free(line);
	fclose(in);
	ck_assert_int_eq(lines, 1 + 4 + 1 + 1 + 1);

	prepare(rs, st, 2);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_str_eq(st[0].step_note, "note with tabs and a newline");
	ck_assert_str_eq(rs[0].reason, "cannot start the agents: agent a died");
	/* detail lines come back one by one, each ending in a newline */
	ck_assert_str_eq(rs[0].detail, "  one line \n\n  after an empty line\n  last without newline\n");
	ck_assert_int_eq(rs[0].v, V_ERROR);
	ck_assert_uint_eq(rs[0].line, 3);
	ck_assert_int_eq(st[1].started, 1);
	ck_assert_int_eq(st[1].finished, 0);
	clear(rs, 2);
}
END_TEST

START_TEST(test_torn_last_line)
{
	struct result w = mk(V_PASS, 0, 0.25, 4, 4, "", NULL);
	struct result rs[2];
	struct rec_state st[2];

	rec_start(f, 0);
	rec_result(f, 0, &w);
	rec_start(f, 1);
	rec_step(f, 1, 17, 1, "MW-INV-3: panics");
	/* the machine died in the middle of the result line */
	raw("detail\t1\t  half a detail\nresult\t1\tfail\t17\t0.3");
	prepare(rs, st, 2);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].finished, 1);
	ck_assert_int_eq(rs[0].v, V_PASS);
	ck_assert_int_eq(st[1].started, 1);
	ck_assert_int_eq(st[1].finished, 0);
	ck_assert_uint_eq(st[1].step_line, 17);
	ck_assert_int_eq(st[1].step_crash, 1);
	ck_assert_str_eq(st[1].step_note, "MW-INV-3: panics");
	/* scenario 1 keeps what the reader had */
	ck_assert_int_eq(rs[1].v, V_ERROR);
	ck_assert_str_eq(rs[1].reason, "not run");
	ck_assert_ptr_null(rs[1].detail);
	clear(rs, 2);

	/* a torn line that is a complete-looking result (only the newline is missing) is not taken */
	teardown();
	setup();
	rec_start(f, 0);
	raw("result\t0\tpass\t0\t0.100\t1\t1\t");
	prepare(rs, st, 2);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].started, 1);
	ck_assert_int_eq(st[0].finished, 0);
	ck_assert_int_eq(rs[0].v, V_ERROR);
	/* once the line is finished it is */
	raw("\n");
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].finished, 1);
	ck_assert_int_eq(rs[0].v, V_PASS);
	clear(rs, 2);
}
END_TEST

START_TEST(test_unknown_and_damaged_lines_ignored)
{
	struct result rs[2];
	struct rec_state st[2];

	raw("\n"
	    "hello\tworld\n"
	    "bogus\n"
	    "# a comment\n"
	    "START\t0\n"
	    "step\t0\t5\n"                             /* too few fields */
	    "result\t0\tpass\t0\t0.1\n"                /* too few fields */
	    "result\t0\tmaybe\t3\t0.1\t1\t1\twhat\n"   /* unknown verdict */
	    "result\t0\tPASS\t3\t0.1\t1\t1\twhat\n"    /* verdicts are lower case */
	    "start\t1\n"
	    "step\t1\t8\t0\tok note\n");
	prepare(rs, st, 2);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].started, 0);
	ck_assert_int_eq(st[0].finished, 0);
	ck_assert_uint_eq(st[0].step_line, 0);
	ck_assert_int_eq(rs[0].v, V_ERROR);
	ck_assert_str_eq(rs[0].reason, "not run");
	ck_assert_int_eq(st[1].started, 1);
	ck_assert_uint_eq(st[1].step_line, 8);
	ck_assert_str_eq(st[1].step_note, "ok note");
	clear(rs, 2);
}
END_TEST

START_TEST(test_out_of_range_and_bad_index)
{
	struct result w = mk(V_FAIL, 4, 1, 1, 1, "far away", "  detail\n");
	struct result rs[2];
	struct rec_state st[2];

	rec_start(f, 2);
	rec_step(f, 2, 4, 0, "x");
	rec_result(f, 2, &w);
	rec_result(f, 1000000, &w);
	raw("start\t-1\n"
	    "result\t18446744073709551617\tfail\t4\t1\t1\t1\toverflow\n"
	    "start\tone\n"
	    "result\tx\tfail\t4\t1\t1\t1\tnot a number\n"
	    "result\t\tfail\t4\t1\t1\t1\tempty index\n"
	    "step\t1x\t9\t1\tjunk after the digits\n");
	prepare(rs, st, 2);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_int_eq(st[i].started, 0);
		ck_assert_int_eq(st[i].finished, 0);
		ck_assert_uint_eq(st[i].step_line, 0);
		ck_assert_int_eq(rs[i].v, V_ERROR);
		ck_assert_str_eq(rs[i].reason, "not run");
		ck_assert_ptr_null(rs[i].detail);
	}
	/* n = 0: nothing to fill, nothing touched */
	ck_assert_int_eq(rec_read(path, NULL, NULL, 0), 0);
}
END_TEST

START_TEST(test_read_twice_is_idempotent)
{
	struct result w = mk(V_FAIL, 7, 3.5, 2, 5, "reason", "  a\n  b\n");
	struct result rs[1];
	struct rec_state st[1];

	rec_start(f, 0);
	rec_step(f, 0, 7, 0, "n");
	rec_result(f, 0, &w);
	prepare(rs, st, 1);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_str_eq(rs[0].detail, "  a\n  b\n"); /* not three times */
	ck_assert_int_eq(rs[0].v, V_FAIL);
	ck_assert_uint_eq(rs[0].line, 7);
	ck_assert_str_eq(rs[0].reason, "reason");
	ck_assert_int_eq(st[0].started, 1);
	ck_assert_int_eq(st[0].finished, 1);
	ck_assert_uint_eq(st[0].step_line, 7);
	clear(rs, 1);
}
END_TEST

START_TEST(test_later_result_wins)
{
	struct result a = mk(V_FAIL, 7, 1, 2, 5, "first", "  first detail\n");
	struct result b = mk(V_PASS, 0, 2, 5, 5, "", NULL);
	struct result rs[1];
	struct rec_state st[1];

	rec_result(f, 0, &a);
	rec_result(f, 0, &b);
	prepare(rs, st, 1);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_int_eq(rs[0].v, V_PASS);
	ck_assert_str_eq(rs[0].reason, "");
	ck_assert_ptr_null(rs[0].detail);
	ck_assert_uint_eq(rs[0].steps_run, 5);
	clear(rs, 1);
}
END_TEST

START_TEST(test_long_fields_truncated)
{
	char note[2000], reason[600];
	struct result w;
	struct result rs[1];
	struct rec_state st[1];

	memset(note, 'n', sizeof(note) - 1);
	note[sizeof(note) - 1] = '\0';
	rec_step(f, 0, 1, 0, note);
	/* a reason as long as the field holds, written and read back whole */
	memset(reason, 'r', sizeof(reason) - 1);
	reason[sizeof(reason) - 1] = '\0';
	w = mk(V_FAIL, 1, 1, 1, 1, reason, NULL);
	ck_assert_uint_eq(strlen(w.reason), sizeof(w.reason) - 1);
	rec_result(f, 0, &w);
	/* and a longer one written by hand */
	raw("result\t0\tfail\t1\t1\t1\t1\t");
	for (int i = 0; i < 3; i++)
		raw(note);
	raw("\n");
	prepare(rs, st, 1);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_uint_eq(strlen(st[0].step_note), sizeof(st[0].step_note) - 1);
	ck_assert_uint_eq(strlen(rs[0].reason), sizeof(rs[0].reason) - 1);
	ck_assert_int_eq(rs[0].reason[0], 'n');
	clear(rs, 1);
}
END_TEST

START_TEST(test_missing_file)
{
	struct result rs[1];
	struct rec_state st[1];

	prepare(rs, st, 1);
	ck_assert_int_eq(rec_read("/nonexistent-rdmacheck/records.txt", rs, st, 1), 0);
	ck_assert_int_eq(rs[0].v, V_ERROR);
	ck_assert_int_eq(st[0].started, 0);
}
END_TEST

START_TEST(test_kernel_lines)
{
	struct result w = mk(V_PASS, 0, 0.1, 2, 2, "", NULL);
	struct result rs[2];
	struct rec_state st[2];

	rec_start(f, 1);
	rec_kernel(f, 1, "[   42.5] WARNING: CPU: 1 PID: 3 at rxe_mr.c:716 f\tx\n[   42.6] Call Trace:\n");
	rec_kernel(f, 1, NULL);
	rec_result(f, 1, &w);
	prepare(rs, st, 2);
	for (int again = 0; again < 2; again++) { /* the outer runner reads the growing file again */
		ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
		ck_assert_str_eq(st[1].kernel, "[   42.5] WARNING: CPU: 1 PID: 3 at rxe_mr.c:716 f x\n"
					       "[   42.6] Call Trace:\n");
	}
	ck_assert_ptr_null(st[0].kernel);
	/* what the reader did to a finished result stays (the trace taken out of the detail) */
	rs[1].v = V_FAIL;
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(rs[1].v, V_FAIL);
	rec_state_clear(&st[1]);
	ck_assert_ptr_null(st[1].kernel);
	clear(rs, 2);
}
END_TEST

/* Read piece by piece with a cursor (rec_read_more) as it grows, the file gives what reading it whole gives. */
START_TEST(test_read_more_as_whole)
{
	struct result rs[2], ws[2];
	struct rec_state st[2], wst[2];
	struct rec_cursor c = { 0 };

	prepare(rs, st, 2);
	rec_start(f, 0);
	rec_kernel(f, 0, "[    1.5] WARNING: at rxe_qp.c:1\n");
	raw("detail\t0\t  first\n");
	ck_assert_int_eq(rec_read_more(&c, path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].started, 1);
	ck_assert_int_eq(st[0].finished, 0);
	raw("detail\t0\t  sec"); /* torn: left for the next read */
	ck_assert_int_eq(rec_read_more(&c, path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].finished, 0);
	raw("ond\nresult\t0\tfail\t9\t0.500\t3\t5\tline 9: wrong\n");
	rec_start(f, 1);
	ck_assert_int_eq(rec_read_more(&c, path, rs, st, 2), 0);
	ck_assert_int_eq(st[0].finished, 1);
	ck_assert_int_eq(rs[0].v, V_FAIL);
	ck_assert_str_eq(rs[0].detail, "  first\n  second\n");
	ck_assert_str_eq(st[0].kernel, "[    1.5] WARNING: at rxe_qp.c:1\n");
	ck_assert_int_eq(st[1].started, 1);
	prepare(ws, wst, 2);
	ck_assert_int_eq(rec_read(path, ws, wst, 2), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(ws[i].v, rs[i].v);
		ck_assert_str_eq(ws[i].reason, rs[i].reason);
		ck_assert_int_eq(wst[i].finished, st[i].finished);
		ck_assert_int_eq(wst[i].started, st[i].started);
	}
	ck_assert_str_eq(ws[0].detail, rs[0].detail);
	ck_assert_str_eq(wst[0].kernel, st[0].kernel);
	/* the file written anew, shorter: read from its start */
	ck_assert_ptr_nonnull(freopen(path, "w", f));
	raw("result\t1\tpass\t0\t0.100\t1\t1\t\n");
	ck_assert_int_eq(rec_read_more(&c, path, rs, st, 2), 0);
	ck_assert_int_eq(st[1].finished, 1);
	ck_assert_int_eq(rs[1].v, V_PASS);
	rec_cursor_reset(&c);
	ck_assert_ptr_null(c.det);
	for (int i = 0; i < 2; i++) {
		rec_state_clear(&st[i]);
		rec_state_clear(&wst[i]);
	}
	clear(rs, 2);
	clear(ws, 2);
}
END_TEST

/* The lines of the records file so far. */
static int lines(void)
{
	FILE *r = fopen(path, "r");
	int n = 0, c;

	ck_assert_ptr_nonnull(r);
	while ((c = fgetc(r)) != EOF)
		n += c == '\n';
	fclose(r);
	return n;
}

START_TEST(test_batched_start_and_beat)
{
	struct result rs[1] = { 0 };
	struct rec_state st[1] = { 0 };
	double beat = 0;

	rec_start_batched(f, 0);
	rec_step_beat(f, 0, 7, &beat); /* the first step beats: none before it */
	ck_assert_double_gt(beat, 0);
	for (uint32_t line = 8; line < 200; line++)
		rec_step_beat(f, 0, line, &beat); /* within REC_BEAT_S: not written */
	fflush(f);
	ck_assert_int_eq(lines(), 2);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_int_eq(st[0].started, 1);
	ck_assert_int_eq(st[0].batched, 1);
	ck_assert_int_eq(st[0].finished, 0);
	ck_assert_uint_eq(st[0].step_line, 7);
	beat -= REC_BEAT_S; /* a beat's time later */
	rec_step_beat(f, 0, 300, &beat);
	ck_assert_int_eq(lines(), 3);
	ck_assert_int_eq(rec_read(path, rs, st, 1), 0);
	ck_assert_uint_eq(st[0].step_line, 300);
}
END_TEST

START_TEST(test_careful_start_replaces_the_batched_run)
{
	struct result rs[2] = { 0 };
	struct rec_state st[2] = { 0 };

	rec_start_batched(f, 1);
	rec_step(f, 1, 40, 0, "");
	fflush(f);
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[1].batched, 1);
	rec_start(f, 1); /* the careful run, before its first step */
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_int_eq(st[1].started, 1);
	ck_assert_int_eq(st[1].batched, 0);
	ck_assert_uint_eq(st[1].step_line, 0);
	rec_step(f, 1, 12, 1, "MW-INV-3: panics");
	ck_assert_int_eq(rec_read(path, rs, st, 2), 0);
	ck_assert_uint_eq(st[1].step_line, 12);
	ck_assert_int_eq(st[1].step_crash, 1);
	ck_assert_str_eq(st[1].step_note, "MW-INV-3: panics");
	ck_assert_int_eq(st[0].started, 0);
}
END_TEST

START_TEST(test_deferred_kept_over_starts)
{
	struct result rs[3] = { 0 };
	struct rec_state st[3] = { 0 };

	rec_defer(f, 2);
	fflush(f);
	ck_assert_int_eq(rec_read(path, rs, st, 3), 0);
	ck_assert_int_eq(st[2].deferred, 1);
	ck_assert_int_eq(st[2].started, 0);
	ck_assert_int_eq(st[0].deferred + st[1].deferred, 0);
	rec_start(f, 2); /* its side round's records: it stays the side round's */
	rec_step(f, 2, 17, 1, "MW-INV-3: panics");
	fflush(f);
	ck_assert_int_eq(rec_read(path, rs, st, 3), 0);
	ck_assert_int_eq(st[2].deferred, 1);
	ck_assert_int_eq(st[2].started, 1);
	ck_assert_uint_eq(st[2].step_line, 17);
	ck_assert_int_eq(st[2].finished, 0);
}
END_TEST

Suite *suite_test_records(void)
{
	Suite *s = suite_create("test_records");
	TCase *tc = tcase_create("records");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_kernel_lines);
	tcase_add_test(tc, test_every_verdict);
	tcase_add_test(tc, test_secs_keep_microseconds);
	tcase_add_test(tc, test_text_fields_neutralised);
	tcase_add_test(tc, test_torn_last_line);
	tcase_add_test(tc, test_unknown_and_damaged_lines_ignored);
	tcase_add_test(tc, test_out_of_range_and_bad_index);
	tcase_add_test(tc, test_read_twice_is_idempotent);
	tcase_add_test(tc, test_later_result_wins);
	tcase_add_test(tc, test_long_fields_truncated);
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(tc, test_batched_start_and_beat);
	tcase_add_test(tc, test_careful_start_replaces_the_batched_run);
	tcase_add_test(tc, test_deferred_kept_over_starts);
	tcase_add_test(tc, test_read_more_as_whole);
	suite_add_tcase(s, tc);
	return s;
}

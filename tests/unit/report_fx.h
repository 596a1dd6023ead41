/*
 * report_fx.h — helpers of the report tests (test_report.c, test_report_junit.c):
 * results in rs[] (mk, five; teardown frees them), a temporary file to write
 * to (out) and everything written to it (slurp).
 */
#ifndef RDMACHECK_TEST_REPORT_FX_H
#define RDMACHECK_TEST_REPORT_FX_H

#include "harness/report/report.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct result rs[8];

static inline struct result *mk(size_t i, enum verdict v, const char *file, const char *title, const char *reason,
				const char *detail, uint32_t line, double secs)
{
	struct result *r = &rs[i];

	memset(r, 0, sizeof(*r));
	r->v = v;
	snprintf(r->file, sizeof(r->file), "%s", file);
	snprintf(r->title, sizeof(r->title), "%s", title);
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	r->detail = detail ? strdup(detail) : NULL;
	r->line = line;
	r->secs = secs;
	return r;
}

/* One result of every verdict, in the order pass fail xfail skip error. */
static inline void five(void)
{
	mk(0, V_PASS, "scenarios/verbs/001-pd.scn", "PD dealloc", "", NULL, 0, 0.25);
	mk(1, V_FAIL, "scenarios/verbs/063-ra.scn", "WRITE with a corrupted rkey",
	   "line 20: write gave SUCCESS, outside the allowed set",
	   "  step:    b: write q\n  allowed: REM_ACCESS_ERR [RA-KEY-1]\n", 20, 1.5);
	mk(2, V_XFAIL, "scenarios/verbs/085-lp.scn", "SEND longer than the receive",
	   "line 19: send gave REM_OP_ERR: declared deviation LP-5 of profile rxe",
	   "  line 19: send: REM_OP_ERR\n    deviation LP-5: F: 64-byte send\n", 19, 0.125);
	mk(3, V_SKIP, "scenarios/verbs/030-rereg.scn", "rereg grants write",
	   "requires rereg, which the profile of this stack does not offer", NULL, 0, 0);
	mk(4, V_ERROR, "scenarios/examples/x.scn", "agents", "cannot start the agents", NULL, 0, 3.0);
}

static inline void teardown(void)
{
	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		result_clear(&rs[i]);
}

/* Everything written to f, NUL-terminated (malloc'd); closes f. */
static inline char *slurp(FILE *f)
{
	long n;
	char *s;

	ck_assert_int_eq(fflush(f), 0);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	s = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static inline FILE *out(void)
{
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	return f;
}

#endif

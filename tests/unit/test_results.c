/*
 * Unit tests of the results directory (harness/report/results.c): the trace
 * taken out of a result's detail, results.jsonl read back with Jansson (one
 * scenario object and its steps, verdict names, rule IDs, file names that are
 * not UTF-8), the per-scenario directory and its files, the default directory
 * and the latest link; the "tape" object, its lines as the recorder wrote
 * them, a line cut short left out.
 */
#include "harness/report/results.h"
#include "harness/report/tape_out.h"

#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[64];

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/rdmacheck-results-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp); /* our own mkdtemp name: no quote in it */
	ck_assert_int_eq(system(cmd), 0);
}

/* The whole file at dir/name (malloc'd, NUL-terminated), or NULL. */
static char *slurp(const char *dir, const char *name)
{
	char path[PATH_MAX];
	FILE *f;
	char *s;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

static void mkres(struct result *r, enum verdict v, const char *file, const char *detail)
{
	memset(r, 0, sizeof(*r));
	r->v = v;
	snprintf(r->file, sizeof(r->file), "%s", file);
	snprintf(r->title, sizeof(r->title), "T \"%s\"", "q");
	snprintf(r->reason, sizeof(r->reason), "line 3: write gave SUCCESS, outside the allowed set");
	r->detail = detail ? strdup(detail) : NULL;
	r->line = 3;
	r->secs = 0.5;
}

START_TEST(test_take_trace)
{
	struct result r;
	char *t;

	mkres(&r, V_FAIL, "x.scn",
	      "  trace: line 2: a: alloc_pd pd -> ok; allowed: ok\n  step:    b: write q\n"
	      "  trace: line 3: b: write q -> SUCCESS; allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	t = results_take_trace(&r, 0);
	ck_assert_str_eq(t, "line 2: a: alloc_pd pd -> ok; allowed: ok\n"
			    "line 3: b: write q -> SUCCESS; allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	ck_assert_str_eq(r.detail, "  step:    b: write q\n"); /* the report shows no trace unasked */
	free(t);
	result_clear(&r);
	mkres(&r, V_PASS, "x.scn", "  trace: line 2: a: alloc_pd pd -> ok; allowed: ok\n");
	t = results_take_trace(&r, 1); /* --trace: kept in the detail as well */
	ck_assert_str_eq(t, "line 2: a: alloc_pd pd -> ok; allowed: ok\n");
	ck_assert_str_eq(r.detail, "  trace: line 2: a: alloc_pd pd -> ok; allowed: ok\n");
	free(t);
	result_clear(&r);
	mkres(&r, V_PASS, "x.scn", "  trace: line 2: a: alloc_pd pd -> ok; allowed: ok\n");
	t = results_take_trace(&r, 0);
	ck_assert_ptr_null(r.detail); /* nothing left: no detail */
	free(t);
	mkres(&r, V_PASS, "x.scn", NULL);
	ck_assert_ptr_null(results_take_trace(&r, 0));
}
END_TEST

START_TEST(test_jsonl_and_files)
{
	struct results rd;
	struct result r;
	char dir[PATH_MAX], err[256], *s, *line;
	json_error_t je;
	json_t *o;
	size_t nobj = 0;

	snprintf(dir, sizeof(dir), "%s/run", tmp);
	ck_assert_int_eq(results_open(&rd, dir, 0, err, sizeof(err)), 0);
	mkres(&r, V_FAIL, "scenarios/verbs/063-ra.scn", "  step:    b: write q\n");
	result_rule_add(&r, (enum m_rule)0);
	ck_assert_int_eq(results_scenario(&rd, 6, &r,
					  "line 2: a: alloc_pd pd -> ok; allowed: ok\n"
					  "line 3: b: write q -> SUCCESS; allowed: REM_ACCESS_ERR [RA-KEY-1]\n",
					  "[   12.5] rxe0: something\n", NULL),
			 0);
	result_clear(&r);
	mkres(&r, V_SKIP, "odd/caf\xe9 x.scn", NULL);
	ck_assert_int_eq(results_scenario(&rd, 7, &r, NULL, NULL, "  console: Kernel panic\n"), 0);
	ck_assert_int_eq(results_close(&rd), 0);

	s = slurp(dir, "results.jsonl");
	ck_assert_ptr_nonnull(s);
	for (line = strtok(s, "\n"); line; line = strtok(NULL, "\n"), nobj++) {
		o = json_loads(line, 0, &je);
		ck_assert_msg(o != NULL, "line %zu is not JSON: %s: %s", nobj, je.text, line);
		switch (nobj) {
		case 0:
			ck_assert_str_eq(json_string_value(json_object_get(o, "type")), "scenario");
			ck_assert_str_eq(json_string_value(json_object_get(o, "file")), "scenarios/verbs/063-ra.scn");
			ck_assert_str_eq(json_string_value(json_object_get(o, "title")), "T \"q\"");
			ck_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "FAIL");
			ck_assert_str_eq(json_string_value(json_object_get(o, "reason")), r.reason);
			ck_assert_int_eq(json_integer_value(json_object_get(o, "line")), 3);
			ck_assert(json_real_value(json_object_get(o, "secs")) == 0.5);
			ck_assert_int_eq(json_array_size(json_object_get(o, "rules")), 1);
			ck_assert_str_eq(json_string_value(json_array_get(json_object_get(o, "rules"), 0)),
					 m_rule_info((enum m_rule)0)->id);
			break;
		case 1:
		case 2:
			ck_assert_str_eq(json_string_value(json_object_get(o, "type")), "step");
			ck_assert_str_eq(json_string_value(json_object_get(o, "file")), "scenarios/verbs/063-ra.scn");
			ck_assert_int_eq(json_integer_value(json_object_get(o, "line")), nobj + 1);
			ck_assert_str_eq(json_string_value(json_object_get(o, "call")),
					 nobj == 1 ? "a: alloc_pd pd" : "b: write q");
			ck_assert_str_eq(json_string_value(json_object_get(o, "real")), nobj == 1 ? "ok" : "SUCCESS");
			ck_assert_str_eq(json_string_value(json_object_get(o, "allowed")),
					 nobj == 1 ? "ok" : "REM_ACCESS_ERR [RA-KEY-1]");
			break;
		case 3:
			ck_assert_str_eq(json_string_value(json_object_get(o, "verdict")), "SKIP");
			ck_assert_str_eq(json_string_value(json_object_get(o, "file")), "odd/caf? x.scn");
			break;
		}
		json_decref(o);
	}
	ck_assert_int_eq(nobj, 4);
	free(s);

	/* per scenario: NNN-NAME (1-based), its verdict, trace and kernel lines */
	s = slurp(dir, "007-063-ra/verdict.txt");
	ck_assert_ptr_nonnull(s);
	ck_assert_msg(strncmp(s, "FAIL  scenarios/verbs/063-ra.scn  T \"q\" (0.5 s)\n", 48) == 0, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "      line 3: write gave SUCCESS"));
	free(s);
	s = slurp(dir, "007-063-ra/trace.txt");
	ck_assert_str_eq(s, "line 2: a: alloc_pd pd -> ok; allowed: ok\n"
			    "line 3: b: write q -> SUCCESS; allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	free(s);
	s = slurp(dir, "007-063-ra/kernel.txt");
	ck_assert_str_eq(s, "[   12.5] rxe0: something\n");
	free(s);
	ck_assert_ptr_null(slurp(dir, "007-063-ra/console.txt"));
	s = slurp(dir, "008-caf__x/console.txt"); /* only [A-Za-z0-9._-] in the name */
	ck_assert_str_eq(s, "  console: Kernel panic\n");
	free(s);
	ck_assert_ptr_null(slurp(dir, "008-caf__x/trace.txt"));
}
END_TEST

/* The recorder's lines go in as they are; one cut short (a runner died writing it) is left out. */
START_TEST(test_tape_lines_as_written)
{
	static const char *const whole[] = {
		"{\"tape\":1,\"engine\":\"stack\",\"steps\":[\"a: fill m byte=0x5a\",\"b: x \\\"q\\\" \\\\ ]\"]}",
		"[\"x\",\"query_qp\",0,3,0,0,0,[\"ok\",null,{\"state\":3}]]",
		"[\"m\",5,0,4096,0,\"5a*4096\"]",
	};
	static const char *const cut[] = {
		"[\"x\",\"query_qp\",0,3,0,0,0,[\"ok\",null,{\"state\":3}]", /* its last ']' lost */
		"[\"m\",5,0,4096,0,\"5a*40", "", "[\"a\"]]", "[1][2]", "[\"caf\xc3\xa9\"]", "[\"a\tb\"]", "{\"a\":1}}", "\"s\"", "[\"a\"}",
		"[\"ends in an escape \\",
	};
	struct results rd;
	char dir[PATH_MAX], err[256], tape[1024] = "", *s, *nl;
	json_t *o, *rec;
	size_t off = 0;

	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		ck_assert_msg(tape_line_whole(whole[i], strlen(whole[i])), "%s", whole[i]);
		off += (size_t)snprintf(tape + off, sizeof(tape) - off, "%s\n%s", whole[i], i == 1 ? cut[0] : "");
		if (i == 1)
			off += (size_t)snprintf(tape + off, sizeof(tape) - off, "\n");
	}
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		ck_assert_msg(!tape_line_whole(cut[i], strlen(cut[i])), "%s", cut[i]);
	snprintf(dir, sizeof(dir), "%s/run", tmp);
	ck_assert_int_eq(results_open(&rd, dir, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(results_tape(&rd, "odd/caf\xe9.scn", tape, "[ 1.0] rxe: \x01ok\n"), 0);
	ck_assert_int_eq(results_tape(&rd, "none.scn", "", NULL), 0); /* nothing for no tape */
	ck_assert_int_eq(results_close(&rd), 0);
	s = slurp(dir, "results.jsonl");
	ck_assert_ptr_nonnull(s);
	nl = strchr(s, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_str_eq(nl + 1, ""); /* one line */
	o = json_loadb(s, (size_t)(nl - s), 0, NULL);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(json_string_value(json_object_get(o, "type")), "tape");
	ck_assert_str_eq(json_string_value(json_object_get(o, "file")), "odd/caf?.scn");
	ck_assert_str_eq(json_string_value(json_object_get(o, "kernel")), "[ 1.0] rxe: ?ok\n");
	rec = json_object_get(o, "record");
	ck_assert_int_eq(json_array_size(rec), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *e = json_loads(whole[i], 0, NULL);

		ck_assert_ptr_nonnull(e);
		ck_assert_msg(json_equal(e, json_array_get(rec, i)), "record[%zu] is not %s", i, whole[i]);
		json_decref(e);
	}
	json_decref(o);
	free(s);
}
END_TEST

START_TEST(test_default_and_latest)
{
	struct results rd;
	char dir[PATH_MAX], err[256], link[PATH_MAX + 32], target[PATH_MAX];
	const char *base;
	ssize_t n;
	int a, b, c;

	ck_assert_int_eq(results_default(tmp, dir, sizeof(dir)), 0);
	base = strrchr(dir, '/') + 1;
	/* ROOT/build/results/YYYYmmddTHHMMSSZ-PID */
	ck_assert_int_eq(strncmp(dir, tmp, strlen(tmp)), 0);
	ck_assert_str_eq(strstr(dir, "/build/results/"), strstr(dir, "/build/"));
	ck_assert_int_eq(sscanf(base, "%8dT%6dZ-%d", &a, &b, &c), 3);
	ck_assert_int_eq(c, getpid());
	ck_assert_int_eq(results_open(&rd, dir, 1, err, sizeof(err)), 0); /* makes build/results too */
	ck_assert_int_eq(results_close(&rd), 0);
	snprintf(link, sizeof(link), "%s/build/results/latest", tmp);
	n = readlink(link, target, sizeof(target) - 1);
	ck_assert_int_gt(n, 0);
	target[n] = '\0';
	ck_assert_str_eq(target, base); /* relative: the tree may move */
	ck_assert_int_eq(results_open(&rd, "/proc/rdmacheck/no", 0, err, sizeof(err)) < 0, 1);
	ck_assert_ptr_nonnull(strstr(err, "/proc/rdmacheck/no"));
}
END_TEST

Suite *suite_test_results(void)
{
	Suite *s = suite_create("test_results");
	TCase *tc = tcase_create("results");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_take_trace);
	tcase_add_test(tc, test_jsonl_and_files);
	tcase_add_test(tc, test_tape_lines_as_written);
	tcase_add_test(tc, test_default_and_latest);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of scenario selection (harness/corpus/select.c) and of reading the
 * last results for --rerun-failed (harness/corpus/rerun.c).
 */
#include "harness/corpus/load.h"
#include "harness/corpus/rerun.h"
#include "harness/corpus/select.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_match_substring_and_glob)
{
	ck_assert(sel_match("stale", "scenarios/verbs/021-mr-stale-lkey.scn"));
	ck_assert(!sel_match("Stale", "scenarios/verbs/021-mr-stale-lkey.scn"));
	ck_assert(sel_match("verbs/0*-mr-*", "scenarios/verbs/021-mr-stale-lkey.scn"));
	ck_assert(!sel_match("rpma/*", "scenarios/verbs/021-mr-stale-lkey.scn"));
	ck_assert(sel_match("0[12]?-mr", "scenarios/verbs/021-mr-stale-lkey.scn"));
}
END_TEST

/* The fixture's results.jsonl without its line 8 ("not json at all") as path; or, with cut, its line 7 cut short too. */
static void fixture_copy(const char *path, int cut)
{
	FILE *in = fopen("tests/fixtures/results/latest/results.jsonl", "r"), *out = fopen(path, "w");
	char line[1024];

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	for (int k = 1; fgets(line, sizeof(line), in); k++)
		if (k == 7 && cut)
			fprintf(out, "%.30s", line); /* no newline: the last line, torn */
		else if (k != 8 && !(cut && k > 7))
			fputs(line, out);
	fclose(in);
	fclose(out);
}

START_TEST(test_rerun_reads_failed_and_errors_once)
{
	struct filelist fl = { 0 };
	char err[256], path[] = "/tmp/rdmacheck-rerun-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	fixture_copy(path, 0);
	ck_assert_int_eq(rerun_read(path, &fl, err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 3);
	ck_assert_str_eq(fl.v[0], "scenarios/examples/rdma-write-after-dereg.scn");
	ck_assert_str_eq(fl.v[1], "scenarios/verbs/021-mr-stale-lkey-after-dereg.scn");
	ck_assert_str_eq(fl.v[2], "scenarios/gone-since.scn");
	files_free(&fl);
	unlink(path);
	ck_assert_int_eq(rerun_read("tests/fixtures/results/none.jsonl", &fl, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "none.jsonl"));
}
END_TEST

/* A line that is not a result (a FAIL line cut short by a crash or a full disk) is an error naming it. */
START_TEST(test_rerun_refuses_a_cut_line)
{
	struct filelist fl = { 0 };
	char err[512], want[128], path[] = "/tmp/rdmacheck-rerun-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	fixture_copy(path, 1);
	ck_assert_int_eq(rerun_read(path, &fl, err, sizeof(err)), -EBADMSG);
	snprintf(want, sizeof(want), "%s:7: not a JSON object", path);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "(1 line that is not results"));
	files_free(&fl);
	unlink(path);
	/* the fixture itself: its line 8 */
	ck_assert_int_eq(rerun_read("tests/fixtures/results/latest/results.jsonl", &fl, err, sizeof(err)), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "results.jsonl:8: "));
	files_free(&fl);
}
END_TEST

/* --rerun-failed=DIR: a results directory, its results.jsonl, or a directory with a latest link. */
START_TEST(test_rerun_path_of_any_results)
{
	char path[512], err[512];

	ck_assert_int_eq(rerun_path("tests/fixtures/results/latest", path, sizeof(path), err, sizeof(err)), 0);
	ck_assert_str_eq(path, "tests/fixtures/results/latest/results.jsonl");
	ck_assert_int_eq(rerun_path("tests/fixtures/results", path, sizeof(path), err, sizeof(err)), 0);
	ck_assert_str_eq(path, "tests/fixtures/results/latest/results.jsonl");
	ck_assert_int_eq(rerun_path("tests/fixtures/results/latest/results.jsonl", path, sizeof(path), err,
				    sizeof(err)), 0);
	ck_assert_str_eq(path, "tests/fixtures/results/latest/results.jsonl");
	ck_assert_int_eq(rerun_path("tests/fixtures", path, sizeof(path), err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "tests/fixtures has no results.jsonl (nor latest/results.jsonl)");
	ck_assert_int_eq(rerun_path("tests/no-such", path, sizeof(path), err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "tests/no-such: No such file or directory");
}
END_TEST

/* The parse errors of the files load_dat loaded (cli_load_each; all NULL: the corpus parses). */
static char **diags;

/* The corpus' dat/ directory, loaded as `run` loads it. */
static void load_dat(struct filelist *fl, struct scn_file ***files)
{
	char *paths[] = { "scenarios/dat" };

	ck_assert_int_eq(cli_load_each(1, paths, fl, files, &diags), 0);
	ck_assert_uint_gt(fl->n, 10);
}

START_TEST(test_apply_keep_drop_rule)
{
	struct filelist fl;
	struct scn_file **files;
	struct m_profile prof;
	struct cli_select s = { .keep = { "dat/00*", "lmr" }, .nkeep = 2, .drop = { "004" }, .ndrop = 1 };

	m_profile_get("rxe", 0, &prof);
	load_dat(&fl, &files);
	ck_assert_int_eq(sel_apply(&s, &prof, &fl, &files, &diags), 0);
	for (size_t i = 0; i < fl.n; i++) {
		ck_assert(strstr(fl.v[i], "dat/00") || strstr(fl.v[i], "lmr") || strstr(files[i]->title, "lmr"));
		ck_assert_ptr_null(strstr(fl.v[i], "004"));
	}
	ck_assert_uint_ge(fl.n, 8);
	cli_unload_diags(fl.n, diags);
	cli_unload(&fl, files);

	struct cli_select r = { .nrule = 1 };

	ck_assert_int_eq(m_rule_find("DAT-LMR-3", &r.rule[0]), 0);
	load_dat(&fl, &files);
	ck_assert_int_eq(sel_apply(&r, &prof, &fl, &files, &diags), 0);
	ck_assert_uint_ge(fl.n, 1);
	for (size_t i = 0; i < fl.n; i++) {
		struct result res;
		int cited = 0;

		for (size_t c = 0; c < files[i]->nrules; c++)
			cited |= strcmp(files[i]->rules[c].id, "DAT-LMR-3") == 0;
		cli_walk(files[i], &prof, NULL, NULL, NULL, &res);
		ck_assert(cited || result_rule_has(&res, r.rule[0]));
		result_clear(&res);
	}
	cli_unload_diags(fl.n, diags);
	cli_unload(&fl, files);
}
END_TEST

START_TEST(test_apply_repeat_and_shuffle)
{
	struct filelist fl;
	struct scn_file **files;
	struct m_profile prof;
	struct cli_select s = { .keep = { "dat/00[1-3]" }, .nkeep = 1, .repeat = 3 };
	char *first[9];

	m_profile_get("rxe", 0, &prof);
	load_dat(&fl, &files);
	ck_assert_int_eq(sel_apply(&s, &prof, &fl, &files, &diags), 0);
	ck_assert_uint_eq(fl.n, 9);
	for (size_t i = 0; i < 9; i++) {
		ck_assert_str_eq(fl.v[i], fl.v[i % 3]);
		ck_assert_ptr_nonnull(files[i]);
		ck_assert_str_eq(files[i]->title, files[i % 3]->title);
		ck_assert(i < 3 || files[i] != files[i % 3]); /* each copy its own parse */
	}
	cli_unload_diags(fl.n, diags);
	cli_unload(&fl, files);

	/* the same seed, the same order; every file still there */
	s.shuffle = 1;
	s.seed = 42;
	load_dat(&fl, &files);
	ck_assert_int_eq(sel_apply(&s, &prof, &fl, &files, &diags), 0);
	for (size_t i = 0; i < 9; i++)
		first[i] = strdup(fl.v[i]);
	cli_unload_diags(fl.n, diags);
	cli_unload(&fl, files);
	load_dat(&fl, &files);
	ck_assert_int_eq(sel_apply(&s, &prof, &fl, &files, &diags), 0);
	for (size_t i = 0; i < 9; i++) {
		ck_assert_str_eq(fl.v[i], first[i]);
		ck_assert_ptr_nonnull(strstr(fl.v[i], "dat/00"));
		free(first[i]);
	}
	cli_unload_diags(fl.n, diags);
	cli_unload(&fl, files);
}
END_TEST

START_TEST(test_random_is_fixed)
{
	uint64_t st = 0;

	/* splitmix64's reference values: the order of --seed=N is the same everywhere */
	ck_assert(sel_random(&st) == 0xe220a8397b1dcdafull);
	ck_assert(sel_random(&st) == 0x6e789e6aa1b965f4ull);
}
END_TEST

Suite *suite_test_select(void)
{
	Suite *s = suite_create("test_select");
	TCase *tc = tcase_create("select");

	tcase_add_test(tc, test_match_substring_and_glob);
	tcase_add_test(tc, test_rerun_reads_failed_and_errors_once);
	tcase_add_test(tc, test_rerun_refuses_a_cut_line);
	tcase_add_test(tc, test_rerun_path_of_any_results);
	tcase_add_test(tc, test_apply_keep_drop_rule);
	tcase_add_test(tc, test_apply_repeat_and_shuffle);
	tcase_add_test(tc, test_random_is_fixed);
	suite_add_tcase(s, tc);
	return s;
}

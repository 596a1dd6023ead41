/*
 * Unit tests of collecting scenario files (harness/cli/files.c) on a temporary
 * directory tree: recursion, only *.scn from directories, hidden entries
 * skipped, a stable sorted order, a file given directly whatever its name,
 * symbolic links, and the error messages for unusable paths.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "harness/cli/files.h"

#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];
static struct filelist fl;
static char err[256];

static void mkfile(const char *rel)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	ck_assert_msg(f != NULL, "%s", p);
	fputs("nodes a\na: alloc_pd pd\n", f);
	fclose(f);
}

static void mkd(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	ck_assert_int_eq(mkdir(p, 0755), 0);
}

static void mklink(const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	ck_assert_int_eq(symlink(target, p), 0);
}

/* root + "/" + rel */
static const char *at(const char *rel)
{
	static char p[8][256];
	static int k;

	k = (k + 1) % 8;
	snprintf(p[k], sizeof(p[k]), "%s%s%s", root, rel[0] ? "/" : "", rel);
	return p[k];
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/rdmacheck-files-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	memset(&fl, 0, sizeof(fl));
	err[0] = '\0';
	/* created in an order unlike the sorted one */
	mkd("sub");
	mkd("sub/deeper");
	mkd("empty");
	mkd(".hidden");
	mkd("dir.scn");
	mkfile("sub/deeper/d.scn");
	mkfile("z.scn");
	mkfile("sub/c.scn");
	mkfile("b.scn");
	mkfile("a.scn");
	mkfile("dir.scn/f.scn");
	mkfile("notes.txt");
	mkfile("x.scn.bak");
	mkfile("X.SCN");
	mkfile(".scn");
	mkfile(".h.scn");
	mkfile(".hidden/e.scn");
	mkfile("sub/a-b.scn");
}

static int rm_one(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(p) : unlink(p);
}

static void teardown(void)
{
	files_free(&fl);
	/* depth first, without following the links */
	ck_assert_int_eq(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void expect(const char *const *rel, size_t n)
{
	for (size_t i = 0; i < n && i < fl.n; i++)
		ck_assert_str_eq(fl.v[i], at(rel[i]));
	ck_assert_uint_eq(fl.n, n);
}

START_TEST(test_directory_recursive_sorted)
{
	static const char *const want[] = { "a.scn", "b.scn", "dir.scn/f.scn", "sub/a-b.scn", "sub/c.scn",
					    "sub/deeper/d.scn", "z.scn" };

	ck_assert_int_eq(files_add(&fl, root, err, sizeof(err)), 0);
	expect(want, 7);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_trailing_slashes)
{
	static const char *const want[] = { "sub/a-b.scn", "sub/c.scn", "sub/deeper/d.scn" };
	char p[128];

	snprintf(p, sizeof(p), "%s/sub///", root);
	ck_assert_int_eq(files_add(&fl, p, err, sizeof(err)), 0);
	expect(want, 3);
}
END_TEST

START_TEST(test_file_given_directly)
{
	/* whatever its name, and hidden or not */
	ck_assert_int_eq(files_add(&fl, at("notes.txt"), err, sizeof(err)), 0);
	ck_assert_int_eq(files_add(&fl, at(".hidden/e.scn"), err, sizeof(err)), 0);
	ck_assert_int_eq(files_add(&fl, at("z.scn"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 3);
	/* in the order given */
	ck_assert_str_eq(fl.v[0], at("notes.txt"));
	ck_assert_str_eq(fl.v[1], at(".hidden/e.scn"));
	ck_assert_str_eq(fl.v[2], at("z.scn"));
}
END_TEST

START_TEST(test_several_paths_keep_their_order)
{
	static const char *const want[] = { "z.scn", "sub/a-b.scn", "sub/c.scn", "sub/deeper/d.scn", "a.scn",
					    "dir.scn/f.scn" };

	ck_assert_int_eq(files_add(&fl, at("z.scn"), err, sizeof(err)), 0);
	ck_assert_int_eq(files_add(&fl, at("sub"), err, sizeof(err)), 0);
	ck_assert_int_eq(files_add(&fl, at("a.scn"), err, sizeof(err)), 0);
	ck_assert_int_eq(files_add(&fl, at("dir.scn"), err, sizeof(err)), 0);
	expect(want, 6);
}
END_TEST

START_TEST(test_many_files_grow_the_list)
{
	char name[64];

	mkd("many");
	for (int i = 199; i >= 0; i--) {
		snprintf(name, sizeof(name), "many/%03d.scn", i);
		mkfile(name);
	}
	ck_assert_int_eq(files_add(&fl, at("many"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 200);
	ck_assert_uint_ge(fl.cap, 200);
	for (int i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "many/%03d.scn", i);
		ck_assert_str_eq(fl.v[i], at(name));
	}
}
END_TEST

START_TEST(test_missing_path)
{
	char want[256];

	ck_assert_int_eq(files_add(&fl, at("nope"), err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", at("nope"));
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(fl.n, 0);
	ck_assert_int_eq(files_add(&fl, at("z.scn/x"), err, sizeof(err)), -ENOTDIR);
	snprintf(want, sizeof(want), "%s: Not a directory", at("z.scn/x"));
	ck_assert_str_eq(err, want);
	/* the message is cut to the buffer */
	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(files_add(&fl, at("nope"), err, 8), -ENOENT);
	ck_assert_uint_eq(strlen(err), 7);
	ck_assert_int_eq(err[8], 'x');
}
END_TEST

START_TEST(test_directory_without_scenarios)
{
	char want[256];

	ck_assert_int_eq(files_add(&fl, at("empty"), err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: no *.scn files", at("empty"));
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(fl.n, 0);
	/* only hidden or misnamed ones do not count */
	ck_assert_int_eq(files_add(&fl, at(".hidden"), err, sizeof(err)), 0); /* given directly: searched */
	ck_assert_uint_eq(fl.n, 1);
	ck_assert_str_eq(fl.v[0], at(".hidden/e.scn"));
}
END_TEST

START_TEST(test_symlinks)
{
	static const char *const want[] = { "a.scn", "b.scn", "dir.scn/f.scn", "link.scn", "linkdir/d.scn",
					    "sub/a-b.scn", "sub/c.scn", "sub/deeper/d.scn", "z.scn" };

	mklink("z.scn", "link.scn");        /* a link to a file: counted by its own name */
	mklink("sub/deeper", "linkdir");    /* a link to a directory: searched */
	mklink("nowhere.scn", "dangling.scn"); /* a dangling link: skipped */
	ck_assert_int_eq(files_add(&fl, root, err, sizeof(err)), 0);
	expect(want, 9);
}
END_TEST

START_TEST(test_symlink_loop)
{
	static const char *const want[] = { "loop/up/a.scn", "loop/up/b.scn", "loop/up/dir.scn/f.scn",
					    "loop/up/sub/a-b.scn", "loop/up/sub/c.scn", "loop/up/sub/deeper/d.scn",
					    "loop/up/z.scn", "loop/x.scn" };

	/* a directory that links back to its parent: every file once, and it ends */
	mkd("loop");
	mkfile("loop/x.scn");
	mklink("..", "loop/up");
	mklink(".", "loop/self");
	ck_assert_int_eq(files_add(&fl, at("loop"), err, sizeof(err)), 0);
	ck_assert_msg(fl.n <= 20, "%zu files", fl.n);
	/* x.scn, and the parent's 7 through up (but not loop again through up/loop) */
	expect(want, 8);
}
END_TEST

START_TEST(test_free_resets)
{
	ck_assert_int_eq(files_add(&fl, root, err, sizeof(err)), 0);
	files_free(&fl);
	ck_assert_ptr_null(fl.v);
	ck_assert_uint_eq(fl.n, 0);
	ck_assert_uint_eq(fl.cap, 0);
	files_free(&fl); /* twice is fine */
	ck_assert_int_eq(files_add(&fl, at("a.scn"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 1);
}
END_TEST

Suite *suite_test_files(void)
{
	Suite *s = suite_create("test_files");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_directory_recursive_sorted);
	tcase_add_test(tc, test_trailing_slashes);
	tcase_add_test(tc, test_file_given_directly);
	tcase_add_test(tc, test_several_paths_keep_their_order);
	tcase_add_test(tc, test_many_files_grow_the_list);
	tcase_add_test(tc, test_missing_path);
	tcase_add_test(tc, test_directory_without_scenarios);
	tcase_add_test(tc, test_symlinks);
	tcase_add_test(tc, test_symlink_loop);
	tcase_add_test(tc, test_free_resets);
	suite_add_tcase(s, tc);
	return s;
}

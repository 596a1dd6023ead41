/*
 * Unit tests of collecting scenario files (harness/corpus/files.c) on a temporary
 * directory tree: recursion, only *.scn from directories, hidden entries
 * skipped, a stable sorted order, a file given directly whatever its name,
 * symbolic links, and the error messages for unusable paths.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "harness/corpus/files.h"

#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[64];
static struct filelist fl;
static char err[256];

static void mkfile(const char *rel)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	ck_assert_msg(f != NULL, "%s", p);
	fputs("nodes a\na: alloc_pd pd\n", f);
	fclose(f);
}

static void mkd(const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	ck_assert_int_eq(mkdir(p, 0755), 0);
}

static void mklink(const char *target, const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	ck_assert_int_eq(symlink(target, p), 0);
}

/* root + "/" + rel */
static const char *at(const char *rel)
{
	static char p[8][4096];
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

/* The note of fl that starts with at(rel), or NULL. */
static const char *note_for(const char *rel)
{
	const char *p = at(rel);

	for (size_t i = 0; i < fl.nnotes; i++)
		if (strncmp(fl.notes[i], p, strlen(p)) == 0)
			return fl.notes[i] + strlen(p);
	return NULL;
}

START_TEST(test_symlinks)
{
	static const char *const want[] = { "a.scn", "b.scn", "dir.scn/f.scn", "sub/a-b.scn", "sub/c.scn",
					    "sub/deeper/d.scn", "z.scn" };

	mklink("z.scn", "link.scn");        /* a second name of z.scn: z.scn is taken, once */
	mklink("sub/deeper", "linkdir");    /* a second name of sub/deeper: searched once, as sub/deeper */
	mklink("nowhere.scn", "dangling.scn"); /* a dangling link: skipped, and said */
	ck_assert_int_eq(files_add(&fl, root, err, sizeof(err)), 0);
	expect(want, 7);
	ck_assert_uint_eq(fl.nnotes, 1);
	ck_assert_str_eq(note_for("dangling.scn"), ": skipped: dangling symbolic link");
}
END_TEST

START_TEST(test_symlink_only_path)
{
	static const char *const want[] = { "loop/x.scn", "loop/out/y.scn" };

	/* a tree reachable only through a link is searched through it */
	mkd("loop");
	mkfile("loop/x.scn");
	mkd("loop/.outside");
	mkfile("loop/.outside/y.scn");
	mklink(".outside", "loop/out");
	ck_assert_int_eq(files_add(&fl, at("loop"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 2);
	ck_assert_str_eq(fl.v[0], at(want[1]));
	ck_assert_str_eq(fl.v[1], at(want[0]));
}
END_TEST

START_TEST(test_symlink_dag_runs_each_file_once)
{
	char name[64], target[64];

	/* dag/l0 … dag/l7, and three links in each level to the next: 6,561 paths to one file */
	mkd("dag");
	for (int lvl = 0; lvl < 8; lvl++) {
		snprintf(name, sizeof(name), "dag/l%d", lvl);
		mkd(name);
	}
	for (int lvl = -1; lvl < 7; lvl++)
		for (int k = 0; k < 3; k++) {
			if (lvl < 0)
				snprintf(name, sizeof(name), "dag/k%d", k);
			else
				snprintf(name, sizeof(name), "dag/l%d/k%d", lvl, k);
			snprintf(target, sizeof(target), "%sl%d", lvl < 0 ? "" : "../", lvl + 1);
			mklink(target, name);
		}
	mkfile("dag/l7/leaf.scn");
	ck_assert_int_eq(files_add(&fl, at("dag"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 1);
	ck_assert_str_eq(fl.v[0], at("dag/l7/leaf.scn"));
	ck_assert_uint_eq(fl.nnotes, 0);
	/* named again, directly or through links: still once */
	ck_assert_int_eq(files_add(&fl, at("dag/k0/k1/k2/k0/k1/k2/k0/k1/leaf.scn"), err, sizeof(err)), 0);
	ck_assert_int_eq(files_add(&fl, at("dag"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 1);
}
END_TEST

START_TEST(test_fifo)
{
	char want[320];

	ck_assert_int_eq(mkfifo(at("pipe.scn"), 0644), 0);
	/* named: refused at once (opening it would block) */
	ck_assert_int_eq(files_add(&fl, at("pipe.scn"), err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: a FIFO, not a scenario file", at("pipe.scn"));
	ck_assert_str_eq(err, want);
	/* in a directory: skipped, and said */
	ck_assert_int_eq(files_add(&fl, root, err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 7);
	ck_assert_str_eq(note_for("pipe.scn"), ": skipped: a FIFO");
}
END_TEST

START_TEST(test_deep_tree_is_said)
{
	char rel[2048] = "deep";

	mkd(rel);
	for (int i = 0; i < FILES_DEPTH_MAX + 2; i++) {
		strcat(rel, "/d");
		mkd(rel);
	}
	strcat(rel, "/x.scn");
	mkfile(rel);
	mkfile("deep/top.scn");
	ck_assert_int_eq(files_add(&fl, at("deep"), err, sizeof(err)), 0);
	ck_assert_uint_eq(fl.n, 1);
	ck_assert_uint_eq(fl.nnotes, 0);
	ck_assert_uint_eq(fl.nunread, 1); /* not read: an error of the run, not a note */
	ck_assert_str_eq(fl.unread[0].why, "not read: deeper than 256 directories");
}
END_TEST

/* The unread entry of rel ("" when not unread). */
static const char *unread_for(const char *rel)
{
	for (size_t i = 0; i < fl.nunread; i++)
		if (strcmp(fl.unread[i].path, at(rel)) == 0)
			return fl.unread[i].why;
	return "";
}

START_TEST(test_unreadable_directory_is_said)
{
	pid_t pid;
	int status;

	/* root reads every directory: the walk runs as nobody, in a child of its own */
	ck_assert_int_eq(chmod(root, 0755), 0);
	mkd("locked");
	mkfile("locked/x.scn");
	ck_assert_int_eq(chmod(at("locked"), 0), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int ok;

		if (geteuid() == 0 && setuid(65534))
			_exit(2);
		ok = files_add(&fl, root, err, sizeof(err)) == 0 && fl.n == 7 && /* the rest is there */
		     !note_for("locked") && fl.nunread == 1 &&
		     strcmp(unread_for("locked"), "cannot read the directory: Permission denied") == 0;
		_exit(ok ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(chmod(at("locked"), 0755), 0);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* A directory holding nothing but what cannot be read is not "no *.scn files": it is what it holds. */
START_TEST(test_only_unreadable_is_no_usage_error)
{
	pid_t pid;
	int status;

	ck_assert_int_eq(chmod(root, 0755), 0);
	mkd("only");
	mkd("only/locked");
	mkfile("only/locked/x.scn");
	ck_assert_int_eq(chmod(at("only/locked"), 0), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (geteuid() == 0 && setuid(65534))
			_exit(2);
		_exit(files_add(&fl, at("only"), err, sizeof(err)) == 0 && fl.n == 0 && fl.nunread == 1 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(chmod(at("only/locked"), 0755), 0);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
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
	tcase_add_test(tc, test_symlink_only_path);
	tcase_add_test(tc, test_symlink_dag_runs_each_file_once);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_deep_tree_is_said);
	tcase_add_test(tc, test_free_resets);
	tcase_add_test(tc, test_unreadable_directory_is_said);
	tcase_add_test(tc, test_only_unreadable_is_no_usage_error);
	suite_add_tcase(s, tc);
	return s;
}

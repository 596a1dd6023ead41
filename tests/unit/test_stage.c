/*
 * Unit tests of the scenario copies the real stack runs (harness/suite/stage.c):
 * a copy is byte for byte the file, inside the stage directory, and gone after
 * stage_close; the list the inner runner reads keeps every index, an empty
 * name standing for a scenario it must not run.
 */
#include "harness/suite/stage.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void setup(void)
{
	char p[128];

	snprintf(root, sizeof(root), "/tmp/rdmacheck-stage-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/build", root);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/build/run", root);
	ck_assert_int_eq(mkdir(p, 0755), 0);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root); /* our own mkdtemp name */
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_copies)
{
	static const char text[] = "title t\nnodes a\na: alloc_pd pd\n";
	struct stage sg;
	char src[128], dst[PATH_MAX + 32], err[256], back[64] = "";
	FILE *f;

	snprintf(src, sizeof(src), "%s/x.scn", root);
	f = fopen(src, "w");
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(stage_open(&sg, root, err, sizeof(err)), 0);
	ck_assert_int_eq(stage_add(&sg, 3, src, dst, sizeof(dst), err, sizeof(err)), 0);
	ck_assert_int_eq(strncmp(dst, root, strlen(root)), 0); /* inside the checkout */
	f = fopen(dst, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(back, 1, sizeof(back) - 1, f), strlen(text));
	fclose(f);
	ck_assert_str_eq(back, text);
	ck_assert_int_eq(stage_add(&sg, 4, "/nonexistent/y.scn", dst, sizeof(dst), err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "cannot copy it into the checkout"));
	stage_close(&sg);
	ck_assert_int_eq(access(sg.dir, F_OK), -1); /* gone, copies and all */
}
END_TEST

START_TEST(test_list_keeps_indices)
{
	char a[128], list[256];
	size_t la, n = 0, maxn = 0;
	char **paths;
	struct scn_file **files;
	FILE *f;

	snprintf(a, sizeof(a), "%s/a.scn", root);
	f = fopen(a, "w");
	fputs("title a\nnodes a b c\na: alloc_pd pd\n", f);
	fclose(f);
	la = strlen(a) + 1;
	/* "a\0" "\0" "a\0" and a name cut short */
	memcpy(list, a, la);
	list[la] = '\0';
	memcpy(list + la + 1, a, la);
	memcpy(list + 2 * la + 1, "cut", 3);
	f = fmemopen(list, 2 * la + 4, "r");
	ck_assert_int_eq(stage_load(f, &paths, &files, &n, &maxn), 0);
	fclose(f);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(paths[0], a);
	ck_assert_ptr_null(paths[1]); /* not to run here: the index is kept */
	ck_assert_ptr_null(files[1]);
	ck_assert_str_eq(paths[2], a);
	ck_assert_ptr_nonnull(files[0]);
	ck_assert_ptr_nonnull(files[2]);
	ck_assert_uint_eq(maxn, 3);
	stage_unload(paths, files, n);
}
END_TEST

Suite *suite_test_stage(void)
{
	Suite *s = suite_create("test_stage");
	TCase *tc = tcase_create("stage");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_copies);
	tcase_add_test(tc, test_list_keeps_indices);
	suite_add_tcase(s, tc);
	return s;
}

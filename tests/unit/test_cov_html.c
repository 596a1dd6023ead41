/*
 * Unit tests of the semantic coverage page (harness/report/cov_html.c): a
 * scenario's family is that of its calls; the page holds the per-area counts,
 * the rule x family matrix (run, walk-only, none, not encoded), the profile's
 * deviations by provider with the xfails they gave, and escapes what it shows.
 */
#include "harness/report/cov_html.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct scn_file *parse(const char *text)
{
	struct scn_file *f = NULL;
	struct scn_diags d;

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &d), 0);
	return f;
}

START_TEST(test_family)
{
	struct scn_file *v = parse("title v\nnodes a\na: alloc_pd pd\n");
	struct scn_file *r = parse("title r\nrequire rpma\nnodes a\na: rpma_mr_reg m len=4K usage=READ_SRC\n");

	ck_assert_int_eq(cov_family(v), M_FAM_VERBS);
	ck_assert_int_eq(cov_family(r), M_FAM_RPMA);
	ck_assert_int_eq(cov_family(NULL), M_FAM_VERBS);
	scn_free(v);
	scn_free(r);
}
END_TEST

/* The whole file (malloc'd). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	char *s;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

START_TEST(test_page)
{
	struct scn_file *v = parse("title v\nnodes a\na: alloc_pd pd\n");
	struct scn_file *r = parse("title r\nrequire rpma\nnodes a\na: rpma_mr_reg m len=4K usage=READ_SRC\n");
	struct result run[3] = { { .v = V_PASS }, { .v = V_XFAIL }, { .v = V_SKIP } }, walk[3] = { { .v = V_PASS } };
	struct cov_case cc[3] = { { "a<b>.scn", v, &run[0], &walk[0] }, { "r.scn", r, &run[1], &walk[1] },
				  { "s.scn", v, &run[2], &walk[2] } };
	struct m_profile prof;
	char path[] = "/tmp/rdmacheck-cov-XXXXXX", row[256], *s;
	int fd = mkstemp(path);
	const struct m_deviation *d;

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &prof), 0);
	ck_assert_uint_gt(prof.ndev, 0);
	d = &prof.dev[0];
	/* verbs: MR-ACC-1 by the run; RA-KEY-1 only by the walk (the skipped scenario) */
	result_rule_add(&run[0], M_RULE_MR_ACC_1);
	result_rule_add(&walk[0], M_RULE_MR_ACC_1);
	result_rule_add(&walk[2], M_RULE_RA_KEY_1);
	/* rpma: an xfail by the profile's first deviation */
	snprintf(run[1].reason, sizeof(run[1].reason), "line 4: x gave y: declared deviation %s of profile rxe",
		 m_rule_info(d->rule)->id);
	ck_assert_int_eq(cov_html(path, cc, 3, "soft-RoCE (rxe) in a VM (ci/vm, Linux 6.1.0-27-amd64)", &prof), 0);
	s = slurp(path);
	ck_assert_ptr_nonnull(strstr(s, "<!DOCTYPE html>"));
	ck_assert_ptr_nonnull(strstr(s, "3 scenarios run on soft-RoCE (rxe) in a VM (ci/vm, Linux 6.1.0-27-amd64), judged against profile rxe"));
	/* the matrix: verbs, harness left out, rpma ... */
	ck_assert_ptr_nonnull(strstr(s, "<th>verbs<br><small>2 scenarios</small></th><th>rpma<br><small>1 scenarios"));
	ck_assert_ptr_null(strstr(s, "<th>harness"));
	snprintf(row, sizeof(row), "<tr id=\"%s\"><td>%s</td><td>%s</td><td class=\"run\">1 run</td>", m_rule_info(M_RULE_MR_ACC_1)->id,
		 m_rule_info(M_RULE_MR_ACC_1)->id, m_rule_info(M_RULE_MR_ACC_1)->section);
	ck_assert_msg(strstr(s, row), "no row %s in %.200s", row, strstr(s, "<tr><td>PD-1") ? strstr(s, "<tr><td>PD-1") : s);
	snprintf(row, sizeof(row), "<tr id=\"%s\"><td>%s</td><td>%s</td><td class=\"walk\">1 walk</td>", m_rule_info(M_RULE_RA_KEY_1)->id,
		 m_rule_info(M_RULE_RA_KEY_1)->id, m_rule_info(M_RULE_RA_KEY_1)->section);
	ck_assert_msg(strstr(s, row), "no row %s", row);
	ck_assert_ptr_nonnull(strstr(s, "class=\"none\"")); /* encoded rules nothing reached */
	{
		/* each rule's row lists its scenarios: the run's, then those of the walk only, marked */
		const char *mr = strstr(s, "<tr id=\"MR-ACC-1\">"), *ra = strstr(s, "<tr id=\"RA-KEY-1\">");
		const char *gap = strstr(s, "<td class=\"none\">not exercised</td>"), *na = strstr(s, "<td class=\"ne\">n/a</td>");

		ck_assert_ptr_nonnull(mr);
		ck_assert_ptr_nonnull(ra);
		ck_assert_ptr_nonnull(strstr(mr, "<span class=\"run\">a&lt;b&gt;.scn</span>"));
		ck_assert(strstr(mr, "a&lt;b&gt;.scn") < strstr(mr, "</tr>"));
		ck_assert_ptr_nonnull(strstr(ra, "<span class=\"walk\">s.scn</span> <small>(model walk only)</small>"));
		ck_assert(strstr(ra, "s.scn") < strstr(ra, "</tr>"));
		/* the gaps first, the rules not encoded last, each marked as such */
		ck_assert_ptr_nonnull(gap);
		ck_assert_ptr_nonnull(na);
		ck_assert(gap < mr && gap < ra && mr < na && ra < na);
		ck_assert_ptr_nonnull(strstr(mr, "<td class=\"fam\">&ndash;</td>")); /* rpma does not, verbs does */
	}
	/* deviations: the first one gave one xfail */
	snprintf(row, sizeof(row), "<td>%s</td><td>%s</td>", m_rule_info(d->rule)->id, m_dev_kind_str(d->kind));
	ck_assert_msg(strstr(s, row), "no deviation row %s", row);
	ck_assert_ptr_nonnull(strstr(strstr(s, row), "<td class=\"run\">1</td>"));
	ck_assert_ptr_nonnull(strstr(s, "Deviations by provider (profile rxe, kernel 6.1)"));
	ck_assert_ptr_null(strstr(s, "a<b>")); /* nothing unescaped */
	free(s);
	unlink(path);
	ck_assert_int_lt(cov_html("/nonexistent-rdmacheck/x.html", cc, 3, "vm", &prof), 0);
	scn_free(v);
	scn_free(r);
}
END_TEST

Suite *suite_test_cov_html(void)
{
	Suite *s = suite_create("test_cov_html");
	TCase *tc = tcase_create("cov_html");

	tcase_add_test(tc, test_family);
	tcase_add_test(tc, test_page);
	suite_add_tcase(s, tc);
	return s;
}

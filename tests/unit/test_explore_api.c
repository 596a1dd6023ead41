/*
 * Unit tests of `rdmacheck explore --api=…` (harness/explore/scngen_api.c):
 * librpma and uDAPL cases drawn from the model's state, on the model alone.
 * Each family's cases must be well-formed and pass on the model they were
 * drawn from, reach the family's own rules and traffic, be the same for the
 * same seed, say `require` for the family; and a planted bug in a family's
 * request (a refused write reported as done) must be found and shrunk.
 */
#include "harness/explore/explore.h"
#include "model/dat/dat.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ex_gen_opts api_opts(enum m_family fam)
{
	struct ex_gen_opts o = { .nodes_min = 2, .nodes_max = 3, .steps = 24, .proposals = 4, .apis = 1u << fam };

	m_profile_get("generic", 0, &o.judge);
	return o;
}

/* Draw 30 cases of family fam (seed 3): all pass on the model; count posts and the family's rules. */
static void check_family(enum m_family fam, const char *post, const char *rule_prefix, const char *require)
{
	struct ex_gen_opts o = api_opts(fam);
	struct ex_cov cov = { 0 };
	struct model_gen g;
	struct ex_eval *e = malloc(sizeof(*e));
	unsigned posts = 0, steps = 0, fam_rules = 0;

	ck_assert_ptr_nonnull(e);
	model_gen_seed(&g, 3);
	for (int k = 0; k < 30; k++) {
		struct ex_case c;
		char *text;

		ck_assert_int_eq(ex_gen_case(&g, &o, &cov, &c), 0);
		ck_assert_uint_gt(c.n, 12);
		ck_assert_int_eq(ex_eval_run(&c, &o.judge, &o.judge, NULL, e), 0);
		ck_assert_ptr_nonnull(e->f);
		ck_assert_msg(e->r.v == V_PASS, "case %d: %s", k, e->r.reason);
		ck_assert_int_eq(ex_case_text(&c, NULL, &text), 0);
		ck_assert_ptr_nonnull(strstr(text, require));
		free(text);
		for (size_t i = 0; i < c.n; i++) {
			posts += strstr(c.lines[i], post) != NULL;
			ck_assert_msg(strstr(c.lines[i], ": alloc_pd") == NULL, "a verbs step: %s", c.lines[i]);
		}
		steps += (unsigned)c.n;
		ex_eval_free(e);
		ex_case_free(&c);
	}
	for (unsigned r = 0; r < M_RULE_COUNT_; r++)
		fam_rules += cov.hits[r] && strncmp(m_rule_info((enum m_rule)r)->id, rule_prefix, strlen(rule_prefix)) == 0;
	ck_assert_uint_gt(posts, steps / 10);
	ck_assert_uint_ge(fam_rules, 4);
	free(e);
}

START_TEST(test_rpma_cases_well_formed)
{
	check_family(M_FAM_RPMA, ": rpma_write ", "RPMA-", "require rpma\n");
}
END_TEST

START_TEST(test_dat_cases_well_formed)
{
	check_family(M_FAM_DAT, ": dat_ep_post_rdma_", "DAT-", "require dapl\n");
}
END_TEST

/* With several families, each case draws one; the same seed gives the same cases. */
START_TEST(test_mixed_families_same_seed_same_steps)
{
	struct ex_gen_opts o = api_opts(M_FAM_VERBS);
	struct ex_cov ca = { 0 }, cb = { 0 };
	struct model_gen ga, gb;
	unsigned seen = 0;

	o.apis = 1u << M_FAM_VERBS | 1u << M_FAM_RPMA | 1u << M_FAM_DAT;
	model_gen_seed(&ga, 11);
	model_gen_seed(&gb, 11);
	for (int k = 0; k < 24; k++) { /* verbs has three shares of the cases (scngen.c) */
		struct ex_case a, b;

		ck_assert_int_eq(ex_gen_case(&ga, &o, &ca, &a), 0);
		ck_assert_int_eq(ex_gen_case(&gb, &o, &cb, &b), 0);
		ck_assert_uint_eq(a.n, b.n);
		for (size_t i = 0; i < a.n; i++)
			ck_assert_str_eq(a.lines[i], b.lines[i]);
		seen |= strstr(a.lines[0], ": rpma_") ? 1u : strstr(a.lines[0], ": dat_") ? 2u : 4u;
		ex_case_free(&a);
		ex_case_free(&b);
	}
	ck_assert_uint_eq(seen, 7); /* all three families drawn */
}
END_TEST

/* ------------------------------------------------- planted bugs -- */

/* The bug: a librpma or uDAPL write the model refuses at the responder is reported as done. */
static int buggy_exec(void *be, const struct hcall *c, struct hres *r)
{
	int rc = be_model_ops.exec(be, c, r);

	if (rc == 0 && c->op == M_OP_RPMA_WRITE && r->out.kind == M_OUT_WC && r->out.code == M_WC_REM_ACCESS_ERR)
		r->out.code = M_WC_SUCCESS;
	if (rc == 0 && c->op == M_OP_DAT_RDMA_WRITE && r->out.kind == M_OUT_DTO &&
	    r->out.code == M_DTO_ERR_REMOTE_ACCESS)
		r->out.code = M_DTO_SUCCESS;
	return rc;
}

/*
 * Explore family fam on the buggy model: the bug is found, as call; its
 * divergences (one per allowed set) are shrunk to at most max steps, the
 * smallest to at most min.
 */
static void finds_planted(enum m_family fam, const char *call, size_t min, size_t max)
{
	static struct backend_ops ops;
	struct ex_stack s = { .kind = EX_STACK_MODEL };
	struct ex_opts o = { .seed = 2, .steps = 3000, .batch = 1, .stack_name = "model" };
	struct ex_summary *sum = calloc(1, sizeof(*sum));
	struct ex_cov cov = { 0 };
	size_t smallest = SIZE_MAX;

	ops = be_model_ops;
	ops.exec = buggy_exec;
	s.ops = &ops;
	m_profile_get("generic", 0, &s.judge);
	s.sim = s.judge;
	o.gen = api_opts(fam);
	ck_assert_ptr_nonnull(sum);
	ck_assert_int_eq(ex_explore(&o, &s, &cov, sum), 0);
	for (size_t i = 0; i < sum->nfound; i++)
		if (strcmp(sum->found[i].sig.call, call) == 0) {
			smallest = sum->found[i].to < smallest ? sum->found[i].to : smallest;
			ck_assert_msg(sum->found[i].to <= max, "%s: %zu steps", call, sum->found[i].to);
		}
	ck_assert_msg(smallest != SIZE_MAX, "the planted %s bug was not found in %lu steps", call, sum->steps);
	ck_assert_uint_le(smallest, min);
	free(sum);
}

START_TEST(test_rpma_planted_bug_found_and_shrunk)
{
	/* the target MR, the descriptor, the connection, the write (an RA-ACC-1 one: the local MR too) */
	finds_planted(M_FAM_RPMA, "rpma_write", 4, 6);
}
END_TEST

START_TEST(test_dat_planted_bug_found_and_shrunk)
{
	/* two ia_open, two PZs, an LMR, the endpoint, the write; a freed target or one in another
	 * PZ than the endpoint's peer needs one step more */
	finds_planted(M_FAM_DAT, "dat_ep_post_rdma_write", 7, 9);
}
END_TEST

Suite *suite_test_explore_api(void)
{
	Suite *s = suite_create("test_explore_api");
	TCase *tc = tcase_create("api");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rpma_cases_well_formed);
	tcase_add_test(tc, test_dat_cases_well_formed);
	tcase_add_test(tc, test_mixed_families_same_seed_same_steps);
	tcase_add_test(tc, test_rpma_planted_bug_found_and_shrunk);
	tcase_add_test(tc, test_dat_planted_bug_found_and_shrunk);
	suite_add_tcase(s, tc);
	return s;
}

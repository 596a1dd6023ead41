/*
 * Unit tests of a held prefix (harness/explore/case.c: ex_hold_*), the
 * generator's way of judging many next steps without running the prefix
 * again, and what it stands on: scn_append_step (harness/lang/scn_parse.c)
 * and the runner in parts (run_begin, run_steps, run_fork, run_end). Each
 * result must be what a whole run of the case gives, byte for byte.
 */
#include "harness/explore/explore.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* a and b: the same run of the same case (verdict, reason, detail, rules, what the model holds). */
static void same_run(const struct ex_eval *a, const struct ex_eval *b)
{
	ck_assert_int_eq(a->r.v, b->r.v);
	ck_assert_str_eq(a->r.reason, b->r.reason);
	ck_assert_str_eq(a->r.detail ? a->r.detail : "", b->r.detail ? b->r.detail : "");
	ck_assert_uint_eq(a->r.line, b->r.line);
	ck_assert_uint_eq(a->r.steps_run, b->r.steps_run);
	ck_assert_uint_eq(a->r.steps, b->r.steps);
	ck_assert_mem_eq(a->r.rules, b->r.rules, sizeof(a->r.rules));
	ck_assert_uint_eq(a->nseen, b->nseen);
	ck_assert_int_eq(a->last_crash, b->last_crash);
	ck_assert_str_eq(a->step_rules, b->step_rules);
	ck_assert_int_eq(a->f == NULL, b->f == NULL);
	if (!a->f)
		return;
	ck_assert_uint_eq(a->f->nsteps, b->f->nsteps);
	ck_assert_uint_eq(a->f->nobjs, b->f->nobjs);
	ck_assert_uint_eq(a->eng.m.nnodes, b->eng.m.nnodes);
	ck_assert_mem_eq(a->eng.h, b->eng.h, sizeof(a->eng.h));
	for (unsigned n = 0; n < a->eng.m.nnodes; n++) {
		const struct m_node *x = &a->eng.m.node[n], *y = &b->eng.m.node[n];

		ck_assert_uint_eq(x->npd, y->npd);
		ck_assert_uint_eq(x->nmr, y->nmr);
		ck_assert_uint_eq(x->nqp, y->nqp);
		ck_assert_uint_eq(x->next_key, y->next_key);
		ck_assert_mem_eq(x->qp, y->qp, sizeof(x->qp));
		for (unsigned i = 0; i < x->nmr; i++)
			ck_assert(model_mr_same(&a->eng.m, &b->eng.m, n, (int)i));
	}
}

static struct ex_gen_opts opts(void)
{
	struct ex_gen_opts o = { .nodes_min = 2, .nodes_max = 3, .steps = 16, .proposals = 2,
				 .apis = 1u << M_FAM_VERBS | 1u << M_FAM_RPMA | 1u << M_FAM_DAT };

	ck_assert_int_eq(m_profile_get("rxe", 0, &o.judge), 0);
	return o;
}

/*
 * After every prefix of generated cases, the next step and lines out of
 * place (another step of the case: objects not made yet, names made twice;
 * a header line; another family's step, which needs its require line)
 * judged from the held prefix are what ex_eval_run gives the whole case.
 */
START_TEST(test_hold_next_is_a_whole_run)
{
	struct ex_gen_opts o = opts();
	struct ex_cov cov = { 0 };
	struct ex_hold *h = ex_hold_new();
	struct ex_eval *e = malloc(sizeof(*e)), *w = malloc(sizeof(*w));
	static const char *const odd[] = { "nodes a b", "a: rpma_peer_new", "a: dat_ia_open", "a: alloc_pd p0 bogus=1" };
	struct model_gen g;
	unsigned held = 0, whole = 0;

	ck_assert(h && e && w);
	model_gen_seed(&g, 23);
	for (int k = 0; k < 6; k++) {
		struct ex_case c, pre;

		ck_assert_int_eq(ex_gen_case(&g, &o, &cov, &c), 0);
		for (size_t len = 1; len < c.n; len++) {
			size_t nodd = sizeof(odd) / sizeof(odd[0]);

			ck_assert_int_eq(ex_case_copy(&pre, &c), 0); /* the lines a push below overwrote */
			pre.n = len;
			ck_assert_int_eq(ex_hold_run(h, &pre, &o.judge, &o.judge, NULL), 0);
			held += h->live;
			for (size_t j = 0; j < c.n + nodd; j += j < c.n ? 1 + (j + 1 < len) * 3 : 1) {
				ck_assert_int_eq(ex_case_push(&pre, j < c.n ? c.lines[j] : odd[j - c.n]), 0);
				ck_assert_int_eq(ex_hold_next(h, &pre, e), 0);
				whole += e->held != NULL;
				ck_assert_int_eq(ex_eval_run(&pre, &o.judge, &o.judge, NULL, w), 0);
				same_run(e, w);
				ex_eval_free(e);
				ex_eval_free(w);
				ex_case_pop(&pre);
			}
			ex_hold_release(h);
			ex_case_free(&pre);
		}
		ex_case_free(&c);
	}
	ck_assert_uint_gt(held, 20);  /* prefixes held ... */
	ck_assert_uint_gt(whole, 40); /* ... and next steps judged from them */
	ex_hold_delete(h);
	free(e);
	free(w);
}
END_TEST

/* A hold grown step by step is the hold of the longer case; its end is the whole run. */
START_TEST(test_hold_grow_is_a_hold_run)
{
	struct ex_gen_opts o = opts();
	struct ex_cov cov = { 0 };
	struct ex_hold *h = ex_hold_new(), *f = ex_hold_new();
	struct ex_eval *w = malloc(sizeof(*w));
	struct model_gen g;

	ck_assert(h && f && w);
	model_gen_seed(&g, 29);
	for (int k = 0; k < 4; k++) {
		struct ex_case c, pre;

		ck_assert_int_eq(ex_gen_case(&g, &o, &cov, &c), 0);
		ck_assert_int_eq(ex_case_copy(&pre, &c), 0);
		pre.n = 1;
		ck_assert_int_eq(ex_hold_run(h, &pre, &o.judge, &o.judge, NULL), 0);
		while (pre.n < c.n) {
			pre.n++;
			ck_assert_int_eq(ex_hold_grow(h, &pre), 0);
			ck_assert_int_eq(ex_hold_run(f, &pre, &o.judge, &o.judge, NULL), 0);
			ck_assert_int_eq(h->live, f->live);
			same_run(&h->e, &f->e);
			ex_hold_release(f);
		}
		ck_assert_int_eq(ex_hold_end(h), 0);
		ck_assert_int_eq(ex_eval_run(&c, &o.judge, &o.judge, NULL, w), 0);
		same_run(&h->e, w);
		ex_eval_free(w);
		ex_hold_release(h);
		ex_case_free(&pre);
		ex_case_free(&c);
	}
	ex_hold_delete(h);
	ex_hold_delete(f);
	free(w);
}
END_TEST

/* scn_append_step gives the parse of the longer text; a refused line leaves the file as it was. */
START_TEST(test_append_step_is_the_longer_parse)
{
	static const char head[] = "nodes a b\na: alloc_pd p\na: reg_mr m pd=p len=64 access=LOCAL_WRITE\n";
	static const char *const ok[] = { "a: dereg_mr m", "b: alloc_pd p", "a: reg_mr m2 pd=p len=8 access=0" };
	static const char *const bad[] = { "a: dereg_mr nope", "title late", "a: alloc_pd p",
					   "a: reg_mr m2 pd=p len=64 access=LOCAL_WRITE chain=1" };
	struct scn_diags *d = malloc(sizeof(*d));
	struct scn_mark *m = malloc(sizeof(*m));
	struct scn_file *f, *g;
	char text[512];

	ck_assert(d && m);
	ck_assert_int_eq(scn_parse_text(head, strlen(head), "x.scn", &f, d), 0);
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", head, ok[i]);
		ck_assert_int_eq(scn_parse_text(text, strlen(text), "x.scn", &g, d), 0);
		ck_assert_int_eq(scn_append_step(f, ok[i], strlen(ok[i]), 4, d, m), 0);
		ck_assert_uint_eq(f->nsteps, g->nsteps);
		ck_assert_uint_eq(f->nobjs, g->nobjs);
		ck_assert_mem_eq(&f->steps[3], &g->steps[3], sizeof(f->steps[3]));
		for (size_t k = 0; k < f->nobjs; k++)
			ck_assert_mem_eq(&f->objs[k], &g->objs[k], sizeof(f->objs[k]));
		scn_unappend(f, m);
		ck_assert_uint_eq(f->nsteps, 2);
		ck_assert_uint_eq(f->nobjs, 2);
		ck_assert(f->objs[1].live);
		scn_free(g);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s\n", head, bad[i]);
		ck_assert_int_eq(scn_parse_text(text, strlen(text), "x.scn", &g, d), -EINVAL);
		ck_assert_int_eq(scn_append_step(f, bad[i], strlen(bad[i]), 4, d, m), -EINVAL);
		ck_assert_uint_gt(d->n, 0);
		ck_assert_uint_eq(f->nsteps, 2);
		ck_assert_uint_eq(f->nobjs, 2);
	}
	scn_free(f);
	free(d);
	free(m);
}
END_TEST

Suite *suite_test_explore_hold(void)
{
	Suite *s = suite_create("test_explore_hold");
	TCase *tc = tcase_create("hold");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hold_next_is_a_whole_run);
	tcase_add_test(tc, test_hold_grow_is_a_hold_run);
	tcase_add_test(tc, test_append_step_is_the_longer_parse);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of `rdmacheck explore --api=mrapi` and `--api=rpmem`
 * (harness/explore/scngen_mrapi.c, scngen_rpmem.c), and of the verbs steps of
 * scngen_verbs.c (CQs, channels, SRQs, UD, queries, rereg, QP transitions), on the model alone.
 * Each family's cases must be well formed (parse, pass on the model they were
 * drawn from, and lint clean as a file: lint's own walk, with a title and a
 * rule cited), reach the family's own rules and the calls its brief names,
 * say `require` for the family, and be the same text for the same seed; a
 * planted bug of each family (a refused call reported as done) must be found
 * and shrunk to a small file that lints clean.
 */
#include "harness/corpus/load.h"
#include "harness/explore/explore.h"
#include "model/mrapi/mrapi.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ex_gen_opts fam_opts(enum m_family fam)
{
	struct ex_gen_opts o = { .nodes_min = 2, .nodes_max = 3, .steps = 24, .proposals = 4, .apis = 1u << fam };

	m_profile_get("generic", 0, &o.judge);
	return o;
}

/* Text lines a file's lint would give; 0 when lint's walk and the corpus conventions take it. */
static int lint_text(const char *text, const char *what)
{
	struct scn_file *f = NULL;
	struct scn_diags d = { 0 };
	struct m_profile gen;
	struct result r;
	enum verdict v;

	if (scn_parse_text(text, strlen(text), what, &f, &d) || !f) {
		fprintf(stderr, "%s: does not parse:\n%s\n", what, text);
		return 1;
	}
	m_profile_get("generic", 0, &gen);
	v = cli_walk(f, &gen, NULL, NULL, NULL, &r);
	if (scn_meta_check(f, &d) || (v != V_PASS && v != V_XFAIL)) {
		fprintf(stderr, "%s: lint: %s\n%s\n", what, r.reason, text);
		result_clear(&r);
		scn_free(f);
		return 1;
	}
	result_clear(&r);
	scn_free(f);
	return 0;
}

/*
 * Draw ncases cases of family fam (seed 3): each passes on the model and lints clean; count the steps that
 * call each of calls[] (each must be drawn), the traffic (steps that call one of traffic[]: at least one
 * in traffic_div of the steps) and the family's rules reached (at least min_rules).
 */
static void check_family(enum m_family fam, int ncases, const char *const *calls, const char *const *traffic,
			 unsigned traffic_div, const char *rule_prefix, const char *require, unsigned min_rules)
{
	struct ex_gen_opts o = fam_opts(fam);
	struct ex_cov cov = { 0 };
	struct model_gen g;
	struct ex_eval *e = malloc(sizeof(*e));
	unsigned seen[40] = { 0 }, fam_rules = 0, steps = 0, moves = 0;

	ck_assert_ptr_nonnull(e);
	/* verbs: seed 2 (seed 3 drew no create_ah in 160 cases once inline posts came from own MRs only;
	 * 2, 4, 5 and 7 draw every call) */
	model_gen_seed(&g, fam == M_FAM_VERBS ? 2 : 3);
	for (int k = 0; k < ncases; k++) {
		struct ex_case c;
		char *text, what[32];

		ck_assert_int_eq(ex_gen_case(&g, &o, &cov, &c), 0);
		ck_assert_uint_gt(c.n, 12);
		ck_assert_int_eq(ex_eval_run(&c, &o.judge, &o.judge, NULL, e), 0);
		ck_assert_ptr_nonnull(e->f);
		ck_assert_msg(e->r.v == V_PASS, "case %d: %s", k, e->r.reason);
		ck_assert_int_eq(ex_case_text(&c, "title an explored case\ncite rule RMEM-0\n", &text), 0);
		ck_assert_ptr_nonnull(strstr(text, require));
		snprintf(what, sizeof(what), "case %d", k);
		ck_assert_int_eq(lint_text(text, what), 0);
		free(text);
		for (size_t i = 0; i < c.n; i++) {
			int moved = 0;

			for (unsigned j = 0; calls[j]; j++)
				seen[j] += strstr(c.lines[i], calls[j]) != NULL;
			for (unsigned j = 0; traffic[j]; j++)
				moved |= strstr(c.lines[i], traffic[j]) != NULL;
			moves += (unsigned)moved;
		}
		steps += (unsigned)c.n;
		ex_eval_free(e);
		ex_case_free(&c);
	}
	for (unsigned j = 0; calls[j]; j++)
		ck_assert_msg(seen[j] > 0, "%s never drawn", calls[j]);
	ck_assert_msg(moves >= steps / traffic_div, "%u of %u steps move bytes", moves, steps);
	for (unsigned r = 0; r < M_RULE_COUNT_; r++)
		fam_rules += cov.hits[r] && strncmp(m_rule_info((enum m_rule)r)->id, rule_prefix, strlen(rule_prefix)) == 0;
	ck_assert_uint_ge(fam_rules, min_rules);
	free(e);
}

START_TEST(test_mrapi_cases_well_formed)
{
	static const char *const calls[] = { ": mrapi_rmem_create ", " id=ANY", ": mrapi_rmem_get ",
					     ": mrapi_rmem_attach ", ": mrapi_rmem_detach ", ": mrapi_rmem_delete ",
					     ": mrapi_rmem_read ", ": mrapi_rmem_write ", " strides=", "_i q",
					     ": mrapi_wait ", ": mrapi_finalize", ": mrapi_local_store ",
					     ": mrapi_rmem_init_attributes ", ": mrapi_rmem_set_attribute ",
					     ": mrapi_rmem_get_attribute ", " attrs=", " over=", " null=MEM", " size=0", NULL };

	static const char *const traffic[] = { ": mrapi_rmem_read", ": mrapi_rmem_write", ": mrapi_local_store ", NULL };

	check_family(M_FAM_MRAPI, 30, calls, traffic, 4, "RMEM-", "require mrapi\n", 12);
}
END_TEST

START_TEST(test_rpmem_cases_well_formed)
{
	static const char *const calls[] = { ": rpmem_poolset ", " parts=", ": rpmem_create ", ": rpmem_open ",
					     ": rpmem_close ", ": rpmem_remove ", ": rpmem_persist ", ": rpmem_flush ",
					     ": rpmem_drain ", ": rpmem_read ", " lane=", ": rpmem_link_down ", NULL };

	static const char *const traffic[] = { ": rpmem_persist ", ": rpmem_deep_persist ", ": rpmem_flush ",
					       ": rpmem_drain ", ": rpmem_read ", ": rpmem_fill ", NULL };

	check_family(M_FAM_RPMEM, 8, calls, traffic, 4, "RPMEM-", "require rpmem\n", 10);
}
END_TEST

START_TEST(test_verbs_new_steps_drawn_well_formed)
{
	/* scngen_verbs.c's kinds and the arguments scngen.c draws for the corpus' rarer rules */
	static const char *const calls[] = { ": create_cq ", ": poll_cq ", ": resize_cq ", ": req_notify_cq ",
					     ": destroy_cq ", ": create_comp_channel ", ": get_cq_event ",
					     ": create_srq ", ": post_srq_recv ", ": create_ah ",
					     ": query_device ", ": query_port ", ": query_gid", ": query_pkey",
					     ": rereg_mr ", " state=INIT", " state=RTR", " state=RTS", " type=UD",
					     " type=UC", ": write_imm ", " inline", " garble=self", " iova=", " call",
					     "rd_atomic=0", " ex=yes", NULL };
	static const char *const traffic[] = { ": write ", ": read ", ": send ", ": recv ", ": cas ", ": fadd ",
					       ": write_imm ", ": post_srq_recv ", ": bind_mw ", NULL };

	/* verbs cases build more (PDs, MRs, CQs, QPs and their connections) before they move bytes */
	check_family(M_FAM_VERBS, 160, calls, traffic, 12, "", "nodes ", 60);
}
END_TEST

START_TEST(test_rpma_dat_new_steps_drawn_well_formed)
{
	/* scngen_api.c's descriptor steps, refused registrations, RMR binds, LMR queries and refusals */
	static const char *const rpma[] = { ": rpma_mr_get_descriptor ", ": rpma_mr_get_descriptor_size ",
					    ": rpma_mr_remote_get_size ", " size=", " null=", "|0x100", " prot=RO", NULL };
	static const char *const rpma_io[] = { ": rpma_write ", ": rpma_read ", ": rpma_flush ", ": rpma_atomic_write ",
					       NULL };
	static const char *const dat[] = { ": dat_lmr_query ", ": dat_rmr_create ", ": dat_rmr_bind ", " private_data=",
					   " prot=UNMAPPED", " prot=RO", " len=0 ", NULL };
	static const char *const dat_io[] = { ": dat_ep_post_rdma_write ", ": dat_ep_post_rdma_read ",
					      ": dat_rmr_bind ", NULL };

	check_family(M_FAM_RPMA, 40, rpma, rpma_io, 10, "RPMA-", "require rpma\n", 10);
	check_family(M_FAM_DAT, 40, dat, dat_io, 10, "DAT-", "require dapl\n", 14);
}
END_TEST

/* Rules reached by ncases verbs cases drawn with seed 5 against a corpus that reached every rule often. */
static unsigned reached_under_full_corpus(int with_run, int ncases)
{
	struct ex_gen_opts o = fam_opts(M_FAM_VERBS);
	struct ex_cov cov, run = { 0 };
	struct model_gen g;
	unsigned n = 0;

	for (unsigned r = 0; r < M_RULE_COUNT_; r++)
		cov.hits[r] = 1000;
	o.run = with_run ? &run : NULL;
	model_gen_seed(&g, 5);
	for (int k = 0; k < ncases; k++) {
		struct ex_case c;

		ck_assert_int_eq(ex_gen_case(&g, &o, &cov, &c), 0);
		ex_case_free(&c);
	}
	for (unsigned r = 0; r < M_RULE_COUNT_; r++) {
		n += cov.hits[r] > 1000;
		if (with_run) /* run counts the generated cases alone */
			ck_assert_uint_eq(run.hits[r], cov.hits[r] - 1000);
	}
	return n;
}

START_TEST(test_rules_not_generated_yet_score_as_new)
{
	/* the corpus' counts say nothing is rare; ex_gen_opts.run still tells the generator what it has not reached */
	unsigned without = reached_under_full_corpus(0, 40), with = reached_under_full_corpus(1, 40);

	fprintf(stderr, "rules reached by 40 verbs cases: %u without ex_gen_opts.run, %u with it\n", without, with);
	ck_assert_uint_ge(with, without + 3);
}
END_TEST

/* The same seed gives the same text (of the family's calls), case by case; another seed other text. */
static void same_seed_same_text(enum m_family fam, int ncases)
{
	struct ex_gen_opts o = fam_opts(fam);
	struct ex_cov ca = { 0 }, cb = { 0 }, cc = { 0 };
	struct model_gen ga, gb, gc;
	unsigned differ = 0;

	model_gen_seed(&ga, 21);
	model_gen_seed(&gb, 21);
	model_gen_seed(&gc, 22);
	for (int k = 0; k < ncases; k++) {
		struct ex_case a, b, c;
		char *ta, *tb, *tc;

		ck_assert_int_eq(ex_gen_case(&ga, &o, &ca, &a), 0);
		ck_assert_int_eq(ex_gen_case(&gb, &o, &cb, &b), 0);
		ck_assert_int_eq(ex_gen_case(&gc, &o, &cc, &c), 0);
		ck_assert_int_eq(ex_case_text(&a, NULL, &ta), 0);
		ck_assert_int_eq(ex_case_text(&b, NULL, &tb), 0);
		ck_assert_int_eq(ex_case_text(&c, NULL, &tc), 0);
		ck_assert_str_eq(ta, tb);
		ck_assert_ptr_nonnull(strstr(ta, fam == M_FAM_MRAPI ? ": mrapi_rmem_" : ": rpmem_create "));
		differ += strcmp(ta, tc) != 0;
		free(ta);
		free(tb);
		free(tc);
		ex_case_free(&a);
		ex_case_free(&b);
		ex_case_free(&c);
	}
	ck_assert_mem_eq(ca.hits, cb.hits, sizeof(ca.hits));
	ck_assert_uint_gt(differ, (unsigned)ncases / 2);
}

START_TEST(test_mrapi_same_seed_same_text)
{
	same_seed_same_text(M_FAM_MRAPI, 8);
}
END_TEST

START_TEST(test_rpmem_same_seed_same_text)
{
	same_seed_same_text(M_FAM_RPMEM, 3);
}
END_TEST

/*
 * What a seed draws is the same text whichever compiler built the generator:
 * no two draws sit unsequenced in one expression (C leaves the order of a
 * call's arguments open: gcc evaluates them right to left, clang left to
 * right, and a seed found by a user's build replayed other steps on ours).
 * `make unit` (gcc) and `make unit-asan` (clang) both run this. The digest is
 * of the cases a generator change draws on purpose: print it with
 * RDMACHECK_PRINT_DIGEST=1 and set it here, from either build.
 */
#define SEED_TEXT_DIGEST 0x0a2c59d574f42472ull

START_TEST(test_same_text_whatever_the_compiler)
{
	static const struct { enum m_family fam; int ncases; } drawn[] = {
		{ M_FAM_VERBS, 6 }, { M_FAM_RPMA, 4 }, { M_FAM_DAT, 4 }, { M_FAM_MRAPI, 4 }, { M_FAM_RPMEM, 1 },
	};
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over every case's text */

	for (size_t i = 0; i < sizeof(drawn) / sizeof(drawn[0]); i++) {
		struct ex_gen_opts o = fam_opts(drawn[i].fam);
		struct ex_cov cov = { 0 };
		struct model_gen g;

		model_gen_seed(&g, 31);
		for (int k = 0; k < drawn[i].ncases; k++) {
			struct ex_case c;
			char *t;

			ck_assert_int_eq(ex_gen_case(&g, &o, &cov, &c), 0);
			ck_assert_int_eq(ex_case_text(&c, NULL, &t), 0);
			for (const char *p = t; *p; p++)
				h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
			free(t);
			ex_case_free(&c);
		}
	}
	if (getenv("RDMACHECK_PRINT_DIGEST"))
		fprintf(stderr, "test_same_text_whatever_the_compiler: digest 0x%016llxull\n", (unsigned long long)h);
	ck_assert_msg(h == SEED_TEXT_DIGEST, "seed 31 drew other text: digest 0x%016llx, pinned 0x%016llx",
		      (unsigned long long)h, (unsigned long long)SEED_TEXT_DIGEST);
}
END_TEST

/* ------------------------------------------------- planted bugs -- */

/*
 * The bugs: an MRAPI delete the model refuses because another node is
 * attached (RMEM-DELETE-1) reported as done; a librpmem persist on a lane
 * the pool does not have (RPMEM-NLANES-1: EINVAL) reported as done.
 */
static int buggy_exec(void *be, const struct hcall *c, struct hres *r)
{
	int rc = be_model_ops.exec(be, c, r);

	if (rc == 0 && c->op == M_OP_MRAPI_RMEM_DELETE && r->out.kind == M_OUT_MRAPI &&
	    r->out.code == M_MRAPI_ERR_RMEM_ATTACH)
		r->out.code = M_MRAPI_SUCCESS;
	if (rc == 0 && c->op == M_OP_RPMEM_PERSIST && r->out.kind == M_OUT_ERRNO && r->out.code == EINVAL &&
	    c->rpmem.a.lane >= 1)
		r->out = (struct m_outcome){ .kind = M_OUT_OK };
	return rc;
}

/*
 * Explore family fam on the buggy model: the bug is found, as call; its
 * divergences (within steps generated steps) are shrunk to at most max steps, the smallest to at most min;
 * every shrunk file written lints clean.
 */
static void finds_planted(enum m_family fam, unsigned long steps, const char *call, size_t min, size_t max)
{
	static struct backend_ops ops;
	char dir[] = "/tmp/rdmacheck-explore-fam-XXXXXX";
	struct ex_stack s = { .kind = EX_STACK_MODEL };
	struct ex_opts o = { .seed = 2, .steps = steps, .batch = 1, .stack_name = "model" };
	struct ex_summary *sum = calloc(1, sizeof(*sum));
	struct ex_cov cov = { 0 };
	size_t smallest = SIZE_MAX;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	o.out = dir;
	ops = be_model_ops;
	ops.exec = buggy_exec;
	s.ops = &ops;
	m_profile_get("generic", 0, &s.judge);
	s.sim = s.judge;
	o.gen = fam_opts(fam);
	ck_assert_ptr_nonnull(sum);
	ck_assert_int_eq(ex_explore(&o, &s, &cov, sum), 0);
	for (size_t i = 0; i < sum->nfound; i++) {
		FILE *fp = fopen(sum->found[i].path, "r");
		static char text[1 << 16];
		size_t n;

		ck_assert_ptr_nonnull(fp);
		n = fread(text, 1, sizeof(text) - 1, fp);
		text[n] = '\0';
		fclose(fp);
		/* lint takes the file as written; it fails on the bug-free model as a run (the bug is the stack's) */
		ck_assert_int_eq(lint_text(text, sum->found[i].path), 0);
		unlink(sum->found[i].path);
		if (strcmp(sum->found[i].sig.call, call) == 0) {
			smallest = sum->found[i].to < smallest ? sum->found[i].to : smallest;
			ck_assert_msg(sum->found[i].to <= max, "%s: %zu steps", call, sum->found[i].to);
		}
	}
	rmdir(dir);
	ck_assert_msg(smallest != SIZE_MAX, "the planted %s bug was not found in %lu steps", call, sum->steps);
	ck_assert_uint_le(smallest, min);
	free(sum);
}

START_TEST(test_mrapi_planted_bug_found_and_shrunk)
{
	/* two initializes, the create, the other node's get and attach, the delete */
	finds_planted(M_FAM_MRAPI, 3000, "mrapi_rmem_delete", 6, 7);
}
END_TEST

START_TEST(test_rpmem_planted_bug_found_and_shrunk)
{
	/* the pool set file, the create, the persist on a lane past its lanes */
	finds_planted(M_FAM_RPMEM, 100, "rpmem_persist", 3, 4);
}
END_TEST

Suite *suite_test_explore_fam(void)
{
	Suite *s = suite_create("test_explore_fam");
	TCase *tc = tcase_create("fam");

	/* librpmem's cases are slow to draw: the model holds each pool's bytes (2 MiB parts) and copies them
	 * with every proposal (about 80 ms of CPU a step on this machine) */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_verbs_new_steps_drawn_well_formed);
	tcase_add_test(tc, test_rpma_dat_new_steps_drawn_well_formed);
	tcase_add_test(tc, test_rules_not_generated_yet_score_as_new);
	tcase_add_test(tc, test_mrapi_cases_well_formed);
	tcase_add_test(tc, test_rpmem_cases_well_formed);
	tcase_add_test(tc, test_mrapi_same_seed_same_text);
	tcase_add_test(tc, test_rpmem_same_seed_same_text);
	tcase_add_test(tc, test_same_text_whatever_the_compiler);
	tcase_add_test(tc, test_mrapi_planted_bug_found_and_shrunk);
	tcase_add_test(tc, test_rpmem_planted_bug_found_and_shrunk);
	suite_add_tcase(s, tc);
	return s;
}

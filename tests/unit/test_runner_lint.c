/*
 * Unit tests of lint mode (harness/run/runner.c with RUN_LINT): the model is
 * the engine (harness/run/be_model.c), and an expect outside what the generic
 * model allows is a failure of the scenario file; deviations of the rxe
 * profile are not the specification.
 */
#include "harness/run/be_model.h"
#include "tests/unit/runner_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

static int lint(const char *text, struct result *r)
{
	struct scn_file *f = parse(text);
	struct m_profile gen;
	struct be_model eng;
	struct run_opts o = opts("rxe");
	int rc;

	o.mode = RUN_LINT;
	o.engine_caps = M_CAP_MW_TYPE1 | M_CAP_MW_TYPE2 | M_CAP_REREG | M_CAP_ATOMICS;
	ck_assert_int_eq(m_profile_get("generic", 0, &gen), 0);
	ck_assert_int_eq(bm_init(&eng, f, &gen), 0);
	rc = run_scenario(f, &be_model_ops, &eng, &o, r);
	bm_free(&eng);
	scn_free(f);
	return rc;
}

START_TEST(test_lint_rejects_expect_outside_generic)
{
	struct result r;

	ck_assert_int_eq(lint("nodes a\na: alloc_pd pd\na: alloc_pd p2 expect EINVAL\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 3);
	ck_assert_str_eq(r.reason, "line 3: expect EINVAL, but the model allows only: ok");
	result_clear(&r);

	/* a bad rkey cannot succeed: SUCCESS in an expect list is a disagreement, even beside the right one */
	ck_assert_int_eq(lint(TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 "
				  "expect REM_ACCESS_ERR|SUCCESS\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_has(r.reason, "line 11: expect SUCCESS, but the model allows only: REM_ACCESS_ERR [");
	result_clear(&r);

	/* a deviation of the rxe profile is not the specification */
	ck_assert_int_eq(lint(rereg_text, &r), 0);
	ck_assert_int_eq(r.v, V_PASS);
	result_clear(&r);
	ck_assert_int_eq(lint("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"
			      "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE expect EOPNOTSUPP\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 4: expect EOPNOTSUPP, but the model allows only: "
				   "ok [MR-REREG-8 MR-REREG-9]");
	result_clear(&r);
}
END_TEST

START_TEST(test_lint_accepts_expect_inside_generic)
{
	struct result r;

	ck_assert_int_eq(lint(nak_text, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	/* one of two allowed outcomes; the model takes the one expect names */
	ck_assert_int_eq(lint(TWO "b: write q local=src+4064 remote=a.dst+0 len=64 expect LOC_QP_OP_ERR\n"
				  "b: query_qp q expect state=ERR\n"
				  "a: query_qp q expect state=RTS\n"
				  "a: check dst\n", &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.steps_run, 12);
	result_clear(&r);
	ck_assert_int_eq(lint(rereg_text, &r), 0);
	ck_assert_int_eq(r.v, V_PASS);
	result_clear(&r);
}
END_TEST

/* expect KEY=NAME.ATTR compares with the attribute's value on the engine, not the offset. */
START_TEST(test_lint_query_expect_attribute)
{
	static const char base[] = "require dapl\nnodes a\na: dat_ia_open\na: dat_pz_create z\n"
				   "a: dat_lmr_create l pz=z len=4K priv=LOCAL_WRITE\n"
				   "a: dat_lmr_create r pz=z len=4K priv=ALL\n";
	char text[512];
	struct result r;

	snprintf(text, sizeof(text), "%sa: dat_lmr_query r expect rmr_context=r.rkey registered_size=r.len\n", base);
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	/* no remote privileges: rmr_context is 0, and l.len is 4096 */
	snprintf(text, sizeof(text), "%sa: dat_lmr_query l expect rmr_context=l.len\n", base);
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: expect rmr_context=4096, but the model says rmr_context zero");
	result_clear(&r);
}
END_TEST

/* The model as an engine reports the receive completion it predicted for the peer. */
START_TEST(test_lint_send_with_receive)
{
	struct result r;

	ck_assert_int_eq(lint(TWO "a: recv q local=dst+0 len=256\n"
				  "b: send q local=src+0 len=32 expect SUCCESS\n"
				  "a: check dst\n", &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
}
END_TEST

/* What run_opts.on_disagree was told last. */
static struct { int n; uint32_t line, col; char msg[400], word[48]; } said;

static void on_disagree(void *ctx, const struct scn_file *f, size_t step, uint32_t line, uint32_t col,
			const char *msg, const char *word)
{
	(void)ctx;
	(void)f;
	(void)step;
	said.n++;
	said.line = line;
	said.col = col;
	snprintf(said.msg, sizeof(said.msg), "%s", msg);
	snprintf(said.word, sizeof(said.word), "%s", word ? word : "");
}

/* text run (RUN_REAL) on the model engine simulating rxe, model_engine as given. */
static int run_on_model(const char *text, int model_engine, struct result *r)
{
	struct scn_file *f = parse(text);
	struct m_profile rxe;
	struct be_model eng;
	struct run_opts o = opts("rxe");
	int rc;

	o.model_engine = model_engine;
	o.on_disagree = on_disagree;
	memset(&said, 0, sizeof(said));
	ck_assert_int_eq(m_profile_get("rxe", 0, &rxe), 0);
	ck_assert_int_eq(bm_init(&eng, f, &rxe), 0);
	rc = run_scenario(f, &be_model_ops, &eng, &o, r);
	bm_free(&eng);
	scn_free(f);
	return rc;
}

/*
 * On the model engine (--stack=model) a wrong expect is the file's error, said
 * as lint says it (the message, its column, the outcome's name to put the
 * caret under); on any other engine (the real stack) it is judged against
 * reality as before: outside the allowed set, with the step and both sets.
 */
START_TEST(test_model_engine_says_wrong_expect_as_lint)
{
	const char *text = TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 expect SUCCESS\n";
	struct result r;

	ck_assert_int_eq(run_on_model(text, 1, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_has(r.reason, "line 11: expect SUCCESS, but the model allows only: REM_ACCESS_ERR [");
	ck_assert_int_eq(said.n, 1);
	ck_assert_uint_eq(said.line, 11);
	ck_assert_uint_gt(said.col, 1);
	ck_assert_str_eq(said.word, "SUCCESS");
	ck_assert_str_eq(said.msg, r.reason + strlen("line 11: "));
	result_clear(&r);

	ck_assert_int_eq(run_on_model(text, 0, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 11: write gave REM_ACCESS_ERR, outside the allowed set");
	ck_assert_has(r.detail, "allowed: nothing (what your expect names, of what the model allows)");
	ck_assert_int_eq(said.n, 0);
	result_clear(&r);

	/* an expected query value the model does not hold, likewise */
	ck_assert_int_eq(run_on_model(TWO "a: query_qp q expect state=ERR\n", 1, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 11: expect state=ERR, but the model says state=RTS");
	ck_assert_int_eq(said.n, 1);
	result_clear(&r);
	ck_assert_int_eq(run_on_model(TWO "a: query_qp q expect state=ERR\n", 0, &r), 0);
	ck_assert_str_eq(r.reason, "line 11: expect state=ERR, real state=RTS");
	result_clear(&r);

	/* a right expect passes on the model engine as before */
	ck_assert_int_eq(run_on_model(TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 "
					  "expect REM_ACCESS_ERR\n", 1, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_int_eq(said.n, 0);
	result_clear(&r);
}
END_TEST

/* The language the strict parity rows need (issue 30): a send and a receive queue asked as 0
 * (QpTest.ZeroSendWr), inline on a READ, garble= on destroy_cq, destroy_srq, destroy_ah and
 * create_srq's PD. */
START_TEST(test_lint_zero_queues_and_garbled_destroys)
{
	static const char zero[] = "nodes a b\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n"
				   "a: create_qp q pd=pd max_send_wr=0 max_recv_wr=0 expect ok\n"
				   "a: query_qp q expect max_send_wr=0 max_recv_wr=0\n"
				   "b: alloc_pd pd\n"
				   "b: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n"
				   "b: create_qp q pd=pd\n"
				   "connect a.q b.q\n"
				   "a: recv q local=m+0 len=64 expect ENOMEM\n"
				   "b: write q local=m+0 remote=a.m+0 len=64 expect SUCCESS\n";
	static const char garbled[] = "nodes a b\n"
				      "a: alloc_pd pd\n"
				      "a: create_cq cq\n"
				      "a: destroy_cq cq garble=self expect ENOENT\n"
				      "a: create_srq s pd=pd garble=pd expect ENOENT|EINVAL\n"
				      "a: create_srq s2 pd=pd\n"
				      "a: destroy_srq s2 garble=self expect ENOENT\n"
				      "a: create_ah ah pd=pd to=b\n"
				      "a: destroy_ah ah garble=self expect ENOENT\n"
				      "a: destroy_ah ah expect ok\n";
	char text[1024];
	struct result r;

	ck_assert_int_eq(lint(zero, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	snprintf(text, sizeof(text), "%sa: write q local=m+0 remote=b.m+0 len=64 expect SUCCESS\n", zero);
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 12: expect SUCCESS, but the model allows only: ENOMEM [LP-7]");
	result_clear(&r);

	/* inline on a READ: the refusal, or its error completion (LP-9); SUCCESS is not among them */
	ck_assert_int_eq(lint(TWO "b: read q local=src+0 remote=a.dst+0 len=64 lkey=0xdeadbeef inline "
				  "expect EINVAL|LOC_QP_OP_ERR|LOC_PROT_ERR\n", &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	ck_assert_int_eq(lint(TWO "b: read q local=src+0 remote=a.dst+0 len=64 inline expect SUCCESS\n", &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_has(r.reason, "line 11: expect SUCCESS, but the model allows only: EINVAL");
	result_clear(&r);

	ck_assert_int_eq(lint(garbled, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	ck_assert_int_eq(lint("nodes a\na: create_cq cq\na: destroy_cq cq garble=pd\n", &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_has(r.reason, "line 3: destroy_cq: the model cannot run this step (malformed for the model)");
	result_clear(&r);
}
END_TEST

/* rereg_mr CHANGE_TRANSLATION buf= (MR-REREG-10, MrTest.ReregMrChangeAddress, pyverbs
 * test_mr_rereg_addr): the receive posted before it names the old address (REM_OP_ERR), traffic after
 * it lands in the new buffer, the old one keeps its bytes; buf= without CHANGE_TRANSLATION, or onto an
 * MR whose buffer another registration shares: the model cannot run the step. */
START_TEST(test_lint_rereg_onto_new_buffer)
{
	static const char head[] = "nodes a b\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr ob pd=pd len=4K access=LOCAL_WRITE\n"
				   "a: reg_mr m pd=pd len=4K buf=ob+0 access=LOCAL_WRITE\n"
				   "a: reg_mr nb pd=pd len=4K access=LOCAL_WRITE\n"
				   "a: create_qp q pd=pd\n"
				   "b: alloc_pd pd\n"
				   "b: reg_mr src pd=pd len=4K access=LOCAL_WRITE\n"
				   "b: create_qp q pd=pd\n"
				   "connect a.q b.q\n"
				   "a: fill ob byte=0x11\n"
				   "a: fill nb byte=0x22\n"
				   "b: fill src byte=0x33\n";
	static const char rest[] = "a: recv q local=m+0 len=64\n"
				   "a: rereg_mr m flags=CHANGE_TRANSLATION buf=nb+0 len=4K expect ok\n"
				   "b: send q local=src+0 len=64 expect %s\n"
				   "a: modify_qp q state=RESET\n"
				   "b: modify_qp q state=RESET\n"
				   "connect a.q b.q\n"
				   "a: recv q local=m+64 len=64\n"
				   "b: send q local=src+64 len=64 expect SUCCESS\n"
				   "a: check ob byte=0x11\n"
				   "a: check nb off=64 len=64 byte=%s\n";
	char text[2048];
	struct result r;

	snprintf(text, sizeof(text), "%s", head);
	snprintf(text + strlen(text), sizeof(text) - strlen(text), rest, "REM_OP_ERR", "0x33");
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	result_clear(&r);
	snprintf(text + strlen(head), sizeof(text) - strlen(head), rest, "SUCCESS", "0x33");
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_has(r.reason, "line 16: expect SUCCESS, but the model allows only: REM_OP_ERR");
	result_clear(&r);
	snprintf(text + strlen(head), sizeof(text) - strlen(head), rest, "REM_OP_ERR", "0x22");
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	result_clear(&r);

	snprintf(text + strlen(head), sizeof(text) - strlen(head),
		 "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE buf=nb+0 len=4K\n");
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_has(r.reason, "line 14: rereg_mr: the model cannot run this step (malformed for the model)");
	result_clear(&r);
	snprintf(text + strlen(head), sizeof(text) - strlen(head),
		 "a: rereg_mr ob flags=CHANGE_TRANSLATION buf=nb+0 len=4K\n");
	ck_assert_int_eq(lint(text, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_lint(void)
{
	Suite *s = suite_create("test_runner_lint");
	TCase *tc = tcase_create("lint");

	tcase_add_test(tc, test_lint_rejects_expect_outside_generic);
	tcase_add_test(tc, test_lint_accepts_expect_inside_generic);
	tcase_add_test(tc, test_lint_send_with_receive);
	tcase_add_test(tc, test_lint_query_expect_attribute);
	tcase_add_test(tc, test_model_engine_says_wrong_expect_as_lint);
	tcase_add_test(tc, test_lint_zero_queues_and_garbled_destroys);
	tcase_add_test(tc, test_lint_rereg_onto_new_buffer);
	suite_add_tcase(s, tc);
	return s;
}

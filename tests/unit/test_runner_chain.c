/*
 * Unit tests of the runner's chains of WRs (harness/run/runner.c, `chain`):
 * the steps of a chain are posted in one call and judged in turn, those
 * after a refused WR with its errno (LP-7), the peer QP's state judged after
 * the chain's last. (A chain that is not send WRs on one QP is an error of the
 * file: test_scn_errors.) The model is the engine (RUN_REAL with
 * the model simulating the stack, without exec_chain: the runner's own loop).
 */
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <check.h>
#include <string.h>

/* Two connected nodes: a's QP q (max_inline 16) writes into b's MR dst (lines 2-9). */
#define PAIR                                                                            \
	"nodes a b\n"                                                                   \
	"a: alloc_pd pd\n"                                                              \
	"a: reg_mr src pd=pd len=4K access=LOCAL_WRITE\n"                               \
	"a: create_qp q pd=pd max_inline=16\n"                                          \
	"a: create_qp q2 pd=pd\n"                                                       \
	"b: alloc_pd pd\n"                                                              \
	"b: reg_mr dst pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE\n"                  \
	"b: create_qp q pd=pd\n"                                                        \
	"connect a.q b.q\n"

/* Run text with the model as the engine; r receives the verdict. */
static void run_model(const char *text, struct result *r)
{
	struct scn_diags d;
	struct scn_file *f = NULL;
	struct be_model eng;
	struct run_opts o = { .mode = RUN_REAL };

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "c.scn", &f, &d), 0);
	ck_assert_int_eq(m_profile_get("generic", 0, &o.prof), 0);
	ck_assert_int_eq(bm_init(&eng, f, &o.prof), 0);
	ck_assert_int_eq(run_scenario(f, &be_model_ops, &eng, &o, r), 0);
	bm_free(&eng);
	scn_free(f);
}

START_TEST(test_LP_7_chain_after_refused_wr_is_not_posted)
{
	struct result r;

	run_model(PAIR "a: write q local=src+0 remote=b.dst+0 len=8 chain expect SUCCESS\n"
		       "a: write q local=src+0 remote=b.dst+8 len=256 inline chain expect EINVAL\n"
		       "a: write q local=src+0 remote=b.dst+16 len=8 expect EINVAL\n"
		       "b: check dst off=8 len=16 byte=0\n",
		  &r);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	ck_assert_uint_eq(r.steps_run, 11); /* check runs nothing on the engine */
	result_clear(&r);

	/* The WR after the refused one was not posted: it cannot succeed. */
	run_model(PAIR "a: write q local=src+0 remote=b.dst+0 len=256 inline chain expect EINVAL\n"
		       "a: write q local=src+0 remote=b.dst+16 len=8 expect SUCCESS\n",
		  &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	result_clear(&r);
}
END_TEST

START_TEST(test_chain_peer_state_is_the_whole_chains)
{
	struct result r;

	/* The engine ran the whole chain before the first WR is judged: the peer QP is in ERR
	 * already (the second WR's error), which the first WR's SUCCESS must not be held to. */
	run_model(PAIR "a: write q local=src+0 remote=b.dst+0 len=8 chain expect SUCCESS\n"
		       "a: write q local=src+0 remote=b.dst+8 len=8 rkey=b.dst.rkey+1 chain expect REM_ACCESS_ERR\n"
		       "a: write q local=src+0 remote=b.dst+16 len=8 expect WR_FLUSH_ERR\n",
		  &r);
	ck_assert_msg(r.v == V_PASS, "%s", r.reason);
	result_clear(&r);
}
END_TEST

Suite *suite_test_runner_chain(void)
{
	Suite *s = suite_create("runner_chain");
	TCase *tc = tcase_create("chain");

	tcase_add_test(tc, test_LP_7_chain_after_refused_wr_is_not_posted);
	tcase_add_test(tc, test_chain_peer_state_is_the_whole_chains);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the runner's verdicts (harness/run/runner.c run_scenario):
 * how a step's real outcome relates to the model's sets (pass, fail outside
 * the set or outside expect, xfail of a declared deviation), skips (required
 * capabilities, steps that kill the kernel), engine errors and timeouts,
 * the trace and the rules that decided, and objects missing in the model or
 * the engine. Reality is the scripted fake engine of runner_fx.h.
 */
#include "tests/unit/runner_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

START_TEST(test_pass_data_moves_and_memory_matches)
{
	static const char text[] = "title a write that lands\n" TWO
				   "b: write q local=src+0 remote=a.dst+64 len=128 expect SUCCESS\n"
				   "a: check dst\n"
				   "a: query_qp q expect state=RTS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_text(text, &o, &r);

	ck_assert_msg(r.v == V_PASS, "verdict %s: %s\n%s", verdict_str(r.v), r.reason, r.detail ? r.detail : "");
	ck_assert_str_eq(r.file, "dir/t.scn");
	ck_assert_str_eq(r.title, "a write that lands");
	ck_assert_uint_eq(r.steps, 12);
	ck_assert_uint_eq(r.steps_run, 11);  /* check runs no engine call */
	ck_assert_uint_eq(fk.nexec, 11);
	ck_assert_uint_eq(r.line, 0);
	ck_assert_ptr_null(r.detail);
	ck_assert(r.secs >= 0 && r.secs < 5);
	/* the engine moved the bytes; the model agrees (check and end comparison read them) */
	ck_assert_uint_eq(fk.mem[1][63], 0);
	ck_assert_uint_eq(fk.mem[1][64], 0x5a);
	ck_assert_uint_eq(fk.mem[1][191], 0x5a);
	ck_assert_uint_eq(fk.mem[1][192], 0);
	ck_assert_uint_ge(fk.nread, 3); /* check dst, then dst and src at the end */
	ck_assert_uint_ge(fk.npeer, 1); /* the write's peer a.q was looked at */
	/* the engine saw its own addresses and keys */
	ck_assert_uint_eq(fk.calls[9].op, M_OP_WRITE);
	ck_assert_uint_eq(fk.calls[9].verbs.laddr, FK_ADDR(3, 0));
	ck_assert_uint_eq(fk.calls[9].verbs.lkey, 0x1000 + 3);
	ck_assert_uint_eq(fk.calls[9].verbs.raddr, FK_ADDR(1, 64));
	ck_assert_uint_eq(fk.calls[9].verbs.rkey, 0x2000 + 1);
	done(f, &r);
}
END_TEST

START_TEST(test_fail_outside_model_set)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 expect REM_ACCESS_ERR\n"
				       "a: check dst\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	/* reality: the corrupted rkey was accepted */
	*at(f, text, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_SUCCESS } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, line_of(text, "b: write"));
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write gave SUCCESS, outside the allowed set");
	ck_assert_has(r.detail, "  step:    b: write q local=src+0 remote=a.dst+0 len=64 rkey=a.dst.rkey+1 "
				"expect REM_ACCESS_ERR (line 11)\n");
	ck_assert_has(r.detail, "  allowed: REM_ACCESS_ERR [");
	ck_assert_has(r.detail, "RA-KEY-1");
	ck_assert_has(r.detail, "(what your expect names, of what the model allows)");
	ck_assert_has(r.detail, "  profile rxe allows: REM_ACCESS_ERR");
	ck_assert_has(r.detail, "  real:    SUCCESS\n");
	/* the scenario stops at the failing step */
	ck_assert_uint_eq(r.steps_run, 10);
	ck_assert_uint_eq(r.steps, 11);
	ck_assert_uint_eq(fk.nexec, 10);
	done(f, &r);
}
END_TEST

START_TEST(test_fail_in_model_set_but_not_expected)
{
	/* Out of range local SGE: the model allows LOC_PROT_ERR and LOC_QP_OP_ERR; the scenario insists on one. */
	static const char text[] = TWO "b: write q local=src+4064 remote=a.dst+0 len=64 expect LOC_PROT_ERR\n";
	struct run_opts o = opts("generic");
	struct result r;
	struct scn_file *f = run_as(text, "b: write",
				    (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_QP_OP_ERR } }, &o, &r);

	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write gave LOC_QP_OP_ERR, outside the allowed set");
	/* allowed: only what expect names (∩ model); the profile's whole set for comparison */
	ck_assert_has(r.detail, "  allowed: LOC_PROT_ERR [");
	ck_assert_str_eq(detail_line(r.detail, "  allowed:"), "  allowed: LOC_PROT_ERR [MR-ADDR-1 LP-1 RA-ERR-2] "
								 "(what your expect names, of what the model allows)");
	ck_assert_has(r.detail, "  profile generic allows: LOC_PROT_ERR [");
	ck_assert_has(r.detail, "LOC_QP_OP_ERR [");
	ck_assert_has(r.detail, "  real:    LOC_QP_OP_ERR\n");
	done(f, &r);

	/* the same reality passes when expect allows it */
	static const char text2[] = TWO "b: write q local=src+4064 remote=a.dst+0 len=64 expect LOC_PROT_ERR|LOC_QP_OP_ERR\n"
					"b: query_qp q expect state=ERR\n";
	f = parse(text2);
	*at(f, text2, "b: write") = (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_QP_OP_ERR } };
	*at(f, text2, "b: query_qp") = (struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	done(f, &r);
}
END_TEST

START_TEST(test_no_expect_takes_the_whole_model_set)
{
	static const char text[] = TWO "b: write q local=src+4064 remote=a.dst+0 len=64\n";
	struct run_opts o = opts("generic");
	struct result r;
	struct scn_file *f = run_as(text, "b: write",
				    (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_LOC_PROT_ERR } }, &o, &r);

	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	done(f, &r);
	/* but not SUCCESS, and then the allowed set is the model's, without the expect note */
	f = run_as(text, "b: write", (struct fk_step){ .set = 1, .out = { M_OUT_WC, M_WC_SUCCESS } }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_has(r.detail, "  allowed: LOC_PROT_ERR [");
	ck_assert_has(r.detail, "LOC_QP_OP_ERR [");
	ck_assert(!has(r.detail, "your expect"));
	done(f, &r);
}
END_TEST

START_TEST(test_xfail_declared_deviation)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_as(rereg_text, "a: rereg_mr",
				    (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } }, &o, &r);

	ck_assert_msg(r.v == V_XFAIL, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.line, 4);
	ck_assert_str_eq(r.reason, "line 4: rereg_mr gave EOPNOTSUPP: declared deviation MR-REREG-9 of profile rxe");
	ck_assert_has(r.detail, "  line 4: rereg_mr: EOPNOTSUPP (specification: ok [");
	ck_assert_has(r.detail, "    deviation MR-REREG-9: F: ibv_rereg_mr (any flags) not supported on 6.1");
	/* an xfail does not stop the scenario */
	ck_assert_uint_eq(r.steps_run, 4);
	ck_assert_uint_eq(fk.nexec, 4);
	done(f, &r);

	/* the same reality under the generic profile is a plain failure */
	o = opts("generic");
	f = run_as(rereg_text, "a: rereg_mr", (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 4: rereg_mr gave EOPNOTSUPP, outside the allowed set");
	done(f, &r);

	/* and under rxe of another kernel (the deviation is for 6.1 only) too */
	o = opts("rxe");
	o.prof.kernel = KVER(6, 8);
	f = run_as(rereg_text, "a: rereg_mr", (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	done(f, &r);
}
END_TEST

START_TEST(test_fail_after_xfail_wins)
{
	static const char text[] = "nodes a\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr m pd=pd len=4K access=LOCAL_WRITE\n"
				   "a: rereg_mr m flags=CHANGE_ACCESS access=LOCAL_WRITE|REMOTE_READ\n"
				   "a: alloc_pd p2\n"
				   "a: dealloc_pd p2 expect ok\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(text);

	*at(f, text, "a: rereg_mr") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EOPNOTSUPP } };
	*at(f, text, "a: dealloc_pd") = (struct fk_step){ .set = 1, .out = { M_OUT_ERRNO, EBUSY } };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 6);
	ck_assert_str_eq(r.reason, "line 6: dealloc_pd gave EBUSY, outside the allowed set");
	/* the xfail's detail is kept before the failure's */
	ck_assert_has(r.detail, "deviation MR-REREG-9");
	ck_assert_has(r.detail, "  real:    EBUSY\n");
	ck_assert(strstr(r.detail, "MR-REREG-9") < strstr(r.detail, "real:    EBUSY"));
	done(f, &r);
}
END_TEST

/* LOCAL_INV of an unbound type-2 window: the rxe 6.1 profile says KERNEL_CRASH only. */
static const char crash_text[] = "require mw_type2\n"
				 "nodes a b\n"
				 "a: alloc_pd pd\n"
				 "a: create_qp q pd=pd\n"
				 "b: alloc_pd pd\n"
				 "b: create_qp q pd=pd\n"
				 "connect a.q b.q\n"
				 "a: alloc_mw w pd=pd type=2\n"
				 "a: local_inv q w expect LOC_QP_OP_ERR|MW_BIND_ERR\n"
				 "a: query_qp q expect state=ERR\n";

struct step_log {
	unsigned n, crashes;
	size_t last;
};

static void on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		    const struct m_pred *prof, int crash)
{
	struct step_log *l = ctx;

	(void)f;
	ck_assert_ptr_nonnull(gen);
	ck_assert_ptr_nonnull(prof);
	ck_assert_uint_ge(gen->n, 1);
	l->n++;
	l->crashes += crash != 0;
	l->last = si;
}

START_TEST(test_crash_step_skipped_unless_allowed)
{
	struct run_opts o = opts("rxe");
	struct step_log log = { 0 };
	struct result r;
	struct scn_file *f;

	o.on_step = on_step;
	o.ctx = &log;
	f = run_text(crash_text, &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_uint_eq(r.line, 9);
	ck_assert_has(r.reason, "line 9: the rxe profile says this step kills the kernel (MW-INV-3: F: LOCAL_INV");
	ck_assert_has(r.reason, "--stack=vm");
	ck_assert_uint_eq(fk.nexec, 6); /* the crashing step was not run */
	ck_assert_uint_eq(log.n, 6);
	ck_assert_uint_eq(log.crashes, 0);
	done(f, &r);

	/* in a disposable VM it runs; the crash is the declared deviation */
	log = (struct step_log){ 0 };
	o.allow_crash = 1;
	f = run_as(crash_text, "a: local_inv", (struct fk_step){ .set = 1, .out = { M_OUT_CRASH, 0 } }, &o, &r);
	ck_assert_msg(r.v == V_XFAIL, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.line, 9);
	ck_assert_str_eq(r.reason, "line 9: local_inv gave KERNEL_CRASH: declared deviation MW-INV-3 of profile rxe");
	ck_assert_uint_eq(fk.nexec, 7); /* and nothing after the crash */
	ck_assert_uint_eq(r.steps_run, 7);
	ck_assert_uint_eq(log.n, 7);
	ck_assert_uint_eq(log.crashes, 1);
	ck_assert_uint_eq(log.last, 6);
	done(f, &r);

	/* the generic model never allows a crash */
	o = opts("generic");
	f = run_as(crash_text, "a: local_inv", (struct fk_step){ .set = 1, .out = { M_OUT_CRASH, 0 } }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 9: local_inv gave KERNEL_CRASH, outside the allowed set");
	done(f, &r);
}
END_TEST

START_TEST(test_skip_requires)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f;

	f = run_text("require rereg\nnodes a\na: alloc_pd pd\n", &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_str_eq(r.reason, "requires rereg, which the profile of this stack does not offer");
	ck_assert_uint_eq(fk.nexec, 0);
	ck_assert_uint_eq(r.steps_run, 0);
	ck_assert_uint_eq(r.steps, 1);
	ck_assert_uint_eq(r.line, 0);
	done(f, &r);

	/* the engine may offer what the profile lacks */
	o.engine_caps = M_CAP_REREG;
	f = run_text("require rereg\nnodes a\na: alloc_pd pd\n", &o, &r);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_uint_eq(fk.nexec, 1);
	done(f, &r);

	o = opts("generic");
	o.prof.caps &= ~(uint32_t)M_CAP_RPMA; /* a stack without librpma */
	f = run_text("require rpma\nnodes a\na: alloc_pd pd\n", &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_str_eq(r.reason, "requires rpma, which the profile of this stack does not offer");
	done(f, &r);

	f = run_text("nodes a\na: alloc_pd pd\na: rpma_mr_reg m len=4K usage=READ_SRC\n", &o, &r);
	ck_assert_int_eq(r.v, V_SKIP);
	ck_assert_str_eq(r.reason, "line 3: rpma_mr_reg needs rpma, which the profile of this stack does not offer");
	ck_assert_uint_eq(fk.nexec, 0);
	done(f, &r);
}
END_TEST

/* text run under profile with the engine answering step (its first line's text) with rc. */
static struct scn_file *run_rc(const char *text, const char *step, int rc, const char *profile, struct result *r)
{
	struct run_opts o = opts(profile);
	struct scn_file *f = parse(text);

	at(f, text, step)->rc = rc;
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, r), 0);
	return f;
}

START_TEST(test_engine_error_is_error)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n"
				       "a: check dst\n";
	struct result r;
	struct scn_file *f = run_rc(text, "b: write", -EPIPE, "rxe", &r);

	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write: the fake engine failed: Broken pipe");
	ck_assert_uint_eq(r.steps_run, 10);
	ck_assert_uint_eq(fk.nread, 0); /* no memory comparison after an error */
	done(f, &r);
}
END_TEST

START_TEST(test_timeout_is_fail)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n";
	struct result r;
	struct scn_file *f = run_rc(text, "b: write", -ETIMEDOUT, "rxe", &r);

	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write: TIMEOUT (no answer within the step timeout)");
	ck_assert_has(r.detail, "  allowed: SUCCESS [");
	ck_assert_uint_eq(r.steps_run, 10);
	done(f, &r);
}
END_TEST


/*
 * A step without an answer whose prediction under the profile has the hang a
 * deviation declares (rxe 6.1, LP-8: a SEND overrunning its MR after the first
 * packet, the peer without a receive): an xfail, and nothing after it runs or
 * is compared; under a profile without it, the timeout is a FAIL as before.
 */
START_TEST(test_declared_hang_is_xfail)
{
	static const char text[] = TWO "b: send q local=src+0 len=8K expect LOC_PROT_ERR|LOC_QP_OP_ERR|RNR_RETRY_EXC_ERR\n"
				       "b: query_qp q\n";
	struct result r;
	struct scn_file *f = run_rc(text, "b: send", -ETIMEDOUT, "rxe", &r);

	ck_assert_msg(r.v == V_XFAIL, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: send gave TIMEOUT: declared deviation LP-8 of profile rxe");
	ck_assert_has(r.detail, "never completes");
	ck_assert_uint_eq(r.steps_run, 10);
	ck_assert_uint_eq(fk.nexec, 10); /* query_qp not run */
	ck_assert_uint_eq(fk.nread, 0);  /* and no memory compared at the end */
	done(f, &r);

	f = run_rc(text, "b: send", -ETIMEDOUT, "generic", &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 11: send: TIMEOUT (no answer within the step timeout)");
	done(f, &r);
}
END_TEST

START_TEST(test_trace_and_rules)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f;

	o.trace = 1;
	f = run_text("nodes a\na: alloc_pd pd\na: reg_mr m pd=pd len=4K access=REMOTE_WRITE expect EINVAL\n", &o, &r);
	ck_assert_int_eq(r.v, V_PASS);
	ck_assert_str_eq(r.detail, "  trace: line 2: a: alloc_pd pd -> ok; allowed: ok\n"
				   "  trace: line 3: a: reg_mr m pd=pd len=4096 access=REMOTE_WRITE expect EINVAL -> EINVAL; "
				   "allowed: EINVAL [MR-ACC-1]\n");
	/* the rules that decided the outcomes followed: MR-ACC-1 (and PD-2 never) */
	ck_assert(result_rule_has(&r, M_RULE_MR_ACC_1));
	ck_assert(!result_rule_has(&r, M_RULE_PD_2));
	done(f, &r);
}
END_TEST


START_TEST(test_object_missing_in_model_or_engine)
{
	/* the model refused the registration, so the MR never existed for it */
	static const char text[] = "nodes a\n"
				   "a: alloc_pd pd\n"
				   "a: reg_mr m pd=pd len=4K access=REMOTE_WRITE expect EINVAL\n"
				   "a: dereg_mr m\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_text(text, &o, &r);

	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 4);
	ck_assert_str_eq(r.reason, "line 4: dereg_mr: the model cannot run this step "
				   "(it uses an object whose creation failed: a.m)");
	ck_assert_uint_eq(fk.nexec, 2);
	done(f, &r);

	/* the engine lost an object the model has */
	static const char text2[] = TWO "b: write q local=src+0 remote=a.dst+0 len=64 expect SUCCESS\n";
	f = parse(text2);
	fk.forget[1] = 1; /* a.dst */
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_ERROR);
	ck_assert_uint_eq(r.line, 9); /* the first step that needs it: the fill */
	ck_assert_str_eq(r.reason, "line 9: fill: a.dst does not exist on the fake engine");
	ck_assert_uint_eq(r.steps_run, 7); /* the fill never reached the engine */
	ck_assert_uint_eq(fk.nexec, 7);
	done(f, &r);
}
END_TEST


Suite *suite_test_runner_verdict(void)
{
	Suite *s = suite_create("test_runner_verdict");
	TCase *tc = tcase_create("verdicts");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pass_data_moves_and_memory_matches);
	tcase_add_test(tc, test_fail_outside_model_set);
	tcase_add_test(tc, test_fail_in_model_set_but_not_expected);
	tcase_add_test(tc, test_no_expect_takes_the_whole_model_set);
	tcase_add_test(tc, test_xfail_declared_deviation);
	tcase_add_test(tc, test_fail_after_xfail_wins);
	tcase_add_test(tc, test_crash_step_skipped_unless_allowed);
	tcase_add_test(tc, test_skip_requires);
	tcase_add_test(tc, test_engine_error_is_error);
	tcase_add_test(tc, test_timeout_is_fail);
	tcase_add_test(tc, test_declared_hang_is_xfail);
	tcase_add_test(tc, test_trace_and_rules);
	tcase_add_test(tc, test_object_missing_in_model_or_engine);
	suite_add_tcase(s, tc);
	return s;
}

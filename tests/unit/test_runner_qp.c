/*
 * Unit tests of how the runner judges what a step's QPs report besides its
 * outcome (harness/run/runner.c run_scenario): the peer QP's state and
 * receive completion (its status, opcode, byte_len, immediate, wc_flags), a post's
 * completion opcode, and query_qp's results against the model. Reality is the
 * scripted fake engine of runner_fx.h.
 */
#include "tests/unit/runner_fx.h"

#include <check.h>
#include <errno.h>
#include <string.h>

START_TEST(test_peer_state_checked)
{
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = parse(nak_text);

	/* reality: the requester sees the NAK, but the responder stays RTS */
	*at(f, nak_text, "b: write") =
		(struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = -1 };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason,
			 "line 11: peer QP a.q: model allows state ERR, receive none; real state RTS, receive none");
	ck_assert_uint_ge(fk.npeer, 2); /* it waited for the responder to get there */
	ck_assert_uint_ge(fk.paused_ms, 1000); /* a second (run_peer.c's PEER_STATE_WAIT_MS) */
	ck_assert_uint_eq(r.steps_run, 10);
	done(f, &r);

	/* the responder in ERR: pass (the requester's query_qp says ERR too) */
	f = parse(nak_text);
	*at(f, nak_text, "b: write") =
		(struct fk_step){ .has_peer = 1, .peer_state = M_QPS_ERR, .peer_recv = -1 };
	*at(f, nak_text, "b: query_qp") = (struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR };
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	ck_assert_uint_ge(fk.npeer, 1);
	done(f, &r);
}
END_TEST

/* A successful receive completion's opcode, byte_len and immediate against the model (recvwc.h). */
START_TEST(test_peer_receive_fields_checked)
{
	static const char text[] = TWO "a: recv q local=dst+0 len=256\n"
				       "b: send q local=src+0 len=32 imm_data=9 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct m_recv_wc good = { .known = 1, .opcode = M_WCO_RECV, .byte_len = 32, .has_imm = 1, .imm = 9 };
	struct scn_file *f = run_as(text, "b: send",
				    (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS,
						      .peer_wc = good }, &o, &r);

	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 0"); /* past the send */
	done(f, &r);

	good.byte_len = 256; /* the receive's length, not the bytes sent */
	f = run_as(text, "b: send",
		   (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS,
				     .peer_wc = good }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason, "line 12: peer QP a.q: receive completion: model says byte_len 32, real 256");
	done(f, &r);

	good.byte_len = 32;
	good.imm = 8;
	f = run_as(text, "b: send",
		   (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS,
				     .peer_wc = good }, &o, &r);
	ck_assert_str_eq(r.reason, "line 12: peer QP a.q: receive completion: model says imm_data 9, real 8");
	done(f, &r);
}
END_TEST

/* A successful receive's wc_flags (RECV-WC-1): the run's profile decides them; a declared deviation is a note. */
START_TEST(test_peer_receive_flags_checked)
{
	static const char text[] = TWO "a: recv q local=dst+0 len=256\n"
				       "b: send q local=src+0 len=32 imm_data=9 expect SUCCESS\n";
	struct run_opts o = opts("generic");
	struct result r;
	struct m_recv_wc wc = { .known = 1, .opcode = M_WCO_RECV, .byte_len = 32, .has_imm = 1, .imm = 9,
				.flags_known = 1, .flags = M_WCF_WITH_IMM };
	struct fk_step st = { .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_SUCCESS, .peer_wc = wc };
	struct scn_file *f = run_as(text, "b: send", st, &o, &r);

	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 0"); /* past the send */
	done(f, &r);

	st.peer_wc.flags = M_WCF_GRH | M_WCF_WITH_IMM; /* rxe's: GRH on an RC receive */
	f = run_as(text, "b: send", st, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason,
			 "line 12: peer QP a.q: receive completion: model says wc_flags WITH_IMM, real GRH|WITH_IMM");
	done(f, &r);

	o = opts("rxe"); /* the rxe profile declares it: the step passes, the detail says so */
	f = run_as(text, "b: send", st, &o, &r);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 0");
	ck_assert_msg(has(r.detail, "declared deviation RECV-WC-1 of profile rxe"), "%s", r.detail);
	done(f, &r);

	st.peer_wc.flags = M_WCF_WITH_IMM; /* what the specification says, which rxe's profile does not */
	f = run_as(text, "b: send", st, &o, &r);
	ck_assert_str_eq(r.reason,
			 "line 12: peer QP a.q: receive completion: model says wc_flags GRH|WITH_IMM, real WITH_IMM");
	done(f, &r);
}
END_TEST

/* A successful post's completion opcode against its WR's (recvwc.h: m_send_wc_opcode). */
START_TEST(test_send_opcode_checked)
{
	static const char text[] = TWO "b: write q local=src+0 remote=a.dst+0 len=32 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_as(text, "b: write",
				    (struct fk_step){ .has_opcode = 1, .wc_opcode = M_WCO_SEND }, &o, &r);

	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 11);
	ck_assert_str_eq(r.reason, "line 11: write: completion opcode RDMA_WRITE, real SEND");
	done(f, &r);

	f = run_as(text, "b: write", (struct fk_step){ .has_opcode = 1, .wc_opcode = M_WCO_RDMA_WRITE }, &o, &r);
	ck_assert_uint_ne(r.line, 11); /* the opcode agrees: the step passes (the fake moves no byte: the end fails) */
	done(f, &r);
}
END_TEST

START_TEST(test_peer_receive_checked)
{
	static const char text[] = TWO "a: recv q local=dst+0 len=256\n"
				       "b: send q local=src+0 len=32 expect SUCCESS\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_as(text, "b: send",
				    (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS,
						      .peer_recv = M_WC_SUCCESS }, &o, &r);

	/* the fake does not move the sent bytes: the end comparison sees that */
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "a.dst: memory differs from the model at offset 0");
	ck_assert_uint_eq(r.line, 0);
	done(f, &r);

	/* no receive completion where the model predicts one */
	f = run_as(text, "b: send",
		   (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = -1 }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 12);
	ck_assert_str_eq(r.reason,
			 "line 12: peer QP a.q: model allows state RTS, receive SUCCESS; real state RTS, receive none");
	done(f, &r);

	/* the wrong receive completion */
	f = run_as(text, "b: send",
		   (struct fk_step){ .has_peer = 1, .peer_state = M_QPS_RTS, .peer_recv = M_WC_LOC_LEN_ERR }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_has(r.reason, "receive SUCCESS; real state RTS, receive LOC_LEN_ERR");
	done(f, &r);
}
END_TEST


START_TEST(test_query_results)
{
	static const char text[] = "nodes a b\n"
				   "a: alloc_pd pd\n"
				   "a: create_qp q pd=pd access=REMOTE_READ\n"
				   "b: alloc_pd pd\n"
				   "b: create_qp q pd=pd\n"
				   "connect a.q b.q\n"
				   "a: query_qp q expect access=REMOTE_READ\n";
	struct run_opts o = opts("rxe");
	struct result r;
	struct scn_file *f = run_as(text, "a: query_qp",
				    (struct fk_step){ .has_query = 1, .qp_state = M_QPS_RTS,
						      .qp_access = M_ACC_REMOTE_READ }, &o, &r);

	ck_assert_msg(r.v == V_PASS, "%s: %s", verdict_str(r.v), r.reason);
	done(f, &r);

	f = run_as(text, "a: query_qp",
		   (struct fk_step){ .has_query = 1, .qp_state = M_QPS_RTS,
				     .qp_access = M_ACC_REMOTE_READ | M_ACC_REMOTE_WRITE }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_uint_eq(r.line, 7);
	ck_assert_str_eq(r.reason, "line 7: query_qp: model says access=REMOTE_READ, real access=REMOTE_WRITE|REMOTE_READ");
	done(f, &r);

	/* the real state differs from the model's */
	f = run_as(text, "a: query_qp",
		   (struct fk_step){ .has_query = 1, .qp_state = M_QPS_ERR, .qp_access = M_ACC_REMOTE_READ }, &o, &r);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: query_qp: model says state=RTS, real state=ERR");
	done(f, &r);

	/* the model agrees with reality, the scenario's expectation does not */
	static const char text2[] = "nodes a b\n"
				    "a: alloc_pd pd\n"
				    "a: create_qp q pd=pd\n"
				    "b: alloc_pd pd\n"
				    "b: create_qp q pd=pd\n"
				    "connect a.q b.q\n"
				    "a: query_qp q expect state=ERR\n";
	f = parse(text2);
	ck_assert_int_eq(run_scenario(f, &fake_ops, NULL, &o, &r), 0);
	ck_assert_int_eq(r.v, V_FAIL);
	ck_assert_str_eq(r.reason, "line 7: expect state=ERR, real state=RTS");
	done(f, &r);
}
END_TEST

Suite *suite_test_runner_qp(void)
{
	Suite *s = suite_create("test_runner_qp");
	TCase *tc = tcase_create("qp");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_peer_state_checked);
	tcase_add_test(tc, test_peer_receive_checked);
	tcase_add_test(tc, test_peer_receive_fields_checked);
	tcase_add_test(tc, test_peer_receive_flags_checked);
	tcase_add_test(tc, test_send_opcode_checked);
	tcase_add_test(tc, test_query_results);
	suite_add_tcase(s, tc);
	return s;
}

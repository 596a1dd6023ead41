/*
 * Unit tests of the model: the fields of a successful receive completion
 * besides its status (model/verbs/recvwc.c): a SEND gives IBV_WC_RECV with
 * the bytes sent (LP-5), 40 more on a UD QP (the GRH, UD-SEND-1), and the
 * immediate with SEND_WITH_IMM; a WRITE with immediate gives
 * IBV_WC_RECV_RDMA_WITH_IMM with the bytes written (RA-WRITE-2); wc_flags
 * and invalidated_rkey as the specification and the rxe profile decide them
 * (RECV-WC-1); the check names the first field that differs.
 */
#include "tests/unit/model_fx.h"

#include <errno.h>
#include <string.h>

static struct m_recv_wc expect_of(struct fx *f, struct m_op op)
{
	struct m_pred p = { .op = op };
	struct m_recv_wc w;

	ck_assert_int_eq(m_recv_wc_expect(&f->m, NULL, &p, &w), 0);
	ck_assert_int_eq(w.known, 1);
	return w;
}

START_TEST(test_LP_5_send_gives_recv_with_its_length)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op snd = op_rdma(&f, M_OP_SEND, 0, s.qa, s.ma, 0, 1, s.mb, 0, 96);
	struct m_recv_wc w = expect_of(&f, snd);

	ck_assert_int_eq(w.opcode, M_WCO_RECV);
	ck_assert_uint_eq(w.byte_len, 96);
	ck_assert_int_eq(w.has_imm, 0);
	snd.verbs.with_imm = 1;
	snd.verbs.imm_data = 0xbaddcafe;
	w = expect_of(&f, snd);
	ck_assert_int_eq(w.has_imm, 1);
	ck_assert_uint_eq(w.imm, 0xbaddcafe);
	snd.verbs.no_sge = 1; /* num_sge 0: no bytes, whatever len says */
	ck_assert_uint_eq(expect_of(&f, snd).byte_len, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_WRITE_2_write_imm_gives_recv_rdma_with_imm)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op wi = op_rdma(&f, M_OP_WRITE_IMM, 0, s.qa, s.ma, 0, 1, s.mb, 0, 0);
	struct m_recv_wc w;
	struct m_pred rd = { .op = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8) };

	wi.verbs.imm_data = 7;
	w = expect_of(&f, wi);
	ck_assert_int_eq(w.opcode, M_WCO_RECV_RDMA_WITH_IMM);
	ck_assert_uint_eq(w.byte_len, 0);
	ck_assert_int_eq(w.has_imm, 1);
	ck_assert_uint_eq(w.imm, 7);
	ck_assert_int_eq(m_recv_wc_expect(&f.m, NULL, &rd, &w), -EINVAL); /* a READ consumes no receive */
	model_free(&f.m);
}
END_TEST

/* A node of f (made here, profile rxe) with a UD QP, whose handle it returns. */
static int ud_qp(struct fx *f)
{
	int pd;

	fx_init(f, 1, "rxe");
	pd = fx_pd(f, 0);
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .verbs.pd = (int16_t)pd, .verbs.qp_type = M_QPT_UD },
		     ok_());
}

START_TEST(test_UD_SEND_1_ud_receive_counts_the_grh)
{
	struct fx f;
	int q = ud_qp(&f);

	ck_assert_uint_eq(expect_of(&f, (struct m_op){ .kind = M_OP_SEND, .obj = (int16_t)q, .verbs.len = 100 }).byte_len,
			  100 + M_UD_GRH);
	model_free(&f.m);
}
END_TEST

START_TEST(test_recv_wc_check_names_the_difference)
{
	struct m_recv_wc want = { .known = 1, .opcode = M_WCO_RECV, .byte_len = 96 }, seen = want;
	char why[96];
	enum m_wc_opcode o;

	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), 0);
	seen.byte_len = 100;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "byte_len 96, real 100");
	seen = want;
	seen.has_imm = 1;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "no immediate, real IBV_WC_WITH_IMM");
	want.has_imm = 1;
	want.imm = 1;
	seen.imm = 2;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "imm_data 1, real 2");
	seen.opcode = M_WCO_LOCAL_INV;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "opcode RECV, real LOCAL_INV");
	ck_assert_int_eq(m_wc_opcode_parse("RECV_RDMA_WITH_IMM", &o), 0);
	ck_assert_int_eq(o, M_WCO_RECV_RDMA_WITH_IMM);
	ck_assert_int_eq(m_wc_opcode_parse("IBV_WC_SEND", &o), -EINVAL);
}
END_TEST

/* The expectation under profile name ("generic" or "rxe") of op. */
static struct m_recv_wc expect_under(struct fx *f, const char *name, struct m_op op)
{
	struct m_pred p = { .op = op };
	struct m_profile prof;
	struct m_recv_wc w;

	ck_assert_int_eq(m_profile_get(name, 0, &prof), 0);
	ck_assert_int_eq(m_recv_wc_expect(&f->m, &prof, &p, &w), 0);
	return w;
}

/* RECV-WC-1: RC: WITH_IMM and WITH_INV only, exactly; rxe adds GRH and marks the invalidate with bit 2. */
START_TEST(test_RECV_WC_1_rc_flags_generic_and_rxe)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op snd = op_rdma(&f, M_OP_SEND, 0, s.qa, s.ma, 0, 1, s.mb, 0, 96);
	struct m_recv_wc w = expect_under(&f, "generic", snd);

	ck_assert_uint_eq(w.flags, 0); /* rdma-unit-test LoopbackRcQpTest.Send: wc_flags == 0 */
	ck_assert_uint_eq(w.flags_may, 0);
	ck_assert_int_eq(w.dev, 0);
	w = expect_under(&f, "rxe", snd);
	ck_assert_uint_eq(w.flags, M_WCF_GRH);
	ck_assert_uint_eq(w.flags_may, 0);
	ck_assert_int_ne(w.dev, 0);
	snd.verbs.with_imm = 1;
	ck_assert_uint_eq(expect_under(&f, "generic", snd).flags, M_WCF_WITH_IMM);
	ck_assert_uint_eq(expect_under(&f, "rxe", snd).flags, M_WCF_GRH | M_WCF_WITH_IMM);
	snd.verbs.with_imm = 0;
	snd.verbs.with_inv = 1;
	snd.verbs.rkey = 0x1234;
	w = expect_under(&f, "generic", snd);
	ck_assert_uint_eq(w.flags, M_WCF_WITH_INV);
	ck_assert_int_eq(w.has_inv, 1);
	ck_assert_uint_eq(w.inv, 0x1234);
	w = expect_under(&f, "rxe", snd);
	ck_assert_uint_eq(w.flags, M_WCF_GRH | M_WCF_IP_CSUM_OK);
	ck_assert_int_eq(w.has_inv, 1);
	ck_assert_str_eq(m_rule_info(M_RULE_RECV_WC_1)->id, "RECV-WC-1");
	model_free(&f.m);
}
END_TEST

/* RECV-WC-1: UD: GRH, IP_CSUM_OK either way (the device's offload); rxe sets GRH only. */
START_TEST(test_RECV_WC_1_ud_flags)
{
	struct fx f;
	int q = ud_qp(&f);
	struct m_op snd = { .kind = M_OP_SEND, .obj = (int16_t)q, .verbs.len = 100 };
	struct m_recv_wc w = expect_under(&f, "generic", snd);

	ck_assert_uint_eq(w.flags, M_WCF_GRH);
	ck_assert_uint_eq(w.flags_may, M_WCF_IP_CSUM_OK);
	w = expect_under(&f, "rxe", snd);
	ck_assert_uint_eq(w.flags, M_WCF_GRH);
	ck_assert_uint_eq(w.flags_may, 0);
	model_free(&f.m);
}
END_TEST

/* RECV-WC-1's check: flags outside the set, the invalidated rkey; neither judged when not reported. */
START_TEST(test_RECV_WC_1_check_flags_and_rkey)
{
	struct m_recv_wc want = { .known = 1, .opcode = M_WCO_RECV, .byte_len = 8, .flags = M_WCF_GRH,
				  .flags_may = M_WCF_IP_CSUM_OK },
			 seen = { .known = 1, .opcode = M_WCO_RECV, .byte_len = 8 };
	char why[160], buf[64];

	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), 0); /* flags not reported */
	seen.flags_known = 1;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "wc_flags GRH (IP_CSUM_OK either way), real 0");
	seen.flags = M_WCF_GRH | M_WCF_IP_CSUM_OK;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), 0);
	seen.flags = M_WCF_GRH;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), 0);
	want = (struct m_recv_wc){ .known = 1, .opcode = M_WCO_RECV, .flags = M_WCF_WITH_INV, .has_inv = 1, .inv = 7 };
	seen = (struct m_recv_wc){ .known = 1, .opcode = M_WCO_RECV, .flags_known = 1, .flags = M_WCF_WITH_INV, .inv = 8 };
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "invalidated_rkey 0x7, real 0x8");
	seen.inv = 7;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), 0);
	seen.flags = M_WCF_GRH | M_WCF_WITH_INV | 0x100;
	ck_assert_int_eq(m_recv_wc_check(&want, &seen, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "wc_flags WITH_INV, real GRH|WITH_INV|0x100");
	ck_assert_str_eq(m_wc_flags_str(0, buf, sizeof(buf)), "0");
}
END_TEST

/* ibv_poll_cq(3): a send-queue WR completes with the opcode of its kind; a WRITE with immediate as RDMA_WRITE. */
START_TEST(test_send_wc_opcodes)
{
	ck_assert_int_eq(m_send_wc_opcode(M_OP_SEND), M_WCO_SEND);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_WRITE), M_WCO_RDMA_WRITE);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_WRITE_IMM), M_WCO_RDMA_WRITE);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_READ), M_WCO_RDMA_READ);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_CAS), M_WCO_COMP_SWAP);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_FADD), M_WCO_FETCH_ADD);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_BIND_MW), M_WCO_BIND_MW);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_LOCAL_INV), M_WCO_LOCAL_INV);
	ck_assert_int_eq(m_send_wc_opcode(M_OP_RECV), -1);
	ck_assert_str_eq(m_wc_opcode_str(M_WCO_COMP_SWAP), "COMP_SWAP");
}
END_TEST

Suite *suite_test_model_recvwc(void)
{
	Suite *s = suite_create("model_recvwc");
	TCase *tc = tcase_create("recvwc");

	tcase_add_test(tc, test_LP_5_send_gives_recv_with_its_length);
	tcase_add_test(tc, test_RA_WRITE_2_write_imm_gives_recv_rdma_with_imm);
	tcase_add_test(tc, test_UD_SEND_1_ud_receive_counts_the_grh);
	tcase_add_test(tc, test_recv_wc_check_names_the_difference);
	tcase_add_test(tc, test_send_wc_opcodes);
	RTEST(tc, RECV_WC_1, test_RECV_WC_1_rc_flags_generic_and_rxe);
	RTEST(tc, RECV_WC_1, test_RECV_WC_1_ud_flags);
	RTEST(tc, RECV_WC_1, test_RECV_WC_1_check_flags_and_rkey);
	suite_add_tcase(s, tc);
	return s;
}

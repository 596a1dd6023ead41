/*
 * Unit tests of the model: send WRs with several SGEs (struct
 * m_verbs_args.nsge_more): each SGE checked in turn (LP-1, LP-2, LP-6), the
 * gather and scatter in SGE order (a WRITE, a READ, a FETCH_ADD split over
 * two SGEs: RA-ATOM-3), more SGEs than the QP's max_send_sge (LP-7), and
 * the packet an SGE list first fails in (LP-8).
 */
#include "tests/unit/model_fx.h"
#include "model/verbs/internal.h"

/* A second 4 KiB MR on node n in PD pd, filled with byte b. */
static int mr_filled(struct fx *f, int n, int pd, uint32_t access, uint8_t b)
{
	int h = fx_mr(f, n, pd, 4096, access);

	model_mr_set(&f->m, n, h, 0, b, 4096);
	return h;
}

/* Append to op an SGE of len bytes at MR mr + off on node n. */
static void add_sge(struct fx *f, struct m_op *op, int n, int mr, uint64_t off, uint64_t len)
{
	struct m_sge *g = &op->verbs.sge_more[op->verbs.nsge_more++];

	g->lkey = f->m.node[n].mr[mr].lkey;
	g->addr = model_mr_laddr(&f->m, (unsigned)n, mr, off);
	g->len = len;
	op->verbs.len += len;
}

/* A pair whose QPs take 4 SGEs per send WR. */
static struct pair sge_pair(struct fx *f)
{
	struct pair s;

	fx_init(f, 2, "generic");
	s.pa = fx_pd(f, 0);
	s.pb = fx_pd(f, 1);
	s.ma = mr_filled(f, 0, s.pa, RW, 0x11);
	s.mb = mr_filled(f, 1, s.pb, RW, 0);
	s.qa = fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)s.pa,
				       .verbs.access = QP_ALL, .verbs.max_send_sge = 4 }, ok_());
	s.qb = fx_qp(f, 1, s.pb, QP_ALL);
	fx_connect(f, 0, s.qa, 1, s.qb);
	return s;
}

START_TEST(test_LP_1_write_gathers_sges_in_order)
{
	struct fx f;
	struct pair s = sge_pair(&f);
	int m2 = mr_filled(&f, 0, s.pa, RW, 0x22);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 100, 16);

	add_sge(&f, &w, 0, m2, 8, 32);
	add_sge(&f, &w, 0, s.ma, 200, 8);
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	fx_do(&f, w, wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 99), 0);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 100), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 115), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 116), 0x22);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 147), 0x22);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 148), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 155), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 156), 0);
	/* The second SGE with a key no MR has: the WR fails locally, nothing lands (LP-1). */
	w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 1000, 16);
	add_sge(&f, &w, 0, m2, 0, 16);
	w.verbs.sge_more[0].lkey = 0xdead00;
	struct m_pred pr = fx_predict(&f, w);

	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_1));
	/* Zero length, it may be skipped (LP-2). */
	w.verbs.len -= 16;
	w.verbs.sge_more[0].len = 0;
	pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_6_read_scatters_and_checks_each_sge)
{
	struct fx f;
	struct pair s = sge_pair(&f);
	int ro = mr_filled(&f, 0, s.pa, 0, 0x33);
	struct m_op r = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);

	model_mr_set(&f.m, 1, s.mb, 0, 0x44, 16);
	add_sge(&f, &r, 0, s.ma, 64, 8);
	fx_do(&f, r, wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 7), 0x44);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 8), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 64), 0x44);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 72), 0x11);
	/* A second SGE without LOCAL_WRITE: the response cannot land (LP-6). */
	r = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	add_sge(&f, &r, 0, ro, 0, 8);
	struct m_pred pr = fx_predict(&f, r);

	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)) && fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_6));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_3_fetch_add_split_over_two_sges)
{
	struct fx f;
	struct pair s = sge_pair(&f);
	struct m_op fa = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 8, 1, s.mb, 0, 4);

	model_mr_set(&f.m, 1, s.mb, 0, 0, 8);
	model_mr_set(&f.m, 1, s.mb, 0, 2, 1);
	fa.verbs.swap = fa.verbs.compare = 15;
	add_sge(&f, &fa, 0, s.ma, 16, 4);
	fx_do(&f, fa, wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 0), 17);
	/* The original value, 2, little endian: its low half in the first SGE, its high half in the second. */
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 7), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 8), 2);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 9), 0);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 11), 0);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 12), 0x11);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 16), 0);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 19), 0);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, s.ma, 20), 0x11);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_more_sges_than_max_send_sge)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2); /* max_send_sge 1 */
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_pred pr;

	add_sge(&f, &w, 0, s.ma, 8, 8);
	pr = fx_predict(&f, w);
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LP_7));
	/* cap.max_send_sge is a minimum: a provider that gave more posts it. */
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));
	fx_do(&f, w, err_(EINVAL));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	/* One SGE is within any QP's cap. */
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 16)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_8_sge_list_fails_in_a_later_packet)
{
	struct fx f;
	struct pair s = sge_pair(&f);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 1024);
	struct m_op one = w, in_first = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 512);

	add_sge(&f, &w, 0, s.ma, 0, 64);
	add_sge(&f, &in_first, 0, s.ma, 0, 64);
	w.verbs.sge_more[0].lkey = 0xdead00; /* bad from byte 1024 of the message on: the second packet */
	in_first.verbs.sge_more[0].lkey = 0xdead00; /* bad from byte 512: the first of a 1024-byte path MTU */
	add_sge(&f, &one, 0, s.ma, 0, 64);
	one.verbs.lkey = 0xdead00; /* bad from byte 0 */
	ck_assert_uint_eq(m_sge_first_bad(&f.m.node[0], s.pa, &w), 1024);
	ck_assert_uint_eq(m_sge_first_bad(&f.m.node[0], s.pa, &in_first), 512);
	ck_assert_uint_eq(f.m.node[0].qp[s.qa].pmtu, M_PATH_MTU_DEFAULT);
	ck_assert_int_eq(m_later_packet_fails(&f.m.node[0], &f.m.node[0].qp[s.qa], &in_first), 0);
	ck_assert_uint_eq(m_sge_first_bad(&f.m.node[0], s.pa, &one), 0);
	ck_assert_int_eq(m_later_packet_fails(&f.m.node[0], &f.m.node[0].qp[s.qa], &w), 1);
	ck_assert_int_eq(m_later_packet_fails(&f.m.node[0], &f.m.node[0].qp[s.qa], &one), 0);
	one.verbs.lkey = f.m.node[0].mr[s.ma].lkey;
	ck_assert_uint_eq(m_sge_first_bad(&f.m.node[0], s.pa, &one), UINT64_MAX);
	model_free(&f.m);
}
END_TEST

START_TEST(test_sge_lists_the_model_does_not_follow)
{
	struct fx f;
	struct pair s = sge_pair(&f);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_pred pr;

	add_sge(&f, &w, 0, s.ma, 8, 8);
	w.verbs.send_inline = 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &w, &pr), -EINVAL);
	w.verbs.send_inline = 0;
	w.verbs.len = 4; /* shorter than the SGEs after the first */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &w, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_sgelist(void)
{
	Suite *s = suite_create("model_sgelist");
	TCase *tc = tcase_create("sgelist");

	RTEST(tc, LP_1, test_LP_1_write_gathers_sges_in_order);
	RTEST(tc, LP_6, test_LP_6_read_scatters_and_checks_each_sge);
	RTEST(tc, RA_ATOM_3, test_RA_ATOM_3_fetch_add_split_over_two_sges);
	RTEST(tc, LP_7, test_LP_7_more_sges_than_max_send_sge);
	RTEST(tc, LP_8, test_LP_8_sge_list_fails_in_a_later_packet);
	tcase_add_test(tc, test_sge_lists_the_model_does_not_follow);
	suite_add_tcase(s, tc);
	return s;
}

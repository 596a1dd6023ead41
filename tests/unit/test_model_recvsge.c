/*
 * Unit tests of the model: receives with several SGEs (model/verbs/recvsge.c):
 * a SEND scatters into them in order (LP-4), each the message reaches is
 * checked (LP-4: a bad key, no LOCAL_WRITE; one it does not reach may go unchecked, LP-2), a
 * message longer than their sum (LP-5), more than max_recv_sge (LP-7), and
 * the node's pool of their SGEs, freed as receives complete or flush.
 */
#include "tests/unit/model_fx.h"
#include "model/verbs/internal.h"

/* A 4 KiB MR on node n in PD pd with access, filled with byte b. */
static int mr_filled(struct fx *f, int n, int pd, uint32_t access, uint8_t b)
{
	int h = fx_mr(f, n, pd, 4096, access);

	model_mr_set(&f->m, n, h, 0, b, 4096);
	return h;
}

/* Append to receive op an SGE of len bytes at MR mr + off on node 1. */
static void add_sge(struct fx *f, struct m_op *op, int mr, uint64_t off, uint64_t len)
{
	struct m_sge *g = &op->verbs.sge_more[op->verbs.nsge_more++];

	g->lkey = f->m.node[1].mr[mr].lkey;
	g->addr = model_mr_laddr(&f->m, 1, mr, off);
	g->len = len;
	op->verbs.len += len;
}

/* A receive on node 1's QP q of len bytes at MR mr + off (its first SGE). */
static struct m_op op_recv(struct fx *f, int q, int mr, uint64_t off, uint64_t len)
{
	return (struct m_op){ .kind = M_OP_RECV, .node = 1, .obj = (int16_t)q, .verbs.len = len,
			      .verbs.lkey = f->m.node[1].mr[mr].lkey,
			      .verbs.laddr = model_mr_laddr(&f->m, 1, mr, off) };
}

/* A SEND of len bytes from node 0's MR mr, on QP q. */
static struct m_op op_send(struct fx *f, int q, int mr, uint64_t len)
{
	return (struct m_op){ .kind = M_OP_SEND, .node = 0, .obj = (int16_t)q, .verbs.len = len,
			      .verbs.lkey = f->m.node[0].mr[mr].lkey, .verbs.laddr = model_mr_laddr(&f->m, 0, mr, 0) };
}

/* A pair whose receiving QP (node 1) takes 4 SGEs per receive; node 0's MR holds bytes 0, 1, 2, ... */
static struct pair rsge_pair(struct fx *f, int *m2)
{
	struct pair s;

	fx_init(f, 2, "generic");
	s.pa = fx_pd(f, 0);
	s.pb = fx_pd(f, 1);
	s.ma = mr_filled(f, 0, s.pa, RW, 0);
	s.mb = mr_filled(f, 1, s.pb, RW, 0xee);
	*m2 = mr_filled(f, 1, s.pb, RW, 0xdd);
	for (unsigned i = 0; i < 4096; i++)
		model_mr_set(&f->m, 0, s.ma, i, (uint8_t)i, 1);
	s.qa = fx_qp(f, 0, s.pa, QP_ALL);
	s.qb = fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 1, .verbs.pd = (int16_t)s.pb,
				       .verbs.access = QP_ALL, .verbs.max_recv_sge = 4 }, ok_());
	fx_connect(f, 0, s.qa, 1, s.qb);
	return s;
}

/* 16 bytes at mb+0, 32 at m2+100, 8 at mb+200: 56 in all. */
static struct m_op three_sges(struct fx *f, const struct pair *s, int m2)
{
	struct m_op rv = op_recv(f, s->qb, s->mb, 0, 16);

	add_sge(f, &rv, m2, 100, 32);
	add_sge(f, &rv, s->mb, 200, 8);
	return rv;
}

START_TEST(test_LP_4_send_scatters_into_receive_sges_in_order)
{
	struct fx f;
	int m2;
	struct pair s = rsge_pair(&f, &m2);

	fx_do(&f, three_sges(&f, &s, m2), ok_());
	ck_assert(fx_only(fx_predict(&f, op_send(&f, s.qa, s.ma, 50)), wc_(M_WC_SUCCESS)));
	fx_do(&f, op_send(&f, s.qa, s.ma, 50), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 0), 0);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 15), 15);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 16), 0xee); /* not past the first SGE */
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, m2, 99), 0xdd);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, m2, 100), 16);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, m2, 131), 47);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, m2, 132), 0xdd);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 200), 48);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 201), 49);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.mb, 202), 0xee); /* the message ended: the rest of the last SGE is untouched */
	ck_assert_int_eq(f.m.node[1].qp[s.qb].nrecv, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_5_message_longer_than_the_receive_sges)
{
	struct fx f;
	int m2;
	struct pair s = rsge_pair(&f, &m2);

	fx_do(&f, three_sges(&f, &s, m2), ok_());
	ck_assert(fx_only(fx_predict(&f, op_send(&f, s.qa, s.ma, 56)), wc_(M_WC_SUCCESS)));
	struct m_pred pr = fx_predict(&f, op_send(&f, s.qa, s.ma, 57));

	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_LP_5));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_4_bad_receive_sge_the_message_reaches)
{
	struct fx f;
	int m2;
	struct pair s = rsge_pair(&f, &m2);
	struct m_op rv = three_sges(&f, &s, m2);
	struct m_pred pr;

	rv.verbs.sge_more[0].lkey = 0xdead00;
	fx_do(&f, rv, ok_());
	/* 20 bytes reach the second SGE: the receive fails (LP-4). */
	pr = fx_predict(&f, op_send(&f, s.qa, s.ma, 20));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_OP_ERR), M_RULE_LP_4));
	/* 16 bytes fill the first only: the second may go unchecked (LP-2). */
	pr = fx_predict(&f, op_send(&f, s.qa, s.ma, 16));
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_rule(pr, wc_(M_WC_REM_OP_ERR), M_RULE_LP_4));
	/* Failed after its first SGE took bytes: what the message reached is unspecified. */
	fx_do(&f, op_send(&f, s.qa, s.ma, 20), wc_(M_WC_REM_OP_ERR));
	ck_assert_uint_eq(model_mr_unknown(&f.m, 1, s.mb, 15), 1);
	ck_assert_uint_eq(model_mr_unknown(&f.m, 1, s.mb, 16), 0);
	ck_assert_uint_eq(model_mr_unknown(&f.m, 1, s.mb, 200), 0); /* the third, not reached */
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_4_receive_sge_without_local_write)
{
	struct fx f;
	int m2;
	struct pair s = rsge_pair(&f, &m2);
	int ro = mr_filled(&f, 1, s.pb, M_ACC_REMOTE_READ, 0x55);
	struct m_op rv = op_recv(&f, s.qb, s.mb, 0, 8);
	struct m_pred pr;

	add_sge(&f, &rv, ro, 0, 8);
	fx_do(&f, rv, ok_());
	pr = fx_predict(&f, op_send(&f, s.qa, s.ma, 12));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_OP_ERR), M_RULE_LP_4));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_OP_ERR), M_RULE_LP_6)); /* why the SGE is refused */
	fx_do(&f, op_send(&f, s.qa, s.ma, 12), wc_(M_WC_REM_OP_ERR));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, ro, 0), 0x55);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_more_receive_sges_than_max_recv_sge)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2); /* max_recv_sge 1 */
	struct m_op rv = op_recv(&f, s.qb, s.mb, 0, 8);
	struct m_pred pr;

	ck_assert(fx_only(fx_predict(&f, rv), ok_()));
	add_sge(&f, &rv, s.mb, 64, 8);
	pr = fx_predict(&f, rv);
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LP_7));
	/* cap.max_recv_sge is a minimum: a provider that gave more posts it. */
	ck_assert(fx_has(pr, ok_()));
	fx_do(&f, rv, err_(EINVAL));
	ck_assert_int_eq(f.m.node[1].qp[s.qb].nrecv, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_receive_sge_pool_slots_come_back)
{
	struct fx f;
	int m2;
	struct pair s = rsge_pair(&f, &m2);
	struct m_op rv = three_sges(&f, &s, m2);
	struct m_pred pr;

	for (unsigned i = 0; i < M_RSGE_SLOTS; i++)
		fx_do(&f, rv, ok_());
	ck_assert_int_eq(model_predict(&f.m, &f.p, &rv, &pr), -ENOSPC);
	/* One-SGE receives take no slot. */
	ck_assert(fx_only(fx_predict(&f, op_recv(&f, s.qb, s.mb, 0, 8)), ok_()));
	/* A SEND consumes the oldest: its slot is free again, the others' SGEs kept. */
	fx_do(&f, op_send(&f, s.qa, s.ma, 50), wc_(M_WC_SUCCESS));
	ck_assert(fx_only(fx_predict(&f, rv), ok_()));
	rv.verbs.sge_more[0].addr += 8; /* this one's second SGE 8 bytes further */
	fx_do(&f, rv, ok_());
	for (unsigned i = 0; i < M_RSGE_SLOTS - 1; i++)
		fx_do(&f, op_send(&f, s.qa, s.ma, 20), wc_(M_WC_SUCCESS));
	fx_do(&f, op_send(&f, s.qa, s.ma, 20), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, m2, 108), 16);
	/* Flushed receives free theirs too (RA-ERR-2). */
	for (unsigned i = 0; i < M_RSGE_SLOTS; i++)
		fx_do(&f, rv, ok_());
	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .node = 1, .obj = (int16_t)s.qb, .verbs.qp_state = M_QPS_ERR },
	      ok_());
	ck_assert_int_ge(m_rsge_free_slot(&f.m.node[1]), 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_receive_sge_lists_the_model_does_not_follow)
{
	struct fx f;
	int m2;
	struct pair s = rsge_pair(&f, &m2);
	struct m_op rv = op_recv(&f, s.qb, s.mb, 0, 4);
	struct m_pred pr;

	add_sge(&f, &rv, s.mb, 64, 8);
	rv.verbs.len = 4; /* shorter than the SGEs after the first */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &rv, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_recvsge(void)
{
	Suite *s = suite_create("model_recvsge");
	TCase *tc = tcase_create("recvsge");

	RTEST(tc, LP_4, test_LP_4_send_scatters_into_receive_sges_in_order);
	RTEST(tc, LP_5, test_LP_5_message_longer_than_the_receive_sges);
	RTEST(tc, LP_4, test_LP_4_bad_receive_sge_the_message_reaches);
	RTEST(tc, LP_4, test_LP_4_receive_sge_without_local_write);
	RTEST(tc, LP_7, test_LP_7_more_receive_sges_than_max_recv_sge);
	tcase_add_test(tc, test_receive_sge_pool_slots_come_back);
	tcase_add_test(tc, test_receive_sge_lists_the_model_does_not_follow);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: calls given a garbled handle (struct
 * m_verbs_args.garble, HANDLE-1) and a bind without an MR (MW-BIND-2).
 */
#include "tests/unit/model_fx.h"

static struct m_op garbled(struct m_op op, enum m_garble g)
{
	op.verbs.garble = (uint8_t)g;
	return op;
}

static struct m_op op_alloc_mw(int pd, enum m_mw_type t)
{
	return (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)pd, .verbs.mw_type = t };
}

/* A bind of window mw on node 0's QP qp: MR mr (-1: none) from its start, len bytes, REMOTE_WRITE. */
static struct m_op op_bind(struct fx *f, int mw, int qp, int mr, uint64_t len)
{
	return (struct m_op){ .kind = M_OP_BIND_MW, .node = 0, .obj = (int16_t)mw, .verbs.qp = (int16_t)qp,
			      .verbs.mr = (int16_t)mr, .verbs.offset = mr >= 0 ? f->m.node[0].mr[mr].iova : 0,
			      .verbs.len = len, .verbs.access = M_ACC_REMOTE_WRITE };
}

START_TEST(test_HANDLE_1_destroys_are_enoent_and_change_nothing)
{
	struct fx f;
	int pd, mr, mw, qp;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd, 4096, RW);
	mw = fx_do(&f, op_alloc_mw(pd, M_MW_TYPE_2), ok_());
	qp = fx_qp(&f, 0, pd, QP_ALL);
	/* Without the garbling: EBUSY, ok, ok, ok. */
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), err_(EBUSY)));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 0, mr)), ok_()));
	const struct { enum m_op_kind k; int h; } calls[] = {
		{ M_OP_DEALLOC_PD, pd }, { M_OP_DEREG_MR, mr }, { M_OP_DEALLOC_MW, mw }, { M_OP_DESTROY_QP, qp },
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		pr = fx_predict(&f, garbled(op_obj(calls[i].k, 0, calls[i].h), M_GARBLE_SELF));
		ck_assert(fx_only(pr, err_(ENOENT)));
		ck_assert(fx_rule(pr, err_(ENOENT), M_RULE_HANDLE_1));
		fx_do(&f, garbled(op_obj(calls[i].k, 0, calls[i].h), M_GARBLE_SELF), err_(ENOENT));
	}
	/* Every object is still there under its true handle. */
	ck_assert(f.m.node[0].pd[pd].live && f.m.node[0].mr[mr].live && f.m.node[0].mw[mw].live &&
		  f.m.node[0].qp[qp].live);
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, qp), ok_());
	fx_do(&f, op_obj(M_OP_DEALLOC_MW, 0, mw), ok_());
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, mr), ok_());
	fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, pd), ok_());
	model_free(&f.m);
}
END_TEST

START_TEST(test_HANDLE_1_inputs_of_creates_refused)
{
	struct fx f;
	int pd, n;
	struct m_pred pr;
	struct m_op qp = { .kind = M_OP_CREATE_QP, .node = 0, .verbs.access = QP_ALL };

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	qp.verbs.pd = (int16_t)pd;
	n = f.m.node[0].nmr;
	pr = fx_predict(&f, garbled(op_reg(0, pd, 4096, RW), M_GARBLE_PD));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, err_(ENOENT)) && !fx_has(pr, ok_()));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_HANDLE_1));
	fx_do(&f, garbled(op_reg(0, pd, 4096, RW), M_GARBLE_PD), err_(EINVAL));
	ck_assert_int_eq(f.m.node[0].nmr, n);
	ck_assert(!fx_has(fx_predict(&f, garbled(op_alloc_mw(pd, M_MW_TYPE_1), M_GARBLE_PD)), ok_()));
	ck_assert(!fx_has(fx_predict(&f, garbled(qp, M_GARBLE_PD)), ok_()));
	/* A garbled CQ or SRQ must be one the QP is given. */
	struct m_pred junk;
	struct m_op bad = garbled(qp, M_GARBLE_SEND_CQ);

	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &junk), -EINVAL);
	bad = garbled(op_obj(M_OP_DEALLOC_PD, 0, pd), M_GARBLE_PD); /* dealloc_pd garbles its own */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &junk), -EINVAL);
	/* The PD took none of them. */
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_HANDLE_1_bind_goes_on_or_fails)
{
	struct fx f;
	int pd, mr, mw, qp;
	struct m_pred pr;

	fx_init(&f, 2, "generic");
	pd = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd, 4096, RW | M_ACC_MW_BIND);
	mw = fx_do(&f, op_alloc_mw(pd, M_MW_TYPE_1), ok_());
	qp = fx_qp(&f, 0, pd, QP_ALL);
	int pb = fx_pd(&f, 1), qb = fx_qp(&f, 1, pb, QP_ALL);

	fx_connect(&f, 0, qp, 1, qb);
	ck_assert(fx_only(fx_predict(&f, op_bind(&f, mw, qp, mr, 64)), wc_(M_WC_SUCCESS)));
	pr = fx_predict(&f, garbled(op_bind(&f, mw, qp, mr, 64), M_GARBLE_MR));
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_has(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_HANDLE_1));
	/* Its QP's handle is not garbled in a bind (the model does not follow rxe's doorbell). */
	struct m_pred junk;
	struct m_op bad = garbled(op_bind(&f, mw, qp, mr, 64), M_GARBLE_QP);

	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &junk), -EINVAL);
	fx_do(&f, garbled(op_bind(&f, mw, qp, mr, 64), M_GARBLE_SELF), wc_(M_WC_MW_BIND_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, qp), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_2_no_mr_with_length)
{
	struct fx f;
	int pd, mr, mw, mw2, qp;
	struct m_pred pr;

	fx_init(&f, 2, "generic");
	pd = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd, 4096, RW | M_ACC_MW_BIND);
	mw = fx_do(&f, op_alloc_mw(pd, M_MW_TYPE_1), ok_());
	mw2 = fx_do(&f, op_alloc_mw(pd, M_MW_TYPE_2), ok_());
	qp = fx_qp(&f, 0, pd, QP_ALL);
	int pb = fx_pd(&f, 1), qb = fx_qp(&f, 1, pb, QP_ALL);

	fx_connect(&f, 0, qp, 1, qb);
	pr = fx_predict(&f, op_bind(&f, mw, qp, -1, 64));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MW_BIND_2));
	fx_do(&f, op_bind(&f, mw, qp, -1, 64), err_(EINVAL));
	ck_assert(!f.m.node[0].mw[mw].bound);
	/* The same bind with its MR goes through. */
	ck_assert(fx_only(fx_predict(&f, op_bind(&f, mw, qp, mr, 64)), wc_(M_WC_SUCCESS)));
	/* A type-2 window through ibv_bind_mw: its type is refused first (MW-BIND-1). */
	struct m_op t2 = op_bind(&f, mw2, qp, -1, 64);

	t2.verbs.bind_call = 1;
	pr = fx_predict(&f, t2);
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MW_BIND_1) && !fx_rule(pr, err_(EINVAL), M_RULE_MW_BIND_2));
	/* A type-2 bind WR without an MR, and a NULL MR with no range, are not modelled. */
	struct m_op bad = op_bind(&f, mw2, qp, -1, 64);

	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &pr), -EINVAL);
	bad = op_bind(&f, mw, qp, -1, 0);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* destroy_cq, destroy_srq and destroy_ah of a garbled handle (rdma-unit-test CqTest.DestroyInvalidCq,
 * SrqTest.DestroyInvalidSrq, AhTest.DestroyWithInvalidHandle): ENOENT, and each object stays; create_srq
 * in a garbled PD (SrqTest.CreateWithInvalidPd) makes nothing. */
START_TEST(test_HANDLE_1_cq_srq_ah_destroys_and_srq_create)
{
	struct fx f;
	int pd, cq, srq, ah, nsrq;
	struct m_pred pr;
	struct m_op mk_srq = { .kind = M_OP_CREATE_SRQ, .node = 0, .verbs.max_recv_wr = 4 };

	fx_init(&f, 2, "generic");
	pd = fx_pd(&f, 0);
	mk_srq.verbs.pd = (int16_t)pd;
	cq = fx_cq(&f, 0, 4);
	srq = fx_do(&f, mk_srq, ok_());
	ah = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_AH, .node = 0, .verbs.pd = (int16_t)pd, .verbs.ah_node = 1 },
		   ok_());
	const struct { enum m_op_kind k; int h; } calls[] = {
		{ M_OP_DESTROY_CQ, cq }, { M_OP_DESTROY_SRQ, srq }, { M_OP_DESTROY_AH, ah },
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		pr = fx_predict(&f, garbled(op_obj(calls[i].k, 0, calls[i].h), M_GARBLE_SELF));
		ck_assert(fx_only(pr, err_(ENOENT)));
		ck_assert(fx_rule(pr, err_(ENOENT), M_RULE_HANDLE_1));
		fx_do(&f, garbled(op_obj(calls[i].k, 0, calls[i].h), M_GARBLE_SELF), err_(ENOENT));
	}
	nsrq = f.m.node[0].ud.nsrq;
	pr = fx_predict(&f, garbled(mk_srq, M_GARBLE_PD));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, err_(ENOENT)) && !fx_has(pr, ok_()));
	fx_do(&f, garbled(mk_srq, M_GARBLE_PD), err_(ENOENT));
	ck_assert_int_eq(f.m.node[0].ud.nsrq, nsrq);
	/* Each is still there under its true handle: the PD is busy with the SRQ and the AH. */
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), err_(EBUSY)));
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		fx_do(&f, op_obj(calls[i].k, 0, calls[i].h), ok_());
	fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, pd), ok_());
	model_free(&f.m);
}
END_TEST

START_TEST(test_garble_names)
{
	enum m_garble g;

	ck_assert_str_eq(m_garble_str(M_GARBLE_SEND_CQ), "send_cq");
	ck_assert_int_eq(m_garble_parse("SRQ", &g), 0);
	ck_assert_int_eq(g, M_GARBLE_SRQ);
	ck_assert_int_eq(m_garble_parse("cq", &g), -EINVAL);
	ck_assert_str_eq(m_garble_str(M_GARBLE_COUNT_), "?");
}
END_TEST

Suite *suite_test_model_handle(void)
{
	Suite *s = suite_create("model_handle");
	TCase *tc = tcase_create("handle");

	RTEST(tc, HANDLE_1, test_HANDLE_1_destroys_are_enoent_and_change_nothing);
	RTEST(tc, HANDLE_1, test_HANDLE_1_inputs_of_creates_refused);
	RTEST(tc, HANDLE_1, test_HANDLE_1_bind_goes_on_or_fails);
	RTEST(tc, HANDLE_1, test_HANDLE_1_cq_srq_ah_destroys_and_srq_create);
	RTEST(tc, MW_BIND_2, test_MW_BIND_2_no_mr_with_length);
	tcase_add_test(tc, test_garble_names);
	suite_add_tcase(s, tc);
	return s;
}

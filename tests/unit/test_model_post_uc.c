/* Unit tests of the model: UC QPs and RC QPs without READ/atomic resources. */
#include "tests/unit/post_fx.h"

/* Generic profile, two nodes: a PD, a 4 KiB RW MR and a QP of type and
 * access each, not connected. */
static struct pair pair_apart(struct fx *f, uint32_t access, uint8_t type)
{
	struct pair s;

	fx_init(f, 2, "generic");
	s.pa = fx_pd(f, 0);
	s.pb = fx_pd(f, 1);
	s.ma = fx_mr(f, 0, s.pa, 4096, RW);
	s.mb = fx_mr(f, 1, s.pb, 4096, RW);
	s.qa = fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)s.pa,
				       .verbs.access = access, .verbs.qp_type = type }, ok_());
	s.qb = fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 1, .verbs.pd = (int16_t)s.pb,
				       .verbs.access = access, .verbs.qp_type = type }, ok_());
	return s;
}

/* Connected with max_dest_rd_atomic 0: READ and atomics (even a zero-length
 * READ: resources come before the length) are invalid requests, WRITE works. */
START_TEST(test_RA_RES_1_no_read_atomic_resources)
{
	struct fx f;
	struct pair s = pair_apart(&f, QP_ALL, M_QPT_RC);
	int ma = s.ma, mb = s.mb, qa = s.qa, qb = s.qb;

	fx_do(&f, (struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)qa, .verbs.peer_node = 1,
				 .verbs.peer_qp = (int16_t)qb, .verbs.no_rd_atomic = 1 }, ok_());
	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_READ, 0, qa, ma, 0, 1, mb, 0, 0));
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_RES_1));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_FADD, 0, qa, ma, 0, 1, mb, 0, 8)), wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8)), wc_(M_WC_SUCCESS)));
	fx_do(&f, op_rdma(&f, M_OP_READ, 0, qa, ma, 0, 1, mb, 0, 8), wc_(M_WC_REM_INV_REQ_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

/* Two nodes with a connected UC QP pair (access REMOTE_WRITE) and a 4 KiB RW MR each. */
static struct pair uc_pair(struct fx *f)
{
	struct pair s = pair_apart(f, M_ACC_REMOTE_WRITE, M_QPT_UC);

	fx_connect(f, 0, s.qa, 1, s.qb);
	return s;
}

/* No READ or atomics on UC: EINVAL at the post or LOC_QP_OP_ERR (QP to ERR). */
START_TEST(test_RA_ATOM_4_no_read_or_atomics_on_uc)
{
	struct fx f;
	struct pair s = uc_pair(&f);
	struct m_pred pr = fx_predict(&f, R(0, 8));

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) && pr.n == 2);
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_RA_ATOM_4));
	ck_assert(fx_has(fx_predict(&f, op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8)), err_(EINVAL)));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	/* A UC QP connects only to a UC QP. */
	int rc_q = fx_qp(&f, 1, s.pb, QP_ALL);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)s.qa,
		.verbs.peer_node = 1, .verbs.peer_qp = (int16_t)rc_q }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* UC: what the responder refuses is dropped; the requester completes SUCCESS,
 * nothing lands, both QPs stay RTS. A SEND without a receive is dropped too. */
START_TEST(test_RA_UC_1_refused_writes_are_dropped)
{
	struct fx f;
	struct pair s = uc_pair(&f);
	struct m_op bad = W(0, 16);
	uint8_t zero[16] = { 0 };

	bad.verbs.rkey += 3;
	struct m_pred pr = fx_predict(&f, bad);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_UC_1));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_NONE);
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x77, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, bad, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, zero, 16), -1);
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	/* Past the end: dropped as well. */
	ck_assert(fx_rule(fx_predict(&f, W(4090, 16)), wc_(M_WC_SUCCESS), M_RULE_RA_UC_1));
	/* A SEND with no receive posted: no RNR on UC. */
	struct m_op send = W(0, 16);
	send.kind = M_OP_SEND;
	ck_assert(fx_rule(fx_predict(&f, send), wc_(M_WC_SUCCESS), M_RULE_RA_UC_1));
	/* A good WRITE lands. */
	fx_do(&f, W(0, 16), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, zero, 16), 0);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post_uc(void)
{
	Suite *s = suite_create("model_post_uc");
	TCase *tc = tcase_create("uc");

	RTEST(tc, RA_RES_1, test_RA_RES_1_no_read_atomic_resources);
	RTEST(tc, RA_ATOM_4, test_RA_ATOM_4_no_read_or_atomics_on_uc);
	RTEST(tc, RA_UC_1, test_RA_UC_1_refused_writes_are_dropped);
	suite_add_tcase(s, tc);
	return s;
}

/* Unit tests of the model: memory windows (bind, access through, invalidate, dealloc). */
#include "tests/unit/post_fx.h"

static int fx_mw(struct fx *f, int node, int pd, int type)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.mw_type = (uint32_t)type }, ok_());
}

static struct m_op op_bind(struct fx *f, int node, int mw, int qp, int mr, uint64_t off, uint64_t len,
			   uint32_t access)
{
	return (struct m_op){ .kind = M_OP_BIND_MW, .node = (uint8_t)node, .obj = (int16_t)mw, .verbs.qp = (int16_t)qp,
			      .verbs.mr = (int16_t)mr, .verbs.offset = f->m.node[node].mr[mr].iova + off, .verbs.len = len,
			      .verbs.access = access };
}

/* An rdma op from node 0's QP against node 1's window mw. */
static struct m_op op_via_mw(struct fx *f, enum m_op_kind k, struct pair s, int mw, uint64_t raddr, uint64_t len)
{
	struct m_op op = op_rdma(f, k, 0, s.qa, s.ma, 0, 1, s.mb, 0, len);

	op.verbs.rkey = f->m.node[1].mw[mw].rkey;
	op.verbs.raddr = raddr;
	return op;
}

#define MWB (M_ACC_LOCAL_WRITE | M_ACC_MW_BIND | M_ACC_REMOTE_READ)

START_TEST(test_MW_ALLOC_2_unbound_window_grants_nothing)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mw = fx_mw(&f, 1, s.pb, 1);
	struct m_pred pr = fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, model_mr_raddr(&f.m, 1, s.mb, 0), 8));

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MW_ALLOC_2));
	model_free(&f.m);
}
END_TEST

/* Node 1 has an MR with MW_BIND and a bound type-1 window over its first 1 KiB. */
#define MW1_SETUP(profile)                                                                  \
	struct fx f;                                                                        \
	struct pair s = fx_pair(&f, profile, 2);                                            \
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB);                                             \
	int mw = fx_mw(&f, 1, s.pb, 1);                                                     \
	fx_do(&f, op_bind(&f, 1, mw, s.qb, mr, 0, 1024, M_ACC_REMOTE_READ), wc_(M_WC_SUCCESS))

START_TEST(test_MW_ACC_1_access_through_window)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_pred pr = fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, base + 8, 8));

	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_ACC_1));
	/* The window has no REMOTE_WRITE though the MR has LOCAL_WRITE. */
	ck_assert(fx_only(fx_predict(&f, op_via_mw(&f, M_OP_WRITE, s, mw, base + 8, 8)), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ACC_2_outside_window_inside_mr)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, base + 2048, 8);
	struct m_pred pr = fx_predict(&f, r);

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MW_ACC_2));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, r);
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	/* Outside the MR too: refused everywhere. */
	r.verbs.raddr = base + 4096;
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_KEY_1_rebind_kills_old_rkey)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op old = op_via_mw(&f, M_OP_READ, s, mw, base, 8);
	struct m_op bind = op_bind(&f, 1, mw, s.qb, mr, 0, 2048, M_ACC_REMOTE_READ);

	ck_assert(fx_rule(fx_predict(&f, bind), wc_(M_WC_SUCCESS), M_RULE_MW_KEY_1));
	fx_do(&f, bind, wc_(M_WC_SUCCESS));
	ck_assert_uint_ne(f.m.node[1].mw[mw].rkey, old.verbs.rkey);
	ck_assert(fx_only(fx_predict(&f, old), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, base, 8)), wc_(M_WC_SUCCESS)));
	ck_assert_uint_eq(f.m.node[1].mr[mr].nbound, 1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_1_type1_unbind)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, base, 8);
	struct m_op unbind = op_bind(&f, 1, mw, s.qb, mr, 0, 0, 0);

	ck_assert(fx_rule(fx_predict(&f, unbind), wc_(M_WC_SUCCESS), M_RULE_MW_INV_1));
	fx_do(&f, unbind, wc_(M_WC_SUCCESS));
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, mr)), ok_())); /* nothing bound */
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_DEALLOC_1_bound_window)
{
	MW1_SETUP("rxe");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, base, 8);
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DEALLOC_MW, 1, mw));

	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MW_DEALLOC_1));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, mr)), err_(EINVAL)));
	fx_do(&f, op_obj(M_OP_DEALLOC_MW, 1, mw), ok_());
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, mr)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_1_bind_call_on_type2)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 2);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ);

	b.verbs.bind_call = 1; /* the ibv_bind_mw() call */
	ck_assert(fx_rule(fx_predict(&f, b), err_(EINVAL), M_RULE_MW_BIND_1));
	b.verbs.bind_call = 0; /* a bind work request */
	ck_assert(fx_only(fx_predict(&f, b), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_3_mr_of_other_pd)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 1), mr = fx_mr(&f, 1, pd2, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_pred pr = fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ));

	ck_assert(fx_only(pr, err_(EPERM)));
	ck_assert(fx_rule(pr, err_(EPERM), M_RULE_MW_BIND_3));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	int mine = fx_mr(&f, 1, s.pb, 4096, MWB);
	ck_assert(fx_only(fx_predict(&f, op_bind(&f, 1, mw, s.qb, mine, 0, 64, M_ACC_REMOTE_READ)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_5_mr_without_mw_bind)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mw = fx_mw(&f, 1, s.pb, 1);
	struct m_op b = op_bind(&f, 1, mw, s.qb, s.mb, 0, 64, M_ACC_REMOTE_READ);
	struct m_pred pr = fx_predict(&f, b);

	ck_assert(fx_only(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_5));
	fx_do(&f, b, wc_(M_WC_MW_BIND_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_6_write_window_needs_local_write)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, M_ACC_MW_BIND), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_WRITE);

	ck_assert(fx_rule(fx_predict(&f, b), wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_6));
	b.verbs.access = M_ACC_REMOTE_READ;
	ck_assert(fx_only(fx_predict(&f, b), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_7_window_outside_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 1);

	ck_assert(fx_rule(fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 4000, 200, M_ACC_REMOTE_READ)),
			  wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_7));
	ck_assert(fx_only(fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 3896, 200, M_ACC_REMOTE_READ)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_8_type1_zero_based)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ);

	b.verbs.zero_based = 1;
	struct m_pred pr = fx_predict(&f, b);
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_MW_BIND_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MW_BIND_8));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_9_zero_based_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op reg = op_reg(1, s.pb, 4096, MWB);

	reg.verbs.has_iova = 1;
	reg.verbs.iova = 0;
	int mr = fx_do(&f, reg, ok_()), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_pred pr = fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ));
	ck_assert(fx_has(pr, wc_(M_WC_MW_BIND_ERR)) && fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_9));
	model_free(&f.m);
}
END_TEST

/* A type-2 window bound on node 1's QP over node 1's MR. */
#define MW2_SETUP(profile)                                                                  \
	struct fx f;                                                                        \
	struct pair s = fx_pair(&f, profile, 2);                                            \
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB);                                             \
	int mw = fx_mw(&f, 1, s.pb, 2);                                                     \
	struct m_op bind2 = op_bind(&f, 1, mw, s.qb, mr, 0, 1024, M_ACC_REMOTE_READ);       \
	fx_do(&f, bind2, wc_(M_WC_SUCCESS))

START_TEST(test_MW_BIND_10_type2_already_bound)
{
	MW2_SETUP("generic");
	struct m_pred pr = fx_predict(&f, bind2);

	ck_assert(fx_only(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_10));
	struct m_op zero = bind2;
	zero.verbs.len = 0;
	ck_assert(fx_only(fx_predict(&f, zero), wc_(M_WC_MW_BIND_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_11_failed_bind_changes_nothing)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;

	ck_assert(fx_rule(fx_predict(&f, bind2), wc_(M_WC_MW_BIND_ERR), M_RULE_RA_ERR_2));
	ck_assert(fx_rule(fx_predict(&f, op_bind(&f, 1, fx_mw(&f, 1, s.pb, 2), s.qb, mr, 0, 8, 0)),
			  wc_(M_WC_SUCCESS), M_RULE_MW_BIND_11));
	fx_do(&f, bind2, wc_(M_WC_MW_BIND_ERR));
	ck_assert_uint_eq(f.m.node[1].mw[mw].rkey, rkey);
	ck_assert_uint_eq(f.m.node[1].mw[mw].len, 1024);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ACC_3_type2_zero_based_and_qp)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 3);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 2);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 1024, 1024, M_ACC_REMOTE_READ);

	b.verbs.zero_based = 1;
	fx_do(&f, b, wc_(M_WC_SUCCESS));
	struct m_pred pr = fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, 1016, 8));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_ACC_3));
	ck_assert(fx_only(fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, 1020, 8)), wc_(M_WC_REM_ACCESS_ERR)));
	/* Type 2: only through the QP the bind was posted on (a third node's QP pair fails). */
	int q3 = fx_qp(&f, 1, s.pb, QP_ALL), p2 = fx_pd(&f, 2), m2 = fx_mr(&f, 2, p2, 64, RW), q2 = fx_qp(&f, 2, p2, QP_ALL);
	fx_connect(&f, 2, q2, 1, q3);
	struct m_op other = op_rdma(&f, M_OP_READ, 2, q2, m2, 0, 1, mr, 0, 8);
	other.verbs.rkey = f.m.node[1].mw[mw].rkey;
	other.verbs.raddr = 0;
	ck_assert(fx_only(fx_predict(&f, other), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

static struct m_op op_linv(struct fx *f, int node, int qp, uint32_t rkey)
{
	(void)f;
	return (struct m_op){ .kind = M_OP_LOCAL_INV, .node = (uint8_t)node, .obj = (int16_t)qp, .verbs.rkey = rkey };
}

START_TEST(test_MW_INV_2_local_and_remote_invalidate)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, model_mr_raddr(&f.m, 1, mr, 0), 8);
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, rkey));

	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_INV_2));
	fx_do(&f, op_linv(&f, 1, s.qb, rkey), wc_(M_WC_SUCCESS));
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	/* Rebind, then the peer invalidates with SEND_WITH_INV. */
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 1024, M_ACC_REMOTE_READ);
	fx_do(&f, b, wc_(M_WC_SUCCESS));
	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 64), ok_());
	struct m_op si = op_send(&f, 0, s.qa, s.ma, 8);
	si.verbs.with_inv = 1;
	si.verbs.rkey = f.m.node[1].mw[mw].rkey;
	fx_do(&f, si, wc_(M_WC_SUCCESS));
	ck_assert(!f.m.node[1].mw[mw].bound);
	model_free(&f.m);
}
END_TEST

/* A second connected QP pair (a.q2, b.q2) next to MW2_SETUP's: the window stays bound on b.q. */
static void second_pair(struct fx *f, const struct pair *s, int *qa2, int *qb2)
{
	*qa2 = fx_qp(f, 0, s->pa, QP_ALL);
	*qb2 = fx_qp(f, 1, s->pb, QP_ALL);
	fx_connect(f, 0, *qa2, 1, *qb2);
}

START_TEST(test_MW_INV_5_local_inv_through_other_qp)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;
	int qa2, qb2;

	second_pair(&f, &s, &qa2, &qb2);
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, qb2, rkey));

	ck_assert(fx_has(pr, wc_(M_WC_MW_BIND_ERR)) && fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_INV_5));
	fx_do(&f, op_linv(&f, 1, qb2, rkey), wc_(M_WC_MW_BIND_ERR));
	ck_assert(f.m.node[1].mw[mw].bound);
	ck_assert_int_eq(fx_qps(&f, 1, qb2), M_QPS_ERR);
	/* Through its own QP the same invalidation goes through (MW-INV-2). */
	ck_assert(fx_only(fx_predict(&f, op_linv(&f, 1, s.qb, rkey)), wc_(M_WC_SUCCESS)));
	/* rxe 6.1 does not look at the QP: the window is invalidated. */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	int qb3 = fx_qp(&f, 1, s.pb, QP_ALL), qa3 = fx_qp(&f, 0, s.pa, QP_ALL);

	fx_connect(&f, 0, qa3, 1, qb3);
	pr = fx_predict(&f, op_linv(&f, 1, qb3, rkey));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_INV_5));
	fx_do(&f, op_linv(&f, 1, qb3, rkey), wc_(M_WC_SUCCESS));
	ck_assert(!f.m.node[1].mw[mw].bound);
	ck_assert_int_eq(fx_qps(&f, 1, qb3), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_5_send_with_inv_on_other_qp)
{
	MW2_SETUP("generic");
	int qa2, qb2;

	second_pair(&f, &s, &qa2, &qb2);
	fx_do(&f, op_recv(&f, 1, qb2, s.mb, 64), ok_());
	struct m_op si = op_send(&f, 0, qa2, s.ma, 8);

	si.verbs.with_inv = 1;
	si.verbs.rkey = f.m.node[1].mw[mw].rkey;
	struct m_pred pr = fx_predict(&f, si);

	ck_assert(fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_MW_INV_5));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, si);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	fx_do(&f, si, wc_(M_WC_SUCCESS));
	ck_assert(!f.m.node[1].mw[mw].bound);
	ck_assert_int_eq(f.m.node[1].qp[qb2].nrecv, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_3_unbound_type2_panics_rxe_61)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;

	fx_do(&f, op_linv(&f, 1, s.qb, rkey), wc_(M_WC_SUCCESS));
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, rkey)); /* invalidated twice */
	ck_assert(fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) && fx_has(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_MW_INV_3));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, op_linv(&f, 1, s.qb, rkey));
	ck_assert(fx_only(pr, crash_()));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_CRASH);
	fx_do(&f, op_linv(&f, 1, s.qb, rkey), crash_());
	ck_assert(f.m.crashed);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_ALLOC_PD, 0, 0)), crash_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_3_type1_not_invalidatable)
{
	/* A type-1 window cannot be invalidated locally: an error, not a crash. */
	MW1_SETUP("rxe");
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, f.m.node[1].mw[mw].rkey));
	ck_assert(fx_only(pr, wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_MW_INV_3));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_4_invalidate_plain_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, f.m.node[1].mr[s.mb].rkey));

	ck_assert(fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_MW_INV_4));
	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 64), ok_());
	struct m_op si = op_send(&f, 0, s.qa, s.ma, 8);
	si.verbs.with_inv = 1;
	si.verbs.rkey = f.m.node[1].mr[s.mb].rkey;
	pr = fx_predict(&f, si);
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_MW_INV_4));
	/* rxe 6.1 acknowledges the SEND first (class J): requester SUCCESS,
	 * only the responder goes to ERR, its receive buffer unspecified. */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, si);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_PEER_ERR);
	ck_assert_int_eq(pr.alt[0].peer_recv, M_WC_REM_INV_REQ_ERR);
	ck_assert_int_eq(pr.alt[0].peer_state, M_QPS_ERR);
	fx_do(&f, si, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	ck_assert_uint_eq(model_mr_unknown(&f.m, 1, s.mb, 0), 1);
	ck_assert_uint_eq(model_mr_unknown(&f.m, 1, s.mb, 8), 0);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post_mw(void)
{
	Suite *s = suite_create("model_post_mw");
	TCase *tc = tcase_create("windows");

	RTEST(tc, MW_ALLOC_2, test_MW_ALLOC_2_unbound_window_grants_nothing);
	RTEST(tc, MW_ACC_1, test_MW_ACC_1_access_through_window);
	RTEST(tc, MW_ACC_2, test_MW_ACC_2_outside_window_inside_mr);
	RTEST(tc, MW_KEY_1, test_MW_KEY_1_rebind_kills_old_rkey);
	RTEST(tc, MW_INV_1, test_MW_INV_1_type1_unbind);
	RTEST(tc, MW_DEALLOC_1, test_MW_DEALLOC_1_bound_window);
	RTEST(tc, MW_BIND_1, test_MW_BIND_1_bind_call_on_type2);
	RTEST(tc, MW_BIND_3, test_MW_BIND_3_mr_of_other_pd);
	RTEST(tc, MW_BIND_5, test_MW_BIND_5_mr_without_mw_bind);
	RTEST(tc, MW_BIND_6, test_MW_BIND_6_write_window_needs_local_write);
	RTEST(tc, MW_BIND_7, test_MW_BIND_7_window_outside_mr);
	RTEST(tc, MW_BIND_8, test_MW_BIND_8_type1_zero_based);
	RTEST(tc, MW_BIND_9, test_MW_BIND_9_zero_based_mr);
	RTEST(tc, MW_BIND_10, test_MW_BIND_10_type2_already_bound);
	RTEST(tc, MW_BIND_11, test_MW_BIND_11_failed_bind_changes_nothing);
	RTEST(tc, MW_ACC_3, test_MW_ACC_3_type2_zero_based_and_qp);
	RTEST(tc, MW_INV_2, test_MW_INV_2_local_and_remote_invalidate);
	RTEST(tc, MW_INV_3, test_MW_INV_3_unbound_type2_panics_rxe_61);
	RTEST(tc, MW_INV_3, test_MW_INV_3_type1_not_invalidatable);
	RTEST(tc, MW_INV_4, test_MW_INV_4_invalidate_plain_mr);
	RTEST(tc, MW_INV_5, test_MW_INV_5_local_inv_through_other_qp);
	RTEST(tc, MW_INV_5, test_MW_INV_5_send_with_inv_on_other_qp);
	suite_add_tcase(s, tc);
	return s;
}

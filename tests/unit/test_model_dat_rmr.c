/* Unit tests of the model's uDAPL personality: RMRs (create, bind, bound context), freeing objects. */
#include "tests/unit/dat_fx.h"

/* Bind RMR r of node 0 to LMR l+off (len bytes, privileges priv) through EP ep. */
static struct m_op op_bind(int r, int ep, int l, uint64_t start, uint64_t len, uint32_t priv)
{
	return (struct m_op){ .kind = M_OP_DAT_RMR_BIND, .node = 0, .obj = (int16_t)r, .dat.ep = (int16_t)ep,
			      .dat.lmr = (int16_t)l, .dat.offset = start, .dat.len = len, .dat.priv = priv };
}

START_TEST(test_DAT_FREE_1_free_and_bound_rmrs)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int l = fx_lmr(&f, 0, s.za, 4096, PRIV_ALL);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());
	struct m_pred pr;
	unsigned use = f.m.node[0].pd[s.za].usecnt;

	fx_do(&f, op_bind(r, s.ep, l, f.m.node[0].mr[l].iova, 64, M_DAT_PRIV_REMOTE_READ), dto_(M_DTO_SUCCESS));
	pr = fx_predict(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_STATE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_STATE), M_RULE_DAT_FREE_1));
	fx_do(&f, op_obj(M_OP_DAT_RMR_FREE, 0, r), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_FREE_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_DEREG_1));
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l), ok_());
	ck_assert_uint_eq(f.m.node[0].pd[s.za].usecnt, use - 2); /* the RMR and the LMR */
	pr = fx_predict(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_FREE_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_FREE_2_use_after_free)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	struct m_pred pr;
	struct m_op op;

	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, s.src), ok_());
	op = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64);
	/* The spec: a protection violation, whatever the verbs layer calls it. */
	pr = fx_predict(&f, op);
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_DAT_FREE_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_LP_1));
	/* rxe + OFA: LOC_QP_OP_ERR, mapped to LOCAL_EP (a declared deviation). */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), dto_(M_DTO_ERR_LOCAL_EP)));
	model_free(&f.m);

	/* The remote side: the freed rmr_context, and the connection breaks. */
	s = fx_dpair(&f, "rxe");
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 1, s.dst), ok_());
	op = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64);
	pr = fx_predict(&f, op);
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_DAT_FREE_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_RA_KEY_1));
	fx_do(&f, op, dto_(M_DTO_ERR_REMOTE_ACCESS));
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].conn[s.ep].qp), M_QPS_ERR);
	model_free(&f.m);
	/* A live LMR: no DAT-FREE-2. */
	s = fx_dpair(&f, "rxe");
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(!fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_FREE_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_PZ_1_free_while_used)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	struct m_pred pr;

	/* Node 1's PZ is used by its LMR and by the EP that accepted the connection. */
	pr = fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_STATE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_STATE), M_RULE_DAT_PZ_1));
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 1, s.dst), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb)), dat_(M_DAT_INVALID_STATE)));
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb), dat_(M_DAT_INVALID_STATE));
	ck_assert(f.m.node[1].pd[s.zb].live); /* it stays */
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_PD_2));
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb), ok_());
	ck_assert(!f.m.node[1].pd[s.zb].live);
	/* Node 0's still holds the source LMR. */
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 0, s.za)), dat_(M_DAT_INVALID_STATE)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_1_create)
{
	struct fx f;
	int z, z2, r;
	struct m_op op;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	op = (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)z };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_RMR_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MW_ALLOC_2)); /* a window underneath */
	r = fx_do(&f, op, ok_());
	ck_assert_int_eq(f.m.node[0].mw[r].type, M_MW_TYPE_1);
	ck_assert(!f.m.node[0].mw[r].bound);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z)), dat_(M_DAT_INVALID_STATE)));
	/* OFA: no windows. */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	/* A freed PZ. */
	z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z2), ok_());
	op.dat.pz = (int16_t)z2;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_RMR_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_2_bind_checks)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int l = fx_lmr(&f, 0, s.za, 4096, PRIV_ALL);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());
	int z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	int l2 = fx_lmr(&f, 0, z2, 4096, PRIV_ALL);
	uint64_t base = f.m.node[0].mr[l].iova;
	struct m_pred pr;

	/* Outside the LMR, or an LMR of another PZ. */
	pr = fx_predict(&f, op_bind(r, s.ep, l, base + 4000, 200, M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_PARAMETER)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_PARAMETER), M_RULE_DAT_RMR_2));
	pr = fx_predict(&f, op_bind(r, s.ep, l2, f.m.node[0].mr[l2].iova, 64, M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_PARAMETER)));
	/* Inside: bound (MW-BIND-11 underneath). */
	pr = fx_predict(&f, op_bind(r, s.ep, l, base, 4096, M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_MW_BIND_11));
	fx_do(&f, op_bind(r, s.ep, l, base, 4096, M_DAT_PRIV_REMOTE_READ), dto_(M_DTO_SUCCESS));
	ck_assert(f.m.node[0].mw[r].bound);
	/* Length 0 unbinds. */
	fx_do(&f, op_bind(r, s.ep, l, base, 0, 0), dto_(M_DTO_SUCCESS));
	ck_assert(!f.m.node[0].mw[r].bound);
	/* A freed LMR's context is not registered. */
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l2), ok_());
	ck_assert(fx_only(fx_predict(&f, op_bind(r, s.ep, l2, 0, 64, 0)), dat_(M_DAT_INVALID_PARAMETER)));
	/* Not CONNECTED: refused, or posted and flushed (the spec allows both). */
	fx_do(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep), ok_());
	pr = fx_predict(&f, op_bind(r, s.ep, l, base, 64, M_DAT_PRIV_REMOTE_READ));
	ck_assert_uint_eq(pr.n, 2);
	ck_assert(fx_has(pr, dat_(M_DAT_INVALID_STATE)) && fx_has(pr, dto_(M_DTO_ERR_FLUSHED)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_3_remote_write_over_lmr_without_local_write)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int l = fx_lmr(&f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_READ | M_DAT_PRIV_REMOTE_READ);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());
	uint64_t base = f.m.node[0].mr[l].iova;
	struct m_pred pr = fx_predict(&f, op_bind(r, s.ep, l, base, 64, M_DAT_PRIV_REMOTE_WRITE));

	ck_assert_uint_eq(pr.n, 2);
	ck_assert(fx_has(pr, dat_(M_DAT_PRIVILEGES_VIOLATION)));
	ck_assert(fx_has(pr, dto_(M_DTO_RMR_OPERATION_FAILED)));
	ck_assert(fx_rule(pr, dat_(M_DAT_PRIVILEGES_VIOLATION), M_RULE_DAT_RMR_3));
	ck_assert(fx_rule(pr, dto_(M_DTO_RMR_OPERATION_FAILED), M_RULE_MW_BIND_6));
	/* A read window over the same LMR is fine. */
	ck_assert(fx_only(fx_predict(&f, op_bind(r, s.ep, l, base, 64, M_DAT_PRIV_REMOTE_READ)), dto_(M_DTO_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_4_bound_context)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	/* Node 1 binds a window over its target and node 0 writes through it. */
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 1, .obj = -1, .dat.pz = (int16_t)s.zb },
		      ok_());
	int back = fx_ep(&f, 1, s.zb, 0, s.za);
	uint64_t base = f.m.node[1].mr[s.dst].iova;
	struct m_op bind = op_bind(r, back, s.dst, base + 1024, 1024, M_DAT_PRIV_REMOTE_WRITE);
	struct m_pred pr;

	bind.node = 1;
	pr = fx_predict(&f, bind);
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_RMR_4));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_MW_KEY_1));
	fx_do(&f, bind, dto_(M_DTO_SUCCESS));
	uint32_t old = f.m.node[1].mw[r].rkey;
	struct m_op w = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 1024, 64);
	w.dat.rkey = old;
	ck_assert(fx_only(fx_predict(&f, w), dto_(M_DTO_SUCCESS)));
	/* Rebinding gives a new context; the old one stops working. */
	fx_do(&f, bind, dto_(M_DTO_SUCCESS));
	ck_assert_uint_ne(f.m.node[1].mw[r].rkey, old);
	ck_assert(dto_only(fx_predict(&f, w), dto_(M_DTO_ERR_REMOTE_ACCESS)));
	/* A bind that fails after the call breaks the connection. */
	int ro = fx_lmr(&f, 1, s.zb, 64, M_DAT_PRIV_REMOTE_READ);
	bind = op_bind(r, back, ro, f.m.node[1].mr[ro].iova, 64, M_DAT_PRIV_REMOTE_WRITE);
	bind.node = 1;
	fx_do(&f, bind, dto_(M_DTO_RMR_OPERATION_FAILED));
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[1].conn[back].qp), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[1].conn[back].peer_qp), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_dat_rmr(void)
{
	Suite *s = suite_create("model_dat_rmr");
	TCase *tc = tcase_create("rmr");

	RTEST(tc, DAT_FREE_1, test_DAT_FREE_1_free_and_bound_rmrs);
	RTEST(tc, DAT_FREE_2, test_DAT_FREE_2_use_after_free);
	RTEST(tc, DAT_PZ_1, test_DAT_PZ_1_free_while_used);
	RTEST(tc, DAT_RMR_1, test_DAT_RMR_1_create);
	RTEST(tc, DAT_RMR_2, test_DAT_RMR_2_bind_checks);
	RTEST(tc, DAT_RMR_3, test_DAT_RMR_3_remote_write_over_lmr_without_local_write);
	RTEST(tc, DAT_RMR_4, test_DAT_RMR_4_bound_context);
	suite_add_tcase(s, tc);
	return s;
}

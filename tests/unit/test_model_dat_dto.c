/* Unit tests of the model's uDAPL personality: DTOs (statuses, post-time refusals, errors) and EPs. */
#include "tests/unit/dat_fx.h"

START_TEST(test_DAT_DTO_1_status_mapping)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	int nolw = fx_lmr(&f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_READ);
	struct m_pred pr;

	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.src, .verbs.byte = 0x5a, .verbs.len = 4096 },
	      ok_());
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 4096));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_DTO_1));
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 4096), dto_(M_DTO_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, s.dst, 4095), 0x5a); /* the verbs WRITE moved the bytes */
	/* A read into an LMR without local write: LOC_PROT_ERR -> LOCAL_PROTECTION (LP-6). */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, nolw, 0, 1, s.dst, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_LP_6));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_DAT_DTO_1));
	/* Past the end of the target: REM_ACCESS_ERR -> REMOTE_ACCESS (RA-BND-1). */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, s.src, 0, 1, s.dst, 4064, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_RA_BND_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_DTO_2_zero_length_segment)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	struct m_op op;
	struct m_pred pr;

	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, s.src), ok_());
	op = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 0);
	op.dat.rkey = 0;
	/* The verbs layer may validate a zero-length SGE (LP-2); the DAT triplet says: legal. */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_DTO_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_RA_ZERO_1));
	op.dat.len = 1;
	ck_assert(!fx_has(fx_predict(&f, op), dto_(M_DTO_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_DTO_4_error_breaks_the_connection)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int ro = fx_lmr(&f, 1, s.zb, 4096, M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_LOCAL_WRITE);
	int nolw = fx_lmr(&f, 0, s.za, 4096, 0);
	struct m_pred pr;

	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_DAT_DTO_4));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_BOTH_ERR);
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64), dto_(M_DTO_ERR_REMOTE_ACCESS));
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_ERR_FLUSHED)));
	/* A local error breaks it too: the provider disconnects, both sides. */
	int ep2 = fx_ep(&f, 0, s.za, 1, s.zb);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, ep2, nolw, 0, 1, s.dst, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_DAT_DTO_4));
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, ep2, nolw, 0, 1, s.dst, 0, 64), dto_(M_DTO_ERR_LOCAL_PROTECTION));
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[0].conn[ep2].peer_qp), M_QPS_ERR);
	/* Success does not. */
	int ep3 = fx_ep(&f, 0, s.za, 1, s.zb);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, ep3, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(!fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_DTO_4));
	model_free(&f.m);
}
END_TEST

/* dat_ep_post_rdma_read/write(3DAT) RETURN VALUES: what the completion would
 * report as a protection or privilege error may be refused at the post
 * instead; nothing moves then and the EP stays connected. A DTO that succeeds
 * or is flushed has no such alternative. */
START_TEST(test_DAT_DTO_5_post_time_refusals)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int ro = fx_lmr(&f, 1, s.zb, 4096, M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_LOCAL_WRITE);
	int nolw = fx_lmr(&f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_READ);
	static const enum m_dat_ret post[] = { M_DAT_PRIVILEGES_VIOLATION, M_DAT_PROTECTION_VIOLATION,
					       M_DAT_INVALID_PARAMETER };
	struct m_pred pr;

	/* Remote: an RMR context without remote write. */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64));
	ck_assert(fx_has(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	for (unsigned i = 0; i < 3; i++) {
		ck_assert(fx_rule(pr, dat_(post[i]), M_RULE_DAT_DTO_5));
		ck_assert(fx_rule(pr, dat_(post[i]), M_RULE_RA_ACC_1));
	}
	/* Local: a read into an LMR without local write. */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, nolw, 0, 1, s.dst, 0, 64));
	ck_assert(fx_has(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	for (unsigned i = 0; i < 3; i++)
		ck_assert(fx_rule(pr, dat_(post[i]), M_RULE_DAT_DTO_5));
	/* Refused at the post: nothing moved, the connection stays. */
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, nolw, 0, 1, s.dst, 0, 64), dat_(M_DAT_PRIVILEGES_VIOLATION));
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].conn[s.ep].qp), M_QPS_RTS);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(!fx_has(pr, dat_(M_DAT_PRIVILEGES_VIOLATION)));
	/* After a completion error the EP is broken: flushed, never refused. */
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64), dto_(M_DTO_ERR_REMOTE_ACCESS));
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_ERR_FLUSHED)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_1_connect)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	const struct m_conn *c = &f.m.node[0].conn[s.ep];
	struct m_pred pr;

	ck_assert(c->live && c->api == M_FAM_DAT && c->peer_node == 1);
	ck_assert_int_eq(fx_qps(&f, 0, c->qp), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, c->peer_qp), M_QPS_RTS);
	ck_assert_uint_eq(f.m.node[0].qp[c->qp].access, M_ACC_REMOTE_ANY);
	ck_assert_int_eq(f.m.node[1].conn[c->peer_conn].peer_conn, s.ep);
	ck_assert_int_eq(f.m.node[1].qp[c->peer_qp].pd, s.zb);
	struct m_op op = { .kind = M_OP_DAT_EP_CONNECT, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za, .dat.peer_node = 1,
			   .dat.peer_pz = (int16_t)s.zb };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_QP_CONN_1));
	/* Both PZs must be live, on two nodes. */
	op.dat.peer_node = 0;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op.dat.peer_node = 1;
	op.dat.peer_pz = 5;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_4_private_data)
{
	struct fx f;
	int za, zb, zc;
	struct m_pred pr;

	fx_init(&f, 3, "rxe");
	za = dat_node(&f, 0);
	zb = dat_node(&f, 1);
	fx_do(&f, (struct m_op){ .kind = M_OP_DAT_IA_OPEN, .node = 2, .dat.ia = M_DAT_IA_SCM }, ok_());
	zc = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 2, .obj = -1 }, ok_());
	struct m_op op = { .kind = M_OP_DAT_EP_CONNECT, .node = 0, .obj = -1, .dat.pz = (int16_t)za, .dat.peer_node = 1,
			   .dat.peer_pz = (int16_t)zb, .dat.len = M_DAT_PDATA_CMA };
	/* cma: 56 bytes go; more is not predicted. */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_4));
	op.dat.len++;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	/* scm (node 2's IA): 68; more is not predicted either. */
	op = (struct m_op){ .kind = M_OP_DAT_EP_CONNECT, .node = 2, .obj = -1, .dat.pz = (int16_t)zc, .dat.peer_node = 1,
			    .dat.peer_pz = (int16_t)zb, .dat.len = M_DAT_PDATA_SCM };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_4));
	fx_do(&f, op, ok_());
	ck_assert_int_eq(f.m.node[2].nconn, 1);
	op.dat.len++;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	/* No private data: the rule is not involved. */
	op.dat.len = 0;
	ck_assert(!fx_rule(fx_predict(&f, op), ok_(), M_RULE_DAT_EP_4));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_2_disconnect)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	struct m_pred pr;

	pr = fx_predict(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_2));
	fx_do(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep), ok_());
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].conn[s.ep].qp), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[0].conn[s.ep].peer_qp), M_QPS_ERR);
	/* Again: a no-op. */
	pr = fx_predict(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep));
	ck_assert(fx_only(pr, ok_()));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_NONE);
	/* A DTO on the DISCONNECTED EP is flushed (not refused at the post). */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_ERR_FLUSHED)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_FLUSHED), M_RULE_DAT_EP_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_FLUSHED), M_RULE_RA_ERR_5));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_3_free)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	const struct m_conn *c = &f.m.node[0].conn[s.ep];
	int qa = c->qp, qb = c->peer_qp, cb = c->peer_conn;
	unsigned ua = f.m.node[0].pd[s.za].usecnt, ub = f.m.node[1].pd[s.zb].usecnt;
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep));

	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_3));
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep), ok_());
	ck_assert(!f.m.node[0].conn[s.ep].live && !f.m.node[1].conn[cb].live);
	ck_assert(!f.m.node[0].qp[qa].live && !f.m.node[1].qp[qb].live);
	ck_assert_uint_eq(f.m.node[0].pd[s.za].usecnt, ua - 1);
	ck_assert_uint_eq(f.m.node[1].pd[s.zb].usecnt, ub - 1);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_dat_dto(void)
{
	Suite *s = suite_create("model_dat_dto");
	TCase *tc = tcase_create("dto");

	RTEST(tc, DAT_DTO_1, test_DAT_DTO_1_status_mapping);
	RTEST(tc, DAT_DTO_2, test_DAT_DTO_2_zero_length_segment);
	RTEST(tc, DAT_DTO_4, test_DAT_DTO_4_error_breaks_the_connection);
	RTEST(tc, DAT_DTO_5, test_DAT_DTO_5_post_time_refusals);
	RTEST(tc, DAT_EP_1, test_DAT_EP_1_connect);
	RTEST(tc, DAT_EP_2, test_DAT_EP_2_disconnect);
	RTEST(tc, DAT_EP_4, test_DAT_EP_4_private_data);
	RTEST(tc, DAT_EP_3, test_DAT_EP_3_free);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model: the QP life cycle cases `rdmacheck explore` found
 * where the model disagreed with rxe 6.1 and the model was wrong (issue 13).
 */
#include "tests/unit/model_fx.h"

static struct m_op op_modify(int node, int qp, enum m_qp_state st)
{
	return (struct m_op){ .kind = M_OP_MODIFY_QP, .node = (uint8_t)node, .obj = (int16_t)qp,
			      .verbs.qp_state = (uint8_t)st };
}

START_TEST(test_QP_STATE_2_reset_to_err)
{
	struct fx f;
	int pd, q;
	struct m_pred pr;

	/* generic: RESET to ERR is EINVAL (Linux's table) or ok (a table that has it). */
	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	q = fx_qp(&f, 0, pd, QP_ALL);
	pr = fx_predict(&f, op_modify(0, q, M_QPS_ERR));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_QP_STATE_2));
	ck_assert(fx_rule(pr, ok_(), M_RULE_QP_STATE_2));
	fx_do(&f, op_modify(0, q, M_QPS_ERR), err_(EINVAL));
	ck_assert_int_eq(fx_qps(&f, 0, q), M_QPS_RESET);
	fx_do(&f, op_modify(0, q, M_QPS_ERR), ok_());
	ck_assert_int_eq(fx_qps(&f, 0, q), M_QPS_ERR);
	model_free(&f.m);

	/* rxe: EINVAL only; from RTS, ERR is reachable (not QP-STATE-2). */
	struct pair s = fx_pair(&f, "rxe", 2);
	int fresh = fx_qp(&f, 0, s.pa, QP_ALL);

	ck_assert(fx_only(fx_predict(&f, op_modify(0, fresh, M_QPS_ERR)), err_(EINVAL)));
	pr = fx_predict(&f, op_modify(0, s.qa, M_QPS_ERR));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(!fx_rule(pr, ok_(), M_RULE_QP_STATE_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_1_bad_gather_sge_before_dead_peer)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	struct m_op snd = w, rd;
	struct m_pred pr;

	fx_do(&f, op_modify(1, s.qb, M_QPS_ERR), ok_());
	/* A good SGE towards a peer in ERR: no answer, transport retries exhausted. */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_RETRY_EXC_ERR)));
	/* A bad lkey: the payload is gathered before any packet leaves. */
	w.verbs.lkey += 1000;
	pr = fx_predict(&f, w);
	ck_assert(!fx_has(pr, wc_(M_WC_RETRY_EXC_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_1));
	snd.kind = M_OP_SEND;
	snd.verbs.lkey += 1000;
	ck_assert(!fx_has(fx_predict(&f, snd), wc_(M_WC_RETRY_EXC_ERR)));
	/* A READ's local SGE is written only when a response arrives: none does. */
	rd = op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);
	rd.verbs.lkey += 1000;
	ck_assert(fx_only(fx_predict(&f, rd), wc_(M_WC_RETRY_EXC_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_QP_STATE_1_kept_send_wr_on_rxe)
{
	struct fx f;
	struct m_pred pr;

	for (int rxe = 0; rxe <= 1; rxe++) {
		fx_init(&f, 2, rxe ? "rxe" : "generic");
		int pa = fx_pd(&f, 0), pb = fx_pd(&f, 1);
		int ma = fx_mr(&f, 0, pa, 4096, RW), mb = fx_mr(&f, 1, pb, 4096, RW);
		int qa = fx_qp(&f, 0, pa, QP_ALL), qb = fx_qp(&f, 1, pb, QP_ALL);
		struct m_op w = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8);

		/* Below RTS: EINVAL either way; rxe keeps the WR queued. */
		pr = fx_predict(&f, w);
		ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_QP_STATE_1));
		ck_assert_int_eq(pr.alt[0].effect, rxe ? M_EFF_SQ_KEPT : M_EFF_NONE);
		fx_do(&f, w, err_(EINVAL));
		ck_assert_int_eq(f.m.node[0].qp[qa].sq_kept, rxe);
		fx_connect(&f, 0, qa, 1, qb);
		/* The first post at RTS: the kept WR runs first and may fail (rxe). */
		pr = fx_predict(&f, w);
		ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)));
		ck_assert_int_eq(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)), rxe);
		if (rxe) {
			ck_assert(fx_rule(pr, wc_(M_WC_WR_FLUSH_ERR), M_RULE_QP_STATE_1));
			/* The kept WR may have failed at the responder: the peer's QP in ERR too. */
			int both = 0;
			for (unsigned i = 0; i < pr.n; i++)
				both |= pr.alt[i].out.code == M_WC_WR_FLUSH_ERR && pr.alt[i].effect == M_EFF_BOTH_ERR;
			ck_assert(both);
		}
		fx_do(&f, w, wc_(M_WC_SUCCESS));
		/* The doorbell ran them: the next post is as usual. */
		ck_assert_int_eq(f.m.node[0].qp[qa].sq_kept, 0);
		ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
		model_free(&f.m);
	}
	/* A modify to RESET drops the kept WRs. */
	fx_init(&f, 1, "rxe");
	int pd = fx_pd(&f, 0), q = fx_qp(&f, 0, pd, QP_ALL);
	struct m_op inv = { .kind = M_OP_LOCAL_INV, .node = 0, .obj = (int16_t)q, .verbs.rkey = 1 };

	fx_do(&f, inv, err_(EINVAL));
	ck_assert_int_eq(f.m.node[0].qp[q].sq_kept, 1);
	fx_do(&f, op_modify(0, q, M_QPS_RESET), ok_());
	ck_assert_int_eq(f.m.node[0].qp[q].sq_kept, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_3_pd_checked_before_qp_state)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)s.pa, .verbs.mw_type = 1 },
		       ok_());
	int pd2 = fx_pd(&f, 0), other = fx_mr(&f, 0, pd2, 4096, RW | M_ACC_MW_BIND);
	int fresh = fx_qp(&f, 0, s.pa, QP_ALL);
	struct m_op b = { .kind = M_OP_BIND_MW, .node = 0, .obj = (int16_t)mw, .verbs.qp = (int16_t)s.qa,
			  .verbs.mr = (int16_t)other, .verbs.offset = f.m.node[0].mr[other].iova, .verbs.len = 8,
			  .verbs.access = M_ACC_REMOTE_READ, .verbs.bind_call = 1 };

	/* ibv_bind_mw's PD check comes before the provider: EPERM in every QP state. */
	ck_assert(fx_rule(fx_predict(&f, b), err_(EPERM), M_RULE_MW_BIND_3));
	b.verbs.qp = (int16_t)fresh; /* RESET: not QP-STATE-1's EINVAL */
	ck_assert(fx_only(fx_predict(&f, b), err_(EPERM)));
	fx_do(&f, op_modify(0, s.qa, M_QPS_ERR), ok_());
	b.verbs.qp = (int16_t)s.qa; /* ERR: not RA-ERR-5's flush */
	ck_assert(fx_only(fx_predict(&f, b), err_(EPERM)));
	b.verbs.len = 0; /* an unbind names the MR too: ibv_bind_mw checks its PD */
	ck_assert(fx_only(fx_predict(&f, b), err_(EPERM)));
	b.verbs.len = 8;
	/* The same PD on a QP in ERR: the bind is flushed (or EINVAL). */
	b.verbs.mr = (int16_t)s.ma;
	b.verbs.offset = f.m.node[0].mr[s.ma].iova;
	ck_assert(fx_rule(fx_predict(&f, b), wc_(M_WC_WR_FLUSH_ERR), M_RULE_RA_ERR_5));
	model_free(&f.m);

	/* MW-BIND-8: a zero-based type-1 unbind is refused like a bind (rxe checks the flags first). */
	s = fx_pair(&f, "rxe", 2);
	mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)s.pa, .verbs.mw_type = 1 },
		   ok_());
	b = (struct m_op){ .kind = M_OP_BIND_MW, .node = 0, .obj = (int16_t)mw, .verbs.qp = (int16_t)s.qa,
			   .verbs.mr = (int16_t)s.ma, .verbs.len = 0, .verbs.zero_based = 1, .verbs.bind_call = 1 };
	ck_assert(fx_rule(fx_predict(&f, b), err_(EINVAL), M_RULE_MW_BIND_8));
	b.verbs.zero_based = 0;
	ck_assert(fx_rule(fx_predict(&f, b), wc_(M_WC_SUCCESS), M_RULE_MW_INV_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_5_recv_on_err_qp_is_accepted_on_rxe)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op recv = { .kind = M_OP_RECV, .node = 0, .obj = (int16_t)s.qa, .verbs.len = 8,
			     .verbs.lkey = f.m.node[0].mr[s.ma].lkey, .verbs.laddr = model_mr_laddr(&f.m, 0, s.ma, 0) };

	fx_do(&f, op_modify(0, s.qa, M_QPS_ERR), ok_());
	/* rxe's flush of the send queue (RA-ERR-5's deviation) is no outcome of a receive post. */
	struct m_pred pr = fx_predict(&f, recv);
	ck_assert(fx_rule(pr, ok_(), M_RULE_RA_ERR_5));
	ck_assert(!fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8)),
			  wc_(M_WC_WR_FLUSH_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_1_misaligned_before_dead_peer)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op fa = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 4, 0);

	fx_do(&f, op_modify(1, s.qb, M_QPS_ERR), ok_());
	/* rxe refuses a misaligned atomic at post: no packet, no transport retry. */
	ck_assert(fx_only(fx_predict(&f, fa), err_(EINVAL)));
	ck_assert(fx_rule(fx_predict(&f, fa), err_(EINVAL), M_RULE_RA_ATOM_1));
	fa = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 8, 0);
	ck_assert(fx_only(fx_predict(&f, fa), wc_(M_WC_RETRY_EXC_ERR)));
	model_free(&f.m);
}
END_TEST

/* A kept LOCAL_INV of an unbound type-2 window panics rxe 6.1 when the doorbell runs it; type 1 does not. */
START_TEST(test_MW_INV_3_kept_local_inv_unbound_type2_crashes_on_rxe)
{
	for (int t = 1; t <= 2; t++) {
		struct fx f;
		struct m_pred pr;

		fx_init(&f, 2, "rxe");
		int pa = fx_pd(&f, 0), pb = fx_pd(&f, 1);
		int ma = fx_mr(&f, 0, pa, 4096, RW), mb = fx_mr(&f, 1, pb, 4096, RW);
		int qa = fx_qp(&f, 0, pa, QP_ALL), qb = fx_qp(&f, 1, pb, QP_ALL);
		int w = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)pa,
						 .verbs.mw_type = (uint32_t)t }, ok_());
		struct m_op inv = { .kind = M_OP_LOCAL_INV, .node = 0, .obj = (int16_t)qa,
				    .verbs.rkey = f.m.node[0].mw[w].rkey };
		struct m_op wr = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8);

		fx_do(&f, inv, err_(EINVAL)); /* below RTS: refused, kept */
		ck_assert_uint_eq(f.m.node[0].qp[qa].sq_kept, t == 2 ? M_KEPT_ANY | M_KEPT_INV_T2 : M_KEPT_ANY);
		fx_connect(&f, 0, qa, 1, qb);
		pr = fx_predict(&f, wr);
		ck_assert(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)));
		ck_assert_int_eq(fx_has(pr, crash_()), t == 2);
		if (t == 2)
			ck_assert(fx_rule(pr, crash_(), M_RULE_MW_INV_3));
		model_free(&f.m);
		/* generic: the refused WR is gone, nothing more */
		fx_init(&f, 2, "generic");
		pa = fx_pd(&f, 0);
		qa = fx_qp(&f, 0, pa, QP_ALL);
		w = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)pa,
					     .verbs.mw_type = (uint32_t)t }, ok_());
		inv.obj = (int16_t)qa;
		inv.verbs.rkey = f.m.node[0].mw[w].rkey;
		pr = fx_predict(&f, inv);
		ck_assert(fx_only(pr, err_(EINVAL)));
		ck_assert_int_eq(pr.alt[0].effect, M_EFF_NONE);
		model_free(&f.m);
	}
}
END_TEST

Suite *suite_test_model_qp(void)
{
	Suite *s = suite_create("model_qp");
	TCase *tc = tcase_create("qp");

	RTEST(tc, QP_STATE_2, test_QP_STATE_2_reset_to_err);
	RTEST(tc, LP_1, test_LP_1_bad_gather_sge_before_dead_peer);
	RTEST(tc, QP_STATE_1, test_QP_STATE_1_kept_send_wr_on_rxe);
	RTEST(tc, MW_INV_3, test_MW_INV_3_kept_local_inv_unbound_type2_crashes_on_rxe);
	RTEST(tc, MW_BIND_3, test_MW_BIND_3_pd_checked_before_qp_state);
	RTEST(tc, RA_ERR_5, test_RA_ERR_5_recv_on_err_qp_is_accepted_on_rxe);
	RTEST(tc, RA_ATOM_1, test_RA_ATOM_1_misaligned_before_dead_peer);
	suite_add_tcase(s, tc);
	return s;
}

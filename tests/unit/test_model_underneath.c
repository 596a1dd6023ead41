/*
 * Unit tests of the verbs underneath other families predicted on the model
 * as it is (model/internal.h, m_verbs_step_predict): the state a family
 * creates or assumes around its verbs call (verbs pd_next, mr_bindable)
 * gives the prediction a model holding that state gives.
 */
#include "tests/unit/dat_fx.h"
#include "model/rpma/internal.h"

#include <stdlib.h>

/* The two predictions are the same: status, alternatives, what was resolved, outstanding WRs seen. */
static void same_pred(int rc_a, const struct m_pred *a, int rc_b, const struct m_pred *b)
{
	ck_assert_int_eq(rc_a, rc_b);
	if (rc_a)
		return;
	ck_assert_uint_eq(a->n, b->n);
	for (unsigned i = 0; i < a->n; i++) {
		const struct m_alt *x = &a->alt[i], *y = &b->alt[i];

		ck_assert(m_outcome_eq(x->out, y->out));
		ck_assert_uint_eq(x->effect, y->effect);
		ck_assert_uint_eq(x->target_unknown, y->target_unknown);
		ck_assert_uint_eq(x->remote_done, y->remote_done);
		ck_assert_int_eq(x->peer_recv, y->peer_recv);
		ck_assert_int_eq(x->detail, y->detail);
		ck_assert_uint_eq(x->peer_state, y->peer_state);
		ck_assert_uint_eq(x->nrules, y->nrules);
		ck_assert_mem_eq(x->rules, y->rules, x->nrules * sizeof(x->rules[0]));
	}
	ck_assert_int_eq(a->res.lmr, b->res.lmr);
	ck_assert_int_eq(a->res.tmr, b->res.tmr);
	ck_assert_int_eq(a->res.rmr, b->res.rmr);
	ck_assert_int_eq(a->res.inv_mw, b->res.inv_mw);
	ck_assert_int_eq(a->res.peer_node, b->res.peer_node);
	ck_assert_int_eq(a->res.peer_qp, b->res.peer_qp);
	ck_assert_mem_eq(a->wr_seen, b->wr_seen, sizeof(a->wr_seen));
}

/* rpma_mr_reg on node 0 of f, predicted on f and on a copy of f given the peer PD first, must agree. */
static void reg_as_with_peer(struct fx *f, uint64_t len, uint32_t usage, uint64_t offset, uint8_t prot)
{
	struct m_op op = { .kind = M_OP_RPMA_MR_REG, .node = 0, .obj = -1,
			   .rpma = { .mr = -1, .peer_node = -1, .remote = -1, .len = len, .usage = usage,
				     .offset = offset, .prot = prot } };
	struct model *with = malloc(sizeof(*with));
	struct m_pred a, b;
	int rc_a, rc_b;

	ck_assert_ptr_nonnull(with);
	ck_assert_int_eq(model_clone(with, &f->m), 0);
	rc_b = m_rpma_ensure_peer(with, 0) ? -EINVAL : model_predict(with, &f->p, &op, &b);
	rc_a = model_predict(&f->m, &f->p, &op, &a);
	same_pred(rc_a, &a, rc_b, &b);
	model_free(with);
	free(with);
}

static void reg_sweep(struct fx *f)
{
	static const uint64_t lens[] = { 0, 1, 4096, UINT64_MAX };
	static const uint32_t usages[] = { 0, M_RPMA_READ_SRC, M_RPMA_WRITE_DST | M_RPMA_USAGE_FLUSH_PERSISTENT,
					   M_RPMA_USAGE_ALL, 1u << 12 };

	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (size_t u = 0; u < sizeof(usages) / sizeof(usages[0]); u++)
			for (uint8_t prot = 0; prot <= M_PROT_UNMAPPED; prot++) {
				reg_as_with_peer(f, lens[l], usages[u], 0, prot);
				reg_as_with_peer(f, lens[l], usages[u], 100, prot);
			}
}

START_TEST(test_RPMA_REG_3_first_reg_as_with_the_peer_pd)
{
	static const char *const profiles[] = { "generic", "rxe" };

	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct fx f;

		fx_init(&f, 1, profiles[i]);
		ck_assert_int_lt(f.m.node[0].rpma.pd, 0);
		reg_sweep(&f); /* no PD yet: the peer's is slot 0 */
		fx_pd(&f, 0);
		fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, fx_pd(&f, 0)), ok_());
		reg_sweep(&f); /* after other PDs, a dead one among them: slot 2 */
		while (f.m.node[0].npd < M_MAX_PD)
			fx_pd(&f, 0);
		reg_as_with_peer(&f, 4096, M_RPMA_USAGE_ALL, 0, 0); /* no slot left: -EINVAL both ways */
		model_free(&f.m);
	}
}
END_TEST

/* The verbs registration in the PD its family makes first: that PD is the next slot, and only while one is free. */
START_TEST(test_RPMA_REG_3_pd_next_is_the_next_free_slot)
{
	struct fx f;
	struct m_op op = op_reg(0, 0, 4096, RW);
	struct m_pred vp;

	fx_init(&f, 1, "generic");
	op.obj = -1;
	op.verbs.pd_next = 1;
	ck_assert_int_eq(m_verbs_step_predict(&f.m, &f.p, &op, &vp), 0);
	ck_assert(fx_only(vp, ok_()));
	op.verbs.pd = 1; /* not the next slot */
	ck_assert_int_eq(m_verbs_step_predict(&f.m, &f.p, &op, &vp), -EINVAL);
	op.verbs.pd_next = 0; /* without it, slot 0 is not a PD yet */
	op.verbs.pd = 0;
	ck_assert_int_eq(m_verbs_step_predict(&f.m, &f.p, &op, &vp), -EINVAL);
	while (f.m.node[0].npd < M_MAX_PD)
		fx_pd(&f, 0);
	op.verbs.pd_next = 1;
	op.verbs.pd = M_MAX_PD;
	ck_assert_int_eq(m_verbs_step_predict(&f.m, &f.p, &op, &vp), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* Node 0's rmr_bind of RMR r to LMR l, predicted on f and on a copy whose l has MW_BIND, must agree. */
static void bind_as_with_mw_bind(struct fx *f, struct dpair s, int r, int l, uint64_t off, uint64_t len,
				 uint32_t priv)
{
	struct m_op op = { .kind = M_OP_DAT_RMR_BIND, .node = 0, .obj = (int16_t)r, .dat.ep = (int16_t)s.ep,
			   .dat.lmr = (int16_t)l, .dat.offset = f->m.node[0].mr[l].iova + off, .dat.len = len,
			   .dat.priv = priv };
	struct model *with = malloc(sizeof(*with));
	struct m_pred a, b;
	int rc_a, rc_b;

	ck_assert_ptr_nonnull(with);
	ck_assert_int_eq(model_clone(with, &f->m), 0);
	with->node[0].mr[l].access |= M_ACC_MW_BIND;
	rc_a = model_predict(&f->m, &f->p, &op, &a);
	rc_b = model_predict(with, &f->p, &op, &b);
	same_pred(rc_a, &a, rc_b, &b);
	model_free(with);
	free(with);
}

START_TEST(test_DAT_RMR_2_bind_as_with_mw_bind)
{
	static const char *const profiles[] = { "generic", "rxe" }; /* rxe has no RMRs: made under generic */
	static const uint32_t privs[] = { M_DAT_PRIV_REMOTE_READ, M_DAT_PRIV_REMOTE_WRITE,
					  M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_REMOTE_WRITE, 0 };
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int ro = fx_lmr(&f, 0, s.za, 4096, PRIV_READ);
	int all = fx_lmr(&f, 0, s.za, 4096, PRIV_ALL);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());

	ck_assert_uint_eq(f.m.node[0].mr[s.src].access & M_ACC_MW_BIND, 0);
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		ck_assert_int_eq(m_profile_get(profiles[i], 0, &f.p), 0);
		for (size_t k = 0; k < sizeof(privs) / sizeof(privs[0]); k++) {
			bind_as_with_mw_bind(&f, s, r, s.src, 0, 64, privs[k]);
			bind_as_with_mw_bind(&f, s, r, ro, 64, 4096, privs[k]); /* beyond the LMR */
			bind_as_with_mw_bind(&f, s, r, all, 128, 256, privs[k]);
			bind_as_with_mw_bind(&f, s, r, all, 0, 0, privs[k]);
		}
	}
	model_free(&f.m);
}
END_TEST

/* The verbs bind itself: an MR without MW_BIND refuses the bind (MW-BIND-5) unless mr_bindable. */
START_TEST(test_MW_BIND_5_mr_bindable)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .obj = -1, .verbs.pd = (int16_t)s.pa,
					  .verbs.mw_type = M_MW_TYPE_1 }, ok_());
	struct m_op op = { .kind = M_OP_BIND_MW, .node = 0, .obj = (int16_t)mw,
			   .verbs = { .pd = -1, .mr = (int16_t)s.ma, .qp = (int16_t)s.qa, .peer_node = -1, .peer_qp = -1,
				      .access = M_ACC_REMOTE_READ, .bind_call = 1, .len = 64,
				      .offset = f.m.node[0].mr[s.ma].iova } };
	struct m_pred vp;

	ck_assert_uint_eq(f.m.node[0].mr[s.ma].access & M_ACC_MW_BIND, 0);
	ck_assert_int_eq(m_verbs_step_predict(&f.m, &f.p, &op, &vp), 0);
	ck_assert(fx_rule(vp, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_5));
	op.verbs.mr_bindable = 1;
	ck_assert_int_eq(m_verbs_step_predict(&f.m, &f.p, &op, &vp), 0);
	ck_assert(fx_only(vp, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(vp, wc_(M_WC_SUCCESS), M_RULE_MW_BIND_11));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_underneath(void)
{
	Suite *s = suite_create("model_underneath");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_RPMA_REG_3_first_reg_as_with_the_peer_pd);
	tcase_add_test(tc, test_RPMA_REG_3_pd_next_is_the_next_free_slot);
	tcase_add_test(tc, test_DAT_RMR_2_bind_as_with_mw_bind);
	tcase_add_test(tc, test_MW_BIND_5_mr_bindable);
	suite_add_tcase(s, tc);
	return s;
}

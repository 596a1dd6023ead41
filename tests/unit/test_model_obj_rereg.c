/* Unit tests of the model: MR re-registration (ibv_rereg_mr). */
#include "tests/unit/model_fx.h"

static struct m_op op_rereg(int node, int mr, uint32_t flags, uint32_t access, int pd)
{
	return (struct m_op){ .kind = M_OP_REREG_MR, .node = (uint8_t)node, .obj = (int16_t)mr,
			      .verbs.rereg_flags = flags, .verbs.access = access, .verbs.pd = (int16_t)pd, .verbs.len = 4096 };
}

#define REREG_SETUP                      \
	struct fx f;                     \
	int pd, pd2, mr;                 \
	fx_init(&f, 1, "generic");       \
	pd = fx_pd(&f, 0);               \
	pd2 = fx_pd(&f, 0);              \
	mr = fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE)

START_TEST(test_MR_REREG_1_unknown_flags)
{
	REREG_SETUP;
	struct m_pred pr = fx_predict(&f, op_rereg(0, mr, 8, 0, pd));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_REREG_1));
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_PD, 0, pd2)), ok_()));
	(void)pd2;
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_2_translation_without_range)
{
	REREG_SETUP;
	struct m_op op = op_rereg(0, mr, M_REREG_CHANGE_TRANSLATION, 0, pd);
	op.verbs.len = 0;
	ck_assert(fx_rule(fx_predict(&f, op), err_(EINVAL), M_RULE_MR_REREG_2));
	op.verbs.len = 4096;
	ck_assert(fx_has(fx_predict(&f, op), ok_()));
	(void)pd2;
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_3_access_without_flag)
{
	REREG_SETUP;
	ck_assert(fx_rule(fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_PD, M_ACC_REMOTE_READ, pd2)),
			  err_(EINVAL), M_RULE_MR_REREG_3));
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_ACCESS, M_ACC_REMOTE_READ, pd)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_rereg_of_a_dead_mr_is_malformed)
{
	/* MR-REREG-4 is not encoded: a deregistered MR's pointer is freed memory. */
	REREG_SETUP;
	struct m_pred pr;
	struct m_op op = op_rereg(0, mr, M_REREG_CHANGE_ACCESS, 0, pd);

	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, mr), ok_());
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	int live = fx_mr(&f, 0, pd, 64, 0);
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, live, M_REREG_CHANGE_ACCESS, 0, pd)), ok_()));
	(void)pd2;
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_5_no_flags)
{
	REREG_SETUP;
	ck_assert(fx_rule(fx_predict(&f, op_rereg(0, mr, 0, 0, pd)), err_(EINVAL), M_RULE_MR_REREG_5));
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_ACCESS, 0, pd)), ok_()));
	/* rxe 6.1 has no rereg at all: the kernel refuses before the flags. */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, mr, 0, 0, pd)), err_(EOPNOTSUPP)));
	ck_assert(fx_rule(fx_predict(&f, op_rereg(0, mr, 0, 0, pd)), err_(EOPNOTSUPP), M_RULE_MR_REREG_5));
	/* ... but libibverbs' own input checks still come first. */
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, mr, 8, 0, pd)), err_(EINVAL)));
	(void)pd2;
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_6_invalid_new_access)
{
	REREG_SETUP;
	struct m_pred pr = fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_ACCESS, M_ACC_REMOTE_WRITE, pd));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_REREG_6));
	ck_assert(fx_only(fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_ACCESS, RW, pd)), ok_()));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, op_rereg(0, mr, M_REREG_CHANGE_ACCESS, M_ACC_REMOTE_WRITE, pd));
	ck_assert(fx_only(pr, err_(EOPNOTSUPP)));
	ck_assert(fx_rule(pr, err_(EOPNOTSUPP), M_RULE_MR_ACC_1));
	(void)pd2;
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_7_translation_on_rxe)
{
	REREG_SETUP;
	struct m_op op = op_rereg(0, mr, M_REREG_CHANGE_TRANSLATION, 0, pd);
	struct m_pred pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(EOPNOTSUPP)));
	ck_assert(fx_rule(pr, err_(EOPNOTSUPP), M_RULE_MR_REREG_7));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), err_(EOPNOTSUPP)));
	(void)pd2;
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_8_input_error_keeps_mr)
{
	REREG_SETUP;
	fx_do(&f, op_rereg(0, mr, 8, 0, pd), err_(EINVAL));
	ck_assert(f.m.node[0].mr[mr].live);
	ck_assert_int_eq(f.m.node[0].mr[mr].pd, pd);
	ck_assert(fx_rule(fx_predict(&f, op_rereg(0, mr, 8, 0, pd)), err_(EINVAL), M_RULE_MR_REREG_8));
	fx_do(&f, op_rereg(0, mr, M_REREG_CHANGE_PD, 0, pd2), ok_());
	ck_assert_int_eq(f.m.node[0].mr[mr].pd, pd2);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_REREG_9_change_pd_moves_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 1);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);

	ck_assert(fx_rule(fx_predict(&f, op_rereg(1, s.mb, M_REREG_CHANGE_PD, 0, pd2)), ok_(), M_RULE_MR_REREG_9));
	fx_do(&f, op_rereg(1, s.mb, M_REREG_CHANGE_PD, 0, pd2), ok_());
	ck_assert_uint_eq(f.m.node[1].pd[s.pb].usecnt, 1); /* only the QP */
	/* The responder QP is in the old PD: RA-PD-1. */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op_rereg(1, s.mb, M_REREG_CHANGE_PD, 0, s.pb)), err_(EOPNOTSUPP)));
	model_free(&f.m);
}
END_TEST

/* CHANGE_TRANSLATION onto another buffer (MrTest.ReregMrChangeAddress): the MR's address and length
 * are the new range's, its bytes the new buffer's; a buffer another registration shares, a window
 * bound to it, or buf= without CHANGE_TRANSLATION: malformed for the model. */
START_TEST(test_MR_REREG_10_translation_onto_new_buffer)
{
	REREG_SETUP;
	int nb = fx_mr(&f, 0, pd, 8192, M_ACC_LOCAL_WRITE);
	struct m_op op = op_rereg(0, mr, M_REREG_CHANGE_TRANSLATION, 0, pd);
	struct m_pred pr, junk;
	struct m_mr *m = &f.m.node[0].mr[mr];

	op.verbs.in_buf = 1;
	op.verbs.mr = (int16_t)nb;
	op.verbs.buf_off = 4096;
	pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(EOPNOTSUPP)));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_REREG_10));
	ck_assert_int_eq(model_mr_set(&f.m, 0, nb, 4096, 0x5a, 1), 0);
	fx_do(&f, op, ok_());
	ck_assert_uint_eq(m->addr, f.m.node[0].mr[nb].addr + 4096);
	ck_assert_uint_eq(m->iova, m->addr);
	ck_assert_uint_eq(m->len, 4096);
	ck_assert_int_eq(m->buf, nb);
	ck_assert_int_eq(model_mr_byte(&f.m, 0, mr, 0), 0x5a);
	/* A buffer another registration shares is not moved; nor past the new buffer's end. */
	struct m_op view = op_reg(0, pd, 4096, M_ACC_LOCAL_WRITE);

	view.verbs.in_buf = 1;
	view.verbs.mr = (int16_t)nb;
	fx_do(&f, view, ok_());
	op.obj = (int16_t)nb;
	op.verbs.mr = (int16_t)mr;
	op.verbs.buf_off = 0;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &junk), -EINVAL);
	op = op_rereg(0, mr, M_REREG_CHANGE_TRANSLATION, 0, pd);
	op.verbs.in_buf = 1;
	op.verbs.mr = (int16_t)nb;
	op.verbs.buf_off = 4097;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &junk), -EINVAL);
	op.verbs.buf_off = 0;
	op.verbs.rereg_flags = M_REREG_CHANGE_PD;
	op.verbs.pd = (int16_t)pd2;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &junk), -EINVAL);
	/* A copy of the model keeps the moved MR on the new buffer's bytes. */
	struct model c;

	ck_assert_int_eq(model_clone(&c, &f.m), 0);
	ck_assert_ptr_eq(c.node[0].mr[mr].mem, c.node[0].mr[nb].mem);
	ck_assert_uint_eq(c.node[0].mr[mr].moff, c.node[0].mr[nb].moff + 4096);
	ck_assert_int_eq(model_mr_byte(&c, 0, mr, 0), 0x5a);
	model_free(&c);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_obj_rereg(void)
{
	Suite *s = suite_create("model_obj_rereg");
	TCase *tc = tcase_create("rereg");

	RTEST(tc, MR_REREG_1, test_MR_REREG_1_unknown_flags);
	RTEST(tc, MR_REREG_2, test_MR_REREG_2_translation_without_range);
	RTEST(tc, MR_REREG_3, test_MR_REREG_3_access_without_flag);
	tcase_add_test(tc, test_rereg_of_a_dead_mr_is_malformed);
	RTEST(tc, MR_REREG_5, test_MR_REREG_5_no_flags);
	RTEST(tc, MR_REREG_6, test_MR_REREG_6_invalid_new_access);
	RTEST(tc, MR_REREG_7, test_MR_REREG_7_translation_on_rxe);
	RTEST(tc, MR_REREG_8, test_MR_REREG_8_input_error_keeps_mr);
	RTEST(tc, MR_REREG_9, test_MR_REREG_9_change_pd_moves_mr);
	RTEST(tc, MR_REREG_10, test_MR_REREG_10_translation_onto_new_buffer);
	suite_add_tcase(s, tc);
	return s;
}

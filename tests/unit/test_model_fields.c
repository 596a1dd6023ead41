/*
 * Unit tests of the model: the fields step (model/verbs/fields.c,
 * FIELDS-1, FIELDS-2): the context and the objects a returned struct names
 * (model handles; none, own), and its numbers.
 */
#include "tests/unit/post_fx.h"

/* fields of object h of class of on node 0: entry key of its results (its mode and value). */
static int fields_get(struct fx *f, unsigned of, int h, const char *key, struct m_qres *q)
{
	struct m_op op = { .kind = M_OP_FIELDS, .node = 0, .obj = (int16_t)h, .verbs.fields_of = (uint8_t)of };

	memset(q, 0, sizeof(*q));
	ck_assert_int_eq(model_query(&f->m, &f->p, &op, q), 0);
	return fx_qres_index(q, key);
}

START_TEST(test_FIELDS_1_objects_named)
{
	struct fx f;
	struct m_qres q;
	int pd, pd2, mr, q1, j;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	pd2 = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd2, 4096, RW);
	j = fields_get(&f, M_FLD_PD, pd, "context", &q);
	ck_assert(j >= 0 && q.r[j].mode == M_Q_EXACT && q.r[j].value == 1 && q.r[j].rule == M_RULE_FIELDS_1);
	j = fields_get(&f, M_FLD_MR, mr, "pd", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, (uint64_t)pd2) && !model_qres_ok(&q, (size_t)j, (uint64_t)pd));
	q1 = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)pd, .verbs.access = QP_ALL },
		   ok_());
	j = fields_get(&f, M_FLD_QP, q1, "srq", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, M_QREF_NONE) && !model_qres_ok(&q, (size_t)j, 0));
	j = fields_get(&f, M_FLD_QP, q1, "send_cq", &q); /* no cq=: the harness's own */
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, M_QREF_OWN));
	j = fields_get(&f, M_FLD_QP, q1, "pd", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, (uint64_t)pd));
	/* a destroyed object has no struct to read: malformed */
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 0, q1), ok_());
	struct m_pred pr;

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_FIELDS, .node = 0, .obj = (int16_t)q1,
								      .verbs.fields_of = M_FLD_QP }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_FIELDS_2_numbers)
{
	struct fx f;
	struct m_qres q;
	int pd, mr, j;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd, 8192, RW);
	j = fields_get(&f, M_FLD_MR, mr, "length", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, 8192) && !model_qres_ok(&q, (size_t)j, 8191));
	ck_assert_uint_eq(q.r[j].rule, M_RULE_FIELDS_2);
	j = fields_get(&f, M_FLD_MR, mr, "addr", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, model_mr_laddr(&f.m, 0, mr, 0)));
	int cq = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_CQ, .node = 0, .verbs.cq_depth = 10 }, ok_());

	j = fields_get(&f, M_FLD_CQ, cq, "cqe", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, 10) && model_qres_ok(&q, (size_t)j, 15) &&
		  !model_qres_ok(&q, (size_t)j, 9));
	j = fields_get(&f, M_FLD_CQ, cq, "channel", &q);
	ck_assert(j >= 0 && model_qres_ok(&q, (size_t)j, M_QREF_NONE));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_fields(void)
{
	Suite *s = suite_create("model_fields");
	TCase *tc = tcase_create("fields");

	RTEST(tc, FIELDS_1, test_FIELDS_1_objects_named);
	RTEST(tc, FIELDS_2, test_FIELDS_2_numbers);
	suite_add_tcase(s, tc);
	return s;
}

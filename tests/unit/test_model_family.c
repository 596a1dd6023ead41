/* Unit tests of the model's family registry (model/families.def, model/ops.def, model/family.c). */
#include "tests/unit/model_fx.h"

/* Every op kind belongs to a family, and its name says which (verbs ops carry no prefix). */
START_TEST(test_every_op_has_its_family)
{
	for (unsigned k = 0; k < M_OP_COUNT_; k++) {
		enum m_family fam = m_op_family((enum m_op_kind)k);
		const char *name = m_op_kind_str((enum m_op_kind)k);

		ck_assert_int_lt(fam, M_FAM_COUNT_);
		ck_assert_str_ne(name, "?");
		if (fam == M_FAM_RPMA)
			ck_assert_int_eq(strncmp(name, "rpma_", 5), 0);
		else if (fam == M_FAM_DAT)
			ck_assert_int_eq(strncmp(name, "dat_", 4), 0);
		else
			ck_assert(strncmp(name, "rpma_", 5) && strncmp(name, "dat_", 4));
	}
	ck_assert_int_eq(m_op_family(M_OP_COUNT_), M_FAM_COUNT_);
	ck_assert_int_eq(m_op_family(M_OP_REG_MR), M_FAM_VERBS);
	ck_assert_int_eq(m_op_family(M_OP_RPMA_FLUSH), M_FAM_RPMA);
	ck_assert_int_eq(m_op_family(M_OP_DAT_RMR_BIND), M_FAM_DAT);
}
END_TEST

/* Every op kind's name parses back to it, in any case (the lookup tries first letters first); others do not. */
START_TEST(test_op_kind_names_parse_back)
{
	enum m_op_kind got;
	char up[64];

	for (unsigned k = 0; k < M_OP_COUNT_; k++) {
		const char *name = m_op_kind_str((enum m_op_kind)k);
		size_t i;

		ck_assert_int_eq(m_op_kind_parse(name, &got), 0);
		ck_assert_int_eq(got, (enum m_op_kind)k);
		for (i = 0; name[i] && i + 1 < sizeof(up); i++)
			up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
		up[i] = '\0';
		ck_assert_int_eq(m_op_kind_parse(up, &got), 0);
		ck_assert_int_eq(got, (enum m_op_kind)k);
	}
	ck_assert_int_eq(m_op_kind_parse("", &got), -EINVAL);
	ck_assert_int_eq(m_op_kind_parse("reg_mrx", &got), -EINVAL);
	ck_assert_int_eq(m_op_kind_parse("eg_mr", &got), -EINVAL);
}
END_TEST

START_TEST(test_family_names)
{
	enum m_family f;

	for (unsigned i = 0; i < M_FAM_COUNT_; i++) {
		ck_assert_int_eq(m_family_parse(m_family_str((enum m_family)i), &f), 0);
		ck_assert_int_eq(f, (enum m_family)i);
	}
	ck_assert_str_eq(m_family_str(M_FAM_VERBS), "verbs");
	ck_assert_str_eq(m_family_str(M_FAM_RPMA), "rpma");
	ck_assert_str_eq(m_family_str(M_FAM_DAT), "dat");
	ck_assert_int_eq(m_family_parse("nope", &f), -EINVAL);
	/* An object's api tag and its family are the same numbers. */
	ck_assert_int_eq(M_FAM_RPMA, M_FAM_RPMA);
	ck_assert_int_eq(M_FAM_DAT, M_FAM_DAT);
}
END_TEST

/* The dispatch: each family's state starts as its init hook says; an op that is no query, an unknown
 * kind or node fail. */
START_TEST(test_dispatch_and_state)
{
	struct fx f;
	struct m_qres q;
	struct m_pred pr;

	fx_init(&f, 2, "generic");
	for (unsigned n = 0; n < 2; n++) {
		ck_assert_int_eq(f.m.node[n].rpma.pd, -1);
		ck_assert_int_eq(f.m.node[n].dat.ia_open, 0);
	}
	struct m_op pd = op_obj(M_OP_ALLOC_PD, 0, -1);

	ck_assert_int_eq(model_query(&f.m, &f.p, &pd, &q), -EINVAL);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_COUNT_ }, &pr), -EINVAL);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_ALLOC_PD, .node = 2 }, &pr), -EINVAL);
	/* A librpma registration makes the node's peer PD underneath (verbs, through the step helpers). */
	struct m_op reg = { .kind = M_OP_RPMA_MR_REG, .node = 1, .obj = -1,
			    .rpma = { .mr = -1, .peer_node = -1, .remote = -1, .len = 64, .usage = M_RPMA_READ_SRC } };
	int h = fx_do(&f, reg, ok_());

	ck_assert_int_eq(f.m.node[1].rpma.pd, 0);
	ck_assert_int_eq(f.m.node[1].mr[h].api, M_FAM_RPMA);
	ck_assert_int_eq(f.m.node[1].pd[0].usecnt, 1);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_family(void)
{
	Suite *s = suite_create("model families");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, test_every_op_has_its_family);
	tcase_add_test(tc, test_family_names);
	tcase_add_test(tc, test_op_kind_names_parse_back);
	tcase_add_test(tc, test_dispatch_and_state);
	suite_add_tcase(s, tc);
	return s;
}

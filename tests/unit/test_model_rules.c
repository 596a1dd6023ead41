/*
 * The rule table cannot drift: every catalog rule of area A is in it exactly
 * once, every encoded rule has a registered test (RTEST), every rule not
 * encoded says why, and every deviation of a profile names a rule and cites.
 */
#include "tests/unit/model_fx.h"

#include <stdio.h>

unsigned char model_rule_tested[M_RULE_COUNT_];

/* The 86 area-A IDs of ../shared/reference/rule-catalog.md, in catalog order. */
static const char *const catalog_a[] = {
	"PD-1", "PD-2", "PD-3", "PD-4", "MR-ACC-1", "MR-ACC-2", "MR-ACC-3", "MR-ACC-4", "MR-ACC-5",
	"MR-ACC-6", "MR-LEN-1", "MR-LEN-2", "MR-ADDR-1", "MR-ADDR-2", "MR-ADDR-3", "MR-MAP-1",
	"MR-MAP-2", "MR-MAP-3", "MR-KEY-1", "MR-KEY-2", "MR-KEY-3", "MR-DEREG-1", "MR-DEREG-2",
	"MR-DEREG-3", "MR-REREG-1", "MR-REREG-2", "MR-REREG-3", "MR-REREG-4", "MR-REREG-5",
	"MR-REREG-6", "MR-REREG-7", "MR-REREG-8", "MR-REREG-9", "MW-ALLOC-1", "MW-ALLOC-2",
	"MW-ALLOC-3", "MW-BIND-1", "MW-BIND-2", "MW-BIND-3", "MW-BIND-4", "MW-BIND-5", "MW-BIND-6",
	"MW-BIND-7", "MW-BIND-8", "MW-BIND-9", "MW-BIND-10", "MW-BIND-11", "MW-KEY-1", "MW-KEY-2",
	"MW-INV-1", "MW-INV-2", "MW-INV-3", "MW-INV-4", "MW-DEALLOC-1", "MW-ACC-1", "MW-ACC-2",
	"MW-ACC-3", "RA-QP-1", "RA-RES-1", "RA-LEN-1", "RA-ZERO-1", "RA-KEY-1", "RA-PD-1",
	"RA-ACC-1", "RA-BND-1", "RA-ATOM-1", "RA-ATOM-2", "RA-ATOM-3", "RA-ATOM-4", "RA-WRITE-1",
	"RA-WRITE-2", "RA-READ-1", "RA-ERR-1", "RA-ERR-2", "RA-ERR-3", "RA-ERR-4", "RA-ERR-5",
	"RA-UC-1", "RA-FLUSH-1", "LP-1", "LP-2", "LP-3", "LP-4", "LP-5", "LP-6", "LP-7",
};

START_TEST(test_every_catalog_rule_is_in_the_table)
{
	ck_assert_uint_eq(sizeof(catalog_a) / sizeof(catalog_a[0]), 86);
	for (size_t i = 0; i < 86; i++) {
		enum m_rule r;

		ck_assert_msg(m_rule_find(catalog_a[i], &r) == 0, "%s missing from model/rules.def", catalog_a[i]);
		ck_assert_str_eq(m_rule_info(r)->id, catalog_a[i]);
	}
	ck_assert_ptr_null(m_rule_info(M_RULE_COUNT_));
	enum m_rule r;
	ck_assert_int_eq(m_rule_find("XX-1", &r), -ENOENT);
}
END_TEST

/* The 17 area-B IDs (librpma 1.2.0), in catalog order. */
static const char *const catalog_b[] = {
	"RPMA-REG-1", "RPMA-REG-2", "RPMA-REG-3", "RPMA-REG-4", "RPMA-DEREG-1", "RPMA-DESC-1",
	"RPMA-DESC-2", "RPMA-DESC-3", "RPMA-DESC-4", "RPMA-OP-1", "RPMA-OP-2", "RPMA-OP-3",
	"RPMA-AW-1", "RPMA-FLUSH-1", "RPMA-FLUSH-2", "RPMA-FLUSH-3", "RPMA-CQ-1",
};

START_TEST(test_every_area_b_rule_is_in_the_table)
{
	ck_assert_uint_eq(sizeof(catalog_b) / sizeof(catalog_b[0]), 17);
	for (size_t i = 0; i < 17; i++) {
		enum m_rule r;

		ck_assert_msg(m_rule_find(catalog_b[i], &r) == 0, "%s missing from model/rules.def", catalog_b[i]);
		ck_assert_str_eq(m_rule_info(r)->section, "B");
	}
}
END_TEST

/* The 19 area-C (uDAPL) IDs of the catalog, in catalog order. */
static const char *const catalog_c[] = {
	"DAT-LMR-1", "DAT-LMR-2", "DAT-LMR-3", "DAT-LMR-4", "DAT-LMR-5", "DAT-LMR-6", "DAT-LMR-7",
	"DAT-LMR-8", "DAT-LMR-9", "DAT-LMR-10", "DAT-FREE-1", "DAT-FREE-2", "DAT-PZ-1", "DAT-RMR-1",
	"DAT-RMR-2", "DAT-RMR-3", "DAT-RMR-4", "DAT-DTO-1", "DAT-DTO-2",
};

START_TEST(test_every_catalog_c_rule_is_in_the_table)
{
	size_t n = sizeof(catalog_c) / sizeof(catalog_c[0]), in_c = 0;

	ck_assert_uint_eq(n, 19);
	for (size_t i = 0; i < n; i++) {
		enum m_rule r;

		ck_assert_msg(m_rule_find(catalog_c[i], &r) == 0, "%s missing from model/rules.def", catalog_c[i]);
		ck_assert_str_eq(m_rule_info(r)->section, "C");
	}
	/* Besides them only the model's own DAT-* rules (IA, handles, EPs, DTOs) are in area C. */
	for (unsigned i = 0; i < M_RULE_COUNT_; i++) {
		const struct m_rule_info *a = m_rule_info((enum m_rule)i);

		if (strcmp(a->section, "C"))
			continue;
		in_c++;
		ck_assert_msg(strncmp(a->id, "DAT-", 4) == 0, "%s in area C", a->id);
	}
	ck_assert_uint_ge(in_c, n);
}
END_TEST

START_TEST(test_rule_ids_unique_and_complete)
{
	for (unsigned i = 0; i < M_RULE_COUNT_; i++) {
		const struct m_rule_info *a = m_rule_info((enum m_rule)i);

		ck_assert(a->id && a->section && a->function && a->summary && a->citation);
		ck_assert(a->citation[0] && a->summary[0]);
		for (unsigned j = i + 1; j < M_RULE_COUNT_; j++)
			ck_assert_str_ne(a->id, m_rule_info((enum m_rule)j)->id);
		if (a->status == M_NOT_ENCODED)
			ck_assert_msg(strncmp(a->function, "not encoded: ", 13) == 0, "%s: no reason", a->id);
	}
}
END_TEST

START_TEST(test_every_encoded_rule_has_a_test)
{
	unsigned encoded = 0, missing = 0;

	for (unsigned i = 0; i < M_RULE_COUNT_; i++) {
		const struct m_rule_info *a = m_rule_info((enum m_rule)i);

		if (a->status != M_ENCODED)
			continue;
		encoded++;
		if (!model_rule_tested[i]) {
			fprintf(stderr, "rule %s is encoded but has no RTEST\n", a->id);
			missing++;
		}
	}
	ck_assert_uint_gt(encoded, 70);
	ck_assert_uint_eq(missing, 0);
}
END_TEST

START_TEST(test_profiles_cite_their_deviations)
{
	ck_assert_uint_eq(m_profile_count(), 3); /* generic, rxe, mca-ref */
	for (size_t i = 0; i < m_profile_count(); i++) {
		struct m_profile p;

		ck_assert_int_eq(m_profile_get(m_profile_name(i), 0, &p), 0);
		for (size_t d = 0; d < p.ndev; d++) {
			ck_assert_ptr_nonnull(m_rule_info(p.dev[d].rule));
			ck_assert_int_eq(m_rule_info(p.dev[d].rule)->status, M_ENCODED);
			ck_assert(p.dev[d].citation && p.dev[d].citation[0]);
			ck_assert_uint_ge(p.dev[d].n, 1);
			ck_assert_uint_le(p.dev[d].kernel_min, p.dev[d].kernel_max);
		}
	}
	struct m_profile p;
	ck_assert_int_eq(m_profile_get("nonsense", 0, &p), -ENOENT);
	ck_assert_ptr_null(m_profile_name(99));
}
END_TEST

START_TEST(test_kernel_ranges_select_deviations)
{
	struct fx f;
	int pd, mr;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd, 64, 0);
	struct m_op op = { .kind = M_OP_REREG_MR, .node = 0, .obj = (int16_t)mr, .verbs.rereg_flags = M_REREG_CHANGE_ACCESS };
	ck_assert(fx_only(fx_predict(&f, op), err_(EOPNOTSUPP))); /* 6.1: no rereg */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 8), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), ok_())); /* the 6.1 observation does not apply */
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_rules(void)
{
	Suite *s = suite_create("model_rules");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_every_catalog_rule_is_in_the_table);
	tcase_add_test(tc, test_every_area_b_rule_is_in_the_table);
	tcase_add_test(tc, test_every_catalog_c_rule_is_in_the_table);
	tcase_add_test(tc, test_rule_ids_unique_and_complete);
	tcase_add_test(tc, test_every_encoded_rule_has_a_test);
	tcase_add_test(tc, test_profiles_cite_their_deviations);
	tcase_add_test(tc, test_kernel_ranges_select_deviations);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the scenario language's tables: the call table's integrity,
 * enum names, and the values of flags and outcomes against the installed C
 * headers (libibverbs, librpma, uDAPL) when they are present.
 */
#include "harness/lang/scn.h"
#include "harness/run/family.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#if __has_include(<infiniband/verbs.h>)
#include <infiniband/verbs.h>
#define HAVE_VERBS 1
#endif
#if __has_include(<librpma.h>)
#include <librpma.h>
#define HAVE_RPMA 1
#endif
#if __has_include(<dat2/udat.h>)
#include <dat2/udat.h>
#define HAVE_DAT 1
#endif

START_TEST(test_call_table_integrity)
{
	size_t n = scn_call_count();

	ck_assert_uint_ge(n, 30);
	ck_assert_ptr_null(scn_call_get(n));
	for (size_t i = 0; i < n; i++) {
		const struct scn_call *c = scn_call_get(i);

		ck_assert_int_eq(scn_call_find(c->name), (int)i);          /* unique names */
		ck_assert_uint_lt(c->api, M_FAM_COUNT_);
		ck_assert_uint_lt(c->kind, SCN_KIND_COUNT_);
		ck_assert_msg(c->outs != 0, "%s produces nothing", c->name);
		if (c->api != M_FAM_VERBS && c->api != M_FAM_MEM)
			ck_assert_msg(strchr(c->name, '_') && strncmp(c->name, scn_api_str(c->api), 3) == 0,
				      "%s keeps its API prefix", c->name);
		if (c->kind == SCN_KIND_CREATE)                            /* creates exactly one class */
			ck_assert_msg(c->cls && !(c->cls & (c->cls - 1)), "%s", c->name);
		/* queries report results; so may other calls (rpmem_open: *nlanes, open_attr) */
		if (c->kind == SCN_KIND_QUERY)
			ck_assert_ptr_nonnull(c->query);
		ck_assert_int_eq(c->query != NULL, !!(c->outs & SCN_OUTS_QUERY));
		for (const struct scn_arg_spec *a = c->args; a->key; a++) {
			ck_assert_ptr_eq(scn_spec_find(c->args, a->key), a); /* unique keys */
			ck_assert_msg(a->kinds, "%s %s", c->name, a->key);
			if (a->kinds & (SCN_V_FLAGS | SCN_V_WORD))
				ck_assert_uint_gt(scn_table_count((enum scn_table)a->table), 0);
			if (a->kinds & (SCN_V_OBJ | SCN_V_ADDR))
				ck_assert_msg(a->cls, "%s %s names no class", c->name, a->key);
			if (a->hi)
				ck_assert_uint_le(a->lo, a->hi);
		}
	}
	ck_assert_int_eq(scn_call_find("ibv_reg_mr"), -ENOENT);
	for (size_t k = 0; k < api_family_count(); k++) { /* each family's count is its list's */
		const struct api_family *fa = api_family_get(k);

		ck_assert_ptr_nonnull(fa->ncalls);
		ck_assert_ptr_null(fa->calls[*fa->ncalls].name);
		for (size_t i = 0; i < *fa->ncalls; i++)
			ck_assert_ptr_nonnull(fa->calls[i].name);
	}
}
END_TEST

/* The registry (harness/api/registry.c): one row per enum m_family value, at that index,
 * whose calls say so; the call table is the rows' lists in order. */
START_TEST(test_family_registry)
{
	size_t k = 0;

	ck_assert_uint_eq(api_family_count(), M_FAM_COUNT_);
	ck_assert_ptr_null(api_family_get(M_FAM_COUNT_));
	for (size_t f = 0; f < api_family_count(); f++) {
		const struct api_family *fam = api_family_get(f);
		enum m_family a;

		ck_assert_int_eq(scn_api_parse(fam->name, &a), 0);
		ck_assert_uint_eq(a, f);
		ck_assert_ptr_nonnull(fam->calls);
		for (const struct scn_call *c = fam->calls; c->name; c++, k++) {
			ck_assert_ptr_eq(scn_call_get(k), c);
			ck_assert_msg(c->api == f, "%s is in the %s list", c->name, fam->name);
		}
		ck_assert_msg(!fam->stack_blob == !fam->blob_classes, "%s", fam->name);
		ck_assert_msg(!fam->agent_end || fam->agent_reqs, "%s", fam->name);
	}
	ck_assert_uint_eq(k, scn_call_count());
	ck_assert_str_eq(scn_api_str(M_FAM_COUNT_), "?");
}
END_TEST

START_TEST(test_verbs_calls_present)
{
	static const char *const want[] = {
		"alloc_pd", "dealloc_pd", "reg_mr", "dereg_mr", "rereg_mr", "alloc_mw", "bind_mw",
		"dealloc_mw", "create_qp", "destroy_qp", "modify_qp", "write", "read", "cas", "fadd",
		"recv", "send", "local_inv", "query_qp", "fill", "check", "connect", "rpma_mr_reg",
		"rpma_mr_dereg", "rpma_mr_get_descriptor", "rpma_mr_remote_from_descriptor",
		"rpma_connect", "rpma_read", "rpma_write", "rpma_flush", "dat_ia_open", "dat_pz_create",
		"dat_pz_free", "dat_lmr_create", "dat_lmr_query", "dat_lmr_free", "dat_rmr_create",
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(scn_call_find(want[i]) >= 0, "%s", want[i]);
	ck_assert_ptr_nonnull(scn_spec_find(scn_call_get((size_t)scn_call_find("reg_mr"))->args, "offset"));
}
END_TEST

START_TEST(test_enum_names)
{
	enum m_family a;
	enum scn_kind k;
	enum scn_class c;
	enum scn_vkind v;
	enum scn_attr at;
	enum scn_table t;
	enum m_outcome_kind o;

	ck_assert_int_eq(scn_api_parse(scn_api_str(M_FAM_DAT), &a), 0);
	ck_assert_int_eq(a, M_FAM_DAT);
	ck_assert_int_eq(scn_kind_parse("post", &k), 0);
	ck_assert_int_eq(k, SCN_KIND_POST);
	ck_assert_int_eq(scn_class_parse("MW", &c), 0);
	ck_assert_int_eq(c, SCN_C_MW);
	ck_assert_str_eq(scn_class_str((enum scn_class)3), "?");
	ck_assert_int_eq(scn_vkind_parse(scn_vkind_str(SCN_V_HEX), &v), 0);
	ck_assert_int_eq(v, SCN_V_HEX);
	ck_assert_int_eq(scn_attr_parse("qpn", &at), 0);
	ck_assert_int_eq(at, SCN_ATTR_QPN);
	ck_assert_int_eq(scn_attr_parse("QPN", &at), -EINVAL);
	ck_assert_int_eq(scn_table_parse("usage", &t), 0);
	ck_assert_int_eq(t, SCN_T_USAGE);
	ck_assert_int_eq(m_outcome_kind_parse("errno", &o), 0);
	ck_assert_int_eq(o, M_OUT_ERRNO);
	ck_assert_str_eq(scn_kind_str(SCN_KIND_COUNT_), "?");
	for (size_t i = 0; i < scn_cap_count(); i++)
		ck_assert_int_eq(scn_cap_find(scn_cap_name(i)), (int)i);
	ck_assert_int_eq(scn_cap_find("mw_type3"), -ENOENT);
	ck_assert_ptr_null(scn_cap_name(scn_cap_count()));
}
END_TEST

static uint64_t flag(enum scn_table t, const char *name)
{
	uint64_t v = ~0ull;

	ck_assert_msg(scn_table_lookup(t, name, &v) == 0, "%s", name);
	return v;
}

static struct m_outcome outcome(const char *name)
{
	struct m_outcome o = { 0xff, 0 };

	ck_assert_msg(m_outcome_parse(name, &o) == 0, "%s", name);
	ck_assert_str_eq(m_outcome_name(o), name);
	return o;
}

START_TEST(test_values_match_headers)
{
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "remote_read"), 4); /* case-insensitive */
	ck_assert_int_eq(outcome("EOPNOTSUPP").code, EOPNOTSUPP);
#ifdef HAVE_VERBS
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "LOCAL_WRITE"), IBV_ACCESS_LOCAL_WRITE);
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "MW_BIND"), IBV_ACCESS_MW_BIND);
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "ZERO_BASED"), IBV_ACCESS_ZERO_BASED);
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "ON_DEMAND"), IBV_ACCESS_ON_DEMAND);
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "HUGETLB"), IBV_ACCESS_HUGETLB);
	ck_assert_uint_eq(flag(SCN_T_ACCESS, "RELAXED_ORDERING"), IBV_ACCESS_RELAXED_ORDERING);
	ck_assert_uint_eq(flag(SCN_T_REREG, "CHANGE_ACCESS"), IBV_REREG_MR_CHANGE_ACCESS);
	ck_assert_uint_eq(flag(SCN_T_QPS, "ERR"), IBV_QPS_ERR);
	ck_assert_uint_eq(flag(SCN_T_QPS_MODIFY, "RESET"), IBV_QPS_RESET);
	ck_assert_int_eq(outcome("REM_ACCESS_ERR").code, IBV_WC_REM_ACCESS_ERR);
	ck_assert_int_eq(outcome("GENERAL_ERR").code, IBV_WC_GENERAL_ERR);
	ck_assert_int_eq(outcome("MW_BIND_ERR").code, IBV_WC_MW_BIND_ERR);
#endif
#ifdef HAVE_RPMA
	ck_assert_uint_eq(flag(SCN_T_USAGE, "FLUSH_TYPE_PERSISTENT"), RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT);
	ck_assert_uint_eq(flag(SCN_T_USAGE, "RECV"), RPMA_MR_USAGE_RECV);
	ck_assert_uint_eq(flag(SCN_T_FLUSH, "VISIBILITY"), RPMA_FLUSH_TYPE_VISIBILITY);
	ck_assert_int_eq(outcome("RPMA_E_INVAL").code, RPMA_E_INVAL);
	ck_assert_int_eq(outcome("RPMA_E_NOT_SHARED_CHNL").code, RPMA_E_NOT_SHARED_CHNL);
#endif
#ifdef HAVE_DAT
	ck_assert_uint_eq(flag(SCN_T_DAT_PRIV, "REMOTE_WRITE"), DAT_MEM_PRIV_REMOTE_WRITE_FLAG);
	ck_assert_uint_eq(flag(SCN_T_DAT_PRIV, "ALL"), DAT_MEM_PRIV_ALL_FLAG);
	ck_assert_uint_eq(flag(SCN_T_DAT_PRIV, "READ"), DAT_MEM_PRIV_READ_FLAG);
	ck_assert_int_eq(outcome("DAT_INVALID_PARAMETER").code, DAT_INVALID_PARAMETER);
	ck_assert_int_eq(outcome("DAT_NOT_IMPLEMENTED").code, DAT_NOT_IMPLEMENTED);
	ck_assert_int_eq(outcome("DAT_DTO_ERR_REMOTE_ACCESS").code, DAT_DTO_ERR_REMOTE_ACCESS);
	ck_assert_int_eq(outcome("DAT_DTO_ERR_FLUSHED").code, DAT_DTO_ERR_FLUSHED);
	ck_assert_int_eq(outcome("DAT_RMR_OPERATION_FAILED").code, DAT_RMR_OPERATION_FAILED);
	ck_assert_int_eq(outcome("DAT_DTO_ERR_REMOTE_ACCESS").kind, M_OUT_DTO);
#endif
	ck_assert_int_eq(outcome("MRAPI_ERR_RMEM_EXISTS").kind, M_OUT_MRAPI);
	ck_assert_int_eq(outcome("KERNEL_CRASH").kind, M_OUT_CRASH);
	ck_assert_int_eq(outcome("ok").kind, M_OUT_OK);
}
END_TEST

START_TEST(test_outcome_names_round_trip)
{
	const char *name;
	size_t i;

	for (i = 0; (name = m_outcome_nth(i, NULL)) != NULL; i++)
		outcome(name);
	ck_assert_uint_gt(i, 80);
	ck_assert_str_eq(m_outcome_name((struct m_outcome){ M_OUT_ERRNO, 9999 }), "?");
	ck_assert_str_eq(m_outcome_name((struct m_outcome){ 200, 0 }), "?");
	ck_assert_int_eq(m_outcome_parse("RPMA_E_WHATEVER", &(struct m_outcome){ 0, 0 }), -EINVAL);
}
END_TEST

START_TEST(test_class_attrs)
{
	ck_assert_uint_eq(scn_class_attrs(SCN_C_QP), 1u << SCN_ATTR_QPN);
	ck_assert(scn_class_attrs(SCN_C_MR) & (1u << SCN_ATTR_LKEY));
	ck_assert(!(scn_class_attrs(SCN_C_MW) & (1u << SCN_ATTR_LKEY)));
	ck_assert_uint_eq(scn_class_attrs(SCN_C_PD), 0);
	ck_assert_ptr_null(scn_table_name(SCN_T_NONE, 0, NULL));
	ck_assert_int_eq(scn_table_lookup(SCN_T_NONE, "x", &(uint64_t){ 0 }), -EINVAL);
}
END_TEST

Suite *suite_test_scn_calls(void)
{
	Suite *s = suite_create("test_scn_calls");
	TCase *tc = tcase_create("calls");

	tcase_add_test(tc, test_call_table_integrity);
	tcase_add_test(tc, test_family_registry);
	tcase_add_test(tc, test_verbs_calls_present);
	tcase_add_test(tc, test_enum_names);
	tcase_add_test(tc, test_values_match_headers);
	tcase_add_test(tc, test_outcome_names_round_trip);
	tcase_add_test(tc, test_class_attrs);
	suite_add_tcase(s, tc);
	return s;
}

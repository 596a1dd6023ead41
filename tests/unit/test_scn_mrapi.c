/*
 * Unit tests of the scenario language's MRAPI part (harness/api/mrapi/calls_mrapi.c):
 * every call and key is accepted and prints back canonically, the refusals
 * a tester meets, and the MRAPI tables against lib/mrapi's values.
 */
#include "harness/lang/scn.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#define BASE "require mrapi\nnodes a b\na: mrapi_initialize\nb: mrapi_initialize domain=2 node_id=9\n"

/* Every MRAPI call with its keys, in canonical form (what scn_step_format prints). */
static const char *const canonical[] = {
	"a: mrapi_rmem_init_attributes A",
	"a: mrapi_rmem_set_attribute A attr=DOMAIN_SHARED value=0",
	"a: mrapi_rmem_create R id=ANY size=4096 atype=DMA attrs=A",
	"a: mrapi_rmem_create R2 id=5 size=64 over=R+8 null=MEM expect MRAPI_ERR_PARAMETER|MRAPI_ERR_RMEM_CONFLICT",
	"a: mrapi_rmem_get_attribute R attr=RMEM_SIZE expect value=4096",
	"b: mrapi_rmem_create L id=6 size=256",
	"b: mrapi_rmem_get G id=7 atype=ANY expect MRAPI_ERR_RMEM_ATYPE_INVALID",
	"b: mrapi_rmem_get H id=1 atype=DEFAULT",
	"b: mrapi_rmem_attach H",
	"b: mrapi_rmem_read H local=L+16 bytes=8 rmem_offset=4 strides=2 rmem_stride=16 local_stride=8 local_size=64",
	"b: mrapi_rmem_write_i Q rmem=H local=L+0 bytes=8 null=REQUEST",
	"b: mrapi_wait Q timeout=100",
	"b: mrapi_test Q",
	"b: mrapi_cancel Q",
	"b: mrapi_rmem_flush H",
	"b: mrapi_rmem_sync H",
	"b: mrapi_rmem_detach H",
	"a: mrapi_local_store R byte=0x7f off=16 len=8",
	"a: mrapi_rmem_delete R",
	"a: mrapi_finalize",
};

START_TEST(test_every_mrapi_call_parses_and_prints)
{
	struct scn_file *f = parse_canonical(BASE, 2, canonical, sizeof(canonical) / sizeof(canonical[0]));

	ck_assert_uint_eq(f->objs[f->steps[2 + 0].obj].cls, SCN_C_MRAPI_ATTRS);
	ck_assert_uint_eq(f->objs[f->steps[2 + 10].obj].cls, SCN_C_MRAPI_REQ);
	ck_assert_str_eq(scn_cap_name(f->requires[0]), "mrapi");
	scn_free(f);
}
END_TEST

START_TEST(test_mrapi_refusals)
{
	/* MRAPI calls answer MRAPI statuses, not errnos; local_store answers ok. */
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_create R id=1 size=8 expect EINVAL\n"), SCN_E_CANNOT_PRODUCE);
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_create R id=1 size=8\n"
				   "a: mrapi_local_store R byte=1 expect MRAPI_SUCCESS\n"),
			 SCN_E_CANNOT_PRODUCE);
	/* Words: atype, id, attr. */
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_create R id=1 size=8 atype=FAST\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_create R id=NONE size=8\n"), SCN_E_UNKNOWN_FLAG);
	/* Classes: local names an rmem, rmem= of an _i call too; a request is not an rmem. */
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_init_attributes A\n"
				   "a: mrapi_rmem_create R id=1 size=8\n"
				   "a: mrapi_rmem_read R local=A bytes=8\n"),
			 SCN_E_WRONG_CLASS);
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_create R id=1 size=8\n"
				   "a: mrapi_rmem_read_i Q rmem=R local=R bytes=8\n"
				   "a: mrapi_rmem_attach Q\n"),
			 SCN_E_WRONG_CLASS);
	ck_assert_int_eq(parse_err(BASE "a: mrapi_rmem_create R id=1\n"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(parse_err(BASE "a: mrapi_initialize x\n"), SCN_E_UNKNOWN_KEY);
}
END_TEST

/* The tables are lib/mrapi's (and the model's) numbers. */
START_TEST(test_mrapi_tables)
{
	uint64_t v;

	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_ATYPE, "DEFAULT", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_ATYPE_DEFAULT);
	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_ATYPE, "SWCACHE", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_ATYPE_SWCACHE);
	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_ATYPE, "ANY", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_ATYPE_ANY);
	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_ID, "ANY", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_ID_ANY);
	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_ATTR, "DOMAIN_SHARED", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_ATTR_DOMAIN_SHARED);
	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_ATTR, "RMEM_ATYPE", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_ATTR_ATYPE);
	ck_assert_int_eq(scn_table_lookup(SCN_T_MRAPI_NULL, "LOCAL_BUF", &v), 0);
	ck_assert_uint_eq(v, M_MRAPI_NULL_LOCAL);
	/* The statuses' names are the model's (the library's are the same names, numbered otherwise). */
	ck_assert_str_eq(m_outcome_name((struct m_outcome){ M_OUT_MRAPI, M_MRAPI_ERR_NODE_INITIALIZED }),
			 "MRAPI_ERR_NODE_INITIALIZED");
	ck_assert_str_eq(m_outcome_name((struct m_outcome){ M_OUT_MRAPI, M_MRAPI_ERR_RMEM_ATYPE_INVALID }),
			 "MRAPI_ERR_RMEM_ATYPE_INVALID");
}
END_TEST

Suite *suite_test_scn_mrapi(void)
{
	Suite *s = suite_create("scn_mrapi");
	TCase *tc = tcase_create("mrapi");

	tcase_add_test(tc, test_every_mrapi_call_parses_and_prints);
	tcase_add_test(tc, test_mrapi_refusals);
	tcase_add_test(tc, test_mrapi_tables);
	suite_add_tcase(s, tc);
	return s;
}

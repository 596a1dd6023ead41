/*
 * Unit tests of the scenario language's librpmem part (harness/api/rpmem/calls_rpmem.c):
 * every call and key is accepted and prints back canonically, the refusals a
 * tester meets, and the librpmem flags and option words against lib/rpmem's.
 */
#include "harness/lang/scn.h"
#include "lib/rpmem/librpmem.h"
#include "lib/rpmem/rpmem_int.h"
#include "model/rpmem/rpmem.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#define BASE "require rpmem\nnodes a b t\nt: rpmem_poolset set=\"pool.set\" size=4M\n"

/* Every librpmem call with its keys, in canonical form (what scn_step_format prints). */
static const char *const canonical[] = {
	"t: rpmem_poolset set=\"two.set\" size=2097152 parts=2 option=\"SINGLEHDR\"",
	"t: rpmem_poolset set=\"bad.set\" size=4194304 malformed",
	"a: rpmem_create p target=t set=\"pool.set\" size=1048576 nlanes=2 attr=5244434b00000000",
	"a: rpmem_create n target=t set=\"none.set\" size=1048576 null_addr addr_offset=8 null_nlanes max_nlanes_env=3 expect EINVAL",
	"a: rpmem_fill p offset=8192 len=64 byte=0xa1",
	"a: rpmem_persist p offset=8192 len=64 lane=1 flags=1",
	"a: rpmem_deep_persist p offset=8192 len=64",
	"a: rpmem_flush p offset=8192 len=64 lane=0 flags=1",
	"a: rpmem_drain p lane=0",
	"a: rpmem_read p offset=0 len=16384",
	"a: rpmem_set_attr p attr=5244",
	"a: rpmem_set_attr p",
	"a: rpmem_link_down p",
	"a: rpmem_close p expect ok|ECONNABORTED",
	"b: rpmem_open q target=t set=\"pool.set\" size=1048576 null_attr expect EBUSY",
	"b: rpmem_remove target=t set=\"pool.set\" flags=3",
};

START_TEST(test_every_rpmem_call_parses_and_prints)
{
	struct scn_file *f = parse_canonical(BASE, 1, canonical, sizeof(canonical) / sizeof(canonical[0]));

	ck_assert_uint_eq(f->objs[f->steps[1 + 2].obj].cls, SCN_C_RPMEM_POOL);
	ck_assert_uint_eq(f->objs[f->steps[1 + 14].obj].cls, SCN_C_RPMEM_POOL);
	ck_assert_str_eq(scn_cap_name(f->requires[0]), "rpmem");
	scn_free(f);
}
END_TEST

START_TEST(test_rpmem_refusals)
{
	/* A pool set file and the client's own stores cannot fail; the calls answer errnos, not statuses. */
	ck_assert_int_eq(parse_err(BASE "t: rpmem_poolset set=\"x.set\" size=4M expect EINVAL\n"), SCN_E_CANNOT_PRODUCE);
	ck_assert_int_eq(parse_err(BASE "a: rpmem_create p target=t set=\"pool.set\" size=1M\n"
				   "a: rpmem_fill p len=8 byte=1 expect EINVAL\n"),
			 SCN_E_CANNOT_PRODUCE);
	ck_assert_int_eq(parse_err(BASE "a: rpmem_create p target=t set=\"pool.set\" size=1M expect REM_ACCESS_ERR\n"),
			 SCN_E_CANNOT_PRODUCE);
	/* Keys: the target and set are required, parts and addr_offset have ranges, byte is a byte. */
	ck_assert_int_eq(parse_err(BASE "a: rpmem_create p set=\"pool.set\" size=1M\n"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(parse_err(BASE "a: rpmem_remove target=t\n"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(parse_err(BASE "t: rpmem_poolset set=\"x.set\" size=4M parts=9\n"), SCN_E_RANGE);
	ck_assert_int_eq(parse_err(BASE "a: rpmem_open p target=t set=\"pool.set\" size=1M addr_offset=4096\n"),
			 SCN_E_RANGE);
	ck_assert_int_eq(parse_err(BASE "a: rpmem_create p target=t set=\"pool.set\" size=1M\n"
				   "a: rpmem_fill p len=8 byte=256\n"),
			 SCN_E_RANGE);
	ck_assert_int_eq(parse_err(BASE "a: rpmem_create p target=t set=\"pool.set\" size=1M\n"
				   "a: rpmem_drain p offset=0\n"),
			 SCN_E_UNKNOWN_KEY);
	/* Classes: the data calls act on a pool. */
	ck_assert_int_eq(parse_err(BASE "a: rpmem_create p target=t set=\"pool.set\" size=1M\n"
				   "a: alloc_pd pd\n"
				   "a: rpmem_persist pd len=8\n"),
			 SCN_E_WRONG_CLASS);
}
END_TEST

/* The model's flags and options are librpmem's (the agent passes the numbers through). */
START_TEST(test_rpmem_values_are_librpmems)
{
	enum rpmem_opt o;

	ck_assert_uint_eq(M_RPMEM_PERSIST_RELAXED, RPMEM_PERSIST_RELAXED);
	ck_assert_uint_eq(M_RPMEM_FLUSH_RELAXED, RPMEM_FLUSH_RELAXED);
	ck_assert_uint_eq(M_RPMEM_REMOVE_FORCE, RPMEM_REMOVE_FORCE);
	ck_assert_uint_eq(M_RPMEM_REMOVE_POOL_SET, RPMEM_REMOVE_POOL_SET);
	ck_assert_uint_eq(M_RPMEM_MIN_POOL, RPMEM_MIN_POOL);
	ck_assert_uint_eq(M_RPMEM_MIN_PART, RPMEM_MIN_PART);
	ck_assert_uint_eq(sizeof(struct m_rpmem_attr), sizeof(struct rpmem_pool_attr));
	for (int i = M_RPMEM_OPT_SINGLEHDR; i <= M_RPMEM_OPT_NOHDRS; i++) { /* the OPTION words */
		ck_assert_int_eq(rpmem_opt_parse(m_rpmem_opt_str((enum m_rpmem_opt)i), &o), 0);
		ck_assert_int_eq((int)o, i);
	}
}
END_TEST

Suite *suite_test_scn_rpmem(void)
{
	Suite *s = suite_create("scn_rpmem");
	TCase *tc = tcase_create("rpmem");

	tcase_add_test(tc, test_every_rpmem_call_parses_and_prints);
	tcase_add_test(tc, test_rpmem_refusals);
	tcase_add_test(tc, test_rpmem_values_are_librpmems);
	suite_add_tcase(s, tc);
	return s;
}

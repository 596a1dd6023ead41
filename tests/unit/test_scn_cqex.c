/*
 * Unit tests of the scenario language's extended CQ and QP keys (create_cq
 * ex=yes wc_flags= flags=, create_qp ex=yes send_ops=): they parse and print
 * back in canonical form with the values the model reads, and a flag no
 * table names is refused with its code.
 */
#include "harness/lang/scn.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <string.h>

#define BASE "nodes a\n"

static const char *const canonical[] = {
	"a: create_cq c1 depth=10 ex=yes",
	"a: create_cq c2 ex=yes wc_flags=BYTE_LEN|IMM|QP_NUM|SRC_QP|SLID|SL|DLID_PATH_BITS",
	"a: create_cq c3 ex=yes wc_flags=COMPLETION_TIMESTAMP_WALLCLOCK expect ok|EOPNOTSUPP",
	"a: create_cq c4 ex=yes flags=SINGLE_THREADED|IGNORE_OVERRUN expect ok|EOPNOTSUPP",
	"a: create_cq c5 ex=yes wc_flags=0",
	"a: alloc_pd pd",
	"a: create_qp q pd=pd ex=yes send_ops=RDMA_WRITE|SEND|FLUSH|ATOMIC_WRITE",
};

START_TEST(test_cq_ex_keys_parse_and_print)
{
	struct scn_file *f = parse_canonical(BASE, 0, canonical, sizeof(canonical) / sizeof(canonical[0]));
	const struct scn_value *v = scn_step_arg(&f->steps[1], "wc_flags");

	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->num, 0x7f);
	v = scn_step_arg(&f->steps[2], "wc_flags");
	ck_assert_uint_eq(v->num, 1u << 11);
	v = scn_step_arg(&f->steps[3], "flags");
	ck_assert_uint_eq(v->num, 3);
	v = scn_step_arg(&f->steps[6], "send_ops");
	ck_assert_uint_eq(v->num, (1u << 0) | (1u << 2) | (1u << 11) | (1u << 12));
	scn_free(f);
}
END_TEST

START_TEST(test_cq_ex_refusals)
{
	ck_assert_int_eq(parse_err(BASE "a: create_cq c ex=yes wc_flags=TIMESTAMP\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: create_cq c ex=yes flags=SINGLE\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: create_cq c ex=maybe\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: alloc_pd pd\na: create_qp q pd=pd ex=yes send_ops=WRITE\n"),
			 SCN_E_UNKNOWN_FLAG);
}
END_TEST

Suite *suite_test_scn_cqex(void)
{
	Suite *s = suite_create("scn_cqex");
	TCase *tc = tcase_create("cqex");

	tcase_add_test(tc, test_cq_ex_keys_parse_and_print);
	tcase_add_test(tc, test_cq_ex_refusals);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the scenario language's librpma part: every call and key is
 * accepted and prints back the same, the errors a tester meets, and the
 * values of the usage, flag, flush-type and error names against the
 * installed librpma.h (when it is there).
 */
#include "harness/lang/scn.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#if __has_include(<librpma.h>)
#include <librpma.h>
#define HAVE_RPMA 1
#endif

static const char every_call[] =
	"require rpma\n"
	"nodes a b\n"
	"a: rpma_mr_reg m len=4K usage=READ_SRC|WRITE_DST|FLUSH_TYPE_VISIBILITY offset=8 prot=RO null=PEER\n"
	"a: rpma_mr_reg m2 len=2K usage=WRITE_DST buf=m\n"
	"a: rpma_mr_get_descriptor m null=DESC\n"
	"a: rpma_mr_get_descriptor_size m expect size=21\n"
	"b: rpma_mr_remote_from_descriptor r from=a.m size=64 addr=a.m.addr+8 length=100 rkey=a.m.rkey usage=0\n"
	"b: rpma_mr_remote_from_descriptor r2 from=r\n"
	"b: rpma_mr_remote_from_descriptor r3 bytes=00112233 null=DESC|MR_PTR expect RPMA_E_INVAL\n"
	"b: rpma_mr_remote_get_size r expect size=4096\n"
	"b: rpma_mr_remote_get_flush_type r expect flush_type=FLUSH_TYPE_VISIBILITY\n"
	"b: rpma_mr_reg buf len=4K usage=READ_DST|WRITE_SRC\n"
	"b: rpma_connect c peer=a pmem\n"
	"b: rpma_read c local=buf+8 remote=r+16 len=64 flags=COMPLETION_ON_ERROR expect ok|REM_ACCESS_ERR\n"
	"b: rpma_write c local=buf remote=r-8 len=r.len flags=COMPLETION_ALWAYS null=CONN expect RPMA_E_INVAL\n"
	"b: rpma_read c len=0 flags=0\n"
	"b: rpma_atomic_write c remote=r+8 value=0x1122 null=SRC|DST\n"
	"b: rpma_flush c remote=r len=1M type=PERSISTENT expect RPMA_E_NOSUPP|SUCCESS\n"
	"b: rpma_flush c remote=r len=8 type=7\n"
	"b: fill buf byte=1\n"
	"b: check buf\n"
	"b: rpma_conn_disconnect c null=CONN expect RPMA_E_INVAL\n"
	"b: rpma_conn_disconnect c\n"
	"a: rpma_mr_dereg m null=MR_PTR|MR\n"
	"a: rpma_mr_dereg m\n";

START_TEST(test_rpma_every_call_parses_and_prints_back)
{
	struct scn_diags d;
	struct scn_file *f;
	char buf[512] = "";
	int rc = scn_parse_text(every_call, strlen(every_call), "e.scn", &f, &d);

	if (rc && d.n)
		scn_diag_format(&d.d[0], "e.scn", buf, sizeof(buf));
	ck_assert_msg(rc == 0, "%s", buf);
	ck_assert_uint_eq(f->nsteps, 23);
	/* The whole file printed step by step parses to the same steps. */
	{
		char all[8192], l1[512], l2[512];
		size_t off = (size_t)snprintf(all, sizeof(all), "require rpma\nnodes a b\n");
		struct scn_file *g;

		for (size_t i = 0; i < f->nsteps; i++) {
			off += scn_step_format(f, &f->steps[i], all + off, sizeof(all) - off);
			all[off++] = '\n';
		}
		all[off] = '\0';
		rc = scn_parse_text(all, off, "p.scn", &g, &d);
		if (rc && d.n)
			scn_diag_format(&d.d[0], "p.scn", buf, sizeof(buf));
		ck_assert_msg(rc == 0, "%s\n%s", buf, all);
		ck_assert_uint_eq(g->nsteps, f->nsteps);
		for (size_t i = 0; i < f->nsteps; i++) {
			scn_step_format(f, &f->steps[i], l1, sizeof(l1));
			scn_step_format(g, &g->steps[i], l2, sizeof(l2));
			ck_assert_str_eq(l1, l2);
		}
		scn_step_format(f, &f->steps[11], l1, sizeof(l1));
		ck_assert_str_eq(l1, "b: rpma_read c local=buf+8 remote=r+16 len=64 flags=COMPLETION_ON_ERROR "
				     "expect ok|REM_ACCESS_ERR");
		scn_step_format(f, &f->steps[16], l1, sizeof(l1));
		ck_assert_str_eq(l1, "b: rpma_flush c remote=r+0 len=8 type=7");
		scn_free(g);
	}
	/* Values as the resolver reads them. */
	const struct scn_step *s = &f->steps[16];

	ck_assert_str_eq(scn_step_call(s)->name, "rpma_flush");
	ck_assert_uint_eq(scn_step_arg(s, "type")->kind, SCN_V_INT);
	ck_assert_uint_eq(scn_step_arg(s, "type")->num, 7);
	ck_assert_uint_eq(scn_step_arg(&f->steps[15], "type")->kind, SCN_V_WORD);
	ck_assert_uint_eq(scn_step_arg(&f->steps[15], "type")->num, 0);
	ck_assert_str_eq(scn_step_arg(&f->steps[6], "bytes")->str, "00112233");
	ck_assert_uint_eq(scn_step_arg(&f->steps[11], "flags")->num, 1);
	scn_free(f);
}
END_TEST

START_TEST(test_rpma_call_shapes)
{
	static const struct { const char *name; enum scn_kind kind; uint8_t destroys; } want[] = {
		{ "rpma_mr_reg", SCN_KIND_CREATE, 0 }, { "rpma_mr_dereg", SCN_KIND_ACT, 1 },
		{ "rpma_mr_get_descriptor", SCN_KIND_ACT, 0 }, { "rpma_mr_get_descriptor_size", SCN_KIND_QUERY, 0 },
		{ "rpma_mr_remote_from_descriptor", SCN_KIND_CREATE, 0 },
		{ "rpma_mr_remote_get_size", SCN_KIND_QUERY, 0 }, { "rpma_mr_remote_get_flush_type", SCN_KIND_QUERY, 0 },
		{ "rpma_connect", SCN_KIND_CREATE, 0 }, { "rpma_conn_disconnect", SCN_KIND_ACT, 1 },
		{ "rpma_read", SCN_KIND_POST, 0 }, { "rpma_write", SCN_KIND_POST, 0 },
		{ "rpma_atomic_write", SCN_KIND_POST, 0 }, { "rpma_flush", SCN_KIND_POST, 0 },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int k = scn_call_find(want[i].name);
		const struct scn_call *c;

		ck_assert_msg(k >= 0, "%s", want[i].name);
		c = scn_call_get((size_t)k);
		ck_assert_uint_eq(c->api, M_FAM_RPMA);
		ck_assert_uint_eq(c->kind, want[i].kind);
		ck_assert_uint_eq(c->destroys, want[i].destroys);
		ck_assert(c->outs & (1u << M_OUT_RPMA));
		ck_assert_int_eq(!!(c->outs & (1u << M_OUT_WC)), want[i].kind == SCN_KIND_POST);
		if (want[i].kind != SCN_KIND_CREATE || strcmp(c->name, "rpma_connect"))
			ck_assert_ptr_nonnull(scn_spec_find(c->args, "null"));
	}
	for (size_t i = 0; i < scn_call_count(); i++)
		n += scn_call_get(i)->api == M_FAM_RPMA;
	ck_assert_uint_eq(n, sizeof(want) / sizeof(want[0]));
	ck_assert_ptr_nonnull(scn_spec_find(scn_call_get((size_t)scn_call_find("rpma_mr_remote_get_size"))->query, "size"));
	ck_assert_uint_eq(scn_class_attrs(SCN_C_RPMA_MR), (1u << SCN_ATTR_ADDR) | (1u << SCN_ATTR_LEN) | (1u << SCN_ATTR_RKEY));
	ck_assert_uint_eq(scn_class_attrs(SCN_C_RPMA_REMOTE), (1u << SCN_ATTR_ADDR) | (1u << SCN_ATTR_LEN) | (1u << SCN_ATTR_RKEY));
}
END_TEST

/* The first diagnostic of a one-step scenario after a librpma set-up. */
static enum scn_err first_err(const char *step)
{
	char text[1024];
	struct scn_diags d;
	struct scn_file *f;

	snprintf(text, sizeof(text),
		 "nodes a b\na: rpma_mr_reg m len=4K usage=READ_SRC\na: alloc_pd pd\n"
		 "a: reg_mr vm pd=pd len=4K\nb: rpma_mr_remote_from_descriptor r from=a.m\n"
		 "b: rpma_connect c peer=a\n%s\n", step);
	if (scn_parse_text(text, strlen(text), "x.scn", &f, &d) == 0) {
		scn_free(f);
		return SCN_E_COUNT_;
	}
	ck_assert_uint_ge(d.n, 1);
	return (enum scn_err)d.d[0].code;
}

START_TEST(test_rpma_errors)
{
	ck_assert_int_eq(first_err("a: rpma_mr_reg x len=4K usage=READ_SRC null=BOGUS"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(first_err("a: rpma_mr_reg x len=4K usage=READ_SOURCE"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(first_err("a: rpma_mr_reg x len=4K"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(first_err("a: rpma_mr_reg x len=4K usage=READ_SRC buf=vm"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(first_err("b: rpma_flush c remote=r len=8 type=SOMETIMES"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(first_err("b: rpma_flush c remote=r len=8"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(first_err("b: rpma_write c local=a.vm remote=r len=8"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(first_err("b: rpma_write c local=r remote=r len=8"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(first_err("b: rpma_write c remote=r len=8 flags=SOMETIMES"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(first_err("b: rpma_connect d peer=z"), SCN_E_UNKNOWN_NODE);
	ck_assert_int_eq(first_err("b: rpma_connect d"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(first_err("b: rpma_connect d peer=a pmem=1"), SCN_E_TAKES_NO_VALUE);
	ck_assert_int_eq(first_err("b: rpma_mr_remote_from_descriptor x bytes=xyz"), SCN_E_BAD_HEX);
	ck_assert_int_eq(first_err("b: rpma_mr_remote_from_descriptor x size=5000"), SCN_E_RANGE);
	ck_assert_int_eq(first_err("b: rpma_mr_remote_get_size r expect len=4"), SCN_E_UNKNOWN_RESULT);
	ck_assert_int_eq(first_err("b: rpma_mr_remote_get_size r expect SUCCESS"), SCN_E_CANNOT_PRODUCE);
	ck_assert_int_eq(first_err("a: rpma_mr_get_descriptor m expect REM_ACCESS_ERR"), SCN_E_CANNOT_PRODUCE);
	ck_assert_int_eq(first_err("b: rpma_read c len=8 expect REM_ACCESS_ERR|ok|RPMA_E_INVAL"), SCN_E_COUNT_);
	ck_assert_int_eq(first_err("a: rpma_mr_dereg vm"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(first_err("b: rpma_read c len=8 attr=r.lkey"), SCN_E_UNKNOWN_KEY);
	ck_assert_int_eq(first_err("b: rpma_read c len=r.lkey"), SCN_E_ATTR_CLASS);
}
END_TEST

START_TEST(test_rpma_values_match_librpma_h)
{
	uint64_t v;

	/* The model's enums and the scenario tables are librpma.h's values. */
	ck_assert_int_eq(scn_table_lookup(SCN_T_RPMA_FLAGS, "COMPLETION_ALWAYS", &v), 0);
	ck_assert_uint_eq(v, M_RPMA_F_COMPLETION_ALWAYS);
	ck_assert_int_eq(scn_table_lookup(SCN_T_RPMA_FLAGS, "completion_on_error", &v), 0);
	ck_assert_uint_eq(v, M_RPMA_F_COMPLETION_ON_ERROR);
	ck_assert_int_eq(scn_table_lookup(SCN_T_FLUSH, "PERSISTENT", &v), 0);
	ck_assert_uint_eq(v, M_RPMA_FLUSH_PERSISTENT);
	ck_assert_uint_eq(scn_table_count(SCN_T_USAGE), 8);
	ck_assert_uint_eq(scn_table_count(SCN_T_RPMA_NULL), 11);
#ifdef HAVE_RPMA
	static const struct { const char *name; int value; } usage[] = {
		{ "READ_SRC", RPMA_MR_USAGE_READ_SRC }, { "READ_DST", RPMA_MR_USAGE_READ_DST },
		{ "WRITE_SRC", RPMA_MR_USAGE_WRITE_SRC }, { "WRITE_DST", RPMA_MR_USAGE_WRITE_DST },
		{ "FLUSH_TYPE_VISIBILITY", RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY },
		{ "FLUSH_TYPE_PERSISTENT", RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT },
		{ "SEND", RPMA_MR_USAGE_SEND }, { "RECV", RPMA_MR_USAGE_RECV },
	};
	static const struct { const char *name; int value; } errs[] = {
		{ "RPMA_E_UNKNOWN", RPMA_E_UNKNOWN }, { "RPMA_E_NOSUPP", RPMA_E_NOSUPP },
		{ "RPMA_E_PROVIDER", RPMA_E_PROVIDER }, { "RPMA_E_NOMEM", RPMA_E_NOMEM },
		{ "RPMA_E_INVAL", RPMA_E_INVAL }, { "RPMA_E_NO_COMPLETION", RPMA_E_NO_COMPLETION },
		{ "RPMA_E_NO_EVENT", RPMA_E_NO_EVENT }, { "RPMA_E_AGAIN", RPMA_E_AGAIN },
		{ "RPMA_E_SHARED_CHANNEL", RPMA_E_SHARED_CHANNEL }, { "RPMA_E_NOT_SHARED_CHNL", RPMA_E_NOT_SHARED_CHNL },
	};
	uint32_t all = 0;

	for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
		ck_assert_int_eq(scn_table_lookup(SCN_T_USAGE, usage[i].name, &v), 0);
		ck_assert_uint_eq(v, (uint64_t)usage[i].value);
		all |= (uint32_t)usage[i].value;
	}
	ck_assert_uint_eq(all, M_RPMA_USAGE_ALL);
	ck_assert_uint_eq(M_RPMA_READ_SRC, RPMA_MR_USAGE_READ_SRC);
	ck_assert_uint_eq(M_RPMA_READ_DST, RPMA_MR_USAGE_READ_DST);
	ck_assert_uint_eq(M_RPMA_WRITE_SRC, RPMA_MR_USAGE_WRITE_SRC);
	ck_assert_uint_eq(M_RPMA_WRITE_DST, RPMA_MR_USAGE_WRITE_DST);
	ck_assert_uint_eq(M_RPMA_USAGE_FLUSH_VISIBILITY, RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY);
	ck_assert_uint_eq(M_RPMA_USAGE_FLUSH_PERSISTENT, RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT);
	ck_assert_uint_eq(M_RPMA_SEND, RPMA_MR_USAGE_SEND);
	ck_assert_uint_eq(M_RPMA_RECV, RPMA_MR_USAGE_RECV);
	ck_assert_uint_eq(M_RPMA_F_COMPLETION_ALWAYS, RPMA_F_COMPLETION_ALWAYS);
	ck_assert_uint_eq(M_RPMA_F_COMPLETION_ON_ERROR, RPMA_F_COMPLETION_ON_ERROR);
	ck_assert_uint_eq(M_RPMA_FLUSH_PERSISTENT, RPMA_FLUSH_TYPE_PERSISTENT);
	ck_assert_uint_eq(M_RPMA_FLUSH_VISIBILITY, RPMA_FLUSH_TYPE_VISIBILITY);
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct m_outcome o;

		ck_assert_int_eq(m_outcome_parse(errs[i].name, &o), 0);
		ck_assert_uint_eq(o.kind, M_OUT_RPMA);
		ck_assert_int_eq(o.code, errs[i].value);
		ck_assert_str_eq(m_outcome_name(o), errs[i].name);
	}
#endif
}
END_TEST

Suite *suite_test_scn_rpma(void)
{
	Suite *s = suite_create("scn_rpma");
	TCase *tc = tcase_create("librpma");

	tcase_add_test(tc, test_rpma_every_call_parses_and_prints_back);
	tcase_add_test(tc, test_rpma_call_shapes);
	tcase_add_test(tc, test_rpma_errors);
	tcase_add_test(tc, test_rpma_values_match_librpma_h);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the scenario parser on valid input: the AST (header, steps,
 * typed values with positions, outcomes), name scoping and liveness, the
 * lexer's edge cases, canonical printing, the example files, and odd input
 * (mutated examples must never crash).
 */
#include "harness/lang/scn.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H "nodes a b\n"
#define P H "a: alloc_pd pd\nb: alloc_pd pd\n"

START_TEST(test_header)
{
	struct scn_file *f = parse_ok("# comment\n\n"
				      "title  Stale rkey  \n"
				      "cite ibv_reg_mr(3) \"quoted # not a comment\"\n"
				      "cite rule MR-ACC-1\n"
				      "require rereg mw_type2 rereg\n"
				      "nodes a b c_1\n"
				      "a: alloc_pd p\n");

	ck_assert_str_eq(f->title, "Stale rkey");
	ck_assert_uint_eq(f->title_line, 3);
	scn_free(f);
	/* a title is its line as written: '#', quotes and any UTF-8 are text */
	f = parse_ok("title café: a \"# 1\" and a # too, \\ kept\t \ncite rule MR-ACC-1\n" P);
	ck_assert_str_eq(f->title, "café: a \"# 1\" and a # too, \\ kept");
	scn_free(f);
	f = parse_ok("# comment\n\n"
		     "title  Stale rkey  \n"
		     "cite ibv_reg_mr(3) \"quoted # not a comment\"\n"
		     "cite rule MR-ACC-1\n"
		     "require rereg mw_type2 rereg\n"
		     "nodes a b c_1\n"
		     "a: alloc_pd p\n");
	ck_assert_uint_eq(f->ncites, 2);
	ck_assert_str_eq(f->cites[0], "ibv_reg_mr(3) \"quoted # not a comment\"");
	ck_assert_uint_eq(f->nrequires, 2);
	ck_assert_str_eq(scn_cap_name(f->requires[0]), "rereg");
	ck_assert_str_eq(scn_cap_name(f->requires[1]), "mw_type2");
	ck_assert_uint_eq(f->nnodes, 3);
	ck_assert_str_eq(f->nodes[2], "c_1");
	ck_assert_str_eq(f->name, "dir/t.scn");
	scn_free(f);
}
END_TEST

START_TEST(test_default_title)
{
	struct scn_file *f = parse_ok("nodes a\na: alloc_pd p\n");

	ck_assert_str_eq(f->title, "t.scn");
	ck_assert_uint_eq(f->title_line, 0);
	scn_free(f);
}
END_TEST

START_TEST(test_step_ast)
{
	struct scn_file *f = parse_ok(P "a: reg_mr m pd=pd len=4K access=LOCAL_WRITE|remote_write iova=0x10 offset=12\n"
				      "b: reg_mr m pd=pd len=1M access=0\n"
				      "a: create_qp q pd=pd\nb: create_qp q pd=pd\n"
				      "connect a.q b.q timeout=14\n"
				      "b: write q local=m+8 remote=a.m-4 len=a.m.len-1 rkey=a.m.rkey+0x10 expect SUCCESS|REM_ACCESS_ERR\n");
	const struct scn_step *s = &f->steps[2];
	const struct scn_value *v;

	ck_assert_uint_eq(f->nsteps, 8);
	ck_assert_str_eq(scn_step_call(s)->name, "reg_mr");
	ck_assert_uint_eq(s->line, 4);
	ck_assert_uint_eq(s->col, 1);
	ck_assert_uint_eq(s->node, 0);
	ck_assert_str_eq(f->objs[s->obj].name, "m");
	ck_assert_uint_eq(s->obj_col, 11);
	v = scn_step_arg(s, "len");
	ck_assert_int_eq(v->kind, SCN_V_INT);
	ck_assert_uint_eq(v->num, 4096);
	ck_assert_uint_eq(v->col, 23);
	ck_assert_uint_eq(scn_step_arg(s, "access")->num, 1 | 2);
	ck_assert_uint_eq(scn_step_arg(s, "iova")->num, 16);
	ck_assert_uint_eq(scn_step_arg(s, "offset")->num, 12);
	ck_assert_ptr_null(scn_step_arg(s, "prot"));
	ck_assert_int_eq(scn_step_arg(s, "pd")->kind, SCN_V_OBJ);
	ck_assert_str_eq(f->objs[scn_step_arg(s, "pd")->obj].name, "pd");
	ck_assert_uint_eq(s->nexpect, 0);
	ck_assert(scn_step_expects(s, (struct m_outcome){ M_OUT_ERRNO, EINVAL }));

	s = &f->steps[6]; /* connect */
	ck_assert_int_eq(scn_step_call(s)->kind, SCN_KIND_CONNECT);
	ck_assert_uint_eq(s->node, 0);
	v = scn_step_arg(s, "peer");
	ck_assert_uint_eq(v->node, 1);
	ck_assert_uint_eq(f->objs[v->obj].node, 1);
	ck_assert_uint_eq(scn_step_arg(s, "timeout")->num, 14);

	s = &f->steps[7];
	ck_assert_uint_eq(s->node, 1);
	v = scn_step_arg(s, "local");
	ck_assert_int_eq(v->kind, SCN_V_ADDR);
	ck_assert_uint_eq(v->node, 1);
	ck_assert_uint_eq(v->num, 8);
	v = scn_step_arg(s, "remote");
	ck_assert_int_eq(v->kind, SCN_V_ADDR);
	ck_assert_uint_eq(v->node, 0);
	ck_assert_int_eq(v->neg, 1);
	ck_assert_uint_eq(v->num, 4);
	ck_assert_int_eq(v->obj, f->steps[2].obj);
	v = scn_step_arg(s, "len");
	ck_assert_int_eq(v->kind, SCN_V_ATTR);
	ck_assert_int_eq(v->attr, SCN_ATTR_LEN);
	ck_assert_uint_eq(v->num, 1);
	ck_assert_int_eq(v->neg, 1);
	v = scn_step_arg(s, "rkey");
	ck_assert_int_eq(v->attr, SCN_ATTR_RKEY);
	ck_assert_uint_eq(v->num, 16);
	ck_assert_uint_eq(s->nexpect, 2);
	ck_assert_int_eq(s->expect[1].kind, M_OUT_WC);
	ck_assert_int_eq(s->expect[1].code, 10);
	ck_assert(!scn_step_expects(s, (struct m_outcome){ M_OUT_WC, 5 }));
	ck_assert_uint_eq(s->expect_col, 68);
	scn_free(f);
}
END_TEST

START_TEST(test_positional_bare_query_and_strings)
{
	struct scn_file *f = parse_ok(P "a: reg_mr m pd=pd len=8K access=LOCAL_WRITE|MW_BIND\n"
				      "a: create_qp q pd=pd access=REMOTE_READ\n"
				      "a: alloc_mw w pd=pd type=2\n"
				      "a: bind_mw w qp=q mr=m len=4K access=REMOTE_READ zero_based\n"
				      "a: local_inv q w expect WR_FLUSH_ERR\n"
				      "a: query_qp q expect state=err access=REMOTE_READ\n"
				      "a: dat_ia_open name=\"a \\\"b\\\" \\\\ é\"\n"
				      "a: rpma_mr_reg r len=1 usage=READ_SRC\n"
				      "b: rpma_mr_remote_from_descriptor rr from=a.r bytes=0xABcd size=2\n"
				      "b: rpma_connect c peer=a\n"
				      "b: rpma_flush c remote=rr+0 len=1 type=persistent expect RPMA_E_NOSUPP|LOC_PROT_ERR\n");
	const struct scn_step *s = &f->steps[5];
	const struct scn_value *v;

	ck_assert_int_eq(scn_step_arg(s, "mr")->kind, SCN_V_ADDR); /* NAME stands for NAME+0 */
	ck_assert_uint_eq(scn_step_arg(s, "mr")->num, 0);
	ck_assert_int_eq(scn_step_arg(s, "zero_based")->kind, SCN_V_BARE);
	s = &f->steps[6];
	v = scn_step_arg(s, "mw");
	ck_assert_str_eq(f->objs[v->obj].name, "w");
	s = &f->steps[7];
	ck_assert_uint_eq(s->nconds, 2);
	ck_assert_str_eq(s->conds[0].spec->key, "state");
	ck_assert_uint_eq(s->conds[0].v.num, 6);
	ck_assert_uint_eq(s->nexpect, 0);
	ck_assert_str_eq(scn_step_arg(&f->steps[8], "name")->str, "a \"b\" \\ é");
	ck_assert_str_eq(scn_step_arg(&f->steps[10], "bytes")->str, "abcd");
	ck_assert_int_eq(scn_step_arg(&f->steps[11], "peer")->node, 0);
	s = &f->steps[12];
	ck_assert_uint_eq(scn_step_arg(s, "type")->num, 0);
	ck_assert_int_eq(s->expect[0].kind, M_OUT_RPMA);
	ck_assert_int_eq(s->expect[0].code, -100001);
	scn_free(f);
}
END_TEST

START_TEST(test_names_per_node_and_liveness)
{
	struct scn_file *f = parse_ok(P "a: reg_mr m pd=pd len=1\n"
				      "a: dereg_mr m\n"
				      "a: dereg_mr m expect EINVAL\n"         /* use after destroy is fine */
				      "a: reg_mr m pd=pd len=2\n"              /* re-created: a new instance */
				      "a: dealloc_pd pd expect EBUSY\n"        /* failed destroy: still live */
				      "a: reg_mr x pd=pd len=1 expect EINVAL\n" /* failed create: not live */
				      "a: reg_mr x pd=pd len=1\n");

	ck_assert_uint_eq(f->nobjs, 6); /* a.pd b.pd m m x x */
	ck_assert_int_ne(f->steps[5].obj, f->steps[2].obj);
	ck_assert_int_eq(f->steps[4].obj, f->steps[2].obj);
	ck_assert_uint_eq(f->objs[f->steps[2].obj].live, 0);
	ck_assert_uint_eq(f->objs[f->steps[5].obj].live, 1);
	ck_assert_uint_eq(f->objs[f->steps[0].obj].live, 1);
	ck_assert_uint_eq(f->objs[f->steps[5].obj].line, 7);
	scn_free(f);
	ck_assert_int_eq(parse_err(P "a: dealloc_pd pd expect EBUSY\na: alloc_pd pd\n"), SCN_E_LIVE);
	ck_assert_int_eq(parse_err(P "a: alloc_pd b\n"), SCN_E_RESERVED_NAME);
	ck_assert_int_eq(parse_err(P "a: alloc_pd expect\n"), SCN_E_NEEDS_NAME);
}
END_TEST

START_TEST(test_integers)
{
	static const struct { const char *text; uint64_t want; } ok[] = {
		{ "0", 0 }, { "4096", 4096 }, { "4K", 4096 }, { "4k", 4096 }, { "2M", 2u << 20 },
		{ "1G", 1u << 30 }, { "0x10", 16 }, { "0XfF", 255 }, { "0x10K", 16384 },
		{ "18446744073709551615", UINT64_MAX }, { "0xffffffffffffffff", UINT64_MAX },
		{ "16777215G", 16777215ull << 30 },
	};
	static const char *const bad[] = { "1x", "0x", "K", "-1", "1.5", "18446744073709551616", "16777216T" };
	char text[256];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		/* fill's len: any number (a registration's is bounded by the model: scn_limits.c) */
		snprintf(text, sizeof(text), P "a: reg_mr m pd=pd len=4K\na: fill m byte=1 len=%s\n", ok[i].text);
		struct scn_file *f = parse_ok(text);

		ck_assert_msg(scn_step_arg(&f->steps[3], "len")->num == ok[i].want, "%s", ok[i].text);
		scn_free(f);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), P "a: reg_mr m pd=pd len=%s\n", bad[i]);
		enum scn_err e = parse_err(text);

		ck_assert_msg(e == SCN_E_BAD_INT || e == SCN_E_OVERFLOW || e == SCN_E_WRONG_KIND ||
			      e == SCN_E_BAD_REF, "%s: %d", bad[i], e);
	}
	ck_assert_int_eq(parse_err(P "a: reg_mr m pd=pd len=18446744073709551616\n"), SCN_E_OVERFLOW);
	ck_assert_int_eq(parse_err(P "a: reg_mr m pd=pd len=17179869184G\n"), SCN_E_OVERFLOW);
}
END_TEST

START_TEST(test_lexer_edges)
{
	struct scn_file *f;

	/* CRLF, tabs, no final newline, UTF-8 in comments and strings, a:call without blank */
	f = parse_ok("# ünïcödé comment ✓\r\nnodes\ta b\r\na:alloc_pd p # ok\r\nb: dat_ia_open name=\"日本\"");
	ck_assert_uint_eq(f->nsteps, 2);
	ck_assert_str_eq(scn_step_call(&f->steps[0])->name, "alloc_pd");
	ck_assert_str_eq(scn_step_arg(&f->steps[1], "name")->str, "日本");
	scn_free(f);
	/* columns count characters, not bytes */
	ck_assert_int_eq(parse_err(H "b: dat_ia_open name=\"é\" x=1\n"), SCN_E_UNKNOWN_KEY);
	ck_assert_uint_eq(scn_fx_d.d[0].col, 25);
	/* overlong encoding, surrogate, truncated sequence, code point above U+10FFFF */
	ck_assert_int_eq(parse_err("nodes a\n# \xc0\xaf\n"), SCN_E_UTF8);
	ck_assert_int_eq(parse_err("nodes a\n# \xed\xa0\x80\n"), SCN_E_UTF8);
	ck_assert_int_eq(parse_err("nodes a\n# \xe2\x82"), SCN_E_UTF8);
	ck_assert_int_eq(parse_err("nodes a\n# \xf4\x90\x80\x80\n"), SCN_E_UTF8);
	ck_assert_int_eq(parse_err("nodes a\na: alloc_pd p\x7f\n"), SCN_E_CONTROL);
	ck_assert_int_eq(parse_err(H "b: dat_ia_open name=\"ab\"c\n"), SCN_E_UNEXPECTED);
	ck_assert_int_eq(parse_err(H "b: dat_ia_open name=\"ab\\\"\n"), SCN_E_UNTERMINATED);
	ck_assert_int_eq(parse_err(""), SCN_E_NO_STEPS);
	/* a UTF-8 byte order mark at the start is skipped; anywhere else it is text */
	f = parse_ok("\xef\xbb\xbfnodes a\r\na: alloc_pd p\r\n");
	ck_assert_uint_eq(f->nsteps, 1);
	scn_free(f);
	ck_assert_int_eq(parse_err("nodes a\n\xef\xbb\xbf" "a: alloc_pd p\n"), SCN_E_NON_ASCII);
	ck_assert_uint_eq(scn_fx_d.n, 1); /* one error, no cascade */
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct scn_file *f = NULL;

	ck_assert_int_eq(scn_parse_text("x", 1, "t", NULL, &scn_fx_d), -EINVAL);
	ck_assert_int_eq(scn_parse_text("x", 1, "t", &f, NULL), -EINVAL);
	ck_assert_int_eq(scn_parse_text(NULL, 1, "t", &f, &scn_fx_d), -EINVAL);
	ck_assert_int_eq(scn_parse_file(NULL, &f, &scn_fx_d), -EINVAL);
	scn_free(NULL);
	f = NULL;
	ck_assert_int_eq(scn_parse_text("nodes a\na: alloc_pd p\n", 22, NULL, &f, &scn_fx_d), 0);
	ck_assert_str_eq(f->title, "-");
	scn_free(f);
}
END_TEST

/* Every example parses; printing every step and parsing the result gives the same text. */
START_TEST(test_examples_parse_and_round_trip)
{
	DIR *dir = opendir("scenarios/examples");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(dir);
	while ((e = readdir(dir)) != NULL) {
		char path[512], *text, *again;
		size_t len = 0, cap = 1 << 16;
		struct scn_file *f, *g;
		int rc;

		if (!strstr(e->d_name, ".scn"))
			continue;
		snprintf(path, sizeof(path), "scenarios/examples/%s", e->d_name);
		rc = scn_parse_file(path, &f, &scn_fx_d);
		ck_assert_msg(rc == 0, "%s: %d %s at %u:%u", path, rc, scn_fx_d.n ? scn_fx_d.d[0].msg : "",
			      scn_fx_d.d[0].line, scn_fx_d.d[0].col);
		text = malloc(cap);
		ck_assert_ptr_nonnull(text);
		len = (size_t)snprintf(text, cap, "nodes");
		for (size_t i = 0; i < f->nnodes; i++)
			len += (size_t)snprintf(text + len, cap - len, " %s", f->nodes[i]);
		text[len++] = '\n';
		for (size_t i = 0; i < f->nsteps; i++) {
			len += scn_step_format(f, &f->steps[i], text + len, cap - len);
			text[len++] = '\n';
		}
		text[len] = '\0';
		ck_assert_int_eq(scn_parse_text(text, len, path, &g, &scn_fx_d), 0);
		ck_assert_uint_eq(g->nsteps, f->nsteps);
		again = malloc(cap);
		ck_assert_ptr_nonnull(again);
		for (size_t i = 0; i < f->nsteps; i++) {
			scn_step_format(g, &g->steps[i], again, cap);
			ck_assert_str_eq(again, fmt(f, i));
		}
		free(again);
		free(text);
		scn_free(g);
		scn_free(f);
		n++;
	}
	closedir(dir);
	ck_assert_int_ge(n, 4);
}
END_TEST

START_TEST(test_format)
{
	struct scn_file *f = parse_ok(P "b: reg_mr m pd=pd len=4K access=REMOTE_READ|0x80000000\n"
				      "a: dat_ia_open name=\"q\\\"\"\n"
				      "a: dat_pz_create z\n"
				      "a: dat_lmr_create l pz=z len=1 priv=ALL\n"
				      "a: dat_lmr_query l expect mem_priv=0 rmr_context=l.rkey\n");
	char small[6];

	ck_assert_str_eq(fmt(f, 2), "b: reg_mr m pd=pd len=4096 access=REMOTE_READ|0x80000000");
	ck_assert_str_eq(fmt(f, 3), "a: dat_ia_open name=\"q\\\"\"");
	ck_assert_str_eq(fmt(f, 5), "a: dat_lmr_create l pz=z len=1 priv=LOCAL_READ|REMOTE_READ|LOCAL_WRITE|REMOTE_WRITE");
	ck_assert_str_eq(fmt(f, 6), "a: dat_lmr_query l expect mem_priv=0 rmr_context=l.rkey");
	ck_assert_uint_eq(scn_step_format(f, &f->steps[0], small, sizeof(small)), strlen("a: alloc_pd pd"));
	ck_assert_str_eq(small, "a: al");
	ck_assert_uint_eq(scn_value_format(f, &f->steps[2].args[1], 0, small, sizeof(small)), 4);
	ck_assert_str_eq(small, "4096");
	scn_free(f);
}
END_TEST

/* Odd input: every example, mutated many ways, must parse or fail cleanly. */
START_TEST(test_mutations_never_crash)
{
	static const char *const files[] = {
		"scenarios/examples/mw-type2-bind-and-invalidate.scn",
		"scenarios/examples/rpma-dapl-registration.scn",
	};
	static const char bytes[] = { 0, '\n', ' ', '"', '\\', '#', '=', '|', '.', '+', '-', ':',
				      'x', '9', (char)0xc3, (char)0xff };
	unsigned seed = 12345;

	for (size_t fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++) {
		FILE *fp = fopen(files[fi], "rb");
		char orig[8192], text[8192];
		size_t len;

		ck_assert_ptr_nonnull(fp);
		len = fread(orig, 1, sizeof(orig), fp);
		fclose(fp);
		for (int round = 0; round < 1500; round++) {
			size_t n = len;
			struct scn_file *f = NULL;
			int rc;

			memcpy(text, orig, len);
			for (int k = 0; k < 1 + round % 4; k++) {
				seed = seed * 1103515245u + 12345u;
				size_t at = (seed >> 8) % n;
				char b = bytes[(seed >> 20) % sizeof(bytes)];

				if (round % 3 == 0)
					n = at + 1;          /* truncate */
				text[at] = b;                /* and overwrite */
			}
			rc = scn_parse_text(text, n, "m.scn", &f, &scn_fx_d);
			ck_assert(rc == 0 || rc == -EINVAL);
			ck_assert_int_eq(rc == 0, f != NULL);
			ck_assert_int_eq(rc == 0, scn_fx_d.n == 0);
			for (size_t i = 0; i < scn_fx_d.n; i++)
				ck_assert_uint_lt(scn_fx_d.d[i].code, SCN_E_COUNT_);
			scn_free(f);
		}
	}
}
END_TEST

START_TEST(test_sixteen_nodes_and_long_names)
{
	char text[2048];
	size_t n = (size_t)snprintf(text, sizeof(text), "nodes");
	struct scn_file *f;

	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " n%d", i);
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "\nn15: alloc_pd a234567890123456789012345678901\n");
	f = parse_ok(text);
	ck_assert_uint_eq(f->nnodes, 16);
	ck_assert_uint_eq(f->steps[0].node, 15);
	scn_free(f);
	ck_assert_int_eq(parse_err("nodes a b c d e f g h i j k l m n o p q\n"), SCN_E_NODE_COUNT);
	ck_assert_int_eq(parse_err("nodes a\na: alloc_pd a2345678901234567890123456789012\n"), SCN_E_BAD_NAME);
	ck_assert_int_eq(parse_err("nodes a2345678901234567890123456789012\n"), SCN_E_BAD_NODE_NAME);
}
END_TEST

/* What a file registers, all nodes (scn_registered_bytes: the guest memory a real run needs). */
START_TEST(test_registered_bytes)
{
	struct scn_file *f = parse_ok("nodes a b\n"
				      "a: alloc_pd pd\n"
				      "a: reg_mr big pd=pd len=1G\n"
				      "b: alloc_pd pd\n"
				      "b: reg_mr m pd=pd len=4K\n"
				      "b: dereg_mr m\n"
				      "b: reg_mr m pd=pd len=8K\n"
				      "b: rpma_mr_reg r len=64 usage=READ_SRC\n"
				      "b: reg_mr w pd=pd len=0xffffffffffffffff\n");

	ck_assert_uint_eq(scn_registered_bytes(f), (1ull << 30) + 4096 + 8192 + 64); /* w: refused by its call */
	scn_free(f);
}
END_TEST

Suite *suite_test_scn_parse(void)
{
	Suite *s = suite_create("test_scn_parse");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_default_title);
	tcase_add_test(tc, test_step_ast);
	tcase_add_test(tc, test_positional_bare_query_and_strings);
	tcase_add_test(tc, test_names_per_node_and_liveness);
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_lexer_edges);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_examples_parse_and_round_trip);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_mutations_never_crash);
	tcase_add_test(tc, test_sixteen_nodes_and_long_names);
	tcase_add_test(tc, test_registered_bytes);
	suite_add_tcase(s, tc);
	return s;
}

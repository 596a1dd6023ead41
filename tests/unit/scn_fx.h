/*
 * scn_fx.h — helpers of the scenario-language tests (test_scn_parse.c,
 * test_scn_dat.c): parse text that must be valid or must fail, and print a
 * step back. The diagnostics of the last parse are in scn_fx_d.
 */
#ifndef RDMACHECK_TEST_SCN_FX_H
#define RDMACHECK_TEST_SCN_FX_H

#include "harness/lang/scn.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct scn_diags scn_fx_d;

/* A LOCAL_INV of an unbound type-2 window: the rxe 6.1 profile predicts KERNEL_CRASH (MW-INV-3). */
/* The corpus's verbs/290 in short: destroy_qp of the QP a type-2 window is bound on (QP-DESTROY-1). */
#define SCN_FX_DESTROY_BOUND                                                      \
	"require mw_type2\nnodes a b\na: alloc_pd pd\n"                          \
	"a: reg_mr m pd=pd len=8K access=LOCAL_WRITE|MW_BIND\na: create_qp q pd=pd\n" \
	"b: alloc_pd pd\nb: create_qp q pd=pd\nconnect a.q b.q\n"                  \
	"a: alloc_mw w pd=pd type=2\n"                                            \
	"a: bind_mw w qp=q mr=m+4K len=4K access=REMOTE_WRITE expect SUCCESS\n"     \
	"a: destroy_qp q expect ok\n"

/* The corpus's verbs/280 in short: dereg_mr at the responder under an outstanding READ (rxe 6.1 WARNs). */
#define SCN_FX_DEREG_UNDER_READ                                                            \
	"nodes a b\na: alloc_pd pd\na: create_cq cq\na: reg_mr dst pd=pd len=1M access=LOCAL_WRITE\n" \
	"a: create_qp q pd=pd cq=cq\nb: alloc_pd pd\n"                                       \
	"b: reg_mr src pd=pd len=1M access=LOCAL_WRITE|REMOTE_READ\n"                          \
	"b: create_qp q pd=pd\nconnect a.q b.q\n"                                             \
	"a: read q local=dst remote=b.src len=1M id=3 wait=no expect ok\n"                       \
	"b: dereg_mr src expect ok\na: wait q id=3 expect SUCCESS|REM_ACCESS_ERR\n"

#define SCN_FX_UNBOUND_INV                                   \
	"nodes a b\n"                                        \
	"a: alloc_pd pd\n"                                   \
	"a: create_qp q pd=pd\n"                             \
	"b: alloc_pd pd\n"                                   \
	"b: create_qp q pd=pd\n"                             \
	"connect a.q b.q\n"                                  \
	"a: alloc_mw w pd=pd type=2\n"                       \
	"a: local_inv q w expect LOC_QP_OP_ERR|MW_BIND_ERR\n"

/* Parse text (file "dir/t.scn"); it must be valid. */
static inline struct scn_file *parse_ok(const char *text)
{
	struct scn_file *f = NULL;
	char buf[512];
	int rc = scn_parse_text(text, strlen(text), "dir/t.scn", &f, &scn_fx_d);

	if (rc != 0 && scn_fx_d.n)
		scn_diag_format(&scn_fx_d.d[0], "t.scn", buf, sizeof(buf));
	ck_assert_msg(rc == 0, "rc %d: %s", rc, scn_fx_d.n ? buf : "");
	ck_assert_ptr_nonnull(f);
	return f;
}

/* Parse text that must be refused; the first diagnostic's code. */
static inline enum scn_err parse_err(const char *text)
{
	struct scn_file *f = NULL;

	ck_assert_int_eq(scn_parse_text(text, strlen(text), "t.scn", &f, &scn_fx_d), -EINVAL);
	return (enum scn_err)scn_fx_d.d[0].code;
}

/* Step i of f as canonical text (a static buffer). */
static inline const char *fmt(const struct scn_file *f, size_t i)
{
	static char buf[512];

	scn_step_format(f, &f->steps[i], buf, sizeof(buf));
	return buf;
}

/*
 * Parse base (header lines and `first` steps) followed by lines[0..n), one
 * step each; every one of them must print back as its line. The file.
 */
static inline struct scn_file *parse_canonical(const char *base, size_t first, const char *const *lines, size_t n)
{
	static char text[8192];
	size_t len = (size_t)snprintf(text, sizeof(text), "%s", base);
	struct scn_file *f;

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s\n", lines[i]);
	ck_assert_uint_lt(len, sizeof(text));
	f = parse_ok(text);
	ck_assert_uint_eq(f->nsteps, first + n);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(fmt(f, first + i), lines[i]);
	return f;
}

#endif

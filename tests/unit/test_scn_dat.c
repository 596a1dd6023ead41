/*
 * Unit tests of the scenario language's uDAPL part: every call and key is
 * accepted and prints back canonically, the refusals a tester meets, the
 * scenarios/dat corpus round trip, and the values of the uDAPL tables and
 * model constants against the installed dat2 headers.
 */
#include "harness/lang/scn.h"
#include "tests/unit/scn_fx.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<dat2/udat.h>)
#include <netinet/in.h> /* struct sockaddr_in6, for dat_ib_extensions.h */
#include <dat2/udat.h>
#include <dat2/dat_ib_extensions.h>
#define HAVE_DAT 1
#endif

#define BASE "require dapl\nnodes a b\na: dat_ia_open\nb: dat_ia_open name=\"ofa-v2-scm-roe\"\n" \
	     "a: dat_pz_create z\nb: dat_pz_create z\n"

/* Every uDAPL call with every key, in canonical form (what scn_step_format prints). */
static const char *const canonical[] = {
	"a: dat_lmr_create l pz=z len=4096 priv=REMOTE_READ|LOCAL_WRITE",
	"a: dat_lmr_create l2 pz=z len=4096 priv=REMOTE_ATOMIC|0x80 type=VIRTUAL from=l va_type=ZB offset=12 prot=RO",
	"a: dat_lmr_create l3 pz=z len=1 priv=0 type=LMR from=l",
	"a: dat_lmr_create l4 pz=z len=64 priv=LOCAL_WRITE type=SHARED_VIRTUAL expect ok|DAT_INSUFFICIENT_RESOURCES",
	"a: dat_lmr_query l expect lmr_context=l.lkey rmr_context=0 registered_size=4096 registered_address=l.addr mem_priv=REMOTE_READ|LOCAL_WRITE",
	"b: dat_lmr_create t pz=z len=8192 priv=LOCAL_WRITE|REMOTE_WRITE",
	"b: dat_rmr_create r pz=z",
	"a: dat_ep_connect e pz=z peer=b.z private_data=56",
	"b: dat_ep_connect back pz=z peer=a.z",
	"b: dat_rmr_bind r lmr=t+1024 len=512 priv=REMOTE_WRITE ep=back expect DAT_DTO_SUCCESS|DAT_RMR_OPERATION_FAILED",
	"a: dat_ep_post_rdma_write e local=l+8 remote=b.t+16 len=64 expect DAT_DTO_SUCCESS",
	"a: dat_ep_post_rdma_read e local=l+0 remote=b.r+0 len=l.len-8 lmr_context=l.lkey rmr_context=4660 expect DAT_DTO_ERR_FLUSHED|DAT_INVALID_HANDLE",
	"a: dat_ep_disconnect e",
	"a: dat_ep_free e expect ok|DAT_INVALID_HANDLE",
	"b: dat_rmr_free r",
	"a: dat_lmr_free l",
	"a: dat_pz_free z expect DAT_INVALID_STATE",
};

START_TEST(test_every_dat_call_parses_and_prints)
{
	struct scn_file *f = parse_canonical(BASE, 4, canonical, sizeof(canonical) / sizeof(canonical[0]));

	/* Classes: the EP on a, the RMR on b; freed names are not live. */
	ck_assert_uint_eq(f->objs[f->steps[4 + 7].obj].cls, SCN_C_DAT_EP);
	ck_assert_uint_eq(f->objs[f->steps[4 + 6].obj].cls, SCN_C_DAT_RMR);
	ck_assert(!f->objs[f->steps[4 + 7].obj].live); /* dat_ep_free: expect lists ok */
	ck_assert_str_eq(scn_cap_name(f->requires[0]), "dapl");
	scn_free(f);
}
END_TEST

START_TEST(test_dat_refusals)
{
	/* A DTO ends in a completion: ok is not among its outcomes. */
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "a: dat_ep_connect e pz=z peer=b.z\n"
				   "a: dat_ep_post_rdma_write e local=l remote=b.l len=8 expect ok\n"),
			 SCN_E_UNKNOWN_NAME); /* b.l does not exist */
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "b: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "a: dat_ep_connect e pz=z peer=b.z\n"
				   "a: dat_ep_post_rdma_write e local=l remote=b.l len=8 expect ok\n"),
			 SCN_E_CANNOT_PRODUCE);
	/* A call gives DAT_*, not completion statuses or errnos. */
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL expect EINVAL\n"), SCN_E_CANNOT_PRODUCE);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_free q expect DAT_DTO_SUCCESS\n"), SCN_E_UNKNOWN_NAME);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "a: dat_lmr_free l expect DAT_DTO_SUCCESS\n"),
			 SCN_E_CANNOT_PRODUCE);
	/* Words and flags of the uDAPL tables. */
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL type=PHYSICAL\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=MW_BIND\n"), SCN_E_UNKNOWN_FLAG);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL va_type=PA\n"), SCN_E_UNKNOWN_FLAG);
	/* Classes: pz names a PZ, from an LMR, peer a PZ; priv is required. */
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "a: dat_lmr_create l2 pz=l len=8 priv=ALL\n"),
			 SCN_E_WRONG_CLASS);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL from=z\n"), SCN_E_WRONG_CLASS);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8\n"), SCN_E_MISSING_KEY);
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "a: dat_ep_connect e pz=z peer=b.l\n"),
			 SCN_E_UNKNOWN_NAME);
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z private_data=2000\n"), SCN_E_RANGE);
	/* dat_ia_open takes no NAME; the EP is created and cannot be re-created while live. */
	ck_assert_int_eq(parse_err(BASE "a: dat_ia_open ia\n"), SCN_E_UNKNOWN_KEY);
	ck_assert_int_eq(parse_err(BASE "a: dat_ep_connect e pz=z peer=b.z\na: dat_ep_connect e pz=z peer=b.z\n"),
			 SCN_E_LIVE);
	/* Queries report only their results. */
	ck_assert_int_eq(parse_err(BASE "a: dat_lmr_create l pz=z len=8 priv=ALL\n"
				   "a: dat_lmr_query l expect rkey=1\n"),
			 SCN_E_UNKNOWN_RESULT);
}
END_TEST

/* Every file of scenarios/dat parses; its steps print back to text that parses to the same steps. */
START_TEST(test_dat_corpus_round_trip)
{
	DIR *dir = opendir("scenarios/dat");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(dir);
	while ((e = readdir(dir)) != NULL) {
		char path[512], text[1 << 15], again[512];
		size_t len = 0;
		struct scn_file *f, *g;
		int rc;

		if (!strstr(e->d_name, ".scn"))
			continue;
		snprintf(path, sizeof(path), "scenarios/dat/%s", e->d_name);
		rc = scn_parse_file(path, &f, &scn_fx_d);
		ck_assert_msg(rc == 0, "%s: %d %s at %u:%u", path, rc, scn_fx_d.n ? scn_fx_d.d[0].msg : "",
			      scn_fx_d.d[0].line, scn_fx_d.d[0].col);
		ck_assert_msg(f->ncites >= 2 && f->title_line, "%s: a title and citations", path);
		len = (size_t)snprintf(text, sizeof(text), "nodes");
		for (size_t i = 0; i < f->nnodes; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, " %s", f->nodes[i]);
		text[len++] = '\n';
		for (size_t i = 0; i < f->nsteps; i++) {
			len += scn_step_format(f, &f->steps[i], text + len, sizeof(text) - len);
			text[len++] = '\n';
		}
		text[len] = '\0';
		ck_assert_int_eq(scn_parse_text(text, len, path, &g, &scn_fx_d), 0);
		ck_assert_uint_eq(g->nsteps, f->nsteps);
		for (size_t i = 0; i < f->nsteps; i++) {
			scn_step_format(g, &g->steps[i], again, sizeof(again));
			ck_assert_str_eq(again, fmt(f, i));
		}
		scn_free(g);
		scn_free(f);
		n++;
	}
	closedir(dir);
	ck_assert_int_ge(n, 15);
}
END_TEST

static uint64_t word(enum scn_table t, const char *name)
{
	uint64_t v = ~0ull;

	ck_assert_msg(scn_table_lookup(t, name, &v) == 0, "%s", name);
	return v;
}

START_TEST(test_dat_values_match_headers)
{
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "REMOTE_ATOMIC"), M_DAT_PRIV_REMOTE_ATOMIC);
	ck_assert_uint_eq(word(SCN_T_DAT_MEM_TYPE, "LMR"), M_DAT_MEM_LMR);
	ck_assert_uint_eq(word(SCN_T_DAT_VA_TYPE, "zb"), 1);
	ck_assert_uint_eq(scn_table_count(SCN_T_DAT_MEM_TYPE), 3);
#ifdef HAVE_DAT
	/* The scenario tables. */
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "LOCAL_READ"), DAT_MEM_PRIV_LOCAL_READ_FLAG);
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "REMOTE_READ"), DAT_MEM_PRIV_REMOTE_READ_FLAG);
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "LOCAL_WRITE"), DAT_MEM_PRIV_LOCAL_WRITE_FLAG);
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "REMOTE_WRITE"), DAT_MEM_PRIV_REMOTE_WRITE_FLAG);
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "REMOTE_ATOMIC"), DAT_IB_MEM_PRIV_REMOTE_ATOMIC);
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "WRITE"), DAT_MEM_PRIV_WRITE_FLAG);
	ck_assert_uint_eq(word(SCN_T_DAT_PRIV, "NONE"), DAT_MEM_PRIV_NONE_FLAG);
	ck_assert_uint_eq(word(SCN_T_DAT_MEM_TYPE, "VIRTUAL"), DAT_MEM_TYPE_VIRTUAL);
	ck_assert_uint_eq(word(SCN_T_DAT_MEM_TYPE, "LMR"), DAT_MEM_TYPE_LMR);
	ck_assert_uint_eq(word(SCN_T_DAT_MEM_TYPE, "SHARED_VIRTUAL"), DAT_MEM_TYPE_SHARED_VIRTUAL);
	ck_assert_uint_eq(word(SCN_T_DAT_VA_TYPE, "VA"), DAT_VA_TYPE_VA);
	ck_assert_uint_eq(word(SCN_T_DAT_VA_TYPE, "ZB"), DAT_VA_TYPE_ZB);
	/* The model's constants (model.h). */
	ck_assert_uint_eq(M_DAT_PRIV_LOCAL_READ, DAT_MEM_PRIV_LOCAL_READ_FLAG);
	ck_assert_uint_eq(M_DAT_PRIV_REMOTE_READ, DAT_MEM_PRIV_REMOTE_READ_FLAG);
	ck_assert_uint_eq(M_DAT_PRIV_LOCAL_WRITE, DAT_MEM_PRIV_LOCAL_WRITE_FLAG);
	ck_assert_uint_eq(M_DAT_PRIV_REMOTE_WRITE, DAT_MEM_PRIV_REMOTE_WRITE_FLAG);
	ck_assert_uint_eq(M_DAT_PRIV_REMOTE_ATOMIC, DAT_IB_MEM_PRIV_REMOTE_ATOMIC);
	ck_assert_uint_eq(M_DAT_MEM_VIRTUAL, DAT_MEM_TYPE_VIRTUAL);
	ck_assert_uint_eq(M_DAT_MEM_LMR, DAT_MEM_TYPE_LMR);
	ck_assert_uint_eq(M_DAT_MEM_SHARED_VIRTUAL, DAT_MEM_TYPE_SHARED_VIRTUAL);
	static const struct { int32_t m; DAT_RETURN h; } ret[] = {
		{ M_DAT_ABORT, DAT_ABORT }, { M_DAT_CONN_QUAL_IN_USE, DAT_CONN_QUAL_IN_USE },
		{ M_DAT_INSUFFICIENT_RESOURCES, DAT_INSUFFICIENT_RESOURCES },
		{ M_DAT_INTERNAL_ERROR, DAT_INTERNAL_ERROR }, { M_DAT_INVALID_HANDLE, DAT_INVALID_HANDLE },
		{ M_DAT_INVALID_PARAMETER, DAT_INVALID_PARAMETER }, { M_DAT_INVALID_STATE, DAT_INVALID_STATE },
		{ M_DAT_LENGTH_ERROR, DAT_LENGTH_ERROR }, { M_DAT_MODEL_NOT_SUPPORTED, DAT_MODEL_NOT_SUPPORTED },
		{ M_DAT_PROVIDER_NOT_FOUND, DAT_PROVIDER_NOT_FOUND },
		{ M_DAT_PRIVILEGES_VIOLATION, DAT_PRIVILEGES_VIOLATION },
		{ M_DAT_PROTECTION_VIOLATION, DAT_PROTECTION_VIOLATION }, { M_DAT_QUEUE_EMPTY, DAT_QUEUE_EMPTY },
		{ M_DAT_QUEUE_FULL, DAT_QUEUE_FULL }, { M_DAT_TIMEOUT_EXPIRED, DAT_TIMEOUT_EXPIRED },
		{ M_DAT_PROVIDER_ALREADY_REGISTERED, DAT_PROVIDER_ALREADY_REGISTERED },
		{ M_DAT_PROVIDER_IN_USE, DAT_PROVIDER_IN_USE }, { M_DAT_INVALID_ADDRESS, DAT_INVALID_ADDRESS },
		{ M_DAT_INTERRUPTED_CALL, DAT_INTERRUPTED_CALL },
		{ M_DAT_CONN_QUAL_UNAVAILABLE, DAT_CONN_QUAL_UNAVAILABLE }, { M_DAT_RESERVED_LMR, DAT_RESERVED_LMR },
		{ M_DAT_PORT_IN_USE, DAT_PORT_IN_USE }, { M_DAT_COMM_NOT_SUPPORTED, DAT_COMM_NOT_SUPPORTED },
		{ M_DAT_NOT_IMPLEMENTED, DAT_NOT_IMPLEMENTED },
	};
	for (size_t i = 0; i < sizeof(ret) / sizeof(ret[0]); i++) {
		ck_assert_int_eq(ret[i].m, (int32_t)ret[i].h);
		/* the agent reports DAT_GET_TYPE of a return; its name parses back */
		ck_assert_int_eq((int32_t)DAT_GET_TYPE(ret[i].h | DAT_CLASS_ERROR | 0x3), ret[i].m);
		ck_assert_str_ne(m_outcome_name((struct m_outcome){ M_OUT_DAT, ret[i].m }), "?");
	}
	static const struct { int32_t m; DAT_DTO_COMPLETION_STATUS h; } dto[] = {
		{ M_DTO_SUCCESS, DAT_DTO_SUCCESS }, { M_DTO_ERR_FLUSHED, DAT_DTO_ERR_FLUSHED },
		{ M_DTO_ERR_LOCAL_LENGTH, DAT_DTO_ERR_LOCAL_LENGTH }, { M_DTO_ERR_LOCAL_EP, DAT_DTO_ERR_LOCAL_EP },
		{ M_DTO_ERR_LOCAL_PROTECTION, DAT_DTO_ERR_LOCAL_PROTECTION },
		{ M_DTO_ERR_BAD_RESPONSE, DAT_DTO_ERR_BAD_RESPONSE },
		{ M_DTO_ERR_REMOTE_ACCESS, DAT_DTO_ERR_REMOTE_ACCESS },
		{ M_DTO_ERR_REMOTE_RESPONDER, DAT_DTO_ERR_REMOTE_RESPONDER },
		{ M_DTO_ERR_TRANSPORT, DAT_DTO_ERR_TRANSPORT },
		{ M_DTO_ERR_RECEIVER_NOT_READY, DAT_DTO_ERR_RECEIVER_NOT_READY },
		{ M_DTO_ERR_PARTIAL_PACKET, DAT_DTO_ERR_PARTIAL_PACKET },
		{ M_DTO_RMR_OPERATION_FAILED, DAT_RMR_OPERATION_FAILED },
		{ M_DTO_ERR_LOCAL_MM_ERROR, DAT_DTO_ERR_LOCAL_MM_ERROR },
	};
	for (size_t i = 0; i < sizeof(dto) / sizeof(dto[0]); i++) {
		ck_assert_int_eq(dto[i].m, (int32_t)dto[i].h);
		ck_assert_str_ne(m_outcome_name((struct m_outcome){ M_OUT_DTO, dto[i].m }), "?");
	}
	/* A bind completes with the DTO statuses. */
	ck_assert_int_eq(DAT_RMR_BIND_SUCCESS, DAT_DTO_SUCCESS);
#endif
}
END_TEST

Suite *suite_test_scn_dat(void)
{
	Suite *s = suite_create("scn_dat");
	TCase *tc = tcase_create("dat");

	tcase_add_test(tc, test_every_dat_call_parses_and_prints);
	tcase_add_test(tc, test_dat_refusals);
	tcase_add_test(tc, test_dat_corpus_round_trip);
	tcase_add_test(tc, test_dat_values_match_headers);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the resolution of uDAPL steps (harness/api/dat/resolve_dat.c): the
 * struct hcall fields each call fills, with the engine's own numbers for
 * triplets and windows, asked through a fake engine whose numbers tell
 * where they came from.
 */
#include "harness/agent/agent.h"
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.z, 1 b.z, 2 a.l, 3 b.t, 4 a.l2, 5 b.r, 6 a.e, 7 b.back, 8 a.sv. */
static const char text[] =
	"nodes a b\n"
	"a: dat_ia_open\n"                                                                        /* 2 */
	"b: dat_ia_open name=\"ofa-v2-scm-roe\"\n"                                                /* 3 */
	"a: dat_ia_open name=\"ofa-v2-ib0\" expect DAT_PROVIDER_NOT_FOUND\n"                       /* 4 */
	"a: dat_pz_create z\n"                                                                    /* 5 */
	"b: dat_pz_create z\n"                                                                    /* 6 */
	"a: dat_lmr_create l pz=z len=4K priv=LOCAL_WRITE|REMOTE_READ\n"                          /* 7 */
	"b: dat_lmr_create t pz=z len=8K priv=ALL offset=100 prot=RO\n"                           /* 8 */
	"a: dat_lmr_create l2 pz=z len=1K priv=REMOTE_ATOMIC type=LMR from=l va_type=ZB\n"        /* 9 */
	"b: dat_rmr_create r pz=z\n"                                                              /* 10 */
	"a: dat_ep_connect e pz=z peer=b.z private_data=12\n"                                     /* 11 */
	"b: dat_ep_connect back pz=z peer=a.z\n"                                                  /* 12 */
	"b: dat_rmr_bind r lmr=t+1K len=512 priv=REMOTE_WRITE ep=back\n"                          /* 13 */
	"a: dat_ep_post_rdma_write e local=l+8 remote=b.t+16 len=64\n"                            /* 14 */
	"a: dat_ep_post_rdma_read e local=l remote=b.r+4 len=l.len-8 lmr_context=7 rmr_context=9\n" /* 15 */
	"a: dat_lmr_query l\n"                                                                    /* 16 */
	"a: dat_ep_disconnect e\n"                                                                /* 17 */
	"a: dat_ep_free e\n"                                                                      /* 18 */
	"a: dat_lmr_free l\n"                                                                     /* 19 */
	"a: dat_pz_free z expect DAT_INVALID_STATE\n"                                             /* 20 */
	"a: dat_lmr_create sv pz=z len=64 priv=0 type=SHARED_VIRTUAL\n";                          /* 21 */

static void setup(void)
{
	fx_parse(text, "r.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_ia_open_names)
{
	struct hcall c = fx_ok(2);

	ck_assert_uint_eq(c.op, M_OP_DAT_IA_OPEN);
	ck_assert_int_eq(c.obj, -1);
	ck_assert_str_eq(c.dat.name, "");
	ck_assert_uint_eq(c.dat.ia, M_DAT_IA_CMA);
	c = fx_ok(3);
	ck_assert_str_eq(c.dat.name, AGENT_DAT_IA_SCM);
	ck_assert_uint_eq(c.dat.ia, M_DAT_IA_SCM);
	c = fx_ok(4);
	ck_assert_str_eq(c.dat.name, "ofa-v2-ib0");
	ck_assert_uint_eq(c.dat.ia, M_DAT_IA_UNKNOWN);
	ck_assert_uint_eq(c.nprefer, 1);
	ck_assert_int_eq(c.prefer[0].kind, M_OUT_DAT);
}
END_TEST

START_TEST(test_lmr_create)
{
	struct hcall c = fx_ok(7);

	ck_assert_uint_eq(c.op, M_OP_DAT_LMR_CREATE);
	ck_assert_int_eq(c.obj, 2);
	ck_assert_int_eq(c.dat.pz, 0);
	ck_assert_uint_eq(c.dat.len, 4096);
	ck_assert_uint_eq(c.dat.priv, M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_READ);
	ck_assert_uint_eq(c.dat.mem_type, M_DAT_MEM_VIRTUAL);
	ck_assert_int_eq(c.dat.lmr, -1);
	ck_assert_uint_eq(c.dat.va_type, 0);
	ck_assert_uint_eq(c.dat.offset, 0);
	ck_assert_uint_eq(c.dat.prot, M_PROT_RW);
	c = fx_ok(8);
	ck_assert_uint_eq(c.node, 1);
	ck_assert_int_eq(c.dat.pz, 1);
	ck_assert_uint_eq(c.dat.priv, 0x33);
	ck_assert_uint_eq(c.dat.offset, 100);
	ck_assert_uint_eq(c.dat.prot, M_PROT_RO);
	c = fx_ok(9);
	ck_assert_uint_eq(c.dat.mem_type, M_DAT_MEM_LMR);
	ck_assert_int_eq(c.dat.lmr, 2);
	ck_assert_uint_eq(c.dat.va_type, 1); /* DAT_VA_TYPE_ZB */
	ck_assert_uint_eq(c.dat.priv, M_DAT_PRIV_REMOTE_ATOMIC);
	c = fx_ok(21);
	ck_assert_uint_eq(c.dat.mem_type, M_DAT_MEM_SHARED_VIRTUAL);
	ck_assert_uint_eq(c.dat.priv, 0);
}
END_TEST

START_TEST(test_objects_and_connect)
{
	struct hcall c = fx_ok(10);

	ck_assert_uint_eq(c.op, M_OP_DAT_RMR_CREATE);
	ck_assert_int_eq(c.obj, 5);
	ck_assert_int_eq(c.dat.pz, 1);
	c = fx_ok(11);
	ck_assert_uint_eq(c.op, M_OP_DAT_EP_CONNECT);
	ck_assert_int_eq(c.obj, 6);
	ck_assert_int_eq(c.dat.pz, 0);
	ck_assert_int_eq(c.dat.peer_pz, 1);      /* b.z */
	ck_assert_uint_eq(c.dat.peer_node, 1);
	ck_assert_uint_eq(c.dat.pdata, 12);     /* private data */
	c = fx_ok(12);
	ck_assert_uint_eq(c.dat.peer_node, 0);
	ck_assert_uint_eq(c.dat.pdata, 0);
	c = fx_ok(16);
	ck_assert_uint_eq(c.op, M_OP_DAT_LMR_QUERY);
	ck_assert_int_eq(c.obj, 2);
	static const struct { uint32_t line; uint8_t op; int32_t obj; } acts[] = {
		{ 17, M_OP_DAT_EP_DISCONNECT, 6 }, { 18, M_OP_DAT_EP_FREE, 6 }, { 19, M_OP_DAT_LMR_FREE, 2 },
		{ 20, M_OP_DAT_PZ_FREE, 0 },
	};
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		c = fx_ok(acts[i].line);
		ck_assert_uint_eq(c.op, acts[i].op);
		ck_assert_int_eq(c.obj, acts[i].obj);
	}
}
END_TEST

START_TEST(test_bind_window)
{
	struct hcall c = fx_ok(13);

	ck_assert_uint_eq(c.op, M_OP_DAT_RMR_BIND);
	ck_assert_int_eq(c.obj, 5);        /* the RMR */
	ck_assert_int_eq(c.dat.ep, 7);         /* the EP */
	ck_assert_int_eq(c.dat.lmr, 3);         /* the LMR */
	ck_assert_uint_eq(c.dat.start, RADDR(3) + 1024); /* the window start in the LMR's address space */
	ck_assert_uint_eq(c.dat.len, 512);
	ck_assert_uint_eq(c.dat.priv, M_DAT_PRIV_REMOTE_WRITE);
}
END_TEST

START_TEST(test_dto_triplets)
{
	struct hcall c = fx_ok(14);

	ck_assert_uint_eq(c.op, M_OP_DAT_RDMA_WRITE);
	ck_assert_int_eq(c.obj, 6);
	ck_assert_int_eq(c.dat.lmr, 2);
	ck_assert_uint_eq(c.dat.laddr, LADDR(2) + 8);
	ck_assert_uint_eq(c.dat.lkey, 0x1000 + 2);
	ck_assert_int_eq(c.dat.remote, 3);
	ck_assert_uint_eq(c.dat.peer_node, 1);
	ck_assert_uint_eq(c.dat.raddr, RADDR(3) + 16);
	ck_assert_uint_eq(c.dat.rkey, 0x2000 + 3);
	ck_assert_uint_eq(c.dat.len, 64);
	/* A window as the remote, attribute lengths, replaced contexts. */
	c = fx_ok(15);
	ck_assert_uint_eq(c.op, M_OP_DAT_RDMA_READ);
	ck_assert_int_eq(c.dat.remote, 5);
	ck_assert_uint_eq(c.dat.raddr, RADDR(5) + 4);
	ck_assert_uint_eq(c.dat.len, 0x400 + 2 - 8);
	ck_assert_uint_eq(c.dat.lkey, 7);
	ck_assert_uint_eq(c.dat.rkey, 9);
	ck_assert_uint_eq(c.dat.laddr, LADDR(2));
}
END_TEST

START_TEST(test_missing_objects)
{
	struct hcall c;
	int32_t missing;

	fx_missing[0] = 3;
	ck_assert_int_eq(fx_res(14, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 3);
	ck_assert_int_eq(fx_res(13, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 3);
	fx_missing[0] = 2;
	ck_assert_int_eq(fx_res(15, &c, &missing), -ENOENT); /* local=l and len=l.len */
	ck_assert_int_eq(missing, 2);
	/* Creations and acts name no engine numbers. */
	ck_assert_int_eq(fx_res(9, &c, &missing), 0);
	ck_assert_int_eq(fx_res(19, &c, &missing), 0);
}
END_TEST

Suite *suite_test_resolve_dat(void)
{
	Suite *s = suite_create("resolve_dat");
	TCase *tc = tcase_create("dat");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ia_open_names);
	tcase_add_test(tc, test_lmr_create);
	tcase_add_test(tc, test_objects_and_connect);
	tcase_add_test(tc, test_bind_window);
	tcase_add_test(tc, test_dto_triplets);
	tcase_add_test(tc, test_missing_objects);
	suite_add_tcase(s, tc);
	return s;
}

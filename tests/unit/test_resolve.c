/*
 * Unit tests of step resolution (harness/run/resolve.c): a parsed scenario step
 * becomes a struct hcall whose object references are scenario object indexes
 * and whose address, key and attribute references are the engine's own
 * numbers, asked through a fake engine's ref/attr (backend.h) that makes
 * every number tell where it came from.
 */
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.pd, 1 a.m, 2 b.pd, 3 b.m, 4 a.q, 5 b.q, 6 b.w, 7 a.pd2, 8 b.w2, 9 b.m2. */
static const char text[] =
	"nodes a b\n"
	"a: alloc_pd pd\n"
	"a: reg_mr m pd=pd len=4K access=LOCAL_WRITE|REMOTE_WRITE offset=100 iova=0x10000 prot=RO\n"
	"b: alloc_pd pd\n"
	"b: reg_mr m pd=pd len=8K access=LOCAL_WRITE|REMOTE_READ|MW_BIND\n"
	"a: create_qp q pd=pd\n"
	"b: create_qp q pd=pd access=REMOTE_READ\n"
	"connect a.q b.q mtu=1024 retry_cnt=3\n"
	"b: alloc_mw w pd=pd type=1\n"
	"b: bind_mw w qp=q mr=m+1K len=2K access=REMOTE_READ zero_based\n"    /* 10 */
	"a: write q local=m+8 remote=b.m+16 len=64\n"                          /* 11 */
	"a: read q local=m+0 remote=b.w+16 len=m.len-1\n"                      /* 12 */
	"a: write q local=m remote=b.m-8 len=8 rkey=b.m.rkey+1\n"              /* 13 */
	"a: cas q local=m+8 remote=b.m+0 compare=1 swap=2\n"                   /* 14 */
	"a: fadd q local=m+16 remote=b.m+8 add=5\n"                            /* 15 */
	"a: recv q local=m+0 len=64\n"                                         /* 16 */
	"b: send q local=m+32 len=32 inv=w\n"                                  /* 17 */
	"b: local_inv q w\n"                                                   /* 18 */
	"b: local_inv q w rkey=0x1234\n"                                       /* 19 */
	"a: fill m byte=0xab off=16\n"                                         /* 20 */
	"a: fill m byte=1 len=8\n"                                             /* 21 */
	"a: modify_qp q state=ERR\n"                                           /* 22 */
	"a: alloc_pd pd2\n"                                                    /* 23 */
	"a: rereg_mr m pd=pd2 access=LOCAL_WRITE\n"                            /* 24 */
	"a: rereg_mr m flags=CHANGE_TRANSLATION\n"                             /* 25 */
	"a: dereg_mr m\n"                                                      /* 26 */
	"a: write q local=m+0 remote=b.m+0 len=4 expect REM_ACCESS_ERR|SUCCESS\n" /* 27 */
	"a: check m\n"                                                         /* 28 */
	"b: alloc_mw w2 pd=pd type=2\n"                                        /* 29 */
	"a: read q local=m+0 remote=b.m+0 len=b.w.len+0x10\n"                  /* 30 */
	"a: query_qp q expect state=ERR\n"                                     /* 31 */
	"b: reg_mr m2 pd=pd len=64 buf=m+100\n"                                 /* 32 */
	"a: write q local=m+0 remote=0x1000 rkey=7 len=8\n"                     /* 33 */
	"a: write q local=m+0 remote=b.m.va+8 rkey=b.m.rkey len=8\n";           /* 34 */

static void setup(void)
{
	fx_parse(text, "r.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_object_indexes)
{
	static const char *const names[] = { "pd", "m", "pd", "m", "q", "q", "w", "pd2", "w2", "m2" };
	static const uint8_t nodes[] = { 0, 0, 1, 1, 0, 1, 1, 0, 1, 1 };

	ck_assert_uint_eq(fx_f->nobjs, 10);
	for (size_t i = 0; i < 10; i++) {
		ck_assert_str_eq(fx_f->objs[i].name, names[i]);
		ck_assert_uint_eq(fx_f->objs[i].node, nodes[i]);
	}
}
END_TEST

START_TEST(test_op_kinds)
{
	size_t verbs = 0;

	for (size_t i = 0; i < scn_call_count(); i++) {
		const struct scn_call *c = scn_call_get(i);
		int k = resolve_op_kind(c);

		if (c->api == M_FAM_VERBS || strcmp(c->name, "fill") == 0) {
			ck_assert_msg(k >= 0, "%s has no model operation", c->name);
			ck_assert_str_eq(m_op_kind_str((enum m_op_kind)k), c->name);
			verbs++;
		} else if (c->api != M_FAM_MEM) {
			/* every other family's calls are model operations of the same name, or none yet */
			ck_assert_msg(k < 0 || strcmp(m_op_kind_str((enum m_op_kind)k), c->name) == 0, "%s", c->name);
		} else {
			ck_assert_msg(k == -1, "%s: %d", c->name, k);
		}
	}
	ck_assert_uint_eq(verbs, 22 + 3 + 7 + 1 + 6 + 6 + 1); /* + fields; create_cq, destroy_cq, poll_cq; create_ah, destroy_ah,
							   create_srq, destroy_srq, post_srq_recv, modify_srq,
							   query_srq; wait;
							   create_comp_channel, destroy_comp_channel, req_notify_cq,
							   get_cq_event, ack_cq_events, resize_cq; query_device,
							   query_port, query_gid, query_gid_table, query_pkey,
							   get_pkey_index */
	ck_assert_int_eq(resolve_op_kind(scn_call_get((size_t)scn_call_find("reg_mr"))), M_OP_REG_MR);
	ck_assert_int_eq(resolve_op_kind(scn_call_get((size_t)scn_call_find("connect"))), M_OP_CONNECT);
	ck_assert_int_eq(resolve_op_kind(scn_call_get((size_t)scn_call_find("check"))), -1);
	ck_assert_int_eq(resolve_op_kind(scn_call_get((size_t)scn_call_find("rpma_mr_reg"))), M_OP_RPMA_MR_REG);
	ck_assert_int_eq(resolve_op_kind(scn_call_get((size_t)scn_call_find("mrapi_rmem_create"))), M_OP_MRAPI_RMEM_CREATE);
}
END_TEST

START_TEST(test_creations)
{
	struct hcall c = fx_ok(3);

	ck_assert_uint_eq(c.op, M_OP_REG_MR);
	ck_assert_uint_eq(c.node, 0);
	ck_assert_int_eq(c.obj, 1);
	ck_assert_int_eq(c.verbs.pd, 0);
	ck_assert_int_eq(c.verbs.mr, -1);
	ck_assert_int_eq(c.verbs.qp, -1);
	ck_assert_int_eq(c.verbs.peer, -1);
	ck_assert_uint_eq(c.verbs.len, 4096);
	ck_assert_uint_eq(c.verbs.access, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_WRITE);
	ck_assert_uint_eq(c.verbs.offset, 100);
	ck_assert_uint_eq(c.verbs.has_iova, 1);
	ck_assert_uint_eq(c.verbs.iova, 0x10000);
	ck_assert_uint_eq(c.verbs.prot, M_PROT_RO);
	ck_assert_uint_eq(c.nprefer, 0);
	ck_assert_uint_eq(fx_nref + fx_nattr, 0); /* nothing to ask the engine */

	c = fx_ok(5);
	ck_assert_uint_eq(c.node, 1);
	ck_assert_int_eq(c.obj, 3);
	ck_assert_int_eq(c.verbs.pd, 2);
	ck_assert_uint_eq(c.verbs.has_iova, 0);
	ck_assert_uint_eq(c.verbs.iova, 0);
	ck_assert_uint_eq(c.verbs.offset, 0);
	ck_assert_uint_eq(c.verbs.prot, M_PROT_RW);

	c = fx_ok(6); /* create_qp: all remote rights by default */
	ck_assert_uint_eq(c.op, M_OP_CREATE_QP);
	ck_assert_int_eq(c.obj, 4);
	ck_assert_uint_eq(c.verbs.access, M_ACC_REMOTE_ANY);
	c = fx_ok(7);
	ck_assert_uint_eq(c.verbs.access, M_ACC_REMOTE_READ);

	c = fx_ok(9);
	ck_assert_uint_eq(c.op, M_OP_ALLOC_MW);
	ck_assert_int_eq(c.obj, 6);
	ck_assert_uint_eq(c.verbs.mw_type, 1);
	ck_assert_uint_eq(fx_ok(29).verbs.mw_type, 2);
}
END_TEST

START_TEST(test_connect)
{
	struct hcall c = fx_ok(8);

	ck_assert_uint_eq(c.op, M_OP_CONNECT);
	ck_assert_uint_eq(c.node, 0);
	ck_assert_int_eq(c.obj, 4);
	ck_assert_int_eq(c.verbs.peer, 5);
	ck_assert_uint_eq(c.verbs.peer_node, 1);
	ck_assert_uint_eq(c.verbs.conn_set, (1u << HC_MTU) | (1u << HC_RETRY_CNT));
	ck_assert_uint_eq(c.verbs.conn[HC_MTU], 1024);
	ck_assert_uint_eq(c.verbs.conn[HC_RETRY_CNT], 3);
	ck_assert_uint_eq(c.verbs.conn[HC_TIMEOUT], 0);
}
END_TEST

START_TEST(test_bind_window_start)
{
	struct hcall c = fx_ok(10);

	ck_assert_uint_eq(c.op, M_OP_BIND_MW);
	ck_assert_uint_eq(c.node, 1);
	ck_assert_int_eq(c.obj, 6);
	ck_assert_int_eq(c.verbs.mr, 3);
	ck_assert_int_eq(c.verbs.qp, 5);
	/* the window start in the MR's (remote) address space: b.m+1K */
	ck_assert_uint_eq(c.verbs.start, RADDR(3) + 1024);
	ck_assert_uint_eq(c.verbs.len, 2048);
	ck_assert_uint_eq(c.verbs.access, M_ACC_REMOTE_READ);
	ck_assert_uint_eq(c.verbs.zero_based, 1);
}
END_TEST

START_TEST(test_local_and_remote_references)
{
	/* a.m+8 and b.m+16 */
	struct hcall c = fx_ok(11);

	ck_assert_uint_eq(c.op, M_OP_WRITE);
	ck_assert_uint_eq(c.node, 0);
	ck_assert_int_eq(c.obj, 4);
	ck_assert_int_eq(c.verbs.qp, -1);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1) + 8);
	ck_assert_uint_eq(c.verbs.lkey, 0x1001);
	ck_assert_uint_eq(c.verbs.raddr, RADDR(3) + 16);
	ck_assert_uint_eq(c.verbs.rkey, 0x2003);
	ck_assert_uint_eq(c.verbs.len, 64);
	ck_assert_uint_eq(c.nprefer, 0);

	/* a remote window: its address and rkey; len from an attribute, m.len-1 */
	c = fx_ok(12);
	ck_assert_uint_eq(c.op, M_OP_READ);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1));
	ck_assert_uint_eq(c.verbs.raddr, RADDR(6) + 16);
	ck_assert_uint_eq(c.verbs.rkey, 0x2006);
	ck_assert_uint_eq(c.verbs.len, 0x400 + 1 - 1);

	/* `m` alone is m+0; a negative offset; the rkey override b.m.rkey+1 */
	c = fx_ok(13);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1));
	ck_assert_uint_eq(c.verbs.raddr, RADDR(3) - 8);
	ck_assert_uint_eq(c.verbs.rkey, 0x2003 + 1);
	ck_assert_uint_eq(c.verbs.len, 8);

	/* another node's attribute: b.w.len+0x10 */
	c = fx_ok(30);
	ck_assert_uint_eq(c.verbs.len, 0x400 + 6 + 0x10);

	/* raw remote addresses: a number, an attribute (the key is rkey=, no object's) */
	c = fx_ok(33);
	ck_assert_uint_eq(c.verbs.raddr, 0x1000);
	ck_assert_uint_eq(c.verbs.rkey, 7);
	c = fx_ok(34);
	ck_assert_uint_eq(c.verbs.raddr, 0xb0000000u + 3 + 8);
	ck_assert_uint_eq(c.verbs.rkey, 0x2003);
}
END_TEST

/* reg_mr buf=m+100: another registration of b.m's buffer from its byte 100. */
START_TEST(test_reg_mr_over_another_buffer)
{
	struct hcall c = fx_ok(32);

	ck_assert_uint_eq(c.op, M_OP_REG_MR);
	ck_assert_uint_eq(c.verbs.in_buf, 1);
	ck_assert_int_eq(c.verbs.mr, 3);
	ck_assert_uint_eq(c.verbs.buf_off, 100);
	ck_assert_uint_eq(c.verbs.len, 64);
	c = fx_ok(3);
	ck_assert_uint_eq(c.verbs.in_buf, 0);
}
END_TEST

START_TEST(test_atomics_and_receives)
{
	struct hcall c = fx_ok(14);

	ck_assert_uint_eq(c.op, M_OP_CAS);
	ck_assert_uint_eq(c.verbs.len, 8);
	ck_assert_uint_eq(c.verbs.compare, 1);
	ck_assert_uint_eq(c.verbs.swap, 2);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1) + 8);
	ck_assert_uint_eq(c.verbs.raddr, RADDR(3));

	c = fx_ok(15);
	ck_assert_uint_eq(c.op, M_OP_FADD);
	ck_assert_uint_eq(c.verbs.len, 8);
	ck_assert_uint_eq(c.verbs.compare, 5);
	ck_assert_uint_eq(c.verbs.swap, 5);
	ck_assert_uint_eq(c.verbs.raddr, RADDR(3) + 8);

	c = fx_ok(16);
	ck_assert_uint_eq(c.op, M_OP_RECV);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1));
	ck_assert_uint_eq(c.verbs.lkey, 0x1001);
	ck_assert_uint_eq(c.verbs.len, 64);
	ck_assert_uint_eq(c.verbs.raddr, 0);
	ck_assert_uint_eq(c.verbs.rkey, 0);
	ck_assert_uint_eq(c.verbs.with_inv, 0);

	/* SEND_WITH_INV carries the window's rkey */
	c = fx_ok(17);
	ck_assert_uint_eq(c.op, M_OP_SEND);
	ck_assert_uint_eq(c.node, 1);
	ck_assert_int_eq(c.obj, 5);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(3) + 32);
	ck_assert_uint_eq(c.verbs.lkey, 0x1003);
	ck_assert_uint_eq(c.verbs.with_inv, 1);
	ck_assert_uint_eq(c.verbs.inv_rkey, 0x2006);
}
END_TEST

START_TEST(test_local_inv_rkey)
{
	struct hcall c = fx_ok(18);

	ck_assert_uint_eq(c.op, M_OP_LOCAL_INV);
	ck_assert_int_eq(c.obj, 5);
	ck_assert_uint_eq(c.verbs.inv_rkey, 0x2006);
	c = fx_ok(19); /* rkey= overrides the window's */
	ck_assert_uint_eq(c.verbs.inv_rkey, 0x1234);
}
END_TEST

START_TEST(test_fill_modify_rereg_dereg)
{
	struct hcall c = fx_ok(20);

	/* without len: the rest of the buffer from off */
	ck_assert_uint_eq(c.op, M_OP_FILL);
	ck_assert_int_eq(c.obj, 1);
	ck_assert_uint_eq(c.fill.byte, 0xab);
	ck_assert_uint_eq(c.fill.off, 16);
	ck_assert_uint_eq(c.fill.len, 0x401 - 16);
	c = fx_ok(21);
	ck_assert_uint_eq(c.fill.byte, 1);
	ck_assert_uint_eq(c.fill.off, 0);
	ck_assert_uint_eq(c.fill.len, 8);

	c = fx_ok(22);
	ck_assert_uint_eq(c.op, M_OP_MODIFY_QP);
	ck_assert_uint_eq(c.verbs.qp_state, M_QPS_ERR);

	/* rereg flags follow from what is given, unless flags= says */
	c = fx_ok(24);
	ck_assert_uint_eq(c.op, M_OP_REREG_MR);
	ck_assert_int_eq(c.obj, 1);
	ck_assert_int_eq(c.verbs.pd, 7);
	ck_assert_uint_eq(c.verbs.access, M_ACC_LOCAL_WRITE);
	ck_assert_uint_eq(c.verbs.rereg_flags, M_REREG_CHANGE_PD | M_REREG_CHANGE_ACCESS);
	c = fx_ok(25);
	ck_assert_int_eq(c.verbs.pd, -1);
	ck_assert_uint_eq(c.verbs.access, 0);
	ck_assert_uint_eq(c.verbs.rereg_flags, M_REREG_CHANGE_TRANSLATION);

	c = fx_ok(26);
	ck_assert_uint_eq(c.op, M_OP_DEREG_MR);
	ck_assert_int_eq(c.obj, 1);

	c = fx_ok(31);
	ck_assert_uint_eq(c.op, M_OP_QUERY_QP);
	ck_assert_int_eq(c.obj, 4);
	ck_assert_uint_eq(c.nprefer, 0); /* KEY=VALUE conditions are no outcomes */
}
END_TEST

START_TEST(test_expect_becomes_preferences)
{
	/* a destroyed name keeps resolving (stale keys) */
	struct hcall c = fx_ok(27);

	ck_assert_uint_eq(c.nprefer, 2);
	ck_assert_uint_eq(c.prefer[0].kind, M_OUT_WC);
	ck_assert_int_eq(c.prefer[0].code, M_WC_REM_ACCESS_ERR);
	ck_assert_uint_eq(c.prefer[1].kind, M_OUT_WC);
	ck_assert_int_eq(c.prefer[1].code, M_WC_SUCCESS);
	ck_assert_uint_eq(c.verbs.laddr, LADDR(1));
}
END_TEST

START_TEST(test_check_is_not_resolved)
{
	struct hcall c;
	int32_t missing;

	ck_assert_int_eq(fx_res(28, &c, &missing), -EOPNOTSUPP);
	ck_assert_int_eq(missing, -1);
	ck_assert_uint_eq(fx_nref + fx_nattr, 0);
}
END_TEST

START_TEST(test_missing_objects)
{
	struct hcall c;
	int32_t missing;

	/* the remote MR */
	fx_missing[0] = 3;
	ck_assert_int_eq(fx_res(11, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 3);
	/* the local one too: the first one asked is named */
	fx_missing[1] = 1;
	ck_assert_int_eq(fx_res(11, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 1);
	/* only through an attribute (len=m.len-1; the local SGE names a.m too) */
	fx_missing[0] = -1;
	ck_assert_int_eq(fx_res(12, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 1);
	ck_assert_int_eq(fx_res(22, &c, &missing), 0); /* modify_qp asks nothing */
	ck_assert_int_eq(missing, -1);
	/* a remote window */
	fx_missing[1] = 6;
	ck_assert_int_eq(fx_res(12, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 6);
	ck_assert_int_eq(fx_res(17, &c, &missing), -ENOENT); /* send inv=w */
	ck_assert_int_eq(missing, 6);
	ck_assert_int_eq(fx_res(18, &c, &missing), -ENOENT); /* local_inv q w */
	ck_assert_int_eq(missing, 6);
	ck_assert_int_eq(fx_res(19, &c, &missing), 0);       /* rkey= given: the window is not asked */
	ck_assert_int_eq(missing, -1);
	ck_assert_uint_eq(c.verbs.inv_rkey, 0x1234);
	ck_assert_int_eq(fx_res(10, &c, &missing), 0);       /* bind_mw asks for the MR only */
	/* the MR of a bind */
	fx_missing[2] = 3;
	ck_assert_int_eq(fx_res(10, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 3);
	/* an rkey override from a missing object */
	fx_missing[1] = -1;
	ck_assert_int_eq(fx_res(13, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 3);
}
END_TEST

/* fill without len= of an object the engine lacks: -ENOENT, naming it. */
START_TEST(test_missing_fill_object)
{
	struct hcall c;
	int32_t missing;

	fx_missing[0] = 1;
	ck_assert_int_eq(fx_res(20, &c, &missing), -ENOENT);
	ck_assert_int_eq(missing, 1);
}
END_TEST

Suite *suite_test_resolve(void)
{
	Suite *s = suite_create("test_resolve");
	TCase *tc = tcase_create("resolve");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_object_indexes);
	tcase_add_test(tc, test_op_kinds);
	tcase_add_test(tc, test_creations);
	tcase_add_test(tc, test_connect);
	tcase_add_test(tc, test_bind_window_start);
	tcase_add_test(tc, test_local_and_remote_references);
	tcase_add_test(tc, test_reg_mr_over_another_buffer);
	tcase_add_test(tc, test_atomics_and_receives);
	tcase_add_test(tc, test_local_inv_rkey);
	tcase_add_test(tc, test_fill_modify_rereg_dereg);
	tcase_add_test(tc, test_expect_becomes_preferences);
	tcase_add_test(tc, test_check_is_not_resolved);
	tcase_add_test(tc, test_missing_objects);
	tcase_add_test(tc, test_missing_fill_object);
	suite_add_tcase(s, tc);
	return s;
}

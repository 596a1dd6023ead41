/*
 * Unit tests of the model: the device and its port as queries answer them
 * (model/verbs/device.c; DEV-QUERY-1, PORT-QUERY-1, GID-QUERY-1, PKEY-QUERY-1) and the one-flag query
 * result (M_Q_ONEFLAG) they judge widths and speeds with.
 */
#include "tests/unit/model_fx.h"

/* The index of result key in q (it must be there). */
static size_t qi(const struct m_qres *q, const char *key)
{
	for (unsigned i = 0; i < q->n; i++)
		if (strcmp(q->r[i].key, key) == 0)
			return i;
	ck_abort_msg("no result %s", key);
	return 0;
}

static struct m_qres fx_query(struct fx *f, struct m_op op)
{
	struct m_qres q = { 0 };

	fx_do(f, op, ok_());
	ck_assert_int_eq(model_query(&f->m, &f->p, &op, &q), 0);
	return q;
}

START_TEST(test_DEV_QUERY_1_attributes_a_correct_device_reports)
{
	struct fx f;
	int pd;
	struct m_op op;
	struct m_qres q;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	op = op_obj(M_OP_QUERY_DEVICE, 0, pd);
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_DEV_QUERY_1));
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	q = fx_query(&f, op);
	/* pyverbs verify_device_attr: nonzero GUIDs and vendor, a max_mr_size over a page... */
	ck_assert(!model_qres_ok(&q, qi(&q, "node_guid"), 0));
	ck_assert(model_qres_ok(&q, qi(&q, "node_guid"), 0x0200000000000001ull));
	ck_assert(!model_qres_ok(&q, qi(&q, "sys_image_guid"), 0));
	ck_assert(!model_qres_ok(&q, qi(&q, "vendor_id"), 0));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_mr_size"), 4096));
	ck_assert(model_qres_ok(&q, qi(&q, "max_mr_size"), ~0ull));
	ck_assert(!model_qres_ok(&q, qi(&q, "page_size_cap"), 2048));
	ck_assert(model_qres_ok(&q, qi(&q, "page_size_cap"), 0xfffff000ull));
	ck_assert(model_qres_ok(&q, qi(&q, "max_sge_rd"), 0));
	/* ...and every max_* at least what the model lets a node create. */
	ck_assert(!model_qres_ok(&q, qi(&q, "max_qp_wr"), M_SEND_DEPTH_MAX - 1));
	ck_assert(model_qres_ok(&q, qi(&q, "max_qp_wr"), M_SEND_DEPTH_MAX));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_sge"), M_SGE_MAX - 1));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_cqe"), M_CQ_DEPTH_MAX - 1));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_qp"), M_MAX_QP - 1));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_cq"), M_MAX_CQ - 1));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_mr"), M_MAX_MR - 1));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_pd"), M_MAX_PD - 1));
	ck_assert(!model_qres_ok(&q, qi(&q, "max_pkeys"), 0));
	ck_assert(!model_qres_ok(&q, qi(&q, "phys_port_cnt"), 0));
	ck_assert(model_qres_ok(&q, qi(&q, "phys_port_cnt"), 1));
	/* ibv_query_device_ex's orig_attr: the same. */
	op.verbs.dev_ex = 1;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	ck_assert_uint_eq(fx_query(&f, op).n, q.n);
	model_free(&f.m);
}
END_TEST

START_TEST(test_PORT_QUERY_1_port_one_active_others_einval)
{
	struct fx f;
	int pd;
	struct m_op op;
	struct m_qres q;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	op = op_obj(M_OP_QUERY_PORT, 0, pd);
	op.verbs.port = M_PORT_ONE;
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_PORT_QUERY_1));
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	q = fx_query(&f, op);
	ck_assert(model_qres_ok(&q, qi(&q, "state"), 4));  /* IBV_PORT_ACTIVE */
	ck_assert(!model_qres_ok(&q, qi(&q, "state"), 2)); /* IBV_PORT_INIT */
	ck_assert(!model_qres_ok(&q, qi(&q, "max_mtu"), 0));
	ck_assert(!model_qres_ok(&q, qi(&q, "active_mtu"), 6));
	ck_assert(model_qres_ok(&q, qi(&q, "active_mtu"), 3)); /* IBV_MTU_1024 */
	/* pyverbs width_to_str: 1, 2, 4, 8, 16; speed_to_str: the IB speeds */
	ck_assert(model_qres_ok(&q, qi(&q, "active_width"), 1));
	ck_assert(model_qres_ok(&q, qi(&q, "active_width"), 16));
	ck_assert(!model_qres_ok(&q, qi(&q, "active_width"), 3));
	ck_assert(!model_qres_ok(&q, qi(&q, "active_width"), 32));
	ck_assert(!model_qres_ok(&q, qi(&q, "active_width"), 0));
	ck_assert(model_qres_ok(&q, qi(&q, "active_speed"), 256));
	ck_assert(!model_qres_ok(&q, qi(&q, "active_speed"), 3));
	ck_assert(!model_qres_ok(&q, qi(&q, "link_layer"), 3));
	ck_assert(model_qres_ok(&q, qi(&q, "link_layer"), 2)); /* Ethernet */
	ck_assert(!model_qres_ok(&q, qi(&q, "max_msg_sz"), 0x1000));
	ck_assert(!model_qres_ok(&q, qi(&q, "gid_tbl_len"), 0));
	ck_assert(!model_qres_ok(&q, qi(&q, "pkey_tbl_len"), 0));
	/* Port 0 and past phys_port_cnt: EINVAL, nothing reported. */
	op.verbs.port = M_PORT_PAST;
	ck_assert(fx_rule(fx_predict(&f, op), err_(EINVAL), M_RULE_PORT_QUERY_1));
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	op.verbs.port = M_PORT_ZERO;
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DEV_QUERY_1_needs_a_live_pd)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	fx_do(&f, op_obj(M_OP_DEALLOC_PD, 0, pd), ok_());
	{
		struct m_op op = op_obj(M_OP_QUERY_DEVICE, 0, pd);
		struct m_pred p;

		ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &p), -EINVAL);
	}
	model_free(&f.m);
}
END_TEST

START_TEST(test_GID_QUERY_1_index_zero_table_and_empty_index)
{
	struct fx f;
	int pd;
	struct m_op op;
	struct m_qres q;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	op = op_obj(M_OP_QUERY_GID, 0, pd);
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_GID_QUERY_1));
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	op.verbs.dev_ex = 1;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	op.verbs.gid_empty = 1; /* ibv_query_gid_ex of an index the table does not hold */
	ck_assert(fx_rule(fx_predict(&f, op), err_(ENODATA), M_RULE_GID_QUERY_1));
	ck_assert(fx_only(fx_predict(&f, op), err_(ENODATA)));
	op = op_obj(M_OP_QUERY_GID_TABLE, 0, pd);
	q = fx_query(&f, op);
	ck_assert(!model_qres_ok(&q, qi(&q, "n"), 0));
	ck_assert(model_qres_ok(&q, qi(&q, "n"), 2));
	op.verbs.gid_none = 1;
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_PKEY_QUERY_1_index_zero_and_its_index)
{
	struct fx f;
	int pd;
	struct m_qres q;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	ck_assert(fx_rule(fx_predict(&f, op_obj(M_OP_QUERY_PKEY, 0, pd)), ok_(), M_RULE_PKEY_QUERY_1));
	q = fx_query(&f, op_obj(M_OP_QUERY_PKEY, 0, pd));
	ck_assert(!model_qres_ok(&q, qi(&q, "pkey"), 0));
	ck_assert(model_qres_ok(&q, qi(&q, "pkey"), 0xffff));
	q = fx_query(&f, op_obj(M_OP_GET_PKEY_INDEX, 0, pd));
	ck_assert(model_qres_ok(&q, qi(&q, "index"), 0));
	ck_assert(!model_qres_ok(&q, qi(&q, "index"), 1));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_device(void)
{
	Suite *s = suite_create("model_device");
	TCase *tc = tcase_create("device");

	RTEST(tc, DEV_QUERY_1, test_DEV_QUERY_1_attributes_a_correct_device_reports);
	RTEST(tc, DEV_QUERY_1, test_DEV_QUERY_1_needs_a_live_pd);
	RTEST(tc, PORT_QUERY_1, test_PORT_QUERY_1_port_one_active_others_einval);
	RTEST(tc, GID_QUERY_1, test_GID_QUERY_1_index_zero_table_and_empty_index);
	RTEST(tc, PKEY_QUERY_1, test_PKEY_QUERY_1_index_zero_and_its_index);
	suite_add_tcase(s, tc);
	return s;
}

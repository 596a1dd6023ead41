/* Unit tests of the model: PDs, MRs (reg, dereg), MW allocation, QPs, the names of things. */
#include "tests/unit/model_fx.h"

START_TEST(test_PD_2_dealloc_unreferenced)
{
	struct fx f;
	int pd, mr;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	mr = fx_mr(&f, 0, pd, 64, 0);
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, mr), ok_());
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_PD_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_PD_3_dealloc_busy_multi_node)
{
	struct fx f;
	int pd0, pd2, qp, mw;

	fx_init(&f, 3, "generic");
	pd0 = fx_pd(&f, 0);
	pd2 = fx_pd(&f, 2);
	qp = fx_qp(&f, 2, pd2, 0);
	mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)pd0, .verbs.mw_type = 2 }, ok_());
	/* A QP on node 2 holds node 2's PD; an MW holds node 0's. */
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 2, pd2));
	ck_assert(fx_only(pr, err_(EBUSY)));
	ck_assert(fx_rule(pr, err_(EBUSY), M_RULE_PD_3));
	fx_do(&f, op_obj(M_OP_DEALLOC_PD, 2, pd2), err_(EBUSY));
	ck_assert(f.m.node[2].pd[pd2].live); /* stays usable */
	fx_qp(&f, 2, pd2, 0);
	pr = fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd0));
	ck_assert(fx_only(pr, err_(EBUSY)));
	fx_do(&f, op_obj(M_OP_DEALLOC_MW, 0, mw), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd0));
	ck_assert(fx_only(pr, ok_()));
	fx_do(&f, op_obj(M_OP_DESTROY_QP, 2, qp), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 2, pd2));
	ck_assert(fx_only(pr, err_(EBUSY))); /* the second QP */
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ACC_1_remote_write_needs_local_write)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_REMOTE_WRITE));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_ACC_1));
	pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_REMOTE_ATOMIC));
	ck_assert(fx_only(pr, err_(EINVAL)));
	pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_REMOTE_WRITE | M_ACC_LOCAL_WRITE));
	ck_assert(fx_only(pr, ok_()));
	fx_do(&f, op_reg(0, pd, 4096, M_ACC_REMOTE_WRITE), err_(EINVAL));
	ck_assert_int_eq(f.m.node[0].nmr, 0); /* nothing registered */
	ck_assert_uint_eq(f.m.node[0].pd[pd].usecnt, 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ACC_2_local_read_only_and_remote_read)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	static const uint32_t ok[] = { 0, M_ACC_REMOTE_READ, M_ACC_MW_BIND, M_ACC_REMOTE_READ | M_ACC_MW_BIND };
	for (unsigned i = 0; i < 4; i++) {
		struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, ok[i]));
		ck_assert(fx_only(pr, ok_()));
	}
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_REMOTE_ATOMIC));
	ck_assert(!fx_has(pr, ok_()));
	ck_assert(fx_rule(fx_predict(&f, op_reg(0, pd, 4096, 0)), ok_(), M_RULE_MR_ACC_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ACC_3_unknown_bits)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, 1u << 15));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_ACC_3));
	ck_assert(fx_only(fx_predict(&f, op_reg(0, pd, 4096, M_ACC_LOCAL_WRITE)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ACC_4_optional_bits_cleared)
{
	struct fx f;
	int pd, mr;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_RELAXED_ORDERING | M_ACC_LOCAL_WRITE));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_ACC_4));
	mr = fx_mr(&f, 0, pd, 4096, M_ACC_RELAXED_ORDERING);
	ck_assert_uint_eq(f.m.node[0].mr[mr].access, 0);
	/* Not optional: a bit just below the range is refused (MR-ACC-3). */
	ck_assert(fx_only(fx_predict(&f, op_reg(0, pd, 4096, 1u << 19)), err_(EINVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ACC_5_driver_flags)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_ZERO_BASED));
	ck_assert(fx_has(pr, err_(EOPNOTSUPP)));
	ck_assert(fx_has(pr, ok_())); /* older rxe ignores it */
	ck_assert(fx_rule(pr, err_(EOPNOTSUPP), M_RULE_MR_ACC_5));
	pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_ON_DEMAND | M_ACC_LOCAL_WRITE));
	ck_assert(fx_has(pr, err_(EINVAL)));
	/* The generic profile has ODP and zero-based registration: plain success. */
	model_free(&f.m);
	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	ck_assert(fx_only(fx_predict(&f, op_reg(0, pd, 4096, M_ACC_ON_DEMAND)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ACC_6_flush_persistent)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 4096, M_ACC_FLUSH_PERSISTENT | M_ACC_LOCAL_WRITE));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, err_(EOPNOTSUPP)) && !fx_has(pr, ok_()));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_ACC_6));
	ck_assert(fx_only(fx_predict(&f, op_reg(0, pd, 4096, M_ACC_FLUSH_GLOBAL)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_LEN_1_zero_length)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, 0, 0));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_LEN_1));
	struct m_op op = op_reg(0, pd, 0, 0);
	op.verbs.offset = 100;
	pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_LEN_2_wraps)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_pred pr = fx_predict(&f, op_reg(0, pd, UINT64_MAX - 10, 0));
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_LEN_2));
	ck_assert(fx_only(fx_predict(&f, op_reg(0, pd, 1, 0)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ADDR_1_unaligned_exact_range)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op op = op_reg(1, s.pb, 100, RW);

	op.verbs.offset = 3000;
	int m = fx_do(&f, op, ok_());
	ck_assert_uint_eq(f.m.node[1].mr[m].addr % M_PAGE, 3000);
	/* The last byte is inside, one more is outside, though the page is pinned. */
	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, m, 99, 1));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, m, 99, 2));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_MR_ADDR_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ADDR_2_iova_page_offset)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_op op = op_reg(0, pd, 4096, 0);
	op.verbs.has_iova = 1;
	op.verbs.iova = 0x100010;
	ck_assert(fx_only(fx_predict(&f, op), err_(EINVAL)));
	ck_assert(fx_rule(fx_predict(&f, op), err_(EINVAL), M_RULE_MR_ADDR_2));
	op.verbs.offset = 0x10;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_ADDR_3_zero_based)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op op = op_reg(1, s.pb, 64, RW);

	op.verbs.has_iova = 1;
	op.verbs.iova = 0;
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_MR_ADDR_3));
	int z = fx_do(&f, op, ok_());
	ck_assert_uint_eq(model_mr_raddr(&f.m, 1, z, 8), 8);
	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, z, 56, 8));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	/* Its virtual address is not a valid remote address. */
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, z, 0, 8);
	w.verbs.raddr = f.m.node[1].mr[z].addr;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_MAP_1_unmapped)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_op op = op_reg(0, pd, 4096, 0);
	op.verbs.prot = M_PROT_UNMAPPED;
	ck_assert(fx_only(fx_predict(&f, op), err_(EFAULT)));
	ck_assert(fx_rule(fx_predict(&f, op), err_(EFAULT), M_RULE_MR_MAP_1));
	op.verbs.access = M_ACC_LOCAL_WRITE;
	ck_assert(fx_only(fx_predict(&f, op), err_(EFAULT)));
	op.verbs.prot = M_PROT_UNMAPPED + 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &(struct m_pred){ 0 }), -EINVAL);
	op.verbs.prot = M_PROT_RW;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_MAP_2_read_only_pages)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_op op = op_reg(0, pd, 4096, M_ACC_REMOTE_READ);
	op.verbs.prot = M_PROT_RO;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	op.verbs.access = M_ACC_LOCAL_WRITE;
	ck_assert(fx_only(fx_predict(&f, op), err_(EFAULT)));
	op.verbs.access = M_ACC_MW_BIND;
	ck_assert(fx_only(fx_predict(&f, op), err_(EFAULT)));
	ck_assert(fx_rule(fx_predict(&f, op), err_(EFAULT), M_RULE_MR_MAP_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_MAP_2_prot_none_pages)
{
	struct fx f;
	int pd;

	/* Generic: PROT_NONE pages cannot be pinned, writable or not. */
	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_op op = op_reg(0, pd, 4096, M_ACC_REMOTE_READ);
	op.verbs.prot = M_PROT_NONE;
	ck_assert(fx_only(fx_predict(&f, op), err_(EFAULT)));
	ck_assert(fx_rule(fx_predict(&f, op), err_(EFAULT), M_RULE_MR_MAP_2));
	model_free(&f.m);
	/* rxe on 6.1 pins read-only registrations with FOLL_FORCE: ok; writable ones still fail. */
	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	op.verbs.pd = (int16_t)pd;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	op.verbs.access = M_ACC_LOCAL_WRITE;
	ck_assert(fx_only(fx_predict(&f, op), err_(EFAULT)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_KEY_1_keys_distinct)
{
	struct fx f;
	int pd, a, b;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	a = fx_mr(&f, 0, pd, 64, RW);
	b = fx_mr(&f, 0, pd, 64, RW);
	const struct m_mr *x = &f.m.node[0].mr[a], *y = &f.m.node[0].mr[b];
	ck_assert_uint_ne(x->lkey, y->lkey);
	ck_assert_uint_ne(x->rkey, y->rkey);
	ck_assert_uint_ne(x->lkey, y->rkey);
	ck_assert(fx_rule(fx_predict(&f, op_reg(0, pd, 64, 0)), ok_(), M_RULE_MR_KEY_1));
	model_free(&f.m);
}
END_TEST

/* reg_mr buf=OTHER+OFF: another registration of memory the node registered
 * already. Its own keys (MR-KEY-1), the buffer's pages, and the same bytes:
 * what lands through one is seen through the other, in copies of the model
 * too; a range past the buffer is a scenario error (-EINVAL). */
START_TEST(test_MR_KEY_1_two_registrations_one_buffer)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op reg = op_reg(1, s.pb, 1024, RW);
	struct model c;
	uint8_t want[16];

	reg.verbs.in_buf = 1;
	reg.verbs.mr = (int16_t)s.mb;
	reg.verbs.buf_off = 1000; /* page offset 1000 of mb's buffer */
	ck_assert(fx_rule(fx_predict(&f, reg), ok_(), M_RULE_MR_KEY_1));
	ck_assert(fx_rule(fx_predict(&f, reg), ok_(), M_RULE_MR_ADDR_1));
	int v = fx_do(&f, reg, ok_());
	const struct m_mr *b = &f.m.node[1].mr[s.mb], *w = &f.m.node[1].mr[v];
	ck_assert_uint_eq(w->addr, b->addr + 1000);
	ck_assert_uint_ne(w->lkey, b->lkey);
	ck_assert_uint_ne(w->rkey, b->rkey);
	/* A WRITE through the second registration lands in the first's bytes. */
	memset(want, 0, sizeof(want));
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x5c, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, v, 8, 16), wc_(M_WC_SUCCESS));
	memset(want, 0x5c, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 1008, want, 16), -1);
	ck_assert_int_eq(model_mr_compare(&f.m, 1, v, 8, want, 16), -1);
	/* A copy keeps them one buffer, apart from the original. */
	ck_assert_int_eq(model_clone(&c, &f.m), 0);
	model_mr_set(&c, 1, s.mb, 1000, 0x77, 1);
	ck_assert_uint_eq(model_mr_byte(&c, 1, v, 0), 0x77);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, v, 0), 0);
	model_free(&c);
	/* Past the buffer's end; a buffer the node never had. */
	reg.verbs.buf_off = 3500;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &reg, &(struct m_pred){ 0 }), -EINVAL);
	reg.verbs.buf_off = 0;
	reg.verbs.mr = 9;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &reg, &(struct m_pred){ 0 }), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_DEREG_1_keys_die)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8);

	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, s.mb));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_DEREG_1));
	fx_do(&f, op_obj(M_OP_DEREG_MR, 1, s.mb), ok_());
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_DEREG_2_bound_window)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 0, s.pa, 4096, M_ACC_LOCAL_WRITE | M_ACC_MW_BIND);
	int mw = fx_do(&f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)s.pa, .verbs.mw_type = 1 },
		       ok_());
	struct m_op bind = { .kind = M_OP_BIND_MW, .node = 0, .obj = (int16_t)mw, .verbs.qp = (int16_t)s.qa,
			     .verbs.mr = (int16_t)mr, .verbs.offset = f.m.node[0].mr[mr].iova, .verbs.len = 4096,
			     .verbs.access = M_ACC_REMOTE_READ };

	fx_do(&f, bind, wc_(M_WC_SUCCESS));
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DEREG_MR, 0, mr));
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, err_(EBUSY)) && !fx_has(pr, ok_()));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MR_DEREG_2));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, op_obj(M_OP_DEREG_MR, 0, mr));
	ck_assert(fx_only(pr, err_(EINVAL))); /* F: EINVAL on rxe */
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, mr), err_(EINVAL));
	ck_assert(f.m.node[0].mr[mr].live);
	fx_do(&f, op_obj(M_OP_DEALLOC_MW, 0, mw), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 0, mr)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ALLOC_1_bad_type)
{
	struct fx f;
	int pd;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_op op = { .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)pd, .verbs.mw_type = 3 };
	ck_assert(fx_rule(fx_predict(&f, op), err_(EINVAL), M_RULE_MW_ALLOC_1));
	op.verbs.mw_type = 1;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	struct m_profile none = f.p;
	none.caps &= ~(uint32_t)M_CAP_MW_TYPE1;
	struct m_pred pr;
	ck_assert_int_eq(model_predict(&f.m, &none, &op, &pr), 0);
	ck_assert(fx_only(pr, err_(EOPNOTSUPP)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ALLOC_3_holds_pd)
{
	struct fx f;
	int pd, mw;

	fx_init(&f, 1, "generic");
	pd = fx_pd(&f, 0);
	struct m_op op = { .kind = M_OP_ALLOC_MW, .node = 0, .verbs.pd = (int16_t)pd, .verbs.mw_type = 2 };
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_MW_ALLOC_3));
	mw = fx_do(&f, op, ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), err_(EBUSY)));
	fx_do(&f, op_obj(M_OP_DEALLOC_MW, 0, mw), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEALLOC_PD, 0, pd)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_QP_CONN_1_connect)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	struct m_op again = { .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)s.qa, .verbs.peer_node = 1,
			      .verbs.peer_qp = (int16_t)s.qb };
	ck_assert(fx_rule(fx_predict(&f, again), err_(EINVAL), M_RULE_QP_CONN_1));
	struct m_pred pr;
	again.verbs.peer_node = 0;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &again, &pr), -EINVAL); /* to itself: malformed */
	model_free(&f.m);
}
END_TEST

START_TEST(test_names_round_trip)
{
	char buf[128];
	uint32_t set;
	struct m_outcome o;

	for (int s = 0; s < M_WC_COUNT_; s++) {
		enum m_wc_status back;
		ck_assert_int_eq(m_wc_status_parse(m_wc_status_str((enum m_wc_status)s), &back), 0);
		ck_assert_int_eq(back, s);
	}
	for (int k = 0; k < M_OP_COUNT_; k++) {
		enum m_op_kind back;
		ck_assert_int_eq(m_op_kind_parse(m_op_kind_str((enum m_op_kind)k), &back), 0);
		ck_assert_int_eq(back, k);
	}
	for (int s = M_QPS_RESET; s <= M_QPS_ERR; s++) {
		enum m_qp_state back;
		ck_assert_int_eq(m_qp_state_parse(m_qp_state_str((enum m_qp_state)s), &back), 0);
		ck_assert_int_eq(back, s);
	}
	ck_assert_int_eq(m_access_set_parse("local_write|REMOTE_READ", &set), 0);
	ck_assert_uint_eq(set, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_READ);
	ck_assert_str_eq(m_access_set_str(set, buf, sizeof(buf)), "LOCAL_WRITE|REMOTE_READ");
	ck_assert_int_eq(m_access_set_parse("0", &set), 0);
	ck_assert_uint_eq(set, 0);
	ck_assert_str_eq(m_access_set_str(0, buf, sizeof(buf)), "0");
	ck_assert_int_eq(m_access_set_parse("LOCAL_WRITE|", &set), -EINVAL);
	ck_assert_int_eq(m_access_set_parse("REMOTE_RAED", &set), -EINVAL);
	ck_assert_int_eq(m_outcome_parse("REM_ACCESS_ERR", &o), 0);
	ck_assert_str_eq(m_outcome_str(o, buf, sizeof(buf)), "REM_ACCESS_ERR");
	ck_assert_int_eq(m_outcome_parse("ebusy", &o), 0);
	ck_assert_str_eq(m_outcome_str(o, buf, sizeof(buf)), "EBUSY");
	ck_assert_str_eq(m_outcome_str(o, buf, 3), "EB"); /* cut to the buffer, as snprintf */
	ck_assert_str_eq(m_outcome_str(o, buf, 1), "");
	ck_assert_int_eq(m_outcome_parse("KERNEL_CRASH", &o), 0);
	ck_assert_int_eq(o.kind, M_OUT_CRASH);
	ck_assert_int_eq(m_outcome_parse("nonsense", &o), -EINVAL);
	ck_assert_str_eq(m_qp_state_str((enum m_qp_state)99), "?");
	enum m_cap c;
	ck_assert_int_eq(m_cap_parse("mw_type2", &c), 0);
	ck_assert_int_eq(c, M_CAP_MW_TYPE2);
	ck_assert_str_eq(m_prot_str(M_PROT_RO), "ro");
	ck_assert_str_eq(m_errno_str(EOPNOTSUPP), "EOPNOTSUPP");
	enum m_effect e;
	ck_assert_int_eq(m_effect_parse(m_effect_str(M_EFF_BOTH_ERR), &e), 0);
	ck_assert_int_eq(e, M_EFF_BOTH_ERR);
	enum m_dev_kind d;
	ck_assert_int_eq(m_dev_kind_parse("WIDEN", &d), 0);
	ck_assert_int_eq(d, M_DEV_WIDEN);
	ck_assert_str_eq(m_rule_status_str(M_NOT_ENCODED), "not encoded");
	enum m_mw_type t;
	ck_assert_int_eq(m_mw_type_parse("2", &t), 0);
	ck_assert_int_eq(t, M_MW_TYPE_2);
}
END_TEST

Suite *suite_test_model_obj(void)
{
	Suite *s = suite_create("model_obj");
	TCase *tc = tcase_create("objects");

	RTEST(tc, PD_2, test_PD_2_dealloc_unreferenced);
	RTEST(tc, PD_3, test_PD_3_dealloc_busy_multi_node);
	RTEST(tc, MR_ACC_1, test_MR_ACC_1_remote_write_needs_local_write);
	RTEST(tc, MR_ACC_2, test_MR_ACC_2_local_read_only_and_remote_read);
	RTEST(tc, MR_ACC_3, test_MR_ACC_3_unknown_bits);
	RTEST(tc, MR_ACC_4, test_MR_ACC_4_optional_bits_cleared);
	RTEST(tc, MR_ACC_5, test_MR_ACC_5_driver_flags);
	RTEST(tc, MR_ACC_6, test_MR_ACC_6_flush_persistent);
	RTEST(tc, MR_LEN_1, test_MR_LEN_1_zero_length);
	RTEST(tc, MR_LEN_2, test_MR_LEN_2_wraps);
	RTEST(tc, MR_ADDR_1, test_MR_ADDR_1_unaligned_exact_range);
	RTEST(tc, MR_ADDR_2, test_MR_ADDR_2_iova_page_offset);
	RTEST(tc, MR_ADDR_3, test_MR_ADDR_3_zero_based);
	RTEST(tc, MR_MAP_1, test_MR_MAP_1_unmapped);
	RTEST(tc, MR_MAP_2, test_MR_MAP_2_read_only_pages);
	RTEST(tc, MR_MAP_2, test_MR_MAP_2_prot_none_pages);
	RTEST(tc, MR_KEY_1, test_MR_KEY_1_keys_distinct);
	RTEST(tc, MR_KEY_1, test_MR_KEY_1_two_registrations_one_buffer);
	RTEST(tc, MR_DEREG_1, test_MR_DEREG_1_keys_die);
	RTEST(tc, MR_DEREG_2, test_MR_DEREG_2_bound_window);
	RTEST(tc, MW_ALLOC_1, test_MW_ALLOC_1_bad_type);
	RTEST(tc, MW_ALLOC_3, test_MW_ALLOC_3_holds_pd);
	RTEST(tc, QP_CONN_1, test_QP_CONN_1_connect);
	tcase_add_test(tc, test_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

/* Unit tests of the model: work requests, the responder's checks, windows, errors. */
#include "tests/unit/model_fx.h"

#define W(off, len) op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, off, len)
#define R(off, len) op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, off, len)

static int fx_mw(struct fx *f, int node, int pd, int type)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_ALLOC_MW, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.mw_type = (uint32_t)type }, ok_());
}

static struct m_op op_bind(struct fx *f, int node, int mw, int qp, int mr, uint64_t off, uint64_t len,
			   uint32_t access)
{
	return (struct m_op){ .kind = M_OP_BIND_MW, .node = (uint8_t)node, .obj = (int16_t)mw, .verbs.qp = (int16_t)qp,
			      .verbs.mr = (int16_t)mr, .verbs.offset = f->m.node[node].mr[mr].iova + off, .verbs.len = len,
			      .verbs.access = access };
}

/* An rdma op from node 0's QP against node 1's window mw. */
static struct m_op op_via_mw(struct fx *f, enum m_op_kind k, struct pair s, int mw, uint64_t raddr, uint64_t len)
{
	struct m_op op = op_rdma(f, k, 0, s.qa, s.ma, 0, 1, s.mb, 0, len);

	op.verbs.rkey = f->m.node[1].mw[mw].rkey;
	op.verbs.raddr = raddr;
	return op;
}

#define MWB (M_ACC_LOCAL_WRITE | M_ACC_MW_BIND | M_ACC_REMOTE_READ)


/* A SEND (a receive) of len bytes from (into) MR mr's first byte, on node's qp. */
static struct m_op op_send(struct fx *f, int node, int qp, int mr, uint64_t len)
{
	return (struct m_op){ .kind = M_OP_SEND, .node = (uint8_t)node, .obj = (int16_t)qp, .verbs.len = len,
			      .verbs.lkey = f->m.node[node].mr[mr].lkey, .verbs.laddr = model_mr_laddr(&f->m, (unsigned)node, mr, 0) };
}

static struct m_op op_recv(struct fx *f, int node, int qp, int mr, uint64_t len)
{
	struct m_op op = op_send(f, node, qp, mr, len);

	op.kind = M_OP_RECV;
	return op;
}

START_TEST(test_RA_KEY_1_unknown_and_tampered_rkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	w.verbs.rkey += 1000;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_KEY_1));
	/* An lkey is not an rkey. */
	w = W(0, 8);
	w.verbs.rkey = f.m.node[1].mr[s.mb].lkey;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_PD_1_other_pd)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 1), other = fx_mr(&f, 1, pd2, 4096, RW);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, other, 0, 8);
	struct m_pred pr = fx_predict(&f, w);

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_PD_1));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_PD_4_lkey_of_other_pd)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 0), foreign = fx_mr(&f, 0, pd2, 4096, RW);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, s.qa, foreign, 0, 1, s.mb, 0, 8);
	struct m_pred pr = fx_predict(&f, w);

	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_PD_4));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ACC_1_missing_right_each_op)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 1, s.pb, 4096, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_READ);
	int wo = fx_mr(&f, 1, s.pb, 4096, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_WRITE);

	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, ro, 0, 64));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ACC_1));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, wo, 0, 64)),
			  wc_(M_WC_REM_ACCESS_ERR)));
	struct m_op cas = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, wo, 0, 8);
	ck_assert(fx_only(fx_predict(&f, cas), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, ro, 0, 64)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_KEY_2_local_only_rkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	int local = fx_mr(&f, 1, s.pb, 4096, M_ACC_LOCAL_WRITE);
	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, local, 0, 8));

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MR_KEY_2));
	ck_assert(fx_only(fx_predict(&f, R(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MR_KEY_3_stale_key_stays_stale)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	fx_do(&f, op_obj(M_OP_DEREG_MR, 1, s.mb), ok_());
	for (int i = 0; i < 20; i++)
		fx_mr(&f, 1, s.pb, 64, RW); /* new registrations never reuse the key */
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MR_KEY_3));
	int fresh = fx_mr(&f, 1, s.pb, 64, RW);
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, fresh, 0, 8)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_BND_1_bounds_exact)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	ck_assert(fx_only(fx_predict(&f, W(4088, 8)), wc_(M_WC_SUCCESS)));
	struct m_pred pr = fx_predict(&f, W(4092, 8));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_BND_1));
	struct m_op w = W(0, 8);
	w.verbs.raddr -= 8; /* before the start */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	w.verbs.raddr = UINT64_MAX - 3; /* wraps: must not pass */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ZERO_1_zero_length_ignores_key)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 0);

	w.verbs.rkey = 0xdead;
	w.verbs.raddr = 0;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_ZERO_1));
	w.verbs.len = 1;
	w.verbs.lkey = f.m.node[0].mr[s.ma].lkey;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_LEN_1_over_2g)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	w.verbs.len = (1ull << 31) + 1;
	w.verbs.lkey = 0; /* the responder check comes first for READ */
	w.kind = M_OP_READ;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_LEN_1));
	ck_assert(fx_only(fx_predict(&f, R(0, 4096)), wc_(M_WC_SUCCESS)));
	/* rxe 6.1 has no RETH length check: the bounds check refuses it. */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_LEN_1));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_BOTH_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_QP_1_responder_qp_access)
{
	struct fx f;
	int pa, pb, ma, mb, qa, qb;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	pb = fx_pd(&f, 1);
	ma = fx_mr(&f, 0, pa, 64, RW);
	mb = fx_mr(&f, 1, pb, 64, RW);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	qb = fx_qp(&f, 1, pb, M_ACC_REMOTE_READ);
	fx_connect(&f, 0, qa, 1, qb);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8);
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)) && fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_QP_1));
	w.kind = M_OP_READ;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	w.kind = M_OP_WRITE;
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_REM_INV_REQ_ERR))); /* F */
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_2_requester_err_then_flush)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op bad = W(0, 8);

	bad.verbs.rkey ^= 0x5a5a;
	struct m_pred pr = fx_predict(&f, bad);
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ERR_2));
	fx_do(&f, bad, wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	pr = fx_predict(&f, W(0, 8));
	ck_assert(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)));
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_3_responder_err_and_recv_flush)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op recv = op_recv(&f, 1, s.qb, s.mb, 64);

	fx_do(&f, recv, ok_());
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 1);
	struct m_op bad = W(4000, 200);
	ck_assert(fx_rule(fx_predict(&f, bad), wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ERR_3));
	fx_do(&f, bad, wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 0); /* flushed */
	/* A local error leaves the responder alone. */
	model_free(&f.m);
	struct pair t = fx_pair(&f, "generic", 2);
	struct m_op lbad = op_rdma(&f, M_OP_WRITE, 0, t.qa, t.ma, 0, 1, t.mb, 0, 8);
	lbad.verbs.lkey += 77;
	fx_do(&f, lbad, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, t.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, t.qb), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

/* RDMA WRITE with immediate: without a posted receive, RNR (before the rkey is
 * looked at); with one, the rights and bounds of a WRITE, and on success the
 * bytes land and the receive is used up, completing SUCCESS at the peer. */
START_TEST(test_RA_WRITE_2_write_imm_consumes_a_receive)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op wi = W(64, 16), recv = op_recv(&f, 1, s.qb, s.mb, 8);
	uint8_t want[16];

	wi.kind = M_OP_WRITE_IMM;
	wi.verbs.rkey += 5; /* a bad rkey too: the missing receive comes first */
	struct m_pred pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_RNR_RETRY_EXC_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_RNR_RETRY_EXC_ERR), M_RULE_RA_WRITE_2));
	fx_do(&f, recv, ok_());
	pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	wi.verbs.rkey -= 5;
	pr = fx_predict(&f, wi);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(pr.alt[0].peer_recv, M_WC_SUCCESS);
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_WRITE_2));
	/* The receive's 8-byte SGE is not used: 16 bytes land in the target. */
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x3a, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, wi, wc_(M_WC_SUCCESS));
	memset(want, 0x3a, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 64, want, 16), -1);
	ck_assert_uint_eq(f.m.node[1].qp[s.qb].nrecv, 0);
	ck_assert(fx_only(fx_predict(&f, wi), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	model_free(&f.m);
}
END_TEST

/* IBV_SEND_INLINE: the lkey is never looked at, the bytes are the memory at
 * the address (a deregistered buffer's too); longer than the max_inline_data
 * the QP asked for: EINVAL at the post, or on when the provider gave more. */
START_TEST(test_LP_3_inline_skips_the_lkey)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 16);
	uint8_t want[16];

	w.verbs.lkey += 99;
	ck_assert(fx_rule(fx_predict(&f, w), wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_1));
	w.verbs.send_inline = 1;
	/* The QP asked for no inline data: EINVAL, or a provider's larger limit. */
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_LP_7));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_LP_3));
	/* A QP with 64 bytes of inline data. */
	int qa = fx_do(&f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)s.pa,
					  .verbs.access = QP_ALL, .verbs.max_inline = 64 }, ok_());
	int qb = fx_qp(&f, 1, s.pb, QP_ALL);
	fx_connect(&f, 0, qa, 1, qb);
	w.obj = (int16_t)qa;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	/* The buffer's registration is gone: its bytes are still there. */
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x2b, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, s.ma), ok_());
	fx_do(&f, w, wc_(M_WC_SUCCESS));
	memset(want, 0x2b, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, want, 16), -1);
	/* Longer than 64: EINVAL at the post, or on. */
	w.verbs.len = 65;
	ck_assert(fx_has(fx_predict(&f, w), err_(EINVAL)));
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CREATE_QP, .node = 0,
		.verbs.pd = (int16_t)s.pa, .verbs.max_inline = M_INLINE_MAX + 1 }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* Generic profile, two nodes: a PD, a 4 KiB RW MR and a QP of type and
 * access each, not connected. */
static struct pair pair_apart(struct fx *f, uint32_t access, uint8_t type)
{
	struct pair s;

	fx_init(f, 2, "generic");
	s.pa = fx_pd(f, 0);
	s.pb = fx_pd(f, 1);
	s.ma = fx_mr(f, 0, s.pa, 4096, RW);
	s.mb = fx_mr(f, 1, s.pb, 4096, RW);
	s.qa = fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 0, .verbs.pd = (int16_t)s.pa,
				       .verbs.access = access, .verbs.qp_type = type }, ok_());
	s.qb = fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = 1, .verbs.pd = (int16_t)s.pb,
				       .verbs.access = access, .verbs.qp_type = type }, ok_());
	return s;
}

/* Connected with max_dest_rd_atomic 0: READ and atomics (even a zero-length
 * READ: resources come before the length) are invalid requests, WRITE works. */
START_TEST(test_RA_RES_1_no_read_atomic_resources)
{
	struct fx f;
	struct pair s = pair_apart(&f, QP_ALL, M_QPT_RC);
	int ma = s.ma, mb = s.mb, qa = s.qa, qb = s.qb;

	fx_do(&f, (struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)qa, .verbs.peer_node = 1,
				 .verbs.peer_qp = (int16_t)qb, .verbs.no_rd_atomic = 1 }, ok_());
	struct m_pred pr = fx_predict(&f, op_rdma(&f, M_OP_READ, 0, qa, ma, 0, 1, mb, 0, 0));
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_RA_RES_1));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_FADD, 0, qa, ma, 0, 1, mb, 0, 8)), wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 1, mb, 0, 8)), wc_(M_WC_SUCCESS)));
	fx_do(&f, op_rdma(&f, M_OP_READ, 0, qa, ma, 0, 1, mb, 0, 8), wc_(M_WC_REM_INV_REQ_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

/* Two nodes with a connected UC QP pair (access REMOTE_WRITE) and a 4 KiB RW MR each. */
static struct pair uc_pair(struct fx *f)
{
	struct pair s = pair_apart(f, M_ACC_REMOTE_WRITE, M_QPT_UC);

	fx_connect(f, 0, s.qa, 1, s.qb);
	return s;
}

/* No READ or atomics on UC: EINVAL at the post or LOC_QP_OP_ERR (QP to ERR). */
START_TEST(test_RA_ATOM_4_no_read_or_atomics_on_uc)
{
	struct fx f;
	struct pair s = uc_pair(&f);
	struct m_pred pr = fx_predict(&f, R(0, 8));

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) && pr.n == 2);
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_RA_ATOM_4));
	ck_assert(fx_has(fx_predict(&f, op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 0, 8)), err_(EINVAL)));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	/* A UC QP connects only to a UC QP. */
	int rc_q = fx_qp(&f, 1, s.pb, QP_ALL);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_CONNECT, .node = 0, .obj = (int16_t)s.qa,
		.verbs.peer_node = 1, .verbs.peer_qp = (int16_t)rc_q }, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* UC: what the responder refuses is dropped; the requester completes SUCCESS,
 * nothing lands, both QPs stay RTS. A SEND without a receive is dropped too. */
START_TEST(test_RA_UC_1_refused_writes_are_dropped)
{
	struct fx f;
	struct pair s = uc_pair(&f);
	struct m_op bad = W(0, 16);
	uint8_t zero[16] = { 0 };

	bad.verbs.rkey += 3;
	struct m_pred pr = fx_predict(&f, bad);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_UC_1));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_NONE);
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.ma, .verbs.byte = 0x77, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, bad, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, zero, 16), -1);
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	/* Past the end: dropped as well. */
	ck_assert(fx_rule(fx_predict(&f, W(4090, 16)), wc_(M_WC_SUCCESS), M_RULE_RA_UC_1));
	/* A SEND with no receive posted: no RNR on UC. */
	struct m_op send = W(0, 16);
	send.kind = M_OP_SEND;
	ck_assert(fx_rule(fx_predict(&f, send), wc_(M_WC_SUCCESS), M_RULE_RA_UC_1));
	/* A good WRITE lands. */
	fx_do(&f, W(0, 16), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, zero, 16), 0);
	model_free(&f.m);
}
END_TEST

/* SEND_WITH_IMM is a SEND for memory: it consumes a receive and lands there;
 * with SEND_WITH_INV as well it is malformed. */
START_TEST(test_send_with_imm_is_a_send)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op send = W(0, 16), recv = op_recv(&f, 1, s.qb, s.mb, 64);
	struct m_pred pr;

	send.kind = M_OP_SEND;
	send.verbs.with_imm = 1;
	ck_assert(fx_only(fx_predict(&f, send), wc_(M_WC_RNR_RETRY_EXC_ERR)));
	fx_do(&f, recv, ok_());
	ck_assert(fx_only(fx_predict(&f, send), wc_(M_WC_SUCCESS)));
	send.verbs.with_inv = 1;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &send, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_1_nak_mapping)
{
	struct fx f;
	struct pair s = fx_pair(&f, "rxe", 2);
	struct m_op bad = W(0, 8);

	bad.verbs.rkey += 1;
	ck_assert(fx_rule(fx_predict(&f, bad), wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ERR_1));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ERR_5_post_to_err_qp)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	fx_do(&f, (struct m_op){ .kind = M_OP_MODIFY_QP, .node = 0, .obj = (int16_t)s.qa, .verbs.qp_state = M_QPS_ERR },
	      ok_());
	struct m_pred pr = fx_predict(&f, W(0, 8));
	ck_assert(fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)) && fx_has(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, wc_(M_WC_WR_FLUSH_ERR), M_RULE_RA_ERR_5));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_WR_FLUSH_ERR)));
	model_free(&f.m);
}
END_TEST

/* ibv_post_recv on a QP in ERR answers ok (the receive is flushed later) or an
 * errno, under every profile: rxe's send-queue deviation (WR_FLUSH_ERR at the
 * step) does not reach the receive queue (rxe 6.1.0-56 answered ok). */
START_TEST(test_RA_ERR_5_recv_on_err_qp_is_never_a_completion)
{
	static const char *const profiles[] = { "generic", "rxe" };

	for (unsigned i = 0; i < 2; i++) {
		struct fx f;
		struct pair s = fx_pair(&f, profiles[i], 2);
		struct m_op recv = op_recv(&f, 0, s.qa, s.ma, 8);

		struct m_op err = { .kind = M_OP_MODIFY_QP, .node = 0, .obj = (int16_t)s.qa, .verbs.qp_state = M_QPS_ERR };
		fx_do(&f, err, ok_());
		struct m_pred pr = fx_predict(&f, recv);
		ck_assert_msg(fx_has(pr, ok_()) && fx_has(pr, err_(EINVAL)), "%s", profiles[i]);
		ck_assert_msg(!fx_has(pr, wc_(M_WC_WR_FLUSH_ERR)), "%s", profiles[i]);
		ck_assert(fx_rule(pr, ok_(), M_RULE_RA_ERR_5));
		model_free(&f.m);
	}
}
END_TEST

START_TEST(test_QP_STATE_1_post_below_rts)
{
	struct fx f;
	int pa, ma, qa;

	fx_init(&f, 2, "generic");
	pa = fx_pd(&f, 0);
	ma = fx_mr(&f, 0, pa, 64, RW);
	qa = fx_qp(&f, 0, pa, QP_ALL);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, qa, ma, 0, 0, ma, 0, 8);
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_only(pr, err_(EINVAL)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_QP_STATE_1));
	struct m_op recv = { .kind = M_OP_RECV, .node = 0, .obj = (int16_t)qa, .verbs.len = 8, .verbs.lkey = w.verbs.lkey,
			     .verbs.laddr = w.verbs.laddr };
	ck_assert(fx_only(fx_predict(&f, recv), err_(EINVAL))); /* RESET */
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_1_bad_lkey_and_range)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 8);

	w.verbs.lkey ^= 0x77;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_LOC_PROT_ERR)) && fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_LP_1));
	w = W(0, 8);
	w.verbs.laddr += 4092; /* the SGE runs off the local MR */
	ck_assert(!fx_has(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	w = W(0, 8);
	w.verbs.lkey ^= 0x77;
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_LOC_QP_OP_ERR))); /* F */
	w = W(0, 8);
	w.verbs.laddr += 4092; /* out of range on 6.1: -EFAULT, LOC_PROT_ERR (oracle self-test) */
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_LOC_PROT_ERR)));
	f.p.kernel = KVER(6, 8); /* newer kernels: no declared deviation for the range */
	ck_assert(fx_has(fx_predict(&f, w), wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(fx_only(fx_predict(&f, W(0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_2_zero_length_sge)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op w = W(0, 0);

	w.verbs.lkey = 0xbad;
	struct m_pred pr = fx_predict(&f, w);
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_has(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_2));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, w), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_6_read_into_read_only)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 0, s.pa, 4096, M_ACC_REMOTE_READ);
	struct m_op r = op_rdma(&f, M_OP_READ, 0, s.qa, ro, 0, 1, s.mb, 0, 64);
	struct m_pred pr = fx_predict(&f, r);

	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_6));
	ck_assert(fx_only(fx_predict(&f, R(0, 64)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_6_atomic_result_into_read_only)
{
	/* The responder executes the atomic before the requester finds that it
	 * cannot write the result: the target changes, the local buffer not. */
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 0, s.pa, 4096, 0);
	struct m_op c = op_rdma(&f, M_OP_FADD, 0, s.qa, ro, 0, 1, s.mb, 8, 8);

	c.verbs.swap = 5;
	f.m.node[0].mr[ro].bytes[0] = 0x77;
	f.m.node[1].mr[s.mb].bytes[8] = 2;
	struct m_pred pr = fx_predict(&f, c);
	ck_assert(fx_only(pr, wc_(M_WC_LOC_PROT_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_PROT_ERR), M_RULE_LP_6));
	ck_assert(pr.alt[0].remote_done);
	fx_do(&f, c, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_uint_eq(f.m.node[1].mr[s.mb].bytes[8], 7);
	ck_assert_uint_eq(f.m.node[0].mr[ro].bytes[0], 0x77);
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	/* A READ into the same buffer leaves the responder's memory alone. */
	model_free(&f.m);
	s = fx_pair(&f, "generic", 2);
	ro = fx_mr(&f, 0, s.pa, 4096, 0);
	pr = fx_predict(&f, op_rdma(&f, M_OP_READ, 0, s.qa, ro, 0, 1, s.mb, 0, 8));
	ck_assert(!pr.alt[0].remote_done);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_READ_1_local_error_leaves_responder)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op r = R(0, 64);

	r.verbs.lkey += 99;
	ck_assert(fx_rule(fx_predict(&f, r), wc_(M_WC_LOC_PROT_ERR), M_RULE_RA_READ_1));
	fx_do(&f, r, wc_(M_WC_LOC_PROT_ERR));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_1_misaligned)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op c = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 4, 8);
	struct m_pred pr = fx_predict(&f, c);

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_RA_ATOM_1));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, c), err_(EINVAL)));
	fx_do(&f, c, err_(EINVAL));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS); /* nothing was posted */
	c = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 8, 8);
	ck_assert(fx_only(fx_predict(&f, c), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_2_sge_length)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op c = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, s.mb, 0, 4);
	struct m_pred pr = fx_predict(&f, c);

	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_LOC_LEN_ERR)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_RA_ATOM_2));
	c.verbs.len = 8;
	ck_assert(fx_only(fx_predict(&f, c), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_ATOM_3_cas_and_fadd_values)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op fill = op_obj(M_OP_FILL, 1, s.mb);
	uint8_t real[8];

	fill.verbs.byte = 1;
	fx_do(&f, fill, ok_());
	struct m_op fa = op_rdma(&f, M_OP_FADD, 0, s.qa, s.ma, 0, 1, s.mb, 8, 8);
	fa.verbs.swap = 0x10;
	ck_assert(fx_rule(fx_predict(&f, fa), wc_(M_WC_SUCCESS), M_RULE_RA_ATOM_3));
	fx_do(&f, fa, wc_(M_WC_SUCCESS));
	memset(real, 1, 8);
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 0, real, 8), -1); /* the old value came back */
	real[0] = 0x11;
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 8, real, 8), -1); /* 0x0101..01 + 0x10 */
	struct m_op cas = op_rdma(&f, M_OP_CAS, 0, s.qa, s.ma, 0, 1, s.mb, 8, 8);
	cas.verbs.compare = 0;
	cas.verbs.swap = 42;
	fx_do(&f, cas, wc_(M_WC_SUCCESS)); /* no match: unchanged */
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 8, real, 8), -1);
	cas.verbs.compare = 0x0101010101010111ull;
	fx_do(&f, cas, wc_(M_WC_SUCCESS));
	uint8_t swapped[8] = { 42 };
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 8, swapped, 8), -1);
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 0, real, 8), -1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RA_WRITE_1_failed_write_target)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	uint8_t junk[96];

	fx_do(&f, W(4000, 200), wc_(M_WC_REM_ACCESS_ERR));
	ck_assert(fx_rule(fx_predict(&f, W(4000, 200)), wc_(M_WC_WR_FLUSH_ERR), M_RULE_RA_ERR_5));
	memset(junk, 0xee, sizeof(junk));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 4000, junk, 96), -1); /* unspecified */
	model_free(&f.m);
	struct pair t = fx_pair(&f, "rxe", 2);
	struct m_op w = op_rdma(&f, M_OP_WRITE, 0, t.qa, t.ma, 0, 1, t.mb, 4000, 200);
	ck_assert(fx_rule(fx_predict(&f, w), wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_WRITE_1));
	fx_do(&f, w, wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, t.mb, 4000, junk, 96), 0); /* rxe: unchanged */
	model_free(&f.m);
}
END_TEST

START_TEST(test_write_read_contents)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 3);
	struct m_op fill = op_obj(M_OP_FILL, 0, s.ma);
	uint8_t want[4096];

	fill.verbs.byte = 0xab;
	fx_do(&f, fill, ok_());
	fx_do(&f, W(0, 4096), wc_(M_WC_SUCCESS));
	memset(want, 0xab, sizeof(want));
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, want, 4096), -1);
	want[100] = 0;
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, want, 4096), 100);
	fill.verbs.byte = 0;
	fx_do(&f, fill, ok_());
	fx_do(&f, R(0, 4096), wc_(M_WC_SUCCESS));
	want[100] = 0xab;
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 0, want, 4096), -1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_4_receive_buffer_without_local_write)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int ro = fx_mr(&f, 1, s.pb, 64, M_ACC_REMOTE_READ);

	fx_do(&f, op_recv(&f, 1, s.qb, ro, 64), ok_());
	struct m_pred pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 16));
	ck_assert(fx_only(pr, wc_(M_WC_REM_OP_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_OP_ERR), M_RULE_LP_4));
	ck_assert_uint_eq(pr.n, 2); /* responder: LOC_PROT_ERR or LOC_QP_OP_ERR */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 16));
	ck_assert_uint_eq(pr.n, 1);
	ck_assert_int_eq(pr.alt[0].peer_recv, M_WC_LOC_QP_OP_ERR);
	fx_do(&f, op_send(&f, 0, s.qa, s.ma, 16), wc_(M_WC_REM_OP_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_5_send_longer_than_receive)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 4), ok_());
	struct m_pred pr = fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 64));
	ck_assert(fx_only(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_LP_5));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 64)), wc_(M_WC_REM_OP_ERR))); /* F */
	ck_assert(fx_only(fx_predict(&f, op_send(&f, 0, s.qa, s.ma, 4)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_LP_7_receive_queue_full)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);

	struct m_pred pr;

	/* Up to the depth asked for (default 16) every post is accepted. */
	for (int i = 0; i < M_RECV_DEPTH_DEFAULT; i++) {
		ck_assert(fx_only(fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8)), ok_()));
		fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 8), ok_());
	}
	/* Beyond it the provider may have rounded the queue up, to less than twice. */
	for (int i = M_RECV_DEPTH_DEFAULT; i < 2 * M_RECV_DEPTH_DEFAULT; i++) {
		pr = fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8));
		ck_assert(fx_has(pr, ok_()) && fx_has(pr, err_(ENOMEM)));
		fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 8), ok_());
	}
	pr = fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8));
	ck_assert(fx_only(pr, err_(ENOMEM)));
	ck_assert(fx_rule(pr, err_(ENOMEM), M_RULE_LP_7));
	fx_do(&f, op_send(&f, 0, s.qa, s.ma, 8), wc_(M_WC_SUCCESS)); /* consumes one */
	ck_assert(fx_has(fx_predict(&f, op_recv(&f, 1, s.qb, s.mb, 8)), ok_()));
	model_free(&f.m);
	/* A QP that asks for a depth of 2. */
	s = fx_pair(&f, "generic", 2);
	struct m_op cq = { .kind = M_OP_CREATE_QP, .node = 1, .verbs.pd = (int16_t)s.pb, .verbs.access = QP_ALL,
			   .verbs.max_recv_wr = 2 };
	int q2 = fx_do(&f, cq, ok_());
	fx_connect(&f, 0, fx_qp(&f, 0, s.pa, QP_ALL), 1, q2);
	fx_do(&f, op_recv(&f, 1, q2, s.mb, 8), ok_());
	fx_do(&f, op_recv(&f, 1, q2, s.mb, 8), ok_());
	ck_assert(fx_has(fx_predict(&f, op_recv(&f, 1, q2, s.mb, 8)), err_(ENOMEM)));
	cq.verbs.max_recv_wr = M_RECV_DEPTH_MAX + 1; /* beyond what the language lets a QP ask for */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &cq, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ALLOC_2_unbound_window_grants_nothing)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mw = fx_mw(&f, 1, s.pb, 1);
	struct m_pred pr = fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, model_mr_raddr(&f.m, 1, s.mb, 0), 8));

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MW_ALLOC_2));
	model_free(&f.m);
}
END_TEST

/* Node 1 has an MR with MW_BIND and a bound type-1 window over its first 1 KiB. */
#define MW1_SETUP(profile)                                                                  \
	struct fx f;                                                                        \
	struct pair s = fx_pair(&f, profile, 2);                                            \
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB);                                             \
	int mw = fx_mw(&f, 1, s.pb, 1);                                                     \
	fx_do(&f, op_bind(&f, 1, mw, s.qb, mr, 0, 1024, M_ACC_REMOTE_READ), wc_(M_WC_SUCCESS))

START_TEST(test_MW_ACC_1_access_through_window)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_pred pr = fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, base + 8, 8));

	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_ACC_1));
	/* The window has no REMOTE_WRITE though the MR has LOCAL_WRITE. */
	ck_assert(fx_only(fx_predict(&f, op_via_mw(&f, M_OP_WRITE, s, mw, base + 8, 8)), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ACC_2_outside_window_inside_mr)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, base + 2048, 8);
	struct m_pred pr = fx_predict(&f, r);

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_MW_ACC_2));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, r);
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_has(pr, wc_(M_WC_REM_ACCESS_ERR)));
	/* Outside the MR too: refused everywhere. */
	r.verbs.raddr = base + 4096;
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_KEY_1_rebind_kills_old_rkey)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op old = op_via_mw(&f, M_OP_READ, s, mw, base, 8);
	struct m_op bind = op_bind(&f, 1, mw, s.qb, mr, 0, 2048, M_ACC_REMOTE_READ);

	ck_assert(fx_rule(fx_predict(&f, bind), wc_(M_WC_SUCCESS), M_RULE_MW_KEY_1));
	fx_do(&f, bind, wc_(M_WC_SUCCESS));
	ck_assert_uint_ne(f.m.node[1].mw[mw].rkey, old.verbs.rkey);
	ck_assert(fx_only(fx_predict(&f, old), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, base, 8)), wc_(M_WC_SUCCESS)));
	ck_assert_uint_eq(f.m.node[1].mr[mr].nbound, 1);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_1_type1_unbind)
{
	MW1_SETUP("generic");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, base, 8);
	struct m_op unbind = op_bind(&f, 1, mw, s.qb, mr, 0, 0, 0);

	ck_assert(fx_rule(fx_predict(&f, unbind), wc_(M_WC_SUCCESS), M_RULE_MW_INV_1));
	fx_do(&f, unbind, wc_(M_WC_SUCCESS));
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, mr)), ok_())); /* nothing bound */
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_DEALLOC_1_bound_window)
{
	MW1_SETUP("rxe");
	uint64_t base = model_mr_raddr(&f.m, 1, mr, 0);
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, base, 8);
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DEALLOC_MW, 1, mw));

	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MW_DEALLOC_1));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, mr)), err_(EINVAL)));
	fx_do(&f, op_obj(M_OP_DEALLOC_MW, 1, mw), ok_());
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DEREG_MR, 1, mr)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_1_bind_call_on_type2)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 2);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ);

	b.verbs.bind_call = 1; /* the ibv_bind_mw() call */
	ck_assert(fx_rule(fx_predict(&f, b), err_(EINVAL), M_RULE_MW_BIND_1));
	b.verbs.bind_call = 0; /* a bind work request */
	ck_assert(fx_only(fx_predict(&f, b), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_3_mr_of_other_pd)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int pd2 = fx_pd(&f, 1), mr = fx_mr(&f, 1, pd2, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_pred pr = fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ));

	ck_assert(fx_only(pr, err_(EPERM)));
	ck_assert(fx_rule(pr, err_(EPERM), M_RULE_MW_BIND_3));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_RTS);
	int mine = fx_mr(&f, 1, s.pb, 4096, MWB);
	ck_assert(fx_only(fx_predict(&f, op_bind(&f, 1, mw, s.qb, mine, 0, 64, M_ACC_REMOTE_READ)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_5_mr_without_mw_bind)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mw = fx_mw(&f, 1, s.pb, 1);
	struct m_op b = op_bind(&f, 1, mw, s.qb, s.mb, 0, 64, M_ACC_REMOTE_READ);
	struct m_pred pr = fx_predict(&f, b);

	ck_assert(fx_only(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_5));
	fx_do(&f, b, wc_(M_WC_MW_BIND_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_6_write_window_needs_local_write)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, M_ACC_MW_BIND), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_WRITE);

	ck_assert(fx_rule(fx_predict(&f, b), wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_6));
	b.verbs.access = M_ACC_REMOTE_READ;
	ck_assert(fx_only(fx_predict(&f, b), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_7_window_outside_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 1);

	ck_assert(fx_rule(fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 4000, 200, M_ACC_REMOTE_READ)),
			  wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_7));
	ck_assert(fx_only(fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 3896, 200, M_ACC_REMOTE_READ)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_8_type1_zero_based)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ);

	b.verbs.zero_based = 1;
	struct m_pred pr = fx_predict(&f, b);
	ck_assert(fx_has(pr, err_(EINVAL)) && fx_has(pr, wc_(M_WC_MW_BIND_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, err_(EINVAL), M_RULE_MW_BIND_8));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_9_zero_based_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op reg = op_reg(1, s.pb, 4096, MWB);

	reg.verbs.has_iova = 1;
	reg.verbs.iova = 0;
	int mr = fx_do(&f, reg, ok_()), mw = fx_mw(&f, 1, s.pb, 1);
	struct m_pred pr = fx_predict(&f, op_bind(&f, 1, mw, s.qb, mr, 0, 64, M_ACC_REMOTE_READ));
	ck_assert(fx_has(pr, wc_(M_WC_MW_BIND_ERR)) && fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_9));
	model_free(&f.m);
}
END_TEST

/* A type-2 window bound on node 1's QP over node 1's MR. */
#define MW2_SETUP(profile)                                                                  \
	struct fx f;                                                                        \
	struct pair s = fx_pair(&f, profile, 2);                                            \
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB);                                             \
	int mw = fx_mw(&f, 1, s.pb, 2);                                                     \
	struct m_op bind2 = op_bind(&f, 1, mw, s.qb, mr, 0, 1024, M_ACC_REMOTE_READ);       \
	fx_do(&f, bind2, wc_(M_WC_SUCCESS))

START_TEST(test_MW_BIND_10_type2_already_bound)
{
	MW2_SETUP("generic");
	struct m_pred pr = fx_predict(&f, bind2);

	ck_assert(fx_only(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_MW_BIND_ERR), M_RULE_MW_BIND_10));
	struct m_op zero = bind2;
	zero.verbs.len = 0;
	ck_assert(fx_only(fx_predict(&f, zero), wc_(M_WC_MW_BIND_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_BIND_11_failed_bind_changes_nothing)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;

	ck_assert(fx_rule(fx_predict(&f, bind2), wc_(M_WC_MW_BIND_ERR), M_RULE_RA_ERR_2));
	ck_assert(fx_rule(fx_predict(&f, op_bind(&f, 1, fx_mw(&f, 1, s.pb, 2), s.qb, mr, 0, 8, 0)),
			  wc_(M_WC_SUCCESS), M_RULE_MW_BIND_11));
	fx_do(&f, bind2, wc_(M_WC_MW_BIND_ERR));
	ck_assert_uint_eq(f.m.node[1].mw[mw].rkey, rkey);
	ck_assert_uint_eq(f.m.node[1].mw[mw].len, 1024);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_ACC_3_type2_zero_based_and_qp)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 3);
	int mr = fx_mr(&f, 1, s.pb, 4096, MWB), mw = fx_mw(&f, 1, s.pb, 2);
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 1024, 1024, M_ACC_REMOTE_READ);

	b.verbs.zero_based = 1;
	fx_do(&f, b, wc_(M_WC_SUCCESS));
	struct m_pred pr = fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, 1016, 8));
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_ACC_3));
	ck_assert(fx_only(fx_predict(&f, op_via_mw(&f, M_OP_READ, s, mw, 1020, 8)), wc_(M_WC_REM_ACCESS_ERR)));
	/* Type 2: only through the QP the bind was posted on (a third node's QP pair fails). */
	int q3 = fx_qp(&f, 1, s.pb, QP_ALL), p2 = fx_pd(&f, 2), m2 = fx_mr(&f, 2, p2, 64, RW), q2 = fx_qp(&f, 2, p2, QP_ALL);
	fx_connect(&f, 2, q2, 1, q3);
	struct m_op other = op_rdma(&f, M_OP_READ, 2, q2, m2, 0, 1, mr, 0, 8);
	other.verbs.rkey = f.m.node[1].mw[mw].rkey;
	other.verbs.raddr = 0;
	ck_assert(fx_only(fx_predict(&f, other), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

static struct m_op op_linv(struct fx *f, int node, int qp, uint32_t rkey)
{
	(void)f;
	return (struct m_op){ .kind = M_OP_LOCAL_INV, .node = (uint8_t)node, .obj = (int16_t)qp, .verbs.rkey = rkey };
}

START_TEST(test_MW_INV_2_local_and_remote_invalidate)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;
	struct m_op r = op_via_mw(&f, M_OP_READ, s, mw, model_mr_raddr(&f.m, 1, mr, 0), 8);
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, rkey));

	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_MW_INV_2));
	fx_do(&f, op_linv(&f, 1, s.qb, rkey), wc_(M_WC_SUCCESS));
	ck_assert(fx_only(fx_predict(&f, r), wc_(M_WC_REM_ACCESS_ERR)));
	/* Rebind, then the peer invalidates with SEND_WITH_INV. */
	struct m_op b = op_bind(&f, 1, mw, s.qb, mr, 0, 1024, M_ACC_REMOTE_READ);
	fx_do(&f, b, wc_(M_WC_SUCCESS));
	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 64), ok_());
	struct m_op si = op_send(&f, 0, s.qa, s.ma, 8);
	si.verbs.with_inv = 1;
	si.verbs.rkey = f.m.node[1].mw[mw].rkey;
	fx_do(&f, si, wc_(M_WC_SUCCESS));
	ck_assert(!f.m.node[1].mw[mw].bound);
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_3_unbound_type2_panics_rxe_61)
{
	MW2_SETUP("generic");
	uint32_t rkey = f.m.node[1].mw[mw].rkey;

	fx_do(&f, op_linv(&f, 1, s.qb, rkey), wc_(M_WC_SUCCESS));
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, rkey)); /* invalidated twice */
	ck_assert(fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) && fx_has(pr, wc_(M_WC_MW_BIND_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_MW_INV_3));
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, op_linv(&f, 1, s.qb, rkey));
	ck_assert(fx_only(pr, crash_()));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_CRASH);
	fx_do(&f, op_linv(&f, 1, s.qb, rkey), crash_());
	ck_assert(f.m.crashed);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_ALLOC_PD, 0, 0)), crash_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_3_type1_not_invalidatable)
{
	/* A type-1 window cannot be invalidated locally: an error, not a crash. */
	MW1_SETUP("rxe");
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, f.m.node[1].mw[mw].rkey));
	ck_assert(fx_only(pr, wc_(M_WC_LOC_QP_OP_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_MW_INV_3));
	model_free(&f.m);
}
END_TEST

START_TEST(test_MW_INV_4_invalidate_plain_mr)
{
	struct fx f;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_pred pr = fx_predict(&f, op_linv(&f, 1, s.qb, f.m.node[1].mr[s.mb].rkey));

	ck_assert(fx_has(pr, wc_(M_WC_LOC_QP_OP_ERR)) && !fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_LOC_QP_OP_ERR), M_RULE_MW_INV_4));
	fx_do(&f, op_recv(&f, 1, s.qb, s.mb, 64), ok_());
	struct m_op si = op_send(&f, 0, s.qa, s.ma, 8);
	si.verbs.with_inv = 1;
	si.verbs.rkey = f.m.node[1].mr[s.mb].rkey;
	pr = fx_predict(&f, si);
	ck_assert(!fx_has(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_INV_REQ_ERR), M_RULE_MW_INV_4));
	/* rxe 6.1 acknowledges the SEND first (class J): requester SUCCESS,
	 * only the responder goes to ERR, its receive buffer unspecified. */
	ck_assert_int_eq(m_profile_get("rxe", KVER(6, 1), &f.p), 0);
	pr = fx_predict(&f, si);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_PEER_ERR);
	ck_assert_int_eq(pr.alt[0].peer_recv, M_WC_REM_INV_REQ_ERR);
	ck_assert_int_eq(pr.alt[0].peer_state, M_QPS_ERR);
	fx_do(&f, si, wc_(M_WC_SUCCESS));
	ck_assert_int_eq(fx_qps(&f, 0, s.qa), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, s.qb), M_QPS_ERR);
	ck_assert_uint_eq(f.m.node[1].mr[s.mb].unknown[0], 1);
	ck_assert_uint_eq(f.m.node[1].mr[s.mb].unknown[8], 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_three_nodes_one_target_two_writers)
{
	struct fx f;
	int p[3], m[3], qa, qb1, qc, qb2;
	uint8_t want[64];

	fx_init(&f, 3, "rxe");
	for (int i = 0; i < 3; i++) {
		p[i] = fx_pd(&f, i);
		m[i] = fx_mr(&f, i, p[i], 64, RW);
		struct m_op fill = op_obj(M_OP_FILL, i, m[i]);
		fill.verbs.byte = (uint8_t)(0x10 * (i + 1));
		fx_do(&f, fill, ok_());
	}
	qa = fx_qp(&f, 0, p[0], QP_ALL);
	qb1 = fx_qp(&f, 1, p[1], QP_ALL);
	qc = fx_qp(&f, 2, p[2], QP_ALL);
	qb2 = fx_qp(&f, 1, p[1], QP_ALL); /* two QPs of one PD on the target */
	fx_connect(&f, 0, qa, 1, qb1);
	fx_connect(&f, 2, qc, 1, qb2);
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, qa, m[0], 0, 1, m[1], 0, 32), wc_(M_WC_SUCCESS));
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 2, qc, m[2], 0, 1, m[1], 32, 32), wc_(M_WC_SUCCESS));
	memset(want, 0x10, 32);
	memset(want + 32, 0x30, 32);
	ck_assert_int_eq(model_mr_compare(&f.m, 1, m[1], 0, want, 64), -1);
	/* An error on one connection leaves the other alone. */
	fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, qa, m[0], 0, 1, m[1], 60, 8), wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_int_eq(fx_qps(&f, 1, qb1), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, qb2), M_QPS_RTS);
	ck_assert(fx_only(fx_predict(&f, op_rdma(&f, M_OP_READ, 2, qc, m[2], 0, 1, m[1], 0, 8)), wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_post(void)
{
	Suite *s = suite_create("model_post");
	TCase *tc = tcase_create("work requests");

	RTEST(tc, RA_KEY_1, test_RA_KEY_1_unknown_and_tampered_rkey);
	RTEST(tc, RA_PD_1, test_RA_PD_1_other_pd);
	RTEST(tc, PD_4, test_PD_4_lkey_of_other_pd);
	RTEST(tc, RA_ACC_1, test_RA_ACC_1_missing_right_each_op);
	RTEST(tc, MR_KEY_2, test_MR_KEY_2_local_only_rkey);
	RTEST(tc, MR_KEY_3, test_MR_KEY_3_stale_key_stays_stale);
	RTEST(tc, RA_BND_1, test_RA_BND_1_bounds_exact);
	RTEST(tc, RA_ZERO_1, test_RA_ZERO_1_zero_length_ignores_key);
	RTEST(tc, RA_LEN_1, test_RA_LEN_1_over_2g);
	RTEST(tc, RA_QP_1, test_RA_QP_1_responder_qp_access);
	RTEST(tc, RA_ERR_2, test_RA_ERR_2_requester_err_then_flush);
	RTEST(tc, RA_ERR_3, test_RA_ERR_3_responder_err_and_recv_flush);
	RTEST(tc, RA_ERR_1, test_RA_ERR_1_nak_mapping);
	RTEST(tc, RA_ERR_5, test_RA_ERR_5_post_to_err_qp);
	RTEST(tc, RA_WRITE_2, test_RA_WRITE_2_write_imm_consumes_a_receive);
	RTEST(tc, LP_3, test_LP_3_inline_skips_the_lkey);
	RTEST(tc, RA_RES_1, test_RA_RES_1_no_read_atomic_resources);
	RTEST(tc, RA_ATOM_4, test_RA_ATOM_4_no_read_or_atomics_on_uc);
	RTEST(tc, RA_UC_1, test_RA_UC_1_refused_writes_are_dropped);
	tcase_add_test(tc, test_send_with_imm_is_a_send);
	RTEST(tc, RA_ERR_5, test_RA_ERR_5_recv_on_err_qp_is_never_a_completion);
	RTEST(tc, QP_STATE_1, test_QP_STATE_1_post_below_rts);
	RTEST(tc, LP_1, test_LP_1_bad_lkey_and_range);
	RTEST(tc, LP_2, test_LP_2_zero_length_sge);
	RTEST(tc, LP_6, test_LP_6_read_into_read_only);
	RTEST(tc, LP_6, test_LP_6_atomic_result_into_read_only);
	RTEST(tc, RA_READ_1, test_RA_READ_1_local_error_leaves_responder);
	RTEST(tc, RA_ATOM_1, test_RA_ATOM_1_misaligned);
	RTEST(tc, RA_ATOM_2, test_RA_ATOM_2_sge_length);
	RTEST(tc, RA_ATOM_3, test_RA_ATOM_3_cas_and_fadd_values);
	RTEST(tc, RA_WRITE_1, test_RA_WRITE_1_failed_write_target);
	tcase_add_test(tc, test_write_read_contents);
	RTEST(tc, LP_4, test_LP_4_receive_buffer_without_local_write);
	RTEST(tc, LP_5, test_LP_5_send_longer_than_receive);
	RTEST(tc, LP_7, test_LP_7_receive_queue_full);
	RTEST(tc, MW_ALLOC_2, test_MW_ALLOC_2_unbound_window_grants_nothing);
	RTEST(tc, MW_ACC_1, test_MW_ACC_1_access_through_window);
	RTEST(tc, MW_ACC_2, test_MW_ACC_2_outside_window_inside_mr);
	RTEST(tc, MW_KEY_1, test_MW_KEY_1_rebind_kills_old_rkey);
	RTEST(tc, MW_INV_1, test_MW_INV_1_type1_unbind);
	RTEST(tc, MW_DEALLOC_1, test_MW_DEALLOC_1_bound_window);
	RTEST(tc, MW_BIND_1, test_MW_BIND_1_bind_call_on_type2);
	RTEST(tc, MW_BIND_3, test_MW_BIND_3_mr_of_other_pd);
	RTEST(tc, MW_BIND_5, test_MW_BIND_5_mr_without_mw_bind);
	RTEST(tc, MW_BIND_6, test_MW_BIND_6_write_window_needs_local_write);
	RTEST(tc, MW_BIND_7, test_MW_BIND_7_window_outside_mr);
	RTEST(tc, MW_BIND_8, test_MW_BIND_8_type1_zero_based);
	RTEST(tc, MW_BIND_9, test_MW_BIND_9_zero_based_mr);
	RTEST(tc, MW_BIND_10, test_MW_BIND_10_type2_already_bound);
	RTEST(tc, MW_BIND_11, test_MW_BIND_11_failed_bind_changes_nothing);
	RTEST(tc, MW_ACC_3, test_MW_ACC_3_type2_zero_based_and_qp);
	RTEST(tc, MW_INV_2, test_MW_INV_2_local_and_remote_invalidate);
	RTEST(tc, MW_INV_3, test_MW_INV_3_unbound_type2_panics_rxe_61);
	RTEST(tc, MW_INV_3, test_MW_INV_3_type1_not_invalidatable);
	RTEST(tc, MW_INV_4, test_MW_INV_4_invalidate_plain_mr);
	tcase_add_test(tc, test_three_nodes_one_target_two_writers);
	suite_add_tcase(s, tc);
	return s;
}

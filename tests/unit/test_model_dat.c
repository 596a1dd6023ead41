/*
 * Unit tests of the model's uDAPL personality (model/dat/, catalog area
 * C): one test per rule, its allowed and its refused path, and that the
 * verbs rules decide underneath.
 */
#include "tests/unit/model_fx.h"

static inline struct m_outcome dat_(enum m_dat_ret e) { return (struct m_outcome){ M_OUT_DAT, (int32_t)e }; }
static inline struct m_outcome dto_(enum m_dat_dto s) { return (struct m_outcome){ M_OUT_DTO, (int32_t)s }; }

/* Is o the only completion pr allows, the rest being the post-time refusals
 * dat_ep_post_rdma_read/write(3DAT) allow for it (DAT-DTO-5)? */
static int dto_only(struct m_pred pr, struct m_outcome o)
{
	int found = 0;

	for (unsigned i = 0; i < pr.n; i++) {
		struct m_outcome a = pr.alt[i].out;

		if (a.kind == o.kind && a.code == o.code)
			found = 1;
		else if (a.kind != M_OUT_DAT || !fx_rule(pr, a, M_RULE_DAT_DTO_5) ||
			 (a.code != M_DAT_PRIVILEGES_VIOLATION && a.code != M_DAT_PROTECTION_VIOLATION &&
			  a.code != M_DAT_INVALID_PARAMETER))
			return 0;
	}
	return found;
}

#define PRIV_RW (M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_WRITE | M_DAT_PRIV_REMOTE_READ)
#define PRIV_READ (M_DAT_PRIV_LOCAL_READ | M_DAT_PRIV_REMOTE_READ)  /* DAT_MEM_PRIV_READ_FLAG */
#define PRIV_ALL 0x33u                                              /* DAT_MEM_PRIV_ALL_FLAG */

/* Open node's IA and create a PZ there; returns the PZ. */
static int dat_node(struct fx *f, int node)
{
	fx_do(f, (struct m_op){ .kind = M_OP_DAT_IA_OPEN, .node = (uint8_t)node }, ok_());
	return fx_do(f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = (uint8_t)node, .obj = -1 }, ok_());
}

static struct m_op op_lmr(int node, int pz, uint64_t len, uint32_t priv)
{
	return (struct m_op){ .kind = M_OP_DAT_LMR_CREATE, .node = (uint8_t)node, .obj = -1, .dat.pz = (int16_t)pz,
			      .dat.lmr = -1, .dat.len = len, .dat.priv = priv };
}

static int fx_lmr(struct fx *f, int node, int pz, uint64_t len, uint32_t priv)
{
	return fx_do(f, op_lmr(node, pz, len, priv), ok_());
}

static int fx_ep(struct fx *f, int node, int pz, int peer, int ppz)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_DAT_EP_CONNECT, .node = (uint8_t)node, .obj = -1,
				       .dat.pz = (int16_t)pz, .dat.peer_node = (int16_t)peer, .dat.peer_pz = (int16_t)ppz },
		     ok_());
}

/* A DTO on EP ep of node with the local triplet in LMR l+loff and the remote in rnode's LMR r+roff. */
static struct m_op op_dto(struct fx *f, enum m_op_kind k, int node, int ep, int l, uint64_t loff, int rnode, int r,
			  uint64_t roff, uint64_t len)
{
	struct m_op op = { .kind = (uint8_t)k, .node = (uint8_t)node, .obj = (int16_t)ep, .dat.lmr = (int16_t)l,
			   .dat.remote = (int16_t)r, .dat.peer_node = (int16_t)rnode, .dat.len = len, .dat.offset = loff,
			   .dat.roff = roff };

	op.dat.lkey = f->m.node[node].mr[l].lkey;
	op.dat.laddr = model_mr_laddr(&f->m, (unsigned)node, l, loff);
	op.dat.rkey = f->m.node[rnode].mr[r].rkey;
	op.dat.raddr = model_mr_raddr(&f->m, (unsigned)rnode, r, roff);
	return op;
}

/* Two nodes, a PZ each, a source LMR on 0, a read-write target LMR on 1, an EP from 0 to 1. */
struct dpair { int za, zb, src, dst, ep; };
static struct dpair fx_dpair(struct fx *f, const char *profile)
{
	struct dpair s;

	fx_init(f, 2, profile);
	s.za = dat_node(f, 0);
	s.zb = dat_node(f, 1);
	s.src = fx_lmr(f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_WRITE);
	s.dst = fx_lmr(f, 1, s.zb, 4096, PRIV_RW);
	s.ep = fx_ep(f, 0, s.za, 1, s.zb);
	return s;
}

static int qres_mode(const struct m_qres *q, const char *key)
{
	for (unsigned i = 0; i < q->n; i++)
		if (strcmp(q->r[i].key, key) == 0)
			return q->r[i].mode;
	return -1;
}

START_TEST(test_DAT_IA_1_known_and_unknown_names)
{
	struct fx f;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	struct m_op op = { .kind = M_OP_DAT_IA_OPEN, .node = 0, .dat.ia = 1 };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_PROVIDER_NOT_FOUND)));
	ck_assert(fx_rule(pr, dat_(M_DAT_PROVIDER_NOT_FOUND), M_RULE_DAT_IA_1));
	fx_do(&f, op, dat_(M_DAT_PROVIDER_NOT_FOUND));
	ck_assert(!f.m.node[0].dat.ia_open);
	op.dat.ia = 0;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_IA_1));
	fx_do(&f, op, ok_());
	ck_assert(f.m.node[0].dat.ia_open);
	ck_assert_int_eq(f.m.node[0].dat.ia_open, 1 + M_DAT_IA_CMA);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL); /* one IA per node */
	model_free(&f.m);
	fx_init(&f, 1, "generic");
	op.dat.ia = M_DAT_IA_SCM;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	fx_do(&f, op, ok_());
	ck_assert_int_eq(f.m.node[0].dat.ia_open, 1 + M_DAT_IA_SCM);
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_IA_2_calls_before_ia_open)
{
	struct fx f;
	struct m_op op = { .kind = M_OP_DAT_PZ_CREATE, .node = 1, .obj = -1 };

	fx_init(&f, 2, "rxe");
	dat_node(&f, 0);
	struct m_pred pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_IA_2));
	ck_assert_int_eq(fx_do(&f, op, dat_(M_DAT_INVALID_HANDLE)), -1);
	ck_assert_int_eq(f.m.node[1].npd, 0);
	fx_do(&f, (struct m_op){ .kind = M_OP_DAT_IA_OPEN, .node = 1 }, ok_());
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	ck_assert_int_eq(fx_do(&f, op, ok_()), 0);
	ck_assert_int_eq(f.m.node[1].pd[0].api, M_API_DAT);
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_HANDLE_1_freed_objects)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	struct m_pred pr;

	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z2), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z2));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_HANDLE_1));
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep), ok_());
	struct m_op post = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64);
	pr = fx_predict(&f, post);
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_HANDLE_1));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep)), dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep)), dat_(M_DAT_INVALID_HANDLE)));
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, s.src), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_LMR_QUERY, 0, s.src)), dat_(M_DAT_INVALID_HANDLE)));
	/* A live one is answered. */
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_LMR_QUERY, 1, s.dst)), ok_()));
	/* Not a uDAPL object of this node: malformed for the model. */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_DAT_PZ_FREE, .node = 0, .obj = 9 }, &pr),
			 -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_1_bad_pz_and_mem_type)
{
	struct fx f;
	int z, z2;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z2), ok_());
	struct m_pred pr = fx_predict(&f, op_lmr(0, z2, 4096, M_DAT_PRIV_LOCAL_WRITE));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_LMR_1));
	struct m_op op = op_lmr(0, z, 4096, M_DAT_PRIV_LOCAL_WRITE);
	op.dat.mem_type = 7;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_PARAMETER)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_PARAMETER), M_RULE_DAT_LMR_1));
	ck_assert(fx_only(fx_predict(&f, op_lmr(0, z, 4096, M_DAT_PRIV_LOCAL_WRITE)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_2_privileges_to_access)
{
	struct fx f;
	int z, l;
	struct m_pred pr;

	fx_init(&f, 2, "rxe");
	z = dat_node(&f, 0);
	pr = fx_predict(&f, op_lmr(0, z, 4096, M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_LMR_2));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_KEY_1)); /* the verbs registration underneath */
	l = fx_do(&f, op_lmr(0, z, 4096, M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_READ), ok_());
	ck_assert_uint_eq(f.m.node[0].mr[l].access, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_READ);
	ck_assert_uint_eq(f.m.node[0].mr[l].usage, M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_READ);
	ck_assert_int_eq(f.m.node[0].mr[l].api, M_API_DAT);
	ck_assert_uint_eq(f.m.node[0].pd[z].usecnt, 1);
	/* LOCAL_READ gives nothing (always on); unknown bits are dropped. */
	l = fx_lmr(&f, 0, z, 64, M_DAT_PRIV_LOCAL_READ | 0x80);
	ck_assert_uint_eq(f.m.node[0].mr[l].access, 0);
	ck_assert_uint_eq(f.m.node[0].mr[l].usage, M_DAT_PRIV_LOCAL_READ | 0x80);
	/* The IB extension's REMOTE_ATOMIC. */
	l = fx_lmr(&f, 0, z, 64, M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_ATOMIC);
	ck_assert_uint_eq(f.m.node[0].mr[l].access, M_ACC_LOCAL_WRITE | M_ACC_REMOTE_ATOMIC);
	/* The rights are enforced by the verbs responder: REMOTE_READ only refuses a write. */
	int zb = dat_node(&f, 1), src = fx_lmr(&f, 1, zb, 64, M_DAT_PRIV_LOCAL_WRITE);
	int ro = fx_lmr(&f, 0, z, 4096, M_DAT_PRIV_REMOTE_READ);
	int ep = fx_ep(&f, 1, zb, 0, z);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 1, ep, src, 0, 0, ro, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_RA_ACC_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_3_remote_write_without_local_write)
{
	struct fx f;
	int z, l;
	struct m_pred pr;
	struct m_op op;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	op = op_lmr(0, z, 4096, M_DAT_PRIV_REMOTE_WRITE | M_DAT_PRIV_LOCAL_READ);
	pr = fx_predict(&f, op);
	ck_assert_uint_eq(pr.n, 3);
	ck_assert(fx_has(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES)) && fx_has(pr, ok_()) &&
		  fx_has(pr, dat_(M_DAT_INVALID_PARAMETER)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES), M_RULE_DAT_LMR_3));
	ck_assert(fx_rule(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES), M_RULE_MR_ACC_1));
	/* A provider that accepts it adds local write. */
	l = fx_do(&f, op, ok_());
	ck_assert(f.m.node[0].mr[l].access & M_ACC_LOCAL_WRITE);
	/* OFA: the verbs EINVAL is reported as a lack of resources. */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	op.dat.priv = M_DAT_PRIV_REMOTE_ATOMIC;
	ck_assert(fx_only(fx_predict(&f, op), dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	op.dat.priv |= M_DAT_PRIV_LOCAL_WRITE;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_4_other_registration_failures)
{
	struct fx f;
	int z;
	struct m_pred pr;
	struct m_op op;

	fx_init(&f, 1, "rxe");
	z = dat_node(&f, 0);
	pr = fx_predict(&f, op_lmr(0, z, 0, M_DAT_PRIV_LOCAL_WRITE));
	ck_assert(fx_only(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES), M_RULE_DAT_LMR_4));
	ck_assert(fx_rule(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES), M_RULE_MR_LEN_1));
	op = op_lmr(0, z, 0, M_DAT_PRIV_LOCAL_WRITE);
	op.dat.offset = 100; /* one page: a zero-length registration may succeed */
	pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	op = op_lmr(0, z, 4096, M_DAT_PRIV_LOCAL_WRITE);
	op.dat.prot = M_PROT_UNMAPPED;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES), M_RULE_MR_MAP_1));
	op.dat.prot = M_PROT_RO;
	ck_assert(fx_only(fx_predict(&f, op), dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	op.dat.priv = PRIV_READ; /* nothing writable: read-only pages register */
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_5_zero_based_va_type)
{
	struct fx f;
	int z;
	struct m_op op;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	op = op_lmr(0, z, 4096, PRIV_ALL);
	op.dat.zero_based = 1;
	struct m_pred pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_NOT_IMPLEMENTED)));
	ck_assert(fx_rule(pr, dat_(M_DAT_NOT_IMPLEMENTED), M_RULE_DAT_LMR_5));
	op.dat.zero_based = 0;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_6_shared_virtual)
{
	struct fx f;
	int z;
	struct m_op op;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	op = op_lmr(0, z, 4096, M_DAT_PRIV_LOCAL_WRITE);
	op.dat.mem_type = M_DAT_MEM_SHARED_VIRTUAL;
	pr = fx_predict(&f, op);
	ck_assert_uint_eq(pr.n, 3);
	ck_assert(fx_has(pr, ok_()) && fx_has(pr, dat_(M_DAT_NOT_IMPLEMENTED)) &&
		  fx_has(pr, dat_(M_DAT_MODEL_NOT_SUPPORTED)));
	ck_assert(fx_rule(pr, dat_(M_DAT_NOT_IMPLEMENTED), M_RULE_DAT_LMR_6));
	/* OFA runs its shared-memory path and converts the stub's error. */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INSUFFICIENT_RESOURCES), M_RULE_DAT_LMR_6));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_7_lmr_over_lmr)
{
	struct fx f;
	int z, z2, l, l2;
	struct m_op op;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	l = fx_lmr(&f, 0, z, 8192, M_DAT_PRIV_LOCAL_WRITE);
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)l, .verbs.byte = 0x3c, .verbs.len = 8192 },
	      ok_());
	op = op_lmr(0, z2, 1, PRIV_RW); /* the length is ignored */
	op.dat.mem_type = M_DAT_MEM_LMR;
	op.dat.lmr = (int16_t)l;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_LMR_7));
	l2 = fx_do(&f, op, ok_());
	const struct m_mr *a = &f.m.node[0].mr[l], *b = &f.m.node[0].mr[l2];
	ck_assert_uint_eq(b->addr, a->addr); /* the same memory */
	ck_assert_uint_eq(b->len, 8192);
	ck_assert_int_eq(b->pd, z2);         /* its own PZ and privileges */
	ck_assert_uint_eq(b->usage, PRIV_RW);
	ck_assert_uint_eq(b->bytes[100], 0x3c);
	ck_assert_uint_ne(b->lkey, a->lkey);
	/* OFA does not implement it. */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), dat_(M_DAT_NOT_IMPLEMENTED)));
	/* The original must be live. */
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l), ok_());
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_LMR_7));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_8_rmr_context_only_with_remote_privileges)
{
	struct fx f;
	int z;
	struct m_qres q;
	static const uint32_t local[] = { 0, M_DAT_PRIV_LOCAL_READ, M_DAT_PRIV_LOCAL_WRITE, 0x80 };
	static const uint32_t remote[] = { M_DAT_PRIV_REMOTE_READ, PRIV_READ, PRIV_RW,
					   M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_ATOMIC };

	fx_init(&f, 1, "rxe");
	z = dat_node(&f, 0);
	for (unsigned i = 0; i < 4; i++) {
		int l = fx_lmr(&f, 0, z, 64, local[i]);
		struct m_op op = op_obj(M_OP_DAT_LMR_QUERY, 0, l);

		ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_DAT_LMR_8));
		ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
		ck_assert_int_eq(qres_mode(&q, "rmr_context"), M_Q_ZERO);
		ck_assert_int_eq(qres_mode(&q, "lmr_context"), M_Q_ANY);
		ck_assert(model_qres_ok(&q, 1, 0) && !model_qres_ok(&q, 1, 0x1234));
	}
	for (unsigned i = 0; i < 4; i++) {
		int l = fx_lmr(&f, 0, z, 64, remote[i]);
		struct m_op op = op_obj(M_OP_DAT_LMR_QUERY, 0, l);

		ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
		ck_assert_int_eq(qres_mode(&q, "rmr_context"), M_Q_NONZERO);
		ck_assert_int_eq(q.r[1].rule, M_RULE_DAT_LMR_8);
		/* mem_priv: the privileges asked for, exactly. */
		ck_assert_int_eq(qres_mode(&q, "mem_priv"), M_Q_EXACT);
		ck_assert_uint_eq(q.r[4].value, remote[i]);
	}
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_LMR_9_registered_region)
{
	struct fx f;
	int z, l;
	struct m_qres q;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	l = fx_lmr(&f, 0, z, 100, M_DAT_PRIV_LOCAL_WRITE);
	struct m_op op = op_obj(M_OP_DAT_LMR_QUERY, 0, l);
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_DAT_LMR_9));
	ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
	/* The region or a larger one: implementation-defined. */
	ck_assert_int_eq(qres_mode(&q, "registered_size"), M_Q_ANY);
	ck_assert_int_eq(qres_mode(&q, "registered_address"), M_Q_ANY);
	ck_assert_uint_eq(q.r[2].value, 100);
	ck_assert_uint_eq(q.r[3].value, f.m.node[0].mr[l].addr);
	ck_assert_int_eq(q.r[2].rule, M_RULE_DAT_LMR_9);
	/* Not a DAT LMR: no answer. */
	op.obj = 7;
	ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* Bind RMR r of node 0 to LMR l+off (len bytes, privileges priv) through EP ep. */
static struct m_op op_bind(int r, int ep, int l, uint64_t start, uint64_t len, uint32_t priv)
{
	return (struct m_op){ .kind = M_OP_DAT_RMR_BIND, .node = 0, .obj = (int16_t)r, .dat.ep = (int16_t)ep,
			      .dat.lmr = (int16_t)l, .dat.offset = start, .dat.len = len, .dat.priv = priv };
}

START_TEST(test_DAT_FREE_1_free_and_bound_rmrs)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int l = fx_lmr(&f, 0, s.za, 4096, PRIV_ALL);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());
	struct m_pred pr;
	unsigned use = f.m.node[0].pd[s.za].usecnt;

	fx_do(&f, op_bind(r, s.ep, l, f.m.node[0].mr[l].iova, 64, M_DAT_PRIV_REMOTE_READ), dto_(M_DTO_SUCCESS));
	pr = fx_predict(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_STATE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_STATE), M_RULE_DAT_FREE_1));
	fx_do(&f, op_obj(M_OP_DAT_RMR_FREE, 0, r), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_FREE_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_DEREG_1));
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l), ok_());
	ck_assert_uint_eq(f.m.node[0].pd[s.za].usecnt, use - 2); /* the RMR and the LMR */
	pr = fx_predict(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_FREE_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_FREE_2_use_after_free)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	struct m_pred pr;
	struct m_op op;

	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, s.src), ok_());
	op = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64);
	/* The spec: a protection violation, whatever the verbs layer calls it. */
	pr = fx_predict(&f, op);
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_DAT_FREE_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_LP_1));
	/* rxe + OFA: LOC_QP_OP_ERR, mapped to LOCAL_EP (a declared deviation). */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), dto_(M_DTO_ERR_LOCAL_EP)));
	model_free(&f.m);

	/* The remote side: the freed rmr_context, and the connection breaks. */
	s = fx_dpair(&f, "rxe");
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 1, s.dst), ok_());
	op = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64);
	pr = fx_predict(&f, op);
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_DAT_FREE_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_RA_KEY_1));
	fx_do(&f, op, dto_(M_DTO_ERR_REMOTE_ACCESS));
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].conn[s.ep].qp), M_QPS_ERR);
	model_free(&f.m);
	/* A live LMR: no DAT-FREE-2. */
	s = fx_dpair(&f, "rxe");
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(!fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_FREE_2));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_PZ_1_free_while_used)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	struct m_pred pr;

	/* Node 1's PZ is used by its LMR and by the EP that accepted the connection. */
	pr = fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_STATE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_STATE), M_RULE_DAT_PZ_1));
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 1, s.dst), ok_());
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb)), dat_(M_DAT_INVALID_STATE)));
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb), dat_(M_DAT_INVALID_STATE));
	ck_assert(f.m.node[1].pd[s.zb].live); /* it stays */
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep), ok_());
	pr = fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_PD_2));
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 1, s.zb), ok_());
	ck_assert(!f.m.node[1].pd[s.zb].live);
	/* Node 0's still holds the source LMR. */
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 0, s.za)), dat_(M_DAT_INVALID_STATE)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_1_create)
{
	struct fx f;
	int z, z2, r;
	struct m_op op;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	z = dat_node(&f, 0);
	op = (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)z };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_RMR_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MW_ALLOC_2)); /* a window underneath */
	r = fx_do(&f, op, ok_());
	ck_assert_int_eq(f.m.node[0].mw[r].type, M_MW_TYPE_1);
	ck_assert(!f.m.node[0].mw[r].bound);
	ck_assert(fx_only(fx_predict(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z)), dat_(M_DAT_INVALID_STATE)));
	/* OFA: no windows. */
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), dat_(M_DAT_INSUFFICIENT_RESOURCES)));
	/* A freed PZ. */
	z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	fx_do(&f, op_obj(M_OP_DAT_PZ_FREE, 0, z2), ok_());
	op.dat.pz = (int16_t)z2;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_HANDLE)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_HANDLE), M_RULE_DAT_RMR_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_2_bind_checks)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int l = fx_lmr(&f, 0, s.za, 4096, PRIV_ALL);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());
	int z2 = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 0, .obj = -1 }, ok_());
	int l2 = fx_lmr(&f, 0, z2, 4096, PRIV_ALL);
	uint64_t base = f.m.node[0].mr[l].iova;
	struct m_pred pr;

	/* Outside the LMR, or an LMR of another PZ. */
	pr = fx_predict(&f, op_bind(r, s.ep, l, base + 4000, 200, M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_PARAMETER)));
	ck_assert(fx_rule(pr, dat_(M_DAT_INVALID_PARAMETER), M_RULE_DAT_RMR_2));
	pr = fx_predict(&f, op_bind(r, s.ep, l2, f.m.node[0].mr[l2].iova, 64, M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_only(pr, dat_(M_DAT_INVALID_PARAMETER)));
	/* Inside: bound (MW-BIND-11 underneath). */
	pr = fx_predict(&f, op_bind(r, s.ep, l, base, 4096, M_DAT_PRIV_REMOTE_READ));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_MW_BIND_11));
	fx_do(&f, op_bind(r, s.ep, l, base, 4096, M_DAT_PRIV_REMOTE_READ), dto_(M_DTO_SUCCESS));
	ck_assert(f.m.node[0].mw[r].bound);
	/* Length 0 unbinds. */
	fx_do(&f, op_bind(r, s.ep, l, base, 0, 0), dto_(M_DTO_SUCCESS));
	ck_assert(!f.m.node[0].mw[r].bound);
	/* A freed LMR's context is not registered. */
	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, l2), ok_());
	ck_assert(fx_only(fx_predict(&f, op_bind(r, s.ep, l2, 0, 64, 0)), dat_(M_DAT_INVALID_PARAMETER)));
	/* Not CONNECTED: refused, or posted and flushed (the spec allows both). */
	fx_do(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep), ok_());
	pr = fx_predict(&f, op_bind(r, s.ep, l, base, 64, M_DAT_PRIV_REMOTE_READ));
	ck_assert_uint_eq(pr.n, 2);
	ck_assert(fx_has(pr, dat_(M_DAT_INVALID_STATE)) && fx_has(pr, dto_(M_DTO_ERR_FLUSHED)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_3_remote_write_over_lmr_without_local_write)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int l = fx_lmr(&f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_READ | M_DAT_PRIV_REMOTE_READ);
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za },
		      ok_());
	uint64_t base = f.m.node[0].mr[l].iova;
	struct m_pred pr = fx_predict(&f, op_bind(r, s.ep, l, base, 64, M_DAT_PRIV_REMOTE_WRITE));

	ck_assert_uint_eq(pr.n, 2);
	ck_assert(fx_has(pr, dat_(M_DAT_PRIVILEGES_VIOLATION)));
	ck_assert(fx_has(pr, dto_(M_DTO_RMR_OPERATION_FAILED)));
	ck_assert(fx_rule(pr, dat_(M_DAT_PRIVILEGES_VIOLATION), M_RULE_DAT_RMR_3));
	ck_assert(fx_rule(pr, dto_(M_DTO_RMR_OPERATION_FAILED), M_RULE_MW_BIND_6));
	/* A read window over the same LMR is fine. */
	ck_assert(fx_only(fx_predict(&f, op_bind(r, s.ep, l, base, 64, M_DAT_PRIV_REMOTE_READ)), dto_(M_DTO_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_RMR_4_bound_context)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	/* Node 1 binds a window over its target and node 0 writes through it. */
	int r = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_RMR_CREATE, .node = 1, .obj = -1, .dat.pz = (int16_t)s.zb },
		      ok_());
	int back = fx_ep(&f, 1, s.zb, 0, s.za);
	uint64_t base = f.m.node[1].mr[s.dst].iova;
	struct m_op bind = op_bind(r, back, s.dst, base + 1024, 1024, M_DAT_PRIV_REMOTE_WRITE);
	struct m_pred pr;

	bind.node = 1;
	pr = fx_predict(&f, bind);
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_RMR_4));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_MW_KEY_1));
	fx_do(&f, bind, dto_(M_DTO_SUCCESS));
	uint32_t old = f.m.node[1].mw[r].rkey;
	struct m_op w = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 1024, 64);
	w.dat.rkey = old;
	ck_assert(fx_only(fx_predict(&f, w), dto_(M_DTO_SUCCESS)));
	/* Rebinding gives a new context; the old one stops working. */
	fx_do(&f, bind, dto_(M_DTO_SUCCESS));
	ck_assert_uint_ne(f.m.node[1].mw[r].rkey, old);
	ck_assert(dto_only(fx_predict(&f, w), dto_(M_DTO_ERR_REMOTE_ACCESS)));
	/* A bind that fails after the call breaks the connection. */
	int ro = fx_lmr(&f, 1, s.zb, 64, M_DAT_PRIV_REMOTE_READ);
	bind = op_bind(r, back, ro, f.m.node[1].mr[ro].iova, 64, M_DAT_PRIV_REMOTE_WRITE);
	bind.node = 1;
	fx_do(&f, bind, dto_(M_DTO_RMR_OPERATION_FAILED));
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[1].conn[back].qp), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[1].conn[back].peer_qp), M_QPS_ERR);
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_DTO_1_status_mapping)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	int nolw = fx_lmr(&f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_READ);
	struct m_pred pr;

	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.src, .verbs.byte = 0x5a, .verbs.len = 4096 },
	      ok_());
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 4096));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_DTO_1));
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 4096), dto_(M_DTO_SUCCESS));
	ck_assert_uint_eq(f.m.node[1].mr[s.dst].bytes[4095], 0x5a); /* the verbs WRITE moved the bytes */
	/* A read into an LMR without local write: LOC_PROT_ERR -> LOCAL_PROTECTION (LP-6). */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, nolw, 0, 1, s.dst, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_LP_6));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_DAT_DTO_1));
	/* Past the end of the target: REM_ACCESS_ERR -> REMOTE_ACCESS (RA-BND-1). */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, s.src, 0, 1, s.dst, 4064, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_RA_BND_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_DTO_2_zero_length_segment)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	struct m_op op;
	struct m_pred pr;

	fx_do(&f, op_obj(M_OP_DAT_LMR_FREE, 0, s.src), ok_());
	op = op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 0);
	op.dat.rkey = 0;
	/* The verbs layer may validate a zero-length SGE (LP-2); the DAT triplet says: legal. */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_DTO_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_RA_ZERO_1));
	op.dat.len = 1;
	ck_assert(!fx_has(fx_predict(&f, op), dto_(M_DTO_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_DTO_4_error_breaks_the_connection)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int ro = fx_lmr(&f, 1, s.zb, 4096, M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_LOCAL_WRITE);
	int nolw = fx_lmr(&f, 0, s.za, 4096, 0);
	struct m_pred pr;

	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_REMOTE_ACCESS), M_RULE_DAT_DTO_4));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_BOTH_ERR);
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64), dto_(M_DTO_ERR_REMOTE_ACCESS));
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_ERR_FLUSHED)));
	/* A local error breaks it too: the provider disconnects, both sides. */
	int ep2 = fx_ep(&f, 0, s.za, 1, s.zb);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, ep2, nolw, 0, 1, s.dst, 0, 64));
	ck_assert(dto_only(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION), M_RULE_DAT_DTO_4));
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, ep2, nolw, 0, 1, s.dst, 0, 64), dto_(M_DTO_ERR_LOCAL_PROTECTION));
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[0].conn[ep2].peer_qp), M_QPS_ERR);
	/* Success does not. */
	int ep3 = fx_ep(&f, 0, s.za, 1, s.zb);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, ep3, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(!fx_rule(pr, dto_(M_DTO_SUCCESS), M_RULE_DAT_DTO_4));
	model_free(&f.m);
}
END_TEST

/* dat_ep_post_rdma_read/write(3DAT) RETURN VALUES: what the completion would
 * report as a protection or privilege error may be refused at the post
 * instead; nothing moves then and the EP stays connected. A DTO that succeeds
 * or is flushed has no such alternative. */
START_TEST(test_DAT_DTO_5_post_time_refusals)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	int ro = fx_lmr(&f, 1, s.zb, 4096, M_DAT_PRIV_REMOTE_READ | M_DAT_PRIV_LOCAL_WRITE);
	int nolw = fx_lmr(&f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_READ);
	static const enum m_dat_ret post[] = { M_DAT_PRIVILEGES_VIOLATION, M_DAT_PROTECTION_VIOLATION,
					       M_DAT_INVALID_PARAMETER };
	struct m_pred pr;

	/* Remote: an RMR context without remote write. */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64));
	ck_assert(fx_has(pr, dto_(M_DTO_ERR_REMOTE_ACCESS)));
	for (unsigned i = 0; i < 3; i++) {
		ck_assert(fx_rule(pr, dat_(post[i]), M_RULE_DAT_DTO_5));
		ck_assert(fx_rule(pr, dat_(post[i]), M_RULE_RA_ACC_1));
	}
	/* Local: a read into an LMR without local write. */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, nolw, 0, 1, s.dst, 0, 64));
	ck_assert(fx_has(pr, dto_(M_DTO_ERR_LOCAL_PROTECTION)));
	for (unsigned i = 0; i < 3; i++)
		ck_assert(fx_rule(pr, dat_(post[i]), M_RULE_DAT_DTO_5));
	/* Refused at the post: nothing moved, the connection stays. */
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_READ, 0, s.ep, nolw, 0, 1, s.dst, 0, 64), dat_(M_DAT_PRIVILEGES_VIOLATION));
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].conn[s.ep].qp), M_QPS_RTS);
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_SUCCESS)));
	ck_assert(!fx_has(pr, dat_(M_DAT_PRIVILEGES_VIOLATION)));
	/* After a completion error the EP is broken: flushed, never refused. */
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64), dto_(M_DTO_ERR_REMOTE_ACCESS));
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, ro, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_ERR_FLUSHED)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_1_connect)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	const struct m_conn *c = &f.m.node[0].conn[s.ep];
	struct m_pred pr;

	ck_assert(c->live && c->api == M_API_DAT && c->peer_node == 1);
	ck_assert_int_eq(fx_qps(&f, 0, c->qp), M_QPS_RTS);
	ck_assert_int_eq(fx_qps(&f, 1, c->peer_qp), M_QPS_RTS);
	ck_assert_uint_eq(f.m.node[0].qp[c->qp].access, M_ACC_REMOTE_ANY);
	ck_assert_int_eq(f.m.node[1].conn[c->peer_conn].peer_conn, s.ep);
	ck_assert_int_eq(f.m.node[1].qp[c->peer_qp].pd, s.zb);
	struct m_op op = { .kind = M_OP_DAT_EP_CONNECT, .node = 0, .obj = -1, .dat.pz = (int16_t)s.za, .dat.peer_node = 1,
			   .dat.peer_pz = (int16_t)s.zb };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_QP_CONN_1));
	/* Both PZs must be live, on two nodes. */
	op.dat.peer_node = 0;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	op.dat.peer_node = 1;
	op.dat.peer_pz = 5;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_4_private_data)
{
	struct fx f;
	int za, zb, zc;
	struct m_pred pr;

	fx_init(&f, 3, "rxe");
	za = dat_node(&f, 0);
	zb = dat_node(&f, 1);
	fx_do(&f, (struct m_op){ .kind = M_OP_DAT_IA_OPEN, .node = 2, .dat.ia = M_DAT_IA_SCM }, ok_());
	zc = fx_do(&f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = 2, .obj = -1 }, ok_());
	struct m_op op = { .kind = M_OP_DAT_EP_CONNECT, .node = 0, .obj = -1, .dat.pz = (int16_t)za, .dat.peer_node = 1,
			   .dat.peer_pz = (int16_t)zb, .dat.len = M_DAT_PDATA_CMA };
	/* cma: 56 bytes go; more is not predicted. */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_4));
	op.dat.len++;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	/* scm (node 2's IA): 68; more is not predicted either. */
	op = (struct m_op){ .kind = M_OP_DAT_EP_CONNECT, .node = 2, .obj = -1, .dat.pz = (int16_t)zc, .dat.peer_node = 1,
			    .dat.peer_pz = (int16_t)zb, .dat.len = M_DAT_PDATA_SCM };
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_4));
	fx_do(&f, op, ok_());
	ck_assert_int_eq(f.m.node[2].nconn, 1);
	op.dat.len++;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	/* No private data: the rule is not involved. */
	op.dat.len = 0;
	ck_assert(!fx_rule(fx_predict(&f, op), ok_(), M_RULE_DAT_EP_4));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_2_disconnect)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	struct m_pred pr;

	pr = fx_predict(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep));
	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_2));
	fx_do(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep), ok_());
	ck_assert_int_eq(fx_qps(&f, 0, f.m.node[0].conn[s.ep].qp), M_QPS_ERR);
	ck_assert_int_eq(fx_qps(&f, 1, f.m.node[0].conn[s.ep].peer_qp), M_QPS_ERR);
	/* Again: a no-op. */
	pr = fx_predict(&f, op_obj(M_OP_DAT_EP_DISCONNECT, 0, s.ep));
	ck_assert(fx_only(pr, ok_()));
	ck_assert_int_eq(pr.alt[0].effect, M_EFF_NONE);
	/* A DTO on the DISCONNECTED EP is flushed (not refused at the post). */
	pr = fx_predict(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 64));
	ck_assert(fx_only(pr, dto_(M_DTO_ERR_FLUSHED)));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_FLUSHED), M_RULE_DAT_EP_2));
	ck_assert(fx_rule(pr, dto_(M_DTO_ERR_FLUSHED), M_RULE_RA_ERR_5));
	model_free(&f.m);
}
END_TEST

START_TEST(test_DAT_EP_3_free)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "generic");
	const struct m_conn *c = &f.m.node[0].conn[s.ep];
	int qa = c->qp, qb = c->peer_qp, cb = c->peer_conn;
	unsigned ua = f.m.node[0].pd[s.za].usecnt, ub = f.m.node[1].pd[s.zb].usecnt;
	struct m_pred pr = fx_predict(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep));

	ck_assert(fx_only(pr, ok_()));
	ck_assert(fx_rule(pr, ok_(), M_RULE_DAT_EP_3));
	fx_do(&f, op_obj(M_OP_DAT_EP_FREE, 0, s.ep), ok_());
	ck_assert(!f.m.node[0].conn[s.ep].live && !f.m.node[1].conn[cb].live);
	ck_assert(!f.m.node[0].qp[qa].live && !f.m.node[1].qp[qb].live);
	ck_assert_uint_eq(f.m.node[0].pd[s.za].usecnt, ua - 1);
	ck_assert_uint_eq(f.m.node[1].pd[s.zb].usecnt, ub - 1);
	model_free(&f.m);
}
END_TEST

/* Two LMRs over one buffer see the same bytes (VIRTUAL from another LMR). */
START_TEST(test_dat_same_buffer_twice)
{
	struct fx f;
	struct dpair s = fx_dpair(&f, "rxe");
	struct m_op op = op_lmr(1, s.zb, 4096, PRIV_RW);
	int twin;

	op.dat.lmr = (int16_t)s.dst;
	twin = fx_do(&f, op, ok_());
	ck_assert_uint_eq(f.m.node[1].mr[twin].addr, f.m.node[1].mr[s.dst].addr);
	ck_assert_uint_ne(f.m.node[1].mr[twin].lkey, f.m.node[1].mr[s.dst].lkey);
	fx_do(&f, (struct m_op){ .kind = M_OP_FILL, .node = 0, .obj = (int16_t)s.src, .verbs.byte = 0x42, .verbs.len = 4096 },
	      ok_());
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, s.dst, 0, 128), dto_(M_DTO_SUCCESS));
	ck_assert_uint_eq(f.m.node[1].mr[twin].bytes[127], 0x42);
	ck_assert_uint_eq(f.m.node[1].mr[twin].bytes[128], 0);
	/* And the other way: a write through the twin is in dst's bytes. */
	fx_do(&f, op_dto(&f, M_OP_DAT_RDMA_WRITE, 0, s.ep, s.src, 0, 1, twin, 2048, 64), dto_(M_DTO_SUCCESS));
	ck_assert_uint_eq(f.m.node[1].mr[s.dst].bytes[2048 + 63], 0x42);
	/* Longer than the buffer it names: malformed. */
	struct m_pred pr;
	op.dat.len = 8192;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	model_free(&f.m);
}
END_TEST

/* The kinds and names of the uDAPL operations. */
START_TEST(test_dat_names)
{
	enum m_op_kind k;
	enum m_cap c;

	ck_assert_int_eq(m_op_kind_parse("dat_ep_free", &k), 0);
	ck_assert_int_eq(k, M_OP_DAT_EP_FREE);
	ck_assert(m_op_family(M_OP_DAT_RMR_BIND) == M_FAM_DAT && m_op_family(M_OP_DAT_IA_OPEN) == M_FAM_DAT &&
		  m_op_family(M_OP_RPMA_FLUSH) != M_FAM_DAT);
	ck_assert_str_eq(m_op_kind_str(M_OP_DAT_RMR_BIND), "dat_rmr_bind");
	ck_assert_int_eq(m_cap_parse("dapl_rmr", &c), 0);
	ck_assert_int_eq(c, M_CAP_DAPL_RMR);
	struct m_profile p;
	ck_assert_int_eq(m_profile_get("rxe", 0, &p), 0);
	ck_assert(p.caps & M_CAP_DAPL);
	ck_assert(!(p.caps & M_CAP_DAPL_RMR)); /* OFA implements no RMRs */
	ck_assert_int_eq(m_profile_get("generic", 0, &p), 0);
	ck_assert((p.caps & M_CAP_DAPL) && (p.caps & M_CAP_DAPL_RMR));
}
END_TEST

Suite *suite_test_model_dat(void)
{
	Suite *s = suite_create("model_dat");
	TCase *tc = tcase_create("dat");

	RTEST(tc, DAT_IA_1, test_DAT_IA_1_known_and_unknown_names);
	RTEST(tc, DAT_IA_2, test_DAT_IA_2_calls_before_ia_open);
	RTEST(tc, DAT_HANDLE_1, test_DAT_HANDLE_1_freed_objects);
	RTEST(tc, DAT_LMR_1, test_DAT_LMR_1_bad_pz_and_mem_type);
	RTEST(tc, DAT_LMR_2, test_DAT_LMR_2_privileges_to_access);
	RTEST(tc, DAT_LMR_3, test_DAT_LMR_3_remote_write_without_local_write);
	RTEST(tc, DAT_LMR_4, test_DAT_LMR_4_other_registration_failures);
	RTEST(tc, DAT_LMR_5, test_DAT_LMR_5_zero_based_va_type);
	RTEST(tc, DAT_LMR_6, test_DAT_LMR_6_shared_virtual);
	RTEST(tc, DAT_LMR_7, test_DAT_LMR_7_lmr_over_lmr);
	RTEST(tc, DAT_LMR_8, test_DAT_LMR_8_rmr_context_only_with_remote_privileges);
	RTEST(tc, DAT_LMR_9, test_DAT_LMR_9_registered_region);
	RTEST(tc, DAT_FREE_1, test_DAT_FREE_1_free_and_bound_rmrs);
	RTEST(tc, DAT_FREE_2, test_DAT_FREE_2_use_after_free);
	RTEST(tc, DAT_PZ_1, test_DAT_PZ_1_free_while_used);
	RTEST(tc, DAT_RMR_1, test_DAT_RMR_1_create);
	RTEST(tc, DAT_RMR_2, test_DAT_RMR_2_bind_checks);
	RTEST(tc, DAT_RMR_3, test_DAT_RMR_3_remote_write_over_lmr_without_local_write);
	RTEST(tc, DAT_RMR_4, test_DAT_RMR_4_bound_context);
	RTEST(tc, DAT_DTO_1, test_DAT_DTO_1_status_mapping);
	RTEST(tc, DAT_DTO_2, test_DAT_DTO_2_zero_length_segment);
	RTEST(tc, DAT_DTO_4, test_DAT_DTO_4_error_breaks_the_connection);
	RTEST(tc, DAT_DTO_5, test_DAT_DTO_5_post_time_refusals);
	RTEST(tc, DAT_EP_1, test_DAT_EP_1_connect);
	RTEST(tc, DAT_EP_2, test_DAT_EP_2_disconnect);
	RTEST(tc, DAT_EP_4, test_DAT_EP_4_private_data);
	RTEST(tc, DAT_EP_3, test_DAT_EP_3_free);
	tcase_add_test(tc, test_dat_same_buffer_twice);
	tcase_add_test(tc, test_dat_names);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the model's librpma personality (model/rpma/, catalog area
 * B): one test per encoded rule, each with its allowed and its refused path,
 * and the verbs rules that must fire underneath.
 */
#include "tests/unit/model_fx.h"

#define RPMA_(e) ((struct m_outcome){ M_OUT_RPMA, M_RPMA_E_##e })
#define ALWAYS M_RPMA_F_COMPLETION_ALWAYS
#define ON_ERROR M_RPMA_F_COMPLETION_ON_ERROR

static struct m_op op_rreg(int node, uint64_t len, uint32_t usage)
{
	return (struct m_op){ .kind = M_OP_RPMA_MR_REG, .node = (uint8_t)node, .obj = -1,
			      .rpma = { .mr = -1, .peer_node = -1, .remote = -1, .len = len, .usage = usage } };
}

static int rreg(struct fx *f, int node, uint64_t len, uint32_t usage)
{
	return fx_do(f, op_rreg(node, len, usage), ok_());
}

static struct m_op op_on(enum m_op_kind k, int node, int obj)
{
	struct m_op op = op_rreg(node, 0, 0);

	op.kind = (uint8_t)k;
	op.obj = (int16_t)obj;
	return op;
}

/* rpma_mr_remote_from_descriptor on node of the descriptor of src_node's rpma MR h. */
static struct m_op op_from(struct fx *f, int node, int src_node, int h)
{
	struct m_op op = op_rreg(node, 0, 0);

	op.kind = M_OP_RPMA_REMOTE_FROM_DESC;
	ck_assert_int_eq(model_rpma_descriptor(&f->m, (unsigned)src_node, 0, h, op.rpma.desc), 0);
	op.rpma.ndesc = M_RPMA_DESC_SIZE;
	op.rpma.size = M_RPMA_DESC_SIZE;
	return op;
}

static int from(struct fx *f, int node, int src_node, int h)
{
	return fx_do(f, op_from(f, node, src_node, h), ok_());
}

static int rconnect(struct fx *f, int client, int server, int pmem)
{
	struct m_op op = op_rreg(client, 0, 0);

	op.kind = M_OP_RPMA_CONNECT;
	op.rpma.peer_node = (int16_t)server;
	op.rpma.pmem = (uint8_t)pmem;
	return fx_do(f, op, ok_());
}

static struct m_op op_io(enum m_op_kind k, int node, int conn, int mr, uint64_t off, int remote, uint64_t roff,
			 uint64_t len, uint32_t flags)
{
	struct m_op op = op_on(k, node, conn);

	op.rpma.mr = (int16_t)mr;
	op.rpma.offset = off;
	op.rpma.remote = (int16_t)remote;
	op.rpma.roff = roff;
	op.rpma.len = len;
	op.rpma.flags = flags;
	return op;
}

/* Node 1 (server) registers s with usage su; node 0 (client) registers c (all usages), makes r, connects. */
struct rp { int s, c, r, conn; };
static struct rp fx_rpair(struct fx *f, const char *profile, uint32_t su, int pmem)
{
	struct rp x;

	fx_init(f, 2, profile);
	x.s = rreg(f, 1, 4096, su);
	x.c = rreg(f, 0, 4096, M_RPMA_USAGE_ALL);
	x.r = from(f, 0, 1, x.s);
	x.conn = rconnect(f, 0, 1, pmem);
	return x;
}

static struct m_outcome first(struct m_pred pr)
{
	return pr.alt[0].out;
}

START_TEST(test_RPMA_REG_1_null_arguments_and_size_zero)
{
	struct fx f;
	struct m_op op = op_rreg(0, 4096, M_RPMA_READ_SRC);

	fx_init(&f, 1, "generic");
	for (unsigned bit = 0; bit < 3; bit++) {
		op.rpma.nulls = (uint8_t)(1u << bit);
		ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
		ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_REG_1));
	}
	op.rpma.nulls = 0;
	op.rpma.len = 0;
	fx_do(&f, op, RPMA_(INVAL));
	ck_assert_uint_eq(f.m.node[0].nmr, 0); /* nothing registered */
	op.rpma.len = 4096;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_REG_2_usage_zero_or_unknown_bits)
{
	struct fx f;

	fx_init(&f, 1, "rxe");
	ck_assert(fx_rule(fx_predict(&f, op_rreg(0, 64, 0)), RPMA_(INVAL), M_RULE_RPMA_REG_2));
	ck_assert(fx_only(fx_predict(&f, op_rreg(0, 64, 0x100 | M_RPMA_READ_SRC)), RPMA_(INVAL)));
	ck_assert(fx_only(fx_predict(&f, op_rreg(0, 64, M_RPMA_USAGE_ALL)), ok_()));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_REG_3_usage_to_access)
{
	static const struct { uint32_t usage, access; } map[] = {
		{ M_RPMA_READ_SRC, M_ACC_REMOTE_READ },
		{ M_RPMA_USAGE_FLUSH_VISIBILITY, M_ACC_REMOTE_READ },
		{ M_RPMA_USAGE_FLUSH_PERSISTENT, M_ACC_REMOTE_READ },
		{ M_RPMA_READ_DST, M_ACC_LOCAL_WRITE },
		{ M_RPMA_WRITE_SRC, M_ACC_LOCAL_WRITE },
		{ M_RPMA_WRITE_DST, M_ACC_REMOTE_WRITE | M_ACC_LOCAL_WRITE },
		{ M_RPMA_RECV, M_ACC_LOCAL_WRITE },
		{ M_RPMA_SEND, 0 },
		{ M_RPMA_USAGE_ALL, M_ACC_REMOTE_READ | M_ACC_REMOTE_WRITE | M_ACC_LOCAL_WRITE },
	};
	struct fx f;

	fx_init(&f, 1, "generic");
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		struct m_pred pr = fx_predict(&f, op_rreg(0, 64, map[i].usage));
		int h;

		ck_assert(fx_rule(pr, ok_(), M_RULE_RPMA_REG_3));
		h = rreg(&f, 0, 64, map[i].usage);
		ck_assert_uint_eq(f.m.node[0].mr[h].access, map[i].access);
		ck_assert_uint_eq(f.m.node[0].mr[h].usage, map[i].usage);
		ck_assert_uint_eq(f.m.node[0].mr[h].api, M_FAM_RPMA);
		/* Every rpma MR of a node is in its one peer PD. */
		ck_assert_int_eq(f.m.node[0].mr[h].pd, f.m.node[0].rpma.pd);
	}
	ck_assert_uint_eq(f.m.node[0].npd, 1);
	ck_assert_uint_eq(f.m.node[0].pd[f.m.node[0].rpma.pd].api, M_FAM_RPMA);
	model_free(&f.m);

	/* The refused side: READ_SRC grants no remote write (the verbs rule decides). */
	struct rp x = fx_rpair(&f, "generic", M_RPMA_READ_SRC, 0);
	struct m_pred pr = fx_predict(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS));

	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ACC_1));
	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_READ, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_REG_4_verbs_refusal_is_provider)
{
	struct fx f;
	struct m_op op = op_rreg(0, 4096, M_RPMA_WRITE_DST);
	struct m_pred pr;

	fx_init(&f, 1, "rxe");
	op.rpma.prot = M_PROT_UNMAPPED;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, RPMA_(PROVIDER)));
	ck_assert(fx_rule(pr, RPMA_(PROVIDER), M_RULE_RPMA_REG_4));
	ck_assert(fx_rule(pr, RPMA_(PROVIDER), M_RULE_MR_MAP_1)); /* the verbs rule underneath */
	op.rpma.prot = M_PROT_RO;
	ck_assert(fx_rule(fx_predict(&f, op), RPMA_(PROVIDER), M_RULE_MR_MAP_2));
	op.rpma.usage = M_RPMA_READ_SRC; /* REMOTE_READ only: read-only pages are enough */
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	/* PROT_NONE: refused by the generic reading, registered by 6.1 (MR-MAP-2 deviation). */
	op.rpma.prot = M_PROT_NONE;
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	ck_assert_int_eq(m_profile_get("generic", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(PROVIDER)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_DEREG_1_null_noop_and_dereg)
{
	struct fx f;
	int h;
	struct m_op op;
	struct m_pred pr;

	fx_init(&f, 1, "generic");
	h = rreg(&f, 0, 64, M_RPMA_READ_SRC);
	op = op_on(M_OP_RPMA_MR_DEREG, 0, h);
	op.rpma.nulls = M_RPMA_NULL_ARG0; /* mr_ptr NULL */
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.nulls = M_RPMA_NULL_ARG1; /* *mr_ptr NULL */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert_uint_eq(pr.alt[0].effect, M_EFF_NONE);
	op.rpma.nulls = 0;
	pr = fx_predict(&f, op);
	ck_assert(fx_rule(pr, ok_(), M_RULE_RPMA_DEREG_1));
	ck_assert(fx_rule(pr, ok_(), M_RULE_MR_DEREG_1));
	fx_do(&f, op, ok_());
	ck_assert(!f.m.node[0].mr[h].live);
	ck_assert_uint_eq(f.m.node[0].pd[f.m.node[0].rpma.pd].usecnt, 0);
	/* Again: *mr_ptr was NULLed by the first call, so a no-op. */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, ok_()));
	ck_assert_uint_eq(pr.alt[0].effect, M_EFF_NONE);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_DESC_1_descriptor_size)
{
	struct fx f;
	int h;
	struct m_op op;
	struct m_qres q;

	fx_init(&f, 1, "generic");
	h = rreg(&f, 0, 64, M_RPMA_READ_SRC);
	op = op_on(M_OP_RPMA_MR_GET_DESC_SIZE, 0, h);
	fx_do(&f, op, ok_());
	ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
	ck_assert_uint_eq(q.n, 1);
	ck_assert_str_eq(q.r[0].key, "size");
	ck_assert(model_qres_ok(&q, 0, 21) && !model_qres_ok(&q, 0, 24));
	ck_assert_uint_eq(q.r[0].rule, M_RULE_RPMA_DESC_1);
	op.rpma.nulls = M_RPMA_NULL_ARG1;
	ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_DESC_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_DESC_2_descriptor_content)
{
	struct fx f;
	uint8_t d[M_RPMA_DESC_SIZE];
	int h;
	struct m_op op;

	fx_init(&f, 1, "generic");
	h = rreg(&f, 0, 0x1234, M_RPMA_WRITE_DST | M_RPMA_USAGE_FLUSH_VISIBILITY);
	ck_assert_int_eq(model_rpma_descriptor(&f.m, 0, 0, h, d), 0);
	const struct m_mr *mr = &f.m.node[0].mr[h];
	uint64_t addr = 0, len = 0;
	uint32_t rkey = 0;

	for (int i = 7; i >= 0; i--) {
		addr = addr << 8 | d[i];
		len = len << 8 | d[8 + i];
	}
	for (int i = 3; i >= 0; i--)
		rkey = rkey << 8 | d[16 + i];
	ck_assert_uint_eq(addr, mr->addr);
	ck_assert_uint_eq(len, 0x1234);
	ck_assert_uint_eq(rkey, mr->rkey);
	ck_assert_uint_eq(d[20], M_RPMA_WRITE_DST | M_RPMA_USAGE_FLUSH_VISIBILITY);
	op = op_on(M_OP_RPMA_MR_GET_DESC, 0, h);
	ck_assert(fx_rule(fx_predict(&f, op), ok_(), M_RULE_RPMA_DESC_2));
	op.rpma.nulls = M_RPMA_NULL_ARG1; /* desc NULL */
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.nulls = 0;
	fx_do(&f, op_on(M_OP_RPMA_MR_DEREG, 0, h), ok_());
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL))); /* the handle is NULL now */
	/* A stale descriptor is still the last one. */
	ck_assert_int_eq(model_rpma_descriptor(&f.m, 0, 0, h, d), 0);
	ck_assert_int_eq(model_rpma_descriptor(&f.m, 0, 0, 99, d), -EINVAL);
	ck_assert_int_eq(model_rpma_descriptor(&f.m, 0, 1, 0, d), -EINVAL);
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_DESC_3_from_descriptor)
{
	struct fx f;
	int s, r;
	struct m_op op;

	fx_init(&f, 2, "generic");
	s = rreg(&f, 1, 4096, M_RPMA_READ_SRC);
	op = op_from(&f, 0, 1, s);
	for (unsigned bit = 0; bit < 2; bit++) {
		op.rpma.nulls = (uint8_t)(1u << bit);
		ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_DESC_3));
	}
	op.rpma.nulls = 0;
	op.rpma.size = 0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.size = 20;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.size = 64; /* longer: accepted, the rest ignored */
	ck_assert(fx_only(fx_predict(&f, op), ok_()));
	op.rpma.size = 21;
	/* Nothing but the usage byte is checked: garbage gives a nonsense MR. */
	memset(op.rpma.desc, 0xee, M_RPMA_DESC_SIZE);
	r = fx_do(&f, op, ok_());
	ck_assert_uint_eq(f.m.node[0].rpma.rremote[r].len, 0xeeeeeeeeeeeeeeeeull);
	ck_assert_uint_eq(f.m.node[0].rpma.rremote[r].rkey, 0xeeeeeeeeu);
	/* Usage byte 0: the man page's NOSUPP; 1.2.0's INVAL is the rxe profile's. */
	op.rpma.desc[20] = 0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(NOSUPP)));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	fx_do(&f, op, RPMA_(INVAL));
	ck_assert_uint_eq(f.m.node[0].rpma.nrremote, 1); /* nothing made */
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_DESC_4_remote_size_and_flush_type)
{
	struct fx f;
	int s, r;
	struct m_op op;
	struct m_qres q;

	fx_init(&f, 2, "generic");
	s = rreg(&f, 1, 3000, M_RPMA_READ_SRC | M_RPMA_USAGE_FLUSH_PERSISTENT);
	r = from(&f, 0, 1, s);
	op = op_on(M_OP_RPMA_REMOTE_GET_SIZE, 0, r);
	fx_do(&f, op, ok_());
	ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
	ck_assert(model_qres_ok(&q, 0, 3000) && !model_qres_ok(&q, 0, 4096));
	op.kind = M_OP_RPMA_REMOTE_GET_FLUSH_TYPE;
	q.n = 0;
	ck_assert_int_eq(model_query(&f.m, &f.p, &op, &q), 0);
	ck_assert_str_eq(q.r[0].key, "flush_type");
	ck_assert(model_qres_ok(&q, 0, M_RPMA_USAGE_FLUSH_PERSISTENT));
	op.rpma.nulls = M_RPMA_NULL_ARG1;
	ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_DESC_4));
	op.kind = M_OP_RPMA_REMOTE_GET_SIZE;
	op.rpma.nulls = M_RPMA_NULL_ARG0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_OP_1_argument_checks)
{
	struct fx f;
	struct rp x = fx_rpair(&f, "rxe", M_RPMA_USAGE_ALL, 0);
	struct m_op op = op_io(M_OP_RPMA_READ, 0, x.conn, x.c, 0, x.r, 0, 8, 0);
	struct m_pred pr;

	ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_OP_1)); /* flags 0 */
	op.rpma.flags = ALWAYS;
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	op.rpma.nulls = M_RPMA_NULL_ARG0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.nulls = M_RPMA_NULL_ARG2; /* src NULL, dst given */
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	/* Both NULL, offsets and len 0: the legal 0-byte form. */
	op = op_io(M_OP_RPMA_WRITE, 0, x.conn, -1, 0, -1, 0, 0, ALWAYS);
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RA_ZERO_1));
	op.rpma.roff = 8;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	/* A deregistered local MR is a NULL handle. */
	fx_do(&f, op_on(M_OP_RPMA_MR_DEREG, 0, x.c), ok_());
	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS)),
			  RPMA_(INVAL)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_OP_2_verbs_decide_and_kill_the_connection)
{
	struct fx f;
	struct rp x = fx_rpair(&f, "rxe", M_RPMA_WRITE_DST, 0);
	const struct m_conn *c = &f.m.node[0].conn[x.conn];
	struct m_pred pr;

	/* Success: the bytes land (len is cut to 32 bits: 2^32 + 8 writes 8). */
	model_mr_set(&f.m, 0, x.c, 0, 0x5a, 4096);
	fx_do(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 16, (1ull << 32) + 8, ALWAYS), wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, x.s, 16), 0x5a);
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, x.s, 24), 0);
	/* No bounds check in librpma: crossing the end is the responder's REM_ACCESS_ERR. */
	pr = fx_predict(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 4092, 8, ALWAYS));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RPMA_OP_2));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_BND_1));
	/* A read from a WRITE_DST-only MR: refused; both QPs to ERR. */
	fx_do(&f, op_io(M_OP_RPMA_READ, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS), wc_(M_WC_REM_ACCESS_ERR));
	ck_assert_uint_eq(fx_qps(&f, 0, c->qp), M_QPS_ERR);
	ck_assert_uint_eq(fx_qps(&f, 1, c->peer_qp), M_QPS_ERR);
	/* The connection is dead: every later op is flushed (rxe), a post error allowed generically. */
	pr = fx_predict(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS));
	ck_assert(fx_only(pr, wc_(M_WC_WR_FLUSH_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_WR_FLUSH_ERR), M_RULE_RA_ERR_5));
	ck_assert_int_eq(m_profile_get("generic", 0, &f.p), 0);
	ck_assert(fx_has(fx_predict(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS)),
			 RPMA_(PROVIDER)));
	model_free(&f.m);

	/* A read into a local MR without LOCAL_WRITE: LOC_PROT_ERR. */
	x = fx_rpair(&f, "rxe", M_RPMA_READ_SRC, 0);
	int ro = rreg(&f, 0, 64, M_RPMA_READ_SRC);

	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_READ, 0, x.conn, ro, 0, x.r, 0, 8, ALWAYS)),
			  wc_(M_WC_LOC_PROT_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_OP_3_completion_flags)
{
	struct fx f;
	struct rp x = fx_rpair(&f, "rxe", M_RPMA_READ_SRC, 0);
	struct m_pred pr;

	pr = fx_predict(&f, op_io(M_OP_RPMA_READ, 0, x.conn, x.c, 0, x.r, 0, 8, ON_ERROR));
	ck_assert(fx_only(pr, ok_())); /* no completion on success */
	ck_assert(fx_rule(pr, ok_(), M_RULE_RPMA_OP_3));
	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_READ, 0, x.conn, x.c, 0, x.r, 0, 8, ALWAYS)),
			  wc_(M_WC_SUCCESS)));
	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_READ, 0, x.conn, x.c, 0, x.r, 0, 8, 2)),
			  wc_(M_WC_SUCCESS))); /* the ON_SUCCESS bit alone signals */
	/* An error completes whatever the flags. */
	pr = fx_predict(&f, op_io(M_OP_RPMA_WRITE, 0, x.conn, x.c, 0, x.r, 0, 8, ON_ERROR));
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_AW_1_atomic_write)
{
	struct fx f;
	struct rp x = fx_rpair(&f, "rxe", M_RPMA_WRITE_DST, 0);
	struct m_op op = op_io(M_OP_RPMA_ATOMIC_WRITE, 0, x.conn, -1, 0, x.r, 8, 0, ALWAYS);
	struct m_pred pr;

	op.rpma.value = 0x1122334455667788ull;
	for (unsigned bit = 0; bit < 3; bit++) {
		op.rpma.nulls = (uint8_t)(1u << bit);
		ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_AW_1));
	}
	op.rpma.nulls = 0;
	op.rpma.roff = 4; /* dst_offset not aligned to 8 */
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.roff = 8;
	op.rpma.flags = 0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.flags = ALWAYS;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RPMA_AW_1));
	fx_do(&f, op, wc_(M_WC_SUCCESS));
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, x.s, 8), 0x88); /* little-endian value */
	ck_assert_uint_eq(model_mr_byte(&f.m, 1, x.s, 15), 0x11);
	model_free(&f.m);

	/* Needs REMOTE_WRITE: WRITE_DST missing is REM_ACCESS_ERR. */
	x = fx_rpair(&f, "rxe", M_RPMA_READ_SRC, 0);
	op = op_io(M_OP_RPMA_ATOMIC_WRITE, 0, x.conn, -1, 0, x.r, 0, 0, ALWAYS);
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_REM_ACCESS_ERR)));
	model_free(&f.m);

	/* An unaligned target (the MR at page offset 4; dst_offset 0 passes):
	 * native atomic write refuses it, the WRITE fallback does not. */
	fx_init(&f, 2, "rxe");
	struct m_op reg = op_rreg(1, 64, M_RPMA_WRITE_DST);

	reg.rpma.offset = 4;
	x.s = fx_do(&f, reg, ok_());
	x.c = rreg(&f, 0, 64, M_RPMA_USAGE_ALL);
	x.r = from(&f, 0, 1, x.s);
	x.conn = rconnect(&f, 0, 1, 0);
	op = op_io(M_OP_RPMA_ATOMIC_WRITE, 0, x.conn, -1, 0, x.r, 0, 0, ALWAYS);
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	ck_assert_int_eq(m_profile_get("generic", 0, &f.p), 0);
	pr = fx_predict(&f, op);
	ck_assert(fx_has(pr, wc_(M_WC_SUCCESS)) && fx_has(pr, wc_(M_WC_REM_INV_REQ_ERR)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_FLUSH_1_checks)
{
	struct fx f;
	struct rp x = fx_rpair(&f, "generic", M_RPMA_USAGE_FLUSH_VISIBILITY | M_RPMA_READ_SRC, 0);
	struct m_op op = op_io(M_OP_RPMA_FLUSH, 0, x.conn, -1, 0, x.r, 0, 4096, ALWAYS);

	op.rpma.flush_type = M_RPMA_FLUSH_VISIBILITY;
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	op.rpma.nulls = M_RPMA_NULL_ARG1;
	ck_assert(fx_rule(fx_predict(&f, op), RPMA_(INVAL), M_RULE_RPMA_FLUSH_1));
	op.rpma.nulls = 0;
	op.rpma.flags = 0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.flags = ALWAYS;
	/* PERSISTENT: no pmem peer cfg on this connection, and no usage bit. */
	op.rpma.flush_type = M_RPMA_FLUSH_PERSISTENT;
	ck_assert(fx_rule(fx_predict(&f, op), RPMA_(NOSUPP), M_RULE_RPMA_FLUSH_1));
	/* An unknown type: the man page's RPMA_E_INVAL; 1.2.0 goes on (rxe). */
	op.rpma.flush_type = 7;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	ck_assert_int_eq(m_profile_get("rxe", 0, &f.p), 0);
	ck_assert(fx_rule(fx_predict(&f, op), wc_(M_WC_SUCCESS), M_RULE_RPMA_FLUSH_1));
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	model_free(&f.m);

	/* With the pmem peer cfg applied: PERSISTENT needs the usage bit only. */
	x = fx_rpair(&f, "rxe", M_RPMA_USAGE_FLUSH_PERSISTENT, 1);
	op = op_io(M_OP_RPMA_FLUSH, 0, x.conn, -1, 0, x.r, 0, 8, ALWAYS);
	op.rpma.flush_type = M_RPMA_FLUSH_PERSISTENT;
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	op.rpma.flush_type = M_RPMA_FLUSH_VISIBILITY; /* its bit is missing */
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(NOSUPP)));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_FLUSH_2_an_8_byte_read)
{
	struct fx f;
	struct rp x = fx_rpair(&f, "rxe", M_RPMA_USAGE_FLUSH_VISIBILITY, 0);
	struct m_op op = op_io(M_OP_RPMA_FLUSH, 0, x.conn, -1, 0, x.r, 0, 1u << 20, ALWAYS);
	struct m_pred pr;

	op.rpma.flush_type = M_RPMA_FLUSH_VISIBILITY;
	pr = fx_predict(&f, op); /* len is ignored: 1 MiB of a 4 KiB MR */
	ck_assert(fx_only(pr, wc_(M_WC_SUCCESS)));
	ck_assert(fx_rule(pr, wc_(M_WC_SUCCESS), M_RULE_RPMA_FLUSH_2));
	op.rpma.roff = 4092; /* 8 bytes from size-4: past the end */
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_BND_1));
	op.rpma.roff = 4088;
	ck_assert(fx_only(fx_predict(&f, op), wc_(M_WC_SUCCESS)));
	model_free(&f.m);

	/* A descriptor claiming FLUSH_TYPE_VISIBILITY of an MR without REMOTE_READ:
	 * the READ is refused by the responder. */
	fx_init(&f, 2, "rxe");
	int s = rreg(&f, 1, 4096, M_RPMA_WRITE_DST), c = rreg(&f, 0, 64, M_RPMA_USAGE_ALL);
	struct m_op fd = op_from(&f, 0, 1, s);

	(void)c;
	fd.rpma.desc[20] = M_RPMA_USAGE_FLUSH_VISIBILITY;
	x.r = fx_do(&f, fd, ok_());
	x.conn = rconnect(&f, 0, 1, 0);
	op = op_io(M_OP_RPMA_FLUSH, 0, x.conn, -1, 0, x.r, 0, 8, ON_ERROR);
	op.rpma.flush_type = M_RPMA_FLUSH_VISIBILITY;
	pr = fx_predict(&f, op);
	ck_assert(fx_only(pr, wc_(M_WC_REM_ACCESS_ERR)));
	ck_assert(fx_rule(pr, wc_(M_WC_REM_ACCESS_ERR), M_RULE_RA_ACC_1));
	model_free(&f.m);
}
END_TEST

START_TEST(test_RPMA_CONN_1_connect_and_disconnect)
{
	struct fx f;
	struct m_op op = op_rreg(0, 0, 0);
	int conn, conn2;

	fx_init(&f, 3, "rxe");
	op.kind = M_OP_RPMA_CONNECT;
	op.rpma.peer_node = 0;
	struct m_pred pr;
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL); /* to itself */
	conn = rconnect(&f, 0, 1, 0);
	conn2 = rconnect(&f, 2, 1, 0); /* a second client of the same server */
	const struct m_conn *c = &f.m.node[0].conn[conn];
	const struct m_qp *q = &f.m.node[0].qp[c->qp], *sq = &f.m.node[1].qp[c->peer_qp];

	ck_assert_uint_eq(q->state, M_QPS_RTS);
	ck_assert_uint_eq(sq->state, M_QPS_RTS);
	ck_assert_uint_eq(q->access, M_ACC_REMOTE_ANY);
	ck_assert_int_eq(q->pd, f.m.node[0].rpma.pd);
	ck_assert_int_eq(sq->pd, f.m.node[1].rpma.pd);
	ck_assert_uint_eq(f.m.node[1].nconn, 2);
	op = op_on(M_OP_RPMA_DISCONNECT, 0, conn);
	op.rpma.nulls = M_RPMA_NULL_ARG0;
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL)));
	op.rpma.nulls = 0;
	pr = fx_predict(&f, op);
	ck_assert(fx_rule(pr, ok_(), M_RULE_RPMA_CONN_1));
	fx_do(&f, op, ok_());
	ck_assert(!f.m.node[0].qp[c->qp].live && !f.m.node[1].qp[c->peer_qp].live);
	ck_assert(!c->live && !f.m.node[1].conn[c->peer_conn].live);
	ck_assert(!f.m.node[0].mr[c->aux_mr].live);
	ck_assert(fx_only(fx_predict(&f, op), RPMA_(INVAL))); /* disconnected: a NULL conn */
	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_READ, 0, conn, -1, 0, -1, 0, 0, ALWAYS)), RPMA_(INVAL)));
	/* The other client's connection is untouched. */
	ck_assert(fx_only(fx_predict(&f, op_io(M_OP_RPMA_READ, 2, conn2, -1, 0, -1, 0, 0, ALWAYS)),
			  wc_(M_WC_SUCCESS)));
	model_free(&f.m);
}
END_TEST

/* Not rules: a second registration of a buffer, and malformed steps. */
START_TEST(test_rpma_same_buffer_and_malformed)
{
	struct fx f;
	struct m_op op;
	struct m_pred pr;
	int a, b;

	fx_init(&f, 2, "generic");
	a = rreg(&f, 0, 4096, M_RPMA_READ_SRC);
	model_mr_set(&f.m, 0, a, 0, 7, 4096);
	op = op_rreg(0, 4096, M_RPMA_WRITE_DST);
	op.rpma.mr = (int16_t)a;
	b = fx_do(&f, op, ok_());
	ck_assert_uint_eq(f.m.node[0].mr[b].addr, f.m.node[0].mr[a].addr);
	ck_assert_uint_ne(f.m.node[0].mr[b].rkey, f.m.node[0].mr[a].rkey);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, b, 100), 7);
	/* One buffer: later changes through either are seen through the other. */
	model_mr_set(&f.m, 0, b, 200, 9, 1);
	ck_assert_uint_eq(model_mr_byte(&f.m, 0, a, 200), 9);
	op.rpma.len = 8192; /* longer than the buffer */
	ck_assert_int_eq(model_predict(&f.m, &f.p, &op, &pr), -EINVAL);
	/* A verbs MR is no rpma MR. */
	int pd = fx_pd(&f, 0), v = fx_mr(&f, 0, pd, 64, 0);

	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_RPMA_MR_DEREG, .obj = (int16_t)v,
								      .rpma.remote = -1, .rpma.mr = -1 }, &pr), -EINVAL);
	ck_assert_int_eq(model_predict(&f.m, &f.p, &(struct m_op){ .kind = M_OP_RPMA_READ, .obj = 0, .rpma.remote = -1,
								      .rpma.mr = -1 }, &pr), -EINVAL);
	ck_assert(first(fx_predict(&f, op_on(M_OP_RPMA_MR_GET_DESC, 0, a))).kind == M_OUT_OK);
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_rpma(void)
{
	Suite *s = suite_create("model_rpma");
	TCase *tc = tcase_create("librpma");

	RTEST(tc, RPMA_REG_1, test_RPMA_REG_1_null_arguments_and_size_zero);
	RTEST(tc, RPMA_REG_2, test_RPMA_REG_2_usage_zero_or_unknown_bits);
	RTEST(tc, RPMA_REG_3, test_RPMA_REG_3_usage_to_access);
	RTEST(tc, RPMA_REG_4, test_RPMA_REG_4_verbs_refusal_is_provider);
	RTEST(tc, RPMA_DEREG_1, test_RPMA_DEREG_1_null_noop_and_dereg);
	RTEST(tc, RPMA_DESC_1, test_RPMA_DESC_1_descriptor_size);
	RTEST(tc, RPMA_DESC_2, test_RPMA_DESC_2_descriptor_content);
	RTEST(tc, RPMA_DESC_3, test_RPMA_DESC_3_from_descriptor);
	RTEST(tc, RPMA_DESC_4, test_RPMA_DESC_4_remote_size_and_flush_type);
	RTEST(tc, RPMA_OP_1, test_RPMA_OP_1_argument_checks);
	RTEST(tc, RPMA_OP_2, test_RPMA_OP_2_verbs_decide_and_kill_the_connection);
	RTEST(tc, RPMA_OP_3, test_RPMA_OP_3_completion_flags);
	RTEST(tc, RPMA_AW_1, test_RPMA_AW_1_atomic_write);
	RTEST(tc, RPMA_FLUSH_1, test_RPMA_FLUSH_1_checks);
	RTEST(tc, RPMA_FLUSH_2, test_RPMA_FLUSH_2_an_8_byte_read);
	RTEST(tc, RPMA_CONN_1, test_RPMA_CONN_1_connect_and_disconnect);
	tcase_add_test(tc, test_rpma_same_buffer_and_malformed);
	suite_add_tcase(s, tc);
	return s;
}

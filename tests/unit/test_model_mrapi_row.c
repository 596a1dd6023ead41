/*
 * Unit tests of the MRAPI family's registry row (model/mrapi/mrapi.c):
 * operations through model_predict/model_apply, the handle acted on taken
 * from struct m_op.obj, init_attributes handing out attribute structs, and
 * the local buffer of a read (its bytes land there) and of a write (its
 * bytes come from there).
 */
#include "tests/unit/model_fx.h"

#define MST(e) ((struct m_outcome){ M_OUT_MRAPI, M_MRAPI_##e })

static struct m_op mop(enum m_op_kind k, int node, int obj)
{
	struct m_op op = { .kind = (uint8_t)k, .node = (uint8_t)node, .obj = (int16_t)obj };

	op.mrapi.attrs = op.mrapi.rmem = op.mrapi.req = op.mrapi.local = -1;
	op.mrapi.domain = 1;
	op.mrapi.node_id = (uint32_t)node + 1; /* one node id per node */
	return op;
}

/* Commit outcome o of op; the handle made, or -1. */
static int run(struct fx *f, struct m_op op, struct m_outcome o)
{
	struct m_pred pr = fx_predict(f, op);
	int i = model_pred_find(&pr, o), created = -1;

	ck_assert_msg(i >= 0, "%s: outcome not allowed", m_op_kind_str((enum m_op_kind)op.kind));
	ck_assert_int_eq(model_apply(&f->m, &pr, (size_t)i, &created), 0);
	return created;
}

static int create(struct fx *f, int node, uint32_t id, uint64_t size, uint64_t mem)
{
	struct m_op op = mop(M_OP_MRAPI_RMEM_CREATE, node, -1);

	op.mrapi.id = id;
	op.mrapi.size = size;
	op.mrapi.mem = mem;
	return run(f, op, MST(SUCCESS));
}

static struct m_op rw(enum m_op_kind k, int node, int rmem, int local, uint32_t bytes, uint32_t n, uint32_t rstride,
		      uint32_t lstride)
{
	struct m_op op = mop(k, node, rmem);

	op.mrapi.local = (int16_t)local;
	op.mrapi.bytes = bytes;
	op.mrapi.nstrides = n;
	op.mrapi.rmem_stride = rstride;
	op.mrapi.local_stride = lstride;
	op.mrapi.local_size = 4096;
	return op;
}

static void store(struct fx *f, int node, int rmem, uint64_t off, uint64_t len, uint8_t byte)
{
	static uint8_t bytes[M_MRAPI_BYTES];
	struct m_op op = mop(M_OP_MRAPI_LOCAL_STORE, node, rmem);

	memset(bytes, byte, sizeof(bytes));
	op.mrapi.mem = off;
	op.mrapi.size = len;
	op.mrapi.data = bytes;
	op.mrapi.data_len = sizeof(bytes);
	run(f, op, ok_());
}

/* a creates R and stores; b reads two stripes into its own L; b writes them back into R elsewhere. */
START_TEST(test_read_into_and_write_from_local)
{
	struct fx f;
	int r, l, g;

	fx_init(&f, 2, "rxe");
	run(&f, mop(M_OP_MRAPI_INITIALIZE, 0, -1), MST(SUCCESS));
	run(&f, mop(M_OP_MRAPI_INITIALIZE, 1, -1), MST(SUCCESS));
	r = create(&f, 0, 1, 256, 1u << 24);
	l = create(&f, 1, 2, 64, 2u << 24);
	store(&f, 0, r, 0, 256, 0);
	store(&f, 0, r, 0, 8, 0x11);
	store(&f, 0, r, 128, 8, 0x22);
	store(&f, 1, l, 0, 64, 0xee);
	struct m_op get = mop(M_OP_MRAPI_RMEM_GET, 1, -1);

	get.mrapi.id = 1;
	g = run(&f, get, MST(SUCCESS));
	ck_assert_int_eq(g, r);
	run(&f, mop(M_OP_MRAPI_RMEM_ATTACH, 1, g), MST(SUCCESS));
	run(&f, rw(M_OP_MRAPI_RMEM_READ, 1, g, l, 8, 2, 128, 8), MST(SUCCESS));
	ck_assert_uint_eq(f.m.mrapi.seg[l].bytes[0], 0x11);
	ck_assert_uint_eq(f.m.mrapi.seg[l].bytes[8], 0x22);
	ck_assert_uint_eq(f.m.mrapi.seg[l].bytes[16], 0xee); /* untouched */
	ck_assert_uint_eq(f.m.mrapi.seg[l].unknown[15], 0);
	struct m_op w = rw(M_OP_MRAPI_RMEM_WRITE, 1, g, l, 16, 1, 16, 16);

	w.mrapi.rmem_offset = 64;
	run(&f, w, MST(SUCCESS));
	ck_assert_uint_eq(f.m.mrapi.seg[r].bytes[64], 0x11);
	ck_assert_uint_eq(f.m.mrapi.seg[r].bytes[72], 0x22);
	ck_assert_uint_eq(f.m.mrapi.seg[r].unknown[79], 0);
	model_free(&f.m);
}
END_TEST

/* A local buffer the caller did not create is malformed; a write from unspecified bytes makes the target unspecified. */
START_TEST(test_local_of_another_node)
{
	struct fx f;
	struct m_pred pr;
	int r, l, g;

	fx_init(&f, 2, "generic");
	run(&f, mop(M_OP_MRAPI_INITIALIZE, 0, -1), MST(SUCCESS));
	run(&f, mop(M_OP_MRAPI_INITIALIZE, 1, -1), MST(SUCCESS));
	r = create(&f, 0, 1, 256, 1u << 24);
	l = create(&f, 1, 2, 64, 2u << 24);
	struct m_op get = mop(M_OP_MRAPI_RMEM_GET, 1, -1);

	get.mrapi.id = 1;
	g = run(&f, get, MST(SUCCESS));
	run(&f, mop(M_OP_MRAPI_RMEM_ATTACH, 1, g), MST(SUCCESS));
	struct m_op bad = rw(M_OP_MRAPI_RMEM_READ, 1, g, r, 8, 1, 8, 8);

	ck_assert_int_eq(model_predict(&f.m, &f.p, &bad, &pr), -EINVAL);
	store(&f, 0, r, 0, 256, 0x55);
	run(&f, rw(M_OP_MRAPI_RMEM_WRITE, 1, g, l, 8, 1, 8, 8), MST(SUCCESS)); /* l never stored: unspecified */
	ck_assert_uint_eq(f.m.mrapi.seg[r].unknown[0], 1);
	ck_assert_uint_eq(f.m.mrapi.seg[r].unknown[8], 0);
	model_free(&f.m);
}
END_TEST

/* init_attributes hands out the next attribute struct; set_attribute acts on obj. */
START_TEST(test_attributes_through_the_row)
{
	struct fx f;
	struct m_op set;
	int a0, a1;

	fx_init(&f, 1, "generic");
	run(&f, mop(M_OP_MRAPI_INITIALIZE, 0, -1), MST(SUCCESS));
	a0 = run(&f, mop(M_OP_MRAPI_RMEM_INIT_ATTRIBUTES, 0, -1), MST(SUCCESS));
	a1 = run(&f, mop(M_OP_MRAPI_RMEM_INIT_ATTRIBUTES, 0, -1), MST(SUCCESS));
	ck_assert_int_eq(a0, 0);
	ck_assert_int_eq(a1, 1);
	set = mop(M_OP_MRAPI_RMEM_SET_ATTRIBUTE, 0, a1);
	set.mrapi.attr_num = M_MRAPI_ATTR_DOMAIN_SHARED;
	set.mrapi.attr_size = 1;
	run(&f, set, MST(SUCCESS));
	ck_assert_uint_eq(f.m.mrapi.attrs[a1].shared, 0);
	ck_assert_uint_eq(f.m.mrapi.attrs[a0].shared, 1);
	ck_assert_str_eq(m_mrapi_call_str(M_MRAPI_LOCAL_STORE), "mrapi_local_store");
	model_free(&f.m);
}
END_TEST

Suite *suite_test_model_mrapi_row(void)
{
	Suite *s = suite_create("model_mrapi_row");
	TCase *tc = tcase_create("row");

	tcase_add_test(tc, test_read_into_and_write_from_local);
	tcase_add_test(tc, test_local_of_another_node);
	tcase_add_test(tc, test_attributes_through_the_row);
	suite_add_tcase(s, tc);
	return s;
}

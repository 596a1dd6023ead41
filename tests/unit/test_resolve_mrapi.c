/*
 * Unit tests of the resolution of MRAPI steps (harness/api/mrapi/resolve_mrapi.c):
 * the struct hcall fields each call fills, their defaults, and the local
 * buffer's size asked of the engine.
 */
#include "tests/unit/resolve_fx.h"

/* Objects: 0 a.A, 1 a.R, 2 b.L, 3 b.G, 4 b.Q, 5 a.R2. */
static const char text[] =
	"nodes a b\n"
	"a: mrapi_initialize\n"                                                                  /* 2 */
	"b: mrapi_initialize domain=7 node_id=42\n"                                              /* 3 */
	"a: mrapi_rmem_init_attributes A\n"                                                      /* 4 */
	"a: mrapi_rmem_set_attribute A attr=DOMAIN_SHARED value=0\n"                             /* 5 */
	"a: mrapi_rmem_create R id=ANY size=4K atype=DMA attrs=A null=MEM\n"                     /* 6 */
	"b: mrapi_rmem_create L id=3 size=256\n"                                                   /* 7 */
	"b: mrapi_rmem_get G id=9 atype=ANY\n"                                                   /* 8 */
	"b: mrapi_rmem_read G local=L+16 bytes=8 strides=4 rmem_stride=32 rmem_offset=2\n"       /* 9 */
	"b: mrapi_rmem_write_i Q rmem=G local=L bytes=4 local_size=64 local_stride=6 null=REQUEST\n" /* 10 */
	"b: mrapi_wait Q\n"                                                                      /* 11 */
	"b: mrapi_wait Q timeout=5\n"                                                            /* 12 */
	"a: mrapi_rmem_get_attribute R attr=RMEM_SIZE\n"                                         /* 13 */
	"a: mrapi_local_store R byte=0x7f off=16\n"                                              /* 14 */
	"a: mrapi_rmem_create R2 id=4 size=64 over=R+8\n";                                       /* 15 */

static void setup(void)
{
	fx_parse(text, "m.scn");
}

static void teardown(void)
{
	fx_free();
}

START_TEST(test_initialize_defaults)
{
	struct hcall c = fx_ok(2);

	ck_assert_uint_eq(c.op, M_OP_MRAPI_INITIALIZE);
	ck_assert_uint_eq(c.mrapi.domain, 1);
	ck_assert_uint_eq(c.mrapi.node_id, 1);
	c = fx_ok(3);
	ck_assert_uint_eq(c.mrapi.domain, 7);
	ck_assert_uint_eq(c.mrapi.node_id, 42);
}
END_TEST

START_TEST(test_create_get_attributes)
{
	struct hcall c = fx_ok(6);

	ck_assert_uint_eq(c.op, M_OP_MRAPI_RMEM_CREATE);
	ck_assert_uint_eq(c.mrapi.id, M_MRAPI_ID_ANY);
	ck_assert_uint_eq(c.mrapi.size, 4096);
	ck_assert_uint_eq(c.mrapi.atype, M_MRAPI_ATYPE_DMA);
	ck_assert_int_eq(c.mrapi.attrs, 0);
	ck_assert_int_eq(c.mrapi.over, -1);
	ck_assert_uint_eq(c.mrapi.nulls, M_MRAPI_NULL_MEM);
	c = fx_ok(7);
	ck_assert_uint_eq(c.mrapi.id, 3);
	ck_assert_uint_eq(c.mrapi.atype, M_MRAPI_ATYPE_DEFAULT);
	ck_assert_int_eq(c.mrapi.attrs, -1);
	ck_assert_int_eq(c.mrapi.over, -1);
	c = fx_ok(15);
	ck_assert_int_eq(c.mrapi.over, 1);
	ck_assert_uint_eq(c.mrapi.over_off, 8);
	c = fx_ok(8);
	ck_assert_uint_eq(c.op, M_OP_MRAPI_RMEM_GET);
	ck_assert_uint_eq(c.mrapi.id, 9);
	ck_assert_uint_eq(c.mrapi.atype, M_MRAPI_ATYPE_ANY);
	c = fx_ok(5);
	ck_assert_uint_eq(c.mrapi.attr_num, M_MRAPI_ATTR_DOMAIN_SHARED);
	ck_assert_uint_eq(c.mrapi.attr_size, 1);
	ck_assert_uint_eq(c.mrapi.attr_value, 0);
	c = fx_ok(13);
	ck_assert_uint_eq(c.mrapi.attr_num, M_MRAPI_ATTR_SIZE);
	ck_assert_uint_eq(c.mrapi.attr_size, 4);
}
END_TEST

START_TEST(test_read_write_shape)
{
	struct hcall c = fx_ok(9);

	ck_assert_uint_eq(c.op, M_OP_MRAPI_RMEM_READ);
	ck_assert_int_eq(c.obj, 3);
	ck_assert_int_eq(c.mrapi.local, 2);
	ck_assert_uint_eq(c.mrapi.local_offset, 16);
	ck_assert_uint_eq(c.mrapi.bytes, 8);
	ck_assert_uint_eq(c.mrapi.nstrides, 4);
	ck_assert_uint_eq(c.mrapi.rmem_stride, 32);
	ck_assert_uint_eq(c.mrapi.local_stride, 8); /* default: bytes */
	ck_assert_uint_eq(c.mrapi.rmem_offset, 2);
	ck_assert_uint_eq(c.mrapi.local_size, 0x400 + 2); /* L's len, from the engine */
	c = fx_ok(10);
	ck_assert_uint_eq(c.op, M_OP_MRAPI_RMEM_WRITE_I);
	ck_assert_int_eq(c.obj, 4);
	ck_assert_int_eq(c.mrapi.rmem, 3);
	ck_assert_uint_eq(c.mrapi.nstrides, 1);
	ck_assert_uint_eq(c.mrapi.rmem_stride, 4);
	ck_assert_uint_eq(c.mrapi.local_stride, 6);
	ck_assert_uint_eq(c.mrapi.local_size, 64);
	ck_assert_uint_eq(c.mrapi.nulls, M_MRAPI_NULL_REQUEST);
}
END_TEST

START_TEST(test_wait_and_local_store)
{
	struct hcall c = fx_ok(11);

	ck_assert_uint_eq(c.mrapi.timeout, M_MRAPI_TIMEOUT_INFINITE);
	c = fx_ok(12);
	ck_assert_uint_eq(c.mrapi.timeout, 5);
	c = fx_ok(14);
	ck_assert_uint_eq(c.op, M_OP_MRAPI_LOCAL_STORE);
	ck_assert_uint_eq(c.mrapi.byte, 0x7f);
	ck_assert_uint_eq(c.mrapi.off, 16);
	ck_assert_uint_eq(c.mrapi.len, 0x400 + 1 - 16); /* to R's end */
	ck_assert_uint_eq(c.mrapi.stored[0], 0x7f);
	ck_assert_uint_eq(c.mrapi.stored[M_MRAPI_BYTES - 1], 0x7f);
}
END_TEST

START_TEST(test_missing_local)
{
	struct hcall c;
	int32_t missing;

	fx_missing[0] = 2;
	ck_assert_int_eq(fx_res(9, &c, &missing), -ENOENT); /* local_size: L's len */
	ck_assert_int_eq(missing, 2);
	ck_assert_int_eq(fx_res(10, &c, &missing), 0);      /* local_size given */
	ck_assert_int_eq(fx_res(7, &c, &missing), 0);       /* creations name no engine numbers */
}
END_TEST

Suite *suite_test_resolve_mrapi(void)
{
	Suite *s = suite_create("resolve_mrapi");
	TCase *tc = tcase_create("mrapi");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_initialize_defaults);
	tcase_add_test(tc, test_create_get_attributes);
	tcase_add_test(tc, test_read_write_shape);
	tcase_add_test(tc, test_wait_and_local_store);
	tcase_add_test(tc, test_missing_local);
	suite_add_tcase(s, tc);
	return s;
}

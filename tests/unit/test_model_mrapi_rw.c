/*
 * Unit tests of the MRAPI model's transfers (catalog RMEM-RW-1..5,
 * RMEM-SYNC-1): argument checks, strided transfers byte by byte, the two
 * overrun formulas, the reference implementation's divergences, requests.
 */
#include "tests/unit/mrapi_fx.h"

START_TEST(test_RMEM_RW_1_argument_checks)
{
	struct mfx f;

	mfx_init(&f, 3, "generic");
	int h = shared_seg(&f, 1, 256);
	doit(&f, a_get(2, 1, 0), MS(SUCCESS));
	struct m_mrapi_args r = a_rw(M_MRAPI_READ, 2, h, 0, 8, 1, 8, 8);
	ck_assert(only(pr(&f, r), MS(ERR_RMEM_NOTATTACHED)));
	ck_assert(rule_in(pr(&f, r), MS(ERR_RMEM_NOTATTACHED), M_RULE_RMEM_RW_1));
	r.node = 1;
	ck_assert(only(pr(&f, r), MS(SUCCESS)));
	r.nulls = M_MRAPI_NULL_LOCAL;
	ck_assert(only(pr(&f, r), MS(ERR_PARAMETER)));
	r.nulls = 0;
	r.local_size = 0;
	ck_assert(only(pr(&f, r), MS(ERR_PARAMETER)));
	r.local_size = 12; /* the local side overruns */
	r.local_offset = 8;
	ck_assert(only(pr(&f, r), MS(ERR_RMEM_BUFF_OVERRUN)));
	r = a_rw(M_MRAPI_WRITE, 1, h, 0, 8, 4, 4, 8);
	ck_assert(only(pr(&f, r), MS(ERR_RMEM_STRIDE)));
	r.rmem_stride = 8;
	ck_assert(only(pr(&f, r), MS(SUCCESS)));
	r.bytes = 0;
	ck_assert(only(pr(&f, r), MS(ERR_PARAMETER)));
	/* a read_i not yet reported complete may block the next transfer on the buffer */
	struct m_mrapi_args ri = a_rw(M_MRAPI_READ_I, 1, h, 0, 8, 1, 8, 8);
	int q = doit(&f, ri, MS(SUCCESS));
	struct m_pred p = pr(&f, ri);
	ck_assert(has(p, MS(SUCCESS)) && has(p, MS(ERR_RMEM_BLOCKED)));
	ck_assert(rule_in(p, MS(ERR_RMEM_BLOCKED), M_RULE_RMEM_RW_1));
	struct m_mrapi_args w = A(M_MRAPI_WAIT, 1);
	w.req = (int16_t)q;
	w.timeout = M_MRAPI_TIMEOUT_INFINITE;
	doit(&f, w, MS(SUCCESS));
	ck_assert(only(pr(&f, ri), MS(SUCCESS)));
}
END_TEST

START_TEST(test_RMEM_RW_2_strided_transfer)
{
	struct mfx f;
	uint8_t src[64], local[64] = { 0 }, known[64] = { 0 };

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 128);
	for (unsigned i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i + 1);
	/* write 4 x 2 bytes from local 0,3,6,9 to rmem 10,20,30,40 */
	struct m_mrapi_args w = a_rw(M_MRAPI_WRITE, 1, h, 10, 2, 4, 10, 3);
	w.data = src;
	w.data_len = sizeof(src);
	struct m_pred p = pr(&f, w);
	ck_assert(rule_in(p, MS(SUCCESS), M_RULE_RMEM_RW_2));
	doit(&f, w, MS(SUCCESS));
	ck_assert_uint_eq(f.st.seg[h].bytes[10], 1);
	ck_assert_uint_eq(f.st.seg[h].bytes[21], 5);
	ck_assert_uint_eq(f.st.seg[h].bytes[40], 10);
	ck_assert_uint_eq(f.st.seg[h].unknown[40], 0);
	ck_assert_uint_eq(f.st.seg[h].unknown[12], 1); /* between strides: never written */
	struct m_mrapi_args r = a_rw(M_MRAPI_READ, 1, h, 20, 2, 2, 20, 2);
	doit(&f, r, MS(SUCCESS));
	ck_assert_int_eq(m_mrapi_read_image(&f.st, &r, local, known, sizeof(local)), 4);
	ck_assert(local[0] == 4 && local[1] == 5 && local[2] == 10 && local[3] == 11);
	ck_assert(known[0] && known[3] && !known[4]);
	uint64_t ro, lo;
	m_mrapi_transfer(&w, 3, &ro, &lo);
	ck_assert(ro == 40 && lo == 9);
}
END_TEST

START_TEST(test_RMEM_RW_3_overrun_exact_and_literal)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 100);
	/* last byte 90 + 10 - 1 = 99: inside; the literal end 90 + 10 = 100 is not past 100 */
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, h, 90, 10, 1, 10, 10)), MS(SUCCESS)));
	struct m_pred p = pr(&f, a_rw(M_MRAPI_READ, 1, h, 91, 10, 1, 10, 10));
	ck_assert(only(p, MS(ERR_RMEM_BUFF_OVERRUN)));
	ck_assert(rule_in(p, MS(ERR_RMEM_BUFF_OVERRUN), M_RULE_RMEM_RW_3));
	/* 3 strides of 4 bytes every 40: last byte 0 + 80 + 3 = 83 (inside), literal 120 > 100 */
	p = pr(&f, a_rw(M_MRAPI_WRITE, 1, h, 0, 4, 3, 40, 4));
	ck_assert_uint_eq(p.n, 2);
	ck_assert(has(p, MS(SUCCESS)) && has(p, MS(ERR_RMEM_BUFF_OVERRUN)));
	ck_assert_uint_eq(m_mrapi_last_byte(0, 4, 3, 40), 83);
	/* huge strides do not wrap */
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, h, 0, 4, 0xffffffffu, 0xffffffffu, 4)),
		       MS(ERR_RMEM_BUFF_OVERRUN)));
	ck_assert_uint_eq(m_mrapi_last_byte(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu),
			  UINT64_MAX - 0xffffffffull - 1);
	ck_assert_uint_eq(m_mrapi_last_byte(UINT64_MAX - 2, 8, 1, 0), UINT64_MAX);
	ck_assert_uint_eq(m_mrapi_last_byte(0, 8, 0, 8), UINT64_MAX);
}
END_TEST

START_TEST(test_RMEM_RW_4_reference_divergences)
{
	struct mfx f;

	mfx_init(&f, 2, "mca-ref");
	int h = shared_seg(&f, 1, 100);
	/* (a) STRIDE with one stride */
	struct m_pred p = pr(&f, a_rw(M_MRAPI_READ, 1, h, 0, 8, 1, 0, 0));
	ck_assert(only(p, MS(ERR_RMEM_STRIDE)));
	ck_assert(rule_in(p, MS(ERR_RMEM_STRIDE), M_RULE_RMEM_RW_4));
	/* rxe: libmrapi-rdma gives the reference's answer (declared), generic the spec's */
	struct mfx g;

	mfx_init(&g, 2, "rxe");
	int hg = shared_seg(&g, 1, 100);
	ck_assert(only(pr(&g, a_rw(M_MRAPI_READ, 1, hg, 0, 8, 1, 0, 0)), MS(ERR_RMEM_STRIDE)));
	mfx_init(&g, 2, "generic");
	hg = shared_seg(&g, 1, 100);
	ck_assert(only(pr(&g, a_rw(M_MRAPI_READ, 1, hg, 0, 8, 1, 0, 0)), MS(SUCCESS)));
	/* (c)+(d) the whole buffer is refused by its formula, with SUCCESS and no copy */
	p = pr(&f, a_rw(M_MRAPI_WRITE, 1, h, 0, 100, 1, 100, 100));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert_uint_eq(p.alt[0].effect, M_EFF_NONE);
	ck_assert(rule_in(p, MS(SUCCESS), M_RULE_RMEM_RW_4));
	/* (b) order: INVALID before STRIDE */
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, 9, 0, 8, 2, 1, 1)), MS(ERR_RMEM_INVALID)));
	/* the spec: a whole-buffer write is fine; both errors allowed */
	ck_assert_int_eq(m_profile_get("generic", 0, &f.p), 0);
	p = pr(&f, a_rw(M_MRAPI_WRITE, 1, h, 0, 100, 1, 100, 100));
	ck_assert(only(p, MS(SUCCESS)));
	ck_assert_uint_eq(p.alt[0].effect, M_EFF_DO);
	ck_assert(only(pr(&f, a_rw(M_MRAPI_READ, 1, h, 0, 8, 1, 0, 0)), MS(SUCCESS)));
	p = pr(&f, a_rw(M_MRAPI_READ, 1, 9, 0, 8, 2, 1, 1));
	ck_assert(has(p, MS(ERR_RMEM_INVALID)) && has(p, MS(ERR_RMEM_STRIDE)));
}
END_TEST

START_TEST(test_RMEM_RW_5_requests)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 64);
	struct m_mrapi_args r = a_rw(M_MRAPI_READ_I, 1, h, 0, 8, 1, 8, 8);
	r.nulls = M_MRAPI_NULL_REQUEST;
	ck_assert(only(pr(&f, r), MS(ERR_PARAMETER)));
	r.nulls = 0;
	int q = doit(&f, r, MS(SUCCESS));
	ck_assert_int_ge(q, 0);
	struct m_mrapi_args t = A(M_MRAPI_TEST, 1);
	t.req = (int16_t)q;
	struct m_pred p = pr(&f, t);
	ck_assert(has(p, MS(SUCCESS)) && has(p, MS(INCOMPLETE)));
	ck_assert(rule_in(p, MS(INCOMPLETE), M_RULE_RMEM_RW_5));
	t.node = 0; /* another node's request */
	ck_assert(only(pr(&f, t), MS(ERR_REQUEST_INVALID)));
	t.node = 1;
	struct m_mrapi_args w = t;
	w.call = M_MRAPI_WAIT;
	w.timeout = M_MRAPI_TIMEOUT_INFINITE;
	ck_assert(only(pr(&f, w), MS(SUCCESS)));
	doit(&f, w, MS(SUCCESS));
	ck_assert(only(pr(&f, w), MS(ERR_REQUEST_INVALID))); /* reported once */
	/* cancel, then wait says CANCELED; wait_any picks among several */
	int q1 = doit(&f, r, MS(SUCCESS)), q2 = doit(&f, r, MS(SUCCESS));
	struct m_mrapi_args c = A(M_MRAPI_CANCEL, 1);
	c.req = (int16_t)q1;
	doit(&f, c, MS(SUCCESS));
	struct m_mrapi_args any = A(M_MRAPI_WAIT_ANY, 1);
	any.reqs = (uint16_t)(1u << q1 | 1u << q2);
	any.timeout = M_MRAPI_TIMEOUT_INFINITE;
	p = pr(&f, any);
	ck_assert(has(p, MS(ERR_REQUEST_CANCELED)) && has(p, MS(SUCCESS)));
	doit(&f, any, MS(ERR_REQUEST_CANCELED));
	w.req = (int16_t)q2;
	doit(&f, w, MS(SUCCESS));
	/* wait_any over one request and entries that are none (q1, q2: reported): the spec allows
	 * REQUEST_INVALID or the valid one's completion (the reference's answer, its tests/rmem1.c) */
	int q3 = doit(&f, r, MS(SUCCESS));
	any.reqs = (uint16_t)(1u << q1 | 1u << q3 | 1u << q2);
	p = pr(&f, any);
	ck_assert(has(p, MS(ERR_REQUEST_INVALID)) && has(p, MS(SUCCESS)) && !has(p, MS(TIMEOUT)));
	doit(&f, any, MS(SUCCESS));
	ck_assert(only(pr(&f, any), MS(ERR_REQUEST_INVALID))); /* none valid */
	/* a refused post under mca-ref: SUCCESS now, the error from wait */
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	struct m_mrapi_args bad = a_rw(M_MRAPI_READ_I, 1, h, 60, 8, 2, 8, 8);
	ck_assert(only(pr(&f, bad), MS(SUCCESS)));
	int qb = doit(&f, bad, MS(SUCCESS));
	w.req = (int16_t)qb;
	w.timeout = 5;
	ck_assert(only(pr(&f, w), MS(SUCCESS)));
	t.req = (int16_t)qb;
	ck_assert(only(pr(&f, t), MS(SUCCESS))); /* done at post: never INCOMPLETE */
	bad.rmem_stride = 1;
	qb = doit(&f, bad, MS(SUCCESS));
	w.req = (int16_t)qb;
	ck_assert(only(pr(&f, w), MS(ERR_RMEM_STRIDE)));
	/* REQUEST_LIMIT */
	ck_assert_int_eq(m_profile_get("generic", 0, &f.p), 0);
	while (has(pr(&f, r), MS(SUCCESS)))
		doit(&f, r, MS(SUCCESS));
	ck_assert(only(pr(&f, r), MS(ERR_REQUEST_LIMIT)));
}
END_TEST

START_TEST(test_RMEM_SYNC_1_optional)
{
	struct mfx f;

	mfx_init(&f, 2, "generic");
	int h = shared_seg(&f, 1, 64);
	struct m_pred p = pr(&f, a_h(M_MRAPI_FLUSH, 1, h));
	ck_assert_uint_eq(p.n, 2);
	ck_assert(has(p, MS(SUCCESS)) && has(p, MS(ERR_NOT_SUPPORTED)));
	ck_assert(rule_in(p, MS(ERR_NOT_SUPPORTED), M_RULE_RMEM_SYNC_1));
	ck_assert(only(pr(&f, a_h(M_MRAPI_SYNC, 0, h)), MS(ERR_RMEM_NOTATTACHED)));
	ck_assert(only(pr(&f, a_h(M_MRAPI_SYNC, 0, 7)), MS(ERR_RMEM_INVALID)));
	ck_assert_int_eq(m_profile_get("mca-ref", 0, &f.p), 0);
	ck_assert(only(pr(&f, a_h(M_MRAPI_SYNC, 1, h)), MS(ERR_NOT_SUPPORTED)));
}
END_TEST

Suite *suite_test_model_mrapi_rw(void)
{
	Suite *s = suite_create("model_mrapi_rw");
	TCase *tc = tcase_create("mrapi_rw");

	RTEST(tc, RMEM_RW_1, test_RMEM_RW_1_argument_checks);
	RTEST(tc, RMEM_RW_2, test_RMEM_RW_2_strided_transfer);
	RTEST(tc, RMEM_RW_3, test_RMEM_RW_3_overrun_exact_and_literal);
	RTEST(tc, RMEM_RW_4, test_RMEM_RW_4_reference_divergences);
	RTEST(tc, RMEM_RW_5, test_RMEM_RW_5_requests);
	RTEST(tc, RMEM_SYNC_1, test_RMEM_SYNC_1_optional);
	suite_add_tcase(s, tc);
	return s;
}

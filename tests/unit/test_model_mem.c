/*
 * Unit tests of the model's memory held sparsely (model/mem.c, issue 30): a
 * buffer's contents are pages where written, 0 and known elsewhere; MRs of
 * 1 GiB are registered, written at their ends and their middle, compared,
 * and cloned without copying their bytes; a copy writes its own pages
 * (copy on write); the pages of a scenario are bounded (M_MR_BYTES_MAX).
 */
#include "tests/unit/model_fx.h"
#include "model/internal.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#define GIB (1ull << 30)

/* Two nodes with a 1 GiB RW MR each, connected RC QPs. */
static struct pair gib_pair(struct fx *f)
{
	struct pair s;

	fx_init(f, 2, "rxe");
	s.pa = fx_pd(f, 0);
	s.pb = fx_pd(f, 1);
	s.ma = fx_mr(f, 0, s.pa, GIB, RW);
	s.mb = fx_mr(f, 1, s.pb, GIB, RW);
	s.qa = fx_qp(f, 0, s.pa, QP_ALL);
	s.qb = fx_qp(f, 1, s.pb, QP_ALL);
	fx_connect(f, 0, s.qa, 1, s.qb);
	return s;
}

static uint64_t held(const struct model *m)
{
	uint64_t b = 0;

	ck_assert_int_eq(model_mem_check(m, &b), 0);
	return b;
}

START_TEST(test_mem_gib_mr_written_at_its_ends_and_middle)
{
	struct fx f;
	struct pair s = gib_pair(&f);
	const uint64_t at[] = { 0, GIB / 2 - 4, GIB - 8 }; /* the middle one spans two pages */
	uint8_t want[8];

	ck_assert_ptr_nonnull(f.m.node[1].mr[s.mb].mem);
	ck_assert_uint_eq(held(&f.m), 0); /* registered, nothing written: no page held */
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(model_mr_set(&f.m, 0, s.ma, at[i], 0x40 + i, 8), 0);
		fx_do(&f, op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, at[i], 1, s.mb, at[i], 8), wc_(M_WC_SUCCESS));
	}
	/* node 0: 4 pages (the middle write spans two), node 1 the same */
	ck_assert_uint_eq(held(&f.m), 8 * M_PAGE);
	for (int i = 0; i < 3; i++) {
		memset(want, 0x40 + i, 8);
		ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, at[i], want, 8), -1);
		ck_assert_int_eq(model_mr_byte(&f.m, 1, s.mb, at[i] + 7), 0x40 + i);
	}
	ck_assert_int_eq(model_mr_byte(&f.m, 1, s.mb, GIB - 9), 0); /* untouched: 0, known */
	ck_assert_int_eq(model_mr_unknown(&f.m, 1, s.mb, GIB / 4), 0);
	ck_assert_int_eq(model_mr_byte(&f.m, 1, s.mb, GIB), -1); /* past its end */
	/* a READ of the last 8 bytes back into node 0's start */
	fx_do(&f, op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 16, 1, s.mb, GIB - 8, 8), wc_(M_WC_SUCCESS));
	ck_assert_int_eq(model_mr_byte(&f.m, 0, s.ma, 16), 0x42);
	ck_assert_int_eq(model_mr_byte(&f.m, 0, s.ma, 23), 0x42);
	ck_assert_uint_eq(held(&f.m), 8 * M_PAGE); /* node 0's first page was held already */
	memset(want, 0x42, 8);
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 16, want, 8), -1);
	want[3] = 0;
	ck_assert_int_eq(model_mr_compare(&f.m, 0, s.ma, 16, want, 8), 3);
	model_free(&f.m);
}
END_TEST

START_TEST(test_mem_clone_shares_pages_and_writes_its_own)
{
	struct fx f;
	struct pair s = gib_pair(&f);
	struct model c;
	struct timespec t0, t1;

	ck_assert_int_eq(model_mr_set(&f.m, 1, s.mb, GIB - 4096, 0x5a, 4096), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int k = 0; k < 1000; k++) { /* cheap: the list of pages, not 2 GiB of bytes and marks */
		ck_assert_int_eq(model_clone(&c, &f.m), 0);
		model_free(&c);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert(t1.tv_sec - t0.tv_sec < 5);
	ck_assert_int_eq(model_clone(&c, &f.m), 0);
	ck_assert(c.node[1].mr[s.mb].mem != f.m.node[1].mr[s.mb].mem);
	ck_assert(model_mr_same(&c, &f.m, 1, s.mb));
	ck_assert_int_eq(model_mr_set(&c, 1, s.mb, GIB - 1, 0x77, 1), 0); /* the copy's own page now */
	ck_assert_int_eq(model_mr_byte(&c, 1, s.mb, GIB - 1), 0x77);
	ck_assert_int_eq(model_mr_byte(&f.m, 1, s.mb, GIB - 1), 0x5a);
	ck_assert_int_eq(model_mr_byte(&c, 1, s.mb, GIB - 2), 0x5a);
	ck_assert(!model_mr_same(&c, &f.m, 1, s.mb));
	model_free(&f.m); /* the copy keeps what it shared */
	ck_assert_int_eq(model_mr_byte(&c, 1, s.mb, GIB - 4096), 0x5a);
	model_free(&c);
}
END_TEST

START_TEST(test_mem_pages_past_the_bound_are_refused)
{
	struct fx f;
	struct pair s = gib_pair(&f);

	ck_assert_int_eq(model_mr_set(&f.m, 0, s.ma, 0, 1, M_MR_BYTES_MAX), 0);
	ck_assert_uint_eq(held(&f.m), M_MR_BYTES_MAX); /* at the bound */
	ck_assert_int_eq(model_mr_set(&f.m, 0, s.ma, 0, 0, 64), 0); /* a page held is written again */
	ck_assert_int_eq(model_mem_check(&f.m, NULL), 0);
	ck_assert_int_eq(model_mr_set(&f.m, 1, s.mb, GIB / 2, 2, 1), 0); /* another buffer's page: past it */
	ck_assert_int_eq(model_mem_check(&f.m, NULL), -EFBIG);
	ck_assert_int_eq(model_mr_set(&f.m, 0, s.ma, M_MR_BYTES_MAX, 3, 1), -EFBIG); /* one buffer: no more */
	ck_assert_int_eq(model_mr_byte(&f.m, 0, s.ma, M_MR_BYTES_MAX), 0);
	/* a fill of 0 over pages not held writes none: what they hold already */
	ck_assert_int_eq(model_mr_set(&f.m, 1, s.mb, 0, 0, GIB / 4), 0);
	model_free(&f.m);
}
END_TEST

START_TEST(test_mem_copy_overlapping_across_pages_is_a_memmove)
{
	struct m_mem *m;
	uint8_t pat[3 * M_PAGE], got[3 * M_PAGE];
	int unknown;

	ck_assert_int_eq(m_mem_new(&m, 4 * M_PAGE), 0);
	for (size_t i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)(i * 7 + 1);
	m_mem_put(m, 0, pat, sizeof(pat), 0);
	m_mem_copy(m, 100, m, 0, sizeof(pat)); /* forward, overlapping: from the end */
	m_mem_get(m, 100, got, sizeof(got), &unknown);
	ck_assert_mem_eq(got, pat, sizeof(pat));
	ck_assert_int_eq(unknown, 0);
	m_mem_copy(m, 0, m, 100, sizeof(pat)); /* backward, overlapping */
	m_mem_get(m, 0, got, sizeof(got), &unknown);
	ck_assert_mem_eq(got, pat, sizeof(pat));
	m_mem_mark(m, M_PAGE - 2, 4, 1);
	m_mem_get(m, M_PAGE - 3, got, 1, &unknown);
	ck_assert_int_eq(unknown, 0);
	m_mem_get(m, M_PAGE - 2, got, 4, &unknown);
	ck_assert_int_eq(unknown, 1);
	ck_assert_uint_eq(model_mem_held_from(m, 3 * M_PAGE + 5), 3 * M_PAGE + 5); /* the copy reached page 3 */
	m_mem_drop(m);
	ck_assert_int_eq(m_mem_new(&m, 4 * M_PAGE), 0);
	ck_assert_uint_eq(model_mem_held_from(m, 0), UINT64_MAX);
	m_mem_fill(m, 2 * M_PAGE + 1, 9, 1);
	ck_assert_uint_eq(model_mem_held_from(m, 0), 2 * M_PAGE);
	ck_assert_uint_eq(model_mem_held_from(m, 2 * M_PAGE + 7), 2 * M_PAGE + 7);
	ck_assert_uint_eq(model_mem_held_from(m, 3 * M_PAGE), UINT64_MAX);
	m_mem_drop(m);
}
END_TEST

/* A second registration of a buffer in a slot below its owner's (a freed one): its clone sees the clone's pages. */
START_TEST(test_mem_clone_of_a_registration_below_its_owner)
{
	struct fx f;
	struct model c;
	int pd, low, own, again;

	fx_init(&f, 1, "rxe");
	pd = fx_pd(&f, 0);
	low = fx_mr(&f, 0, pd, 4096, M_ACC_LOCAL_WRITE);
	for (int i = 1; i < M_MAX_MR; i++)
		own = fx_mr(&f, 0, pd, GIB, M_ACC_LOCAL_WRITE);
	fx_do(&f, op_obj(M_OP_DEREG_MR, 0, low), ok_());
	struct m_op r = op_reg(0, pd, 8192, M_ACC_LOCAL_WRITE);
	r.verbs.in_buf = 1;
	r.verbs.mr = (int16_t)own;
	r.verbs.buf_off = GIB - 8192;
	again = fx_do(&f, r, ok_());
	ck_assert_int_eq(again, low); /* the table is full: the freed slot, below own's */
	ck_assert_int_eq(model_mr_set(&f.m, 0, own, GIB - 1, 0x31, 1), 0);
	ck_assert_int_eq(model_mr_byte(&f.m, 0, again, 8191), 0x31);
	ck_assert_int_eq(model_clone(&c, &f.m), 0);
	ck_assert(c.node[0].mr[again].mem == c.node[0].mr[own].mem);
	ck_assert(c.node[0].mr[again].mem != f.m.node[0].mr[own].mem);
	ck_assert_int_eq(model_mr_set(&c, 0, again, 8190, 0x32, 2), 0);
	ck_assert_int_eq(model_mr_byte(&c, 0, own, GIB - 1), 0x32);
	ck_assert_int_eq(model_mr_byte(&f.m, 0, own, GIB - 1), 0x31);
	model_free(&f.m);
	ck_assert_int_eq(model_mr_byte(&c, 0, again, 8190), 0x32);
	model_free(&c); /* ASan: each buffer's pages freed once */
}
END_TEST

Suite *suite_test_model_mem(void)
{
	Suite *s = suite_create("model_mem");
	TCase *tc = tcase_create("mem");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_mem_gib_mr_written_at_its_ends_and_middle);
	tcase_add_test(tc, test_mem_clone_shares_pages_and_writes_its_own);
	tcase_add_test(tc, test_mem_pages_past_the_bound_are_refused);
	tcase_add_test(tc, test_mem_copy_overlapping_across_pages_is_a_memmove);
	tcase_add_test(tc, test_mem_clone_of_a_registration_below_its_owner);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Unit tests of the walk along a profile's deviations of one rule
 * (model/profile.c: m_profile_dev_next, and m_profile_dev_first/after, which
 * m_decide takes): for every
 * built-in profile and rule, the chain it keeps visits exactly the
 * deviations a scan of the whole table finds, in table order; a profile
 * whose table is not a built-in one is scanned.
 */
#include "model/internal.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* The deviations of p on rule, by scanning the table: count, indexes into idx. */
static size_t scan(const struct m_profile *p, enum m_rule rule, size_t *idx)
{
	size_t n = 0;

	for (size_t d = 0; d < p->ndev; d++)
		if (p->dev[d].rule == rule)
			idx[n++] = d;
	return n;
}

/* The same by m_profile_dev_next. */
static size_t walk(const struct m_profile *p, enum m_rule rule, size_t *idx)
{
	size_t n = 0;

	for (size_t d = m_profile_dev_next(p, rule, 0); d < p->ndev; d = m_profile_dev_next(p, rule, d + 1))
		idx[n++] = d;
	return n;
}

/* The same by m_profile_dev_first and m_profile_dev_after (m_decide's walk). */
static size_t walk_chain(const struct m_profile *p, enum m_rule rule, size_t *idx)
{
	const uint16_t *chain;
	size_t n = 0;

	for (size_t d = m_profile_dev_first(p, rule, &chain); d < p->ndev; d = m_profile_dev_after(p, rule, chain, d))
		idx[n++] = d;
	return n;
}

static void same_walk(const struct m_profile *p)
{
	size_t *a = calloc(p->ndev + 1, sizeof(*a)), *b = calloc(p->ndev + 1, sizeof(*b));

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	for (int r = 0; r < M_RULE_COUNT_; r++) {
		size_t n = scan(p, (enum m_rule)r, a);

		ck_assert_uint_eq(walk(p, (enum m_rule)r, b), n);
		ck_assert_int_eq(memcmp(a, b, n * sizeof(*a)), 0);
		ck_assert_uint_eq(walk_chain(p, (enum m_rule)r, b), n);
		ck_assert_int_eq(memcmp(a, b, n * sizeof(*a)), 0);
	}
	free(a);
	free(b);
}

START_TEST(test_builtin_chains_visit_what_a_scan_finds)
{
	size_t seen = 0;

	for (size_t i = 0; i < m_profile_count(); i++) {
		struct m_profile p;

		ck_assert_int_eq(m_profile_get(m_profile_name(i), 0, &p), 0);
		same_walk(&p);
		seen += p.ndev;
	}
	ck_assert_uint_gt(seen, 10);
}
END_TEST

START_TEST(test_a_table_of_its_own_is_scanned)
{
	struct m_profile rxe, own;
	struct m_deviation *dev;

	ck_assert_int_eq(m_profile_get("rxe", 0, &rxe), 0);
	dev = malloc(rxe.ndev * sizeof(*dev));
	ck_assert_ptr_nonnull(dev);
	memcpy(dev, rxe.dev, rxe.ndev * sizeof(*dev));
	dev[0].rule = dev[rxe.ndev - 1].rule; /* not the built-in table any more: its chains would be wrong */
	own = rxe;
	own.dev = dev;
	same_walk(&own);
	own.ndev = rxe.ndev - 1; /* the built-in table's start, another length */
	own.dev = rxe.dev;
	same_walk(&own);
	free(dev);
}
END_TEST

Suite *suite_test_model_profile_dev(void)
{
	Suite *s = suite_create("test_model_profile_dev");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_builtin_chains_visit_what_a_scan_finds);
	tcase_add_test(tc, test_a_table_of_its_own_is_scanned);
	suite_add_tcase(s, tc);
	return s;
}

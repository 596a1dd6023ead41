/*
 * Unit tests of the walk along a profile's deviations of one rule
 * (model/profile.c: m_profile_dev_next, m_profile_dev_first/after, and
 * m_profile_dev_part_first, which m_decide takes): for every
 * built-in profile and rule, the chain it keeps visits exactly the
 * deviations a scan of the whole table finds, in table order (by rule and
 * decision part: no other); a profile whose table is not a built-in one is
 * scanned, though a copy of m_profile_get's still names the built-in chains.
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

/* The deviations of p on rule at part by m_profile_dev_part_first (m_decide's walk), those of that rule
 * and part kept (a scanned table's walk may visit others); *exact: it visited no other. */
static size_t walk_part(const struct m_profile *p, enum m_rule rule, unsigned part, size_t *idx, int *exact)
{
	const uint16_t *chain;
	size_t n = 0;

	*exact = 1;
	for (size_t d = m_profile_dev_part_first(p, rule, part, &chain); d < p->ndev;
	     d = m_profile_dev_after(p, rule, chain, d)) {
		if (p->dev[d].rule == rule && p->dev[d].part == part)
			idx[n++] = d;
		else
			*exact = 0;
	}
	return n;
}

/* Every rule and part's walk finds what a scan finds, in table order; with the built-in chains
 * (builtin) it visits nothing else. */
static void same_part_walk(const struct m_profile *p, int builtin)
{
	size_t *a = calloc(p->ndev + 1, sizeof(*a)), *b = calloc(p->ndev + 1, sizeof(*b));

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	for (int r = 0; r < M_RULE_COUNT_; r++)
		for (unsigned part = 0; part < M_DEV_PARTS + 2; part++) {
			size_t n = 0;
			int exact;

			for (size_t d = 0; d < p->ndev; d++)
				if (p->dev[d].rule == (enum m_rule)r && p->dev[d].part == part)
					a[n++] = d;
			ck_assert_uint_eq(walk_part(p, (enum m_rule)r, part, b, &exact), n);
			ck_assert_int_eq(memcmp(a, b, n * sizeof(*a)), 0);
			if (builtin && part < M_DEV_PARTS)
				ck_assert_int_eq(exact, 1);
		}
	free(a);
	free(b);
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
		same_part_walk(&p, 1);
		p.walks = NULL; /* a profile built by hand: the table is looked up */
		same_part_walk(&p, 1);
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
	own.dev = dev; /* m_profile_get's hint (own.walks) kept: it must not be taken for this table */
	same_walk(&own);
	same_part_walk(&own, 0);
	own.ndev = rxe.ndev - 1; /* the built-in table's start, another length */
	own.dev = rxe.dev;
	same_walk(&own);
	same_part_walk(&own, 0);
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

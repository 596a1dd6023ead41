/* coverage.c — semantic coverage of rules by scenario results (coverage.h). */
#include "harness/report/coverage.h"

#include "harness/corpus/load.h"
#include "harness/run/be_model.h"

#include <string.h>

void cov_init(struct rule_cov *c)
{
	memset(c->hits, 0, sizeof(c->hits));
	for (size_t r = 0; r < M_RULE_COUNT_; r++)
		c->first[r] = -1;
}

void cov_add(struct rule_cov *c, const struct result *r, size_t idx)
{
	for (size_t i = 0; i < M_RULE_COUNT_; i++)
		if (result_rule_has(r, (enum m_rule)i)) {
			if (c->hits[i]++ == 0)
				c->first[i] = (long)idx;
		}
}

size_t cov_missing(const struct rule_cov *c)
{
	size_t n = 0;

	for (size_t r = 0; r < M_RULE_COUNT_; r++)
		n += m_rule_info((enum m_rule)r)->status == M_ENCODED && c->hits[r] == 0;
	return n;
}

/* The catalog areas (the first letter of every rule's section), in rules.def order. Returns how many. */
static size_t cov_areas(char *areas, size_t cap)
{
	size_t na = 0;

	for (size_t r = 0; r < M_RULE_COUNT_; r++) {
		char a = m_rule_info((enum m_rule)r)->section[0];

		if (!memchr(areas, a, na) && na + 1 < cap)
			areas[na++] = a;
	}
	return na;
}

/* Area a's encoded rules (*enc), not encoded ones (*not_enc); returns how many of c exercised. */
static unsigned cov_area_count(const struct rule_cov *c, char a, unsigned *enc, unsigned *not_enc)
{
	unsigned hit = 0;

	*enc = *not_enc = 0;
	for (size_t r = 0; r < M_RULE_COUNT_; r++) {
		const struct m_rule_info *ri = m_rule_info((enum m_rule)r);

		if (ri->section[0] != a)
			continue;
		if (ri->status == M_NOT_ENCODED) {
			(*not_enc)++;
			continue;
		}
		(*enc)++;
		hit += c->hits[r] > 0;
	}
	return hit;
}

void cov_print(FILE *out, const struct rule_cov *c, const struct result *rs, const char *prefix)
{
	char areas[8] = "";
	size_t na = 0;

	for (size_t r = 0; rs && r < M_RULE_COUNT_; r++) {
		const struct m_rule_info *ri = m_rule_info((enum m_rule)r);

		if (ri->status == M_NOT_ENCODED)
			fprintf(out, "%s%-16s not encoded  %s\n", prefix, ri->id, ri->function);
		else if (c->hits[r] == 0)
			fprintf(out, "%s%-16s NOT EXERCISED\n", prefix, ri->id);
		else
			fprintf(out, "%s%-16s %4u scn     %s\n", prefix, ri->id, c->hits[r], rs[c->first[r]].file);
	}
	na = cov_areas(areas, sizeof(areas));
	for (size_t i = 0; i < na; i++) {
		unsigned enc, not_enc, hit = cov_area_count(c, areas[i], &enc, &not_enc);

		fprintf(out, "%srules %c: %u of %u encoded rules exercised (%u not encoded)\n", prefix, areas[i], hit,
			enc, not_enc);
	}
}

void cov_print_compare(FILE *out, const struct rule_cov *run, const struct rule_cov *walk, char *const *files,
		       const char *prefix)
{
	char areas[8];
	size_t na = cov_areas(areas, sizeof(areas));

	for (size_t i = 0; i < na; i++) {
		unsigned enc, not_enc, hit = cov_area_count(run, areas[i], &enc, &not_enc);
		unsigned whit = cov_area_count(walk, areas[i], &enc, &not_enc);

		if (!hit && !whit)
			continue; /* an area neither the run nor the walk of its files touched: not this run's */
		fprintf(out, "%srules %c: %u of %u encoded rules exercised by this run, %u by the model walk of these files "
			     "(%u not encoded)\n", prefix, areas[i], hit, enc, whit, not_enc);
		for (size_t r = 0; r < M_RULE_COUNT_; r++) {
			const struct m_rule_info *ri = m_rule_info((enum m_rule)r);

			if (ri->section[0] == areas[i] && walk->hits[r] && !run->hits[r])
				fprintf(out, "%s  %s: reached by the model walk (%s), not by this run\n", prefix, ri->id,
					walk->first[r] >= 0 ? files[walk->first[r]] : "?");
		}
	}
}


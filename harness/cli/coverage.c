/* coverage.c — semantic coverage of rules by scenario results (coverage.h). */
#include "harness/cli/coverage.h"

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
	for (size_t r = 0; r < M_RULE_COUNT_; r++) {
		char a = m_rule_info((enum m_rule)r)->section[0];

		if (!memchr(areas, a, na) && na + 1 < sizeof(areas))
			areas[na++] = a;
	}
	for (size_t i = 0; i < na; i++) {
		unsigned enc = 0, hit = 0, not_enc = 0;

		for (size_t r = 0; r < M_RULE_COUNT_; r++) {
			const struct m_rule_info *ri = m_rule_info((enum m_rule)r);

			if (ri->section[0] != areas[i])
				continue;
			if (ri->status == M_NOT_ENCODED) {
				not_enc++;
				continue;
			}
			enc++;
			hit += c->hits[r] > 0;
		}
		fprintf(out, "%srules %c: %u of %u encoded rules exercised (%u not encoded)\n", prefix, areas[i], hit,
			enc, not_enc);
	}
}

/*
 * scn_meta.c — the conventions a corpus file keeps beyond the grammar: it
 * says what it shows (`title`), names the model rule it exercises
 * (`cite rule ID`), and the IDs it names exist. `rdmacheck lint` enforces
 * them; `run` accepts a file without them (a tester's first draft runs).
 */
#include "harness/lang/scn_internal.h"

#include <stdio.h>

/* Candidate i: the ID of the i-th rule of the model. */
static const char *cand_rule(const void *ctx, size_t i)
{
	const struct m_rule_info *r = i < M_RULE_COUNT_ ? m_rule_info((enum m_rule)i) : NULL;

	(void)ctx;
	return r ? r->id : NULL;
}

size_t scn_meta_check(const struct scn_file *f, struct scn_diags *d)
{
	struct scn_ctx c = { .f = (struct scn_file *)f, .d = d };
	char hint[224];

	if (!f->title_line)
		scn_diag(&c, 1, 1, "say in one line what the scenario shows: 'title …' "
			 "(scenarios/TEMPLATE.scn)", SCN_E_NO_TITLE);
	if (!f->nrules)
		scn_diag(&c, 1, 1, "name the model rule it exercises, e.g. 'cite rule MR-ACC-1' "
			 "(rdmacheck coverage lists the rules)", SCN_E_NO_RULE_CITE);
	for (size_t i = 0; i < f->nrules; i++) {
		const struct scn_rule_cite *r = &f->rules[i];
		enum m_rule found;

		if (r->id[0] && m_rule_find(r->id, &found) == 0)
			continue;
		scn_hint_best(r->id, cand_rule, NULL, true, hint, sizeof(hint));
		scn_diag(&c, r->line, r->col, hint, SCN_E_UNKNOWN_RULE, r->id[0] ? r->id : "(too long)");
	}
	return c.stmt_errs;
}

/* rules.c — the rule table, generated from model/rules.def. */
#include "model/model.h"

#include <errno.h>
#include <string.h>

static const struct m_rule_info rules[M_RULE_COUNT_] = {
#define RULE(sym, id, sec, status, fn, summary, cite) { id, sec, status, fn, summary, cite },
#include "model/rules.def"
#undef RULE
};

const struct m_rule_info *m_rule_info(enum m_rule r)
{
	if ((unsigned)r >= M_RULE_COUNT_)
		return NULL;
	return &rules[r];
}

int m_rule_find(const char *id, enum m_rule *out)
{
	for (unsigned i = 0; i < M_RULE_COUNT_; i++)
		if (strcmp(rules[i].id, id) == 0) {
			*out = (enum m_rule)i;
			return 0;
		}
	return -ENOENT;
}

/*
 * explain.h — `rdmacheck explain RULE-ID [PATH...]`: a rule of the model, its
 * citation, the profiles' deviations from it and the scenarios that exercise
 * it; `rdmacheck explain --catalog`: every rule as Markdown (docs/rules.md).
 */
#ifndef RDMACHECK_EXPLAIN_H
#define RDMACHECK_EXPLAIN_H

#include "model/model.h"

#include <stdio.h>

int cmd_explain(int argc, char **argv);

/* The catalog as Markdown, from model/rules.def (m_rule_info) and the profiles' deviations. */
void explain_catalog(FILE *out);

/* One deviation as a line: "rxe, kernel 6.1 to 7.0: replace with EINVAL — CITATION (component)". */
void explain_deviation(FILE *out, const char *profile, const struct m_deviation *d, int markdown);

#endif

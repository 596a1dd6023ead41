/*
 * coverage.h — semantic coverage: which rules of model/rules.def a set of
 * scenario results exercised (a rule is exercised when it decided an
 * alternative a run followed; struct result.rules).
 */
#ifndef RDMACHECK_COVERAGE_H
#define RDMACHECK_COVERAGE_H

#include "harness/run/runner.h"
#include "harness/lang/scn.h"

#include <stdio.h>

struct rule_cov {
	unsigned hits[M_RULE_COUNT_];   /* scenarios that exercised rule r */
	long first[M_RULE_COUNT_];      /* index of the first of them, -1 none */
};

/* Start empty. */
void cov_init(struct rule_cov *c);
/* Count the rules of result idx. */
void cov_add(struct rule_cov *c, const struct result *r, size_t idx);
/* Encoded rules no result exercised. */
size_t cov_missing(const struct rule_cov *c);
/*
 * One line per catalog area: "A: 77 of 77 encoded rules exercised (11 not
 * encoded)", each line starting with prefix; with rs (the results cov_add saw, for file names), first a
 * table of every rule: ID, status, scenarios, the first scenario or the
 * reason it is not encoded.
 */
void cov_print(FILE *out, const struct rule_cov *c, const struct result *rs, const char *prefix);

/*
 * One line per catalog area the run or the walk touched (an area with no
 * rule exercised by either is left out) comparing what a run exercised (run) with what
 * the model walk of the same files exercises (walk, as `rdmacheck coverage`
 * counts): "rules A: 73 of 74 encoded rules exercised by this run, 74 by the
 * model walk of these files (14 not encoded)", then, for each rule the walk
 * reaches and the run did not, "  RULE-ID: reached by the model walk (FILE),
 * not by this run" (files: the walk's file names by index). Lines start with prefix.
 */
void cov_print_compare(FILE *out, const struct rule_cov *run, const struct rule_cov *walk, char *const *files,
		       const char *prefix);

#endif

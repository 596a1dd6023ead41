/*
 * cov_html.h — semantic coverage as one HTML page (the run writes it into its
 * results directory as coverage.html; make coverage keeps the corpus run's
 * beside the line and branch report, ci/coverage-report):
 *   - per catalog area: encoded rules exercised by the run, and by the model
 *     walk of the same files (what `rdmacheck coverage` counts);
 *   - the rule × API family matrix: for every rule of model/rules.def, per
 *     family (the family of a scenario is that of its calls: librpma, uDAPL,
 *     ... over verbs; verbs when it calls nothing else), how many of its
 *     scenarios exercised the rule in this run ("run"), or only in the model
 *     walk ("walk"); the gaps (encoded rules nothing exercises) first, the
 *     rules not encoded (n/a, with the reason) last; each row lists the
 *     scenarios that exercise its rule;
 *   - deviations by provider: every deviation the profile declares, grouped
 *     by the component it belongs to (the kernel provider or a library), with
 *     how many scenarios of this run were an xfail by it.
 */
#ifndef RDMACHECK_COV_HTML_H
#define RDMACHECK_COV_HTML_H

#include "harness/lang/scn.h"
#include "harness/run/runner.h"

/* One scenario of the page. */
struct cov_case {
	const char *file;
	const struct scn_file *f;       /* NULL: does not parse (counted nowhere) */
	const struct result *run;       /* what the run gave */
	const struct result *walk;      /* the model walk's result (lint mode), NULL if none */
};

/* The family a scenario belongs to (see above). */
enum m_family cov_family(const struct scn_file *f);

/*
 * Write the page to path (whole or not at all: afile.h). stack names what
 * ran (outer_ran_on: "soft-RoCE (rxe) in a VM (ci/vm, Linux 6.1.0-27-amd64)",
 * "the model simulating profile rxe 6.1"); prof is the profile judged against. Returns 0
 * or -errno.
 */
int cov_html(const char *path, const struct cov_case *cases, size_t n, const char *stack,
	     const struct m_profile *prof);

#endif

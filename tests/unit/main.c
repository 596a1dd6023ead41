/*
 * The one unit-test binary: runs every Check suite of tests/unit/ (the list is
 * generated from the file names into suites.inc). Fork mode isolates each test
 * and enforces Check's per-test timeout. Prints Check's summary and a final
 * plain line "N passed, N failed". Exit status 0 iff every test passed.
 * An optional argument selects one suite by name (tests/run-unit runs them
 * so, side by side, with UNIT_JOBS): every suite is still made, so that what
 * the suites register as they are made (model_fx.h's RTEST, which
 * test_model_rules checks) is as in a whole run; the others are freed unrun.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE(name) Suite *suite_##name(void);
#include "suites.inc"
#undef SUITE

struct entry {
	const char *name;
	Suite *(*make)(void);
};

static const struct entry suites[] = {
#define SUITE(name) { #name, suite_##name },
#include "suites.inc"
#undef SUITE
};

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	SRunner *sr = NULL, *unrun = NULL;
	size_t n = sizeof(suites) / sizeof(suites[0]);

	for (size_t i = 0; i < n; i++) {
		Suite *s = suites[i].make();
		SRunner **to = only && strcmp(only, suites[i].name) != 0 ? &unrun : &sr;

		if (!*to)
			*to = srunner_create(s);
		else
			srunner_add_suite(*to, s);
	}
	if (unrun)
		srunner_free(unrun);
	if (!sr) {
		fprintf(stderr, "unit-tests: no suite named '%s'\n", only ? only : "");
		return 2;
	}
	srunner_run_all(sr, CK_ENV);
	int run = srunner_ntests_run(sr);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("%d passed, %d failed\n", run - failed, failed);
	return failed == 0 && run > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

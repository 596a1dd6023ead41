/*
 * fuzz_scn.c — the libFuzzer target over the scenario language (issue 16,
 * "keep it fixed"): any bytes go through the parser; a file that parses goes
 * through the corpus conventions (scn_meta_check), lint (the model engine,
 * every expect checked) and the canonical printer's round trip (printed,
 * parsed again, printed again: the same text). A crash, a sanitizer report
 * or a broken round trip is a finding. Built by `make fuzz` (ci/ci.mk) with
 * clang -fsanitize=fuzzer,address,undefined into build/fuzz/fuzz-scn.
 */
#include "harness/corpus/load.h"
#include "harness/lang/scn.h"
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TEXT_MAX (1u << 20)

/* Step i of f, formatted, and a newline at text + *n. */
static void print_step(const struct scn_file *f, size_t i, char *text, size_t *n)
{
	size_t w = scn_step_format(f, &f->steps[i], text + *n, TEXT_MAX - *n);

	if (w >= TEXT_MAX - *n)
		abort(); /* a printed step longer than the buffer */
	*n += w;
	text[(*n)++] = '\n';
}

/*
 * f as canonical text (the nodes line, every step, a repeat block as its
 * block with its body once) into a new buffer; its length in *len.
 */
static char *print_file(const struct scn_file *f, size_t *len)
{
	char *text = malloc(TEXT_MAX);
	size_t n, b = 0;

	if (!text)
		abort();
	n = (size_t)snprintf(text, TEXT_MAX, "nodes");
	for (size_t i = 0; i < f->nnodes; i++)
		n += (size_t)snprintf(text + n, TEXT_MAX - n, " %s", f->nodes[i]);
	text[n++] = '\n';
	for (size_t i = 0; i < f->nsteps && n < TEXT_MAX - SCN_LINE_MAX - 16;) {
		const struct scn_block *k = b < f->nblocks && f->blocks[b].first == i ? &f->blocks[b++] : NULL;

		if (!k) {
			print_step(f, i++, text, &n);
			continue;
		}
		n += (size_t)snprintf(text + n, TEXT_MAX - n, "repeat %u {\n", k->times);
		for (size_t j = i; j < i + k->nbody && n < TEXT_MAX - SCN_LINE_MAX - 4; j++)
			print_step(f, j, text, &n);
		n += (size_t)snprintf(text + n, TEXT_MAX - n, "}\n");
		i += (size_t)k->nbody * k->times;
	}
	text[n] = '\0';
	*len = n;
	return text;
}

/* The printer's promise: its text parses again to the same steps. */
static void round_trip(const struct scn_file *f)
{
	struct scn_diags d;
	struct scn_file *g = NULL;
	size_t len, len2;
	char *text = print_file(f, &len), *again;

	if (scn_parse_text(text, len, "printed.scn", &g, &d) != 0) {
		char msg[512] = "";

		if (d.n)
			scn_diag_format(&d.d[0], "printed.scn", msg, sizeof(msg));
		fprintf(stderr, "fuzz_scn: the canonical text does not parse:\n%s\n--- text:\n%s", msg, text);
		abort();
	}
	again = print_file(g, &len2);
	if (g->nsteps != f->nsteps || len2 != len || memcmp(text, again, len) != 0) {
		fprintf(stderr, "fuzz_scn: printing is not stable:\n%s--- then:\n%s", text, again);
		abort();
	}
	free(again);
	free(text);
	scn_free(g);
}

/* lint: the scenario on the model engine, every expect against the model. */
static void lint(const struct scn_file *f)
{
	struct m_profile gen, rxe;
	struct be_model eng;
	struct result r;

	m_profile_get("generic", 0, &gen);
	m_profile_get("rxe", 0, &rxe);
	struct run_opts o = { .mode = RUN_LINT, .prof = rxe, .engine_caps = cli_all_caps() };

	if (bm_init(&eng, f, &gen) == 0 && run_scenario(f, &be_model_ops, &eng, &o, &r) == 0)
		result_clear(&r);
	bm_free(&eng);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scn_diags d, md;
	struct scn_file *f = NULL;

	if (scn_parse_text((const char *)data, size, "fuzz.scn", &f, &d) != 0)
		return 0;
	scn_meta_check(f, &md);
	lint(f);
	round_trip(f);
	scn_free(f);
	return 0;
}

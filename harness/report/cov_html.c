/* cov_html.c — the semantic coverage page (cov_html.h). */
#include "harness/report/cov_html.h"

#include "harness/base/afile.h"
#include "harness/report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define esc report_xml_text

enum m_family cov_family(const struct scn_file *f)
{
	enum m_family fam = M_FAM_VERBS;

	for (size_t i = 0; f && i < f->nsteps; i++) {
		const struct scn_call *c = scn_step_call(&f->steps[i]);

		if (c && c->api != M_FAM_VERBS && c->api != M_FAM_MEM)
			return (enum m_family)c->api;
	}
	return fam;
}

static const char style[] =
	"<style>body{font:14px sans-serif;margin:1em 2em}table{border-collapse:collapse;margin:1em 0}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
	"td.run{background:#9e9}td.walk{background:#fe8}td.none{background:#fbb}td.ne{background:#ddd;color:#555}td.fam{color:#999}"
	"span.run{background:#9e9}span.walk{background:#fe8}"
	"th{background:#eee}small{color:#555}</style>\n";

/* Per area: "A: R of E by this run, W by the model walk (N not encoded)". */
static void areas(FILE *out, const unsigned (*run)[M_FAM_COUNT_], const unsigned (*walk)[M_FAM_COUNT_])
{
	char seen[8] = "";
	size_t ns = 0;

	fputs("<table><tr><th>area</th><th>encoded rules</th><th>exercised by this run</th>"
	      "<th>by the model walk</th><th>not encoded</th></tr>\n", out);
	for (size_t r = 0; r < M_RULE_COUNT_; r++) {
		char a = m_rule_info((enum m_rule)r)->section[0];
		unsigned enc = 0, hr = 0, hw = 0, ne = 0;

		if (memchr(seen, a, ns) || ns + 1 >= sizeof(seen))
			continue;
		seen[ns++] = a;
		for (size_t q = 0; q < M_RULE_COUNT_; q++) {
			const struct m_rule_info *ri = m_rule_info((enum m_rule)q);
			unsigned any_r = 0, any_w = 0;

			if (ri->section[0] != a)
				continue;
			if (ri->status == M_NOT_ENCODED) {
				ne++;
				continue;
			}
			enc++;
			for (int fam = 0; fam < M_FAM_COUNT_; fam++) {
				any_r += run[q][fam];
				any_w += walk[q][fam];
			}
			hr += any_r > 0;
			hw += any_w > 0;
		}
		fprintf(out, "<tr><td>%c</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td></tr>\n", a, enc, hr, hw, ne);
	}
	fputs("</table>\n", out);
}

/* The scenarios of cases that exercise rule r: in this run (class run), else only in the model walk (walk). */
static void rule_scenarios(FILE *out, const struct cov_case *cases, size_t n, enum m_rule r)
{
	unsigned k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			int ran = result_rule_has(cases[i].run, r) != 0;
			int walked = cases[i].walk && result_rule_has(cases[i].walk, r);

			if (pass == 0 ? !ran : ran || !walked)
				continue;
			fputs(k++ ? "<br>" : "<details><summary>scenarios</summary>", out);
			fprintf(out, "<span class=\"%s\">", pass ? "walk" : "run");
			esc(out, cases[i].file);
			fputs(pass ? "</span> <small>(model walk only)</small>" : "</span>", out);
		}
	if (k)
		fputs("</details>", out);
}

/* One row of the matrix: rule r, its family cells, its summary, the scenarios exercising it. */
static void matrix_row(FILE *out, const unsigned (*run)[M_FAM_COUNT_], const unsigned (*walk)[M_FAM_COUNT_],
		       const struct cov_case *cases, size_t n, size_t r, unsigned any)
{
	const struct m_rule_info *ri = m_rule_info((enum m_rule)r);

	fprintf(out, "<tr id=\"%s\"><td>", ri->id);
	esc(out, ri->id);
	fputs("</td><td>", out);
	esc(out, ri->section);
	fputs("</td>", out);
	for (int fam = 0; fam < M_FAM_COUNT_; fam++) {
		if (fam == M_FAM_MEM)
			continue;
		if (ri->status == M_NOT_ENCODED)
			fputs("<td class=\"ne\">n/a</td>", out);
		else if (run[r][fam])
			fprintf(out, "<td class=\"run\">%u run</td>", run[r][fam]);
		else if (walk[r][fam])
			fprintf(out, "<td class=\"walk\">%u walk</td>", walk[r][fam]);
		else if (!any)
			fputs("<td class=\"none\">not exercised</td>", out);
		else
			fputs("<td class=\"fam\">&ndash;</td>", out); /* other families exercise it */
	}
	fputs("<td>", out);
	if (ri->status == M_NOT_ENCODED) {
		fputs("<small>", out);
		esc(out, ri->function); /* "not encoded: WHY" */
		fputs("</small>", out);
	} else {
		esc(out, ri->summary);
	}
	fputs("</td><td>", out);
	rule_scenarios(out, cases, n, (enum m_rule)r);
	fputs("</td></tr>\n", out);
}

/*
 * The rule × family matrix: the gaps first (encoded rules nothing exercises),
 * then the exercised rules, then the rules not encoded, each in rules.def order.
 */
static void matrix(FILE *out, const unsigned (*run)[M_FAM_COUNT_], const unsigned (*walk)[M_FAM_COUNT_],
		   const unsigned *nfam, const struct cov_case *cases, size_t n)
{
	fputs("<h2>Rules &times; API family</h2>\n<p><small>A cell counts the scenarios of the family that "
	      "exercised the rule in this run (green), or that reach it only in the model walk (yellow); "
	      "<b>not exercised</b> (red): an encoded rule nothing exercises, listed first; &ndash;: this family "
	      "does not exercise it, others do; <b>n/a</b> (grey): the rule is not encoded in the model. The last "
	      "column lists the scenarios exercising the rule.</small></p>\n<table><tr><th>rule</th><th>section</th>",
	      out);
	for (int fam = 0; fam < M_FAM_COUNT_; fam++)
		if (fam != M_FAM_MEM)
			fprintf(out, "<th>%s<br><small>%u scenarios</small></th>", scn_api_str((enum m_family)fam),
				nfam[fam]);
	fputs("<th>summary</th><th>exercised by</th></tr>\n", out);
	for (int pass = 0; pass < 3; pass++) /* 0 the gaps, 1 the exercised, 2 the not encoded */
		for (size_t r = 0; r < M_RULE_COUNT_; r++) {
			unsigned any = 0;
			int kind;

			for (int fam = 0; fam < M_FAM_COUNT_; fam++)
				any += run[r][fam] + walk[r][fam];
			kind = m_rule_info((enum m_rule)r)->status == M_NOT_ENCODED ? 2 : any ? 1 : 0;
			if (kind == pass)
				matrix_row(out, run, walk, cases, n, r, any);
		}
	fputs("</table>\n", out);
}

/* How many results are an xfail by deviation rule id ("declared deviation ID of profile ..."). */
static unsigned xfails_by(const struct cov_case *cases, size_t n, const char *id)
{
	char needle[96];
	unsigned k = 0;

	snprintf(needle, sizeof(needle), "declared deviation %s ", id);
	for (size_t i = 0; i < n; i++)
		k += cases[i].run->v == V_XFAIL && strstr(cases[i].run->reason, needle) != NULL;
	return k;
}

/* Deviations by provider: the profile's, grouped by component. */
static void deviations(FILE *out, const struct cov_case *cases, size_t n, const struct m_profile *prof)
{
	fprintf(out, "<h2>Deviations by provider (profile %s", prof->name);
	if (prof->kernel)
		fprintf(out, ", kernel %u.%u", prof->kernel / 1000, prof->kernel % 1000);
	fputs(")</h2>\n<table><tr><th>provider</th><th>rule</th><th>kind</th><th>outcomes</th><th>kernels</th>"
	      "<th>xfails in this run</th><th>citation</th></tr>\n", out);
	for (int pass = 0; pass < 2; pass++) /* the kernel provider's first, then the libraries' */
		for (size_t i = 0; i < prof->ndev; i++) {
			const struct m_deviation *d = &prof->dev[i];
			const char *id = m_rule_info(d->rule)->id;
			unsigned x;

			if ((pass == 0) != (d->component == NULL))
				continue;
			x = xfails_by(cases, n, id);
			fputs("<tr><td>", out);
			esc(out, d->component ? d->component : prof->name);
			fputs("</td><td>", out);
			esc(out, id);
			fprintf(out, "</td><td>%s</td><td>", m_dev_kind_str(d->kind));
			for (unsigned o = 0; o < d->n; o++) {
				char buf[48];

				fprintf(out, "%s", o ? ", " : "");
				esc(out, m_outcome_str(d->outs[o], buf, sizeof(buf)));
			}
			fprintf(out, "</td><td>%u.%u&ndash;%u.%u</td><td%s>%u</td><td><small>", d->kernel_min / 1000,
				d->kernel_min % 1000, d->kernel_max / 1000, d->kernel_max % 1000,
				x ? " class=\"run\"" : "", x);
			esc(out, d->citation);
			fputs("</small></td></tr>\n", out);
		}
	fputs("</table>\n", out);
}

int cov_html(const char *path, const struct cov_case *cases, size_t n, const char *stack,
	     const struct m_profile *prof)
{
	unsigned (*run)[M_FAM_COUNT_] = calloc(M_RULE_COUNT_, sizeof(*run));
	unsigned (*walk)[M_FAM_COUNT_] = calloc(M_RULE_COUNT_, sizeof(*walk));
	unsigned nfam[M_FAM_COUNT_] = { 0 };
	struct afile af;
	int rc = run && walk ? afile_open(&af, path) : -ENOMEM;

	if (rc) {
		free(run);
		free(walk);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		enum m_family fam;

		if (!cases[i].f)
			continue;
		fam = cov_family(cases[i].f);
		nfam[fam]++;
		for (size_t r = 0; r < M_RULE_COUNT_; r++) {
			run[r][fam] += result_rule_has(cases[i].run, (enum m_rule)r) != 0;
			walk[r][fam] += cases[i].walk && result_rule_has(cases[i].walk, (enum m_rule)r);
		}
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rdmacheck: semantic coverage</title>\n",
	      af.f);
	fputs(style, af.f);
	fputs("</head><body>\n<h1>Semantic coverage</h1>\n<p>", af.f);
	fprintf(af.f, "%zu scenarios run on ", n);
	esc(af.f, stack);
	fputs(", judged against profile ", af.f);
	esc(af.f, prof->name);
	fputs(". A rule is exercised when it decided an outcome the run followed; the model walk follows what "
	      "each scenario's <code>expect</code> names (as <code>rdmacheck coverage</code>).</p>\n", af.f);
	areas(af.f, (const unsigned (*)[M_FAM_COUNT_])run, (const unsigned (*)[M_FAM_COUNT_])walk);
	matrix(af.f, (const unsigned (*)[M_FAM_COUNT_])run, (const unsigned (*)[M_FAM_COUNT_])walk, nfam, cases, n);
	deviations(af.f, cases, n, prof);
	fputs("</body></html>\n", af.f);
	free(run);
	free(walk);
	return afile_close(&af, 1);
}

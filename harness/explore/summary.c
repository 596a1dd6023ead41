/* summary.c — summary.md, summary.html and the rules-over-time plot of a campaign (summary.h). */
#include "harness/explore/summary.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string; on failure it stays NULL and every append is a no-op. */
struct sbuf {
	char *s;
	size_t n, cap;
	int oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			b->oom = 1;
			return;
		}
		if (b->s && b->n + (size_t)k < b->cap) {
			b->n += (size_t)k;
			return;
		}
		size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)k;
		char *p = realloc(b->s, cap);

		if (!p) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
}

/* Text with &, <, > and " escaped for HTML. */
static void sb_html(struct sbuf *b, const char *t)
{
	for (; *t; t++)
		switch (*t) {
		case '&': sb_add(b, "&amp;"); break;
		case '<': sb_add(b, "&lt;"); break;
		case '>': sb_add(b, "&gt;"); break;
		case '"': sb_add(b, "&quot;"); break;
		default: sb_add(b, "%c", *t);
		}
}

/* The file at path (at most 64 KiB), or NULL. */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *t;
	size_t n;

	if (!fp)
		return NULL;
	t = malloc(65536 + 1);
	n = t ? fread(t, 1, 65536, fp) : 0;
	fclose(fp);
	if (t)
		t[n] = '\0';
	return t;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ------------------------------------------------------------- plot -- */

/* The rules reached over time as an SVG polyline (axes: seconds, rules exercised). */
static void plot(struct sbuf *b, const struct ex_campaign *cp)
{
	const double w = 560, h = 220, l = 50, r = 16, t = 14, bt = 34;
	double tmax = 1, rmax = 1;

	for (size_t i = 0; i < cp->npoints; i++) {
		tmax = cp->pts[i].t > tmax ? cp->pts[i].t : tmax;
		rmax = cp->pts[i].rules > rmax ? cp->pts[i].rules : rmax;
	}
	sb_add(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		  "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h, w, h);
	sb_add(b, "<title>rules reached over time</title>\n");
	sb_add(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444\"/>\n", l, h - bt, w - r, h - bt);
	sb_add(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#444\"/>\n", l, t, l, h - bt);
	sb_add(b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.0f</text>\n", l - 4, t + 4, rmax);
	sb_add(b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">0</text>\n", l - 4, h - bt);
	sb_add(b, "<text x=\"%.0f\" y=\"%.0f\">0 s</text>\n", l, h - bt + 14);
	sb_add(b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.0f s</text>\n", w - r, h - bt + 14, tmax);
	sb_add(b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">rules exercised by this run, over the "
		  "campaign's time</text>\n", (l + w - r) / 2, h - 4);
	sb_add(b, "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"2\" points=\"");
	for (size_t i = 0; i < cp->npoints; i++)
		sb_add(b, "%s%.1f,%.1f", i ? " " : "", l + (w - l - r) * cp->pts[i].t / tmax,
		       (h - bt) - (h - bt - t) * cp->pts[i].rules / rmax);
	sb_add(b, "\"/>\n</svg>\n");
}

/* ---------------------------------------------------------- figures -- */

struct figs {
	double secs, rate;
	unsigned rules;
};

static struct figs figures(const struct ex_summary *sum, const struct ex_campaign *cp)
{
	struct figs f = { sum->secs, 0, cp->corpus_rules };

	f.rate = f.secs > 0 ? (double)sum->real_steps / f.secs : 0;
	return f;
}

static const char *dev_of(const struct ex_found *f)
{
	return f->deviation[0] ? f->deviation : "-";
}

/* The campaign's state as the summary's title says it (ex_summary_write's final). */
static const char *state_word(int final)
{
	return final == 2 ? "interrupted" : final ? "ended" : "running";
}

/* ------------------------------------------------------------- md -- */

/* The rules the corpus (and the resumed files) reach that this run has not: what the generator misses. */
static void unreached_md(struct sbuf *b, const struct ex_campaign *cp)
{
	char ids[M_RULE_COUNT_ * 16];
	unsigned n = ex_campaign_unreached(cp, ids, sizeof(ids));

	sb_add(b, "## Rules the corpus reaches that this run did not (%u)\n\n%s\n\n", n, n ? ids : "None.");
}

static void markdown(struct sbuf *b, const struct ex_opts *o, const struct ex_summary *sum,
		     const struct ex_campaign *cp, int final)
{
	struct figs fg = figures(sum, cp);

	sb_add(b, "# rdmacheck explore: campaign summary (%s)\n\n", state_word(final));
	sb_add(b, "Seed %llu on the %s stack, judged against profile %s.\n\n", (unsigned long long)o->seed,
	       o->stack_name ? o->stack_name : "?", o->gen.judge.name);
	sb_add(b, "| figure | value |\n|---|---|\n");
	sb_add(b, "| elapsed | %.1f s |\n| steps generated | %lu in %lu scenarios |\n", fg.secs, sum->steps, sum->cases);
	sb_add(b, "| steps the stack ran | %lu (%.1f steps/s) |\n", sum->real_steps, fg.rate);
	sb_add(b, "| rules exercised by this run | %u (the corpus reaches %u; with the resumed files %u) |\n", sum->rules,
	       cp->corpus_rules, cp->resumed_rules);
	sb_add(b, "| divergences | %u, %zu distinct signatures |\n", sum->divergences, sum->nfound);
	if (sum->over)
		sb_add(b, "| not shrunk (the table of %zu was full) | %lu divergences of %zu%s further signatures |\n",
		       sum->nfound, sum->over, sum->nover, sum->over_lost ? " or more" : "");
	if (cp->dir)
		sb_add(b, "| corpus (`--resume=%s`) | %lu files resumed from, %lu kept by this run |\n", cp->dir,
		       cp->resumed, cp->kept);
	sb_add(b, "\n![rules reached over time](summary-rules.svg)\n\n");
	unreached_md(b, cp);
	sb_add(b, "## Divergences by signature\n\n");
	if (!sum->nfound)
		sb_add(b, "None.\n");
	else
		sb_add(b, "| # | call | reality | rules | seen | steps | declared deviation | first shrunk file |\n"
			  "|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sum->nfound; i++) {
		const struct ex_found *f = &sum->found[i];
		char link[9000];

		if (f->path[0])
			snprintf(link, sizeof(link), "[%s](%s)", base(f->path), base(f->path));
		else
			snprintf(link, sizeof(link), "-");
		sb_add(b, "| %zu | %s | %s | %s | %lu | %zu → %zu | %s | %s |\n", i + 1, f->sig.call, f->sig.real,
		       f->sig.rules, f->count, f->from, f->to, dev_of(f), link);
	}
	for (size_t i = 0; i < sum->nfound; i++) {
		char *text = sum->found[i].path[0] ? slurp(sum->found[i].path) : NULL;

		if (text)
			sb_add(b, "\n### %zu. %s\n\n```\n%s```\n", i + 1, base(sum->found[i].path), text);
		free(text);
	}
}

/* ------------------------------------------------------------ html -- */

static void html(struct sbuf *b, const struct ex_opts *o, const struct ex_summary *sum, const struct ex_campaign *cp,
		 int final)
{
	struct figs fg = figures(sum, cp);
	char line[512];

	sb_add(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		  "<title>rdmacheck explore: campaign summary</title>\n<style>body{font-family:sans-serif;max-width:60em;"
		  "margin:1em auto}table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 6px;"
		  "text-align:left}pre{background:#f4f4f4;padding:6px;overflow:auto}</style></head><body>\n");
	sb_add(b, "<h1>rdmacheck explore: campaign summary (%s)</h1>\n<p>Seed %llu on the ", state_word(final),
	       (unsigned long long)o->seed);
	sb_html(b, o->stack_name ? o->stack_name : "?");
	sb_add(b, " stack, judged against profile ");
	sb_html(b, o->gen.judge.name);
	sb_add(b, ".</p>\n<table>\n<tr><td>elapsed</td><td>%.1f s</td></tr>\n<tr><td>steps generated</td><td>%lu in %lu "
		  "scenarios</td></tr>\n<tr><td>steps the stack ran</td><td>%lu (%.1f steps/s)</td></tr>\n", fg.secs,
	       sum->steps, sum->cases, sum->real_steps, fg.rate);
	sb_add(b, "<tr><td>rules exercised by this run</td><td>%u (the corpus reaches %u; with the resumed files %u)</td>"
		  "</tr>\n<tr><td>divergences</td><td>%u, %zu distinct signatures</td></tr>\n", sum->rules,
	       cp->corpus_rules, cp->resumed_rules, sum->divergences, sum->nfound);
	if (sum->over)
		sb_add(b, "<tr><td>not shrunk (the table of %zu was full)</td><td>%lu divergences of %zu%s further "
			  "signatures</td></tr>\n", sum->nfound, sum->over, sum->nover, sum->over_lost ? " or more" : "");
	if (cp->dir) {
		sb_add(b, "<tr><td>corpus (--resume=");
		sb_html(b, cp->dir);
		sb_add(b, ")</td><td>%lu files resumed from, %lu kept by this run</td></tr>\n", cp->resumed, cp->kept);
	}
	sb_add(b, "</table>\n<h2>Rules reached over time</h2>\n");
	plot(b, cp);
	sb_add(b, "<h2>Divergences by signature</h2>\n");
	if (!sum->nfound)
		sb_add(b, "<p>None.</p>\n");
	else
		sb_add(b, "<table>\n<tr><th>#</th><th>call</th><th>reality</th><th>rules</th><th>seen</th><th>steps</th>"
			  "<th>declared deviation</th><th>first shrunk file</th></tr>\n");
	for (size_t i = 0; i < sum->nfound; i++) {
		const struct ex_found *f = &sum->found[i];

		snprintf(line, sizeof(line), "<tr><td>%zu</td><td>", i + 1);
		sb_add(b, "%s", line);
		sb_html(b, f->sig.call);
		sb_add(b, "</td><td>");
		sb_html(b, f->sig.real);
		sb_add(b, "</td><td>");
		sb_html(b, f->sig.rules);
		sb_add(b, "</td><td>%lu</td><td>%zu &rarr; %zu</td><td>", f->count, f->from, f->to);
		sb_html(b, dev_of(f));
		sb_add(b, "</td><td>");
		if (f->path[0]) {
			sb_add(b, "<a href=\"#f%zu\">", i + 1);
			sb_html(b, base(f->path));
			sb_add(b, "</a>");
		} else {
			sb_add(b, "-");
		}
		sb_add(b, "</td></tr>\n");
	}
	if (sum->nfound)
		sb_add(b, "</table>\n");
	for (size_t i = 0; i < sum->nfound; i++) {
		char *text = sum->found[i].path[0] ? slurp(sum->found[i].path) : NULL;

		if (text) {
			sb_add(b, "<h3 id=\"f%zu\">%zu. ", i + 1, i + 1);
			sb_html(b, base(sum->found[i].path));
			sb_add(b, "</h3>\n<pre>");
			sb_html(b, text);
			sb_add(b, "</pre>\n");
		}
		free(text);
	}
	sb_add(b, "</body></html>\n");
}

int ex_summary_write(const struct ex_opts *o, const struct ex_summary *sum, const struct ex_campaign *cp, int final)
{
	struct sbuf md = { 0 }, ht = { 0 }, svg = { 0 };
	char path[4200];
	int rc = 0;

	if (!o->out)
		return 0;
	rc = ex_mkdirs(o->out);
	if (rc)
		return rc;
	markdown(&md, o, sum, cp, final);
	html(&ht, o, sum, cp, final);
	plot(&svg, cp);
	if (md.oom || ht.oom || svg.oom)
		rc = -ENOMEM;
	snprintf(path, sizeof(path), "%s/summary-rules.svg", o->out);
	if (!rc)
		rc = ex_write_atomic(path, svg.s);
	snprintf(path, sizeof(path), "%s/summary.html", o->out);
	if (!rc)
		rc = ex_write_atomic(path, ht.s);
	snprintf(path, sizeof(path), "%s/summary.md", o->out);
	if (!rc)
		rc = ex_write_atomic(path, md.s);
	free(md.s);
	free(ht.s);
	free(svg.s);
	return rc;
}

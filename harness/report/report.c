/* report.c — text, TAP 13 and JUnit XML output of a run (report.h). */
#include "harness/report/report.h"

#include "harness/base/afile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

const char *report_format_str(enum report_format f)
{
	return f == REPORT_TEXT ? "text" : f == REPORT_TAP ? "tap" : "?";
}

int report_format_parse(const char *name, enum report_format *out)
{
	if (strcmp(name, "text") == 0)
		*out = REPORT_TEXT;
	else if (strcmp(name, "tap") == 0)
		*out = REPORT_TAP;
	else
		return -EINVAL;
	return 0;
}

void report_count(const struct result *rs, size_t n, size_t counts[V_COUNT_])
{
	memset(counts, 0, sizeof(size_t) * V_COUNT_);
	for (size_t i = 0; i < n; i++)
		if ((unsigned)rs[i].v < V_COUNT_)
			counts[rs[i].v]++;
}

void report_begin(FILE *out, enum report_format f, size_t total)
{
	if (f == REPORT_TAP)
		fprintf(out, "TAP version 13\n1..%zu\n", total);
	fflush(out);
}

/* Print text with every line prefixed (TAP YAML block or text indent). */
static void indented(FILE *out, const char *prefix, const char *text)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		fprintf(out, "%s%.*s\n", prefix, (int)len, text);
		text += len + (nl ? 1 : 0);
	}
}

/*
 * TAP text on the test line: control characters become blanks (a newline
 * would start a line of its own); in the description (hash = 1) '#' and '\\'
 * are escaped, so a title cannot end the description and fake a directive.
 */
static void tap_text(FILE *out, const char *s, int hash)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fputc(' ', out);
		else if (hash && (c == '#' || c == '\\'))
			fprintf(out, "\\%c", c);
		else
			fputc(c, out);
	}
}

/* The code point of the valid n-byte UTF-8 sequence at s (n from scn_utf8_len, 2..4). */
static unsigned utf8_code(const unsigned char *s, size_t n)
{
	unsigned cp = s[0] & (0xff >> (n + 1));

	for (size_t i = 1; i < n; i++)
		cp = (cp << 6) | (s[i] & 0x3f);
	return cp;
}

/*
 * A YAML double-quoted scalar's content, one line whatever the text: quotes,
 * backslashes, line breaks and every character YAML does not take as it is
 * (C0 and C1 controls, U+2028/2029, U+FFFE/FFFF) escaped; a byte that is not
 * UTF-8 becomes U+FFFD. Every YAML parser reads it back as the text.
 */
static void yaml_quoted(FILE *out, const char *s)
{
	while (*s) {
		const unsigned char *u = (const unsigned char *)s;
		size_t n = u[0] < 0x80 ? 1 : scn_utf8_len(u, strlen(s));
		unsigned cp = n > 1 ? utf8_code(u, n) : u[0];

		if (n == 0) {
			fputs("\\uFFFD", out);
			s++;
			continue;
		}
		if (cp == '"' || cp == '\\')
			fprintf(out, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", out);
		else if (cp == '\t')
			fputs("\\t", out);
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			fprintf(out, "\\x%02x", cp);
		else if (cp == 0x2028 || cp == 0x2029 || cp == 0xfffe || cp == 0xffff)
			fprintf(out, "\\u%04X", cp);
		else
			fwrite(s, 1, n, out);
		s += n;
	}
}

void report_result(FILE *out, enum report_format f, size_t k, const struct result *r)
{
	static const char *const tag[V_COUNT_] = { "PASS ", "FAIL ", "XFAIL", "SKIP ", "ERROR" };

	if (f == REPORT_TEXT) {
		fprintf(out, "%s %s  %s (%.1f s)\n", tag[r->v], r->file, r->title, r->secs);
		if (r->v != V_PASS && r->reason[0])
			fprintf(out, "      %s\n", r->reason);
		/* Details for failures and xfails; a pass has one only for its notes. */
		if (r->v != V_SKIP)
			indented(out, "    ", r->detail);
	} else {
		/* An expected failure is "not ok … # TODO": TAP consumers (prove) count it as
		 * expected, where "ok … # TODO" reads as an unexpected pass. */
		const char *ok = (r->v == V_PASS || r->v == V_SKIP) ? "ok" : "not ok";

		fprintf(out, "%s %zu - ", ok, k + 1);
		tap_text(out, r->file, 1);
		fputs(": ", out);
		tap_text(out, r->title, 1);
		if (r->v == V_SKIP || r->v == V_XFAIL) {
			fputs(r->v == V_SKIP ? " # SKIP " : " # TODO ", out);
			tap_text(out, r->reason, 0);
		}
		fprintf(out, "\n");
		if (r->v == V_FAIL || r->v == V_ERROR) {
			fprintf(out, "  ---\n  verdict: %s\n  message: \"", verdict_str(r->v));
			yaml_quoted(out, r->reason);
			fprintf(out, "\"\n");
			if (r->line)
				fprintf(out, "  line: %u\n", r->line);
			if (r->detail) {
				/* a quoted scalar: a block (|) takes its indentation from its
				 * first line, and a caret line indented more would end it early */
				fputs("  detail: \"", out);
				yaml_quoted(out, r->detail);
				fputs("\"\n", out);
			}
			fprintf(out, "  ...\n");
		} else if (r->v == V_PASS && r->detail) {
			indented(out, "# ", r->detail); /* notes, as TAP diagnostics */
		}
	}
	fflush(out);
}

void report_end(FILE *out, enum report_format f, const struct result *rs, size_t n, double secs)
{
	size_t c[V_COUNT_];

	report_count(rs, n, c);
	fprintf(out, "%s%zu scenarios: %zu pass, %zu fail, %zu xfail, %zu skip, %zu error (%.1f s)\n",
		f == REPORT_TAP ? "# " : "", n, c[V_PASS], c[V_FAIL], c[V_XFAIL], c[V_SKIP], c[V_ERROR], secs);
	fflush(out);
}

void report_not_run(FILE *out, enum report_format f, size_t not_run, size_t total, const char *why)
{
	fprintf(out, "%sinterrupted (%s): %zu of %zu %s not run\n", f == REPORT_TAP ? "Bail out! " : "", why, not_run,
		total, total == 1 ? "scenario" : "scenarios");
	fflush(out);
}

void report_not_run_case(struct result *r, size_t not_run, size_t total, const char *why)
{
	memset(r, 0, sizeof(*r));
	r->v = V_ERROR;
	snprintf(r->file, sizeof(r->file), "(interrupted)");
	snprintf(r->reason, sizeof(r->reason), "interrupted (%s): %zu of %zu %s not run", why, not_run, total,
		 total == 1 ? "scenario" : "scenarios");
}

void report_progress(size_t k, size_t total, const char *file)
{
	static char drawn[600]; /* what the terminal shows now: the same line is not drawn again */
	char line[sizeof(drawn)];

	if (!isatty(STDERR_FILENO))
		return;
	if (k >= total)
		line[0] = '\0';
	else
		snprintf(line, sizeof(line), "[%zu/%zu] %s", k + 1, total, file);
	if (strcmp(line, drawn) == 0)
		return;
	snprintf(drawn, sizeof(drawn), "%s", line);
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

/* Length of the valid UTF-8 sequence at s that is an XML character (U+0080 and up), or 0. */
static size_t xml_char_len(const unsigned char *s)
{
	size_t n = s[0] < 0x80 ? 0 : scn_utf8_len(s, strlen((const char *)s));

	if (n == 3 && s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
		return 0; /* U+FFFE, U+FFFF: not XML characters */
	return n;
}

/* Short name inside this file. */
#define xml report_xml_text

void report_xml_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t n;

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\n': case '\t': fputc(c, out); break;
		default:
			if (c < 0x20)
				fputc(' ', out);
			else if (c < 0x80)
				fputc(c, out);
			else if ((n = xml_char_len((const unsigned char *)s)) == 0)
				fputc('?', out);
			else {
				fwrite(s, 1, n, out);
				s += n - 1;
			}
			break;
		}
	}
}

/*
 * The class name of a scenario: its directory's components joined by dots
 * ("scenarios/verbs/x.scn" -> "scenarios.verbs"), without empty, "." and ".."
 * components or a component's leading dots; "scenarios" when none is left.
 */
static void classname(FILE *out, const char *file)
{
	const char *slash = strrchr(file, '/'), *p = file;
	int any = 0;

	while (slash && p < slash) {
		const char *end = memchr(p, '/', (size_t)(slash - p) + 1);
		char part[512];

		while (p < end && *p == '.')
			p++;
		if (p < end) {
			snprintf(part, sizeof(part), "%.*s", (int)(end - p), p);
			if (any)
				fputc('.', out);
			xml(out, part);
			any = 1;
		}
		p = end + 1;
	}
	if (!any)
		fputs("scenarios", out);
}

/*
 * The testcase name: "FILE: TITLE", as TAP's description; the title is what a
 * reader shows, the file finds the scenario (junit-10.xsd has no testcase@file).
 */
static void case_name(FILE *out, const struct result *r)
{
	xml(out, r->file);
	if (r->title[0]) {
		fputs(": ", out);
		xml(out, r->title);
	}
}

/*
 * The JUnit document follows junit-10.xsd (the Jenkins xunit plugin's schema,
 * tests/fixtures/junit-10.xsd), which GitLab's and GitHub's readers accept too:
 * skipped= only on <testsuite>, in a <testcase> the order skipped, error,
 * failure, system-out. A failure's or error's message is the reason, its text
 * the detail; an xfail passes with "xfail: REASON" and the detail as output.
 */
int report_junit(const char *path, const struct result *rs, size_t n, double secs)
{
	struct afile af;
	FILE *out;
	size_t c[V_COUNT_];
	int rc = afile_open(&af, path);

	if (rc)
		return rc;
	out = af.f;
	report_count(rs, n, c);
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(out, "<testsuites name=\"rdmacheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
		n, c[V_FAIL], c[V_ERROR], secs);
	fprintf(out, "  <testsuite name=\"rdmacheck\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
		     "time=\"%.3f\">\n", n, c[V_FAIL], c[V_ERROR], c[V_SKIP], secs);
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &rs[i];
		int out_text = r->v == V_XFAIL || (r->v == V_PASS && r->detail);

		fprintf(out, "    <testcase classname=\"");
		classname(out, r->file);
		fprintf(out, "\" name=\"");
		case_name(out, r);
		fprintf(out, "\" time=\"%.3f\"%s>\n", r->secs, (r->v == V_PASS && !r->detail) ? "/" : "");
		if (r->v == V_FAIL || r->v == V_ERROR) {
			fprintf(out, "      <%s message=\"", r->v == V_FAIL ? "failure" : "error");
			xml(out, r->reason);
			fprintf(out, "\" type=\"%s\">", verdict_str(r->v));
			xml(out, r->detail);
			fprintf(out, "</%s>\n", r->v == V_FAIL ? "failure" : "error");
		} else if (r->v == V_SKIP) {
			fprintf(out, "      <skipped message=\"");
			xml(out, r->reason);
			fprintf(out, "\"/>\n");
		} else if (out_text) {
			fprintf(out, "      <system-out>");
			if (r->v == V_XFAIL) {
				fprintf(out, "xfail: ");
				xml(out, r->reason);
				fputs(r->detail ? "\n" : "", out);
			}
			xml(out, r->detail);
			fprintf(out, "</system-out>\n");
		}
		if (r->v != V_PASS || r->detail)
			fprintf(out, "    </testcase>\n");
	}
	fprintf(out, "  </testsuite>\n</testsuites>\n");
	return afile_close(&af, 1);
}

/*
 * Unit tests of the JUnit XML a run writes (harness/report/report.c), checked for
 * well-formedness by a small XML reader in this file (balanced tags, quoted
 * attributes, entities, no control characters, valid UTF-8) and for structure
 * (counts, one testcase per scenario, failure / error / skipped elements,
 * escaped text that reads back as written, time attributes).
 */
#include "tests/unit/report_fx.h"

#include <errno.h>
#include <unistd.h>

/* --------------------------------------------------- a small XML reader -- */

#define X_ELS 64
#define X_ATTRS 8

struct xattr {
	char name[32];
	char value[1024];
};

struct xel {
	char name[32];
	int parent;
	int nattr;
	struct xattr attr[X_ATTRS];
	char text[2048]; /* the element's own text, entities resolved */
};

struct xdoc {
	int n;
	struct xel el[X_ELS];
	char err[256];
};

/* Length of the valid UTF-8 sequence (an XML Char) at s, or 0. */
static size_t x_utf8(const unsigned char *s)
{
	unsigned c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* Append the character data at *p (up to stop) to dst, resolving entities. 0 or -1 (d->err). */
static int x_chars(struct xdoc *d, const char **p, char stop, char *dst, size_t cap)
{
	size_t len = strlen(dst);

	while (**p && **p != stop) {
		const unsigned char *u = (const unsigned char *)*p;
		char c[5] = "";
		size_t n;

		if (*u == '<') {
			snprintf(d->err, sizeof(d->err), "raw '<' in %s", stop == '"' ? "an attribute" : "text");
			return -1;
		}
		if (*u == '&') {
			static const struct { const char *ent; char c; } ents[] = {
				{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' } };
			size_t k;

			for (k = 0; k < 5; k++)
				if (strncmp(*p, ents[k].ent, strlen(ents[k].ent)) == 0)
					break;
			if (k < 5) {
				c[0] = ents[k].c;
				*p += strlen(ents[k].ent);
			} else if ((*p)[1] == '#') {
				char *end;
				unsigned long v = (*p)[2] == 'x' ? strtoul(*p + 3, &end, 16) : strtoul(*p + 2, &end, 10);

				if (*end != ';' || v == 0 || v > 0x7f || (v < 0x20 && v != 9 && v != 10 && v != 13)) {
					snprintf(d->err, sizeof(d->err), "bad character reference '%.10s'", *p);
					return -1;
				}
				c[0] = (char)v;
				*p = end + 1;
			} else {
				snprintf(d->err, sizeof(d->err), "raw '&' ('%.10s')", *p);
				return -1;
			}
		} else if (strncmp(*p, "]]>", 3) == 0 && stop == '<') {
			snprintf(d->err, sizeof(d->err), "']]>' in text");
			return -1;
		} else if ((n = x_utf8(u)) == 0) {
			snprintf(d->err, sizeof(d->err), "bad character 0x%02x", *u);
			return -1;
		} else {
			memcpy(c, *p, n);
			c[n] = '\0';
			*p += n;
		}
		if (len + strlen(c) < cap) {
			memcpy(dst + len, c, strlen(c) + 1);
			len += strlen(c);
		}
	}
	return 0;
}

static int x_name(const char **p, char *name, size_t cap)
{
	size_t n = 0;

	if (!((**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') || **p == '_'))
		return -1;
	while ((**p >= 'a' && **p <= 'z') || (**p >= 'A' && **p <= 'Z') || (**p >= '0' && **p <= '9') ||
	       **p == '_' || **p == '-' || **p == '.' || **p == ':') {
		if (n + 1 < cap)
			name[n++] = **p;
		(*p)++;
	}
	name[n] = '\0';
	return 0;
}

static int x_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Parse a whole document: an optional XML declaration, one root element. 0, or -1 with d->err. */
static int xml_parse(const char *s, struct xdoc *d)
{
	const char *p = s;
	int stack[X_ELS], depth = 0, roots = 0;
	char junk[2048];

	memset(d, 0, sizeof(*d));
	if (strncmp(p, "<?xml ", 6) == 0) {
		p = strstr(p, "?>");
		if (!p) {
			snprintf(d->err, sizeof(d->err), "unterminated declaration");
			return -1;
		}
		p += 2;
	}
	for (;;) {
		char *text = depth ? d->el[stack[depth - 1]].text : junk;

		junk[0] = '\0';
		if (x_chars(d, &p, '<', text, depth ? sizeof(d->el[0].text) : sizeof(junk)))
			return -1;
		if (!depth)
			for (const char *q = junk; *q; q++)
				if (!x_space(*q)) {
					snprintf(d->err, sizeof(d->err), "text outside the root: '%.20s'", q);
					return -1;
				}
		if (!*p)
			break;
		p++; /* '<' */
		if (*p == '/') {
			char name[32];

			p++;
			if (x_name(&p, name, sizeof(name)) || *p != '>') {
				snprintf(d->err, sizeof(d->err), "bad end tag");
				return -1;
			}
			p++;
			if (!depth || strcmp(d->el[stack[depth - 1]].name, name) != 0) {
				snprintf(d->err, sizeof(d->err), "</%s> does not close <%s>", name,
					 depth ? d->el[stack[depth - 1]].name : "(nothing)");
				return -1;
			}
			depth--;
			continue;
		}
		if (*p == '!' || *p == '?') {
			snprintf(d->err, sizeof(d->err), "unexpected '<%c'", *p);
			return -1;
		}
		if (d->n == X_ELS) {
			snprintf(d->err, sizeof(d->err), "too many elements");
			return -1;
		}
		struct xel *e = &d->el[d->n];

		if (x_name(&p, e->name, sizeof(e->name))) {
			snprintf(d->err, sizeof(d->err), "bad tag name at '%.10s'", p);
			return -1;
		}
		e->parent = depth ? stack[depth - 1] : -1;
		if (!depth && roots++) {
			snprintf(d->err, sizeof(d->err), "a second root <%s>", e->name);
			return -1;
		}
		for (;;) {
			int sp = 0;

			while (x_space(*p)) {
				p++;
				sp = 1;
			}
			if (*p == '>' || (p[0] == '/' && p[1] == '>'))
				break;
			if (!sp || e->nattr == X_ATTRS) {
				snprintf(d->err, sizeof(d->err), "<%s>: bad attribute list at '%.10s'", e->name, p);
				return -1;
			}
			struct xattr *a = &e->attr[e->nattr];

			if (x_name(&p, a->name, sizeof(a->name)) || *p != '=' || p[1] != '"') {
				snprintf(d->err, sizeof(d->err), "<%s>: bad attribute at '%.10s'", e->name, p);
				return -1;
			}
			for (int k = 0; k < e->nattr; k++)
				if (strcmp(e->attr[k].name, a->name) == 0) {
					snprintf(d->err, sizeof(d->err), "<%s>: attribute %s twice", e->name, a->name);
					return -1;
				}
			p += 2;
			if (x_chars(d, &p, '"', a->value, sizeof(a->value)))
				return -1;
			if (*p != '"') {
				snprintf(d->err, sizeof(d->err), "<%s>: unterminated attribute", e->name);
				return -1;
			}
			p++;
			e->nattr++;
		}
		d->n++;
		if (*p == '/') {
			p += 2;
		} else {
			p++;
			stack[depth++] = d->n - 1;
		}
	}
	if (depth) {
		snprintf(d->err, sizeof(d->err), "<%s> is not closed", d->el[stack[depth - 1]].name);
		return -1;
	}
	if (!roots) {
		snprintf(d->err, sizeof(d->err), "no root element");
		return -1;
	}
	return 0;
}

static const char *x_attr(const struct xdoc *d, int i, const char *name)
{
	for (int k = 0; k < d->el[i].nattr; k++)
		if (strcmp(d->el[i].attr[k].name, name) == 0)
			return d->el[i].attr[k].value;
	return NULL;
}

/* The k-th child of element parent named name (-1 for any name), or -1. */
static int x_child(const struct xdoc *d, int parent, const char *name, int k)
{
	for (int i = 0; i < d->n; i++)
		if (d->el[i].parent == parent && (!name || strcmp(d->el[i].name, name) == 0) && k-- == 0)
			return i;
	return -1;
}

static int x_nchildren(const struct xdoc *d, int parent)
{
	int n = 0;

	for (int i = 0; i < d->n; i++)
		n += d->el[i].parent == parent;
	return n;
}

static int parses(const char *s)
{
	static struct xdoc d;

	return xml_parse(s, &d) == 0;
}

#define ck_assert_attr(d, i, an, want)                                                   \
	do {                                                                             \
		const char *v_ = x_attr(d, i, an);                                       \
		ck_assert_msg(v_ != NULL, "<%s> has no %s", (d)->el[i].name, an);        \
		ck_assert_str_eq(v_, want);                                              \
	} while (0)

/* Write rs[0..n) as JUnit to a temporary file; returns its contents. */
static char *junit(size_t n, double secs)
{
	char path[] = "/tmp/rdmacheck-junit-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(report_junit(path, rs, n, secs), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	unlink(path);
	return slurp(f);
}

START_TEST(test_junit_structure)
{
	static struct xdoc d;
	char *s;
	int suites, suite, tc, e;

	five();
	s = junit(5, 12.3456);
	ck_assert_msg(strncmp(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 39) == 0, "%.60s", s);
	ck_assert_msg(xml_parse(s, &d) == 0, "not well-formed: %s\n%s", d.err, s);
	/* <testsuites> holding one <testsuite> */
	suites = 0;
	ck_assert_str_eq(d.el[suites].name, "testsuites");
	ck_assert_int_eq(d.el[suites].parent, -1);
	ck_assert_attr(&d, suites, "name", "rdmacheck");
	ck_assert_attr(&d, suites, "tests", "5");
	ck_assert_attr(&d, suites, "failures", "1");
	ck_assert_attr(&d, suites, "errors", "1");
	ck_assert_ptr_null(x_attr(&d, suites, "skipped")); /* not allowed there by junit-10.xsd */
	ck_assert_attr(&d, suites, "time", "12.346");
	ck_assert_int_eq(x_nchildren(&d, suites), 1);
	suite = x_child(&d, suites, "testsuite", 0);
	ck_assert_int_ge(suite, 0);
	ck_assert_attr(&d, suite, "tests", "5");
	ck_assert_attr(&d, suite, "failures", "1");
	ck_assert_attr(&d, suite, "errors", "1");
	ck_assert_attr(&d, suite, "skipped", "1");
	ck_assert_attr(&d, suite, "time", "12.346");
	/* one <testcase> per result, in order, nothing else */
	ck_assert_int_eq(x_nchildren(&d, suite), 5);
	for (int k = 0; k < 5; k++) {
		char name[1100];

		tc = x_child(&d, suite, NULL, k);
		snprintf(name, sizeof(name), "%.500s: %.500s", rs[k].file, rs[k].title);
		ck_assert_str_eq(d.el[tc].name, "testcase");
		ck_assert_attr(&d, tc, "name", name); /* the title shows; the file finds it */
		ck_assert_ptr_null(x_attr(&d, tc, "file")); /* not allowed by junit-10.xsd */
		ck_assert_attr(&d, tc, "classname", k == 4 ? "scenarios.examples" : "scenarios.verbs");
		ck_assert_int_eq(x_nchildren(&d, tc), k == 0 ? 0 : 1);
	}
	ck_assert_attr(&d, x_child(&d, suite, NULL, 0), "time", "0.250");
	ck_assert_attr(&d, x_child(&d, suite, NULL, 1), "time", "1.500");
	ck_assert_attr(&d, x_child(&d, suite, NULL, 2), "time", "0.125");
	ck_assert_attr(&d, x_child(&d, suite, NULL, 3), "time", "0.000");
	ck_assert_attr(&d, x_child(&d, suite, NULL, 4), "time", "3.000");
	/* fail: <failure message=reason type="fail">detail</failure> */
	e = x_child(&d, x_child(&d, suite, NULL, 1), "failure", 0);
	ck_assert_int_ge(e, 0);
	ck_assert_attr(&d, e, "message", rs[1].reason);
	ck_assert_attr(&d, e, "type", "fail");
	ck_assert_str_eq(d.el[e].text, "  step:    b: write q\n  allowed: REM_ACCESS_ERR [RA-KEY-1]\n");
	/* xfail: passes, with the deviation in the output */
	e = x_child(&d, x_child(&d, suite, NULL, 2), "system-out", 0);
	ck_assert_int_ge(e, 0);
	ck_assert_str_eq(d.el[e].text, "xfail: line 19: send gave REM_OP_ERR: declared deviation LP-5 of profile rxe\n"
				       "  line 19: send: REM_OP_ERR\n    deviation LP-5: F: 64-byte send\n");
	/* skip: <skipped message=reason/> */
	e = x_child(&d, x_child(&d, suite, NULL, 3), "skipped", 0);
	ck_assert_int_ge(e, 0);
	ck_assert_attr(&d, e, "message", rs[3].reason);
	ck_assert_str_eq(d.el[e].text, "");
	/* error: <error message=reason type="error">detail</error> */
	e = x_child(&d, x_child(&d, suite, NULL, 4), "error", 0);
	ck_assert_int_ge(e, 0);
	ck_assert_attr(&d, e, "message", "cannot start the agents");
	ck_assert_attr(&d, e, "type", "error");
	ck_assert_str_eq(d.el[e].text, "");
	/* and those four elements once each in the document */
	ck_assert_int_eq(d.n, 2 + 5 + 4);
	free(s);
}
END_TEST

START_TEST(test_junit_escaping)
{
	static struct xdoc d;
	char *s;
	int suite, e;

	mk(0, V_FAIL, "dir/a&b<c>.scn", "T & <t> \"q\" 'a' ]]> <![CDATA[ x ]]>",
	   "message \"quoted\" & <b>bold</b> \x01\x1b[0m end", "  <detail> & \"more\"\n  ]]>\n  tab\tok\n", 4, 0);
	mk(1, V_SKIP, "s.scn", "t", "skip & \"why\" <now>", NULL, 0, 0);
	mk(2, V_XFAIL, "x.scn", "t&t", "dev <LP-5> & \"x\"", "  \x02 ctl\n", 0, 0);
	mk(3, V_PASS, "p.scn", "caf\xc3\xa9 \xe2\x88\xa9 ok", "", NULL, 0, 0);
	s = junit(4, 0);
	ck_assert_msg(xml_parse(s, &d) == 0, "not well-formed: %s\n%s", d.err, s);
	suite = x_child(&d, 0, "testsuite", 0);
	ck_assert_attr(&d, x_child(&d, suite, NULL, 0), "name",
		       "dir/a&b<c>.scn: T & <t> \"q\" 'a' ]]> <![CDATA[ x ]]>");
	e = x_child(&d, x_child(&d, suite, NULL, 0), "failure", 0);
	ck_assert_attr(&d, e, "message", "message \"quoted\" & <b>bold</b>   [0m end");
	ck_assert_str_eq(d.el[e].text, "  <detail> & \"more\"\n  ]]>\n  tab\tok\n");
	e = x_child(&d, x_child(&d, suite, NULL, 1), "skipped", 0);
	ck_assert_attr(&d, e, "message", "skip & \"why\" <now>");
	e = x_child(&d, x_child(&d, suite, NULL, 2), "system-out", 0);
	ck_assert_str_eq(d.el[e].text, "xfail: dev <LP-5> & \"x\"\n    ctl\n");
	ck_assert_attr(&d, x_child(&d, suite, NULL, 3), "name", "p.scn: caf\xc3\xa9 \xe2\x88\xa9 ok"); /* UTF-8 kept */
	/* the raw text has no '<' or '&' but markup's */
	ck_assert_ptr_null(strstr(s, "<b>"));
	ck_assert_ptr_null(strstr(s, "& "));
	ck_assert_ptr_null(strstr(s, "]]>"));
	free(s);
}
END_TEST

START_TEST(test_junit_invalid_utf8)
{
	static struct xdoc d;
	char *s;

	/* a file name is whatever bytes the file system holds; the report must stay XML */
	mk(0, V_FAIL, "caf\xe9.scn", "t", "bad \xff\xfe and overlong \xc0\xaf and surrogate \xed\xa0\x80", NULL, 0,
	   0);
	mk(1, V_PASS, "cut\xe2\x88.scn", "t \xef\xbf\xbf", "", NULL, 0, 0);
	s = junit(2, 0);
	ck_assert_msg(xml_parse(s, &d) == 0, "not well-formed: %s\n%s", d.err, s);
	free(s);
}
END_TEST

START_TEST(test_junit_classname)
{
	static const struct { const char *file, *cls; } cases[] = {
		{ "scenarios/verbs/x.scn", "scenarios.verbs" },
		{ "x.scn", "scenarios" },
		{ "./x.scn", "scenarios" },
		{ "./scenarios/x.scn", "scenarios" },
		{ "scenarios//verbs/x.scn", "scenarios.verbs" },
		{ "/tmp/a/x.scn", "tmp.a" },
		{ "../up/x.scn", "up" },
		{ "a/../b/./c/x.scn", "a.b.c" },
		{ "my.dir/x.scn", "my.dir" },
		{ "a&b/x.scn", "a&b" },
	};
	static struct xdoc d;
	size_t n = sizeof(cases) / sizeof(cases[0]);
	char *s;

	for (size_t i = 0; i < n; i += 8) {
		size_t m = n - i < 8 ? n - i : 8;

		for (size_t k = 0; k < m; k++) {
			result_clear(&rs[k]);
			mk(k, V_PASS, cases[i + k].file, "t", "", NULL, 0, 0);
		}
		s = junit(m, 0);
		ck_assert_msg(xml_parse(s, &d) == 0, "not well-formed: %s\n%s", d.err, s);
		for (size_t k = 0; k < m; k++) {
			const char *got = x_attr(&d, x_child(&d, x_child(&d, 0, "testsuite", 0), NULL, (int)k),
						 "classname");

			ck_assert_msg(got && strcmp(got, cases[i + k].cls) == 0, "%s: classname '%s', want '%s'",
				      cases[i + k].file, got ? got : "(none)", cases[i + k].cls);
		}
		free(s);
	}
}
END_TEST

START_TEST(test_junit_empty_run)
{
	static struct xdoc d;
	char *s = junit(0, 0);

	ck_assert_msg(xml_parse(s, &d) == 0, "not well-formed: %s\n%s", d.err, s);
	ck_assert_int_eq(d.n, 2);
	ck_assert_attr(&d, 0, "tests", "0");
	ck_assert_attr(&d, 0, "time", "0.000");
	ck_assert_attr(&d, 1, "tests", "0");
	ck_assert_int_eq(x_nchildren(&d, 1), 0);
	free(s);
}
END_TEST

START_TEST(test_junit_write_errors)
{
	five();
	ck_assert_int_eq(report_junit("/nonexistent-rdmacheck/dir/out.xml", rs, 5, 1), -ENOENT);
	if (access("/dev/full", W_OK) == 0)
		ck_assert_int_eq(report_junit("/dev/full", rs, 5, 1), -ENOSPC);
}
END_TEST

/* The reader itself: what it must refuse (so that the tests above can fail). */
START_TEST(test_xml_reader)
{
	ck_assert(parses("<a/>"));
	ck_assert(parses("<?xml version=\"1.0\"?>\n<a x=\"1\" y=\"&amp;&lt;&gt;&quot;&#10;\">t &amp; u<b/></a>\n"));
	ck_assert(!parses(""));
	ck_assert(!parses("<a>"));
	ck_assert(!parses("<a></b>"));
	ck_assert(!parses("<a><b></a></b>"));
	ck_assert(!parses("<a/><b/>"));
	ck_assert(!parses("<a>x & y</a>"));
	ck_assert(!parses("<a>x < y</a>"));
	ck_assert(!parses("<a>x ]]> y</a>"));
	ck_assert(!parses("<a x=\"<\"/>"));
	ck_assert(!parses("<a x=\"&\"/>"));
	ck_assert(!parses("<a x=\"1\" x=\"2\"/>"));
	ck_assert(!parses("<a x=1/>"));
	ck_assert(!parses("<a x=\"1\"y=\"2\"/>"));
	ck_assert(!parses("<a>\x01</a>"));
	ck_assert(!parses("<a>\xff</a>"));
	ck_assert(!parses("<a>\xc0\xaf</a>"));
	ck_assert(!parses("<a>\xed\xa0\x80</a>"));
	ck_assert(!parses("<a>&#1;</a>"));
	ck_assert(!parses("text<a/>"));
	ck_assert(!parses("<a/>text"));
}
END_TEST

Suite *suite_test_report_junit(void)
{
	Suite *s = suite_create("test_report_junit");
	TCase *tj = tcase_create("junit");

	tcase_add_checked_fixture(tj, NULL, teardown);
	tcase_add_test(tj, test_xml_reader);
	tcase_add_test(tj, test_junit_structure);
	tcase_add_test(tj, test_junit_escaping);
	tcase_add_test(tj, test_junit_invalid_utf8);
	tcase_add_test(tj, test_junit_classname);
	tcase_add_test(tj, test_junit_empty_run);
	tcase_add_test(tj, test_junit_write_errors);
	suite_add_tcase(s, tj);
	return s;
}

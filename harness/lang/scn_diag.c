/*
 * scn_diag.c — the parser's messages (one format per enum scn_err), their
 * collection (capped at SCN_DIAG_MAX) and formatting.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const formats[SCN_E_COUNT_] = {
	[SCN_E_FILE_TOO_LARGE] = "file is larger than %u bytes",
	[SCN_E_READ] = "cannot read the file: %s",
	[SCN_E_NUL] = "NUL byte in the text",
	[SCN_E_UTF8] = "invalid UTF-8",
	[SCN_E_LINE_TOO_LONG] = "line is longer than %u bytes",
	[SCN_E_TOO_MANY_WORDS] = "more than %u words on one line",
	[SCN_E_NON_ASCII] = "non-ASCII character outside a string or comment",
	[SCN_E_CONTROL] = "control character 0x%02x",
	[SCN_E_UNTERMINATED] = "unterminated string",
	[SCN_E_BAD_ESCAPE] = "bad escape '\\%c' in a string",
	[SCN_E_TEXT_TOO_LONG] = "text is longer than %u bytes",
	[SCN_E_UNKNOWN_STATEMENT] = "unknown statement '%s'",
	[SCN_E_NEEDS_TEXT] = "'%s' needs %s",
	[SCN_E_TWICE] = "'%s' given twice (first at line %u)",
	[SCN_E_HEADER_AFTER_STEP] = "header line '%s' after the first step",
	[SCN_E_NODE_COUNT] = "nodes takes 1 to %u names",
	[SCN_E_BAD_NODE_NAME] = "bad node name '%s'",
	[SCN_E_NODE_TWICE] = "node '%s' declared twice",
	[SCN_E_UNKNOWN_CAP] = "unknown capability '%s'",
	[SCN_E_TOO_MANY] = "too many %s (at most %u)",
	[SCN_E_NO_NODES] = "a step before the nodes line",
	[SCN_E_NO_STEPS] = "no steps",
	[SCN_E_UNKNOWN_NODE] = "unknown node '%s'",
	[SCN_E_UNKNOWN_CALL] = "unknown call '%s'",
	[SCN_E_NEEDS_NAME] = "%s needs the name of %s %s",
	[SCN_E_BAD_NAME] = "bad name '%s'",
	[SCN_E_RESERVED_NAME] = "'%s' cannot name an object: it is %s",
	[SCN_E_LIVE] = "'%s' already exists on node %s (created at line %u)",
	[SCN_E_UNKNOWN_NAME] = "unknown name '%s' on node %s",
	[SCN_E_WRONG_CLASS] = "'%s' is %s %s, %s needs %s",
	[SCN_E_UNKNOWN_KEY] = "unknown key '%s' for %s",
	[SCN_E_KEY_TWICE] = "key '%s' given twice",
	[SCN_E_MISSING_KEY] = "%s needs %s=",
	[SCN_E_NEEDS_VALUE] = "key '%s' needs a value",
	[SCN_E_TAKES_NO_VALUE] = "key '%s' takes no value",
	[SCN_E_BAD_INT] = "bad integer '%s'",
	[SCN_E_OVERFLOW] = "integer '%s' does not fit in 64 bits",
	[SCN_E_RANGE] = "%s=%llu is out of range %llu..%llu",
	[SCN_E_UNKNOWN_FLAG] = "unknown %s name '%s'",
	[SCN_E_WRONG_KIND] = "%s takes %s",
	[SCN_E_BAD_REF] = "bad reference '%s'",
	[SCN_E_UNKNOWN_ATTR] = "unknown attribute '%s'",
	[SCN_E_ATTR_CLASS] = "%s %s has no attribute '%s'",
	[SCN_E_BAD_HEX] = "bad hex bytes '%s'",
	[SCN_E_EXPECT_EMPTY] = "expect needs an outcome",
	[SCN_E_UNKNOWN_OUTCOME] = "unknown outcome '%s'",
	[SCN_E_CANNOT_PRODUCE] = "'%s' is not an outcome of %s",
	[SCN_E_UNEXPECTED] = "unexpected '%s'",
	[SCN_E_UNKNOWN_RESULT] = "%s reports no '%s'",
	[SCN_E_CONNECT_OPERANDS] = "connect takes two operands NODE.QP NODE.QP",
	[SCN_E_SAME_NODE] = "connect needs QPs on two different nodes",
	[SCN_E_OTHER_NODE] = "%s= names '%s' of node %s: it takes an object of the step's node",
	[SCN_E_MODEL_LIMIT] = "node %s: the model holds at most %u %s",
	[SCN_E_MR_TOO_LONG] = "len=%llu: the model holds at most %llu bytes per registration",
	[SCN_E_CHAIN] = "chain: %s",
	[SCN_E_SGE] = "SGE list: %s",
	[SCN_E_DECL_NODE] = "%s= makes '%s' on node %s (the peer's), not on node %s",
	[SCN_E_REPEAT] = "repeat: %s",
	[SCN_E_SEEN] = "seen: %s",
	[SCN_E_NO_TITLE] = "no 'title' line",
	[SCN_E_NO_RULE_CITE] = "no 'cite rule ID' line",
	[SCN_E_UNKNOWN_RULE] = "unknown rule '%s'",
	[SCN_E_WR_POST] = "wr=yes: %s",
};

const char *scn_err_str(enum scn_err e)
{
	return (unsigned)e < SCN_E_COUNT_ && formats[e] ? formats[e] : "?";
}

int scn_err_parse(const char *fmt, enum scn_err *out)
{
	for (unsigned i = 0; i < SCN_E_COUNT_; i++)
		if (formats[i] && strcmp(formats[i], fmt) == 0) {
			*out = (enum scn_err)i;
			return 0;
		}
	return -EINVAL;
}

static void vdiag(struct scn_ctx *c, uint32_t line, uint32_t col, const char *hint,
		  enum scn_err e, va_list ap)
{
	struct scn_diag *d;

	c->stmt_errs++;
	if (c->d->n >= SCN_DIAG_MAX) {
		c->d->dropped++;
		return;
	}
	d = &c->d->d[c->d->n++];
	d->code = (uint16_t)e;
	d->line = line;
	d->col = col;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	vsnprintf(d->msg, sizeof(d->msg), scn_err_str(e), ap);
#pragma GCC diagnostic pop
	snprintf(d->hint, sizeof(d->hint), "%s", hint ? hint : "");
}

void scn_diag(struct scn_ctx *c, uint32_t line, uint32_t col, const char *hint, enum scn_err e, ...)
{
	va_list ap;

	va_start(ap, e);
	vdiag(c, line, col, hint, e, ap);
	va_end(ap);
}

void scn_diag_w(struct scn_ctx *c, const struct scn_word *w, const char *hint, enum scn_err e, ...)
{
	va_list ap;

	va_start(ap, e);
	vdiag(c, c->ln ? c->ln->no : 0, w ? w->col : 1, hint, e, ap);
	va_end(ap);
}

/* Append to buf[*off..len) like snprintf; *off counts what the whole text needs. */
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*off < len ? buf + *off : NULL, *off < len ? len - *off : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n;
}

/* "   12 | SRC" and the caret line under character col (UTF-8 aware; tabs kept so it aligns). */
static void excerpt(char *buf, size_t len, size_t *off, uint32_t line, uint32_t col, const char *src)
{
	const unsigned char *p = (const unsigned char *)src;
	uint32_t c = 1;
	size_t w = 0;

	put(buf, len, off, "%5u | %s\n      | ", line, src);
	for (; *p && c < col; p++) {
		if ((*p & 0xc0) == 0x80)
			continue; /* a continuation byte: the same character */
		put(buf, len, off, "%c", *p == '\t' ? '\t' : ' ');
		c++;
	}
	while ((*p & 0xc0) == 0x80)
		p++; /* the rest of the last character before col */
	while (p[w] && p[w] != ' ' && p[w] != '\t')
		w++;
	put(buf, len, off, "^");
	for (size_t i = 1; i < w; i++)
		if ((p[i] & 0xc0) != 0x80)
			put(buf, len, off, "~");
	put(buf, len, off, "\n");
}

size_t scn_diag_format_src(const struct scn_diag *d, const char *file, const char *src, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	put(buf, len, &off, "%s:%u:%u: %s\n", file ? file : "-", d->line, d->col, d->msg);
	if (src && d->line && d->col)
		excerpt(buf, len, &off, d->line, d->col, src);
	if (d->hint[0])
		put(buf, len, &off, "  hint: %s\n", d->hint);
	return off;
}

size_t scn_diag_format(const struct scn_diag *d, const char *file, char *buf, size_t len)
{
	return scn_diag_format_src(d, file, NULL, buf, len);
}

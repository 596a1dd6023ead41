/*
 * scn_lex.c — one line of scenario text: checked (NUL, UTF-8, control
 * characters, length) and split into words. A word is a maximal run of
 * non-blank bytes; a double-quoted part may contain blanks and '#'
 * (escapes \" and \\ are kept raw here, decoded by scn_value.c). '#'
 * outside a string starts a comment. A title line is two words: `title` and
 * the rest of the line as written.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>

uint32_t scn_col(const struct scn_line *ln, const char *p)
{
	uint32_t col = 1;

	for (const char *q = ln->p; q < p; q++)
		if (((unsigned char)*q & 0xc0) != 0x80)
			col++;
	return col;
}

size_t scn_utf8_len(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* NUL, invalid UTF-8, control characters: anywhere in the line. */
static int check_bytes(struct scn_ctx *c, const struct scn_line *ln)
{
	const unsigned char *p = (const unsigned char *)ln->p;

	for (size_t i = 0; i < ln->len;) {
		size_t n = scn_utf8_len(p + i, ln->len - i);

		if (p[i] == 0) {
			scn_diag(c, ln->no, scn_col(ln, ln->p + i), NULL, SCN_E_NUL);
			return -EINVAL;
		}
		if (n == 0) {
			scn_diag(c, ln->no, scn_col(ln, ln->p + i), "save the file as UTF-8", SCN_E_UTF8);
			return -EINVAL;
		}
		if ((p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f) {
			scn_diag(c, ln->no, scn_col(ln, ln->p + i), NULL, SCN_E_CONTROL, p[i]);
			return -EINVAL;
		}
		i += n;
	}
	return 0;
}

/*
 * The rest of a title line, from p: one word, its text as written to the end
 * of the line ('#', quotes and any UTF-8 in it are text), blanks around it
 * trimmed (none: the title has no text). 0.
 */
static int title_text(struct scn_line *ln, const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (p < end)
		ln->w[ln->nwords++] = (struct scn_word){ p, (size_t)(end - p), scn_col(ln, p) };
	return 0;
}

int scn_lex_line(struct scn_ctx *c, struct scn_line *ln)
{
	const char *p = ln->p, *end = ln->p + ln->len;

	ln->nwords = 0;
	if (ln->len > SCN_LINE_MAX) {
		scn_diag(c, ln->no, 1, NULL, SCN_E_LINE_TOO_LONG, SCN_LINE_MAX);
		return -EINVAL;
	}
	if (check_bytes(c, ln) < 0)
		return -EINVAL;
	while (p < end) {
		const char *start;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p == '#')
			break;
		start = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '#') {
			if (*p == '"') {
				const char *q = p++;

				while (p < end && *p != '"')
					p += (*p == '\\' && p + 1 < end) ? 2 : 1;
				if (p >= end) {
					scn_diag(c, ln->no, scn_col(ln, q), "close it with '\"'",
						 SCN_E_UNTERMINATED);
					return -EINVAL;
				}
			} else if ((unsigned char)*p >= 0x80) {
				scn_diag(c, ln->no, scn_col(ln, p),
					 "names, keys and values are ASCII; quote the text", SCN_E_NON_ASCII);
				return -EINVAL;
			}
			p++;
		}
		if (ln->nwords == SCN_WORDS_MAX) {
			scn_diag(c, ln->no, scn_col(ln, start), NULL, SCN_E_TOO_MANY_WORDS, SCN_WORDS_MAX);
			return -EINVAL;
		}
		ln->w[ln->nwords++] = (struct scn_word){ start, (size_t)(p - start), scn_col(ln, start) };
		if (ln->nwords == 1 && p - start == 5 && memcmp(start, "title", 5) == 0 && p < end && *p != '#')
			return title_text(ln, p, end);
	}
	return 0;
}

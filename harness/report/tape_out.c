/* tape_out.c — the record of reality in results.jsonl (tape_out.h). */
#include "harness/report/tape_out.h"
#include "harness/run/tape.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c is a byte the recorder writes: printable ASCII. */
static int printable(unsigned char c)
{
	return (unsigned char)(c - 0x20) < 0x7f - 0x20;
}

int tape_line_whole(const char *p, size_t len)
{
	int depth = 0;
	char open[16]; /* the brackets open, innermost last (the recorder nests 4 deep) */

	if (len < 2 || (p[0] != '[' && p[0] != '{'))
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (!printable(c))
			return 0; /* the recorder writes ASCII, its strings' control bytes escaped */
		if (c == '"') { /* a string, to its closing quote (the byte after a '\\' taken as it is) */
			for (i++;; i++) {
				if (i >= len || !printable((unsigned char)p[i]))
					return 0;
				if (p[i] == '"')
					break;
				if (p[i] == '\\' && ++i >= len)
					return 0;
			}
		} else if (c == '[' || c == '{') {
			if (depth == (int)sizeof(open))
				return 0;
			open[depth++] = (char)c;
		} else if (c == ']' || c == '}') {
			if (depth == 0 || open[depth - 1] != (c == ']' ? '[' : '{'))
				return 0;
			if (--depth == 0 && i + 1 != len)
				return 0; /* a second value after the first */
		}
	}
	return depth == 0;
}

/* A JSON string value of s (jansson's encoding), written to f. 0 or -EIO/-ENOMEM. */
static int put_string(FILE *f, json_t *s)
{
	int rc = s ? (json_dumpf(s, f, JSON_ENCODE_ANY) ? -EIO : 0) : -ENOMEM;

	json_decref(s);
	return rc;
}

int results_tape(struct results *rd, const char *file, const char *tape, const char *kernel)
{
	json_t *name;
	const char *sep = "";
	int rc;

	if (!tape || !*tape || !rd->jsonl)
		return 0;
	name = json_string(file); /* UTF-8, as the scenario line's */
	fputs("{\"type\":\"tape\",\"file\":", rd->jsonl);
	rc = put_string(rd->jsonl, name ? name : tape_json_ascii(file, 0));
	if (!rc && fputs(",\"record\":[", rd->jsonl) == EOF)
		rc = -EIO;
	for (const char *p = tape; !rc && *p;) { /* the recorder's lines as they are: no parse and dump again */
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (tape_line_whole(p, len)) {
			if (fputs(sep, rd->jsonl) == EOF || fwrite(p, 1, len, rd->jsonl) != len)
				rc = -EIO;
			sep = ",";
		}
		p += len + (nl ? 1 : 0);
	}
	if (!rc && fputs("],\"kernel\":", rd->jsonl) == EOF)
		rc = -EIO;
	if (!rc)
		rc = put_string(rd->jsonl, tape_json_ascii(kernel, 1));
	if (!rc && fputs("}\n", rd->jsonl) == EOF)
		rc = -EIO;
	if (rc && !rd->werr)
		rd->werr = rc;
	return rc;
}

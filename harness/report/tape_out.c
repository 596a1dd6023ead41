/* tape_out.c — the record of reality in results.jsonl (tape_out.h). */
#include "harness/report/tape_out.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string of s with every byte outside printable ASCII and newline as '?'. */
static json_t *ascii(const char *s)
{
	char *c = strdup(s ? s : "");
	json_t *j;

	if (!c)
		return NULL;
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x7f || ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t'))
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

int results_tape(struct results *rd, const char *file, const char *tape, const char *kernel)
{
	json_t *rec = json_array(), *o;
	int rc = 0;

	if (!tape || !*tape || !rd->jsonl)
		return 0;
	for (const char *p = tape; rec && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		json_t *e = json_loadb(p, len, 0, NULL);

		if (e)
			json_array_append_new(rec, e);
		p += len + (nl ? 1 : 0);
	}
	o = rec ? json_pack("{s:s, s:o, s:o, s:o}", "type", "tape", "file", ascii(file), "record", rec, "kernel",
			    ascii(kernel)) : NULL;
	if (!o)
		rc = -ENOMEM;
	else if (json_dumpf(o, rd->jsonl, JSON_COMPACT | JSON_PRESERVE_ORDER) || fputc('\n', rd->jsonl) == EOF)
		rc = -EIO;
	json_decref(o);
	if (rc && !rd->werr)
		rd->werr = rc;
	return rc;
}

/* tape_out.c — the record of reality in results.jsonl (tape_out.h). */
#include "harness/report/tape_out.h"
#include "harness/run/tape.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int results_tape(struct results *rd, const char *file, const char *tape, const char *kernel)
{
	json_t *rec = json_array(), *o, *name = json_string(file); /* UTF-8, as the scenario line's */
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
	o = rec ? json_pack("{s:s, s:o, s:o, s:o}", "type", "tape", "file", name ? name : tape_json_ascii(file, 0), "record", rec, "kernel",
			    tape_json_ascii(kernel, 1)) : NULL;
	if (!rec)
		json_decref(name);
	if (!o)
		rc = -ENOMEM;
	else if (json_dumpf(o, rd->jsonl, JSON_COMPACT | JSON_PRESERVE_ORDER) || fputc('\n', rd->jsonl) == EOF)
		rc = -EIO;
	json_decref(o);
	if (rc && !rd->werr)
		rd->werr = rc;
	return rc;
}

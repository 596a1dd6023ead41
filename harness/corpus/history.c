/* history.c — a run's results.jsonl read back with Jansson (history.h). */
#define _GNU_SOURCE /* getline */
#include "harness/corpus/history.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The string member key of o into buf ("" when absent or not a string). */
static void member(json_t *o, const char *key, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));

	snprintf(buf, len, "%s", s ? s : "");
}

/* A scenario object as r. 0, or -EINVAL for an unknown verdict. */
static int scenario(json_t *o, struct result *r)
{
	char verdict[16];
	json_t *rules = json_object_get(o, "rules"), *id;
	size_t i;

	memset(r, 0, sizeof(*r));
	member(o, "file", r->file, sizeof(r->file));
	member(o, "title", r->title, sizeof(r->title));
	member(o, "reason", r->reason, sizeof(r->reason));
	member(o, "verdict", verdict, sizeof(verdict));
	for (char *c = verdict; *c; c++) /* results.jsonl writes them in capitals */
		*c = (char)tolower((unsigned char)*c);
	if (verdict_parse(verdict, &r->v))
		return -EINVAL;
	r->line = (uint32_t)json_integer_value(json_object_get(o, "line"));
	r->secs = json_number_value(json_object_get(o, "secs"));
	json_array_foreach(rules, i, id) {
		enum m_rule rule;

		if (json_is_string(id) && m_rule_find(json_string_value(id), &rule) == 0)
			result_rule_add(r, rule);
	}
	return 0;
}

int hist_read(const char *path, hist_fn fn, void *ctx, size_t *skipped, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, bad = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot read the results %s: %s", path, strerror(-rc));
		return rc;
	}
	while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
		json_t *o;
		struct result r;
		const char *type;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		o = json_loadb(line, (size_t)len, 0, NULL);
		if (!json_is_object(o)) {
			if (len > 0 && bad++ == 0)
				snprintf(err, errlen, "%s:%zu: not a JSON object (a line cut short?)", path, lineno);
			json_decref(o);
			continue;
		}
		type = json_string_value(json_object_get(o, "type"));
		if (type && strcmp(type, "scenario") == 0) {
			if (scenario(o, &r) == 0)
				rc = fn(ctx, &r, line);
			else if (bad++ == 0)
				snprintf(err, errlen, "%s:%zu: a scenario whose verdict is unknown", path, lineno);
		} else {
			rc = fn(ctx, NULL, line);
		}
		json_decref(o);
	}
	free(line);
	fclose(f);
	if (skipped)
		*skipped = bad;
	return rc;
}

int hist_path(const char *arg, char *path, size_t len)
{
	struct stat st;
	int n;

	if (stat(arg, &st) == 0 && S_ISREG(st.st_mode))
		n = snprintf(path, len, "%s", arg);
	else
		n = snprintf(path, len, "%s/results.jsonl", arg);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

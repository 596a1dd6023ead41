/* rerun.c — the failed scenarios of the last results (rerun.h). */
#define _GNU_SOURCE /* getline */
#include "harness/cli/rerun.h"
#include "harness/cli/cli.h"

#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Put code point cp as UTF-8 at buf[*k]. Returns 0 or -ENOSPC. */
static int put_utf8(char *buf, size_t len, size_t *k, unsigned cp)
{
	char u[4];
	size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;

	if (n == 1)
		u[0] = (char)cp;
	else if (n == 2)
		u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f));
	else if (n == 3)
		u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3f)), u[2] = (char)(0x80 | (cp & 0x3f));
	else
		u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3f)),
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f));
	if (*k + n >= len)
		return -ENOSPC;
	memcpy(buf + *k, u, n);
	*k += n;
	return 0;
}

/* Four hex digits at p into *cp; 0 or -EINVAL. */
static int hex4(const char *p, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);

		if (h < 0)
			return -EINVAL;
		*cp = *cp << 4 | (unsigned)h;
	}
	return 0;
}

/*
 * The JSON string at *pp (at its opening quote) decoded into buf (NULL: only
 * skipped); *pp moves past the closing quote. 0, -EINVAL or -ENOSPC.
 */
static int json_string(const char **pp, char *buf, size_t len)
{
	const char *p = *pp + 1;
	size_t k = 0;
	int rc = 0;

	for (; *p && *p != '"'; p++) {
		unsigned cp = (unsigned char)*p;

		if (*p == '\\') {
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *e = *++p ? strchr(from, *p) : NULL;

			if (e) {
				cp = (unsigned char)to[e - from];
			} else if (*p == 'u' && hex4(p + 1, &cp) == 0) {
				p += 4;
				if (cp >= 0xd800 && cp < 0xdc00 && p[1] == '\\' && p[2] == 'u') {
					unsigned lo;

					if (hex4(p + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
						cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
						p += 6;
					}
				}
			} else {
				return -EINVAL;
			}
		}
		if (buf && rc == 0)
			rc = put_utf8(buf, len, &k, cp);
	}
	if (*p != '"')
		return -EINVAL;
	if (buf)
		buf[k < len ? k : len - 1] = '\0';
	*pp = p + 1;
	return rc;
}

/* Skip one JSON value that is not a string (number, literal, object, array). */
static const char *skip_value(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '"') {
			if (json_string(&p, NULL, 0))
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (depth-- == 0)
				return p;
		} else if (*p == ',' && depth == 0) {
			return p;
		}
	}
	return p;
}

int rerun_json_str(const char *line, const char *key, char *buf, size_t len)
{
	const char *p = ws(line);
	char name[64];

	if (*p++ != '{')
		return -ENOENT;
	for (;;) {
		int rc;

		p = ws(p);
		if (*p != '"' || json_string(&p, name, sizeof(name)) == -EINVAL)
			return -ENOENT;
		p = ws(p);
		if (*p++ != ':')
			return -ENOENT;
		p = ws(p);
		if (strcmp(name, key) == 0) {
			if (*p != '"')
				return -ENOENT;
			rc = json_string(&p, buf, len);
			return rc == -EINVAL ? -ENOENT : rc;
		}
		if (*p == '"') {
			if (json_string(&p, NULL, 0))
				return -ENOENT;
		} else if (!(p = skip_value(p))) {
			return -ENOENT;
		}
		p = ws(p);
		if (*p++ != ',')
			return -ENOENT;
	}
}

/* Append name to out->v unless it is there. 0 or -ENOMEM. */
static int push_once(struct filelist *out, const char *name)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->v[i], name) == 0)
			return 0;
	return files_push(out, name);
}

int rerun_read(const char *path, struct filelist *out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, type[32], verdict[16], file[4096];
	size_t cap = 0;
	int rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot read the last results %s: %s", path, strerror(-rc));
		return rc;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		if (rerun_json_str(line, "type", type, sizeof(type)) || strcmp(type, "scenario") != 0)
			continue;
		if (rerun_json_str(line, "verdict", verdict, sizeof(verdict)) ||
		    (strcmp(verdict, "FAIL") != 0 && strcmp(verdict, "ERROR") != 0))
			continue;
		if (rerun_json_str(line, "file", file, sizeof(file)) == 0 && file[0])
			rc = push_once(out, file);
	}
	if (rc)
		snprintf(err, errlen, "out of memory reading %s", path);
	free(line);
	fclose(f);
	return rc;
}

int rerun_last(struct filelist *out, char *err, size_t errlen)
{
	const char *dir = getenv("RDMACHECK_RESULTS");
	char root[PATH_MAX], path[PATH_MAX + 64];

	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/latest/results.jsonl", dir);
	} else if (cli_find_root(root, sizeof(root)) == 0) {
		snprintf(path, sizeof(path), "%s/build/results/latest/results.jsonl", root);
	} else {
		snprintf(err, errlen, "cannot find the checkout above this executable (set RDMACHECK_RESULTS)");
		return -ENOENT;
	}
	return rerun_read(path, out, err, errlen);
}

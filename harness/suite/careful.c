/* careful.c — which scenarios run again with a record per step (careful.h). */
#include "harness/suite/careful.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int careful_has(const char *list, size_t idx)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p)
			return 0; /* malformed: nothing careful from here on */
		if (v == idx)
			return 1;
		p = *end == ',' ? end + 1 : end + strlen(end);
	}
	return 0;
}

char *careful_option(const char *flag, size_t from, size_t n, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "--careful=");
	int any = 0;

	for (size_t i = from; i < n && off < len; i++)
		if (flag[i]) {
			off += (size_t)snprintf(buf + off, len - off, "%s%zu", any ? "," : "", i);
			any = 1;
		}
	if (!any || off >= len)
		buf[0] = '\0';
	return buf;
}

int careful_note(char **detail, const char *note)
{
	size_t had = *detail ? strlen(*detail) : 0, len = strlen(note) + 1;
	char *d = realloc(*detail, had + len);

	if (!d)
		return -ENOMEM;
	memcpy(d + had, note, len);
	*detail = d;
	return 0;
}

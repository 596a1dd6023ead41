/* jline.c — JSON values written as jansson writes them, without jansson (jline.h). */
#include "harness/base/jline.h"

void jline_init(struct jline *l)
{
	l->n = 0;
	l->ok = 1;
}

int jline_plain(const char *s, size_t *len)
{
	const char *p = s;

	if (!s)
		return 0;
	for (unsigned char c; (c = (unsigned char)*p) != '\0'; p++)
		if ((unsigned char)(c - 0x20) > 0x7e - 0x20 || c == '"' || c == '\\')
			return 0;
	if (len)
		*len = (size_t)(p - s);
	return 1;
}

void jline_str(struct jline *l, const char *s)
{
	size_t n;

	if (!jline_plain(s, &n)) {
		l->ok = 0;
		return;
	}
	jline_put(l, "\"", 1);
	jline_put(l, s, n);
	jline_put(l, "\"", 1);
}

void jline_int(struct jline *l, int64_t v)
{
	char d[24], *e = d + sizeof(d);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	if (v >= 0 && v < 10) { /* the most of them: a node, an object, a 0 */
		d[0] = (char)('0' + v);
		jline_put(l, d, 1);
		return;
	}

	do
		*--e = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--e = '-';
	jline_put(l, e, (size_t)(d + sizeof(d) - e));
}

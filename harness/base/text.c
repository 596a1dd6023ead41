/* text.c — growing text buffer (text.h). */
#include "harness/base/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_addf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	size_t room = t->cap - t->len; /* t->cap is 0 or above t->len (the NUL's byte) */
	int n;

	if (t->oom)
		return;
	/* Into the room there is first: the sizing pass (vsnprintf of NULL) only when it does not fit. */
	va_start(ap, fmt);
	n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? room : 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (t->s)
			t->s[t->len] = '\0'; /* as it was */
		return;
	}
	if (t->s && (size_t)n < room) {
		t->len += (size_t)n;
		return;
	}
	/* it did not fit (or there was no buffer): grow, and format again */
	size_t cap = t->cap ? t->cap * 2 : 256;
	char *s;

	while (cap < t->len + (size_t)n + 1)
		cap *= 2;
	s = realloc(t->s, cap);
	if (!s) {
		if (t->s)
			t->s[t->len] = '\0';
		t->oom = 1;
		return;
	}
	t->s = s;
	t->cap = cap;
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

const char *text_str(const struct text *t)
{
	return t->s ? t->s : "";
}

char *text_take(struct text *t)
{
	char *s = t->s;

	memset(t, 0, sizeof(*t));
	return s;
}

void text_free(struct text *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}

char *text_split_marked(char **s, const char *mark, int keep)
{
	struct text marked = { 0 }, rest = { 0 };
	size_t m = strlen(mark);

	for (const char *p = *s; p && *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		int is = strncmp(p, mark, m) == 0;

		if (is)
			text_addf(&marked, "%.*s\n", len - (int)m, p + m);
		if (keep || !is)
			text_addf(&rest, "%.*s\n", len, p);
		p += len + (nl ? 1 : 0);
	}
	if (rest.oom || marked.oom) { /* keep *s as it was */
		text_free(&rest);
		text_free(&marked);
		return NULL;
	}
	free(*s);
	*s = text_take(&rest);
	return text_take(&marked);
}

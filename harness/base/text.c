/* text.c — growing text buffer (text.h). */
#include "harness/base/text.h"

#include <errno.h>
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

/* Room for n more bytes and the NUL. 0, or -ENOMEM (t->oom set, t kept as it was). */
static int text_room(struct text *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 256;
	char *s;

	if (t->s && t->len + n < t->cap)
		return 0;
	while (cap < t->len + n + 1)
		cap *= 2;
	s = realloc(t->s, cap);
	if (!s) {
		t->oom = 1;
		return -ENOMEM;
	}
	t->s = s;
	t->cap = cap;
	return 0;
}

void text_add(struct text *t, const char *s, size_t n)
{
	if (t->oom || text_room(t, n))
		return;
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

void text_adds(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

void text_addl(struct text *t, const char *s, ...)
{
	va_list ap;

	va_start(ap, s);
	for (; s; s = va_arg(ap, const char *))
		text_adds(t, s);
	va_end(ap);
}

void text_addu(struct text *t, unsigned long long v)
{
	char d[24], *e = d + sizeof(d);

	do
		*--e = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	text_add(t, e, (size_t)(d + sizeof(d) - e));
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

		if (is) {
			text_add(&marked, p + m, (size_t)(len - (int)m));
			text_add(&marked, "\n", 1);
		}
		if (keep || !is) {
			text_add(&rest, p, (size_t)len);
			text_add(&rest, "\n", 1);
		}
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

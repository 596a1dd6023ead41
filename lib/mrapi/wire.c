/*
 * wire.c — the directory's line codec. Everything here is async-signal-safe
 * (no malloc, no locale, no stdio): the directory service runs in a process
 * forked from a possibly multithreaded node.
 */
#include "lib/mrapi/dir.h"

#include <errno.h>
#include <stdint.h>

void wl_init(struct wline *w)
{
	w->len = 0;
	w->over = 0;
	w->buf[0] = '\0';
}

static void wl_ch(struct wline *w, char c)
{
	if (w->len + 1 >= sizeof(w->buf)) {
		w->over = 1;
		return;
	}
	w->buf[w->len++] = c;
	w->buf[w->len] = '\0';
}

void wl_str(struct wline *w, const char *s)
{
	if (w->len)
		wl_ch(w, ' ');
	while (*s)
		wl_ch(w, *s++);
}

void wl_u64(struct wline *w, uint64_t v)
{
	char d[24];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (w->len)
		wl_ch(w, ' ');
	while (n)
		wl_ch(w, d[--n]);
}

void wl_end(struct wline *w)
{
	wl_ch(w, '\n');
}

int wl_split(char *s, char **argv, int max)
{
	int n = 0;

	while (*s && n < max) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		argv[n++] = s;
		while (*s && *s != ' ')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

int wl_u64_parse(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

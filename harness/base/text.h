/*
 * text.h — a growing text buffer for reports (printf-style appends). On
 * allocation failure the buffer keeps what it had and sets oom; appends after
 * that do nothing, so callers check once at the end.
 */
#ifndef RDMACHECK_TEXT_H
#define RDMACHECK_TEXT_H

#include <stddef.h>

struct text {
	char *s;      /* NUL-terminated, or NULL while empty */
	size_t len, cap;
	int oom;
};

/* Append formatted text. */
void text_addf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text so far ("" when empty); valid until the next append or text_free. */
const char *text_str(const struct text *t);
/* Hand the buffer over (caller frees; NULL when empty) and reset t. */
char *text_take(struct text *t);
void text_free(struct text *t);

#endif

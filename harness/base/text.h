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
/*
 * Append the n bytes at s (no NUL among them), as text_addf(t, "%.*s", n, s)
 * would, without a format: a copy (the runner's and the recorder's lines, a
 * scenario's whole record).
 */
void text_add(struct text *t, const char *s, size_t n);
/* Append the NUL-terminated s (text_add of its length). */
void text_adds(struct text *t, const char *s);
/* Append each string of the list, up to the NULL that ends it (text_adds of each). */
void text_addl(struct text *t, const char *s, ...) __attribute__((sentinel));
/* Append v in decimal, as text_addf(t, "%llu", v) would. */
void text_addu(struct text *t, unsigned long long v);
/* The text so far ("" when empty); valid until the next append or text_free. */
const char *text_str(const struct text *t);
/* Hand the buffer over (caller frees; NULL when empty) and reset t. */
char *text_take(struct text *t);
void text_free(struct text *t);

/*
 * Split the lines of *s that begin with mark out of it: returns them, mark
 * removed, as one text (caller frees; NULL when there is none); *s is
 * replaced by its other lines (keep: by all of them, the marked ones too).
 * On no memory NULL, and *s is left as it was.
 */
char *text_split_marked(char **s, const char *mark, int keep);

#endif

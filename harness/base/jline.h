/*
 * jline.h — a JSON value written as jansson's json_dumps(JSON_COMPACT) (and
 * json_dumpf) writes it, piece by piece into a line, without building a tree
 * of values to dump and free: the recorder's events (tape_rec.c) and the
 * results' step objects (results.c). Where the line cannot say a piece as
 * jansson would (a string jansson escapes, a NULL one, a line too long) it
 * turns ok to 0, and the caller builds that value with jansson instead: the
 * bytes are the same either way.
 */
#ifndef RDMACHECK_JLINE_H
#define RDMACHECK_JLINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JLINE_MAX 4096 /* a line's bytes at the most, its NUL too */

struct jline {
	char b[JLINE_MAX]; /* the line so far: n bytes, not NUL-terminated */
	size_t n;
	int ok;            /* 0: a piece did not fit or needs jansson; the line is not to be used */
};

/* An empty line, ok. */
void jline_init(struct jline *l);
/* Append the k bytes at s as they are, when they fit (the NUL's byte kept free), else ok 0. */
static inline void jline_put(struct jline *l, const char *s, size_t k)
{
	if (!l->ok || l->n + k >= sizeof(l->b)) {
		l->ok = 0;
		return;
	}
	memcpy(l->b + l->n, s, k);
	l->n += k;
}

/* Append the text s as it is (JSON punctuation, keys already quoted, "null"); inline: a literal's
 * length and copy are the compiler's. */
static inline void jline_raw(struct jline *l, const char *s)
{
	jline_put(l, s, strlen(s));
}
/* 1 when s is a string jansson writes as it is (not NULL, printable ASCII without '"' and '\\'), its length
 * in *len (len may be NULL); else 0. */
int jline_plain(const char *s, size_t *len);
/* Append a string value "s": only printable ASCII without '"' and '\\' (what jansson writes unescaped), else ok 0. */
void jline_str(struct jline *l, const char *s);
/* Append an integer as json_integer's "%lld" writes it. */
void jline_int(struct jline *l, int64_t v);

#endif

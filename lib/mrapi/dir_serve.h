/*
 * dir_serve.h — what the two halves of the directory service share: its
 * connections (dir_server.c: accepting, queued non-blocking I/O, deadlines)
 * and the requests they carry (dir_requests.c). Not an API of the library.
 */
#ifndef MRAPI_DIR_SERVE_H
#define MRAPI_DIR_SERVE_H

#include "lib/mrapi/dir.h"

#include <stdint.h>

struct conn {
	int fd;                 /* -1: free slot */
	int member;             /* HELLO succeeded: domain, node are this node's */
	int closing;            /* close once the queued replies are out (a refused HELLO) */
	uint32_t domain, node;
	int64_t since;          /* accepted (ms) */
	int64_t line_since;     /* the first byte of the line under way arrived */
	int64_t out_since;      /* the queued replies last made progress */
	size_t inlen, outlen;
	char in[DIR_LINE];
	char out[DIR_OUTQ];
	char nonce[DIR_HEX];    /* the one the greeting gave */
};

extern struct conn cl[DIR_SLOTS];

/* ---- dir_server.c ---- */
/* Queue one line for connection c (it fits: the reader checks room first). */
void conn_reply(int c, const struct wline *w);
/* Queue "a[ b]\n". */
void conn_reply_str(int c, const char *a, const char *b);

/* ---- dir_requests.c ---- */
/* Handle one request line (NUL-terminated, without its '\n') of connection c. */
void req_line(int c, char *line, const struct dir_keys *keys);
/* Connection c is closing: withdraw its node's segments and attachments. */
void req_gone(int c);

#endif

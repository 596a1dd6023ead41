/* proto.c — line framing of the coordinator↔agent protocol (see proto.h). */
#include "harness/run/proto.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Output held back for one fd (proto_hold): written by proto_release, or when full. */
static struct {
	int fd; /* -1: nothing held */
	size_t len;
	char buf[4 * PROTO_LINE_MAX];
} held = { .fd = -1 };

static int write_now(int fd, const char *b, size_t n);

/* Write all of b (n bytes) to fd, or add it to what is held for fd. Returns 0 or -errno. */
static int write_all(int fd, const char *b, size_t n)
{
	int rc;

	if (fd != held.fd || held.fd < 0)
		return write_now(fd, b, n);
	if (held.len + n > sizeof(held.buf)) { /* full: out with what is held, then this */
		rc = write_now(fd, held.buf, held.len);
		held.len = 0;
		if (rc || n > sizeof(held.buf))
			return rc ? rc : write_now(fd, b, n);
	}
	memcpy(held.buf + held.len, b, n);
	held.len += n;
	return 0;
}

void proto_hold(int fd)
{
	if (held.fd != fd)
		proto_release();
	held.fd = fd;
}

int proto_release(void)
{
	int fd = held.fd, rc = 0;

	held.fd = -1;
	if (fd >= 0 && held.len)
		rc = write_now(fd, held.buf, held.len);
	held.len = 0;
	return rc;
}

int proto_rd_ready(const struct proto_rd *rd)
{
	return memchr(rd->buf + rd->off, '\n', rd->len - rd->off) != NULL;
}

/* Write all of b (n bytes) to fd. Returns 0 or -errno. */
static int write_now(int fd, const char *b, size_t n)
{
	size_t off = 0;

	while (off < n) {
		ssize_t w = write(fd, b + off, n - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += (size_t)w;
	}
	return 0;
}

int proto_send(int fd, const char *fmt, ...)
{
	char buf[PROTO_LINE_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= PROTO_LINE_MAX || memchr(buf, '\n', (size_t)n))
		return -EMSGSIZE;
	buf[n] = '\n';
	return write_all(fd, buf, (size_t)n + 1);
}

int proto_send_bytes(int fd, const void *b, size_t n)
{
	return write_all(fd, b, n);
}

int64_t proto_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double proto_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void proto_rd_reset(struct proto_rd *rd)
{
	rd->off = rd->len = 0;
}

/*
 * The deadline (proto_now_ms) of a wait of timeout_ms (-1: forever) that
 * starts now, into *deadline unless it has one already (PROTO_NO_DEADLINE_YET):
 * taken when a read must wait, so that an answer already buffered costs no
 * clock read (on a guest whose clock source is the HPET, a system call).
 */
#define PROTO_NO_DEADLINE_YET (-2)
static int64_t deadline_of(int64_t *deadline, int timeout_ms)
{
	if (*deadline == PROTO_NO_DEADLINE_YET)
		*deadline = timeout_ms < 0 ? -1 : proto_now_ms() + timeout_ms;
	return *deadline;
}

/*
 * Read what fd has into rd's free space (moving the unread bytes to the
 * front first), waiting until deadline (ms, -1: forever). Returns the count
 * (> 0), -ETIMEDOUT, -EPIPE at end of stream, or -errno.
 */
static ssize_t fill(int fd, struct proto_rd *rd, int64_t deadline)
{
	if (rd->off > 0) {
		memmove(rd->buf, rd->buf + rd->off, rd->len - rd->off);
		rd->len -= rd->off;
		rd->off = 0;
	}
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int wait = -1, rc;
		ssize_t r;

		if (deadline >= 0) {
			int64_t left = deadline - proto_now_ms();

			if (left <= 0)
				return -ETIMEDOUT;
			wait = (int)left;
		}
		rc = poll(&p, 1, wait);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (rc == 0)
			return -ETIMEDOUT;
		r = read(fd, rd->buf + rd->len, sizeof(rd->buf) - rd->len);
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EPIPE;
		rd->len += (size_t)r;
		return r;
	}
}

int proto_recv(int fd, struct proto_rd *rd, char *buf, size_t cap, int timeout_ms)
{
	int64_t deadline = PROTO_NO_DEADLINE_YET;
	size_t max = cap < PROTO_LINE_MAX ? cap : PROTO_LINE_MAX; /* a line and its NUL (or newline) */
	size_t scanned = 0;

	if (cap == 0)
		return -EMSGSIZE;
	for (;;) {
		const char *start = rd->buf + rd->off;
		size_t pending = rd->len - rd->off;
		const char *nl = memchr(start + scanned, '\n', pending - scanned);
		ssize_t r;

		if (nl) {
			size_t n = (size_t)(nl - start);

			rd->off += n + 1;
			if (n + 1 > max)
				return -EMSGSIZE;
			memcpy(buf, start, n);
			buf[n] = '\0';
			return (int)n;
		}
		if (pending + 1 > max) {
			rd->off += pending; /* the line cannot fit: drop what came of it */
			return -EMSGSIZE;
		}
		scanned = pending;
		r = fill(fd, rd, deadline_of(&deadline, timeout_ms));
		if (r < 0)
			return (int)r;
	}
}

int proto_recv_bytes(int fd, struct proto_rd *rd, void *out, size_t n, int timeout_ms)
{
	int64_t deadline = PROTO_NO_DEADLINE_YET;
	char *o = out;

	for (;;) {
		size_t have = rd->len - rd->off, take = have < n ? have : n;
		ssize_t r;

		if (n == 0)
			return 0;
		if (take > 0) {
			memcpy(o, rd->buf + rd->off, take);
			rd->off += take;
			o += take;
			n -= take;
			continue;
		}
		r = fill(fd, rd, deadline_of(&deadline, timeout_ms));
		if (r < 0)
			return (int)r;
	}
}

int proto_get(const char *msg, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);
	const char *p = msg;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == msg || p[-1] == ' ') && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t vlen = strcspn(v, " ");

			if (vlen >= cap)
				return -EMSGSIZE;
			memcpy(out, v, vlen);
			out[vlen] = '\0';
			return 0;
		}
		p += klen;
	}
	return -ENOENT;
}

int proto_next_field(const char **pos, struct proto_field *f)
{
	const char *p = *pos, *eq;

	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	f->key = p;
	p += strcspn(p, " ");
	eq = memchr(f->key, '=', (size_t)(p - f->key));
	f->klen = eq ? (size_t)(eq - f->key) : (size_t)(p - f->key);
	f->val = eq ? eq + 1 : NULL;
	f->vlen = eq ? (size_t)(p - eq - 1) : 0;
	*pos = p;
	return 1;
}

int proto_get_tail(const char *msg, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);
	const char *p = msg;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == msg || p[-1] == ' ') && p[klen] == '=') {
			if (cap > 0)
				snprintf(out, cap, "%s", p + klen + 1);
			return 0;
		}
		p += klen;
	}
	return -ENOENT;
}

int proto_get_u64(const char *msg, const char *key, uint64_t *out)
{
	char v[32], *end;
	int rc = proto_get(msg, key, v, sizeof(v));

	if (rc)
		return rc;
	if (v[0] == '-' || v[0] == '\0')
		return -EINVAL;
	errno = 0;
	*out = strtoull(v, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int proto_is(const char *msg, const char *word)
{
	size_t n = strlen(word);

	return strncmp(msg, word, n) == 0 && (msg[n] == ' ' || msg[n] == '\0');
}

void proto_hex_encode(const uint8_t *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* The value of one hex digit, or -1. */
static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int proto_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	size_t len = strlen(hex);

	if (len % 2)
		return -EINVAL;
	if (len / 2 > cap)
		return -ENOSPC;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (int)(len / 2);
}

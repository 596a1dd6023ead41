/*
 * proto.h — the coordinator↔agent message protocol.
 *
 * One message is one line of UTF-8 text ending in '\n', at most PROTO_LINE_MAX
 * bytes including the newline: a verb, then blank-separated KEY=VALUE fields.
 * Values never contain blanks or newlines (byte strings travel as hex), except
 * the value of msg=, which is always the last field and runs to the end of the
 * line (free text for humans; read it with proto_get_tail). The agent answers
 * every request with exactly one line starting with "ok" or "err"; err carries
 * errno=N (a positive errno value) and msg=TEXT. The same lines can travel over
 * a socketpair (now) or TCP (later): nothing depends on the transport but a
 * byte stream. Every read is bounded by a timeout on the coordinator's side;
 * an agent waits for its coordinator without a timeout but exits at end of
 * stream, so a dead coordinator never leaves agents behind.
 *
 *   (agent starts)                  ok hello node=NAME | err errno=N msg=TEXT
 *   coordinator -> agent            agent -> coordinator
 *   open                            ok qpn=N gid=32HEX
 *   reg name=M len=N access=N       ok addr=0xA lkey=N rkey=N
 *   pattern name=M seed=N           ok
 *   fill name=M byte=N              ok
 *   verify name=M seed=N|byte=N     ok | ok mismatch=OFF expected=X got=Y
 *   connect qpn=N gid=32HEX         ok
 *   write|read local=M len=N raddr=0xA rkey=N
 *                                   ok status=WC_STATUS_NAME vendor_err=N
 *                                   (post failed or no completion in time: err)
 *   qp_state                        ok state=RESET|INIT|RTR|RTS|SQD|SQE|ERR
 *   netstat                         ok rx_packets=N tx_packets=N  (the node's netdev)
 *   quit                            ok
 *
 * A reply may carry a binary blob: the line "ok bytes=N" is followed at once
 * by exactly N raw bytes (proto_send_bytes; read them with proto_recv_bytes).
 * Replies are read through a buffer (struct proto_rd): one read() takes
 * whatever the agent has written, and bytes past one line wait in the buffer
 * for the next call, so a stream must always be read through the same reader.
 */
#ifndef RDMACHECK_PROTO_H
#define RDMACHECK_PROTO_H

#include <stddef.h>
#include <stdint.h>

/* The limits of the agents' requests (agent.h lists the requests). */
#define AGENT_OBJS_MAX 1024
#define AGENT_CHAIN_MAX 16 /* WRs one post_chain request posts (the language's SCN_CHAIN_MAX) */
#define AGENT_READ_MAX (1u << 20) /* bytes per read request */
#define AGENT_RPMEM_RUNS_MAX (1u << 20) /* bytes per librpmem pool read (rpmem_pool_runs) */
#define AGENT_DAT_IA_CMA "ofa-v2-cma-roe" /* the default IA of a node's dat.conf */
#define AGENT_DAT_IA_SCM "ofa-v2-scm-roe"

#define PROTO_LINE_MAX 4096

/*
 * Format one message (printf-style, without the newline) and write it whole to
 * fd, adding '\n'. Returns 0, -EMSGSIZE if it does not fit PROTO_LINE_MAX, or
 * -errno of the write.
 */
int proto_send(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The read buffer of one stream. All zero is an empty buffer (a fresh
 * stream); proto_rd_reset empties it when its stream is closed or replaced.
 */
struct proto_rd {
	size_t off, len;           /* the unread bytes are buf[off..len) */
	char buf[2 * PROTO_LINE_MAX];
};

void proto_rd_reset(struct proto_rd *rd);

/*
 * Read one message from fd through rd into buf (cap bytes, NUL-terminated,
 * newline removed), waiting at most timeout_ms (-1: forever) for the whole
 * line. Bytes after the newline stay in rd for the next call. Returns the
 * length, -ETIMEDOUT (a partial line stays buffered), -EPIPE at end of
 * stream, -EMSGSIZE for an over-long line (its bytes so far are dropped),
 * or -errno.
 */
int proto_recv(int fd, struct proto_rd *rd, char *buf, size_t cap, int timeout_ms);

/*
 * Write n raw bytes to fd (the blob after an "ok bytes=N" line). Returns 0 or
 * -errno of the write.
 */
int proto_send_bytes(int fd, const void *b, size_t n);

/*
 * Read exactly n raw bytes from fd through rd into out (the blob after an
 * "ok bytes=N" line), waiting at most timeout_ms in all (-1: forever).
 * Returns 0, -ETIMEDOUT, -EPIPE at end of stream, or -errno (after a failure
 * the bytes that came are in out, consumed).
 */
int proto_recv_bytes(int fd, struct proto_rd *rd, void *out, size_t n, int timeout_ms);

/*
 * Hold back what is written to fd (proto_send, proto_send_bytes) from now on
 * in this process, instead of writing it at once: an agent that has several
 * requests already read answers them in one write. proto_release writes what
 * is held (0 or -errno of the write) and holds nothing more; proto_hold of
 * another fd releases the first. What is held is written anyway when it
 * fills its buffer (4 lines).
 */
void proto_hold(int fd);
int proto_release(void);

/* 1 when rd holds a whole message already (proto_recv will not wait for it), else 0. */
int proto_rd_ready(const struct proto_rd *rd);

/*
 * Find KEY=VALUE in a message and copy VALUE into out (cap bytes). Returns 0,
 * -ENOENT if the key is absent, -EMSGSIZE if the value does not fit.
 */
int proto_get(const char *msg, const char *key, char *out, size_t cap);

/*
 * Find the last field KEY=TEXT, whose TEXT runs to the end of the message and
 * may contain blanks (msg=), and copy TEXT into out (cap bytes, truncated to
 * fit). Returns 0 or -ENOENT if the key is absent.
 */
int proto_get_tail(const char *msg, const char *key, char *out, size_t cap);

/*
 * A message's fields in one pass, for a reader that wants many of them (a
 * query's answer): *pos starts at the message; each call moves it past the
 * next blank-separated field and gives its KEY (key, klen) and VALUE (val,
 * vlen), or for a field without '=' the word as key and val NULL. Returns 1,
 * or 0 at the end. The first field whose KEY is k is the one proto_get(msg, k)
 * finds.
 */
struct proto_field {
	const char *key, *val;
	size_t klen, vlen;
};
int proto_next_field(const char **pos, struct proto_field *f);

/* As proto_get, parsing the value as an unsigned integer (decimal or 0x hex). */
int proto_get_u64(const char *msg, const char *key, uint64_t *out);

/* 1 if msg's first word is word, else 0. */
int proto_is(const char *msg, const char *word);

/*
 * The protocol's one hex codec (hex=, desc=, name_hex= fields; bytes= of a
 * scenario). proto_hex_encode writes n bytes as 2n lower-case digits and a
 * NUL into out (2n+1 bytes). proto_hex_decode reads an even number of
 * digits (either case) into out (cap bytes) and returns the byte count, or
 * -EINVAL for an odd length or a non-digit, -ENOSPC when cap is too small.
 */
void proto_hex_encode(const uint8_t *b, size_t n, char *out);
int proto_hex_decode(const char *hex, uint8_t *out, size_t cap);

/* CLOCK_MONOTONIC in milliseconds, for deadlines (agents and coordinator alike), and
 * in seconds, for durations in reports. */
int64_t proto_now_ms(void);
double proto_now_s(void);

#endif

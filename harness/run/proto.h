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
 */
#ifndef RDMACHECK_PROTO_H
#define RDMACHECK_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_LINE_MAX 4096

/*
 * Format one message (printf-style, without the newline) and write it whole to
 * fd, adding '\n'. Returns 0, -EMSGSIZE if it does not fit PROTO_LINE_MAX, or
 * -errno of the write.
 */
int proto_send(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Read one message from fd into buf (cap bytes, NUL-terminated, newline
 * removed), waiting at most timeout_ms (-1: forever). Bytes after the newline
 * are not consumed (reads go byte by byte: messages are small and rare).
 * Returns the length, -ETIMEDOUT, -EPIPE at end of stream, -EMSGSIZE for an
 * over-long line, or -errno.
 */
int proto_recv(int fd, char *buf, size_t cap, int timeout_ms);

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

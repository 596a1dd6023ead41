/*
 * remote.h — the agents' network transport (issue 15): an agent on another
 * kernel (a VM per node, a real host) listens on TCP (`rdmacheck-agent
 * --listen=ADDR:PORT --token-file=F`) and the coordinator dials it. Agents run
 * as root and do what they are told, so both ends prove they hold the run's
 * secret before the line protocol (proto.h) starts: a mutual HMAC-SHA256
 * challenge-response over fresh nonces (OpenSSL's libcrypto), so the secret
 * never crosses the wire and a recorded handshake cannot be replayed.
 *
 *   agent -> coordinator   "rdmacheck-agent 1 NONCE_A"
 *   coordinator -> agent   "auth NONCE_C MAC(secret, "coordinator" NONCE_A NONCE_C)"
 *   agent -> coordinator   "ok MAC(secret, "agent" NONCE_C NONCE_A)"  (or the connection closes)
 *
 * NONCE_* are 32 random bytes in hex, MAC is hex. What it does not protect:
 * the traffic after the handshake is neither encrypted nor authenticated, so
 * an attacker who can inject into an established TCP connection is out of
 * scope (use the agents on a test network, or tunnel them through ssh).
 */
#ifndef RDMACHECK_REMOTE_H
#define RDMACHECK_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#define REMOTE_KEY_MAX 256        /* bytes of secret */
#define REMOTE_KEY_MIN 16
#define REMOTE_HANDSHAKE_MS 5000  /* the whole handshake's deadline, not a byte's: then the peer is dropped */
#define REMOTE_HEX_MAX 129        /* a SHA-256 MAC or a nonce in hex, and the NUL */
#define REMOTE_LINE_MAX 512       /* a handshake line */

struct remote_key {
	unsigned char k[REMOTE_KEY_MAX];
	size_t len;
};

/*
 * The secret in the token file at path (its bytes, a trailing newline
 * dropped), read with secret_file_read's checks (lib/common/secret_file.h):
 * refused (-EPERM) when group or others may read the file, -EINVAL when it
 * is not a regular file or its secret is shorter than REMOTE_KEY_MIN or
 * longer than REMOTE_KEY_MAX bytes, -EFBIG when the file holds more than the
 * longest secret and a CRLF, -errno when it cannot be read; the reason in err.
 */
int remote_key_read(const char *path, struct remote_key *key, char *err, size_t errlen);

/*
 * The agent's side of the handshake on a connected fd, within
 * REMOTE_HANDSHAKE_MS in all. 0 when the peer holds the secret; -EACCES
 * (wrong or missing proof), -ETIMEDOUT, -EPROTO or -errno otherwise, with
 * why in why. The fd stays open either way.
 */
int remote_accept(int fd, const struct remote_key *key, char *why, size_t len);

/*
 * The same handshake a step at a time, for a listener that holds many peers'
 * at once (agent_listen) so that none waits for another: remote_hs_begin
 * sends the challenge on fd and starts the handshake's one deadline
 * (REMOTE_HANDSHAKE_MS from now, in h->deadline: proto_now_ms' clock); then
 * remote_hs_step, each time fd is readable or the deadline has passed, takes
 * what the peer has sent without waiting: -EAGAIN not yet whole, else what
 * remote_accept returns (-ETIMEDOUT once the deadline has passed).
 */
struct remote_hs {
	int fd;
	int64_t deadline;
	size_t k;                    /* bytes of line so far */
	char na[REMOTE_HEX_MAX];     /* our nonce */
	char line[REMOTE_LINE_MAX];
};
int remote_hs_begin(struct remote_hs *h, int fd, char *why, size_t len);
int remote_hs_step(struct remote_hs *h, const struct remote_key *key, char *why, size_t len);

/*
 * The coordinator's side: connect to "HOST:PORT" (IPv4 or a name; "[V6]:PORT"),
 * run the handshake, and return the connected fd, ready for the agent's
 * greeting (proto.h), or -errno with the reason in err (-EACCES: the agent
 * refused us or could not prove it holds the secret).
 */
int remote_dial(const char *hostport, const struct remote_key *key, int timeout_ms, char *err, size_t errlen);

/*
 * The coordinator's side of the handshake alone, on a connected fd (what
 * remote_dial does after connect). 0 or -errno with err.
 */
int remote_offer(int fd, const struct remote_key *key, char *err, size_t errlen);

/*
 * Send what fd is given at once (TCP_NODELAY): a request or an answer is one
 * write, and the other end waits for it; Nagle's wait for the ACK of an
 * earlier segment only delays it. Both ends set it (remote_dial, agent_listen).
 */
void remote_nodelay(int fd);

/* "HOST:PORT" into host (brackets of "[V6]" dropped) and port. 0 or -EINVAL. */
int remote_split(const char *hostport, char *host, size_t hostlen, char *port, size_t portlen);

/*
 * A TCP socket listening on "HOST:PORT" (remote_split's form; port 0: one the
 * kernel picks), SO_REUSEADDR, close-on-exec, with a backlog of backlog: its
 * fd, or -errno with why (naming hostport) in err. The agents' listener and
 * explore's in-guest executor both open theirs here.
 */
int remote_listen(const char *hostport, int backlog, char *err, size_t errlen);

#endif

/*
 * rpmem_int.h — what the pieces of librpmem-rpma and rpmemd-rpma share (not
 * a public API): the pool set file, the pool header, the target's pool, the
 * control protocol and the client's lanes. Internal functions follow the
 * project's convention (HACKING.md): 0 or a negative errno, a reason in a
 * caller's err buffer.
 */
#ifndef RDMACHECK_RPMEM_INT_H
#define RDMACHECK_RPMEM_INT_H

#include "lib/rpmem/librpmem.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RPMEM_HDR_SIZE 4096u
#define RPMEM_NAME_MAX 256     /* pool set names, incl. NUL */
#define RPMEM_HOST_MAX 64
#define RPMEM_PARTS_MAX 64
#define RPMEM_DESC_MAX 64      /* librpma descriptors (MR 21 bytes, peer cfg 1 in 1.2.0) */
#define RPMEM_MSG_MAX 160      /* error text in a response */

/* ------------------------------------------------------- poolset.c -- */

enum rpmem_opt { RPMEM_OPT_NONE = 0, RPMEM_OPT_SINGLEHDR = 1, RPMEM_OPT_NOHDRS = 2 };
const char *rpmem_opt_str(enum rpmem_opt o);
int rpmem_opt_parse(const char *name, enum rpmem_opt *out);

struct rpmem_part {
	uint64_t size;
	char *path;            /* absolute, or made so against the set file's directory */
};

struct rpmem_poolset {
	enum rpmem_opt opt;
	unsigned nparts;
	struct rpmem_part part[RPMEM_PARTS_MAX];
};

/*
 * Parse pool set text (PMDK's format: "PMEMPOOLSET", then OPTION lines
 * (SINGLEHDR, NOHDRS) and part lines "SIZE PATH"; '#' comments; sizes with
 * K/M/G/T[iB] (binary) or KB/MB/GB/TB (decimal) suffixes, multiples of 4096;
 * REPLICA and directory parts are refused). fname names the text in errors
 * ("fname:line:col: what"); relative part paths are taken against dir.
 * Returns 0 or -EINVAL (err says where), -ENOMEM.
 */
int rpmem_poolset_parse(const char *fname, const char *dir, const char *text, size_t len,
			struct rpmem_poolset *out, char *err, size_t errlen);
/*
 * Load set `name` from root: -EINVAL for a name that is not a plain relative
 * path inside root, -ENOENT when there is no such file, else as parse.
 */
int rpmem_poolset_load(const char *root, const char *name, struct rpmem_poolset *out, char *err, size_t errlen);
void rpmem_poolset_free(struct rpmem_poolset *ps);
/* A pool set name a client may ask for (relative, no "..", printable, no blanks). */
int rpmem_set_name_ok(const char *name);
/* "2M", "4KiB", "1GB", "8192" -> bytes. Returns 0, -EINVAL or -ERANGE. */
int rpmem_parse_size(const char *s, uint64_t *out);
/* Usable size (RPMEM-SIZE-1, PMDK's repsize: the parts minus 4096 for every header but the first; the same as the span) and the addressable span of a set. */
uint64_t rpmem_poolset_usable(const struct rpmem_poolset *ps);
uint64_t rpmem_poolset_span(const struct rpmem_poolset *ps);
/* Part i's first pool byte, the file offset it comes from, and how many bytes of the file are mapped. */
uint64_t rpmem_part_layout(const struct rpmem_poolset *ps, unsigned i, uint64_t *file_off, uint64_t *maplen);
/*
 * Read n bytes of set `name`'s pool (root: its root config directory) at
 * pool offset off straight from its part files, as the daemon lays them out
 * (part 0 whole, later parts after their header when they have one).
 * Returns 0, -ERANGE for a range past the pool's span, -ENOENT when a part
 * file is missing (no pool), -EIO, or as rpmem_poolset_load.
 */
int rpmem_poolset_pread(const char *root, const char *name, uint64_t off, uint8_t *out, size_t n);

/* ----------------------------------------------------------- hdr.c -- */

struct rpmem_hdr {
	uint32_t opt;          /* enum rpmem_opt of the set it was created from */
	uint32_t part, nparts;
	uint64_t part_size;
	uint64_t span;
	struct rpmem_pool_attr attr;
};
/* Encode into RPMEM_HDR_SIZE bytes (magic, version, fields little-endian, checksum). */
void rpmem_hdr_encode(const struct rpmem_hdr *h, uint8_t *out);
/* Decode; -EINVAL for a bad magic, version or checksum (a torn or foreign header). */
int rpmem_hdr_decode(const uint8_t *in, struct rpmem_hdr *h);
void rpmem_attr_put(uint8_t *p, const struct rpmem_pool_attr *a); /* 112 bytes, LE */
void rpmem_attr_get(const uint8_t *p, struct rpmem_pool_attr *a);
#define RPMEM_ATTR_WIRE 112
int rpmem_attr_zero(const struct rpmem_pool_attr *a);
/* Little-endian fields. */
void rpmem_put32(uint8_t *p, uint32_t v);
void rpmem_put64(uint8_t *p, uint64_t v);
uint32_t rpmem_get32(const uint8_t *p);
uint64_t rpmem_get64(const uint8_t *p);

/* ---------------------------------------------------------- pool.c -- */

/* A pool the target has open: its parts mapped contiguously, locked. */
struct rpmem_tpool {
	struct rpmem_poolset ps;
	int fd[RPMEM_PARTS_MAX];
	uint8_t *base;
	uint64_t span;
	int has_hdr;
	struct rpmem_pool_attr attr;
};
/*
 * Create (attr NULL: no header) or open the pool of set `name` under root,
 * checked in this order: name, set file, its syntax, part and pool minimum
 * sizes, (create) header vs NOHDRS, the pool exists; (open) it does not,
 * it is inconsistent, another process has it open (EBUSY); then pool_size
 * against the usable size (EFBIG). Returns 0 or the negative errno.
 */
int rpmem_tpool_create(const char *root, const char *name, uint64_t pool_size, const struct rpmem_pool_attr *attr,
		       struct rpmem_tpool *out, char *err, size_t errlen);
int rpmem_tpool_open(const char *root, const char *name, uint64_t pool_size, struct rpmem_tpool *out, char *err,
		     size_t errlen);
/* Rewrite every header with attr (NULL: zeros). -EINVAL without headers. */
int rpmem_tpool_set_attr(struct rpmem_tpool *tp, const struct rpmem_pool_attr *attr);
/* Write [off, off+len) back to the part files (msync). */
int rpmem_tpool_sync(struct rpmem_tpool *tp, uint64_t off, uint64_t len);
void rpmem_tpool_close(struct rpmem_tpool *tp);
/* rpmem_remove's target side. */
int rpmem_tpool_remove(const char *root, const char *name, int flags, char *err, size_t errlen);

/* --------------------------------------------------------- proto.c -- */

enum rpmem_msg_type {
	RPMEM_MSG_CREATE = 1, RPMEM_MSG_OPEN, RPMEM_MSG_SET_ATTR, RPMEM_MSG_DEEP, RPMEM_MSG_CLOSE,
	RPMEM_MSG_REMOVE, RPMEM_MSG_RESP,
};
/* The status a response carries (RPMEM-ERRNO-1 maps it to errno). */
enum rpmem_status {
	RPMEM_ST_OK, RPMEM_ST_NOENT, RPMEM_ST_EXIST, RPMEM_ST_BUSY, RPMEM_ST_INVAL, RPMEM_ST_FBIG,
	RPMEM_ST_ACCES, RPMEM_ST_NOMEM, RPMEM_ST_PROTO, RPMEM_ST_FATAL, RPMEM_ST_COUNT_
};
const char *rpmem_status_str(enum rpmem_status s);
int rpmem_status_parse(const char *name, enum rpmem_status *out);
int rpmem_status_errno(enum rpmem_status s);        /* ENOENT, ...; EREMOTEIO for FATAL */
enum rpmem_status rpmem_status_of(int err);         /* a positive errno -> status */

/* One control message (every request and the response have the same fixed wire form). */
struct rpmem_msg {
	uint32_t type, status, flags, nlanes;
	uint64_t pool_size, offset, len;    /* resp to create/open: pool_size = the span */
	uint32_t port, hdr, flush_type;     /* resp: listening port, pool has header, RPMA_FLUSH_TYPE_* */
	uint32_t has_attr;
	struct rpmem_pool_attr attr;
	char name[RPMEM_NAME_MAX];          /* set name; in a response, the error text */
	char host[RPMEM_HOST_MAX];          /* the address the target listens on */
	uint8_t desc_len, pcfg_len;
	uint8_t desc[RPMEM_DESC_MAX], pcfg[RPMEM_DESC_MAX];
};
#define RPMEM_MSG_WIRE (8 + 4 * 4 + 3 * 8 + 4 * 4 + RPMEM_ATTR_WIRE + RPMEM_NAME_MAX + RPMEM_HOST_MAX + 2 + \
			2 * RPMEM_DESC_MAX)
void rpmem_msg_encode(const struct rpmem_msg *m, uint8_t *out);
/* Decode and validate (magic, version, type, lengths, NUL-terminated strings). -EPROTO if bad. */
int rpmem_msg_decode(const uint8_t *in, struct rpmem_msg *m);
/* Send / receive one message on fd. 0, -EPIPE/-ECONNRESET (peer gone), -EPROTO, or -errno. */
int rpmem_msg_send(int fd, const struct rpmem_msg *m);
int rpmem_msg_recv(int fd, struct rpmem_msg *m);

/* ------------------------------------------------------ command.c -- */

#define RPMEM_ARGV_MAX 32
/*
 * The argv that starts the target daemon for target "[user@]host[:port]":
 * RPMEM_SSH (default "ssh") split at blanks, "-T", "-oBatchMode=yes", ["-p",
 * port], "[user@]host", then RPMEM_CMD (default "rpmemd") split at
 * blanks; with RPMEM_SSH set to "" only RPMEM_CMD. RPMEM_CMD may be several
 * commands separated by '|': command number pick modulo their count is used
 * (PMDK's round robin: the caller counts its starts). No quoting, globbing or
 * expansion; buf holds the strings. host gets the bare host. Returns argc,
 * or -EINVAL (a bad target, too many words, an empty command).
 */
int rpmem_command(const char *target, const char *ssh, const char *cmd, unsigned pick, char *buf, size_t buflen,
		  char **argv, char *host, size_t hostlen);


/* ------------------------------------------------------- rpmemd.c -- */

/*
 * The daemon (rpmemd(1)'s command line, rpmemd_config.c): its control channel
 * on stdin/stdout. Returns its exit status. The main of rpmemd-rpma
 * (rpmemd_main.c) and of each session of rpmemd-zygote (zygote.c).
 */
int rpmemd_main(int argc, char **argv);

/* -------------------------------------------------------- zygote.c -- */

/*
 * rpmemd-zygote: the daemon started without an exec per session, for a
 * target whose own side starts it (rpmem_serve; an exec under TCG cost about
 * 40 ms a session, 2026-12-03). Its starter runs it once, its socket as fd 3
 * (a SOCK_SEQPACKET pair); for each session it sends one message: the
 * listening socket (SCM_RIGHTS) and "KEY\0TIMEOUT_MS\0ARGV0\0ARGV1\0...";
 * the zygote hands it to a session it forked ahead (a spare: no fork while
 * the client waits), which takes the first connection on it bringing the key
 * (rpmem_key_accept) and runs rpmemd_main(ARGV) with that connection as
 * stdin/stdout, as `rpmemd ARGV` exec'd on it would, and answers the
 * session's pid (an int32, or -errno). Sessions die with the zygote, the
 * zygote with its starter (PR_SET_PDEATHSIG) or at EOF of its socket.
 */
#define RPMEM_ZYGOTE_FD 3
#define RPMEM_ZYGOTE_ARGS_MAX 16
/*
 * Start the zygote at path exe: *pid its process (the caller's child), *sock
 * the caller's end of its socket (close-on-exec). 0 or -errno.
 */
int rpmem_zygote_start(const char *exe, pid_t *pid, int *sock);
/*
 * Ask the zygote on sock for a session on listening socket lfd with key key
 * (within timeout_ms), the daemon's argv (NULL-terminated, at most
 * RPMEM_ZYGOTE_ARGS_MAX words). The session's pid (not the caller's child:
 * the zygote's), or -errno (-EPIPE: the zygote is gone).
 */
pid_t rpmem_zygote_serve(int sock, int lfd, const char *key, int timeout_ms, const char *const *argv);
/* data[0..n) and fd (SCM_RIGHTS) in one message on sock: what sendmsg returns (EINTR retried). */
ssize_t rpmem_send_fd(int sock, const void *data, size_t n, int fd);

/* -------------------------------------------------------- serve.c -- */

#define RPMEM_KEY_BYTES 16 /* a one-time key: 32 hex digits */
/* A fresh one-time key as hex into hex (cap >= 2 * RPMEM_KEY_BYTES + 1). 0 or -errno. */
int rpmem_key_new(char *hex, size_t cap);
/*
 * Read one line from fd (a byte at a time, so nothing after it is taken)
 * within timeout_ms in all (not per byte) and compare it with key want in
 * constant time. 0 when it is want; -EACCES another line; -EPROTO EOF
 * before a newline; -ETIMEDOUT; -errno.
 */
int rpmem_key_check(int fd, const char *want, int timeout_ms);
#define RPMEM_KEY_PEERS_MAX 16 /* connections rpmem_key_accept reads keys from at once */
/*
 * Accept connections on the listening socket lfd for timeout_ms in all and
 * read their key lines side by side (up to RPMEM_KEY_PEERS_MAX at once; one
 * more drops the oldest): the connected fd of the first that sends want, the
 * others closed (those that sent something else at once), or -ETIMEDOUT,
 * -errno. A stranger that connects first, stays silent, trickles bytes or
 * brings a wrong key does not keep the client with the key out.
 */
int rpmem_key_accept(int lfd, const char *want, int timeout_ms);
/* Connect to numeric host:port and send key and a newline. The socket, or -errno (-EINVAL a bad address). */
int rpmem_dial(const char *host, const char *port, const char *key);
/*
 * Relay in -> sock and sock -> out until sock ends (0); at EOF of in, sock's
 * sending side is shut down and the relay goes on until sock ends. -errno on
 * a failed read or write.
 */
int rpmem_relay(int in, int out, int sock);

#endif

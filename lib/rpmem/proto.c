/*
 * proto.c — the control protocol between the client library and the target
 * daemon, spoken over the daemon's stdin/stdout (a socket pair locally, the
 * ssh channel remotely): one fixed-size message per request and per
 * response, little-endian, after a magic and a version. The daemon treats
 * every byte as untrusted: lengths are bounded, strings must end in NUL.
 * Also the status codes of a response and their errno (RPMEM-ERRNO-1).
 */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG_MAGIC 0x524d5052u /* "RPMR" */
#define MSG_VERSION 1u

static const struct { const char *name; int err; } statuses[RPMEM_ST_COUNT_] = {
	[RPMEM_ST_OK] = { "OK", 0 },         [RPMEM_ST_NOENT] = { "NOENT", ENOENT },
	[RPMEM_ST_EXIST] = { "EXIST", EEXIST }, [RPMEM_ST_BUSY] = { "BUSY", EBUSY },
	[RPMEM_ST_INVAL] = { "INVAL", EINVAL }, [RPMEM_ST_FBIG] = { "FBIG", EFBIG },
	[RPMEM_ST_ACCES] = { "ACCES", EACCES }, [RPMEM_ST_NOMEM] = { "NOMEM", ENOMEM },
	[RPMEM_ST_PROTO] = { "PROTO", EPROTONOSUPPORT }, [RPMEM_ST_FATAL] = { "FATAL", EREMOTEIO },
};

const char *rpmem_status_str(enum rpmem_status s)
{
	return (unsigned)s < RPMEM_ST_COUNT_ ? statuses[s].name : "?";
}

int rpmem_status_parse(const char *name, enum rpmem_status *out)
{
	for (unsigned i = 0; i < RPMEM_ST_COUNT_; i++)
		if (strcasecmp(name, statuses[i].name) == 0) {
			*out = (enum rpmem_status)i;
			return 0;
		}
	return -EINVAL;
}

int rpmem_status_errno(enum rpmem_status s)
{
	return (unsigned)s < RPMEM_ST_COUNT_ ? statuses[s].err : EREMOTEIO;
}

enum rpmem_status rpmem_status_of(int err)
{
	for (unsigned i = 1; i < RPMEM_ST_COUNT_; i++)
		if (statuses[i].err == err)
			return (enum rpmem_status)i;
	return RPMEM_ST_FATAL;
}

void rpmem_msg_encode(const struct rpmem_msg *m, uint8_t *out)
{
	uint8_t *p = out;

	memset(out, 0, RPMEM_MSG_WIRE);
	rpmem_put32(p, MSG_MAGIC);
	rpmem_put32(p + 4, MSG_VERSION);
	p += 8;
	const uint32_t w32[] = { m->type, m->status, m->flags, m->nlanes };
	for (unsigned i = 0; i < 4; i++, p += 4)
		rpmem_put32(p, w32[i]);
	const uint64_t w64[] = { m->pool_size, m->offset, m->len };
	for (unsigned i = 0; i < 3; i++, p += 8)
		rpmem_put64(p, w64[i]);
	const uint32_t v32[] = { m->port, m->hdr, m->flush_type, m->has_attr };
	for (unsigned i = 0; i < 4; i++, p += 4)
		rpmem_put32(p, v32[i]);
	rpmem_attr_put(p, &m->attr);
	p += RPMEM_ATTR_WIRE;
	memcpy(p, m->name, strnlen(m->name, RPMEM_NAME_MAX - 1));
	p += RPMEM_NAME_MAX;
	memcpy(p, m->host, strnlen(m->host, RPMEM_HOST_MAX - 1));
	p += RPMEM_HOST_MAX;
	*p++ = m->desc_len <= RPMEM_DESC_MAX ? m->desc_len : 0;
	*p++ = m->pcfg_len <= RPMEM_DESC_MAX ? m->pcfg_len : 0;
	memcpy(p, m->desc, RPMEM_DESC_MAX);
	memcpy(p + RPMEM_DESC_MAX, m->pcfg, RPMEM_DESC_MAX);
}

int rpmem_msg_decode(const uint8_t *in, struct rpmem_msg *m)
{
	const uint8_t *p = in + 8;

	memset(m, 0, sizeof(*m));
	if (rpmem_get32(in) != MSG_MAGIC || rpmem_get32(in + 4) != MSG_VERSION)
		return -EPROTO;
	uint32_t *w32[] = { &m->type, &m->status, &m->flags, &m->nlanes };
	for (unsigned i = 0; i < 4; i++, p += 4)
		*w32[i] = rpmem_get32(p);
	uint64_t *w64[] = { &m->pool_size, &m->offset, &m->len };
	for (unsigned i = 0; i < 3; i++, p += 8)
		*w64[i] = rpmem_get64(p);
	uint32_t *v32[] = { &m->port, &m->hdr, &m->flush_type, &m->has_attr };
	for (unsigned i = 0; i < 4; i++, p += 4)
		*v32[i] = rpmem_get32(p);
	rpmem_attr_get(p, &m->attr);
	p += RPMEM_ATTR_WIRE;
	if (!memchr(p, '\0', RPMEM_NAME_MAX) || !memchr(p + RPMEM_NAME_MAX, '\0', RPMEM_HOST_MAX))
		return -EPROTO;
	memcpy(m->name, p, RPMEM_NAME_MAX);
	memcpy(m->host, p + RPMEM_NAME_MAX, RPMEM_HOST_MAX);
	p += RPMEM_NAME_MAX + RPMEM_HOST_MAX;
	m->desc_len = p[0];
	m->pcfg_len = p[1];
	p += 2;
	if (m->type < RPMEM_MSG_CREATE || m->type > RPMEM_MSG_RESP || m->desc_len > RPMEM_DESC_MAX ||
	    m->pcfg_len > RPMEM_DESC_MAX || m->status >= RPMEM_ST_COUNT_)
		return -EPROTO;
	memcpy(m->desc, p, RPMEM_DESC_MAX);
	memcpy(m->pcfg, p + RPMEM_DESC_MAX, RPMEM_DESC_MAX);
	return 0;
}

int rpmem_msg_send(int fd, const struct rpmem_msg *m)
{
	uint8_t buf[RPMEM_MSG_WIRE];
	size_t off = 0;

	rpmem_msg_encode(m, buf);
	while (off < sizeof(buf)) {
		/* send() where it is a socket (no SIGPIPE for the client), write() on a pipe (ssh's). */
		ssize_t n = send(fd, buf + off, sizeof(buf) - off, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(fd, buf + off, sizeof(buf) - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		off += (size_t)n;
	}
	return 0;
}

int rpmem_msg_recv(int fd, struct rpmem_msg *m)
{
	uint8_t buf[RPMEM_MSG_WIRE];
	size_t off = 0;

	while (off < sizeof(buf)) {
		ssize_t n = read(fd, buf + off, sizeof(buf) - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		off += (size_t)n;
	}
	return rpmem_msg_decode(buf, m);
}

/*
 * topo.c — reader of the topology description file (format: topo.h).
 * The text is untrusted: every token is bounded and validated.
 */
#include "netns/topo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOPO_FILE_MAX (64 * 1024)
#define TOPO_LINE_MAX 512
#define TOPO_TOKENS_MAX 16

const char *topo_mode_str(enum topo_mode mode)
{
	switch (mode) {
	case TOPO_MODE_ROUTED: return "routed";
	case TOPO_MODE_NETNS: return "netns";
	case TOPO_MODE_HOSTS: return "hosts";
	}
	return "?";
}

int topo_mode_parse(const char *s, enum topo_mode *out)
{
	if (strcmp(s, "routed") == 0)
		*out = TOPO_MODE_ROUTED;
	else if (strcmp(s, "netns") == 0)
		*out = TOPO_MODE_NETNS;
	else if (strcmp(s, "hosts") == 0)
		*out = TOPO_MODE_HOSTS;
	else
		return -EINVAL;
	return 0;
}

static int fail(char *err, size_t errlen, unsigned line, const char *fmt, ...)
{
	if (errlen > 0) {
		int n = snprintf(err, errlen, "line %u: ", line);
		va_list ap;

		va_start(ap, fmt);
		if (n >= 0 && (size_t)n < errlen)
			vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* [a-z][a-z0-9_]* */
static int is_node_name(const char *s)
{
	if (*s < 'a' || *s > 'z')
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/*
 * Characters allowed in interface, namespace and device names we accept. Not
 * "." or "..", and no leading '-' or '.' (these names end up in paths such as
 * /var/run/netns/NAME and on command lines).
 */
static int is_ident(const char *s)
{
	if (!*s || *s == '-' || *s == '.')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

/* Parse a decimal integer in [lo, hi]; returns 0 or -EINVAL. */
static int parse_int(const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "A.B.C.D/LEN" into ipv4 (dotted quad) and prefix length. */
static int parse_ipv4(const char *s, char ipv4[16], int *plen)
{
	unsigned part[4];
	int n = 0, len;
	const char *p = s;

	for (int i = 0; i < 4; i++) {
		unsigned v = 0;
		int digits = 0;

		const char *start = p;

		while (*p >= '0' && *p <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*p - '0');
			p++;
			digits++;
		}
		/* no leading zeros: "010" is octal to inet_aton() */
		if (digits == 0 || digits > 3 || v > 255 || (digits > 1 && *start == '0'))
			return -EINVAL;
		part[i] = v;
		if (i < 3 && *p++ != '.')
			return -EINVAL;
	}
	if (*p++ != '/' || *p == '0' || parse_int(p, 1, 32, &len) != 0)
		return -EINVAL;
	n = snprintf(ipv4, 16, "%u.%u.%u.%u", part[0], part[1], part[2], part[3]);
	if (n < 0 || n >= 16)
		return -EINVAL;
	*plen = len;
	return 0;
}

/* Copy an identifier into dst of size cap; "-" may mean empty when dash_empty. */
static int set_ident(char *dst, size_t cap, const char *v, int dash_empty)
{
	if (dash_empty && strcmp(v, "-") == 0) {
		dst[0] = '\0';
		return 0;
	}
	if (!is_ident(v) || strlen(v) >= cap)
		return -EINVAL;
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* HOST:PORT of a listening agent: a name, IPv4 or [IPv6], and a port 1..65535. */
static int set_agent(char *dst, size_t cap, const char *v)
{
	const char *colon = strrchr(v, ':');
	int port;

	if (strlen(v) >= cap || !colon || colon == v || parse_int(colon + 1, 1, 65535, &port))
		return -EINVAL;
	for (const char *c = v; c < colon; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".-_:[]", *c))
			return -EINVAL;
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

static int parse_node(char **tok, int ntok, struct topo *t, unsigned line,
		      char *err, size_t errlen)
{
	enum { K_NETNS, K_NETDEV, K_RXE, K_IPV4, K_GID, K_AGENT, K_COUNT };
	static const char *const keys[K_COUNT] = { "netns", "netdev", "rxe", "ipv4", "gid_index", "agent" };
	int seen[K_COUNT] = { 0 };
	struct topo_node *nd;

	if (t->n >= TOPO_MAX_NODES)
		return fail(err, errlen, line, "more than %d nodes", TOPO_MAX_NODES);
	if (ntok < 2)
		return fail(err, errlen, line, "node needs a name");
	if (!is_node_name(tok[1]) || strlen(tok[1]) >= TOPO_NAME_MAX)
		return fail(err, errlen, line, "bad node name '%.40s'", tok[1]);
	if (topo_find(t, tok[1]))
		return fail(err, errlen, line, "node '%s' defined twice", tok[1]);
	nd = &t->node[t->n];
	memset(nd, 0, sizeof(*nd));
	memcpy(nd->name, tok[1], strlen(tok[1]) + 1);

	for (int i = 2; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		int k, rc = 0;

		if (!eq)
			return fail(err, errlen, line, "expected KEY=VALUE, got '%.40s'", tok[i]);
		*eq = '\0';
		for (k = 0; k < K_COUNT && strcmp(tok[i], keys[k]) != 0; k++)
			;
		if (k == K_COUNT)
			return fail(err, errlen, line, "unknown key '%.40s'", tok[i]);
		if (seen[k]++)
			return fail(err, errlen, line, "key '%s' given twice", keys[k]);
		const char *v = eq + 1;
		switch (k) {
		case K_NETNS: rc = set_ident(nd->netns, sizeof(nd->netns), v, 1); break;
		case K_NETDEV: rc = set_ident(nd->netdev, sizeof(nd->netdev), v, 0); break;
		case K_RXE: rc = set_ident(nd->rxe, sizeof(nd->rxe), v, 1); break;
		case K_IPV4: rc = parse_ipv4(v, nd->ipv4, &nd->prefix_len); break;
		case K_GID: rc = parse_int(v, -1, 65535, &nd->gid_index); break;
		case K_AGENT: rc = set_agent(nd->agent, sizeof(nd->agent), v); break;
		}
		if (rc)
			return fail(err, errlen, line, "bad value for %s: '%.40s'", keys[k], v);
	}
	for (int k = 0; k < K_AGENT; k++) /* agent= is the mode's to require (topo_parse) */
		if (!seen[k])
			return fail(err, errlen, line, "node '%s' lacks %s=", nd->name, keys[k]);
	if ((nd->rxe[0] == '\0') != (nd->gid_index < 0))
		return fail(err, errlen, line, "rxe=- goes with gid_index=-1 and only with it");
	t->n++;
	return 0;
}

/*
 * Node k against the nodes before it: addresses always differ; devices and
 * namespaces too when the nodes share a kernel (not in mode hosts, where
 * every host may well call its NIC ens1). 0 or -EINVAL with err.
 */
static int distinct(const struct topo *t, size_t k, unsigned line, char *err, size_t errlen)
{
	const struct topo_node *nd = &t->node[k];
	int one_kernel = t->mode != TOPO_MODE_HOSTS;

	for (size_t j = 0; j < k; j++) {
		if (strcmp(t->node[j].ipv4, nd->ipv4) == 0)
			return fail(err, errlen, line, "address %s used twice", nd->ipv4);
		if (one_kernel && strcmp(t->node[j].netdev, nd->netdev) == 0)
			return fail(err, errlen, line, "netdev %s used twice", nd->netdev);
		if (one_kernel && nd->rxe[0] && strcmp(t->node[j].rxe, nd->rxe) == 0)
			return fail(err, errlen, line, "rxe device %s used twice", nd->rxe);
		if (nd->netns[0] && strcmp(t->node[j].netns, nd->netns) == 0)
			return fail(err, errlen, line, "netns %s used twice", nd->netns);
	}
	return 0;
}

int topo_parse(const char *text, size_t len, struct topo *out, char *err, size_t errlen)
{
	int have_mode = 0, have_prefix = 0, have_hub = 0;
	unsigned line = 0, node_line[TOPO_MAX_NODES] = { 0 };
	size_t pos = 0;

	if (errlen > 0)
		err[0] = '\0';
	memset(out, 0, sizeof(*out));
	while (pos < len) {
		char buf[TOPO_LINE_MAX + 1], *tok[TOPO_TOKENS_MAX], *save = NULL, *p;
		size_t end = pos, n;
		int ntok = 0;

		while (end < len && text[end] != '\n')
			end++;
		line++;
		n = end - pos;
		if (n > TOPO_LINE_MAX)
			return fail(err, errlen, line, "line longer than %d bytes", TOPO_LINE_MAX);
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos = end + 1;
		if (memchr(buf, '\0', n))
			return fail(err, errlen, line, "NUL byte");
		if ((p = strchr(buf, '#')))
			*p = '\0';
		for (p = strtok_r(buf, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save)) {
			if (ntok == TOPO_TOKENS_MAX)
				return fail(err, errlen, line, "too many fields");
			tok[ntok++] = p;
		}
		if (ntok == 0)
			continue;
		if (out->version == 0) {
			if (strcmp(tok[0], "rdmacheck-topology") != 0 || ntok != 2)
				return fail(err, errlen, line, "not a topology file (expected 'rdmacheck-topology 1')");
			if (strcmp(tok[1], "1") != 0)
				return fail(err, errlen, line, "unsupported version '%.20s'", tok[1]);
			out->version = 1;
		} else if (strcmp(tok[0], "mode") == 0) {
			if (ntok != 2 || have_mode++ || topo_mode_parse(tok[1], &out->mode))
				return fail(err, errlen, line, "bad or repeated mode line");
		} else if (strcmp(tok[0], "prefix") == 0) {
			if (ntok != 2 || have_prefix++ || set_ident(out->prefix, sizeof(out->prefix), tok[1], 0))
				return fail(err, errlen, line, "bad or repeated prefix line");
		} else if (strcmp(tok[0], "hub") == 0) {
			if (ntok != 2 || have_hub++ || set_ident(out->hub, sizeof(out->hub), tok[1], 0))
				return fail(err, errlen, line, "bad or repeated hub line");
		} else if (strcmp(tok[0], "node") == 0) {
			int rc = parse_node(tok, ntok, out, line, err, errlen);

			if (rc)
				return rc;
			node_line[out->n - 1] = line;
		} else {
			return fail(err, errlen, line, "unknown statement '%.40s'", tok[0]);
		}
	}
	if (out->version == 0)
		return fail(err, errlen, line, "empty file");
	if (!have_mode || (out->mode != TOPO_MODE_HOSTS && (!have_prefix || !have_hub)))
		return fail(err, errlen, line, "missing %s line",
			    !have_mode ? "mode" : !have_prefix ? "prefix" : "hub");
	if (out->n == 0)
		return fail(err, errlen, line, "no node");
	for (size_t i = 0; i < out->n; i++) {
		const struct topo_node *nd = &out->node[i];

		if (distinct(out, i, node_line[i], err, errlen))
			return -EINVAL;
		if ((out->mode == TOPO_MODE_NETNS) != (nd->netns[0] != '\0'))
			return fail(err, errlen, node_line[i], "node '%s': netns=%s does not fit mode %s", nd->name,
				    nd->netns[0] ? nd->netns : "-", topo_mode_str(out->mode));
		if ((out->mode == TOPO_MODE_HOSTS) != (nd->agent[0] != '\0'))
			return fail(err, errlen, node_line[i], "node '%s': agent= %s", nd->name,
				    nd->agent[0] ? "is for mode hosts only" : "is required in mode hosts");
	}
	return 0;
}

int topo_load(const char *path, struct topo *out, char *err, size_t errlen)
{
	char *buf;
	size_t len = 0;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (errlen > 0)
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	buf = malloc(TOPO_FILE_MAX + 1);
	if (!buf) {
		rc = -ENOMEM;
		if (errlen > 0)
			snprintf(err, errlen, "%s: out of memory", path);
		goto out_close;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, TOPO_FILE_MAX + 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			if (errlen > 0)
				snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			goto out_free;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > TOPO_FILE_MAX) {
			rc = -EINVAL;
			if (errlen > 0)
				snprintf(err, errlen, "%s: larger than %d bytes", path, TOPO_FILE_MAX);
			goto out_free;
		}
	}
	rc = topo_parse(buf, len, out, err, errlen);
out_free:
	free(buf);
out_close:
	close(fd);
	return rc;
}

const struct topo_node *topo_find(const struct topo *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->node[i].name, name) == 0)
			return &t->node[i];
	return NULL;
}

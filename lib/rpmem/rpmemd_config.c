/*
 * rpmemd_config.c — the daemon's command line and rpmemd.conf, as PMDK
 * 1.12.1's rpmemd has them (rpmemd(1); src/tools/rpmemd/rpmemd_config.c),
 * with this daemon's own options beside them. A config file is untrusted
 * text: bounded in size, read without blocking, every error naming
 * file:line:col.
 */
#define _DEFAULT_SOURCE /* getpwuid */
#include "lib/rpmem/rpmemd_config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONF_FILE_MAX (64u << 10)
#define CONF_LINE_MAX 4096u

enum kind { K_PATH, K_BOOL, K_LEVEL, K_UINT };

/* The keys of a config file; their index is their bit in `fixed`. */
static const struct key {
	const char *name;
	enum kind kind;
	unsigned long lo, hi; /* K_UINT */
} keys[] = {
	{ "log-file", K_PATH, 0, 0 },     { "poolset-dir", K_PATH, 0, 0 }, { "persist-apm", K_BOOL, 0, 0 },
	{ "persist-general", K_BOOL, 0, 0 }, { "use-syslog", K_BOOL, 0, 0 }, { "log-level", K_LEVEL, 0, 0 },
	{ "max-lanes", K_UINT, 1, RPMEMD_LANES_MAX }, { "port-base", K_UINT, 1, 65535 - RPMEMD_PORT_TRIES },
	{ "timeout", K_UINT, 1, 3600 },   { "pmem", K_BOOL, 0, 0 },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const levels[] = { "err", "warn", "notice", "info", "debug" };

const char rpmemd_usage[] =
	"usage: rpmemd [-c FILE] [--poolset-dir DIR] [--persist-apm] [--persist-general] [--use-syslog]\n"
	"              [--log-file PATH] [--log-level LEVEL] [-t N] [-n MAX_LANES] [-p PORT_BASE]\n"
	"              [--timeout S] [--pmem] [-v]\n"
	"       rpmemd -r POOLSET [-f] [-s]      rpmemd -V      rpmemd -h\n"
	"  Started by the librpmem client (ssh or RPMEM_CMD); speaks its protocol on stdin/stdout.\n"
	"  -c, --config FILE     read only this config file (else /etc/rpmemd/rpmemd.conf, $HOME/.rpmemd.conf)\n"
	"  -r, --remove POOLSET  remove the pool of pool set POOLSET (relative to the pool set directory), exit\n"
	"  -f, --force           with -r: remove even an inconsistent pool\n"
	"  -s, --pool-set        with -r: remove the pool set file too\n"
	"  -t, --nthreads N      GPSPM's processing threads (accepted; this daemon uses APM and has none)\n"
	"  -V, --version         print the version, exit\n"
	"      --poolset-dir DIR pool set files directory (default $HOME; \"$HOME\" in DIR is replaced)\n"
	"      --persist-apm     Appliance Persistency Method (the one this daemon uses, whatever is set)\n"
	"      --persist-general General Purpose Server Persistency Method (not implemented: APM is used)\n"
	"      --use-syslog      log with syslog(3) (the default)\n"
	"      --log-file PATH   log to PATH instead of syslog (default /var/log/rpmemd.log)\n"
	"      --log-level L     err (default), warn, notice, info, debug\n"
	"  -n, --max-lanes N     lanes per pool at most (default 16, at most 64)\n"
	"  -p, --port-base N     first port to listen on for the lanes (default 7700; the next 99 are tried)\n"
	"      --timeout S       how long to wait for a client's lanes (default 10)\n"
	"      --pmem            the part files are on persistent memory (fs-DAX): flush type PERSISTENT\n"
	"  -v, --verbose         log to stderr, at level info at least\n";

const char *rpmemd_log_level_str(enum rpmemd_log_level l)
{
	return (unsigned)l < 5 ? levels[l] : "?";
}

static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int home_dir(char *out, size_t len)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if ((!h || !*h) && (pw = getpwuid(getuid())) != NULL)
		h = pw->pw_dir;
	return h && (size_t)snprintf(out, len, "%s", h) < len ? 0 : -1;
}

/* Set key k to value v (NULL: a bare command-line flag, "yes"). NULL, or what is wrong with v. */
static const char *set_key(struct rpmemd_config *c, unsigned k, const char *v)
{
	const struct key *key = &keys[k];
	int b = 0;
	unsigned long n = 0;

	switch (key->kind) {
	case K_PATH:
		if (!*v || strlen(v) >= PATH_MAX)
			return "a path (not empty, below PATH_MAX)";
		break;
	case K_BOOL:
		if (v && strcmp(v, "yes") && strcmp(v, "no"))
			return "yes or no";
		b = !v || strcmp(v, "yes") == 0;
		break;
	case K_LEVEL:
		for (n = 0; n < 5 && strcmp(v, levels[n]); n++)
			;
		if (n == 5)
			return "err, warn, notice, info or debug";
		break;
	case K_UINT: {
		char *end;

		errno = 0;
		n = strtoul(v, &end, 10);
		if (!isdigit((unsigned char)*v) || *end || errno || n < key->lo || n > key->hi)
			return key->hi == RPMEMD_LANES_MAX ? "a number from 1 to 64"
			       : key->hi == 3600	   ? "a number of seconds from 1 to 3600"
							   : "a port number from 1 to 65435";
		break;
	}
	}
	switch (k) {
	case 0: snprintf(c->log_file, sizeof(c->log_file), "%s", v); c->use_syslog = 0; break;
	case 1: snprintf(c->poolset_dir, sizeof(c->poolset_dir), "%s", v); break;
	case 2: c->persist_apm = b; break;
	case 3: c->persist_general = b; break;
	case 4: c->use_syslog = b; break;
	case 5: c->log_level = (enum rpmemd_log_level)n; break;
	case 6: c->max_lanes = (unsigned)n; break;
	case 7: c->port_base = (unsigned)n; break;
	case 8: c->timeout_ms = (int)n * 1000; break;
	case 9: c->pmem = b; break;
	}
	return NULL;
}

/* One line (number ln, text[0..len)) of a config file. */
static int conf_line(const char *fname, unsigned ln, const char *line, size_t len, struct rpmemd_config *c,
		     unsigned fixed, char *err, size_t errlen)
{
	char key[64], val[PATH_MAX];
	const char *hash = memchr(line, '#', len), *eq;
	size_t end = hash ? (size_t)(hash - line) : len, ks = 0, ke, vs, ve;

	for (size_t i = 0; i < len; i++)
		if (((unsigned char)line[i] < ' ' && line[i] != '\t' && !(line[i] == '\r' && i == len - 1)) ||
		    line[i] == 0x7f)
			return errf(err, errlen, "%s:%u:%zu: control character", fname, ln, i + 1);
	while (ks < end && isspace((unsigned char)line[ks]))
		ks++;
	if (ks == end)
		return 0; /* blank, or a comment */
	if (!(eq = memchr(line + ks, '=', end - ks)))
		return errf(err, errlen, "%s:%u:%zu: expected 'key = value'", fname, ln, ks + 1);
	for (ke = (size_t)(eq - line); ke > ks && isspace((unsigned char)line[ke - 1]); ke--)
		;
	if (ke == ks)
		return errf(err, errlen, "%s:%u:%zu: no key before '='", fname, ln, (size_t)(eq - line) + 1);
	for (vs = (size_t)(eq - line) + 1; vs < end && isspace((unsigned char)line[vs]); vs++)
		;
	for (ve = end; ve > vs && isspace((unsigned char)line[ve - 1]); ve--)
		;
	snprintf(key, sizeof(key), "%.*s", (int)(ke - ks), line + ks);
	unsigned k = 0;

	while (k < NKEYS && (ke - ks != strlen(keys[k].name) || strncmp(line + ks, keys[k].name, ke - ks)))
		k++;
	if (k == NKEYS)
		return errf(err, errlen,
			    "%s:%u:%zu: unknown key '%s' (log-file, poolset-dir, persist-apm, persist-general, "
			    "use-syslog, log-level, max-lanes, port-base, timeout, pmem)",
			    fname, ln, ks + 1, key);
	if (ve == vs)
		return errf(err, errlen, "%s:%u:%zu: no value for '%s'", fname, ln, (size_t)(eq - line) + 2,
			    keys[k].name);
	if (ve - vs >= sizeof(val))
		return errf(err, errlen, "%s:%u:%zu: value too long", fname, ln, vs + 1);
	snprintf(val, sizeof(val), "%.*s", (int)(ve - vs), line + vs);
	if (fixed & (1u << k))
		return 0; /* the command line set it */
	const char *bad = set_key(c, k, val);

	if (bad)
		return errf(err, errlen, "%s:%u:%zu: bad value '%s' for %s (%s)", fname, ln, vs + 1, val, keys[k].name,
			    bad);
	return 0;
}

int rpmemd_config_parse(const char *fname, const char *text, size_t len, struct rpmemd_config *c, unsigned fixed,
			char *err, size_t errlen)
{
	unsigned ln = 0;
	size_t i = 0;

	if (memchr(text, '\0', len))
		return errf(err, errlen, "%s:1:1: NUL byte in the file", fname);
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;
		int rc;

		ln++;
		if (e - i > CONF_LINE_MAX)
			return errf(err, errlen, "%s:%u:%u: line longer than %u bytes", fname, ln, CONF_LINE_MAX + 1,
				    CONF_LINE_MAX);
		if ((rc = conf_line(fname, ln, text + i, e - i, c, fixed, err, errlen)) != 0)
			return rc;
		i = e + 1;
	}
	return 0;
}

/* Read and apply config file path; a missing one is fine unless required. */
static int conf_file(const char *path, int required, struct rpmemd_config *c, unsigned fixed, char *err,
		     size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;
	struct stat st;
	char *text;
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT && !required ? 0 : errf(err, errlen, "%s: %s", path, strerror(errno));
	/* A character device (/dev/null: no config) reads as empty: st_size bytes are read, no more. */
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)) || st.st_size > CONF_FILE_MAX) {
		close(fd);
		return errf(err, errlen, "%s: not a regular file of at most %u bytes", path, CONF_FILE_MAX);
	}
	if (!(text = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return errf(err, errlen, "%s: out of memory", path);
	}
	n = read(fd, text, (size_t)st.st_size);
	close(fd);
	rc = n < 0 ? errf(err, errlen, "%s: %s", path, strerror(errno))
		   : rpmemd_config_parse(path, text, (size_t)n, c, fixed, err, errlen);
	free(text);
	return rc;
}

/* "$HOME" in poolset-dir, not followed by a letter or digit, becomes home (PMDK's str_replace_home). */
static int replace_home(struct rpmemd_config *c, const char *home, char *err, size_t errlen)
{
	char *p = strstr(c->poolset_dir, "$HOME"), out[PATH_MAX];

	if (!p || isalnum((unsigned char)p[5]))
		return 0;
	if ((size_t)snprintf(out, sizeof(out), "%.*s%s%s", (int)(p - c->poolset_dir), c->poolset_dir, home, p + 5) >=
	    sizeof(out))
		return errf(err, errlen, "poolset-dir: too long with $HOME replaced");
	memcpy(c->poolset_dir, out, sizeof(out));
	return 0;
}

static void defaults(struct rpmemd_config *c, const char *home)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->poolset_dir, sizeof(c->poolset_dir), "%s", home);
	snprintf(c->log_file, sizeof(c->log_file), "/var/log/rpmemd.log");
	c->persist_general = 1;
	c->use_syslog = 1;
	c->log_level = RPMEMD_LOG_ERR;
	c->max_lanes = 16;
	c->port_base = 7700;
	c->timeout_ms = 10000;
}

/* The command line into c; *conf gets -c's file; *fixed the keys it set. */
static int parse_args(int argc, char **argv, struct rpmemd_config *c, const char **conf, unsigned *fixed, char *err,
		      size_t errlen)
{
	enum { O_KEY = 1000 };
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },	 { "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },		 { "remove", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },		 { "pool-set", no_argument, NULL, 's' },
		{ "nthreads", required_argument, NULL, 't' },	 { "verbose", no_argument, NULL, 'v' },
		{ "log-file", required_argument, NULL, O_KEY + 0 }, { "poolset-dir", required_argument, NULL, O_KEY + 1 },
		{ "persist-apm", no_argument, NULL, O_KEY + 2 }, { "persist-general", no_argument, NULL, O_KEY + 3 },
		{ "use-syslog", no_argument, NULL, O_KEY + 4 },	 { "log-level", required_argument, NULL, O_KEY + 5 },
		{ "max-lanes", required_argument, NULL, 'n' },	 { "port-base", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, O_KEY + 8 }, { "pmem", no_argument, NULL, O_KEY + 9 },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, ":c:hVr:fst:vn:p:", opts, NULL)) != -1) {
		unsigned k = o == 'n' ? 6 : o == 'p' ? 7 : (unsigned)(o - O_KEY);
		const char *bad;

		switch (o) {
		case 'c': *conf = optarg; break;
		case 'h': c->run = RPMEMD_HELP; return 0;
		case 'V': c->run = RPMEMD_VERSION; return 0;
		case 'r': c->rm_poolset = optarg; c->run = RPMEMD_REMOVE; break;
		case 'f': c->force = 1; break;
		case 's': c->pool_set = 1; break;
		case 'v': c->verbose = 1; break;
		case 't': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (!isdigit((unsigned char)*optarg) || *end || n > 1024)
				return errf(err, errlen, "invalid number of threads -- '%s'", optarg);
			c->nthreads = (unsigned)n;
			break;
		}
		case ':': return errf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
		case '?': return errf(err, errlen, "unknown option '%s'", argv[optind - 1]);
		default:
			if ((bad = set_key(c, k, keys[k].kind == K_BOOL ? NULL : optarg)) != NULL)
				return errf(err, errlen, "--%s '%s': %s", keys[k].name, optarg, bad);
			*fixed |= 1u << k;
		}
	}
	if (optind != argc)
		return errf(err, errlen, "unexpected argument '%s'", argv[optind]);
	if ((c->force || c->pool_set) && c->run != RPMEMD_REMOVE)
		return errf(err, errlen, "-f and -s go with -r POOLSET");
	return 0;
}

int rpmemd_config_read(struct rpmemd_config *c, int argc, char **argv, const char *global_conf, char *err,
		       size_t errlen)
{
	char home[PATH_MAX], user[PATH_MAX + 16];
	const char *conf = NULL;
	unsigned fixed = 0;
	int rc;

	if (home_dir(home, sizeof(home)))
		return errf(err, errlen, "no home directory ($HOME unset, no passwd entry)");
	defaults(c, home);
	if ((rc = parse_args(argc, argv, c, &conf, &fixed, err, errlen)) != 0 || c->run == RPMEMD_HELP ||
	    c->run == RPMEMD_VERSION)
		return rc;
	if (conf)
		rc = conf_file(conf, 1, c, fixed, err, errlen);
	else {
		snprintf(user, sizeof(user), "%s/%s", home, RPMEMD_USER_CONFIG);
		rc = conf_file(global_conf, 0, c, fixed, err, errlen);
		if (rc == 0)
			rc = conf_file(user, 0, c, fixed, err, errlen);
	}
	if (rc == 0)
		rc = replace_home(c, home, err, errlen);
	if (rc == 0 && c->verbose && c->log_level < RPMEMD_LOG_INFO)
		c->log_level = RPMEMD_LOG_INFO;
	return rc;
}

/*
 * poolset.c — PMDK's pool set file format, as the target reads it from its
 * root config directory: a parser for untrusted text whose every error names
 * the file, line and column, and the layout of a set's parts in the pool.
 *
 *   PMEMPOOLSET
 *   OPTION SINGLEHDR        # or NOHDRS; at most one OPTION line
 *   2M  /mnt/pmem/pool.part0
 *   4MiB pool.part1         # relative: against the set file's directory
 */
#include "lib/rpmem/rpmem_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define SET_FILE_MAX (64u << 10) /* a pool set file larger than this is refused */
#define SET_BYTES_MAX (1ull << 48) /* the parts of one set together */

static const char *const opt_names[] = { "NONE", "SINGLEHDR", "NOHDRS" };

const char *rpmem_opt_str(enum rpmem_opt o)
{
	return (unsigned)o < 3 ? opt_names[o] : "?";
}

int rpmem_opt_parse(const char *name, enum rpmem_opt *out)
{
	for (unsigned i = 1; i < 3; i++)
		if (strcasecmp(name, opt_names[i]) == 0) {
			*out = (enum rpmem_opt)i;
			return 0;
		}
	return -EINVAL;
}

int rpmem_parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *suf; uint64_t mul; } units[] = {
		{ "", 1 }, { "B", 1 },
		{ "K", 1ull << 10 }, { "KiB", 1ull << 10 }, { "KB", 1000ull },
		{ "M", 1ull << 20 }, { "MiB", 1ull << 20 }, { "MB", 1000000ull },
		{ "G", 1ull << 30 }, { "GiB", 1ull << 30 }, { "GB", 1000000000ull },
		{ "T", 1ull << 40 }, { "TiB", 1ull << 40 }, { "TB", 1000000000000ull },
	};
	uint64_t v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(p, units[i].suf) == 0) {
			if (v > UINT64_MAX / units[i].mul)
				return -ERANGE;
			*out = v * units[i].mul;
			return 0;
		}
	return -EINVAL;
}

int rpmem_set_name_ok(const char *n)
{
	size_t len = strnlen(n, RPMEM_NAME_MAX);

	if (len == 0 || len >= RPMEM_NAME_MAX || n[0] == '/')
		return 0;
	for (const char *c = n; *c; c++) {
		if (*c <= ' ' || *c > '~')
			return 0;
		if (c[0] == '.' && c[1] == '.' && (c == n || c[-1] == '/') && (c[2] == '/' || !c[2]))
			return 0;
	}
	return 1;
}

void rpmem_poolset_free(struct rpmem_poolset *ps)
{
	for (unsigned i = 0; i < ps->nparts; i++)
		free(ps->part[i].path);
	ps->nparts = 0;
}

/* "fname:line:col: what" into err; returns -EINVAL. */
static int perr(char *err, size_t errlen, const char *fname, unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%u:%u: ", fname, line, col);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Split line[0..len) into at most 3 blank-separated words; their columns (1-based). */
struct words {
	unsigned n;
	char w[3][512];
	unsigned col[3];
};

static int split(const char *line, size_t len, struct words *ws, unsigned *bad_col)
{
	size_t i = 0;

	ws->n = 0;
	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i >= len || line[i] == '#')
			break;
		size_t s = i;

		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '#')
			i++;
		*bad_col = (unsigned)s + 1;
		if (ws->n == 3)
			return -E2BIG;
		if (i - s >= sizeof(ws->w[0]))
			return -ENAMETOOLONG;
		for (size_t k = s; k < i; k++)
			if ((unsigned char)line[k] < ' ' || line[k] == 0x7f)
				return -EILSEQ;
		memcpy(ws->w[ws->n], line + s, i - s);
		ws->w[ws->n][i - s] = '\0';
		ws->col[ws->n++] = (unsigned)s + 1;
	}
	return 0;
}

static int part_line(const struct words *ws, const char *fname, unsigned ln, const char *dir,
		     struct rpmem_poolset *out, char *err, size_t errlen)
{
	uint64_t size;
	int rc = rpmem_parse_size(ws->w[0], &size);
	struct rpmem_part *p;

	if (rc == -ERANGE)
		return perr(err, errlen, fname, ln, ws->col[0], "size '%s' out of range", ws->w[0]);
	if (rc)
		return perr(err, errlen, fname, ln, ws->col[0], "bad size '%s' (e.g. 2M, 4GiB, 8192)", ws->w[0]);
	if (ws->n != 2)
		return perr(err, errlen, fname, ln, ws->col[0],
			    ws->n < 2 ? "a part needs a path after its size" : "unexpected '%s' after the path",
			    ws->n > 2 ? ws->w[2] : "");
	if (size == 0 || size % RPMEM_HDR_SIZE)
		return perr(err, errlen, fname, ln, ws->col[0], "part size %s is not a non-zero multiple of 4096",
			    ws->w[0]);
	if (ws->w[1][strlen(ws->w[1]) - 1] == '/')
		return perr(err, errlen, fname, ln, ws->col[1], "directory parts are not supported");
	if (out->nparts >= RPMEM_PARTS_MAX)
		return perr(err, errlen, fname, ln, 1, "more than %d parts", RPMEM_PARTS_MAX);
	p = &out->part[out->nparts];
	p->size = size;
	if (ws->w[1][0] == '/')
		p->path = strdup(ws->w[1]);
	else if ((p->path = malloc(strlen(dir) + strlen(ws->w[1]) + 2)) != NULL)
		sprintf(p->path, "%s/%s", dir, ws->w[1]);
	if (!p->path)
		return -ENOMEM;
	for (unsigned i = 0; i < out->nparts; i++)
		if (strcmp(out->part[i].path, p->path) == 0) {
			free(p->path);
			return perr(err, errlen, fname, ln, ws->col[1], "part '%s' is listed twice", ws->w[1]);
		}
	out->nparts++;
	return 0;
}

/* One line (number ln) of the set; *seen_hdr / *seen_opt track the line kinds so far. */
static int set_line(const char *line, size_t len, const char *fname, unsigned ln, const char *dir, int *seen_hdr,
		    int *seen_opt, struct rpmem_poolset *out, char *err, size_t errlen)
{
	struct words ws;
	unsigned col = 1;
	int rc = split(line, len, &ws, &col);

	if (rc == -E2BIG)
		return perr(err, errlen, fname, ln, col, "too many words");
	if (rc == -ENAMETOOLONG)
		return perr(err, errlen, fname, ln, col, "word too long");
	if (rc)
		return perr(err, errlen, fname, ln, col, "control character in a word");
	if (ws.n == 0)
		return 0;
	if (!*seen_hdr) {
		if (strcmp(ws.w[0], "PMEMPOOLSET") || ws.n != 1)
			return perr(err, errlen, fname, ln, ws.col[0], "expected 'PMEMPOOLSET' as the first line");
		*seen_hdr = 1;
		return 0;
	}
	if (strcmp(ws.w[0], "OPTION") == 0) {
		enum rpmem_opt o;

		if (out->nparts)
			return perr(err, errlen, fname, ln, ws.col[0], "OPTION after the first part");
		if (ws.n != 2)
			return perr(err, errlen, fname, ln, ws.col[0], "OPTION takes one word (SINGLEHDR or NOHDRS)");
		if (rpmem_opt_parse(ws.w[1], &o))
			return perr(err, errlen, fname, ln, ws.col[1], "unknown option '%s'", ws.w[1]);
		if (*seen_opt)
			return perr(err, errlen, fname, ln, ws.col[0], "a second OPTION line");
		*seen_opt = 1;
		out->opt = o;
		return 0;
	}
	if (strcmp(ws.w[0], "REPLICA") == 0)
		return perr(err, errlen, fname, ln, ws.col[0], "REPLICA is not supported in a remote pool set");
	return part_line(&ws, fname, ln, dir, out, err, errlen);
}

int rpmem_poolset_parse(const char *fname, const char *dir, const char *text, size_t len,
			struct rpmem_poolset *out, char *err, size_t errlen)
{
	int seen_hdr = 0, seen_opt = 0, rc = 0;
	unsigned ln = 0;
	size_t i = 0;

	memset(out, 0, sizeof(*out));
	if (memchr(text, '\0', len))
		return perr(err, errlen, fname, (unsigned)1, 1, "NUL byte in the file");
	while (i < len && rc == 0) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;

		ln++;
		rc = set_line(text + i, e - i, fname, ln, dir, &seen_hdr, &seen_opt, out, err, errlen);
		i = e + 1;
	}
	if (rc == 0 && !seen_hdr)
		rc = perr(err, errlen, fname, ln ? ln : 1, 1, "empty pool set (no 'PMEMPOOLSET')");
	if (rc == 0 && out->nparts == 0)
		rc = perr(err, errlen, fname, ln, 1, "no parts");
	uint64_t sum = 0;
	for (unsigned k = 0; rc == 0 && k < out->nparts; k++) {
		sum += out->part[k].size;
		if (out->part[k].size > SET_BYTES_MAX || sum > SET_BYTES_MAX)
			rc = perr(err, errlen, fname, ln, 1, "the parts add up to more than 2^48 bytes");
	}
	if (rc)
		rpmem_poolset_free(out);
	return rc;
}

int rpmem_poolset_load(const char *root, const char *name, struct rpmem_poolset *out, char *err, size_t errlen)
{
	char path[4096], dir[4096], *text = NULL, *slash;
	struct stat st;
	ssize_t n;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (!rpmem_set_name_ok(name)) {
		snprintf(err, errlen, "bad pool set name");
		return -EINVAL;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, name) >= sizeof(path)) {
		snprintf(err, errlen, "pool set path too long");
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return rc == -ELOOP ? -EINVAL : rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > SET_FILE_MAX) {
		snprintf(err, errlen, "%s: not a regular file of at most %u bytes", name, SET_FILE_MAX);
		rc = -EINVAL;
		goto out_fd;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		rc = -ENOMEM;
		goto out_fd;
	}
	n = read(fd, text, (size_t)st.st_size);
	if (n < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto out_text;
	}
	strcpy(dir, path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	rc = rpmem_poolset_parse(name, dir, text, (size_t)n, out, err, errlen);
out_text:
	free(text);
out_fd:
	close(fd);
	return rc;
}

uint64_t rpmem_part_layout(const struct rpmem_poolset *ps, unsigned i, uint64_t *file_off, uint64_t *maplen)
{
	int per_part = ps->opt == RPMEM_OPT_NONE;
	uint64_t start = 0;

	for (unsigned j = 0; j < i; j++)
		start += ps->part[j].size - (per_part && j > 0 ? RPMEM_HDR_SIZE : 0);
	*file_off = per_part && i > 0 ? RPMEM_HDR_SIZE : 0;
	*maplen = i < ps->nparts ? ps->part[i].size - *file_off : 0;
	return start;
}

uint64_t rpmem_poolset_span(const struct rpmem_poolset *ps)
{
	uint64_t fo, ml;

	return rpmem_part_layout(ps, ps->nparts, &fo, &ml);
}

uint64_t rpmem_poolset_usable(const struct rpmem_poolset *ps)
{
	/*
	 * PMDK 1.12.1 set.c util_poolset_set_size: the parts' sizes minus one
	 * header (Mmap_align, 4096) for every header but the first, since the
	 * first part's header is inside the pool (offsets 0..4095): default
	 * nparts - 1 headers, SINGLEHDR and NOHDRS none. That is the span the
	 * parts' layout gives (rpmem_part_layout).
	 */
	return rpmem_poolset_span(ps);
}

int rpmem_poolset_pread(const char *root, const char *name, uint64_t off, uint8_t *out, size_t n)
{
	struct rpmem_poolset ps;
	char err[256];
	int rc = rpmem_poolset_load(root, name, &ps, err, sizeof(err));

	for (unsigned i = 0; rc == 0 && n && i < ps.nparts; i++) {
		uint64_t fo, ml, start = rpmem_part_layout(&ps, i, &fo, &ml);
		int fd;

		if (off < start || off >= start + ml)
			continue;
		if ((fd = open(ps.part[i].path, O_RDONLY | O_CLOEXEC)) < 0) {
			rc = -errno; /* -ENOENT: no pool (yet, or any more) */
			break;
		}
		while (rc == 0 && n && off < start + ml) {
			size_t k = n < start + ml - off ? n : (size_t)(start + ml - off);

			if (pread(fd, out, k, (off_t)(fo + off - start)) != (ssize_t)k)
				rc = -EIO;
			out += k;
			off += k;
			n -= k;
		}
		close(fd);
	}
	if (rc == 0 && n)
		rc = -ERANGE;
	rpmem_poolset_free(&ps);
	return rc;
}

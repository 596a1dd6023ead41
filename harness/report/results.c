/* results.c — the results directory of a run (results.h). */
#include "harness/report/results.h"

#include "harness/base/afile.h"
#include "harness/base/jline.h"
#include "harness/report/report.h"
#include "harness/base/text.h"
#include "harness/lang/scn.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/file.h>

#define TRACE_MARK "  trace: "

/* results.jsonl's verdict names. */
static const char *const verdict_names[V_COUNT_] = { "PASS", "FAIL", "XFAIL", "SKIP", "ERROR" };

int results_default(const char *root, char *dir, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if ((size_t)snprintf(dir, len, "%s/build/results/%s-%ld", root, stamp, (long)getpid()) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Point DIR/../latest at dir (relative, replaced in one rename). */
static void link_latest(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	char link[PATH_MAX + 16], tmp[PATH_MAX + 48];

	if (!slash)
		return;
	snprintf(link, sizeof(link), "%.*s/latest", (int)(slash - dir), dir);
	snprintf(tmp, sizeof(tmp), "%s.%ld", link, (long)getpid());
	unlink(tmp);
	if (symlink(slash + 1, tmp) == 0 && rename(tmp, link))
		unlink(tmp);
}

/* mkdir path and every missing parent (mkdir -p). 0 or -errno. */
static int mkdirs(const char *path)
{
	char p[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
	if (mkdir(p, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Keep the first write failure rc (of the file at path) in rd. */
static void failed_write(struct results *rd, int rc, const char *path)
{
	if (!rc || rd->werr)
		return;
	rd->werr = rc;
	snprintf(rd->werr_path, sizeof(rd->werr_path), "%s", path);
}

/* Hold dir for this run: rd->lock, flock()ed. 0, -EBUSY (another run has it) or -errno, said in err. */
static int lock_dir(struct results *rd, const char *dir, char *err, size_t errlen)
{
	rd->lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd->lock < 0) {
		snprintf(err, errlen, "cannot open %s: %s", dir, strerror(errno));
		return -errno;
	}
	if (flock(rd->lock, LOCK_EX | LOCK_NB) == 0)
		return 0;
	snprintf(err, errlen, errno == EWOULDBLOCK ? "%s is being written by another run; give each run its own --results"
						    : "cannot lock %s: %s", dir, strerror(errno));
	close(rd->lock);
	rd->lock = -1;
	return -EBUSY;
}

int results_open(struct results *rd, const char *dir, int latest, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	int rc;

	memset(rd, 0, sizeof(*rd));
	rd->lock = -1;
	snprintf(rd->dir, sizeof(rd->dir), "%s", dir);
	rc = mkdirs(dir);
	if (rc) {
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(-rc));
		return rc;
	}
	if ((rc = lock_dir(rd, dir, err, errlen)) != 0)
		return rc;
	snprintf(path, sizeof(path), "%s/results.jsonl", dir);
	rd->out = malloc(sizeof(*rd->out));
	rc = rd->out ? afile_open(rd->out, path) : -ENOMEM;
	if (rc) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
		free(rd->out);
		rd->out = NULL;
		close(rd->lock);
		rd->lock = -1;
		return rc;
	}
	rd->jsonl = rd->out->f;
	unlink(path); /* a results.jsonl of an earlier run into this directory is not this run's */
	if (latest)
		link_latest(dir);
	return 0;
}

char *results_take_trace(struct result *r, int keep)
{
	return text_split_marked(&r->detail, TRACE_MARK, keep);
}

/* A JSON string of s: bytes that are not UTF-8 (a file name may hold any) become '?'. */
static json_t *jstr(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *c = malloc(n + 1);
	json_t *j;

	if (!c)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t l = scn_utf8_len((const unsigned char *)s + i, n - i);

		if (l == 0) {
			c[o++] = '?';
			i++;
		} else {
			memcpy(c + o, s + i, l);
			o += l;
			i += l;
		}
	}
	j = json_stringn(c, o);
	free(c);
	return j;
}

/* Write one object as a line of results.jsonl and release it. */
static int emit(struct results *rd, json_t *o)
{
	int rc = 0;

	if (!o)
		rc = -ENOMEM;
	else if (json_dumpf(o, rd->jsonl, JSON_COMPACT | JSON_PRESERVE_ORDER) || fputc('\n', rd->jsonl) == EOF)
		rc = afile_error(rd->out) ? afile_error(rd->out) : -EIO;
	json_decref(o);
	failed_write(rd, rc, rd->out->path);
	return rc;
}

/*
 * A step's object, as emit writes json_pack's "{s:s, s:o, s:i, s:o, s:o, s:o}"
 * of it: written as a line directly (jline.h) when its strings are what jstr
 * keeps and jansson writes as they are, else built with jansson; the same
 * bytes either way, without a tree a step (that was a third of a run on the
 * model). 0 or -errno (kept in rd).
 */
static int emit_step(struct results *rd, const char *file, unsigned ln, const char *call, const char *allowed,
		     const char *real)
{
	struct jline l;
	int rc = 0;

	jline_init(&l);
	jline_raw(&l, "{\"type\":\"step\",\"file\":");
	jline_str(&l, file);
	jline_raw(&l, ",\"line\":");
	jline_int(&l, ln);
	jline_raw(&l, ",\"call\":");
	jline_str(&l, call);
	jline_raw(&l, ",\"allowed\":");
	jline_str(&l, allowed);
	jline_raw(&l, ",\"real\":");
	jline_str(&l, real);
	jline_raw(&l, "}\n");
	if (!l.ok)
		return emit(rd, json_pack("{s:s, s:o, s:i, s:o, s:o, s:o}", "type", "step", "file", jstr(file), "line",
					  (json_int_t)ln, "call", jstr(call), "allowed", jstr(allowed), "real",
					  jstr(real)));
	if (fwrite(l.b, 1, l.n, rd->jsonl) != l.n)
		rc = afile_error(rd->out) ? afile_error(rd->out) : -EIO;
	failed_write(rd, rc, rd->out->path);
	return rc;
}

/* sscanf(line, "line %u:", ln) == 1, without a scan where line is "line DIGITS" (the runner's, up to 9 digits). */
static int trace_line_no(const char *line, unsigned *ln)
{
	unsigned v = 0;
	size_t i = 5;

	if (strncmp(line, "line ", 5) != 0 || line[i] < '0' || line[i] > '9')
		return sscanf(line, "line %u:", ln);
	for (; line[i] >= '0' && line[i] <= '9'; i++) {
		if (i == 5 + 9)
			return sscanf(line, "line %u:", ln); /* may wrap: as the scan does */
		v = v * 10 + (unsigned)(line[i] - '0');
	}
	*ln = v;
	return 1;
}

/* The step objects of a trace ("line N: STEP -> REAL; allowed: SET" lines). */
static int emit_steps(struct results *rd, const char *file, const char *trace)
{
	int rc = 0;

	for (const char *p = trace; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[2048], *arrow, *allowed, *colon;
		unsigned ln = 0;

		memcpy(line, p, len < sizeof(line) ? len : sizeof(line) - 1); /* as snprintf "%.*s" cuts it */
		line[len < sizeof(line) ? len : sizeof(line) - 1] = '\0';
		p += len + (nl ? 1 : 0);
		allowed = strstr(line, "; allowed: ");
		if (allowed)
			*allowed = '\0';
		arrow = strrchr(line, '>');
		colon = strchr(line, ':');
		if (trace_line_no(line, &ln) != 1 || !colon || !arrow || arrow - line < 2 || arrow[-1] != '-')
			continue; /* not a trace line this reader knows */
		arrow[-2] = '\0'; /* "STEP -> REAL": cut at the " ->" */
		rc |= emit_step(rd, file, ln, colon + 2, allowed ? allowed + strlen("; allowed: ") : "", arrow + 2);
	}
	return rc;
}

/* DIR/NNN-NAME for scenario k of file into out. */
static void case_dir(const struct results *rd, size_t k, const char *file, char *out, size_t len)
{
	const char *base = strrchr(file, '/');
	char name[96];
	size_t n;

	base = base ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".scn") == 0)
		n -= 4;
	if (n > sizeof(name) - 1)
		n = sizeof(name) - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)base[i];

		name[i] = (c < 0x80 && (c == '.' || c == '_' || c == '-' || (c >= '0' && c <= '9') ||
					((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))) ? (char)c : '_';
	}
	name[n] = '\0';
	snprintf(out, len, "%s/%03zu-%s", rd->dir, k + 1, name[0] && name[0] != '.' ? name : "_");
}

/* Write text as DIR/name (nothing for NULL or ""). 0 or -errno (kept in rd). */
static int put(struct results *rd, const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 256];
	int rc;

	if (!text || !*text)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = afile_write(path, text, strlen(text));
	failed_write(rd, rc, path);
	return rc;
}

int results_scenario(struct results *rd, size_t k, const struct result *r, const char *trace, const char *kernel,
		     const char *console)
{
	char dir[PATH_MAX + 128], *verdict = NULL;
	size_t vlen = 0;
	json_t *rules = json_array(), *o;
	FILE *mem = open_memstream(&verdict, &vlen);
	int rc = 0;

	case_dir(rd, k, r->file, dir, sizeof(dir));
	if (mkdir(dir, 0755) && errno != EEXIST)
		rc = -errno;
	failed_write(rd, rc, dir);
	if (mem) {
		report_result(mem, REPORT_TEXT, k, r);
		fclose(mem);
	}
	if (!rc)
		rc = put(rd, dir, "verdict.txt", verdict);
	if (!rc)
		rc = put(rd, dir, "trace.txt", trace);
	if (!rc)
		rc = put(rd, dir, "kernel.txt", kernel);
	if (!rc)
		rc = put(rd, dir, "console.txt", console);
	free(verdict);
	for (size_t i = 0; rules && i < M_RULE_COUNT_; i++)
		if (result_rule_has(r, (enum m_rule)i))
			json_array_append_new(rules, json_string(m_rule_info((enum m_rule)i)->id));
	o = json_pack("{s:s, s:o, s:o, s:s, s:o, s:i, s:f, s:o}", "type", "scenario", "file", jstr(r->file), "title",
		      jstr(r->title), "verdict", (unsigned)r->v < V_COUNT_ ? verdict_names[r->v] : "ERROR", "reason", jstr(r->reason), "line",
		      (json_int_t)r->line, "secs", r->secs, "rules", rules ? rules : json_array());
	if (emit(rd, o) && !rc)
		rc = rd->werr;
	if (emit_steps(rd, r->file, trace) && !rc)
		rc = rd->werr;
	fflush(rd->jsonl); /* a failure is the afile's, seen at results_close */
	return rc;
}

int results_file(struct results *rd, const char *name, const char *src)
{
	char path[PATH_MAX + 64];
	int rc;

	if (access(src, F_OK))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", rd->dir, name);
	rc = afile_copy(src, path);
	failed_write(rd, rc, path);
	return rc;
}

int results_close(struct results *rd)
{
	if (rd->out) {
		/* a results.jsonl with a line missing is none: its readers would take it as whole */
		int failed = rd->werr && strcmp(rd->werr_path, rd->out->path) == 0;

		failed_write(rd, afile_close(rd->out, !failed), rd->out->path);
		free(rd->out);
		rd->out = NULL;
	}
	rd->jsonl = NULL;
	if (rd->lock >= 0)
		close(rd->lock);
	rd->lock = -1;
	return rd->werr;
}

/* console.c — excerpts of console and stack logs (console.h). */
#define _GNU_SOURCE /* getline */
#include "harness/nodes/console.h"

#include "harness/base/text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void console_excerpt(const char *path, char *out, size_t len)
{
	static const char *const marks[] = { "BUG:", "Oops", "RIP:", "Kernel panic", "Call Trace", "general protection",
					     "rxe_", "hung_task", "watchdog" };
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, off = 0;
	int lines = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0 && lines < 12) {
		for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			if (strstr(line, marks[i])) {
				off += (size_t)snprintf(out + off, off < len ? len - off : 0, "  console: %s", line);
				if (off >= len)
					off = len - 1;
				lines++;
				break;
			}
	}
	free(line);
	fclose(f);
}

int console_last_line(const char *path, const char *mark, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int found = 0;

	out[0] = '\0';
	if (!f)
		return 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		const char *at = mark ? strstr(line, mark) : line;

		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!at || (!mark && strspn(line, " \t") == (size_t)n))
			continue;
		snprintf(out, len, "%s", at + (mark ? strlen(mark) : 0));
		found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

void console_stack_reason(const char *log, int status, char *why, size_t len)
{
	char last[400];

	if (status == 77 && console_last_line(log, "ci/stack: SKIP: ", last, sizeof(last)))
		snprintf(why, len, "%s", last);
	else if (status == 77)
		snprintf(why, len, "no real RDMA stack here");
	else if (console_last_line(log, NULL, last, sizeof(last)))
		snprintf(why, len, "the runner on the real stack failed (exit %d): %s", status, last);
	else
		snprintf(why, len, "the runner on the real stack failed (exit %d)", status);
}

char *console_tail(const char *path, size_t lines)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, **ring = calloc(lines ? lines : 1, sizeof(*ring));
	size_t cap = 0, n = 0;
	struct text t = { 0 };

	if (!f || !ring) {
		if (f)
			fclose(f);
		free(ring);
		return NULL;
	}
	while (getline(&line, &cap, f) > 0) {
		free(ring[n % lines]);
		ring[n % lines] = line;
		line = NULL;
		cap = 0;
		n++;
	}
	free(line);
	fclose(f);
	for (size_t i = n > lines ? n - lines : 0; i < n; i++) {
		text_addf(&t, "%s", ring[i % lines]);
		free(ring[i % lines]);
		ring[i % lines] = NULL;
	}
	for (size_t i = 0; i < lines; i++)
		free(ring[i]);
	free(ring);
	if (t.oom) {
		text_free(&t);
		return NULL;
	}
	return text_take(&t);
}

static const char *const splat_names[SPLAT_COUNT_] = { "none", "WARN", "UBSAN", "HUNG", "BUG", "OOPS", "PANIC" };

const char *splat_str(enum splat s)
{
	return (unsigned)s < SPLAT_COUNT_ ? splat_names[s] : "?";
}

int splat_parse(const char *name, enum splat *out)
{
	for (size_t i = 0; i < SPLAT_COUNT_; i++)
		if (strcmp(name, splat_names[i]) == 0) {
			*out = (enum splat)i;
			return 0;
		}
	return -EINVAL;
}

/* The markers, each with the text that must follow on the same line ("" any). */
static const struct {
	const char *mark, *also;
	enum splat kind;
} splat_marks[] = {
	{ "WARNING: CPU: ", " at ", SPLAT_WARN },
	{ "WARNING: at ", "", SPLAT_WARN },
	{ "UBSAN: ", "", SPLAT_UBSAN },
	{ "INFO: task ", "blocked for more than", SPLAT_HUNG },
	{ "rcu: INFO: ", "detected stall", SPLAT_HUNG },
	{ "Kernel panic - not syncing", "", SPLAT_PANIC },
	{ "kernel BUG at ", "", SPLAT_BUG },
	{ "BUG: ", "", SPLAT_BUG },
	{ "Oops: ", "", SPLAT_OOPS },
	{ "general protection fault", "", SPLAT_OOPS },
};

enum splat console_splat(const char *text, char *what, size_t len)
{
	what[0] = '\0';
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (nl ? 1 : 0);
		for (size_t i = 0; i < sizeof(splat_marks) / sizeof(splat_marks[0]); i++) {
			const char *at = strstr(line, splat_marks[i].mark);
			const char *start = at;

			if (!at || !strstr(at, splat_marks[i].also) || (at > line && isalnum((unsigned char)at[-1])))
				continue; /* not there, or inside a word ("DEBUG: ") */
			if (start > line && strncmp(start - 10 > line ? start - 10 : line, "watchdog: ", 10) == 0)
				start -= 10; /* "watchdog: BUG: soft lockup": the whole of it */
			snprintf(what, len, "%s", start);
			return splat_marks[i].kind;
		}
	}
	return SPLAT_NONE;
}

int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

char *kmsg_take(int fd)
{
	char rec[8192];
	struct text t = { 0 };
	ssize_t n;

	for (;;) {
		unsigned long long usec;
		char *msg, *end;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* records were overwritten before we read them: go on with the next */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "PRIO,SEQ,USEC,FLAGS;MESSAGE\n" then " KEY=VALUE" lines */
		msg = strchr(rec, ';');
		if (!msg || sscanf(rec, "%*u,%*u,%llu", &usec) != 1)
			continue;
		msg++;
		end = strchr(msg, '\n');
		if (end)
			*end = '\0';
		text_addf(&t, "[%5llu.%06llu] %s\n", usec / 1000000, usec % 1000000, msg);
	}
	if (t.oom) {
		text_free(&t);
		return NULL;
	}
	return text_take(&t);
}

/* The declared WARN whose location line holds, or NULL. */
static const struct m_kwarn *declared(const char *line, const struct m_kwarn *const *warn, size_t nwarn)
{
	for (size_t i = 0; i < nwarn; i++)
		if (warn[i] && warn[i]->where && strstr(line, warn[i]->where))
			return warn[i];
	return NULL;
}

/*
 * The first splat of kernel that no declared WARN covers, into what (its
 * kind; SPLAT_NONE: none); the declared ones as lines of notes.
 */
static enum splat undeclared_splat(const char *kernel, const struct m_kwarn *const *warn, size_t nwarn,
				   char *what, size_t len, struct text *notes)
{
	enum splat first = SPLAT_NONE;
	char one[512];

	for (const char *p = kernel; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
		char line[1024];
		enum splat sp;
		const struct m_kwarn *w;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n;
		sp = console_splat(line, one, sizeof(one));
		if (sp == SPLAT_WARN && (w = declared(one, warn, nwarn)) != NULL)
			text_addf(notes, "  declared kernel WARN (%s: %s): %s\n", m_rule_info(w->rule)->id, w->citation,
				  one);
		else if (sp != SPLAT_NONE && first == SPLAT_NONE) {
			first = sp;
			snprintf(what, len, "%s", one);
		}
	}
	return first;
}

int console_finding(struct result *r, const char *kernel, const struct m_kwarn *const *warn, size_t nwarn)
{
	char what[512] = "";
	struct text t = { 0 };
	enum splat sp = undeclared_splat(kernel, warn, nwarn, what, sizeof(what), &t);

	if (sp == SPLAT_NONE && !t.len && !t.oom)
		return 0;
	if (sp != SPLAT_NONE && (r->v == V_PASS || r->v == V_XFAIL)) {
		text_addf(&t, "  the scenario itself %s: %s\n", r->v == V_PASS ? "passed" : "was an xfail", r->reason);
		r->v = V_FAIL;
		snprintf(r->reason, sizeof(r->reason), "kernel %s during the scenario: %.440s", splat_str(sp), what);
	} else if (sp != SPLAT_NONE) {
		text_addf(&t, "  note: kernel %s during the scenario: %s\n", splat_str(sp), what);
	}
	text_addf(&t, "%s", r->detail ? r->detail : "");
	if (result_take_detail(r, &t))
		return -ENOMEM;
	return sp != SPLAT_NONE;
}

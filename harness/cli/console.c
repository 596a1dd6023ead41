/* console.c — excerpts of console and stack logs (console.h). */
#define _GNU_SOURCE /* getline */
#include "harness/cli/console.h"

#include "harness/cli/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

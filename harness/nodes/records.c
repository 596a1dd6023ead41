/* records.c — streamed results (records.h). */
#include "harness/nodes/records.h"
#include "harness/base/text.h"
#include "harness/run/proto.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Print the n bytes of s (up to a NUL) with TABs and newlines as blanks: runs of the others written whole. */
static void put_clean_n(FILE *f, const char *s, size_t n)
{
	while (s && n && *s) {
		size_t run = strcspn(s, "\t\n\r");

		if (run > n)
			run = n;
		fwrite(s, 1, run, f);
		s += run;
		n -= run;
		if (!n || !*s)
			break;
		fputc(' ', f);
		s++;
		n--;
	}
}

/* Print s with TABs and newlines as blanks. */
static void put_clean(FILE *f, const char *s)
{
	put_clean_n(f, s, SIZE_MAX);
}

/*
 * End a record and hand it to the kernel: a flush, no fsync. In the VM the
 * records file is on the share ci/vm-guest mounts with
 * "-t 9p -o trans=virtio,version=9p2000.L,...,cache=none": without a guest
 * page cache every write() is a 9p Twrite that QEMU has written into the
 * host's file (its page cache) before the call returns, so a record survives
 * a guest panic or hang; an fsync only added a round trip to the host's disk
 * (~1 ms a record). On a host stack the file is local: what a dying runner
 * flushed survives it.
 */
static void end_line(FILE *f)
{
	fputc('\n', f);
	fflush(f);
}

void rec_start(FILE *f, size_t idx)
{
	fprintf(f, "start\t%zu", idx);
	end_line(f);
}

void rec_defer(FILE *f, size_t idx)
{
	fprintf(f, "defer\t%zu", idx);
	end_line(f);
}

void rec_start_batched(FILE *f, size_t idx)
{
	fprintf(f, "start\t%zu\tbatch", idx);
	end_line(f);
}

/*
 * The beat's clock, seconds: CLOCK_MONOTONIC_COARSE, the kernel's last tick,
 * which the vDSO reads whatever the clock source (a batched step asks it
 * every time; on the 6.1 TCG guest, whose clock source is the HPET, a
 * CLOCK_MONOTONIC read is a system call). Its resolution, a tick (1-10 ms),
 * is nothing to a beat of REC_BEAT_S.
 */
static double beat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void rec_step_beat(FILE *f, size_t idx, uint32_t line, double *beat)
{
	double now = beat_now();

	if (now - *beat < REC_BEAT_S)
		return;
	*beat = now;
	rec_step(f, idx, line, 0, "");
}

void rec_step(FILE *f, size_t idx, uint32_t line, int crash, const char *note)
{
	fprintf(f, "step\t%zu\t%u\t%d\t", idx, line, crash);
	put_clean(f, note);
	end_line(f);
}

/* One record "KIND IDX LINE" per line of text. */
static void put_lines(FILE *f, const char *kind, size_t idx, const char *p)
{
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		fprintf(f, "%s\t%zu\t", kind, idx);
		put_clean_n(f, p, len);
		fputc('\n', f);
		p += len + (nl ? 1 : 0);
	}
}

void rec_kernel(FILE *f, size_t idx, const char *lines)
{
	put_lines(f, "kernel", idx, lines);
	fflush(f);
}

void rec_state_clear(struct rec_state *st)
{
	free(st->kernel);
	st->kernel = NULL;
}

void rec_result(FILE *f, size_t idx, const struct result *r)
{
	put_lines(f, "detail", idx, r->detail);
	char hex[2 * sizeof(r->rules) + 1];

	proto_hex_encode(r->rules, sizeof(r->rules), hex);
	fprintf(f, "rules\t%zu\t%s\n", idx, hex);
	fprintf(f, "result\t%zu\t%s\t%u\t%.6f\t%u\t%u\t", idx, verdict_str(r->v), r->line, r->secs, r->steps_run,
		r->steps);
	put_clean(f, r->reason);
	end_line(f);
}

/* Split line at TABs into at most max fields (the last takes the rest). */
static size_t split(char *line, char **fld, size_t max)
{
	size_t n = 0;

	while (n < max) {
		fld[n++] = line;
		if (n == max || !(line = strchr(line, '\t')))
			break;
		*line++ = '\0';
	}
	return n;
}

/* A scenario index: decimal digits only, below n. Returns 0, or -EINVAL for anything else. */
static int parse_idx(const char *s, size_t n, size_t *idx)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v >= n)
		return -EINVAL;
	*idx = (size_t)v;
	return 0;
}

void rec_cursor_reset(struct rec_cursor *c)
{
	for (size_t i = 0; i < c->n; i++) {
		text_free(&c->det[i]);
		text_free(&c->kern[i]);
	}
	free(c->det);
	free(c->kern);
	*c = (struct rec_cursor){ 0 };
}

/* f open at c's place (c sized for n scenarios): reset to the start when f is shorter or n changed. 0 or -errno. */
static int cursor_seek(struct rec_cursor *c, FILE *f, size_t n)
{
	struct stat sb;

	if (fstat(fileno(f), &sb) < 0)
		return -errno;
	if (sb.st_size < c->off || c->n != n)
		rec_cursor_reset(c);
	if (!c->det) {
		c->det = calloc(n ? n : 1, sizeof(*c->det));
		c->kern = calloc(n ? n : 1, sizeof(*c->kern));
		c->n = n;
		if (!c->det || !c->kern) {
			rec_cursor_reset(c);
			return -ENOMEM;
		}
	}
	return fseeko(f, c->off, SEEK_SET) < 0 ? -errno : 0;
}

int rec_read_more(struct rec_cursor *c, const char *path, struct result *rs, struct rec_state *st, size_t n)
{
	FILE *f = fopen(path, "r");
	int ferr = f ? 0 : errno; /* before anything else can change errno */
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct text *det, *kern;
	char *done = calloc(n ? n : 1, 1); /* finished before this read: left alone */
	int rc = ferr == ENOENT ? 0 : -ferr;

	if (!done || !f || (rc = cursor_seek(c, f, n)) < 0) {
		if (f)
			fclose(f);
		free(done);
		return f && !done ? -ENOMEM : rc;
	}
	det = c->det;
	kern = c->kern;
	for (size_t i = 0; i < n; i++)
		done[i] = (char)st[i].finished;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *fld[8];
		size_t nf, idx;

		if (line[len - 1] != '\n')
			break; /* a torn last line: the machine died while writing it, or is writing it */
		c->off += len;
		line[len - 1] = '\0';
		nf = split(line, fld, 8);
		if (nf < 2)
			continue;
		if (parse_idx(fld[1], n, &idx))
			continue; /* damaged, or a scenario this reader does not hold */
		if (strcmp(fld[0], "start") == 0) { /* a new run of it: nothing of an earlier one holds */
			st[idx].started = 1;
			st[idx].batched = nf >= 3 && strcmp(fld[2], "batch") == 0;
			st[idx].step_line = 0;
			st[idx].step_crash = 0;
			st[idx].step_note[0] = '\0';
		} else if (strcmp(fld[0], "defer") == 0) {
			st[idx].deferred = 1;
		} else if (strcmp(fld[0], "step") == 0 && nf >= 5) {
			st[idx].step_line = (uint32_t)strtoul(fld[2], NULL, 10);
			st[idx].step_crash = atoi(fld[3]);
			snprintf(st[idx].step_note, sizeof(st[idx].step_note), "%s", fld[4]);
		} else if (strcmp(fld[0], "rules") == 0 && nf >= 3) {
			char hex[2 * sizeof(rs[idx].rules) + 1];

			snprintf(hex, sizeof(hex), "%s", fld[2]);
			hex[strlen(hex) & ~(size_t)1] = '\0'; /* the whole bytes of a cut line */
			proto_hex_decode(hex, rs[idx].rules, sizeof(rs[idx].rules));
		} else if (strcmp(fld[0], "detail") == 0 && nf >= 3) {
			text_addf(&det[idx], "%s\n", fld[2]);
		} else if (strcmp(fld[0], "kernel") == 0 && nf >= 3) {
			text_addf(&kern[idx], "%s\n", fld[2]);
		} else if (strcmp(fld[0], "result") == 0 && nf >= 8) {
			struct result *r = &rs[idx];
			enum verdict v;

			if (done[idx] || verdict_parse(fld[2], &v))
				continue; /* read before: the reader may have changed it since (results_take_trace) */
			r->v = v;
			r->line = (uint32_t)strtoul(fld[3], NULL, 10);
			r->secs = strtod(fld[4], NULL);
			r->steps_run = (unsigned)strtoul(fld[5], NULL, 10);
			r->steps = (unsigned)strtoul(fld[6], NULL, 10);
			snprintf(r->reason, sizeof(r->reason), "%s", fld[7]);
			free(r->detail);
			r->detail = text_take(&det[idx]);
			free(st[idx].kernel);
			st[idx].kernel = text_take(&kern[idx]);
			st[idx].finished = 1;
		}
	}
	free(line);
	fclose(f);
	free(done);
	return 0;
}

int rec_read(const char *path, struct result *rs, struct rec_state *st, size_t n)
{
	struct rec_cursor c = { 0 };
	int rc = rec_read_more(&c, path, rs, st, n);

	rec_cursor_reset(&c);
	return rc;
}

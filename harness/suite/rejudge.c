/* rejudge.c — a recorded run judged again against today's model (rejudge.h). */
#include "harness/suite/rejudge.h"
#include "harness/corpus/crash_pred.h"
#include "harness/corpus/history.h"
#include "harness/corpus/load.h"
#include "harness/nodes/console.h"
#include "harness/run/proto.h"
#include "harness/run/tape.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define RJ_KWARN_MAX 8 /* as the inner runner's (inner.c) */

const char *rj_kind_str(enum rj_kind k)
{
	static const char *const names[RJ_COUNT_] = { "same", "flip", "short", "mismatch", "no-record", "unreadable" };

	return (unsigned)k < RJ_COUNT_ ? names[k] : "?";
}

/* The kernel WARNs the profile declares for the steps run (the inner runner's on_step); a model
 * record's first disagreement between the file and the model, said as its live run said it. */
struct rj_warns {
	const struct m_profile *prof;
	const struct m_kwarn *warn[RJ_KWARN_MAX];
	size_t n;
	struct cli_first_disagree fd;
};

static void on_disagree(void *ctx, const struct scn_file *f, size_t si, uint32_t line, uint32_t col, const char *msg,
			const char *word)
{
	struct rj_warns *w = ctx;

	cli_first_disagree(&w->fd, f, si, line, col, msg, word);
}

static void on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen, const struct m_pred *prof,
		    int crash)
{
	struct rj_warns *w = ctx;

	(void)f;
	(void)si;
	(void)gen;
	(void)crash;
	w->n = run_kwarn_add(w->prof, prof, w->warn, w->n, RJ_KWARN_MAX);
}

/* The length of detail's first two lines (a disagreement's source line and caret: cli_disagree_result). */
static int source_and_caret(const char *detail)
{
	const char *nl = strchr(detail, '\n');

	nl = nl ? strchr(nl + 1, '\n') : NULL;
	return nl ? (int)(nl - detail + 1) : (int)strlen(detail);
}

enum rj_kind rejudge_file(const struct scn_file *f, void *tape, const char *kernel, const char *as_profile,
			  const struct result *live, struct result *r, char *note, size_t notelen)
{
	struct tape_play tp;
	struct m_profile prof;
	struct rj_warns w = { &prof, { NULL }, 0, { .path = f->name } };
	struct run_opts o = { .mode = RUN_REAL, .on_step = on_step, .ctx = &w };
	struct cli_pred pred;
	enum rj_kind k;

	memset(r, 0, sizeof(*r));
	snprintf(r->file, sizeof(r->file), "%s", live->file);
	note[0] = '\0';
	if (tape_play_init_json(&tp, tape, note, notelen))
		return RJ_MISMATCH;
	if (m_profile_get(as_profile ? as_profile : tp.head.profile, tp.head.kver, &prof)) {
		snprintf(note, notelen, "the %s profile %s is not one this rdmacheck knows", as_profile ? "asked" : "record's",
			 as_profile ? as_profile : tp.head.profile);
		tape_play_free(&tp);
		return RJ_MISMATCH;
	}
	if (tape_steps_check(tp.head_json, f, note, notelen)) {
		tape_play_free(&tp);
		return RJ_MISMATCH;
	}
	o.prof = prof;
	o.allow_crash = tp.head.crash;
	o.ahead = tp.head.ahead;
	if (strcmp(tp.head.engine, "model") == 0) { /* as outer_model ran it: what the file says against the model */
		o.model_engine = 1;
		o.on_disagree = on_disagree;
	} else if (!o.allow_crash) { /* the inner runner's skip before the runner */
		cli_predict(f, &prof, NULL, &pred);
		if (!run_unsupported(f, prof.caps, r->reason, sizeof(r->reason)) &&
		    cli_crash_reason(f, &pred, r->reason, sizeof(r->reason))) {
			snprintf(r->title, sizeof(r->title), "%s", f->title);
			r->v = V_SKIP;
		}
	}
	if ((r->v != V_SKIP && run_scenario(f, &tp.ops, &tp, &o, r)) || cli_first_disagree_result(&w.fd, r)) {
		snprintf(note, notelen, "out of memory");
		tape_play_free(&tp);
		return RJ_MISMATCH;
	}
	snprintf(r->file, sizeof(r->file), "%s", live->file);
	if (kernel && *kernel && console_finding(r, kernel, w.warn, w.n) < 0)
		snprintf(note, notelen, "out of memory");
	k = tp.status == TAPE_SHORT ? RJ_SHORT : tp.status == TAPE_MISMATCH ? RJ_MISMATCH :
	    r->v == live->v && r->line == live->line ? RJ_SAME : RJ_FLIP;
	if (tp.status != TAPE_EXACT)
		snprintf(note, notelen, "%s", tp.note);
	else if (k == RJ_FLIP && w.fd.said && r->detail) /* lint's source line and caret, first in the detail */
		snprintf(note, notelen, "%.*s", source_and_caret(r->detail), r->detail);
	tape_play_free(&tp);
	return k;
}

/* One scenario of the inputs: its live result, its record (NULL none) and kernel lines. */
struct rj_entry {
	struct result live;
	json_t *tape;
	char *kernel;
};

struct rj_read {
	struct rj_entry *e;
	size_t n, cap;
};

/* hist_fn: scenario lines make entries; a tape line goes to the last entry of its file. */
static int take(void *ctx, const struct result *r, const char *text)
{
	struct rj_read *rd = ctx;
	json_t *o, *rec;
	const char *type, *file, *kernel = "";

	if (r) {
		if (rd->n == rd->cap) {
			size_t nc = rd->cap ? 2 * rd->cap : 256;
			struct rj_entry *ne = realloc(rd->e, nc * sizeof(*ne));

			if (!ne)
				return -ENOMEM;
			rd->e = ne;
			rd->cap = nc;
		}
		rd->e[rd->n] = (struct rj_entry){ .live = *r };
		rd->e[rd->n++].live.detail = NULL;
		return 0;
	}
	o = json_loads(text, 0, NULL);
	if (!o || json_unpack(o, "{s:s,s:s,s:o,s?s}", "type", &type, "file", &file, "record", &rec, "kernel", &kernel) ||
	    strcmp(type, "tape") != 0) {
		json_decref(o);
		return 0; /* a step line */
	}
	for (size_t i = rd->n; i-- > 0;)
		if (strcmp(rd->e[i].live.file, file) == 0 && !rd->e[i].tape) {
			rd->e[i].tape = json_incref(rec);
			rd->e[i].kernel = strdup(kernel);
			if (!rd->e[i].kernel) {
				json_decref(o);
				return -ENOMEM;
			}
			break;
		}
	json_decref(o);
	return 0;
}

/* f's path: root/file for a relative file with a root. */
static void file_path(const struct rj_opts *o, const char *file, char *buf, size_t len)
{
	if (o->root && file[0] != '/')
		snprintf(buf, len, "%s/%s", o->root, file);
	else
		snprintf(buf, len, "%s", file);
}

/* Re-judge entry e; print its line; count it. */
static void one(const struct rj_opts *o, const struct rj_entry *e, FILE *out, struct rj_sum *sum)
{
	char path[PATH_MAX], note[512] = "", *paths[1] = { path }, **diags = NULL;
	struct filelist fl = { 0 };
	struct scn_file **files = NULL;
	struct result r = { 0 };
	enum rj_kind k;

	file_path(o, e->live.file, path, sizeof(path));
	if (!e->tape) {
		k = RJ_NORECORD;
		snprintf(note, sizeof(note), "the live run left no record of reality (%s: %.400s)",
			 verdict_str(e->live.v), e->live.reason);
	} else if (cli_load_each(1, paths, &fl, &files, &diags) || !files[0]) {
		k = RJ_UNREADABLE;
		snprintf(note, sizeof(note), "%.480s does not parse", path);
	} else {
		k = rejudge_file(files[0], e->tape, e->kernel, o->profile, &e->live, &r, note, sizeof(note));
		if (k == RJ_SAME && strcmp(r.reason, e->live.reason) != 0)
			sum->reason_differs++;
	}
	if (fl.n)
		cli_unload_diags(fl.n, diags);
	cli_unload(&fl, files);
	sum->n[k]++;
	sum->files++;
	if (k == RJ_FLIP)
		fprintf(out, "flip   %s: live %s%s%s, now %s: %s\n%s", e->live.file, verdict_str(e->live.v),
			e->live.reason[0] ? " (" : "", e->live.reason[0] ? e->live.reason : "", verdict_str(r.v), r.reason,
			note);
	else if (k != RJ_SAME || o->verbose)
		fprintf(out, "%-6s %s: %s%s%s\n", rj_kind_str(k), e->live.file, k == RJ_SAME ? verdict_str(r.v) : "",
			k == RJ_SAME && r.reason[0] ? ": " : "", k == RJ_SAME ? r.reason : note);
	result_clear(&r);
}

int rejudge(size_t npaths, char *const *paths, const struct rj_opts *o, FILE *out, struct rj_sum *sum)
{
	struct rj_read rd = { 0 };
	double t0 = proto_now_s();
	int rc = 0;

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < npaths && !rc; i++) {
		char path[PATH_MAX], err[512];

		if (hist_path(paths[i], path, sizeof(path))) {
			fprintf(stderr, "rdmacheck rejudge: %s: path too long\n", paths[i]);
			rc = -ENAMETOOLONG;
		} else if ((rc = hist_read(path, take, &rd, NULL, err, sizeof(err))) != 0) {
			fprintf(stderr, "rdmacheck rejudge: %s\n", rc == -ENOMEM ? "out of memory" : err);
		}
	}
	for (size_t i = 0; !rc && i < rd.n; i++)
		one(o, &rd.e[i], out, sum);
	sum->secs = proto_now_s() - t0;
	for (size_t i = 0; i < rd.n; i++) {
		json_decref(rd.e[i].tape);
		free(rd.e[i].kernel);
	}
	free(rd.e);
	return rc;
}

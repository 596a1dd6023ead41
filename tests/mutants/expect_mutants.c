/*
 * expect_mutants.c — the expect mutation test (issue 30; make lint, make
 * mutants): every `expect` of the scenario files given is mutated, and each
 * mutant the model's allowed set excludes must be refused.
 *
 * Each file is walked as lint walks it (run_walk_setup) and held before every
 * step with an expect clause (before its chain, for a chain's WRs); every
 * mutant goes on from there on a copy (run_fork, bm_clone):
 *   - outcome mutants: the outcome list replaced by each other outcome the
 *     language lets that call give (scn_call.outs), and extended by each of
 *     them ("A|B" for "A"). Lint names every outcome of a list the model
 *     excludes (a disagreement each, and goes on), so up to SCN_OUTCOMES_MAX
 *     of them share one walk to the step, each killed when lint names it.
 *     Each one the set holds is walked alone too: lint must take it at its
 *     step (else lint's engine and its set disagree: "refused");
 *   - value mutants: each KEY=VALUE of a query with another value (+1, -1,
 *     0, the lowest bit flipped), walked alone by lint and by the model
 *     engine simulating the profile's stack (run --stack=model; an xfail is
 *     a refusal; files that run skips are judged by lint alone).
 * A mutant is outside the allowed set when the generic set at its step (the
 * walk's on_step) lacks an outcome it adds, or the model's result for its
 * key (model_query after the step) refuses its value. One outside it that
 * passes is a survivor. Prints the counts, every survivor and every refusal;
 * exit 0 when there is neither, 1 when there are, 2 on a load error.
 *
 * usage: expect-mutants [--profile=NAME] PATH...  (files or directories of .scn)
 */
#include "harness/run/be_model.h"
#include "harness/run/resolve.h"
#include "harness/run/run_ahead.h"
#include "harness/run/runner.h"

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MUT_VALUES 4

struct counts {
	unsigned long files, walked, walks, mutants, excluded, killed, survivors, allowed_kept, refused;
};

/* What the held walk knows of one file: the generic set before each step. */
struct held {
	struct m_pred *gen; /* per step: the generic set on_step reported (n 0: not reached) */
};

static void note_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		      const struct m_pred *prof, int crash)
{
	struct held *h = ctx;

	(void)f;
	(void)prof;
	(void)crash;
	h->gen[si] = *gen;
}

/* One walk of the mutated f from held run x (engine eng), mode as o, to step upto: the verdict. */
static enum verdict walk_from_at(const struct scn_file *f, const struct run *x, const struct be_model *eng,
				 const struct run_opts *o, size_t upto, uint32_t *line)
{
	static struct run *y;   /* the mutant's run and engine, reused (each half a model) */
	static struct be_model e2;
	struct result r;
	enum verdict v = V_ERROR;

	if (!y && !(y = malloc(run_size())))
		return V_ERROR;
	if (bm_clone(&e2, eng, f))
		return V_ERROR;
	if (run_fork(y, x, f, &e2, o, &r) == 0) {
		run_steps(y, upto);
		if (run_end(y) == 0)
			v = r.v;
		*line = r.line;
		result_clear(&r);
	}
	bm_free(&e2);
	return v;
}

/* walk_from_at without the line. */
static enum verdict walk_from(const struct scn_file *f, const struct run *x, const struct be_model *eng,
			      const struct run_opts *o, size_t upto)
{
	uint32_t line;

	return walk_from_at(f, x, eng, o, upto, &line);
}

/* The two judges a mutant meets: lint's walk and the model engine simulating the profile (run --stack=model). */
struct judges {
	struct run *lint, *sim;            /* held before the step (sim NULL: the run skips this file) */
	struct be_model *lint_eng, *sim_eng;
	const struct run_opts *lint_o, *sim_o;
};

/*
 * Judge value mutant f (its step si as changed, described by what) that the
 * model excludes or not: by lint's walk (to the end) and by the model run
 * (the model engine reports the model's value; an xfail there is a
 * refusal too: reality outside the specification).
 */
static void judge(struct counts *n, const struct judges *j, const struct scn_file *f, size_t si, int excluded,
		  const char *path, const char *what)
{
	enum verdict lv = walk_from(f, j->lint, j->lint_eng, j->lint_o, f->nsteps);
	int lint_passes = lv == V_PASS || lv == V_XFAIL, run_passes = 0;

	n->mutants++;
	n->walks++;
	if (!excluded) {
		n->allowed_kept += lint_passes;
		return;
	}
	n->excluded++;
	if (j->sim) {
		run_passes = walk_from(f, j->sim, j->sim_eng, j->sim_o, f->nsteps) == V_PASS;
		n->walks++;
	}
	if (!lint_passes && !run_passes) {
		n->killed++;
		return;
	}
	n->survivors++;
	printf("survivor: %s:%u: %s (outside the model's allowed set) passes %s\n", path, f->steps[si].line, what,
	       lint_passes && run_passes ? "lint and the model run" : lint_passes ? "lint" : "the model run");
}

static int same(struct m_outcome a, struct m_outcome b)
{
	return a.kind == b.kind && a.code == b.code;
}

/* What one batch walk's lint named at the mutated step: the outcomes it refused. */
struct named {
	size_t step;
	unsigned n;
	struct m_outcome o[SCN_OUTCOMES_MAX];
};

static void note_named(void *ctx, const struct scn_file *f, size_t step, uint32_t line, uint32_t col,
		       const char *msg, const char *word)
{
	struct named *nm = ctx;
	struct m_outcome o;

	(void)f;
	(void)line;
	(void)col;
	(void)msg;
	if (step == nm->step && word && nm->n < SCN_OUTCOMES_MAX && m_outcome_parse(word, &o) == 0)
		nm->o[nm->n++] = o;
}

/*
 * One batch of outcome mutants of step si: the step's list is now
 * s->expect[0..nexpect), the mutants its entries from `from` on. lint names
 * every outcome of a list the model excludes (one disagreement each, and it
 * goes on), so one walk to the step judges each of them: a mutant outside
 * the step's generic set gen is killed when lint names it.
 */
static void batch(struct counts *n, const struct judges *j, const struct scn_file *f, size_t si, unsigned from,
		  const struct m_pred *gen, const char *path, const char *kind)
{
	const struct scn_step *s = &f->steps[si];
	struct named nm = { .step = si };
	struct run_opts o = *j->lint_o;

	o.on_disagree = note_named;
	o.ctx = &nm;
	/* a step with `seen` groups has its list judged over its iterations at the end (run_seen.c) */
	walk_from(f, j->lint, j->lint_eng, &o, s->nseen ? f->nsteps : si + 1);
	n->walks++;
	for (unsigned k = from; k < s->nexpect; k++) {
		int said = 0;

		n->mutants++;
		if (model_pred_find(gen, s->expect[k]) >= 0)
			continue;
		n->excluded++;
		for (unsigned i = 0; i < nm.n; i++)
			said |= same(nm.o[i], s->expect[k]);
		if (said) {
			n->killed++;
			continue;
		}
		n->survivors++;
		printf("survivor: %s:%u: expect %s (%s; outside the model's allowed set) passes lint\n", path, s->line,
		       m_outcome_name(s->expect[k]), kind);
	}
}

/*
 * Outcome mutants of step si: every other outcome its call can give (the
 * language: scn_call.outs) in place of the list, and beside it; batched
 * SCN_OUTCOMES_MAX to a walk.
 */
static void outcome_mutants(struct counts *n, const struct judges *j, struct scn_file *f, size_t si,
			    const struct m_pred *gen, const char *path)
{
	struct scn_step *s = &f->steps[si];
	const struct scn_call *call = scn_step_call(s);
	struct m_outcome keep[SCN_OUTCOMES_MAX], o, cand[64 + 2 * SCN_OUTCOMES_MAX];
	uint8_t nkeep = s->nexpect;
	unsigned nc = 0, room = SCN_OUTCOMES_MAX - nkeep;

	memcpy(keep, s->expect, sizeof(keep));
	for (size_t i = 0; nc < sizeof(cand) / sizeof(cand[0]) && m_outcome_nth(i, &o); i++) {
		int listed = 0;

		for (unsigned k = 0; k < nkeep; k++)
			listed |= same(keep[k], o);
		if ((call->outs & (1u << o.kind)) && !listed)
			cand[nc++] = o;
	}
	for (unsigned at = 0; at < nc; at += SCN_OUTCOMES_MAX) { /* in place of the list */
		s->nexpect = (uint8_t)(nc - at < SCN_OUTCOMES_MAX ? nc - at : SCN_OUTCOMES_MAX);
		memcpy(s->expect, cand + at, s->nexpect * sizeof(cand[0]));
		batch(n, j, f, si, 0, gen, path, "in place of the list");
	}
	for (unsigned at = 0; room && at < nc; at += room) { /* beside it */
		unsigned add = nc - at < room ? nc - at : room;

		memcpy(s->expect, keep, sizeof(keep));
		memcpy(s->expect + nkeep, cand + at, add * sizeof(cand[0]));
		s->nexpect = (uint8_t)(nkeep + add);
		batch(n, j, f, si, nkeep, gen, path, "added to the list");
	}
	/* Each one the model allows, alone: lint must take it at this step (its set and lint's engine agree). */
	for (unsigned k = 0; k < nc; k++) {
		uint32_t line = 0;

		if (model_pred_find(gen, cand[k]) < 0)
			continue;
		s->nexpect = 1;
		s->expect[0] = cand[k];
		n->walks++;
		if (walk_from_at(f, j->lint, j->lint_eng, j->lint_o, si + 1, &line) == V_FAIL && line == s->line) {
			n->refused++;
			printf("refused: %s:%u: expect %s, which the model's allowed set holds, fails lint at its step\n",
			       path, s->line, m_outcome_name(cand[k]));
		}
	}
	memcpy(s->expect, keep, sizeof(keep));
	s->nexpect = nkeep;
}

/*
 * The model's results of query step si (*q, n 0: none), from the held state
 * before it: the step run on a copy of the lint walk's engine (eng), judged
 * under prof as the runner judges it.
 */
static void query_of(const struct scn_file *f, size_t si, const struct be_model *eng, const struct m_profile *prof,
		     struct m_qres *q)
{
	struct be_model e2;
	struct hcall c;
	struct hres r;
	struct m_pred p;
	int32_t missing;

	memset(q, 0, sizeof(*q));
	if (bm_clone(&e2, eng, f))
		return;
	if (resolve_step(f, &f->steps[si], &be_model_ops, &e2, &c, &missing) == 0 && bm_predict(&e2, &c, &p, NULL) == 0 &&
	    be_model_ops.exec(&e2, &c, &r) == 0 && model_outcome_success(r.out) && model_query(&e2.m, prof, &p.op, q))
		memset(q, 0, sizeof(*q));
	else
		bm_qres_objects(&e2, scn_step_call(&f->steps[si]), c.node, q); /* objects as the runner judges them */
	bm_free(&e2);
}

/*
 * Object mutants of result cd (an object, or none: fields pd=, srq=): every other object of its class
 * on the step's node the model made, and none; k the model's entry of it in q (-1: none).
 */
static void object_mutants(struct counts *n, const struct judges *j, struct scn_file *f, size_t si,
			   struct scn_arg *cd, const struct m_qres *q, int k, const char *path)
{
	const struct scn_value keep = cd->v;
	uint64_t want = keep.kind == SCN_V_OBJ ? (uint64_t)keep.obj : keep.num;
	unsigned node = f->steps[si].node;
	char what[200];

	for (size_t o = 0; o <= f->nobjs; o++) {
		uint64_t cand = o < f->nobjs ? (uint64_t)o : M_QREF_NONE;

		if (cand == want || (o < f->nobjs && (f->objs[o].node != node || !(f->objs[o].cls & cd->spec->cls) ||
						      bm_handle(j->lint_eng, (int32_t)o) < 0)))
			continue;
		cd->v.kind = o < f->nobjs ? SCN_V_OBJ : SCN_V_WORD;
		cd->v.obj = o < f->nobjs ? (int32_t)o : -1;
		cd->v.num = o < f->nobjs ? 0 : M_QREF_NONE;
		snprintf(what, sizeof(what), "expect %s=%s (was %s)", cd->spec->key,
			 o < f->nobjs ? f->objs[o].name : "none", keep.kind == SCN_V_OBJ ? f->objs[keep.obj].name : "a word");
		judge(n, j, f, si, k >= 0 && !model_qres_ok(q, (size_t)k, cand), path, what);
		cd->v = keep;
	}
}

/* Value mutants of query step si: each KEY=VALUE with other values; q the model's results. */
static void value_mutants(struct counts *n, const struct judges *j, struct scn_file *f, size_t si,
			  const struct m_qres *q, const char *path)
{
	struct scn_step *s = &f->steps[si];

	for (size_t c = 0; c < s->nconds; c++) {
		struct scn_arg *cd = &s->conds[c];
		uint64_t base = cd->v.num, want = base, cand[MUT_VALUES];
		int k = -1;

		if (cd->v.kind == SCN_V_ATTR) {
			uint64_t v;

			if (be_model_ops.attr(j->lint_eng, cd->v.obj, (enum scn_attr)cd->v.attr, &v))
				continue;
			want = cd->v.neg ? v - base : v + base;
		}
		for (unsigned r = 0; r < q->n; r++)
			if (strcmp(q->r[r].key, cd->spec->key) == 0)
				k = (int)r;
		if (cd->spec->kinds & SCN_V_OBJ) { /* an object result: other objects, none */
			object_mutants(n, j, f, si, cd, q, k, path);
			continue;
		}
		cand[0] = want + 1;
		cand[1] = want - 1;
		cand[2] = 0;
		cand[3] = want ^ 1;
		for (unsigned m = 0; m < MUT_VALUES; m++) {
			int dup = cand[m] == want;
			char what[160];

			for (unsigned p = 0; p < m; p++)
				dup |= cand[p] == cand[m];
			if (dup)
				continue;
			/* The mutant's number: the value it makes the runner want. */
			cd->v.num = cd->v.kind == SCN_V_ATTR ? (cd->v.neg ? base - (cand[m] - want) : base + (cand[m] - want))
							     : cand[m];
			snprintf(what, sizeof(what), "expect %s=%llu (was %llu)", cd->spec->key,
				 (unsigned long long)cand[m], (unsigned long long)want);
			judge(n, j, f, si, k >= 0 && !model_qres_ok(q, (size_t)k, cand[m]), path, what);
			cd->v.num = base;
		}
	}
}

/* Begin a run of f on a fresh model engine simulating sim under o: the held run, or NULL (skipped, or no memory). */
static struct run *hold(const struct scn_file *f, const struct m_profile *sim, const struct run_opts *o,
			struct be_model *eng, struct result *r)
{
	struct run *x = malloc(run_size());

	if (!x)
		return NULL;
	if (bm_init(eng, f, sim)) {
		free(x);
		return NULL;
	}
	if (run_begin(x, f, &be_model_ops, eng, o, r)) { /* skipped (or no memory): nothing held */
		bm_free(eng);
		free(x);
		return NULL;
	}
	return x;
}

/* Every mutant of file f (path). Returns 0, or 1 when f does not pass lint itself (not mutated). */
static int mutate_file(struct counts *n, const char *path, struct scn_file *f, const struct m_profile *prof)
{
	struct held h = { calloc(f->nsteps ? f->nsteps : 1, sizeof(struct m_pred)) };
	struct run_opts lo, so = { .mode = RUN_REAL, .prof = *prof };
	struct m_profile sim;
	struct be_model le, se;
	struct result lr, sr;
	struct judges j = { 0 };
	int rc = 0;

	n->files++;
	if (!h.gen)
		return 1;
	if (m_profile_get("generic", 0, &sim)) /* every model capability: lint's engine_caps */
		return 1;
	run_walk_setup(f, prof, sim.caps, &lo, &sim);
	/* Pass 1: the generic set before every step (and the file must pass lint itself). */
	if (run_walk(f, prof, lo.engine_caps, note_step, NULL, &h, &lr) != V_PASS &&
	    lr.v != V_XFAIL) {
		printf("not mutated: %s: lint says %s: %s\n", path, verdict_str(lr.v), lr.reason);
		result_clear(&lr);
		free(h.gen);
		return 1;
	}
	result_clear(&lr);
	n->walked++;
	/* Pass 2: walk again step by step, every mutant from the state before its step. */
	j.lint = hold(f, &sim, &lo, &le, &lr);
	j.lint_eng = &le;
	j.lint_o = &lo;
	j.sim = hold(f, prof, &so, &se, &sr);
	j.sim_eng = &se;
	j.sim_o = &so;
	if (!j.lint) {
		if (j.sim) {
			run_end(j.sim);
			result_clear(&sr);
			free(j.sim);
			bm_free(&se);
		}
		free(h.gen);
		return 1;
	}
	for (size_t si = 0; si < f->nsteps && !rc;) {
		/* A chain's WRs run as one (run_chain): each one's mutants from the state before the chain. */
		size_t len = run_chain_len(f, si);

		for (size_t k = si; k < si + len; k++) {
			struct m_qres q;

			if (f->steps[k].nexpect && h.gen[k].n)
				outcome_mutants(n, &j, f, k, &h.gen[k], path);
			if (f->steps[k].nconds) {
				query_of(f, k, &le, &lo.prof, &q);
				value_mutants(n, &j, f, k, &q, path);
			}
		}
		si += len;
		rc = run_steps(j.lint, si);
		if (j.sim && run_steps(j.sim, si)) { /* the model run ended here: lint alone from here on */
			run_end(j.sim);
			result_clear(&sr);
			free(j.sim);
			bm_free(&se);
			j.sim = NULL;
		}
	}
	run_end(j.lint);
	result_clear(&lr);
	free(j.lint);
	if (j.sim) {
		run_end(j.sim);
		result_clear(&sr);
		free(j.sim);
		bm_free(&se);
	}
	bm_free(&le);
	free(h.gen);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .scn files under path (itself if a file), sorted, appended to *v (*n of them). 0 or -errno. */
static int collect(const char *path, char ***v, size_t *n)
{
	struct stat sb;

	if (stat(path, &sb))
		return -errno;
	if (!S_ISDIR(sb.st_mode)) {
		char **nv = realloc(*v, (*n + 1) * sizeof(**v));

		if (!nv || !(nv[*n] = strdup(path)))
			return -ENOMEM;
		*v = nv;
		(*n)++;
		return 0;
	}
	DIR *d = opendir(path);
	struct dirent *e;
	size_t from = *n;
	int rc = 0;

	if (!d)
		return -errno;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &sb))
			continue;
		if (S_ISDIR(sb.st_mode) || (len > 4 && strcmp(e->d_name + len - 4, ".scn") == 0))
			rc = collect(sub, v, n);
	}
	closedir(d);
	qsort(*v + from, *n - from, sizeof(**v), by_name);
	return rc;
}

int main(int argc, char **argv)
{
	struct counts n = { 0 };
	struct m_profile prof;
	const char *pname = "rxe";
	char **files = NULL;
	size_t nf = 0;
	int first = 1, bad = 0;

	for (; first < argc && argv[first][0] == '-'; first++) {
		if (strncmp(argv[first], "--profile=", 10) == 0)
			pname = argv[first] + 10;
		else
			break;
	}
	/* Every mutant clones two models and frees them: keep those blocks off mmap. */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	if (first == argc || m_profile_get(pname, 0, &prof)) {
		fprintf(stderr, "usage: expect-mutants [--profile=NAME] PATH...\n");
		return 2;
	}
	for (int i = first; i < argc; i++)
		if (collect(argv[i], &files, &nf)) {
			fprintf(stderr, "expect-mutants: %s: %s\n", argv[i], strerror(errno ? errno : ENOENT));
			return 2;
		}
	for (size_t i = 0; i < nf; i++) {
		struct scn_file *f;
		struct scn_diags d;

		if (scn_parse_file(files[i], &f, &d)) {
			printf("not mutated: %s: does not parse\n", files[i]);
			bad = 1;
		} else {
			bad |= mutate_file(&n, files[i], f, &prof);
			scn_free(f);
		}
		free(files[i]);
	}
	free(files);
	printf("expect-mutants: %lu files (%lu walked), %lu mutants in %lu walks: %lu outside the model's allowed "
	       "sets, %lu killed, %lu survivors; %lu inside them, %lu of those refused by lint at their step\n",
	       n.files, n.walked, n.mutants, n.walks, n.excluded, n.killed, n.survivors, n.mutants - n.excluded,
	       n.refused);
	return n.survivors || n.refused ? 1 : bad ? 2 : 0;
}

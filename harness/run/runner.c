/*
 * runner.c — run one scenario on an engine with the model alongside (runner.h).
 *
 * One return convention for the runner's phases (here, run_peer.c,
 * run_verdict.c, run_fork.c): 0 to go on, 1 when the scenario is over (its
 * verdict is in x->r: a failure, an error, a skip), a negative errno when the
 * runner itself failed (no memory). run_begin and run_steps say the same.
 */
#include "harness/run/runner.h"
#include "harness/run/runner_int.h"
#include "harness/run/proto.h"
#include "harness/run/family.h"
#include "harness/run/be_model.h"
#include "harness/run/resolve.h"
#include "harness/run/run_ahead.h"
#include "harness/run/steptime.h"
#include "harness/base/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MEM_CHUNK 4096

/* Lint walks past disagreements (run_opts.on_disagree). */
static int lint_goes_on(const struct run *x)
{
	return x->o->mode == RUN_LINT && x->o->on_disagree;
}

int run_disagree(struct run *x, const struct scn_step *s, uint32_t line, uint32_t col, const char *word,
		 const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	run_say(x, V_FAIL, line, "line %u: %s", line, msg);
	if (x->o->on_disagree)
		x->o->on_disagree(x->o->ctx, x->f, (size_t)(s - x->f->steps), line, col, msg, word);
	return !lint_goes_on(x);
}

/*
 * Compare [off, off+len) of buffer object obj on the engine with the model;
 * with want >= 0 (check byte=X) also every byte with want, in the model and
 * in reality. s: the check step (NULL: the end of the scenario). 0 equal,
 * 1 differs (a fail recorded; lint going on past a disagreement: 0), <0 error.
 */
static int compare_mem(struct run *x, const struct scn_step *s, int32_t obj, uint64_t off, uint64_t len, int want)
{
	const struct scn_value *bv = s ? scn_step_arg(s, "byte") : NULL;
	uint32_t line = s ? s->line : 0, byte_col = bv ? bv->col : s ? s->col : 0;
	uint8_t real[MEM_CHUNK];
	struct bm_buf mr;

	if (!bm_buf(&x->bm, obj, &mr))
		return 0;
	if (off > mr.len)
		return 0;
	if (len > mr.len - off)
		len = mr.len - off;
	for (uint64_t at = off, end = off + len; (at = bm_buf_judged_from(&mr, at)) < end;) {
		const uint8_t *mb, *mu;
		size_t n = bm_buf_at(&mr, at, end - at < MEM_CHUNK ? (size_t)(end - at) : MEM_CHUNK, &mb, &mu);
		int rc = x->ops->read(x->be, obj, at, n, real);
		long d;

		if (rc == -ENOENT)
			return 0; /* never registered on the engine: nothing to compare */
		if (rc)
			return rc;
		d = model_bytes_compare(mb, mu, real, n);
		if (d >= 0) {
			char name[80], exp[3 * 8 + 1] = "", got[3 * 8 + 1] = "";
			size_t i0 = (size_t)d;

			for (size_t i = i0; i < n && i < i0 + 8; i++) {
				snprintf(exp + 3 * (i - i0), 4, "%02x ", mb[i]);
				snprintf(got + 3 * (i - i0), 4, "%02x ", real[i]);
			}
			run_say(x, V_FAIL, line, "%s: memory differs from the model at offset %llu",
			    run_obj_name(x->f, obj, name, sizeof(name)), (unsigned long long)(at + i0));
			text_addf(&x->detail, "  %s, offset %llu: model %s| real %s\n", name,
				  (unsigned long long)(at + i0), exp, got);
			return 1;
		}
		for (size_t i = 0; want >= 0 && i < n; i++) {
			char name[80];
			int model_says = !mu[i] && mb[i] != want;

			if (!model_says && real[i] == want)
				continue;
			run_obj_name(x->f, obj, name, sizeof(name));
			if (model_says && run_judges_file(x) && s)
				return run_disagree(x, s, line, byte_col, NULL,
						"check %s byte=0x%02x: the model says 0x%02x at offset %llu", name, want,
						mb[i], (unsigned long long)(at + i));
			if (model_says)
				run_say(x, V_FAIL, line, "line %u: check %s byte=0x%02x: the model says 0x%02x at offset %llu",
				    line, name, want, mb[i], (unsigned long long)(at + i));
			else
				run_say(x, V_FAIL, line, "line %u: check %s byte=0x%02x: real 0x%02x at offset %llu", line,
				    name, want, real[i], (unsigned long long)(at + i));
			return 1;
		}
		at += n;
	}
	return 0;
}

/* Lint: every outcome the step's expect names must be in the generic set. Returns 1 to stop. */
static int lint_expect(struct run *x, const struct scn_step *s, const struct m_pred *gen)
{
	if (s->nexpect == 0 && s->nconds > 0) {
		/* KEY=VALUE results name the call's success: the model must allow it. */
		char set[512];

		for (unsigned i = 0; i < gen->n; i++)
			if (model_outcome_success(gen->alt[i].out))
				return 0;
		run_format_set(gen, NULL, set, sizeof(set));
		if (run_disagree(x, s, s->line, s->expect_col, NULL,
			     "expect %s=: the results of a call that succeeds, but the model allows only: %s",
			     s->conds[0].spec->key, set))
			return 1;
		x->loose = 1;
		return 0;
	}
	/* Over a block's iterations (`seen`, run_seen.c) the list bounds what each may give: one of
	 * it allowed here will do (that each is allowed at some iteration is judged at the end);
	 * none allowed, each is said as for any step. */
	for (size_t i = 0; s->nseen && i < s->nexpect; i++)
		if (model_pred_find(gen, s->expect[i]) >= 0)
			return 0;
	for (size_t i = 0; i < s->nexpect; i++) {
		struct m_outcome o = s->expect[i];
		char set[512];

		if (model_pred_find(gen, o) >= 0)
			continue;
		run_format_set(gen, NULL, set, sizeof(set));
		if (run_disagree(x, s, s->line, s->expect_col, m_outcome_name(o), "expect %s, but the model allows only: %s",
			     m_outcome_name(o), set))
			return 1;
		x->loose = 1; /* said: the walk follows the model from here */
	}
	return 0;
}

/* Step s wrote past the memory the model holds (bm_commit's -EFBIG, on its own engine or alongside). Returns 1. */
static int model_full(struct run *x, const struct scn_step *s)
{
	run_say(x, V_ERROR, s->line, "line %u: the model holds at most %u bytes of written memory in a scenario "
		"(its buffers' pages of %u bytes where written): this step writes past them; write less, or "
		"split the scenario", s->line, (unsigned)M_MR_BYTES_MAX, (unsigned)M_PAGE);
	return 1;
}

/* Why the engine failed with rc: its own reason (which agent died) or rc's text. */
static const char *engine_why(const struct run *x, int rc)
{
	const char *why = x->ops->why ? x->ops->why(x->be) : NULL;

	return why ? why : strerror(-rc);
}

/* A check step: compare the buffer's bytes with the model's. Returns 1 to stop the scenario. */
static int step_check(struct run *x, const struct scn_step *s)
{
	const struct scn_value *off = scn_step_arg(s, "off"), *len = scn_step_arg(s, "len");
	const struct scn_value *byte = scn_step_arg(s, "byte");
	char name[80];
	int rc = compare_mem(x, s, s->obj, off ? off->num : 0, len ? len->num : UINT64_MAX, byte ? (int)byte->num : -1);

	if (rc < 0)
		run_say(x, V_ERROR, s->line, "line %u: reading %s: %s", s->line, run_obj_name(x->f, s->obj, name, sizeof(name)),
		    engine_why(x, rc));
	return rc != 0;
}

/*
 * Phase 1: the model's call cm and its allowed sets (*pg generic, *pp the
 * profile's); skip a step that would kill the kernel, check lint's expect,
 * report the step to on_step. Returns 1 to stop the scenario.
 */
static int step_predict(struct run *x, size_t si, struct hcall *cm, struct m_pred *pg, struct m_pred *pp)
{
	const struct scn_step *s = &x->f->steps[si];
	const struct scn_call *call = scn_step_call(s);
	char name[80];
	int32_t missing;
	int crash = 0, rc = resolve_step(x->f, s, &be_model_ops, &x->bm, cm, &missing);

	cm->refused_errno = x->refused;
	cm->chain_pos = x->chain_pos;
	if (rc == 0)
		rc = bm_predict(&x->bm, cm, pp, pg);
	if (rc) {
		int32_t o = missing >= 0 ? missing : s->obj;

		run_say(x, V_ERROR, s->line, "line %u: %s: the model cannot run this step (%s%s)", s->line, call->name,
		    rc == -EDEADLK ? "it would wait for ever: rule CQ-EVENT-1, every event get_cq_event took must "
				     "be acknowledged before destroy_cq, and no more than were taken" :
		    rc != -ENOENT ? "malformed for the model" : bm_handle(&x->bm, o) == BM_STALE ?
		    "it uses a destroyed object whose model slot a later creation took: " :
		    "it uses an object whose creation failed: ",
		    rc == -ENOENT ? run_obj_name(x->f, o, name, sizeof(name)) : "");
		return 1;
	}
	for (unsigned i = 0; i < pp->n; i++)
		crash |= pp->alt[i].out.kind == M_OUT_CRASH;
	if (crash && pp->n == 1 && !x->o->allow_crash && x->o->mode == RUN_REAL) {
		const struct m_deviation *d = run_deviation(&x->o->prof, pp, pp->alt[0].out);

		run_say(x, V_SKIP, s->line, "line %u: the %s profile says this step kills the kernel (%s: %s); "
		    "run it in a disposable VM (--stack=vm)", s->line, x->o->prof.name,
		    d ? m_rule_info(d->rule)->id : "?", d ? d->citation : "?");
		return 1;
	}
	if (run_judges_file(x) && lint_expect(x, s, pg))
		return 1;
	if (x->o->on_step) {
		double t0 = steptime_now();

		x->o->on_step(x->o->ctx, x->f, si, pg, pp, crash);
		steptime_add(ST_RECORD, t0);
	}
	return 0;
}

/* Step s as the engine's call *cr. Returns 1 (an error recorded) when an object it names is not there. */
static int engine_call(struct run *x, const struct scn_step *s, struct hcall *cr)
{
	char name[80];
	int32_t missing;

	if (resolve_step(x->f, s, x->ops, x->be, cr, &missing) == 0) {
		x->eng_inv = cr->op == M_OP_SEND && cr->verbs.with_inv ? cr->verbs.inv_rkey : 0;
		if (run_judges_file(x))
			run_seen_prefer(x, s, cr);
		return 0;
	}
	run_say(x, V_ERROR, s->line, "line %u: %s: %s does not exist on the %s engine", s->line, scn_step_call(s)->name,
	    run_obj_name(x->f, missing, name, sizeof(name)), x->ops->name);
	return 1;
}

/* The engine answered step s with rc (pg: the model's set, NULL if not predicted yet). Returns 1 to stop. */
static int exec_failed(struct run *x, const struct scn_step *s, const struct m_pred *pg, int rc)
{
	const char *cname = scn_step_call(s)->name;

	if (rc == -ETIMEDOUT) {
		char set[512];

		run_say(x, V_FAIL, s->line, "line %u: %s: TIMEOUT (no answer within the step timeout)", s->line, cname);
		if (pg) {
			run_format_set(pg, scn_step_narrows(s) ? s : NULL, set, sizeof(set));
			text_addf(&x->detail, "  allowed: %s\n", set);
		}
		return 1;
	}
	if (rc == -EFBIG && run_judges_file(x)) /* the model as the engine */
		return model_full(x, s);
	if (rc)
		run_say(x, V_ERROR, s->line, "line %u: %s: the %s engine failed: %s", s->line, cname, x->ops->name,
		    engine_why(x, rc));
	return rc != 0;
}

/* --trace: "  trace: line N: STEP -> REAL; allowed: SET" (the results directory parses it). */
static void trace_step(struct run *x, const struct scn_step *s, const struct m_pred *pg, const struct hres *real)
{
	char st[256], got[48], set[512];

	if (!x->o->trace)
		return;
	scn_step_format(x->f, s, st, sizeof(st));
	run_format_set(pg, scn_step_narrows(s) ? s : NULL, set, sizeof(set));
	text_adds(&x->detail, "  trace: line "); /* copies, not a format: that was a tenth of a step's run */
	text_addu(&x->detail, s->line);
	text_addl(&x->detail, ": ", st, " -> ", m_outcome_str(real->out, got, sizeof(got)), "; allowed: ", set, "\n", NULL);
}

/* Phase 2: run the step on the engine (its budget widened by run_kwarn_ms of pp, the profile's set); *real what it did
 * (a declared hang: M_OUT_HANG).
 * Returns 1 to stop the scenario. */
static int step_exec(struct run *x, const struct scn_step *s, const struct m_pred *pg, const struct m_pred *pp,
		     struct hres *real)
{
	struct hcall cr;
	int rc;

	if (engine_call(x, s, &cr))
		return 1;
	cr.extra_ms = run_kwarn_ms(&x->o->prof, pp);
	rc = x->ops->exec(x->be, &cr, real);
	x->r->steps_run++;
	if (run_declared_hang(pp, rc, real))
		rc = 0;
	if (exec_failed(x, s, pg, rc))
		return 1;
	trace_step(x, s, pg, real);
	return 0;
}

/* Phase 3, reality outside both sets: a failure, with the step, both sets and reality. */
static void step_fail(struct run *x, const struct scn_step *s, const struct m_pred *pg, const struct m_pred *pp,
		      const char *got)
{
	char set[512], pset[512], text[160] = "";
	struct text t = { 0 };

	run_format_set(pg, scn_step_narrows(s) ? s : NULL, set, sizeof(set));
	run_format_set(pp, NULL, pset, sizeof(pset));
	run_say(x, V_FAIL, s->line, "line %u: %s gave %s, outside the allowed set", s->line, scn_step_call(s)->name, got);
	scn_step_format(x->f, s, text, sizeof(text));
	text_addf(&t, "  step:    %s (line %u)\n  allowed: %s%s\n  profile %s allows: %s\n  real:    %s\n", text,
		  s->line, set, scn_step_narrows(s) ? " (what your expect names, of what the model allows)" : "",
		  x->o->prof.name, pset, got);
	text_addf(&x->detail, "%s", text_str(&t));
	text_free(&t);
}

/* Phase 3, reality in the profile's set only: an xfail (a declared deviation, or none names it). */
static void step_xfail(struct run *x, const struct scn_step *s, const struct m_pred *pg, const struct m_pred *pp,
		       struct m_outcome out, const char *got)
{
	const char *cname = scn_step_call(s)->name;
	const struct m_deviation *d = run_deviation(&x->o->prof, pp, out);
	char set[512];

	run_format_set(pg, scn_step_narrows(s) ? s : NULL, set, sizeof(set));
	if (d) {
		run_say(x, V_XFAIL, s->line, "line %u: %s gave %s: declared deviation %s of profile %s", s->line, cname,
		    got, m_rule_info(d->rule)->id, x->o->prof.name);
		text_addf(&x->detail, "  line %u: %s: %s (specification: %s)\n    deviation %s%s%s%s: %s\n", s->line,
			  cname, got, set, m_rule_info(d->rule)->id, d->component ? " (" : "",
			  d->component ? d->component : "", d->component ? ")" : "", d->citation);
	} else {
		run_say(x, V_XFAIL, s->line, "line %u: %s gave %s: allowed by profile %s, not by the specification",
		    s->line, cname, got, x->o->prof.name);
		text_addf(&x->detail, "  line %u: %s: %s (specification: %s)\n    no single deviation names it\n",
			  s->line, cname, got, set);
	}
	x->xfails++;
}

/*
 * Phase 3: judge reality against (expect ∩ generic set) and the profile's
 * set; *from and *pick: the alternative the model follows. Returns 1 to stop.
 */
static int step_judge(struct run *x, const struct scn_step *s, const struct m_pred *pg, const struct m_pred *pp,
		      const struct hres *real, const struct m_pred **from, int *pick)
{
	char got[48];
	int in_gen = model_pred_find(pg, real->out) >= 0;
	int in_exp = x->loose || scn_step_expects(s, real->out);
	int ip = model_pred_find(pp, real->out);

	m_outcome_str(real->out, got, sizeof(got));
	if (((in_gen && in_exp) || (ip >= 0 && !in_gen)) &&
	    run_seen_note(x, s, run_judges_file(x) ? pg : NULL, real->out)) {
		run_say(x, V_ERROR, s->line, "line %u: out of memory", s->line);
		return 1;
	}
	if (in_gen && in_exp) {
		/* Follow the profile's alternative where it has one (reality is the
		 * profile's stack); lint's engine simulates the generic reading. */
		int gen_only = ip < 0 || x->o->mode == RUN_LINT;

		*from = gen_only ? pg : pp;
		*pick = gen_only ? model_pred_find(pg, real->out) : ip;
		if (ip < 0 && x->o->mode == RUN_REAL) {
			char pset[512];

			run_format_set(pp, NULL, pset, sizeof(pset));
			text_addf(&x->detail, "  note: line %u: %s gave %s, which the specification allows but "
				  "profile %s does not predict (it says: %s): is its deviation stale?\n",
				  s->line, scn_step_call(s)->name, got, x->o->prof.name, pset);
		}
		return 0;
	}
	if (ip >= 0 && !in_gen) {
		step_xfail(x, s, pg, pp, real->out, got);
		*from = pp;
		*pick = ip;
		return 0;
	}
	step_fail(x, s, pg, pp, got);
	return 1;
}

/* Phase 4: advance the model along alternative pick of from (peer effects, rules, queries). Returns 1 to stop. */
static int step_commit(struct run *x, const struct scn_step *s, const struct hcall *cm, const struct m_pred *from,
		       int pick, const struct hres *real)
{
	int rc;

	if (real->out.kind == M_OUT_CRASH || real->out.kind == M_OUT_HANG)
		return 1; /* the kernel died, or the step never ended: nothing after it can be judged */
	pick = run_match_peer(x, s, from, pick);
	if (pick < 0 || !run_send_wc_judged(x, s, from, real))
		return 1;
	for (unsigned i = 0; i < from->alt[pick].nrules; i++)
		result_rule_add(x->r, (enum m_rule)from->alt[pick].rules[i]);
	rc = bm_commit(&x->bm, cm, from, (size_t)pick);
	if (rc == -EFBIG)
		return model_full(x, s);
	if (rc) {
		run_say(x, V_ERROR, s->line, "line %u: the model cannot hold this step (%s)", s->line, strerror(-rc));
		return 1;
	}
	if (scn_step_call(s)->query && model_outcome_success(real->out))
		run_judge_query(x, s, &from->op, real);
	return x->r->v == V_FAIL && !lint_goes_on(x);
}

/*
 * Run the n steps from si as one chain of WRs (LP-7): the engine posts them
 * in one call, then each is predicted, judged and committed in turn, those
 * after a refused one knowing its errno. Returns 1 to stop the scenario.
 */
static int run_chain(struct run *x, size_t si, size_t n)
{
	struct hcall cr[SCN_CHAIN_MAX];
	struct hres real[SCN_CHAIN_MAX];
	int rc = 0;

	for (size_t k = 0; k < n; k++)
		if (engine_call(x, &x->f->steps[si + k], &cr[k]))
			return 1;
	if (x->ops->exec_chain)
		rc = x->ops->exec_chain(x->be, cr, n, real);
	for (size_t k = 0; !x->ops->exec_chain && k < n && !rc; k++) {
		cr[k].refused_errno = k && real[k - 1].out.kind == M_OUT_ERRNO ? real[k - 1].out.code : 0;
		cr[k].chain_pos = (uint8_t)k;
		rc = x->ops->exec(x->be, &cr[k], &real[k]);
	}
	x->r->steps_run += (unsigned)n;
	if (exec_failed(x, &x->f->steps[si], NULL, rc))
		return 1;
	x->advance = n;
	for (size_t k = 0; k < n; k++) {
		const struct scn_step *s = &x->f->steps[si + k];
		const struct m_pred *from;
		struct m_pred pg, pp;
		struct hcall cm;
		int pick;

		x->loose = 0;
		x->refused = k && real[k - 1].out.kind == M_OUT_ERRNO ? real[k - 1].out.code : 0;
		x->chain_pos = (uint8_t)k;
		rc = step_predict(x, si + k, &cm, &pg, &pp);
		x->refused = 0;
		x->chain_pos = 0;
		if (rc)
			return 1;
		trace_step(x, s, &pg, &real[k]);
		x->chain_early = k + 1 < n;
		x->eng_inv = cr[k].op == M_OP_SEND && cr[k].verbs.with_inv ? cr[k].verbs.inv_rkey : 0;
		rc = step_judge(x, s, &pg, &pp, &real[k], &from, &pick) || step_commit(x, s, &cm, from, pick, &real[k]);
		x->chain_early = 0;
		if (rc)
			return 1;
	}
	return 0;
}

/* Run step si: predict, execute, judge, commit. Returns 1 to stop the scenario. */
static int run_step(struct run *x, size_t si)
{
	const struct scn_step *s = &x->f->steps[si];
	const struct m_pred *from;
	struct m_pred pg, pp;
	struct hcall cm;
	struct hres real;
	int pick;

	x->loose = 0;
	x->advance = 1;
	if (run_chain_len(x->f, si) > 1)
		return run_chain(x, si, run_chain_len(x->f, si));
	if (strcmp(scn_step_call(s)->name, "check") == 0)
		return step_check(x, s);
	double t0 = steptime_now();

	if (step_predict(x, si, &cm, &pg, &pp))
		return 1;
	steptime_add(ST_PREDICT, t0);
	t0 = steptime_now();
	if (step_exec(x, s, &pg, &pp, &real))
		return 1;
	steptime_add(ST_EXEC, t0);
	t0 = steptime_now();
	if (step_judge(x, s, &pg, &pp, &real, &from, &pick))
		return 1;
	steptime_add(ST_JUDGE, t0);
	t0 = steptime_now();
	int rc = step_commit(x, s, &cm, from, pick, &real);

	steptime_add(ST_COMMIT, t0);
	return rc;
}

/* Run-ahead (run_opts.ahead): the requests of the steps from si on that may go, sent (run_ahead.h). */
static void send_ahead(struct run *x, size_t si)
{
	if (!x->o->ahead || !x->ops->ahead || x->o->mode != RUN_REAL)
		return;
	x->sent = run_ahead_send(x->f, x->ops, x->be, si, x->sent, !x->pend.on);
}

int run_begin(struct run *x, const struct scn_file *f, const struct backend_ops *ops, void *be,
	      const struct run_opts *o, struct result *r)
{
	int rc;

	memset(x, 0, offsetof(struct run, bm)); /* not the model's 0.5 MB twice: bm_init's below */
	x->t0 = proto_now_s();
	x->f = f;
	x->ops = ops;
	x->be = be;
	x->o = o;
	x->r = r;
	memset(r, 0, sizeof(*r));
	snprintf(r->file, sizeof(r->file), "%s", f->name);
	snprintf(r->title, sizeof(r->title), "%s", f->title);
	r->steps = (unsigned)f->nsteps;
	r->v = V_PASS;
	if (run_unsupported(f, o->prof.caps | o->engine_caps, r->reason, sizeof(r->reason))) {
		r->v = V_SKIP;
		return 1;
	}
	rc = bm_init(&x->bm, f, &o->prof);
	return rc;
}

int run_steps(struct run *x, size_t upto)
{
	x->r->steps = (unsigned)x->f->nsteps; /* the file may have grown (scn_append_step) */
	while (!x->stopped && x->si < upto) {
		double ta = steptime_now();

		send_ahead(x, x->si);
		steptime_add(ST_AHEAD, ta);
		if ((x->pend.on && x->pend.next != x->si && run_peer_settle(x, NULL)) || run_step(x, x->si))
			x->stopped = 1;
		else
			x->si += x->advance;
	}
	return x->stopped;
}

int run_end(struct run *x)
{
	const struct scn_file *f = x->f;
	struct result *r = x->r;
	int rc;

	run_peer_settle(x, NULL);
	if (x->si == f->nsteps && r->v != V_FAIL)
		run_seen_judge(x);
	run_seen_free(x);
	if (x->si == f->nsteps) {
		/* Every buffer, at the end, against the model. */
		for (size_t i = 0; i < f->nobjs && r->v != V_FAIL; i++) {
			rc = compare_mem(x, NULL, (int32_t)i, 0, UINT64_MAX, -1);
			if (rc < 0)
				run_say(x, V_ERROR, 0, "reading %s at the end: %s", f->objs[i].name, engine_why(x, rc));
		}
	}
	bm_free(&x->bm);
	if (x->detail.oom) {
		text_free(&x->detail);
		return -ENOMEM;
	}
	r->detail = text_take(&x->detail);
	r->secs = proto_now_s() - x->t0;
	steptime_flush(f->name, r->steps_run, r->secs);
	return 0;
}

int run_scenario(const struct scn_file *f, const struct backend_ops *ops, void *be,
		 const struct run_opts *o, struct result *r)
{
	struct run x;
	int rc = run_begin(&x, f, ops, be, o, r);

	if (rc)
		return rc > 0 ? 0 : rc;
	run_steps(&x, f->nsteps);
	return run_end(&x);
}

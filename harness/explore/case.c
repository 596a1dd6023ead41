/* case.c — cases, their text, their signatures, their runs on the model (case.h). */
#include "harness/explore/case.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const node_names[] = { "a", "b", "c", "d", "e", "f", "g", "h",
					  "i", "j", "k", "l", "m", "n", "o", "p" };

const char *ex_node_name(unsigned i)
{
	return i < sizeof(node_names) / sizeof(node_names[0]) ? node_names[i] : "?";
}

int ex_case_push(struct ex_case *c, const char *line)
{
	if (strlen(line) >= EX_LINE_MAX)
		return -E2BIG;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		char (*v)[EX_LINE_MAX] = realloc(c->lines, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->lines = v;
		c->cap = cap;
	}
	snprintf(c->lines[c->n++], EX_LINE_MAX, "%s", line);
	return 0;
}

void ex_case_pop(struct ex_case *c)
{
	if (c->n)
		c->n--;
}

int ex_case_copy(struct ex_case *dst, const struct ex_case *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->nnodes = src->nnodes;
	if (!src->n)
		return 0;
	dst->lines = malloc(src->n * sizeof(*dst->lines));
	if (!dst->lines)
		return -ENOMEM;
	memcpy(dst->lines, src->lines, src->n * sizeof(*dst->lines));
	dst->n = dst->cap = src->n;
	return 0;
}

void ex_case_free(struct ex_case *c)
{
	free(c->lines);
	memset(c, 0, sizeof(*c));
}

/* Does a step of c call a function of the family whose calls start with prefix ("rpma_")? */
static int calls_family(const struct ex_case *c, const char *prefix)
{
	for (size_t i = 0; i < c->n; i++)
		if (strncmp(c->lines[i] + strcspn(c->lines[i], " ") + 1, prefix, strlen(prefix)) == 0)
			return 1;
	return 0;
}

/* The families a case may need a `require` line for: their calls' prefix and the require word. */
static const struct { const char *prefix, *require; } requires[] = {
	{ "rpma_", "rpma" }, { "dat_", "dapl" }, { "mrapi_", "mrapi" }, { "rpmem_", "rpmem" },
};

uint32_t ex_case_first_line(const struct ex_case *c)
{
	uint32_t n = 2;

	for (size_t k = 0; k < sizeof(requires) / sizeof(requires[0]); k++)
		n += (uint32_t)calls_family(c, requires[k].prefix);
	return n;
}

int ex_case_text(const struct ex_case *c, const char *header, char **text)
{
	size_t hl = header ? strlen(header) : 0, len = hl + 64 + 2 * c->nnodes + 2, off;
	char *t;

	for (size_t i = 0; i < c->n; i++)
		len += strlen(c->lines[i]) + 1;
	t = malloc(len);
	if (!t)
		return -ENOMEM;
	memcpy(t, header ? header : "", hl);
	off = hl;
	/* a stack without the family skips the case (scenarios/README.md, require) */
	for (size_t k = 0; k < sizeof(requires) / sizeof(requires[0]); k++)
		if (calls_family(c, requires[k].prefix))
			off += (size_t)snprintf(t + off, len - off, "require %s\n", requires[k].require);
	off += (size_t)snprintf(t + off, len - off, "nodes");
	for (unsigned i = 0; i < c->nnodes; i++)
		off += (size_t)snprintf(t + off, len - off, " %s", ex_node_name(i));
	off += (size_t)snprintf(t + off, len - off, "\n");
	for (size_t i = 0; i < c->n; i++)
		off += (size_t)snprintf(t + off, len - off, "%s\n", c->lines[i]);
	*text = t;
	return 0;
}

/* ------------------------------------------------------ signatures -- */

static const char *const class_names[] = { "none", "fail", "crash", "timeout", "error" };

const char *ex_class_str(enum ex_class c)
{
	return (unsigned)c < sizeof(class_names) / sizeof(class_names[0]) ? class_names[c] : "?";
}

int ex_class_parse(const char *name, enum ex_class *out)
{
	for (size_t i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++)
		if (strcmp(name, class_names[i]) == 0) {
			*out = (enum ex_class)i;
			return 0;
		}
	return -EINVAL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The IDs between brackets in text (up to the end of its line), sorted and unique. */
static void bracket_rules(const char *text, char *buf, size_t len)
{
	char tmp[512], *ids[64], *save = NULL;
	size_t n = 0, off = 0, tl = strcspn(text, "\n");

	snprintf(tmp, sizeof(tmp), "%.*s", (int)(tl < sizeof(tmp) ? tl : sizeof(tmp) - 1), text);
	for (char *p = tmp; (p = strchr(p, '[')) != NULL;) {
		char *end = strchr(++p, ']');

		if (!end)
			break;
		*end = '\0';
		for (char *w = strtok_r(p, " ", &save); w && n < 64; w = strtok_r(NULL, " ", &save))
			ids[n++] = w;
		p = end + 1;
	}
	qsort(ids, n, sizeof(*ids), cmp_str);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(ids[i], ids[i - 1]))
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s", off ? " " : "", ids[i]);
}

void ex_pred_rules(const struct m_pred *p, char *buf, size_t len)
{
	char set[512];

	run_format_set(p, NULL, set, sizeof(set));
	bracket_rules(set, buf, len);
}

/* The step of f at line, as an index (the case's lines are f's steps in order); 0 if none. */
static unsigned step_at(const struct scn_file *f, uint32_t line)
{
	for (size_t i = 0; f && i < f->nsteps; i++)
		if (f->steps[i].line == line)
			return (unsigned)i;
	return 0;
}

/* What reality did, from the reason: "… gave X, …", else the words after "line N: ". */
static void real_of(const char *reason, enum ex_class cls, char *buf, size_t len)
{
	const char *g = strstr(reason, " gave ");

	if (cls == EX_CRASH || cls == EX_TIMEOUT) {
		snprintf(buf, len, "%s", cls == EX_CRASH ? "KERNEL_CRASH" : "TIMEOUT");
	} else if (g) {
		g += 6;
		snprintf(buf, len, "%.*s", (int)strcspn(g, ", "), g);
	} else {
		const char *c = strstr(reason, ": ");

		c = c ? c + 2 : reason;
		snprintf(buf, len, "%.*s", (int)strcspn(c, "0123456789:(,"), c);
		for (size_t l = strlen(buf); l && buf[l - 1] == ' '; l--)
			buf[l - 1] = '\0';
	}
}

void ex_sig_of(const struct ex_case *c, const struct scn_file *f, const struct result *r, const char *rules_hint,
	       struct ex_sig *s)
{
	const char *al = r->detail ? strstr(r->detail, "allowed: ") : NULL;

	memset(s, 0, sizeof(*s));
	if (r->v == V_PASS || r->v == V_XFAIL || r->v == V_SKIP)
		return;
	s->cls = r->v == V_ERROR ? EX_ERROR : strstr(r->reason, "KERNEL_CRASH") ? EX_CRASH :
		 strstr(r->reason, "TIMEOUT") ? EX_TIMEOUT : EX_FAIL;
	s->step = step_at(f, r->line);
	if (f && s->step < f->nsteps)
		snprintf(s->call, sizeof(s->call), "%s", scn_step_call(&f->steps[s->step])->name);
	else if (c && s->step < c->n)
		snprintf(s->call, sizeof(s->call), "%.*s", (int)strcspn(c->lines[s->step] + 3, " "),
			 c->lines[s->step] + 3);
	real_of(r->reason, s->cls, s->real, sizeof(s->real));
	if (al) {
		al += 9;
		snprintf(s->allowed, sizeof(s->allowed), "%.*s", (int)strcspn(al, "\n"), al);
		bracket_rules(al, s->rules, sizeof(s->rules));
	} else if (rules_hint) {
		snprintf(s->rules, sizeof(s->rules), "%s", rules_hint);
	}
}

int ex_sig_same(const struct ex_sig *a, const struct ex_sig *b)
{
	return a->cls == b->cls && strcmp(a->call, b->call) == 0 && strcmp(a->real, b->real) == 0 &&
	       strcmp(a->rules, b->rules) == 0;
}

/* ------------------------------------------- the model, in process -- */

static void eval_on_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
			 const struct m_pred *prof, int crash)
{
	struct ex_eval *e = ctx;

	(void)f;
	e->nseen = si + 1;
	e->last_gen = *gen;
	e->last_crash = crash;
	e->last_costly = 0;
	for (unsigned i = 0; prof && i < prof->n; i++) {
		e->last_crash |= prof->alt[i].out.kind == M_OUT_CRASH;
		if ((prof->alt[i].out.kind == M_OUT_HANG || prof->alt[i].out.kind == M_OUT_CRASH) && !e->last_costly)
			e->last_costly = prof->alt[i].dev ? prof->alt[i].dev : M_COSTLY_KEYS - 1;
	}
}

/* The options of a run of the model filling e (eval_on_step). */
static void eval_opts(struct ex_eval *e, const struct m_profile *judge, struct run_opts *o)
{
	*o = (struct run_opts){ .mode = RUN_REAL, .prof = *judge, .allow_crash = 1, .on_step = eval_on_step, .ctx = e };
}

/* e for a case that does not parse. */
static void eval_unparsed(struct ex_eval *e)
{
	memset(&e->eng, 0, sizeof(e->eng));
	e->r.v = V_ERROR;
	snprintf(e->r.reason, sizeof(e->r.reason), "does not parse");
}

/* c parsed into *f (NULL: it does not parse); *textlen: the length of its text. 0 or -ENOMEM. */
static int case_parse(const struct ex_case *c, struct scn_file **f, size_t *textlen)
{
	struct scn_diags d;
	char *text;
	int rc = ex_case_text(c, NULL, &text);

	*f = NULL;
	if (rc)
		return rc;
	*textlen = strlen(text);
	rc = scn_parse_text(text, *textlen, "explore.scn", f, &d);
	free(text);
	return rc == -ENOMEM ? rc : 0;
}

int ex_case_parse(const struct ex_case *c, struct scn_file **f)
{
	size_t len;

	return case_parse(c, f, &len);
}

/*
 * Begin e (its members before the engine zeroed): c parsed into e->f and
 * the engine started on sim. 0 ready; 1 c does not parse (e says so); or a
 * negative errno (e released). *textlen: the length of c's text.
 */
static int eval_begin(const struct ex_case *c, const struct m_profile *sim, struct ex_eval *e, size_t *textlen)
{
	int rc;

	memset(e, 0, offsetof(struct ex_eval, eng)); /* the engine: bm_init's */
	rc = case_parse(c, &e->f, textlen);
	if (rc)
		return rc;
	if (!e->f) {
		eval_unparsed(e);
		return 1;
	}
	rc = bm_init(&e->eng, e->f, sim);
	if (rc) {
		ex_eval_free(e);
		return rc;
	}
	e->eng_live = 1;
	return 0;
}

/* After e's run: the rule IDs of the last step begun. */
static void eval_done(struct ex_eval *e)
{
	if (e->nseen)
		ex_pred_rules(&e->last_gen, e->step_rules, sizeof(e->step_rules));
}

int ex_eval_run(const struct ex_case *c, const struct m_profile *judge, const struct m_profile *sim,
		const struct backend_ops *ops, struct ex_eval *e)
{
	struct run_opts o;
	size_t len;
	int rc = eval_begin(c, sim, e, &len);

	if (rc)
		return rc > 0 ? 0 : rc;
	eval_opts(e, judge, &o);
	rc = run_scenario(e->f, ops ? ops : &be_model_ops, &e->eng, &o, &e->r);
	if (rc) {
		ex_eval_free(e);
		return rc;
	}
	eval_done(e);
	return 0;
}

void ex_eval_free(struct ex_eval *e)
{
	if (e->eng_live)
		bm_free(&e->eng);
	if (e->held)
		scn_unappend(e->held->e.f, &e->held->mark); /* its file is the hold's, grown by one step */
	else
		scn_free(e->f);
	result_clear(&e->r);
	memset(e, 0, offsetof(struct ex_eval, eng)); /* the engine: released by bm_free, set by the next bm_init */
}

/* ------------------------------------------------ a prefix, held -- */

struct ex_hold *ex_hold_new(void)
{
	struct ex_hold *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	/* e's engine: set by each ex_hold_run; the rest zero (nothing held: ex_hold_release is safe) */
	memset(h, 0, offsetof(struct ex_hold, e) + offsetof(struct ex_eval, eng));
	h->x = malloc(run_size());
	h->x_next = malloc(run_size());
	if (!h->x || !h->x_next) {
		ex_hold_delete(h);
		return NULL;
	}
	return h;
}

void ex_hold_delete(struct ex_hold *h)
{
	if (!h)
		return;
	free(h->x);
	free(h->x_next);
	free(h);
}

int ex_hold_run(struct ex_hold *h, const struct ex_case *c, const struct m_profile *judge,
		const struct m_profile *sim, const struct backend_ops *ops)
{
	struct ex_eval *e = &h->e;
	int rc = eval_begin(c, sim, e, &h->textlen);

	h->live = 0;
	h->judge = judge;
	h->sim = sim;
	h->ops = ops;
	h->n = c->n;
	h->first = ex_case_first_line(c);
	if (rc)
		return rc > 0 ? 0 : rc;
	eval_opts(e, judge, &h->o);
	rc = run_begin(h->x, e->f, ops ? ops : &be_model_ops, &e->eng, &h->o, &e->r);
	if (rc == 0 && !run_steps(h->x, e->f->nsteps))
		h->live = 1; /* held before its end */
	else if (rc == 0)
		rc = run_end(h->x); /* a step ended it: the whole run */
	if (rc < 0) {
		ex_eval_free(e);
		return rc;
	}
	eval_done(e);
	return 0;
}

int ex_hold_end(struct ex_hold *h)
{
	int rc;

	if (!h->live)
		return 0;
	h->live = 0;
	rc = run_end(h->x);
	if (rc)
		ex_eval_free(&h->e);
	return rc;
}

void ex_hold_release(struct ex_hold *h)
{
	if (h->live)
		run_drop(h->x);
	h->live = 0;
	ex_eval_free(&h->e);
}

/* Can c, the held case and one more line, go on from the held run? */
static int hold_extends(const struct ex_hold *h, const struct ex_case *c)
{
	const char *line = c->n ? c->lines[c->n - 1] : "";

	return h->live && c->n == h->n + 1 && c->nnodes == h->e.f->nnodes && !strchr(line, '\n') &&
	       ex_case_first_line(c) == h->first && h->textlen + strlen(line) + 1 <= SCN_FILE_MAX;
}

int ex_hold_next(struct ex_hold *h, const struct ex_case *c, struct ex_eval *e)
{
	const char *line = c->n ? c->lines[c->n - 1] : "";
	struct scn_diags d;
	int rc;

	if (!hold_extends(h, c))
		return ex_eval_run(c, h->judge, h->sim, h->ops, e);
	memset(e, 0, offsetof(struct ex_eval, eng));
	rc = scn_append_step(h->e.f, line, strlen(line), h->first + (uint32_t)h->n, &d, &h->mark);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		eval_unparsed(e);
		return 0;
	}
	e->held = h;
	e->f = h->e.f;
	/* What the run of the held steps saw, as a run of the whole case sees it before its last step. */
	e->nseen = h->e.nseen;
	e->last_gen = h->e.last_gen;
	e->last_rules_n = h->e.last_rules_n;
	e->last_crash = h->e.last_crash;
	if (run_unsupported(e->f, h->o.prof.caps | h->o.engine_caps, e->r.reason, sizeof(e->r.reason))) {
		ex_eval_free(e); /* the new step needs what the stack lacks: the whole case says so */
		return ex_eval_run(c, h->judge, h->sim, h->ops, e);
	}
	rc = bm_clone(&e->eng, &h->e.eng, e->f);
	if (rc)
		goto fail;
	e->eng_live = 1;
	h->o_next = h->o;
	h->o_next.ctx = e;
	rc = run_fork(h->x_next, h->x, e->f, &e->eng, &h->o_next, &e->r);
	if (rc)
		goto fail;
	run_steps(h->x_next, e->f->nsteps);
	rc = run_end(h->x_next);
	if (rc)
		goto fail;
	eval_done(e);
	return 0;
fail:
	ex_eval_free(e);
	return rc;
}

int ex_hold_grow(struct ex_hold *h, const struct ex_case *c)
{
	const char *line = c->n ? c->lines[c->n - 1] : "";
	struct scn_diags d;
	char why[256];
	int rc;

	if (!hold_extends(h, c))
		goto whole;
	rc = scn_append_step(h->e.f, line, strlen(line), h->first + (uint32_t)h->n, &d, &h->mark);
	if (rc == -ENOMEM)
		return rc;
	if (rc)
		goto whole; /* it does not parse: so the hold says, as ex_hold_run does */
	if (run_unsupported(h->e.f, h->o.prof.caps | h->o.engine_caps, why, sizeof(why))) {
		scn_unappend(h->e.f, &h->mark);
		goto whole;
	}
	h->n++;
	h->textlen += strlen(line) + 1;
	if (run_steps(h->x, h->e.f->nsteps)) {
		h->live = 0;
		rc = run_end(h->x); /* a step ended it: the whole run */
		if (rc) {
			ex_eval_free(&h->e);
			return rc;
		}
	}
	eval_done(&h->e);
	return 0;
whole:
	ex_hold_release(h);
	return ex_hold_run(h, c, h->judge, h->sim, h->ops);
}

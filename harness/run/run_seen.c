/*
 * run_seen.c — the `seen` groups of a step in a repeat block (runner_int.h):
 * what every iteration of the step line gave, noted as it is judged, and at
 * the end whether each group occurred. The expect list says what every
 * iteration may give (each judged on its own); a group asserts over the set
 * of outcomes the iterations gave, as a stress test's "some succeeded and
 * the rest failed". A step with groups reads its expect list as a bound
 * ("all were one of these"): lint asks that one of it be allowed at each
 * iteration (runner.c lint_expect) and, here at the end, that each outcome
 * any iteration's list names be allowed at some iteration, so that none is
 * named in vain. On the model's own walk (lint, --stack=model) a group holds
 * when the model allows it at some iteration (reality chooses, the model
 * only bounds), and the walk prefers the outcomes no iteration took yet
 * (run_seen_prefer), so that it goes where the list needs it to.
 */
#include "harness/run/runner_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(struct m_outcome a, struct m_outcome b)
{
	return a.kind == b.kind && a.code == b.code;
}

/* The notes of line (NULL: none yet). */
static struct run_seen *find(const struct run *x, uint32_t line)
{
	for (size_t i = 0; i < x->nseen; i++)
		if (x->seen[i].line == line)
			return &x->seen[i];
	return NULL;
}

/* The notes of line, made when absent. NULL: out of memory. */
static struct run_seen *tally(struct run *x, uint32_t line)
{
	struct run_seen *t = find(x, line);

	if (t)
		return t;
	t = realloc(x->seen, (x->nseen + 1) * sizeof(*t));
	if (!t)
		return NULL;
	x->seen = t;
	t = &x->seen[x->nseen++];
	*t = (struct run_seen){ .line = line };
	return t;
}

/* t's entry of o (made for step si when absent and there is room; NULL: none). */
static struct run_seen_out *entry(struct run_seen *t, struct m_outcome o, size_t si, int make)
{
	for (unsigned i = 0; i < t->nout; i++)
		if (same(t->out[i].o, o))
			return &t->out[i];
	if (!make || t->nout == sizeof(t->out) / sizeof(t->out[0]))
		return NULL;
	t->out[t->nout] = (struct run_seen_out){ .o = o, .step = si };
	return &t->out[t->nout++];
}

int run_seen_note(struct run *x, const struct scn_step *s, const struct m_pred *allowed, struct m_outcome out)
{
	size_t si = (size_t)(s - x->f->steps);
	struct run_seen *t;
	struct run_seen_out *e;

	if (!s->nseen)
		return 0;
	t = tally(x, s->line);
	if (!t)
		return -ENOMEM;
	t->n++;
	for (unsigned i = 0; i < s->nexpect; i++) {
		e = entry(t, s->expect[i], si, 1);
		if (e && allowed && model_pred_find(allowed, s->expect[i]) >= 0)
			e->allowed = 1;
	}
	e = scn_step_expects(s, out) ? entry(t, out, si, 0) : NULL;
	if (e)
		e->given++;
	else
		t->other++;
	return 0;
}

void run_seen_prefer(const struct run *x, const struct scn_step *s, struct hcall *c)
{
	struct m_outcome first[SCN_OUTCOMES_MAX], then[SCN_OUTCOMES_MAX];
	const struct run_seen *t = find(x, s->line);
	size_t nf = 0, nt = 0;

	if (!s->nseen || c->nprefer != s->nexpect)
		return;
	for (unsigned i = 0; i < s->nexpect; i++) {
		const struct run_seen_out *e = t ? entry((struct run_seen *)t, s->expect[i], 0, 0) : NULL;

		if (e && e->given)
			then[nt++] = s->expect[i];
		else
			first[nf++] = s->expect[i];
	}
	memcpy(c->prefer, first, nf * sizeof(first[0]));
	memcpy(c->prefer + nf, then, nt * sizeof(then[0]));
}

/* Group g of step s as "A|B" into buf. */
static const char *group_str(const struct scn_step *s, uint8_t g, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < s->nexpect && off < len; i++)
		if (g & (1u << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "|" : "", m_outcome_name(s->expect[i]));
	return buf;
}

/* What the iterations gave, as "SUCCESS x3, WR_FLUSH_ERR x47" into buf. */
static const char *gave_str(const struct run_seen *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < t->nout && off < len; i++)
		if (t->out[i].given)
			off += (size_t)snprintf(buf + off, len - off, "%s%s x%u", off ? ", " : "",
						m_outcome_name(t->out[i].o), t->out[i].given);
	if (t->other && off < len)
		snprintf(buf + off, len - off, "%sanother outcome x%u", off ? ", " : "", t->other);
	return buf;
}

/* Whether group g of step s occurred (own: the model's walk, allowed at some iteration). */
static int occurred(struct run_seen *t, const struct scn_step *s, uint8_t g, int own)
{
	for (unsigned i = 0; i < s->nexpect; i++) {
		const struct run_seen_out *e = (g & (1u << i)) ? entry(t, s->expect[i], 0, 0) : NULL;

		if (e && (own ? e->allowed : e->given > 0))
			return 1;
	}
	return 0;
}

/* Line t's outcomes and groups judged; 1 when the walk stops. */
static int judge_line(struct run *x, struct run_seen *t, int own)
{
	for (unsigned k = 0; own && k < t->nout; k++) {
		const struct scn_step *s = &x->f->steps[t->out[k].step];

		if (!t->out[k].allowed &&
		    run_disagree(x, s, s->line, s->expect_col, m_outcome_name(t->out[k].o),
				 "expect %s, but the model allows it at no iteration (of %u)",
				 m_outcome_name(t->out[k].o), t->n))
			return 1;
	}
	for (size_t si = 0; si < x->f->nsteps; si++) {
		const struct scn_step *s = &x->f->steps[si];

		for (unsigned g = 0; s->line == t->line && g < s->nseen; g++) {
			char want[160], gave[256];

			if (occurred(t, s, s->seen[g], own))
				continue;
			group_str(s, s->seen[g], want, sizeof(want));
			if (!own) {
				run_say(x, V_FAIL, s->line, "line %u: seen %s: no iteration gave it (of %u: %s)",
					s->line, want, t->n, gave_str(t, gave, sizeof(gave)));
				return 1;
			}
			if (run_disagree(x, s, s->line, s->seen_col[g], NULL,
					 "seen %s, but the model allows it at no iteration (of %u)", want, t->n))
				return 1;
			break; /* said once for the line, not once an iteration */
		}
	}
	return 0;
}

void run_seen_judge(struct run *x)
{
	int own = x->o->mode == RUN_LINT || x->o->model_engine;

	for (size_t i = 0; i < x->nseen; i++)
		if (judge_line(x, &x->seen[i], own))
			return;
}

int run_seen_copy(struct run *dst, const struct run *src)
{
	dst->seen = NULL;
	dst->nseen = 0;
	if (!src->nseen)
		return 0;
	dst->seen = malloc(src->nseen * sizeof(*dst->seen));
	if (!dst->seen)
		return -ENOMEM;
	memcpy(dst->seen, src->seen, src->nseen * sizeof(*dst->seen));
	dst->nseen = src->nseen;
	return 0;
}

void run_seen_free(struct run *x)
{
	free(x->seen);
	x->seen = NULL;
	x->nseen = 0;
}

/*
 * result.c — the parts of runner.h that judge nothing: verdict names, a
 * result's rule set, the allowed sets as text, the profile's deviation for an
 * outcome, and what a scenario needs that a stack may lack.
 */
#include "harness/run/runner.h"
#include "harness/base/text.h"
#include "harness/run/family.h"
#include "harness/run/resolve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdicts[V_COUNT_] = { "pass", "fail", "xfail", "skip", "error" };

const char *verdict_str(enum verdict v)
{
	return (unsigned)v < V_COUNT_ ? verdicts[v] : "?";
}

int verdict_parse(const char *name, enum verdict *out)
{
	for (int i = 0; i < V_COUNT_; i++)
		if (strcmp(name, verdicts[i]) == 0) {
			*out = (enum verdict)i;
			return 0;
		}
	return -EINVAL;
}

void result_rule_add(struct result *r, enum m_rule rule)
{
	if ((unsigned)rule < M_RULE_COUNT_)
		r->rules[rule / 8] |= (uint8_t)(1u << (rule % 8));
}

int result_rule_has(const struct result *r, enum m_rule rule)
{
	return (unsigned)rule < M_RULE_COUNT_ && (r->rules[rule / 8] & (1u << (rule % 8)));
}

void result_clear(struct result *r)
{
	free(r->detail);
	r->detail = NULL;
}

int result_take_detail(struct result *r, struct text *t)
{
	if (t->oom) {
		text_free(t);
		return -ENOMEM;
	}
	free(r->detail);
	r->detail = text_take(t);
	return 0;
}

/* snprintf(buf + off, len - off, "%s", str) where off < len, else nothing: returns off + strlen(str), as
 * off += snprintf(...) counts (the sets are printed for every step's record: a copy, not a format). */
static size_t cat(char *buf, size_t len, size_t off, const char *str)
{
	size_t n = strlen(str);

	if (off < len) {
		size_t k = n < len - off - 1 ? n : len - off - 1;

		memcpy(buf + off, str, k);
		buf[off + k] = '\0';
	}
	return off + n;
}

static void rules_str(const struct m_alt *a, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < a->nrules && off < len; i++)
		off = cat(buf, len, cat(buf, len, off, i ? " " : ""), m_rule_info((enum m_rule)a->rules[i])->id);
}

void run_format_set(const struct m_pred *p, const struct scn_step *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->n && off < len; i++) {
		char o[48], rules[128];
		int dup = 0;

		if (s && !scn_step_expects(s, p->alt[i].out))
			continue;
		for (unsigned j = 0; j < i; j++)
			dup |= p->alt[j].out.kind == p->alt[i].out.kind && p->alt[j].out.code == p->alt[i].out.code;
		if (dup)
			continue;
		rules_str(&p->alt[i], rules, sizeof(rules));
		off = cat(buf, len, off, off ? ", " : "");
		off = cat(buf, len, off, m_outcome_str(p->alt[i].out, o, sizeof(o)));
		off = cat(buf, len, off, rules[0] ? " [" : "");
		off = cat(buf, len, off, rules);
		off = cat(buf, len, off, rules[0] ? "]" : "");
	}
	if (!buf[0])
		snprintf(buf, len, "nothing");
}

/* The deviation alternative a names as its decision (struct m_alt.dev), if it gives o under p's kernel
 * (go_on: if it is one that lets the step go on, a REPLACE by ok alone, whose outcome is what follows,
 * LP-9's). */
static const struct m_deviation *alt_deviation(const struct m_profile *p, const struct m_alt *a, struct m_outcome o,
					       int go_on)
{
	const struct m_deviation *dv = a->dev && a->dev <= p->ndev ? &p->dev[a->dev - 1] : NULL;

	if (!dv || (p->kernel && (p->kernel < dv->kernel_min || p->kernel > dv->kernel_max)))
		return NULL;
	if (go_on)
		return dv->kind == M_DEV_REPLACE && dv->n == 1 && dv->outs[0].kind == M_OUT_OK && !dv->outs[0].code ?
			       dv : NULL;
	for (unsigned k = 0; k < dv->n; k++)
		if (dv->outs[k].kind == o.kind && dv->outs[k].code == o.code)
			return dv;
	return NULL;
}

const struct m_deviation *run_deviation(const struct m_profile *p, const struct m_pred *pred, struct m_outcome o)
{
	for (unsigned i = 0; i < pred->n; i++) {
		const struct m_deviation *dv = alt_deviation(p, &pred->alt[i], o, 0);

		if (dv && pred->alt[i].out.kind == o.kind && pred->alt[i].out.code == o.code)
			return dv;
	}
	for (unsigned i = 0; i < pred->n; i++) {
		const struct m_alt *a = &pred->alt[i];

		if (a->out.kind != o.kind || a->out.code != o.code)
			continue;
		for (unsigned r = 0; r < a->nrules; r++)
			for (size_t d = 0; d < p->ndev; d++) {
				const struct m_deviation *dv = &p->dev[d];

				if (dv->rule != a->rules[r] || (p->kernel &&
				    (p->kernel < dv->kernel_min || p->kernel > dv->kernel_max)))
					continue;
				for (unsigned k = 0; k < dv->n; k++)
					if (dv->outs[k].kind == o.kind && dv->outs[k].code == o.code)
						return dv;
			}
	}
	for (unsigned i = 0; i < pred->n; i++) {
		const struct m_deviation *dv = alt_deviation(p, &pred->alt[i], o, 1);

		if (dv && pred->alt[i].out.kind == o.kind && pred->alt[i].out.code == o.code)
			return dv;
	}
	return NULL;
}

void run_crash_note(const struct m_profile *p, const struct m_pred *pred, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < pred->n; i++)
		if (pred->alt[i].out.kind == M_OUT_CRASH) {
			const struct m_deviation *d = run_deviation(p, pred, pred->alt[i].out);

			snprintf(buf, len, "%s: %s", d ? m_rule_info(d->rule)->id : "?", d ? d->citation : "?");
		}
}

int run_unsupported(const struct scn_file *f, uint32_t caps, char *why, size_t len)
{
	for (size_t i = 0; i < f->nrequires; i++) {
		const char *name = scn_cap_name(f->requires[i]);
		enum m_cap c;

		if (m_cap_parse(name, &c) != 0 || !(caps & c)) {
			snprintf(why, len, "requires %s, which %s", name,
				 m_cap_parse(name, &c) ? "no backend of this build implements yet" :
							 "the profile of this stack does not offer");
			return 1;
		}
	}
	for (size_t i = 0; i < f->nsteps; i++) {
		const struct scn_call *c = scn_step_call(&f->steps[i]);
		/* A library's calls need the library on the stack, required or not. */
		uint32_t need = api_family_get(c->api)->caps;

		if ((resolve_call_kind(f->steps[i].call) < 0 || !api_family_get(c->api)->resolve) && strcmp(c->name, "check") != 0) {
			snprintf(why, len, "line %u: %s (%s) has no backend in this build yet", f->steps[i].line,
				 c->name, scn_api_str((enum m_family)c->api));
			return 1;
		}
		if (need && !(caps & need)) {
			snprintf(why, len, "line %u: %s needs %s, which the profile of this stack does not offer",
				 f->steps[i].line, c->name, m_cap_str((enum m_cap)need));
			return 1;
		}
	}
	return 0;
}

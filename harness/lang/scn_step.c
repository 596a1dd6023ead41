/*
 * scn_step.c — one step line: `NODE: CALL [NAME] [KEY=VALUE…] [expect …]`
 * or `connect NODE.QP NODE.QP [KEY=VALUE…] [expect …]`, checked against
 * the call table; object creation and liveness (names: scn_names.c); step
 * accessors.
 *
 * Names: a creating call declares NAME on its node. A name may not be
 * created again while live; it stops being live after its destroying call
 * (unless that step's expect list lacks ok), and a creating step whose
 * expect list lacks ok never makes it live. Destroyed or failed names can
 * still be referred to (stale handles and keys are test material).
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_args(struct scn_arg *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i].v.str);
}

static int add_step(struct scn_ctx *c, const struct scn_step *st)
{
	struct scn_file *f = c->f;

	if (f->nsteps == SCN_STEPS_MAX) {
		scn_diag(c, st->line, st->col, NULL, SCN_E_TOO_MANY, "steps", SCN_STEPS_MAX);
		return -EINVAL;
	}
	if (f->nsteps == f->cap_steps) {
		size_t n = f->cap_steps ? f->cap_steps * 2 : 16;
		struct scn_step *s = realloc(f->steps, n * sizeof(*s));

		if (!s) {
			c->oom = 1;
			return -ENOMEM;
		}
		f->steps = s;
		f->cap_steps = n;
	}
	f->steps[f->nsteps++] = *st;
	return 0;
}

/* One outcome list "A|B|C" (word w) into st. */
static void parse_outcomes(struct scn_ctx *c, const struct scn_call *call, const struct scn_word *w,
			   struct scn_step *st)
{
	char s[SCN_LINE_MAX + 1], hint[224];

	scn_copy(s, sizeof(s), w->p, w->len);
	for (char *part = s;;) {
		char *bar = strchr(part, '|');
		struct m_outcome o;

		if (bar)
			*bar = '\0';
		if (m_outcome_parse(part, &o) < 0) {
			scn_hint_best(part, scn_cand_outcome, NULL, true, hint, sizeof(hint));
			scn_diag_w(c, w, hint, SCN_E_UNKNOWN_OUTCOME, part);
			return;
		}
		if (!(call->outs & (1u << o.kind))) {
			size_t off = (size_t)snprintf(hint, sizeof(hint), "%s gives", call->name);

			for (unsigned k = 0; k < M_OUT_COUNT_; k++)
				if (call->outs & (1u << k))
					off += (size_t)snprintf(hint + off, sizeof(hint) - off, " %s,",
								m_outcome_kind_str((enum m_outcome_kind)k));
			if (call->outs & SCN_OUTS_QUERY)
				snprintf(hint + off, sizeof(hint) - off, " KEY=VALUE results,");
			hint[strlen(hint) - 1] = '\0';
			if (o.kind == M_OUT_OK && (call->outs & (1u << M_OUT_WC)))
				snprintf(hint, sizeof(hint), "a work request that completes well gives SUCCESS");
			scn_diag_w(c, w, hint, SCN_E_CANNOT_PRODUCE, part, call->name);
			return;
		}
		if (st->nexpect == SCN_OUTCOMES_MAX) {
			scn_diag_w(c, w, NULL, SCN_E_TOO_MANY, "outcomes", SCN_OUTCOMES_MAX);
			return;
		}
		st->expect[st->nexpect++] = o;
		if (!bar)
			break;
		part = bar + 1;
	}
}

/*
 * `seen A|B` (word kw, its group g: NULL when the line ends) after the outcome
 * list: the iterations of the repeat block this step is in gave A or B at
 * least once. Each outcome of the group is one the expect list allows (the
 * list says what every iteration may give, the groups what some did).
 */
static void parse_seen(struct scn_ctx *c, const struct scn_word *kw, const struct scn_word *g, struct scn_step *st)
{
	char s[SCN_LINE_MAX + 1], hint[224];
	uint8_t mask = 0;

	if (!c->in_block) {
		scn_diag_w(c, kw, "put the step in a 'repeat N {' block; one run of a step is judged by expect alone",
			   SCN_E_SEEN, "a group over the iterations of a repeat block, and this step is in none");
		return;
	}
	if (!g) {
		scn_diag_w(c, kw, "e.g. 'seen SUCCESS' or 'seen REM_ACCESS_ERR|WR_FLUSH_ERR'", SCN_E_SEEN,
			   "the outcomes some iteration gave, after the word");
		return;
	}
	if (st->nseen == SCN_SEEN_MAX) {
		scn_diag_w(c, kw, NULL, SCN_E_TOO_MANY, "seen groups", SCN_SEEN_MAX);
		return;
	}
	scn_copy(s, sizeof(s), g->p, g->len);
	for (char *part = s; part;) {
		char *bar = strchr(part, '|');
		struct m_outcome o;
		size_t i;

		if (bar)
			*bar++ = '\0';
		if (m_outcome_parse(part, &o) < 0) {
			scn_hint_best(part, scn_cand_outcome, NULL, true, hint, sizeof(hint));
			scn_diag_w(c, g, hint, SCN_E_UNKNOWN_OUTCOME, part);
			return;
		}
		for (i = 0; i < st->nexpect; i++)
			if (st->expect[i].kind == o.kind && st->expect[i].code == o.code)
				break;
		if (i == st->nexpect) {
			snprintf(hint, sizeof(hint), "add %.64s to the expect list: every iteration may give it", part);
			scn_diag_w(c, g, hint, SCN_E_SEEN, "an outcome the expect list does not allow");
			return;
		}
		mask |= (uint8_t)(1u << i);
		part = bar;
	}
	st->seen_col[st->nseen] = g->col;
	st->seen[st->nseen++] = mask;
}

/* Has st an argument (or condition, in list a) for spec? */
static bool has_spec(const struct scn_arg *a, size_t n, const struct scn_arg_spec *spec)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].spec == spec)
			return true;
	return false;
}

/* expect KEY=VALUE… for a query (words from i). */
static void parse_conds(struct scn_ctx *c, const struct scn_call *call, size_t i, struct scn_step *st)
{
	const struct scn_line *ln = c->ln;
	char key[SCN_NAME_MAX], hint[224];

	for (; i < ln->nwords; i++) {
		const struct scn_word *w = &ln->w[i];
		const char *eq = memchr(w->p, '=', w->len);
		const struct scn_arg_spec *spec;
		struct scn_arg *a;

		if (!eq) {
			scn_copy(key, sizeof(key), w->p, w->len);
			scn_diag_w(c, w, "a query's expect is KEY=VALUE… or one outcome list", SCN_E_UNEXPECTED,
				   key);
			return;
		}
		scn_copy(key, sizeof(key), w->p, (size_t)(eq - w->p));
		spec = scn_spec_find(call->query, key);
		if (!spec) {
			if (!scn_hint_best(key, scn_cand_spec, call->query, false, hint, sizeof(hint)))
				scn_cand_list(scn_cand_spec, call->query, "it reports: ", hint, sizeof(hint));
			scn_diag_w(c, w, hint, SCN_E_UNKNOWN_RESULT, call->name, key);
			return;
		}
		if (has_spec(st->conds, st->nconds, spec)) {
			scn_diag_w(c, w, NULL, SCN_E_KEY_TWICE, key);
			return;
		}
		if (st->nconds == SCN_ARGS_MAX) {
			scn_diag_w(c, w, NULL, SCN_E_TOO_MANY, "results", SCN_ARGS_MAX);
			return;
		}
		a = &st->conds[st->nconds];
		a->spec = spec;
		if (scn_value_parse(c, w, (size_t)(eq - w->p) + 1, spec, st->node, &a->v) < 0)
			return;
		st->nconds++;
	}
}

static void parse_expect(struct scn_ctx *c, const struct scn_call *call, size_t i, struct scn_step *st)
{
	const struct scn_line *ln = c->ln;
	const struct scn_word *w = &ln->w[i];
	char word[64];

	st->expect_col = w->col;
	if (i + 1 == ln->nwords) {
		scn_diag_w(c, w, "ok, an errno name, a completion status, …", SCN_E_EXPECT_EMPTY);
		return;
	}
	w++;
	if (memchr(w->p, '=', w->len)) {
		if (call->query) {
			parse_conds(c, call, i + 1, st);
			return;
		}
		scn_copy(word, sizeof(word), w->p, w->len);
		scn_diag_w(c, w, "only queries (and rpmem_create, rpmem_open) report KEY=VALUE results",
			   SCN_E_CANNOT_PRODUCE, word,
			   call->name);
		return;
	}
	parse_outcomes(c, call, w, st);
	for (size_t k = i + 2; k < ln->nwords && !c->stmt_errs; k += 2) {
		scn_copy(word, sizeof(word), ln->w[k].p, ln->w[k].len);
		if (!WORD_IS(&ln->w[k], "seen")) {
			scn_diag_w(c, &ln->w[k], "join alternatives with '|' and no blanks; over a repeat block's "
				   "iterations, 'seen A|B' after them", SCN_E_UNEXPECTED, word);
			return;
		}
		parse_seen(c, &ln->w[k], k + 1 < ln->nwords ? &ln->w[k + 1] : NULL, st);
	}
}

/* A word after NAME: KEY=VALUE, a bare key, or a positional value. */
static void parse_arg(struct scn_ctx *c, const struct scn_call *call, const struct scn_word *w,
		      struct scn_step *st)
{
	char key[SCN_NAME_MAX + 1], hint[224];
	const char *eq = memchr(w->p, '=', w->len);
	size_t klen = eq ? (size_t)(eq - w->p) : w->len;
	const struct scn_arg_spec *spec = NULL;
	struct scn_arg *a = &st->args[st->nargs];

	scn_copy(key, sizeof(key), w->p, klen < sizeof(key) ? klen : sizeof(key) - 1);
	if (scn_is_ident(w->p, klen))
		spec = scn_spec_find(call->args, key);
	if (!eq && !(spec && spec->kinds == SCN_V_BARE)) {
		if (spec) {
			scn_diag_w(c, w, NULL, SCN_E_NEEDS_VALUE, key);
			return;
		}
		for (spec = call->args; spec->key; spec++)
			if ((spec->flags & SCN_A_POS) && !has_spec(st->args, st->nargs, spec))
				break;
		if (!spec->key)
			spec = NULL;
		else
			eq = w->p - 1; /* the value starts at the word */
	}
	if (!spec) {
		if (!scn_is_ident(w->p, klen)) {
			char word[64];

			scn_copy(word, sizeof(word), w->p, w->len);
			if (eq || !scn_hint_expect(word, hint, sizeof(hint)))
				snprintf(hint, sizeof(hint), "arguments are KEY=VALUE");
			scn_diag_w(c, w, hint, SCN_E_UNEXPECTED, word);
			return;
		}
		if (!(!eq && scn_hint_expect(key, hint, sizeof(hint))) &&
		    !scn_hint_best(key, scn_cand_spec, call->args, false, hint, sizeof(hint)) &&
		    !scn_hint_transposed(key, scn_cand_spec, call->args, hint, sizeof(hint)))
			scn_cand_list(scn_cand_spec, call->args, call->args->key ? "it takes: " : "it takes no keys",
				      hint, sizeof(hint));
		scn_diag_w(c, w, hint, SCN_E_UNKNOWN_KEY, key, call->name);
		return;
	}
	if (has_spec(st->args, st->nargs, spec)) {
		scn_diag_w(c, w, NULL, SCN_E_KEY_TWICE, spec->key);
		return;
	}
	if (st->nargs == SCN_ARGS_MAX) {
		scn_diag_w(c, w, NULL, SCN_E_TOO_MANY, "arguments", SCN_ARGS_MAX);
		return;
	}
	a->spec = spec;
	if (spec->kinds == SCN_V_BARE) {
		if (eq) {
			scn_diag_w(c, w, NULL, SCN_E_TAKES_NO_VALUE, key);
			return;
		}
		a->v = (struct scn_value){ .kind = SCN_V_BARE, .line = c->ln->no, .col = w->col,
					   .node = -1, .obj = -1 };
		st->nargs++;
		return;
	}
	if ((size_t)(eq + 1 - w->p) == w->len) {
		scn_diag_w(c, w, NULL, SCN_E_NEEDS_VALUE, key);
		return;
	}
	if ((spec->flags & SCN_A_NEW) ? scn_decl_parse(c, w, (size_t)(eq + 1 - w->p), &a->v) == 0
				       : scn_value_parse(c, w, (size_t)(eq + 1 - w->p), spec, st->node, &a->v) == 0)
		st->nargs++;
}

/* The NAME word of a step on node (its own node for connect's operands). */
static void parse_name(struct scn_ctx *c, const struct scn_call *call, const struct scn_word *w,
		       struct scn_step *st, bool *create)
{
	char name[SCN_NAME_MAX];

	scn_copy(name, sizeof(name), w->p, w->len);
	if (!scn_name_ok(c, w, name))
		return;
	if (call->kind != SCN_KIND_CREATE) {
		scn_ref_resolve(c, w, name, st->node, call->cls, call->name, &st->obj);
		return;
	}
	int32_t o = scn_obj_find(c->f, st->node, name);

	if (o >= 0 && c->f->objs[o].live) {
		scn_diag_w(c, w, "destroy it first or use another name", SCN_E_LIVE, name,
			   c->f->nodes[st->node], c->f->objs[o].line);
		return;
	}
	*create = true;
}

static bool expects_ok(const struct scn_step *st)
{
	return scn_step_expects(st, (struct m_outcome){ M_OUT_OK, 0 });
}

/* connect NODE.QP NODE.QP: the first operand; returns the index of the next word. */
static size_t parse_connect(struct scn_ctx *c, struct scn_step *st)
{
	const struct scn_line *ln = c->ln;
	const struct scn_call *call = scn_call_get((size_t)scn_call_find("connect"));
	const struct scn_arg_spec *peer = &call->args[0];
	struct scn_value v;

	if (ln->nwords < 3 || !memchr(ln->w[1].p, '.', ln->w[1].len) ||
	    !memchr(ln->w[2].p, '.', ln->w[2].len) || memchr(ln->w[2].p, '=', ln->w[2].len)) {
		scn_diag_w(c, &ln->w[0], "e.g. connect a.q b.q", SCN_E_CONNECT_OPERANDS);
		return 0;
	}
	if (scn_value_parse(c, &ln->w[1], 0, peer, 0, &v) < 0)
		return 0;
	st->node = (uint8_t)v.node;
	st->obj = v.obj;
	st->obj_col = v.col;
	return 2;
}

/* What the head of a step line gave: its call, where its arguments start, its NAME. */
struct step_head {
	const struct scn_call *call;
	uint32_t call_col;
	size_t next;                   /* the first word after the head */
	const struct scn_word *name_w; /* NAME, or NULL */
	bool create;                   /* the step creates NAME */
};

/* The head "NODE: call [NAME]" (not connect) into st and *h. Returns 0, or -1 after a diagnostic. */
static int parse_head(struct scn_ctx *c, struct scn_step *st, struct step_head *h)
{
	const struct scn_line *ln = c->ln;
	const struct scn_word *w0 = &ln->w[0];
	const char *colon = memchr(w0->p, ':', w0->len);
	size_t nlen = (size_t)(colon - w0->p);
	char word[SCN_NAME_MAX + 8], hint[224];
	struct scn_word callw;
	int node, ci;

	scn_copy(word, sizeof(word), w0->p, nlen < sizeof(word) ? nlen : sizeof(word) - 1);
	node = scn_node_find(c->f, word);
	if (node < 0) {
		scn_unknown_node(c, w0, word);
		return -1;
	}
	st->node = (uint8_t)node;
	if (colon + 1 < w0->p + w0->len) {
		callw = (struct scn_word){ colon + 1, w0->len - nlen - 1, w0->col + (uint32_t)nlen + 1 };
	} else if (ln->nwords > 1) {
		callw = ln->w[1];
		h->next = 2;
	} else {
		snprintf(hint, sizeof(hint), "e.g. '%s: alloc_pd pd'", word);
		scn_diag_w(c, w0, hint, SCN_E_NEEDS_TEXT, word, "a call");
		return -1;
	}
	scn_copy(word, sizeof(word), callw.p, callw.len);
	ci = callw.len < sizeof(word) ? scn_call_find(word) : -ENOENT;
	if (ci < 0) {
		if (!scn_hint_best(word, scn_cand_call, NULL, false, hint, sizeof(hint)) &&
		    !scn_hint_transposed(word, scn_cand_call, NULL, hint, sizeof(hint)))
			snprintf(hint, sizeof(hint), "scenarios/README.md lists the calls");
		scn_diag_w(c, &callw, hint, SCN_E_UNKNOWN_CALL, word);
		return -1;
	}
	h->call = scn_call_get((size_t)ci);
	h->call_col = callw.col;
	if (h->call->kind == SCN_KIND_CONNECT) {
		scn_diag_w(c, &callw, "write 'connect a.q b.q' without 'NODE:'", SCN_E_CONNECT_OPERANDS);
		return -1;
	}
	st->call = (uint16_t)ci;
	if (!h->call->cls)
		return 0;
	if (h->next >= ln->nwords || memchr(ln->w[h->next].p, '=', ln->w[h->next].len) ||
	    WORD_IS(&ln->w[h->next], "expect")) {
		snprintf(hint, sizeof(hint), "e.g. '%s: %s x …'", c->f->nodes[st->node], h->call->name);
		scn_diag_w(c, h->next < ln->nwords ? &ln->w[h->next] : &callw, hint, SCN_E_NEEDS_NAME, h->call->name,
			   scn_class_a(h->call->cls), scn_class_str((enum scn_class)(h->call->cls & -h->call->cls)));
		return -1;
	}
	h->name_w = &ln->w[h->next++];
	st->obj_col = h->name_w->col;
	parse_name(c, h->call, h->name_w, st, &h->create);
	return 0;
}

/* The checks of a whole step: required keys given, a connection between two nodes. */
static void check_step(struct scn_ctx *c, const struct step_head *h, const struct scn_step *st)
{
	if (c->stmt_errs == 0)
		for (const struct scn_arg_spec *s = h->call->args; s->key; s++)
			if ((s->flags & SCN_A_REQ) && !has_spec(st->args, st->nargs, s)) {
				scn_diag(c, c->ln->no, h->call_col, NULL, SCN_E_MISSING_KEY, h->call->name, s->key);
				break;
			}
	if (c->stmt_errs == 0 && h->call->kind == SCN_KIND_CONNECT) {
		const struct scn_value *peer = scn_step_arg(st, "peer");

		if (peer && peer->node == st->node)
			scn_diag(c, c->ln->no, peer->col, NULL, SCN_E_SAME_NODE);
	}
}

void scn_parse_step(struct scn_ctx *c)
{
	const struct scn_line *ln = c->ln;
	struct scn_step st = { .line = ln->no, .col = ln->w[0].col, .obj = -1 };
	struct step_head h = { .call_col = ln->w[0].col, .next = 1 };
	char word[SCN_NAME_MAX + 8];

	if (WORD_IS(&ln->w[0], "connect")) {
		st.call = (uint16_t)scn_call_find("connect");
		h.call = scn_call_get(st.call);
		h.next = parse_connect(c, &st);
		if (h.next == 0)
			return;
	} else if (parse_head(c, &st, &h)) {
		return;
	}
	for (size_t i = h.next; i < ln->nwords; i++) {
		if (WORD_IS(&ln->w[i], "expect")) {
			parse_expect(c, h.call, i, &st);
			break;
		}
		parse_arg(c, h.call, &ln->w[i], &st);
	}
	check_step(c, &h, &st);
	/* Declare a created name even when the line has errors: no cascade of unknown names. */
	if (h.create) {
		scn_copy(word, sizeof(word), h.name_w->p, h.name_w->len);
		st.obj = scn_obj_add(c, word, st.node, h.call->cls, h.name_w);
		if (st.obj >= 0)
			c->f->objs[st.obj].live = c->stmt_errs == 0 && expects_ok(&st);
	}
	scn_decl_make(c, &st, c->stmt_errs == 0 && expects_ok(&st));
	if (c->stmt_errs || add_step(c, &st) < 0) {
		free_args(st.args, st.nargs);
		free_args(st.conds, st.nconds);
		return;
	}
	if (h.call->destroys && st.obj >= 0 && expects_ok(&st))
		c->f->objs[st.obj].live = 0;
}

/* ------------------------------------------------------- accessors -- */

const struct scn_call *scn_step_call(const struct scn_step *s)
{
	return scn_call_get(s->call);
}

int scn_step_expects(const struct scn_step *s, struct m_outcome o)
{
	if (s->nexpect == 0)
		return s->nconds == 0 || model_outcome_success(o);
	for (size_t i = 0; i < s->nexpect; i++)
		if (s->expect[i].kind == o.kind && s->expect[i].code == o.code)
			return 1;
	return 0;
}

int scn_step_narrows(const struct scn_step *s)
{
	return s->nexpect > 0 || s->nconds > 0;
}

/* shrink.c — delta debugging over steps, nodes and values (shrink.h). */
#include "harness/explore/shrink.h"
#include "harness/explore/cands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- steps -- */

/* Does step s of f use an object created by a step not kept? */
static int uses_dropped(const struct scn_file *f, const struct scn_step *s, const unsigned char *keep)
{
	const struct scn_call *call = scn_step_call(s);

	if (s->obj >= 0 && call->kind != SCN_KIND_CREATE && !keep[f->objs[s->obj].step])
		return 1;
	for (size_t i = 0; i < s->nargs; i++) {
		const struct scn_value *v = &s->args[i].v;

		if ((v->kind & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR)) && !keep[f->objs[v->obj].step])
			return 1;
	}
	for (size_t i = 0; i < s->nconds; i++) {
		const struct scn_value *v = &s->conds[i].v;

		if ((v->kind & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR)) && !keep[f->objs[v->obj].step])
			return 1;
	}
	return 0;
}

/* The case c with steps [from, to) removed, and every step using what they created. */
static int without(const struct ex_case *c, const struct scn_file *f, size_t from, size_t to, struct cands *cs)
{
	unsigned char *keep = calloc(c->n ? c->n : 1, 1);
	struct ex_case out = { .nnodes = c->nnodes };
	int rc = 0;

	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		keep[i] = i < from || i >= to;
		if (keep[i] && uses_dropped(f, &f->steps[i], keep))
			keep[i] = 0;
		if (keep[i])
			rc = rc ? rc : ex_case_push(&out, c->lines[i]);
	}
	free(keep);
	if (!rc && out.n && out.n < c->n)
		return cands_add(cs, &out);
	ex_case_free(&out);
	return rc;
}

/* Does value v name an object in set? Then add the others of the step (see slice_cand). */
static int refers(const struct scn_value *v, const unsigned char *set)
{
	return (v->kind & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR)) && set[v->obj];
}

/* Add every object step s names to set. */
static void add_refs(const struct scn_step *s, unsigned char *set)
{
	if (s->obj >= 0)
		set[s->obj] = 1;
	for (size_t i = 0; i < s->nargs; i++)
		if (s->args[i].v.kind & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR))
			set[s->args[i].v.obj] = 1;
}

/*
 * The backward slice of the last (deciding) step: only the steps that
 * create or use an object it depends on, transitively (one candidate that
 * often takes most of the noise away at once).
 */
static int slice_cand(const struct ex_case *c, const struct scn_file *f, struct cands *cs)
{
	unsigned char *set = calloc(f->nobjs ? f->nobjs : 1, 1), *keep = calloc(c->n ? c->n : 1, 1);
	struct ex_case out = { .nnodes = c->nnodes };
	int rc = set && keep ? 0 : -ENOMEM;

	for (size_t i = c->n; !rc && i-- > 0;) {
		const struct scn_step *s = &f->steps[i];
		int use = i + 1 == c->n || (s->obj >= 0 && set[s->obj]);

		for (size_t k = 0; k < s->nargs && !use; k++)
			use = refers(&s->args[k].v, set);
		if (use) {
			keep[i] = 1;
			add_refs(s, set);
		}
	}
	for (size_t i = 0; !rc && i < c->n; i++)
		if (keep[i])
			rc = ex_case_push(&out, c->lines[i]);
	free(set);
	free(keep);
	if (!rc && out.n < c->n)
		return cands_add(cs, &out);
	ex_case_free(&out);
	return rc;
}

/*
 * The slice, then the case cut into gran chunks, each removed (delta
 * debugging's complements; gran doubles when a round finds nothing, up to
 * one step per chunk). gran 0: every granularity at once (n/2, n/4, …, 1).
 */
static int step_cands(const struct ex_case *c, const struct scn_file *f, unsigned gran, struct cands *cs)
{
	int rc = slice_cand(c, f, cs);

	for (size_t k = gran ? (c->n + gran - 1) / gran : c->n / 2 ? c->n / 2 : 1; !rc; k /= 2) {
		k = k ? k : 1;
		for (size_t i = 0; i < c->n && !rc; i += k)
			rc = without(c, f, i, i + k < c->n ? i + k : c->n, cs);
		if (gran || k == 1)
			break;
	}
	return rc;
}

/* ------------------------------------------------------------- nodes -- */

/*
 * Is p (in line) a reference to node letter l: the step's node ("a: "), a
 * NODE.NAME, or a bare node value (peer=a)?
 */
static int node_ref(const char *line, const char *p, char l)
{
	int start = p == line || p[-1] == ' ' || p[-1] == '=';

	return start && *p == l && (p[1] == ':' || p[1] == '.' || (p > line && p[-1] == '=' && (!p[1] || p[1] == ' ')));
}

/* line with node letter `from` renamed `to` (every node_ref). */
static void rename_node(char *line, char from, char to)
{
	for (char *p = line; *p; p++)
		if (node_ref(line, p, from))
			*p = to;
}

/* Does any step use node letter l? */
static int node_used(const struct ex_case *c, char l)
{
	for (size_t i = 0; i < c->n; i++)
		for (const char *p = c->lines[i]; *p; p++)
			if (node_ref(c->lines[i], p, l))
				return 1;
	return 0;
}

/* An unused node removed, the later ones renamed down (at most one candidate). */
static int node_cands(const struct ex_case *c, struct cands *cs)
{
	for (unsigned k = 0; k < c->nnodes && c->nnodes > 1; k++) {
		struct ex_case out;
		int rc;

		if (node_used(c, ex_node_name(k)[0]))
			continue;
		rc = ex_case_copy(&out, c);
		if (rc)
			return rc;
		for (size_t i = 0; i < out.n; i++)
			for (unsigned j = k + 1; j < c->nnodes; j++)
				rename_node(out.lines[i], ex_node_name(j)[0], ex_node_name(j - 1)[0]);
		out.nnodes--;
		return cands_add(cs, &out);
	}
	return 0;
}

/* ------------------------------------------------------------ values -- */

/* c with word w (byte range [at, at+len) of line i) replaced by repl ("" drops it and its blank). */
static int replaced(const struct ex_case *c, size_t i, size_t at, size_t len, const char *repl, struct cands *cs)
{
	struct ex_case out;
	char buf[EX_LINE_MAX];
	const char *l = c->lines[i];
	int rc;

	if (!repl[0] && at > 0) {
		at--; /* the blank before */
		len++;
	}
	if ((size_t)snprintf(buf, sizeof(buf), "%.*s%s%s", (int)at, l, repl, l + at + len) >= sizeof(buf))
		return 0;
	rc = ex_case_copy(&out, c);
	if (rc)
		return rc;
	snprintf(out.lines[i], EX_LINE_MAX, "%s", buf);
	return cands_add(cs, &out);
}

/* Simpler forms of one KEY=VALUE (or bare) word of line i at [at, at+len). */
static int word_cands(const struct ex_case *c, size_t i, size_t at, size_t len, struct cands *cs)
{
	char w[EX_LINE_MAX], r[2 * EX_LINE_MAX + 32];
	char *eq, *plus;
	int rc;

	snprintf(w, sizeof(w), "%.*s", (int)len, c->lines[i] + at);
	eq = strchr(w, '=');
	if (!eq)
		return strcmp(w, "zero_based") == 0 ? replaced(c, i, at, len, "", cs) : 0;
	*eq++ = '\0';
	if (strcmp(w, "byte") == 0 || strcmp(w, "state") == 0)
		return 0;
	rc = replaced(c, i, at, len, "", cs); /* optional arguments go (the parser refuses required ones) */
	plus = strrchr(eq, '+');
	if (!rc && plus && strtoull(plus + 1, NULL, 10) > 0) {
		unsigned long long off = strtoull(plus + 1, NULL, 10);

		snprintf(r, sizeof(r), "%s=%.*s+0", w, (int)(plus - eq), eq);
		rc = replaced(c, i, at, len, r, cs);
		if (!rc && off / 2) {
			snprintf(r, sizeof(r), "%s=%.*s+%llu", w, (int)(plus - eq), eq, off / 2);
			rc = replaced(c, i, at, len, r, cs);
		}
	} else if (!rc && eq[0] >= '0' && eq[0] <= '9' && strspn(eq, "0123456789") == strlen(eq)) {
		unsigned long long v = strtoull(eq, NULL, 10);

		for (unsigned long long nv = 0; !rc && v > 0 && nv < v; nv = nv ? v : v / 2) {
			snprintf(r, sizeof(r), "%s=%llu", w, nv);
			rc = replaced(c, i, at, len, r, cs);
			if (nv == v / 2)
				break;
		}
	} else if (!rc && (eq[0] < '0' || eq[0] > '9') && !strchr(eq, '.') && !plus) {
		/* a flag set: each flag dropped, or none */
		char *save = NULL, flags[EX_LINE_MAX], *f[16];
		size_t nf = 0;

		snprintf(flags, sizeof(flags), "%s", eq);
		for (char *t = strtok_r(flags, "|", &save); t && nf < 16; t = strtok_r(NULL, "|", &save))
			f[nf++] = t;
		for (size_t k = 0; k < nf && nf > 1 && !rc; k++) {
			size_t off = (size_t)snprintf(r, sizeof(r), "%s=", w);

			for (size_t j = 0, first = 1; j < nf; j++)
				if (j != k) {
					off += (size_t)snprintf(r + off, sizeof(r) - off, "%s%s", first ? "" : "|", f[j]);
					first = 0;
				}
			rc = replaced(c, i, at, len, r, cs);
		}
		if (!rc && nf >= 1 && strcmp(w, "access") == 0) {
			snprintf(r, sizeof(r), "%s=0", w);
			rc = replaced(c, i, at, len, r, cs);
		}
	}
	return rc;
}

/* The same for the QP connected to node.q (a failed request takes both ends to ERR). */
static int peer_to_err(const struct ex_case *c, size_t i, char node, const char *q, struct cands *cs)
{
	char me[EX_LINE_MAX], r[EX_LINE_MAX];

	snprintf(me, sizeof(me), "%c.%.*s", node, (int)strcspn(q, " "), q);
	for (size_t k = 0; k < i; k++) {
		const char *l = c->lines[k], *a, *b;

		if (strncmp(l, "connect ", 8) != 0)
			continue;
		a = l + 8;
		b = a + strcspn(a, " ");
		b += *b == ' ';
		if (strncmp(a, me, strlen(me)) == 0 && a[strlen(me)] == ' ')
			a = b; /* the other operand */
		else if (!(strncmp(b, me, strlen(me)) == 0 && (b[strlen(me)] == ' ' || !b[strlen(me)])))
			continue;
		snprintf(r, sizeof(r), "%c: modify_qp %.*s state=ERR", a[0], (int)strcspn(a + 2, " "), a + 2);
		return replaced(c, i, 0, strlen(c->lines[i]), r, cs);
	}
	return 0;
}

/* A work request on QP Q replaced by the state its failure leaves Q in: "N: modify_qp Q state=ERR". */
static int post_to_err(const struct ex_case *c, size_t i, struct cands *cs)
{
	static const char *const posts[] = { "write", "read", "cas", "fadd", "send", "recv", "bind_mw", "local_inv" };
	const char *l = c->lines[i], *call = l + 3, *q;
	char r[EX_LINE_MAX];
	size_t cl = strcspn(call, " ");
	int rc;

	if (strncmp(l, "connect ", 8) == 0 || strlen(l) < 4)
		return 0;
	for (size_t k = 0; k < sizeof(posts) / sizeof(posts[0]); k++)
		if (strlen(posts[k]) == cl && strncmp(call, posts[k], cl) == 0) {
			q = call + cl + 1;
			if (strcmp(posts[k], "bind_mw") == 0) { /* bind_mw W qp=Q */
				q = strstr(l, " qp=");
				if (!q)
					return 0;
				q += 4;
			}
			snprintf(r, sizeof(r), "%.3smodify_qp %.*s state=ERR", l, (int)strcspn(q, " "), q);
			rc = replaced(c, i, 0, strlen(l), r, cs);
			return rc ? rc : peer_to_err(c, i, l[0], q, cs);
		}
	return 0;
}

/* Every argument word of every step (not the node, the call, the object, connect's operands). */
static int value_cands(const struct ex_case *c, struct cands *cs)
{
	int rc = 0;

	for (size_t i = 0; i < c->n && !rc; i++) {
		const char *l = c->lines[i];
		size_t at = 0, word = 0, skip = 3; /* "a: call NAME", "connect a.q b.q" */

		rc = post_to_err(c, i, cs);
		while (l[at] && !rc) {
			size_t len = strcspn(l + at, " ");

			if (word >= skip && len)
				rc = word_cands(c, i, at, len, cs);
			at += len;
			at += strspn(l + at, " ");
			word++;
		}
	}
	return rc;
}

/* ------------------------------------------------------------ rounds -- */

/* Keep the candidates the model can run as written (well-formed, every step reached). */
static int model_filter(const struct ex_stack *s, struct cands *cs)
{
	struct ex_eval *own, *e = ex_stack_eval(s, &own);
	size_t k = 0;
	int rc = 0;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < cs->n; i++) {
		int ok;

		rc = ex_eval_run(&cs->v[i], &s->judge, &s->judge, NULL, e);
		if (rc)
			break;
		ok = e->f && e->r.v == V_PASS;
		ex_eval_free(e);
		if (ok)
			cs->v[k++] = cs->v[i];
		else
			ex_case_free(&cs->v[i]);
	}
	for (size_t i = k; rc && i < cs->n; i++)
		ex_case_free(&cs->v[i]);
	cs->n = k;
	free(own);
	return rc;
}

enum { PH_STEPS, PH_NODES, PH_MERGE, PH_REHOME, PH_WR, PH_VALUES, PH_RENAME, PH_COUNT_ };

/* A phase that reads the object graph, on the parse f of cur. */
static int graph_cands(int ph, unsigned gran, const struct ex_case *cur, const struct scn_file *f, struct cands *cs)
{
	switch (ph) {
	case PH_STEPS:
		return step_cands(cur, f, gran, cs);
	case PH_MERGE:
		return merge_cands(cur, f, cs);
	case PH_REHOME:
		return rehome_cands(cur, f, cs);
	case PH_WR:
		return wr_cands(cur, f, cs);
	default:
		return rename_cands(cur, f, cs);
	}
}

static int phase_cands(int ph, unsigned gran, const struct ex_case *cur, struct cands *cs)
{
	struct scn_file *f;
	int rc;

	if (ph == PH_NODES)
		return node_cands(cur, cs);
	if (ph == PH_VALUES)
		return value_cands(cur, cs);
	rc = ex_case_parse(cur, &f); /* for the object graph */
	if (!rc && f)
		rc = graph_cands(ph, gran, cur, f, cs);
	scn_free(f);
	return rc;
}

/* A cheap stack: every granularity at once; a costly one: two chunks first (few cases a round). */
static unsigned gran_start(const struct ex_stack *s)
{
	return s->costly ? 2 : 0;
}

int ex_shrinker_init(const struct ex_stack *s, struct ex_shrinker *sh, const struct ex_case *c,
		     const struct ex_sig *sig, unsigned max_rounds)
{
	int rc;

	memset(sh, 0, sizeof(*sh));
	sh->sig = *sig;
	sh->max_rounds = max_rounds ? max_rounds : 256;
	sh->gran = gran_start(s);
	sh->st.from = c->n;
	rc = ex_case_copy(&sh->cur, c);
	if (rc)
		return rc;
	if (sig->step + 1 < sh->cur.n)
		sh->cur.n = sig->step + 1; /* what follows the deciding step cannot matter */
	sh->st.to = sh->cur.n;
	return 0;
}

/* Move the pending candidates into a cands list and back (the list type is this file's). */
static struct cands pending(struct ex_shrinker *sh)
{
	struct cands cs = { .n = sh->n, .cap = sh->n, .v = sh->cands };

	sh->cands = NULL;
	sh->n = 0;
	return cs;
}

int ex_shrinker_next(const struct ex_stack *s, struct ex_shrinker *sh)
{
	int rc = 0;

	while (!sh->done && !sh->n) {
		struct cands cs = { 0 };

		if (sh->st.rounds >= sh->max_rounds) {
			sh->done = 1;
			break;
		}
		if (sh->ph == PH_COUNT_) {
			if (!sh->progress) {
				sh->done = 1;
				break;
			}
			sh->progress = 0;
			sh->ph = PH_STEPS;
		}
		rc = phase_cands(sh->ph, sh->gran, &sh->cur, &cs);
		if (!rc)
			rc = model_filter(s, &cs);
		if (rc) {
			cands_free(&cs);
			return rc;
		}
		if (!cs.n) {
			cands_free(&cs);
			sh->ph++;
			continue;
		}
		/* A candidate that still crashes the guest costs a boot, one that hangs the hang timeout:
		 * only the first few of the round (the smallest) for those on a real stack. */
		size_t cap = s->kind == EX_STACK_MODEL ? cs.n : sh->sig.cls == EX_CRASH ? 6 :
			     sh->sig.cls == EX_TIMEOUT ? 2 : cs.n;

		while (cs.n > cap)
			ex_case_free(&cs.v[--cs.n]);
		sh->cands = cs.v;
		sh->n = cs.n;
	}
	return 0;
}

int ex_shrinker_feed(const struct ex_stack *s, struct ex_shrinker *sh, const struct result *rs)
{
	struct cands cs = pending(sh);
	long best = -1;
	int rc = 0;

	sh->st.rounds++;
	sh->st.candidates += (unsigned)cs.n;
	for (size_t i = 0; !rc && i < cs.n; i++) {
		struct ex_sig got;

		rc = ex_stack_sig(s, &cs.v[i], &rs[i], &got);
		if (!rc && ex_sig_same(&got, &sh->sig) && (best < 0 || cs.v[i].n < cs.v[best].n)) {
			best = (long)i;
			sh->best_step = got.step;
		}
	}
	if (!rc && best >= 0) {
		ex_case_free(&sh->cur);
		sh->cur = cs.v[best];
		memset(&cs.v[best], 0, sizeof(cs.v[best]));
		if (sh->best_step + 1 < sh->cur.n)
			sh->cur.n = sh->best_step + 1; /* it diverges earlier now: the rest cannot matter */
		sh->st.to = sh->cur.n;
		sh->progress = 1; /* the same phase again while it helps */
		if (sh->gran > 2)
			sh->gran--;
	} else if (!rc && sh->ph == PH_STEPS && sh->gran && sh->gran < sh->cur.n) {
		sh->gran = sh->gran * 2 < sh->cur.n ? sh->gran * 2 : (unsigned)sh->cur.n; /* finer */
	} else if (!rc) {
		sh->ph++;
		sh->gran = gran_start(s);
	}
	cands_free(&cs);
	return rc;
}

int ex_shrinker_adopt(struct ex_shrinker *sh, const struct ex_case *c)
{
	struct cands cs = pending(sh);
	struct ex_case copy;
	int rc = ex_case_copy(&copy, c);

	cands_free(&cs);
	if (rc)
		return rc;
	ex_case_free(&sh->cur);
	sh->cur = copy;
	sh->st.to = copy.n;
	sh->done = 1;
	return 0;
}

void ex_shrinker_take(struct ex_shrinker *sh, struct ex_case *out, struct ex_shrink_stats *st)
{
	struct cands cs = pending(sh);

	cands_free(&cs);
	*out = sh->cur;
	*st = sh->st;
	memset(sh, 0, sizeof(*sh));
}

int ex_shrink(struct ex_stack *s, const struct ex_case *c, const struct ex_sig *sig, unsigned max_rounds,
	      struct ex_case *out, struct ex_shrink_stats *st)
{
	struct ex_shrinker sh;
	struct ex_case dummy;
	struct ex_eval *own;
	int rc = ex_stack_hold_eval(s, &own);

	if (rc)
		return rc;
	rc = ex_shrinker_init(s, &sh, c, sig, max_rounds);
	while (!rc && !(rc = ex_shrinker_next(s, &sh)) && !sh.done) {
		size_t n = sh.n; /* feed() takes the candidates */
		struct result *rs = calloc(n, sizeof(*rs));

		rc = rs ? ex_stack_run(s, sh.cands, n, rs) : -ENOMEM;
		if (!rc)
			rc = ex_shrinker_feed(s, &sh, rs);
		for (size_t i = 0; rs && i < n; i++)
			result_clear(&rs[i]);
		free(rs);
	}
	ex_shrinker_take(&sh, rc ? &dummy : out, st);
	if (rc)
		ex_case_free(&dummy);
	ex_stack_drop_eval(s, own);
	return rc;
}

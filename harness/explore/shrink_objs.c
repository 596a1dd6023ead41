/* shrink_objs.c — the shrinker's phases over objects and work requests (cands.h). */
#include "harness/explore/cands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cands_free(struct cands *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		ex_case_free(&cs->v[i]);
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

/* Do a and b (as many steps) have the same step lines? (Not their bytes past each line's end: never written.) */
static int same_lines(const struct ex_case *a, const struct ex_case *b)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->lines[i], b->lines[i]) != 0)
			return 0;
	return 1;
}

int cands_add(struct cands *cs, struct ex_case *c)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->v[i].n == c->n && cs->v[i].nnodes == c->nnodes && same_lines(&cs->v[i], c)) {
			ex_case_free(c);
			return 0;
		}
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 32;
		struct ex_case *v = realloc(cs->v, cap * sizeof(*v));

		if (!v) {
			ex_case_free(c);
			return -ENOMEM;
		}
		cs->v = v;
		cs->cap = cap;
	}
	cs->v[cs->n++] = *c;
	memset(c, 0, sizeof(*c));
	return 0;
}

/* ------------------------------------------------- references in a line -- */

/*
 * What reference to object o (index into f->objs) becomes: a name (NULL:
 * kept as written) on node *node (set to o's node before the call).
 */
typedef const char *(*rename_fn)(const struct scn_file *f, int32_t o, const void *ctx, unsigned *node);

static int name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* The object of f named name (len bytes) on node, or -1. */
static int32_t find_obj(const struct scn_file *f, unsigned node, const char *name, size_t len)
{
	for (size_t i = 0; i < f->nobjs; i++)
		if (f->objs[i].node == node && strlen(f->objs[i].name) == len && strncmp(f->objs[i].name, name, len) == 0)
			return (int32_t)i;
	return -1;
}

/*
 * The reference at in (a name of len bytes on node nd; prefixed: written
 * NODE.NAME) as fn rewrites it, appended to out at *o. A reference moved
 * to another node than the step's (node) is written NODE.NAME.
 */
static int put_ref(const struct scn_file *f, unsigned node, unsigned nd, int prefixed, const char *in, size_t len,
		   rename_fn fn, const void *ctx, char *out, size_t cap, size_t *o)
{
	int32_t ob = find_obj(f, nd, in, len);
	unsigned to = nd;
	const char *nn = ob >= 0 ? fn(f, ob, ctx, &to) : NULL;
	int n;

	if (!nn)
		n = prefixed ? snprintf(out + *o, cap - *o, "%s.%.*s", ex_node_name(nd), (int)len, in) :
			       snprintf(out + *o, cap - *o, "%.*s", (int)len, in);
	else if (prefixed || to != node)
		n = snprintf(out + *o, cap - *o, "%s.%s", ex_node_name(to), nn);
	else
		n = snprintf(out + *o, cap - *o, "%s", nn);
	if (n < 0 || (size_t)n >= cap - *o)
		return -E2BIG;
	*o += (size_t)n;
	return 0;
}

/*
 * Line `in` of step node with every reference to an object rewritten by fn,
 * into out: a bare NAME (after a blank or '=') is on the step's node, a
 * NODE.NAME on NODE. The node word ("a:") stays. 0, or -E2BIG (out too
 * small: the candidate is not made).
 */
static int rewrite(const struct scn_file *f, unsigned node, const char *in, rename_fn fn, const void *ctx, char *out,
		   size_t len)
{
	size_t o = 0;

	for (size_t i = 0; in[i];) {
		int start = i == 0 || in[i - 1] == ' ' || in[i - 1] == '=';
		size_t w = 0, k = 0;

		while (start && name_char(in[i + w]))
			w++;
		if (w == 1 && in[i + 1] == '.' && name_char(in[i + 2])) { /* NODE.NAME */
			while (name_char(in[i + 2 + k]))
				k++;
			if (put_ref(f, node, (unsigned)(in[i] - 'a'), 1, in + i + 2, k, fn, ctx, out, len, &o))
				return -E2BIG;
			i += 2 + k;
		} else if (w && in[i + w] != ':') {
			if (put_ref(f, node, node, 0, in + i, w, fn, ctx, out, len, &o))
				return -E2BIG;
			i += w;
		} else {
			if (o + 2 > len)
				return -E2BIG;
			out[o++] = in[i++];
		}
	}
	out[o] = '\0';
	return 0;
}

/*
 * Line i of c rewritten into buf: 0 (keep buf), 1 (the line goes), or
 * -E2BIG (no candidate).
 */
typedef int (*line_fn)(const struct ex_case *c, const struct scn_file *f, size_t i, const void *ctx, char *buf,
		       size_t len);

/* The candidate whose every line is fn's rewrite of c's (none when a line does not fit). 0 or -ENOMEM. */
static int rewritten(const struct ex_case *c, const struct scn_file *f, line_fn fn, const void *ctx, struct cands *cs)
{
	struct ex_case out = { .nnodes = c->nnodes };
	char buf[EX_LINE_MAX];
	int rc = 0;

	for (size_t i = 0; i < c->n && !rc; i++) {
		int r = fn(c, f, i, ctx, buf, sizeof(buf));

		if (r < 0) {
			ex_case_free(&out);
			return 0;
		}
		if (r == 0)
			rc = ex_case_push(&out, buf);
	}
	if (rc) {
		ex_case_free(&out);
		return rc;
	}
	return cands_add(cs, &out);
}

/* ------------------------------------------------------------ merging -- */

struct merge { int32_t drop, keep; };

/* The classes of registered memory: verbs MRs, librpma MRs, uDAPL LMRs. */
#define REGISTRATIONS (SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR)

static const char *merge_name(const struct scn_file *f, int32_t o, const void *ctx, unsigned *node)
{
	const struct merge *m = ctx;

	if (o != m->drop)
		return NULL;
	*node = f->objs[m->keep].node;
	return f->objs[m->keep].name;
}

/* Line i without drop's creation, its references naming keep. */
static int merged_line(const struct ex_case *c, const struct scn_file *f, size_t i, const void *ctx, char *buf,
		       size_t len)
{
	const struct merge *m = ctx;

	if (i == f->objs[m->drop].step)
		return 1;
	return rewrite(f, f->steps[i].node, c->lines[i], merge_name, m, buf, len);
}

int merge_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs)
{
	int rc = 0;

	for (size_t l = 0; l < f->nobjs && !rc; l++)
		for (size_t e = 0; e < f->nobjs && !rc; e++) {
			const struct scn_obj *L = &f->objs[l], *E = &f->objs[e];

			/* Either may go (the model refuses a reference before its creation); memory
			 * registrations across nodes too (a foreign lkey, a target on the issuer's node). */
			if (e != l && (E->node == L->node || (E->cls & REGISTRATIONS)) && E->cls == L->cls &&
			    L->step < c->n)
				rc = rewritten(c, f, merged_line, &(struct merge){ .drop = (int32_t)l, .keep = (int32_t)e },
					       cs);
		}
	return rc;
}

/* ---------------------------------------------------------- rehoming -- */

struct home { int32_t obj, pd; unsigned node; };

static const char *home_name(const struct scn_file *f, int32_t o, const void *ctx, unsigned *node)
{
	const struct home *h = ctx;

	if (o != h->obj)
		return NULL;
	*node = h->node;
	return f->objs[o].name;
}

/*
 * The creation line of registration r moved to node to: its node word, and
 * its protection domain argument (pd=, pz=; none for librpma) naming pd, an
 * object of to (or -1: none needed). 0 or -E2BIG.
 */
static int moved_creation(const struct scn_file *f, const char *line, int32_t r, unsigned to, int32_t pd, char *out,
			  size_t len)
{
	const struct scn_step *s = &f->steps[f->objs[r].step];
	const char *key = NULL, *at, *end;
	int n;

	for (size_t i = 0; i < s->nargs; i++)
		if ((s->args[i].v.kind & SCN_V_OBJ) && (f->objs[s->args[i].v.obj].cls & (SCN_C_PD | SCN_C_DAT_PZ)))
			key = s->args[i].spec->key;
	if (!key || pd < 0)
		n = key ? -1 : snprintf(out, len, "%s%s", ex_node_name(to), line + 1);
	else {
		char k[16];

		snprintf(k, sizeof(k), " %s=", key);
		at = strstr(line, k);
		if (!at)
			return -E2BIG;
		at += strlen(k);
		end = at + strcspn(at, " ");
		n = snprintf(out, len, "%s%.*s%s%s", ex_node_name(to), (int)(at - line - 1), line + 1, f->objs[pd].name, end);
	}
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

/* Line i with registration h->obj created on node h->node instead (in protection domain h->pd there). */
static int rehomed_line(const struct ex_case *c, const struct scn_file *f, size_t i, const void *ctx, char *buf,
			size_t len)
{
	const struct home *h = ctx;

	if (i == f->objs[h->obj].step)
		return moved_creation(f, c->lines[i], h->obj, h->node, h->pd, buf, len);
	return rewrite(f, f->steps[i].node, c->lines[i], home_name, h, buf, len);
}

int rehome_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs)
{
	unsigned steps[SCN_NODES_MAX] = { 0 };
	int rc = 0;

	for (size_t i = 0; i < f->nsteps && i < c->n; i++)
		steps[f->steps[i].node]++;
	for (size_t r = 0; r < f->nobjs && !rc; r++) {
		const struct scn_obj *o = &f->objs[r];
		uint16_t pdc = o->cls == SCN_C_MR ? SCN_C_PD : o->cls == SCN_C_DAT_LMR ? SCN_C_DAT_PZ : 0;

		if (!(o->cls & REGISTRATIONS) || o->step >= c->n)
			continue;
		for (unsigned to = 0; to < c->nnodes && !rc; to++) {
			/* Only towards a node with at least as many steps: the sum of the squares of the
			 * nodes' step counts grows with every move, so moves never cycle. */
			if (to == o->node || steps[to] < steps[o->node])
				continue;
			if (!pdc)
				rc = rewritten(c, f, rehomed_line, &(struct home){ .obj = (int32_t)r, .pd = -1, .node = to },
					       cs);
			for (size_t p = 0; pdc && p < f->nobjs && !rc; p++)
				if (f->objs[p].cls == pdc && f->objs[p].node == to && f->objs[p].step < o->step)
					rc = rewritten(c, f, rehomed_line,
						       &(struct home){ .obj = (int32_t)r, .pd = (int32_t)p, .node = to }, cs);
		}
	}
	return rc;
}

/* ---------------------------------------------------- work requests -- */

/* The QP a post step works on (its NAME, or its qp= argument), or -1. */
static int32_t post_qp(const struct scn_file *f, const struct scn_step *s)
{
	if (s->obj >= 0 && f->objs[s->obj].cls == SCN_C_QP)
		return s->obj;
	for (size_t i = 0; i < s->nargs; i++)
		if ((s->args[i].v.kind & SCN_V_OBJ) && f->objs[s->args[i].v.obj].cls == SCN_C_QP)
			return s->args[i].v.obj;
	return -1;
}

/* c with line i replaced by repl, and line from (> i; none: from <= i) moved to just before it. */
static int with_line(const struct ex_case *c, size_t i, const char *repl, size_t from, struct cands *cs)
{
	struct ex_case out = { .nnodes = c->nnodes };
	int rc = 0;

	for (size_t k = 0; k < c->n && !rc; k++) {
		if (k == from && from > i)
			continue; /* moved */
		if (k == i && from > i)
			rc = ex_case_push(&out, c->lines[from]);
		if (!rc)
			rc = ex_case_push(&out, k == i ? repl : c->lines[k]);
	}
	if (rc) {
		ex_case_free(&out);
		return rc;
	}
	return cands_add(cs, &out);
}

/* Replacements of post step i (on QP q) from local MR m (created after i: moved before it). */
static int wr_from(const struct ex_case *c, const struct scn_file *f, size_t i, int32_t q, int32_t m, struct cands *cs)
{
	const struct scn_step *s = &f->steps[i];
	const char *call = scn_step_call(s)->name, *nn = ex_node_name(s->node);
	char r[EX_LINE_MAX];
	int rc;

	size_t from = f->objs[m].step;

	char lref[2 * SCN_NAME_MAX + 4];

	snprintf(lref, sizeof(lref), "%s%s%s", f->objs[m].node == s->node ? "" : ex_node_name(f->objs[m].node),
		 f->objs[m].node == s->node ? "" : ".", f->objs[m].name); /* another node's: a foreign lkey */
	snprintf(r, sizeof(r), "%s: send %s local=%s+0 len=0", nn, f->objs[q].name, lref);
	rc = with_line(c, i, r, from, cs);
	if (rc || strcmp(call, "write") == 0)
		return rc;
	for (size_t t = 0; t < f->nobjs && !rc; t++)
		if (f->objs[t].cls == SCN_C_MR && f->objs[t].step < i) {
			snprintf(r, sizeof(r), "%s: write %s local=%s+0 remote=%s.%s+0 len=1", nn, f->objs[q].name, lref,
				 ex_node_name(f->objs[t].node), f->objs[t].name);
			rc = with_line(c, i, r, from, cs);
		}
	return rc;
}

int wr_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs)
{
	int rc = 0;

	for (size_t i = 0; i + 1 < c->n && i < f->nsteps && !rc; i++) {
		const struct scn_step *s = &f->steps[i];
		const struct scn_call *call = scn_step_call(s);
		int32_t q;

		/* A SEND is the simplest request; a WRITE may become one (never back: no cycle). */
		if (call->kind != SCN_KIND_POST || call->api != M_FAM_VERBS || strcmp(call->name, "send") == 0 ||
		    (q = post_qp(f, s)) < 0)
			continue;
		for (size_t m = 0; m < f->nobjs && !rc; m++)
			if (f->objs[m].cls == SCN_C_MR && f->objs[m].step + 1 < c->n)
				rc = wr_from(c, f, i, q, (int32_t)m, cs);
	}
	return rc;
}

/* ----------------------------------------------------------- renaming -- */

/* The canonical name of object o: its class letter and its creating step's index. */
static const char *canon_name(const struct scn_file *f, int32_t o, const void *ctx, unsigned *node)
{
	char (*names)[SCN_NAME_MAX] = (char (*)[SCN_NAME_MAX])ctx;

	(void)f;
	(void)node;
	return names[o];
}

static char class_letter(uint16_t cls)
{
	switch (cls) {
	case SCN_C_PD:
		return 'p';
	case SCN_C_MR:
		return 'm';
	case SCN_C_MW:
		return 'w';
	case SCN_C_QP:
		return 'q';
	case SCN_C_RPMA_MR:
		return 'm';
	case SCN_C_RPMA_REMOTE:
		return 'x';
	case SCN_C_RPMA_CONN:
		return 'c';
	case SCN_C_DAT_PZ:
		return 'z';
	case SCN_C_DAT_LMR:
		return 'l';
	case SCN_C_DAT_EP:
		return 'e';
	default:
		return 'o';
	}
}

/* Line i with every object named canonically (ctx: the names). */
static int renamed_line(const struct ex_case *c, const struct scn_file *f, size_t i, const void *ctx, char *buf,
			size_t len)
{
	return rewrite(f, f->steps[i].node, c->lines[i], canon_name, ctx, buf, len);
}

int rename_cands(const struct ex_case *c, const struct scn_file *f, struct cands *cs)
{
	char (*names)[SCN_NAME_MAX] = calloc(f->nobjs ? f->nobjs : 1, SCN_NAME_MAX);
	int rc = names ? 0 : -ENOMEM, same = 1;

	for (size_t o = 0; !rc && o < f->nobjs; o++) {
		snprintf(names[o], SCN_NAME_MAX, "%c%u", class_letter(f->objs[o].cls), f->objs[o].step);
		same &= strcmp(names[o], f->objs[o].name) == 0;
	}
	if (!rc && !same)
		rc = rewritten(c, f, renamed_line, names, cs);
	free(names);
	return rc;
}

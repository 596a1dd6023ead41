/*
 * scngen_pick.c — what the scenario generators share (scngen_int.h): drawing
 * numbers, objects of the case by the model's state, their names, flag sets
 * and offsets and lengths at a buffer's edges. scngen.c (verbs),
 * scngen_api.c (librpma, uDAPL), scngen_mrapi.c and scngen_rpmem.c draw
 * with these.
 */
#include "harness/explore/scngen.h"
#include "harness/explore/scngen_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------- the model's state -- */

/* scngen_int.h */
uint32_t below(struct gctx *x, uint32_t n)
{
	return n ? model_gen_below(x->g, n) : 0;
}

/* Did a step of the prefix destroy object o (another family's object: no model table read here)? */
static int destroyed(const struct gctx *x, int32_t o)
{
	const struct scn_file *f = x->e->f;

	for (size_t i = 0; i < f->nsteps && i < x->e->nseen; i++)
		if (f->steps[i].obj == o && scn_step_call(&f->steps[i])->destroys)
			return 1;
	return 0;
}

/* scngen_int.h */
int obj_live(const struct gctx *x, const struct scn_obj *o, int h)
{
	const struct m_node *nd = &x->m->node[o->node];

	switch (o->cls) {
	case SCN_C_PD:
		return nd->pd[h].live;
	case SCN_C_MR:
		return nd->mr[h].live;
	case SCN_C_MW:
		return nd->mw[h].live;
	case SCN_C_QP:
		return nd->qp[h].live;
	default:
		return !destroyed(x, (int32_t)(o - x->e->f->objs));
	}
}

/* scngen_int.h */
unsigned other(struct gctx *x, unsigned node)
{
	return (node + 1 + below(x, x->nnodes - 1)) % x->nnodes;
}

/* scngen_int.h */
unsigned weighted(struct gctx *x, const unsigned *w, unsigned n)
{
	unsigned total = 0;
	uint32_t r;

	for (unsigned k = 0; k < n; k++)
		total += w[k];
	r = below(x, total);
	for (unsigned k = 0; k < n; k++) {
		if (r < w[k])
			return k;
		r -= w[k];
	}
	return 0;
}

/* scngen_int.h */
int32_t pick(struct gctx *x, unsigned node, uint32_t cls, enum want w, int *h)
{
	int32_t cand[64];
	unsigned n = 0;
	const struct scn_file *f = x->e->f;

	for (size_t i = 0; i < f->nobjs && n < 64; i++) {
		int hi = x->e->eng.h[i];

		if (f->objs[i].node != node || f->objs[i].cls != cls || hi < 0)
			continue;
		if (w == W_LIVE && !obj_live(x, &f->objs[i], hi))
			continue;
		cand[n++] = (int32_t)i;
	}
	if (!n)
		return -1;
	int32_t o = cand[below(x, n)];

	if (h)
		*h = x->e->eng.h[o];
	return o;
}

int act_on(struct gctx *x, unsigned node, uint32_t cls, enum want w, const char *call, const char *tail, char *line,
	   size_t len)
{
	int32_t o = pick(x, node, cls, w, NULL);
	int n;

	if (o < 0)
		return -EAGAIN;
	n = snprintf(line, len, "%s: %s %s%s", ex_node_name(node), call, x->e->f->objs[o].name, tail);
	return n > 0 && (size_t)n < len ? 0 : -EAGAIN;
}

int fill_one(struct gctx *x, unsigned node, uint32_t cls, char *line, size_t len)
{
	int32_t o = pick(x, node, cls, W_LIVE, NULL);

	if (o < 0)
		return -EAGAIN;
	snprintf(line, len, "%s: fill %s byte=%u", ex_node_name(node), x->e->f->objs[o].name,
		 1 + (unsigned)below(x, 254));
	return 0;
}

const char *oname(const struct gctx *x, int32_t o)
{
	return x->e->f->objs[o].name;
}

/* scngen_int.h */
void flags_str(enum scn_table t, uint64_t v, char *buf, size_t len)
{
	const char *name;
	uint64_t val;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; (name = scn_table_name(t, i, &val)) != NULL && off < len; i++)
		if (val && (v & val) == val) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "|" : "", name);
			v &= ~val;
		}
	if (!off)
		snprintf(buf, len, "0");
}

/* scngen_int.h */
uint32_t some_of(struct gctx *x, uint32_t bits)
{
	uint32_t out = 0;

	for (uint32_t b = 1; b && b <= bits; b <<= 1)
		if ((bits & b) && below(x, 2))
			out |= b;
	return out;
}

/* scngen_int.h */
uint64_t edge_off(struct gctx *x, uint64_t len, int atomic)
{
	static const int64_t rel[] = { 0, 0, 0, 8, 64, -8, -64, 0 };
	uint32_t k = below(x, 8);

	if (atomic && below(x, 6) == 0)
		return 4; /* misaligned */
	if (k == 7)
		return len; /* the end itself */
	if (rel[k] < 0)
		return len >= (uint64_t)-rel[k] ? len + (uint64_t)rel[k] : 0;
	return (uint64_t)rel[k] < len ? (uint64_t)rel[k] : 0;
}

/* scngen_int.h */
uint64_t edge_len(struct gctx *x, uint64_t len, uint64_t off)
{
	uint64_t rest = len > off ? len - off : 0;

	switch (below(x, 7)) {
	case 0:
		return 0;
	case 1:
	case 2:
		return 64;
	case 3:
		return 8;
	case 4:
		return rest ? rest : 64;
	case 5:
		return rest + 64; /* across the end */
	default:
		return rest > 4096 ? 4096 : rest ? rest : 8;
	}
}

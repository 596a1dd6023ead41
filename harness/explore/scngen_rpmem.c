/*
 * scngen_rpmem.c — librpmem steps drawn from the prefix's objects and the
 * model's targets (scngen_int.h): pool set files (one part or several,
 * SINGLEHDR / NOHDRS, now and then one that does not parse), creates and
 * opens of them from any node with sizes at and across the usable size,
 * lanes below, at and past nlanes, persist / deep persist / flush / drain /
 * read ranges over the header page, the pool's end and past it, flags
 * librpmem knows and ones it does not, closes and reopens, removes with each
 * flag, and the target going away under an open pool.
 */
#include "harness/explore/scngen_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* P_CREATE, P_OPEN: a set that can take it, arguments librpmem takes; P_ODD_POOL: any set, any arguments. */
enum pk { P_SET, P_CREATE, P_OPEN, P_ODD_POOL, P_CLOSE, P_REMOVE, P_PERSIST, P_FLUSH, P_DRAIN, P_READ, P_FILL,
	  P_SET_ATTR, P_LINK_DOWN, P_COUNT_ };

/* Which pool set files pick_set takes. */
enum want_set { S_ANY, S_NO_POOL, S_CLOSED_POOL };

#define ATTR " attr=5244434b00000000" /* signature "RDCK" over zeros, as the corpus creates pools */

/* The nodes the model holds targets for. */
static unsigned ntargets(const struct gctx *x)
{
	return x->nnodes < M_RPMEM_TARGETS ? x->nnodes : M_RPMEM_TARGETS;
}

/* A pool set file some target declared, as w asks (its target in *t, its slot in *s): 0, or -EAGAIN (none). */
static int pick_set(struct gctx *x, enum want_set w, unsigned *t, unsigned *s)
{
	unsigned cand[M_RPMEM_TARGETS * M_RPMEM_SETS], n = 0;

	for (unsigned i = 0; i < ntargets(x); i++)
		for (unsigned k = 0; k < M_RPMEM_SETS; k++) {
			const struct m_rpmem_set *st = &x->m->rpmem.target[i].set[k];

			if (st->used && (w == S_ANY || (w == S_NO_POOL && !st->exists && !st->malformed) ||
					 (w == S_CLOSED_POOL && st->exists && st->owner < 0)))
				cand[n++] = i * M_RPMEM_SETS + k;
		}
	if (!n)
		return -EAGAIN;
	n = cand[below(x, n)];
	*t = n / M_RPMEM_SETS;
	*s = n % M_RPMEM_SETS;
	return 0;
}

/* A live pool handle of node (its model handle in *h): the object's index, or -1. */
static int32_t live_pool(struct gctx *x, unsigned node, int *h)
{
	int32_t o = pick(x, node, SCN_C_RPMEM_POOL, W_LIVE, h);

	return o >= 0 && *h < x->m->rpmem.nh && x->m->rpmem.h[*h].live ? o : -1;
}

void rpmem_draw(struct gctx *x, unsigned *node, unsigned *kind)
{
	unsigned w[P_COUNT_] = { 0 }, t, s;
	int h, set = pick_set(x, S_ANY, &t, &s) == 0, fresh = pick_set(x, S_NO_POOL, &t, &s) == 0,
	       closed = pick_set(x, S_CLOSED_POOL, &t, &s) == 0, room = x->m->rpmem.nh < M_RPMEM_HANDLES - 1, pool;

	unsigned ready[SCN_NODES_MAX], nready = 0;

	for (unsigned i = 0; i < x->nnodes; i++)
		if (live_pool(x, i, &h) >= 0)
			ready[nready++] = i;
	/* Most steps on a node with an open pool: the data calls are where most rules are. */
	*node = nready && below(x, 4) ? ready[below(x, nready)] : below(x, x->nnodes);
	pool = live_pool(x, *node, &h) >= 0;
	w[P_SET] = fresh ? 1 : 6;
	w[P_CREATE] = fresh && room ? (pool ? 1 : 10) : 0;
	w[P_OPEN] = closed && room ? (pool ? 1 : 8) : 0;
	w[P_ODD_POOL] = set && room ? 2 : 0;
	w[P_REMOVE] = set ? 1 : 0;
	w[P_CLOSE] = pool ? 2 : 0;
	w[P_PERSIST] = w[P_READ] = pool ? 8 : 0;
	w[P_FLUSH] = w[P_FILL] = pool ? 6 : 0;
	w[P_DRAIN] = pool ? 4 : 0;
	w[P_SET_ATTR] = w[P_LINK_DOWN] = pool ? 1 : 0;
	*kind = weighted(x, w, P_COUNT_);
}

static int propose_set(struct gctx *x, unsigned node, char *line, size_t len)
{
	/* Small: the model holds (and copies with every proposal) each existing pool's bytes. */
	static const char *const sizes[] = { "2M", "2M", "2M", "4M" };
	static const char *const opts[] = { "", "", "", "", " option=\"SINGLEHDR\"", " option=\"NOHDRS\"" };
	unsigned parts = below(x, 6) ? 1 : 2 + below(x, 2);

	const char *malformed = below(x, 16) ? "" : " malformed", *opt = opts[below(x, 6)], *size = sizes[below(x, 4)];
	unsigned target = below(x, ntargets(x));

	snprintf(line, len, "%s: rpmem_poolset set=\"s%u.set\" size=%s%s%s%s", ex_node_name(target), x->step, size,
		 parts > 1 ? (parts == 2 ? " parts=2" : " parts=3") : "", opt, malformed);
	(void)node;
	return 0;
}

/*
 * create / open of a set that can take it (the usable size or less, lanes, attributes); odd: of any set,
 * now and then a size across the usable size or below the minimum, lanes NULL, a pool_addr off a page,
 * RPMEM_MAX_NLANES.
 */
static int propose_pool(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	int odd = kind == P_ODD_POOL, create = kind == P_CREATE || (odd && below(x, 2));
	unsigned t, s, nlanes;
	uint64_t usable, size;
	char tail[96] = "";
	const char *attr;

	if (pick_set(x, odd ? S_ANY : create ? S_NO_POOL : S_CLOSED_POOL, &t, &s))
		return -EAGAIN;
	usable = m_rpmem_usable(&x->m->rpmem.target[t].set[s]);
	switch (below(x, odd ? 8 : 3)) {
	case 0:
		size = usable;
		break;
	case 1:
		size = M_RPMEM_MIN_POOL;
		break;
	case 2:
		size = usable < (1u << 20) ? usable : 1u << 20;
		break;
	case 3:
		size = usable + 4096; /* EFBIG */
		break;
	case 4:
		size = below(x, 2) ? 4096 : 0; /* below the minimum */
		break;
	default:
		size = usable < (1u << 20) ? usable : 1u << 20;
		if (below(x, 2))
			snprintf(tail, sizeof(tail), " null_nlanes");
		else if (below(x, 2))
			snprintf(tail, sizeof(tail), " addr_offset=%u", below(x, 2) ? 64u : 4095u);
		else
			snprintf(tail, sizeof(tail), " max_nlanes_env=%u", 1 + (unsigned)below(x, 2));
		break;
	}
	attr = create && (!odd || below(x, 4)) ? ATTR : "";
	nlanes = 1 + (unsigned)below(x, 4);
	snprintf(line, len, "%s: rpmem_%s p%u target=%s set=\"%s\" size=%llu nlanes=%u%s%s", ex_node_name(node),
		 create ? "create" : "open", x->step, ex_node_name(t), x->m->rpmem.target[t].set[s].name,
		 (unsigned long long)size, nlanes, attr, tail);
	return 0;
}

/* An offset in a pool of size bytes: the header page and the first data page, inside, at and past the end. */
static uint64_t pool_off(struct gctx *x, uint64_t size)
{
	static const uint64_t at[] = { 0, 4096, 8192, 8192, 8192 + 64 };

	uint64_t o = at[below(x, 5)];

	if (below(x, 3))
		return o < size ? o : 0;
	return edge_off(x, size, 0);
}

/* A lane: mostly one the pool has, now and then the first past them. */
static unsigned lane(struct gctx *x, unsigned nlanes)
{
	return below(x, 6) ? (unsigned)below(x, nlanes ? nlanes : 1) : nlanes;
}

/* persist, deep persist, flush, read, fill: a range, a lane and (not fill) flags now and then. */
static int propose_data(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	const char *call = kind == P_PERSIST ? (below(x, 4) ? "rpmem_persist" : "rpmem_deep_persist") :
			   kind == P_FLUSH ? "rpmem_flush" : kind == P_READ ? "rpmem_read" : "rpmem_fill";
	const struct m_rpmem_handle *hd;
	const char *flags;
	uint64_t off, n;
	unsigned ln;
	int h;
	int32_t p = live_pool(x, node, &h);

	if (p < 0)
		return -EAGAIN;
	hd = &x->m->rpmem.h[h];
	off = pool_off(x, hd->pool_size);
	n = edge_len(x, hd->pool_size, off);
	if (kind == P_FILL) {
		if (off >= hd->pool_size)
			off = 8192 < hd->pool_size ? 8192 : 0;
		n = n && off + n <= hd->pool_size ? n : hd->pool_size - off < 64 ? hd->pool_size - off : 64;
		snprintf(line, len, "%s: rpmem_fill %s offset=%llu len=%llu byte=%u", ex_node_name(node), oname(x, p),
			 (unsigned long long)off, (unsigned long long)n, 1 + (unsigned)below(x, 254));
		return 0;
	}
	flags = below(x, 6) ? "" : below(x, 2) ? " flags=1" : " flags=2";
	ln = lane(x, hd->nlanes);
	snprintf(line, len, "%s: %s %s offset=%llu len=%llu lane=%u%s", ex_node_name(node), call, oname(x, p),
		 (unsigned long long)off, (unsigned long long)n, ln, flags);
	return 0;
}

static int propose_remove(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const char *const flags[] = { "", "", " flags=1", " flags=2", " flags=3", " flags=4" };
	unsigned t, s;

	if (pick_set(x, S_ANY, &t, &s))
		return -EAGAIN;
	snprintf(line, len, "%s: rpmem_remove target=%s set=\"%s\"%s", ex_node_name(node), ex_node_name(t),
		 x->m->rpmem.target[t].set[s].name, flags[below(x, 6)]);
	return 0;
}

int rpmem_propose(struct gctx *x, unsigned node, unsigned kind, char *line, size_t len)
{
	const char *flags;
	int h;
	int32_t p;

	switch ((enum pk)kind) {
	case P_SET:
		return propose_set(x, node, line, len);
	case P_CREATE:
	case P_OPEN:
	case P_ODD_POOL:
		return propose_pool(x, node, kind, line, len);
	case P_REMOVE:
		return propose_remove(x, node, line, len);
	case P_DRAIN:
		p = live_pool(x, node, &h);
		if (p < 0)
			return -EAGAIN;
		flags = below(x, 8) ? "" : " flags=1";
		snprintf(line, len, "%s: rpmem_drain %s lane=%u%s", ex_node_name(node), oname(x, p),
			 lane(x, x->m->rpmem.h[h].nlanes), flags);
		return 0;
	case P_CLOSE:
		return act_on(x, node, SCN_C_RPMEM_POOL, W_LIVE, "rpmem_close", "", line, len);
	case P_SET_ATTR:
		return act_on(x, node, SCN_C_RPMEM_POOL, W_LIVE, "rpmem_set_attr", below(x, 3) ? ATTR : "", line, len);
	case P_LINK_DOWN:
		return act_on(x, node, SCN_C_RPMEM_POOL, W_LIVE, "rpmem_link_down", "", line, len);
	default:
		return propose_data(x, node, kind, line, len);
	}
}

int rpmem_opening(struct ex_case *c)
{
	char line[64];

	snprintf(line, sizeof(line), "%s: rpmem_poolset set=\"pool.set\" size=2M", ex_node_name(c->nnodes > 1));
	return ex_case_push(c, line);
}

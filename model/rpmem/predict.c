/*
 * rpmem.c — the PMDK librpmem personality (catalog area E): argument checks
 * of create/open with the target's answers (pool set, sizes, header, busy),
 * the data calls' checks in librpmem's order, the sticky error, and what the
 * pool holds afterwards. See model/rpmem.h.
 *
 * Where PMDK 1.12.1's code and its man pages disagree (RPMEM-HDR-2,
 * RPMEM-DEEP-1, RPMEM-READ-1) the generic reading here is the man page's; the
 * code's answer is deviation data of component "PMDK librpmem 1.12.1"
 * (model/profile.c) at the decision parts below. An outcome OK in a
 * decision's set means "this check lets the call go on".
 */
#include "model/rpmem/internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Decision parts (struct m_deviation.part); profile.c writes them as numbers. */
enum {
	PART_GUARD_OFF = 1,   /* RPMEM-HDR-2: header pool, open_attr NULL or zero attributes */
	PART_NOHDRS = 1,      /* RPMEM-DEEP-1: deep_persist below 4096 on a pool without header */
	PART_PAST_POOL = 1,   /* RPMEM-READ-1: a read past pool_size */
	PART_PAST_REGION = 2, /* RPMEM-READ-1: a read past the target's registered region */
	PART_LINK = 1,        /* RPMEM-ERR-1: a data call over broken lanes */
};

#define ALL_FLAGS (M_RPMEM_REMOVE_FORCE | M_RPMEM_REMOVE_POOL_SET)

static const char *const kind_names[M_RPMEM_KIND_COUNT_] = {
	"rpmem_create", "rpmem_open", "rpmem_set_attr", "rpmem_close", "rpmem_remove",
	"rpmem_persist", "rpmem_deep_persist", "rpmem_flush", "rpmem_drain", "rpmem_read",
	"rpmem_fill", "rpmem_link_down", "rpmem_kill", "rpmem_poolset",
};
static const char *const opt_names[] = { "NONE", "SINGLEHDR", "NOHDRS" };

const char *m_rpmem_kind_str(enum m_rpmem_kind k)
{
	return (unsigned)k < M_RPMEM_KIND_COUNT_ ? kind_names[k] : "?";
}

int m_rpmem_kind_parse(const char *name, enum m_rpmem_kind *out)
{
	for (unsigned i = 0; i < M_RPMEM_KIND_COUNT_; i++)
		if (strcasecmp(name, kind_names[i]) == 0) {
			*out = (enum m_rpmem_kind)i;
			return 0;
		}
	return -EINVAL;
}

const char *m_rpmem_opt_str(enum m_rpmem_opt o)
{
	return (unsigned)o < 3 ? opt_names[o] : "?";
}

int m_rpmem_opt_parse(const char *name, enum m_rpmem_opt *out)
{
	for (unsigned i = 0; i < 3; i++)
		if (strcasecmp(name, opt_names[i]) == 0) {
			*out = (enum m_rpmem_opt)i;
			return 0;
		}
	return -EINVAL;
}

/* ------------------------------------------------------------- state -- */

int m_rpmem_init(struct m_rpmem_model *s, unsigned ntargets)
{
	if (ntargets < 1 || ntargets > M_RPMEM_TARGETS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	return m_rpmem_init_zeroed(s, ntargets);
}

int m_rpmem_init_zeroed(struct m_rpmem_model *s, unsigned ntargets)
{
	if (ntargets < 1 || ntargets > M_RPMEM_TARGETS)
		return -EINVAL; /* (s unchanged, as m_rpmem_init leaves it) */
	s->ntargets = (uint8_t)ntargets;
	for (unsigned t = 0; t < ntargets; t++) {
		s->target[t].used = 1;
		s->target[t].max_lanes = 64;
	}
	return 0;
}

void m_rpmem_set_bytes_free(struct m_rpmem_set *st)
{
	m_rpmem_bytes_drop(st->data);
	m_rpmem_bytes_drop(st->unknown);
	st->data = st->unknown = NULL;
}

void m_rpmem_free(struct m_rpmem_model *s)
{
	/* Only what is held (no free(NULL): model_free says why). */
	for (unsigned t = 0; t < M_RPMEM_TARGETS; t++)
		for (unsigned i = 0; i < M_RPMEM_SETS; i++)
			if (s->target[t].set[i].data || s->target[t].set[i].unknown)
				m_rpmem_set_bytes_free(&s->target[t].set[i]);
	for (unsigned h = 0; h < s->nh; h++)
		if (s->h[h].local) {
			m_rpmem_bytes_drop(s->h[h].local);
			s->h[h].local = NULL;
		}
}

int m_rpmem_clone(struct m_rpmem_model *dst, const struct m_rpmem_model *src)
{
	memcpy(dst, src, sizeof(*dst));
	m_rpmem_share_bytes(dst);
	return 0;
}

void m_rpmem_share_bytes(struct m_rpmem_model *dst)
{
	/* Every buffer shared, copied by the first write of either side (bytes.c). */
	for (unsigned t = 0; t < M_RPMEM_TARGETS; t++)
		for (unsigned i = 0; i < M_RPMEM_SETS; i++) {
			struct m_rpmem_set *d = &dst->target[t].set[i];

			d->data = m_rpmem_bytes_share(d->data);
			d->unknown = m_rpmem_bytes_share(d->unknown);
		}
	for (unsigned h = 0; h < dst->nh; h++)
		dst->h[h].local = m_rpmem_bytes_share(dst->h[h].local);
}

struct m_rpmem_set *m_rpmem_set_find(struct m_rpmem_model *s, unsigned t, const char *name)
{
	for (unsigned i = 0; t < s->ntargets && i < M_RPMEM_SETS; i++)
		if (s->target[t].set[i].used && strcmp(s->target[t].set[i].name, name) == 0)
			return &s->target[t].set[i];
	return NULL;
}

const struct m_rpmem_set *m_rpmem_set_cfind(const struct m_rpmem_model *s, unsigned t, const char *name)
{
	return m_rpmem_set_find((struct m_rpmem_model *)s, t, name);
}

int m_rpmem_set_add(struct m_rpmem_model *s, unsigned t, const char *name, enum m_rpmem_opt opt, unsigned nparts,
		    const uint64_t *sizes, int malformed)
{
	if (t >= s->ntargets || nparts < 1 || nparts > M_RPMEM_PARTS || (unsigned)opt > M_RPMEM_OPT_NOHDRS ||
	    !name[0] || strlen(name) >= M_RPMEM_NAME_MAX)
		return -EINVAL;
	if (m_rpmem_set_find(s, t, name))
		return -EEXIST;
	for (unsigned i = 0; i < M_RPMEM_SETS; i++) {
		struct m_rpmem_set *st = &s->target[t].set[i];

		if (st->used)
			continue;
		memset(st, 0, sizeof(*st));
		st->used = 1;
		st->malformed = (uint8_t)!!malformed;
		st->opt = (uint8_t)opt;
		st->nparts = (uint8_t)nparts;
		st->owner = -1;
		strcpy(st->name, name);
		memcpy(st->part, sizes, nparts * sizeof(*sizes));
		st->span = m_rpmem_span(st);
		return 0;
	}
	return -ENOSPC;
}

int m_rpmem_set_max_lanes(struct m_rpmem_model *s, unsigned t, uint32_t max_lanes)
{
	if (t >= s->ntargets || max_lanes < 1)
		return -EINVAL;
	s->target[t].max_lanes = max_lanes;
	return 0;
}

int m_rpmem_damage(struct m_rpmem_model *s, unsigned t, const char *name)
{
	struct m_rpmem_set *st = m_rpmem_set_find(s, t, name);

	if (!st || !st->exists)
		return -ENOENT;
	st->consistent = 0;
	return 0;
}

uint64_t m_rpmem_usable(const struct m_rpmem_set *st)
{
	/* RPMEM-SIZE-1: the parts minus 4096 for every header but the first (part 0's is in the pool): the span. */
	return m_rpmem_span(st);
}

/* Part i's first addressable byte in the pool, and the part-file offset it comes from. */
uint64_t m_rpmem_part_start(const struct m_rpmem_set *st, unsigned i, uint64_t *file_off)
{
	uint64_t start = 0;
	int per_part = st->opt == M_RPMEM_OPT_NONE;

	for (unsigned j = 0; j < i; j++)
		start += st->part[j] - (per_part && j > 0 ? M_RPMEM_HDR : 0);
	*file_off = per_part && i > 0 ? M_RPMEM_HDR : 0;
	return start;
}

uint64_t m_rpmem_span(const struct m_rpmem_set *st)
{
	uint64_t fo;

	return m_rpmem_part_start(st, st->nparts, &fo);
}

int m_rpmem_attr_zero(const struct m_rpmem_attr *a)
{
	static const struct m_rpmem_attr zero;

	return memcmp(a, &zero, sizeof(zero)) == 0;
}

/* A pool set name the target takes: relative, no "..", printable, no blanks. */
static int name_ok(const char *n)
{
	size_t len = strnlen(n, M_RPMEM_NAME_MAX);

	if (len == 0 || len >= M_RPMEM_NAME_MAX || n[0] == '/')
		return 0;
	for (const char *c = n; *c; c++) {
		if (*c <= ' ' || *c > '~')
			return 0;
		if (c[0] == '.' && c[1] == '.' && (c == n || c[-1] == '/') && (c[2] == '/' || !c[2]))
			return 0;
	}
	return 1;
}

uint32_t m_rpmem_nlanes_max(const struct m_rpmem_model *s, const struct m_rpmem_args *a)
{
	uint32_t n = a->nlanes;

	if (a->max_nlanes_env && a->max_nlanes_env < n)
		n = a->max_nlanes_env;
	if (a->target < s->ntargets && s->target[a->target].max_lanes < n)
		n = s->target[a->target].max_lanes;
	return n ? n : 1;
}

int m_rpmem_open_attr(const struct m_rpmem_model *s, unsigned t, const char *name, struct m_rpmem_attr *out)
{
	const struct m_rpmem_set *st = m_rpmem_set_cfind(s, t, name);

	if (!st || !st->exists)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	if (st->has_hdr)
		*out = st->attr;
	return 0;
}

/* -------------------------------------------------------- prediction -- */

/* One alternative decided by rule r (and the rules already in w). */
static void alt1(struct m_pred *out, struct m_outcome o, enum m_effect e, struct m_why w, enum m_rule r)
{
	m_why_add(&w, r);
	m_alt_add(out, o, e, &w, -1);
}

/* The target's part of create and open (RPMEM-ERRNO-1, SIZE-1/2, HDR-1, busy). */
static void pred_target(const struct m_rpmem_model *s, const struct m_rpmem_args *a, struct m_pred *out)
{
	const struct m_rpmem_set *st = m_rpmem_set_cfind(s, a->target, a->set);
	struct m_why w = { 0 };
	int create = a->kind == M_RPMEM_CREATE;

	m_why_add(&w, M_RULE_RPMEM_ERRNO_1);
	if (!name_ok(a->set))
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
	if (!st)
		return alt1(out, O_ERR(ENOENT), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
	if (st->malformed)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
	for (unsigned i = 0; i < st->nparts; i++)
		if (st->part[i] < M_RPMEM_MIN_PART)
			return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_SIZE_2);
	if (m_rpmem_usable(st) < M_RPMEM_MIN_POOL)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_SIZE_2);
	if (create) {
		int want_hdr = !(a->nulls & M_RPMEM_NULL_ATTR) && !m_rpmem_attr_zero(&a->attr);

		if (want_hdr == (st->opt == M_RPMEM_OPT_NOHDRS))
			return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_HDR_1);
		if (st->exists)
			return alt1(out, O_ERR(EEXIST), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
	} else {
		if (!st->exists)
			return alt1(out, O_ERR(ENOENT), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
		if (!st->consistent)
			return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
		if (st->owner >= 0)
			return alt1(out, O_ERR(EBUSY), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1);
	}
	if (m_rpmem_usable(st) < a->pool_size)
		return alt1(out, O_ERR(EFBIG), M_EFF_NONE, w, M_RULE_RPMEM_SIZE_1);
	w = (struct m_why){ 0 };
	m_why_add(&w, M_RULE_RPMEM_NLANES_1);
	alt1(out, O_OK, M_EFF_DO, w, create ? M_RULE_RPMEM_HDR_1 : M_RULE_RPMEM_HDR_2);
}

static int pred_create_open(const struct m_rpmem_model *s, const struct m_rpmem_args *a, struct m_pred *out)
{
	struct m_why w = { 0 };

	if (a->target >= s->ntargets)
		return -EINVAL;
	/* RPMEM-ARGS-1, in rpmem_check_args' order, before any connection. */
	if (!a->pool_addr || a->pool_addr % M_PAGE || a->pool_size % M_PAGE || !a->pool_size ||
	    (a->nulls & M_RPMEM_NULL_NLANES) || !a->nlanes) {
		alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_ARGS_1);
		return 0;
	}
	pred_target(s, a, out);
	if (out->alt[0].out.kind == M_OUT_OK && a->pool_size > M_RPMEM_SPAN_MAX)
		return -EINVAL; /* more bytes than the model holds */
	return 0;
}

static const struct m_rpmem_handle *handle(const struct m_rpmem_model *s, int h)
{
	return h >= 0 && h < s->nh && s->h[h].live ? &s->h[h] : NULL;
}

/* Is the pool of handle hd reachable (its lanes not broken)? */
static int link_up(const struct m_rpmem_model *s, const struct m_rpmem_handle *hd)
{
	return s->target[hd->target].set[hd->set].owner == (int16_t)(hd - s->h);
}

/* A data call that passed every check: the transfer, or a transport failure (RPMEM-ERR-1). */
static void transfer(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_handle *hd,
		     struct m_pred *out, struct m_why w, enum m_rule r)
{
	if (link_up(s, hd))
		return alt1(out, O_OK, M_EFF_DO, w, r);
	struct m_set f = DECIDE(p, RPMEM_ERR_1, PART_LINK, O_ERR(ECONNABORTED), O_ERR(EIO));

	m_why_add(&w, M_RULE_RPMEM_ERR_1);
	m_alts_add(out, &f, M_EFF_QP_ERR, &w, -1);
}

/* Lane, bounds and length checks of persist/flush/deep_persist (RPMEM-PERSIST-1). */
static void pred_tail(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
		      const struct m_rpmem_handle *hd, struct m_pred *out, struct m_why w)
{
	enum m_rule r = a->kind == M_RPMEM_FLUSH ? M_RULE_RPMEM_FLUSH_1
			: a->kind == M_RPMEM_DEEP_PERSIST ? M_RULE_RPMEM_DEEP_1 : M_RULE_RPMEM_PERSIST_1;

	m_why_add(&w, r);
	if (a->lane >= hd->nlanes || a->offset >= hd->pool_size || a->len > hd->pool_size - a->offset)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_PERSIST_1);
	if (a->len == 0)
		return alt1(out, O_OK, M_EFF_NONE, w, M_RULE_RPMEM_PERSIST_1);
	if (a->flags)
		m_why_add(&w, M_RULE_RPMEM_PERSIST_2);
	transfer(s, p, hd, out, w, M_RULE_RPMEM_PERSIST_1);
	/* RPMEM-FLUSH-1: a flush only posts its writes, so over broken lanes it may still return 0
	 * (nothing lands; the failure shows at the drain or a later call that waits) */
	if (a->kind == M_RPMEM_FLUSH && !link_up(s, hd))
		alt1(out, O_OK, M_EFF_NONE, w, M_RULE_RPMEM_FLUSH_1);
}

static int pred_persist(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
			const struct m_rpmem_handle *hd, struct m_pred *out)
{
	struct m_why w = { 0 };
	struct m_set g = { 0 };
	uint32_t okflags = a->kind == M_RPMEM_FLUSH ? M_RPMEM_FLUSH_RELAXED
			   : a->kind == M_RPMEM_PERSIST ? M_RPMEM_PERSIST_RELAXED : 0;

	if (hd->error) {
		m_why_add(&w, M_RULE_RPMEM_ERR_1);
		return alt1(out, O_ERR(hd->error), M_EFF_NONE, w, M_RULE_RPMEM_PERSIST_1), 0;
	}
	if (a->flags & ~okflags)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w,
			    a->kind == M_RPMEM_FLUSH ? M_RULE_RPMEM_FLUSH_1 : M_RULE_RPMEM_PERSIST_1), 0;
	/* The header guard: its decision's set; OK means the guard lets the call on. */
	if (a->offset < M_RPMEM_HDR) {
		if (a->kind == M_RPMEM_DEEP_PERSIST && !hd->hdr) {
			g = DECIDE(p, RPMEM_DEEP_1, PART_NOHDRS, O_OK);
			m_why_add(&w, M_RULE_RPMEM_DEEP_1);
		} else if (hd->hdr && hd->attr_null_or_zero && a->kind != M_RPMEM_DEEP_PERSIST) {
			g = DECIDE(p, RPMEM_HDR_2, PART_GUARD_OFF, O_ERR(EINVAL));
			m_why_add(&w, M_RULE_RPMEM_HDR_2);
		} else if (hd->hdr) {
			g = DECIDE(p, RPMEM_PERSIST_1, PART_STEP, O_ERR(EINVAL));
			m_why_add(&w, M_RULE_RPMEM_HDR_1);
		}
	}
	if (g.n == 0)
		return pred_tail(s, p, a, hd, out, w), 0;
	for (unsigned i = 0; i < g.n; i++)
		if (g.o[i].kind == M_OUT_OK)
			pred_tail(s, p, a, hd, out, w);
		else
			alt1(out, g.o[i], M_EFF_NONE, w, M_RULE_RPMEM_PERSIST_1);
	return 0;
}

static int pred_read(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
		     const struct m_rpmem_handle *hd, struct m_pred *out)
{
	struct m_why w = { 0 };

	m_why_add(&w, M_RULE_RPMEM_READ_1);
	if (hd->error)
		return alt1(out, O_ERR(hd->error), M_EFF_NONE, w, M_RULE_RPMEM_ERR_1), 0;
	if (a->lane >= hd->nlanes)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_READ_1), 0;
	if (a->len == 0)
		return alt1(out, O_OK, M_EFF_NONE, w, M_RULE_RPMEM_READ_1), 0;
	if (a->offset < hd->pool_size && a->len <= hd->pool_size - a->offset)
		return transfer(s, p, hd, out, w, M_RULE_RPMEM_READ_1), 0;
	struct m_set past = DECIDE(p, RPMEM_READ_1, PART_PAST_POOL, O_ERR(EINVAL));
	uint64_t span = s->target[hd->target].set[hd->set].span;

	for (unsigned i = 0; i < past.n; i++) {
		if (past.o[i].kind != M_OUT_OK) {
			alt1(out, past.o[i], M_EFF_NONE, w, M_RULE_RPMEM_READ_1);
			continue;
		}
		if (a->offset < span && a->len <= span - a->offset) {
			transfer(s, p, hd, out, w, M_RULE_RPMEM_READ_1);
			continue;
		}
		struct m_set beyond = DECIDE(p, RPMEM_READ_1, PART_PAST_REGION, O_ERR(EINVAL));

		for (unsigned j = 0; j < beyond.n; j++)
			alt1(out, beyond.o[j], beyond.o[j].code == EINVAL ? M_EFF_NONE : M_EFF_QP_ERR, w,
			     M_RULE_RPMEM_ERR_1);
	}
	return 0;
}

static int pred_drain(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
		      const struct m_rpmem_handle *hd, struct m_pred *out)
{
	struct m_why w = { 0 };

	m_why_add(&w, M_RULE_RPMEM_FLUSH_1);
	if (hd->error)
		return alt1(out, O_ERR(hd->error), M_EFF_NONE, w, M_RULE_RPMEM_ERR_1), 0;
	if (a->flags || a->lane >= hd->nlanes)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_FLUSH_1), 0;
	transfer(s, p, hd, out, w, M_RULE_RPMEM_FLUSH_1);
	return 0;
}

static int pred_set_attr(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_handle *hd,
			 struct m_pred *out)
{
	struct m_why w = { 0 };

	m_why_add(&w, M_RULE_RPMEM_SETATTR_1);
	if (hd->error)
		return alt1(out, O_ERR(hd->error), M_EFF_NONE, w, M_RULE_RPMEM_ERR_1), 0;
	if (!hd->hdr)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_HDR_1), 0;
	transfer(s, p, hd, out, w, M_RULE_RPMEM_SETATTR_1);
	return 0;
}

static int pred_remove(const struct m_rpmem_model *s, const struct m_rpmem_args *a, struct m_pred *out)
{
	const struct m_rpmem_set *st = m_rpmem_set_cfind(s, a->target, a->set);
	struct m_why w = { 0 };
	int force = !!(a->flags & M_RPMEM_REMOVE_FORCE);

	if (a->target >= s->ntargets)
		return -EINVAL;
	m_why_add(&w, M_RULE_RPMEM_REMOVE_1);
	if (a->flags & ~ALL_FLAGS)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_REMOVE_1), 0;
	if (!name_ok(a->set))
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1), 0;
	if (!st)
		return alt1(out, O_ERR(ENOENT), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1), 0;
	if (st->malformed)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_REMOVE_1), 0;
	if (st->owner >= 0)
		return alt1(out, O_ERR(EBUSY), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1), 0;
	if (!force && !st->exists)
		return alt1(out, O_ERR(ENOENT), M_EFF_NONE, w, M_RULE_RPMEM_ERRNO_1), 0;
	if (!force && !st->consistent)
		return alt1(out, O_ERR(EINVAL), M_EFF_NONE, w, M_RULE_RPMEM_REMOVE_1), 0;
	alt1(out, O_OK, M_EFF_DO, w, M_RULE_RPMEM_REMOVE_1);
	return 0;
}

static int predict(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
		   struct m_pred *out)
{
	const struct m_rpmem_handle *hd = handle(s, a->h);
	struct m_why w = { 0 };

	switch (a->kind) {
	case M_RPMEM_CREATE: case M_RPMEM_OPEN:
		return pred_create_open(s, a, out);
	case M_RPMEM_REMOVE:
		return pred_remove(s, a, out);
	case M_RPMEM_POOLSET: /* configuration, not a call: a file the model cannot hold is a scenario error */
		if (a->target >= s->ntargets || a->nparts < 1 || a->nparts > M_RPMEM_PARTS ||
		    a->opt > M_RPMEM_OPT_NOHDRS || !a->set[0] || m_rpmem_set_cfind(s, a->target, a->set))
			return -EINVAL;
		m_alt_add(out, O_OK, M_EFF_DO, &w, -1);
		return 0;
	default:
		break;
	}
	if (!hd || a->kind >= M_RPMEM_KIND_COUNT_)
		return -EINVAL;
	switch (a->kind) {
	case M_RPMEM_SET_ATTR:
		return pred_set_attr(s, p, hd, out);
	case M_RPMEM_CLOSE:
		/* The handle goes either way; a target that went away may make it report so. */
		alt1(out, O_OK, M_EFF_DO, w, M_RULE_RPMEM_CLOSE_1);
		if (!link_up(s, hd))
			alt1(out, O_ERR(ECONNABORTED), M_EFF_DO, w, M_RULE_RPMEM_CLOSE_1);
		return 0;
	case M_RPMEM_PERSIST: case M_RPMEM_DEEP_PERSIST: case M_RPMEM_FLUSH:
		return pred_persist(s, p, a, hd, out);
	case M_RPMEM_DRAIN:
		return pred_drain(s, p, a, hd, out);
	case M_RPMEM_READ:
		return pred_read(s, p, a, hd, out);
	case M_RPMEM_FILL:
		if (a->offset > hd->pool_size || a->len > hd->pool_size - a->offset)
			return -EINVAL;
		m_alt_add(out, O_OK, M_EFF_DO, &w, -1);
		return 0;
	default: /* LINK_DOWN, KILL: events, not calls */
		alt1(out, O_OK, M_EFF_DO, w, M_RULE_RPMEM_CLOSE_1);
		return 0;
	}
}

int m_rpmem_predict(const struct m_rpmem_model *s, const struct m_profile *p, const struct m_rpmem_args *a,
		    struct m_pred *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->res = (struct m_resolved){ .lmr = -1, .tmr = -1, .inv_mw = -1, .rmr = -1, .peer_node = -1,
				       .peer_qp = -1 };
	rc = predict(s, p, a, out);
	for (unsigned i = 0; i < out->n; i++)
		out->alt[i].peer_state = M_NO_PEER; /* no verbs QP is involved */
	return rc;
}

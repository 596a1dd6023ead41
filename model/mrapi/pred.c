/*
 * pred.c — predictions of the MRAPI remote-memory calls (catalog area D).
 *
 * Every call but initialize and set_attribute first needs an initialized
 * node (RMEM-0). Then each call runs its checks; a check is the set its rule
 * allows when its condition holds (an error, or SUCCESS too where the
 * implementation may not check). The spec gives no order between the errors
 * of one call, so under the spec's reading every applicable error is allowed
 * and the call succeeds only when every check may pass; the MCA reference
 * implementation checks in the order the checks are listed here and answers
 * with the first one that fires (reading FIRST_CHECK, a deviation of the
 * profile "mca-ref").
 */
#include "model/internal.h"
#include "model/mrapi/internal.h"

#include <string.h>

#define ST(s) ((struct m_outcome){ M_OUT_MRAPI, (int32_t)(M_MRAPI_##s) })
#define READING(r) ((struct m_outcome){ M_OUT_OK, (int32_t)(M_MRAPI_R_##r) })
#define MAX_CHECKS 12

struct checks {
	unsigned n;
	uint8_t pass_dev; /* resolve's: the deviation (struct m_alt.dev) that let the call past a check, 0 none */
	struct { struct m_set s; enum m_rule rule; } c[MAX_CHECKS];
};

static void check(struct checks *k, struct m_set s, enum m_rule rule)
{
	if (k->n < MAX_CHECKS) {
		k->c[k->n].s = s;
		k->c[k->n].rule = rule;
		k->n++;
	}
}

/* The reading a decision of rule at part gives under p (the first of its set). */
static int reading(const struct m_profile *p, enum m_rule rule, unsigned part)
{
	struct m_set s = m_decide(p, rule, part, &READING(SPEC), 1);

	return s.n ? s.o[0].code : M_MRAPI_R_SPEC;
}

static int is_success(struct m_outcome o)
{
	return o.kind == M_OUT_MRAPI && o.code == M_MRAPI_SUCCESS;
}

static void why1(struct m_why *w, enum m_rule r)
{
	memset(w, 0, sizeof(*w));
	m_why_add(w, r);
}

/*
 * Add the errors of the checks to out under the order reading of rule;
 * return 1 when the call may get past them all (the success path is open).
 * Each error names the deviation that decided it; k->pass_dev the one that
 * opened a check's success path (success_past's).
 */
static int resolve(const struct m_profile *p, enum m_rule order_rule, struct checks *k, struct m_pred *out)
{
	int first = reading(p, order_rule, M_MRAPI_P_ORDER) == M_MRAPI_R_FIRST_CHECK;
	int pass = 1;

	for (unsigned i = 0; i < k->n; i++) {
		int may_pass = 0;
		struct m_why w;

		why1(&w, k->c[i].rule);
		w.dev = k->c[i].s.dev;
		for (unsigned j = 0; j < k->c[i].s.n; j++) {
			if (is_success(k->c[i].s.o[j])) {
				may_pass = 1;
				if (w.dev)
					k->pass_dev = w.dev;
			} else
				m_alt_add(out, k->c[i].s.o[j], M_EFF_NONE, &w, -1);
		}
		if (!may_pass) {
			pass = 0;
			if (first)
				return 0;
		}
	}
	return pass;
}

int m_mrapi_held(const struct m_mrapi_model *st, unsigned n, int s)
{
	return s >= 0 && s < M_MRAPI_SEGS && (st->node[n].held[s / 16] >> (s % 16) & 1);
}
#define held m_mrapi_held

/* RMEM-DELETE-2 / the call's rule: a handle node n holds whose segment lives. */
static void handle_check(const struct m_mrapi_model *st, const struct m_mrapi_args *a, enum m_rule rule,
			 struct checks *k)
{
	if (!held(st, a->node, a->rmem))
		check(k, m_decide(NULL, rule, 0, &ST(ERR_RMEM_INVALID), 1), rule);
	else if (!st->seg[a->rmem].live)
		check(k, DECIDE(NULL, RMEM_DELETE_2, 0, ST(ERR_RMEM_INVALID)), M_RULE_RMEM_DELETE_2);
}

static int seg_ok(const struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	return held(st, a->node, a->rmem) && st->seg[a->rmem].live;
}

static int attached(const struct m_mrapi_model *st, int s, unsigned n)
{
	return st->seg[s].attached >> n & 1;
}

static void success(struct m_pred *out, enum m_rule r, enum m_effect eff)
{
	struct m_why w;

	why1(&w, r);
	m_alt_add(out, ST(SUCCESS), eff, &w, -1);
}

/* The success resolve(k) left open: named by rule r and by the deviation that opened it. */
static void success_past(struct m_pred *out, const struct checks *k, enum m_rule r, enum m_effect eff)
{
	struct m_why w;

	why1(&w, r);
	w.dev = k->pass_dev;
	m_alt_add(out, ST(SUCCESS), eff, &w, -1);
}

/* ----------------------------------------------------------- node -- */

static void pred_initialize(const struct m_mrapi_model *st, const struct m_mrapi_args *a, struct m_pred *out)
{
	int dup = st->node[a->node].init;

	for (unsigned n = 0; n < st->nnodes; n++)
		if (n != a->node && st->node[n].init && st->node[n].domain == a->domain &&
		    st->node[n].node_id == a->node_id)
			dup = 1;
	if (dup) {
		struct m_why w;

		why1(&w, M_RULE_RMEM_NODE_1);
		m_alt_add(out, ST(ERR_NODE_INITIALIZED), M_EFF_NONE, &w, -1);
		return;
	}
	success(out, M_RULE_RMEM_NODE_1, M_EFF_DO);
}

/* ----------------------------------------------------- attributes -- */

static void pred_init_attributes(const struct m_mrapi_args *a, struct m_pred *out)
{
	if (a->nulls & M_MRAPI_NULL_ATTRS || a->attrs < 0) {
		struct m_why w;

		why1(&w, M_RULE_RMEM_ATTR_1);
		m_alt_add(out, ST(ERR_PARAMETER), M_EFF_NONE, &w, -1);
		return;
	}
	success(out, M_RULE_RMEM_ATTR_1, M_EFF_DO);
}

/* RMEM-ATTR-2/3: the number and size checks both attribute calls make. */
static void attr_num_checks(const struct m_mrapi_args *a, enum m_rule rule, struct checks *k)
{
	size_t want = m_mrapi_attr_size(a->attr_num);

	if (!want)
		check(k, m_decide(NULL, rule, 0, &ST(ERR_ATTR_NUM), 1), rule);
	else if (a->attr_size != want)
		check(k, m_decide(NULL, rule, 0, &ST(ERR_ATTR_SIZE), 1), rule);
}

static void pred_set_attribute(const struct m_profile *p, const struct m_mrapi_args *a, struct m_pred *out)
{
	struct checks k = { 0 };

	if (a->nulls & (M_MRAPI_NULL_ATTRS | M_MRAPI_NULL_VALUE) || a->attrs < 0)
		check(&k, DECIDE(NULL, RMEM_ATTR_2, 0, ST(ERR_PARAMETER)), M_RULE_RMEM_ATTR_2);
	attr_num_checks(a, M_RULE_RMEM_ATTR_2, &k);
	if (a->attr_num == M_MRAPI_ATTR_SIZE || a->attr_num == M_MRAPI_ATTR_ATYPE)
		check(&k, DECIDE(NULL, RMEM_ATTR_2, 0, ST(ERR_ATTR_READONLY)), M_RULE_RMEM_ATTR_2);
	if (resolve(p, M_RULE_RMEM_0, &k, out))
		success_past(out, &k, M_RULE_RMEM_ATTR_2, M_EFF_DO);
}

static void pred_get_attribute(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
			       struct m_pred *out)
{
	struct checks k = { 0 };

	if (a->nulls & M_MRAPI_NULL_VALUE)
		check(&k, DECIDE(NULL, RMEM_ATTR_3, 0, ST(ERR_PARAMETER)), M_RULE_RMEM_ATTR_3);
	handle_check(st, a, M_RULE_RMEM_ATTR_3, &k);
	attr_num_checks(a, M_RULE_RMEM_ATTR_3, &k);
	if (resolve(p, M_RULE_RMEM_0, &k, out))
		success_past(out, &k, M_RULE_RMEM_ATTR_3, M_EFF_NONE);
}

/* --------------------------------------------------------- create -- */

static int atype_supported(const struct m_mrapi_model *st, uint32_t t)
{
	return t < M_MRAPI_ATYPE_ANY && (st->atypes >> t & 1);
}

static unsigned live_segs(const struct m_mrapi_model *st)
{
	unsigned c = 0;

	for (unsigned s = 0; s < st->nsegs; s++)
		c += st->seg[s].live;
	return c;
}

static int any_seg_live(const struct m_mrapi_model *st)
{
	for (unsigned s = 0; s < st->nsegs; s++)
		if (st->seg[s].live && st->seg[s].any)
			return 1;
	return 0;
}

/* The live segment with user id (not ANY), or -1. */
static int seg_by_id(const struct m_mrapi_model *st, uint32_t id, int live)
{
	for (int s = (int)st->nsegs - 1; s >= 0; s--)
		if (st->seg[s].live == live && !st->seg[s].any && st->seg[s].id == id)
			return s;
	return -1;
}

static int overlaps(const struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	for (unsigned s = 0; s < st->nsegs; s++) {
		const struct m_mrapi_seg *g = &st->seg[s];

		if (g->live && g->owner == a->node && a->mem < g->mem + g->size && g->mem < a->mem + a->size)
			return 1;
	}
	return 0;
}

static int attrs_bad(const struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	return !(a->nulls & M_MRAPI_NULL_ATTRS) && a->attrs >= 0 && !st->attrs[a->attrs].inited;
}

static void pred_create(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
			struct m_pred *out)
{
	struct checks k = { 0 };

	/* every id but ID_ANY is a user id (MRAPI_MAX_USER_RMEM_ID, the implementation's: 3.12.13) */
	if (a->id == M_MRAPI_ID_ANY && any_seg_live(st))
		check(&k, DECIDE(p, RMEM_CREATE_2, M_MRAPI_P_ANY_AGAIN, ST(SUCCESS)), M_RULE_RMEM_CREATE_2);
	if (a->id != M_MRAPI_ID_ANY && seg_by_id(st, a->id, 1) >= 0)
		check(&k, DECIDE(p, RMEM_CREATE_1, M_MRAPI_P_STEP, ST(ERR_RMEM_EXISTS)), M_RULE_RMEM_CREATE_1);
	if (a->atype == M_MRAPI_ATYPE_ANY)
		check(&k, DECIDE(p, RMEM_CREATE_6, M_MRAPI_P_ATYPE_ANY, ST(SUCCESS)), M_RULE_RMEM_CREATE_6);
	else if (!atype_supported(st, a->atype))
		check(&k, DECIDE(p, RMEM_CREATE_6, M_MRAPI_P_STEP, ST(ERR_RMEM_TYPENOTVALID)), M_RULE_RMEM_CREATE_6);
	else if (a->atype != M_MRAPI_ATYPE_DEFAULT)
		check(&k, DECIDE(p, RMEM_CREATE_6, M_MRAPI_P_ATYPE_OTHER, ST(SUCCESS)), M_RULE_RMEM_CREATE_6);
	if (live_segs(st) >= M_MRAPI_SEG_LIMIT || st->nsegs >= M_MRAPI_SEGS)
		check(&k, DECIDE(p, RMEM_CREATE_1, M_MRAPI_P_STEP, ST(ERR_MEM_LIMIT)), M_RULE_RMEM_CREATE_1);
	else if (live_segs(st) >= M_MRAPI_REF_SEG_LIMIT)
		check(&k, DECIDE(p, RMEM_CREATE_1, M_MRAPI_P_REF_LIMIT, ST(SUCCESS)), M_RULE_RMEM_CREATE_1);
	/* a size mrapi_uint_t cannot carry: no memory behind it can be registered, or the call sees another */
	if (a->size > M_MRAPI_SIZE_MAX)
		check(&k, DECIDE(p, RMEM_CREATE_1, M_MRAPI_P_HUGE, ST(ERR_MEM_LIMIT), ST(ERR_PARAMETER)),
		      M_RULE_RMEM_CREATE_1);
	if (a->nulls & M_MRAPI_NULL_MEM || a->size == 0 || attrs_bad(st, a))
		check(&k, DECIDE(p, RMEM_CREATE_3, M_MRAPI_P_PARAM, ST(ERR_PARAMETER)), M_RULE_RMEM_CREATE_3);
	else if (overlaps(st, a))
		check(&k, DECIDE(p, RMEM_CREATE_4, M_MRAPI_P_OVERLAP, ST(ERR_RMEM_CONFLICT)), M_RULE_RMEM_CREATE_4);
	if (resolve(p, M_RULE_RMEM_CREATE_1, &k, out)) {
		struct m_why w;

		why1(&w, M_RULE_RMEM_CREATE_1);
		w.dev = k.pass_dev;
		m_why_add(&w, M_RULE_RMEM_CREATE_5);
		m_why_add(&w, M_RULE_RMEM_CREATE_6);
		if (a->id == M_MRAPI_ID_ANY)
			m_why_add(&w, M_RULE_RMEM_CREATE_2);
		m_alt_add(out, ST(SUCCESS), M_EFF_DO, &w, -1);
	}
}

/* ------------------------------------------------------------ get -- */

int m_mrapi_get_target(const struct m_mrapi_model *st, const struct m_mrapi_args *a, int *deleted)
{
	int s;

	*deleted = 0;
	if (a->id == M_MRAPI_ID_ANY) {
		for (s = (int)st->nsegs - 1; s >= 0; s--)
			if (st->seg[s].live && st->seg[s].any)
				return s;
		return -1;
	}
	s = seg_by_id(st, a->id, 1);
	if (s < 0)
		s = seg_by_id(st, a->id, 0);
	*deleted = s >= 0 && !st->seg[s].live;
	return s;
}

static void pred_get(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		     struct m_pred *out)
{
	struct checks k = { 0 };
	int deleted, s = m_mrapi_get_target(st, a, &deleted);

	if (a->id == M_MRAPI_ID_ANY)
		check(&k, s >= 0 ? DECIDE(p, RMEM_GET_1, M_MRAPI_P_GET_ANY, ST(ERR_RMEM_ID_INVALID))
				 : DECIDE(NULL, RMEM_GET_1, 0, ST(ERR_RMEM_ID_INVALID)),
		      M_RULE_RMEM_GET_1);
	else if (s < 0)
		check(&k, DECIDE(NULL, RMEM_GET_1, 0, ST(ERR_RMEM_ID_INVALID)), M_RULE_RMEM_GET_1);
	else if (deleted)
		check(&k, DECIDE(p, RMEM_GET_2, M_MRAPI_P_DELETED, ST(ERR_RMEM_ID_INVALID)), M_RULE_RMEM_GET_2);
	if (a->atype == M_MRAPI_ATYPE_ANY || !atype_supported(st, a->atype))
		check(&k, DECIDE(p, RMEM_GET_1, M_MRAPI_P_BAD_ATYPE, ST(ERR_RMEM_ATYPE_INVALID),
				 ST(ERR_RMEM_ATYPE_NOTVALID), ST(ERR_RMEM_TYPENOTVALID)),
		      M_RULE_RMEM_GET_1);
	else if (a->atype != M_MRAPI_ATYPE_DEFAULT)
		check(&k, DECIDE(p, RMEM_GET_1, M_MRAPI_P_ATYPE_OTHER, ST(SUCCESS)), M_RULE_RMEM_GET_1);
	/* a strict buffer and a valid type that is not its own */
	if (s >= 0 && st->seg[s].strict && a->atype != st->seg[s].atype && atype_supported(st, a->atype))
		check(&k, DECIDE(p, RMEM_GET_1, M_MRAPI_P_STRICT, ST(ERR_RMEM_ATYPE)), M_RULE_RMEM_GET_1);
	if (s >= 0 && !st->seg[s].shared && st->seg[s].domain != st->node[a->node].domain)
		check(&k, DECIDE(p, RMEM_DOM_1, M_MRAPI_P_STEP, ST(ERR_DOMAIN_NOTSHARED)), M_RULE_RMEM_DOM_1);
	if (resolve(p, M_RULE_RMEM_0, &k, out)) {
		struct m_why w;

		why1(&w, M_RULE_RMEM_GET_1);
		w.dev = k.pass_dev;
		if (deleted)
			m_why_add(&w, M_RULE_RMEM_GET_2);
		m_alt_add(out, ST(SUCCESS), M_EFF_DO, &w, -1);
	}
}

/* ---------------------------------------- attach / detach / delete -- */

static void pred_attach(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
			struct m_pred *out)
{
	struct checks k = { 0 };

	handle_check(st, a, M_RULE_RMEM_ATTACH_1, &k);
	if (seg_ok(st, a) && attached(st, a->rmem, a->node))
		check(&k, DECIDE(p, RMEM_ATTACH_1, M_MRAPI_P_TWICE, ST(ERR_RMEM_ATTACHED)), M_RULE_RMEM_ATTACH_1);
	if (resolve(p, M_RULE_RMEM_0, &k, out))
		success_past(out, &k, M_RULE_RMEM_ATTACH_1, M_EFF_DO);
}

static void pred_detach(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
			struct m_pred *out)
{
	struct checks k = { 0 };

	if (held(st, a->node, a->rmem) && !st->seg[a->rmem].live && attached(st, a->rmem, a->node)) {
		/*
		 * Deleted while this node was attached: only where a profile's delete
		 * passes over attachments (RMEM-DELETE-1's M_MRAPI_P_OTHERS: the
		 * reference implementation, libmrapi-rdma). MRAPI V0.9.3 4.4.2.8 makes
		 * the state impossible, so its text has no answer: the handle is no
		 * longer valid (INVALID, the reference's: mrapi_rmem_detach checks the
		 * handle first) or the attachment ends (SUCCESS, libmrapi-rdma's).
		 */
		struct m_why w;

		why1(&w, M_RULE_RMEM_DELETE_2);
		m_alt_add(out, ST(ERR_RMEM_INVALID), M_EFF_DO, &w, -1);
		m_alt_add(out, ST(SUCCESS), M_EFF_DO, &w, -1);
		return;
	}
	handle_check(st, a, M_RULE_RMEM_DETACH_1, &k);
	if (seg_ok(st, a) && !attached(st, a->rmem, a->node))
		check(&k, DECIDE(p, RMEM_DETACH_1, M_MRAPI_P_NOTATT, ST(ERR_RMEM_NOTATTACHED)), M_RULE_RMEM_DETACH_1);
	if (resolve(p, M_RULE_RMEM_0, &k, out))
		success_past(out, &k, M_RULE_RMEM_DETACH_1, M_EFF_DO);
}

static void pred_delete(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
			struct m_pred *out)
{
	struct checks k = { 0 };

	handle_check(st, a, M_RULE_RMEM_DELETE_1, &k);
	/*
	 * MRAPI V0.9.3 4.4.2.8 mrapi_rmem_delete: MRAPI_ERR_RMEM_NOTOWNER for a
	 * node that is not the creator, whatever its domain; a profile may
	 * decide the two cases apart (M_MRAPI_P_OWNER_DOMAIN: a node of the
	 * buffer's own domain).
	 */
	if (seg_ok(st, a) && st->seg[a->rmem].owner != a->node) {
		int part = st->node[a->node].domain == st->seg[a->rmem].domain ? M_MRAPI_P_OWNER_DOMAIN : M_MRAPI_P_OWNER;

		check(&k, DECIDE(p, RMEM_DELETE_1, part, ST(ERR_RMEM_NOTOWNER)), M_RULE_RMEM_DELETE_1);
	}
	if (seg_ok(st, a) && (st->seg[a->rmem].attached & ~(1u << st->seg[a->rmem].owner)))
		check(&k, DECIDE(p, RMEM_DELETE_1, M_MRAPI_P_OTHERS, ST(ERR_RMEM_ATTACH)), M_RULE_RMEM_DELETE_1);
	if (resolve(p, M_RULE_RMEM_0, &k, out))
		success_past(out, &k, M_RULE_RMEM_DELETE_1, M_EFF_DO);
}

/* ---------------------------------------------------- flush / sync -- */

static void pred_sync(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		      struct m_pred *out)
{
	struct checks k = { 0 };

	handle_check(st, a, M_RULE_RMEM_SYNC_1, &k);
	if (seg_ok(st, a) && !attached(st, a->rmem, a->node))
		check(&k, DECIDE(NULL, RMEM_SYNC_1, 0, ST(ERR_RMEM_NOTATTACHED)), M_RULE_RMEM_SYNC_1);
	if (resolve(p, M_RULE_RMEM_0, &k, out)) {
		struct m_set s = DECIDE(p, RMEM_SYNC_1, M_MRAPI_P_STEP, ST(SUCCESS), ST(ERR_NOT_SUPPORTED));
		struct m_why w;

		why1(&w, M_RULE_RMEM_SYNC_1);
		w.dev = s.dev;
		m_alts_add(out, &s, M_EFF_NONE, &w, -1);
	}
}

/* ---------------------------------------------------- local store -- */

static int pred_local_store(const struct m_mrapi_model *st, const struct m_mrapi_args *a, struct m_pred *out)
{
	struct m_why w;

	/* RMEM-COH-1: only the creator has a pointer to the buffer; anyone else copies through rmem calls. */
	if (a->rmem < 0 || a->rmem >= st->nsegs || !st->seg[a->rmem].ever || st->seg[a->rmem].owner != a->node ||
	    a->mem > st->seg[a->rmem].size || a->size > st->seg[a->rmem].size - a->mem)
		return -EINVAL;
	why1(&w, M_RULE_RMEM_COH_1);
	m_alt_add(out, O_OK, M_EFF_DO, &w, -1);
	return 0;
}

/* ------------------------------------------------------ read / write -- */

static unsigned outstanding(const struct m_mrapi_model *st, unsigned n)
{
	unsigned c = 0;

	for (unsigned r = 0; r < st->nreqs; r++)
		c += st->req[r].live && st->req[r].node == n;
	return c;
}

/* Has node n a request on seg[s] that has not been reported complete? */
static int request_on(const struct m_mrapi_model *st, unsigned n, int s)
{
	for (unsigned r = 0; r < st->nreqs; r++)
		if (st->req[r].live && !st->req[r].canceled && st->req[r].node == n && st->req[r].rw.rmem == s)
			return 1;
	return 0;
}

/* RMEM-RW-1/3/4: the checks of the transfer itself, in the reference implementation's order. */
static void rw_checks(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		      int ref, struct checks *k)
{
	int is_read = a->call == M_MRAPI_READ || a->call == M_MRAPI_READ_I;
	int small = a->rmem_stride < a->bytes || a->local_stride < a->bytes;

	handle_check(st, a, M_RULE_RMEM_RW_1, k);
	if (a->nstrides > 1 && small)
		check(k, DECIDE(NULL, RMEM_RW_1, 0, ST(ERR_RMEM_STRIDE)), M_RULE_RMEM_RW_1);
	else if (small)
		check(k, DECIDE(p, RMEM_RW_4, M_MRAPI_P_STRIDE_ONE, ST(SUCCESS)), M_RULE_RMEM_RW_4);
	if (seg_ok(st, a) && !attached(st, a->rmem, a->node))
		check(k, DECIDE(NULL, RMEM_RW_1, 0, ST(ERR_RMEM_NOTATTACHED)), M_RULE_RMEM_RW_1);
	if (a->nulls & M_MRAPI_NULL_LOCAL || a->bytes == 0 || (is_read && a->local_size == 0))
		check(k, DECIDE(NULL, RMEM_RW_1, 0, ST(ERR_PARAMETER)), M_RULE_RMEM_RW_1);
	/* a transfer of an earlier _i call may still hold the attachment */
	if (seg_ok(st, a) && reading(p, M_RULE_RMEM_RW_5, M_MRAPI_P_PENDING) != M_MRAPI_R_DONE_AT_POST &&
	    request_on(st, a->node, a->rmem))
		check(k, DECIDE(p, RMEM_RW_1, M_MRAPI_P_BLOCKED, ST(SUCCESS), ST(ERR_RMEM_BLOCKED)), M_RULE_RMEM_RW_1);
	if (!seg_ok(st, a) || ref || a->bytes == 0 || a->nstrides == 0)
		return;
	uint64_t size = st->seg[a->rmem].size;
	uint64_t last = m_mrapi_last_byte(a->rmem_offset, a->bytes, a->nstrides, a->rmem_stride);

	if (last >= size)
		check(k, DECIDE(NULL, RMEM_RW_3, 0, ST(ERR_RMEM_BUFF_OVERRUN)), M_RULE_RMEM_RW_3);
	else if (m_mrapi_literal_end(a) > size)
		check(k, DECIDE(p, RMEM_RW_3, M_MRAPI_P_LITERAL, ST(SUCCESS), ST(ERR_RMEM_BUFF_OVERRUN)),
		      M_RULE_RMEM_RW_3);
	if (is_read && a->local_size &&
	    m_mrapi_last_byte(a->local_offset, a->bytes, a->nstrides, a->local_stride) >= a->local_size)
		check(k, DECIDE(NULL, RMEM_RW_1, 0, ST(ERR_RMEM_BUFF_OVERRUN)), M_RULE_RMEM_RW_1);
}

/* RMEM-RW-4 (c): the reference implementation's bounds, which refuse by copying nothing. */
static int ref_overrun(const struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	int is_read = a->call == M_MRAPI_READ || a->call == M_MRAPI_READ_I;
	uint64_t end = m_mrapi_literal_end(a), size = st->seg[a->rmem].size;

	return is_read ? end + 1 > size : end + a->bytes > size;
}

/* RMEM-RW-5 under AT_COMPLETION: every error the post found is the request's, the post says SUCCESS. */
static void errors_to_request(struct m_pred *out)
{
	for (unsigned i = 0; i < out->n; i++)
		if (!is_success(out->alt[i].out)) {
			out->alt[i].detail = (int8_t)out->alt[i].out.code;
			out->alt[i].out = ST(SUCCESS);
			if (out->alt[i].nrules < M_RULES_MAX)
				out->alt[i].rules[out->alt[i].nrules++] = M_RULE_RMEM_RW_5;
		}
}

static void pred_rw(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		    struct m_pred *out)
{
	int is_i = a->call == M_MRAPI_READ_I || a->call == M_MRAPI_WRITE_I;
	int ref = reading(p, M_RULE_RMEM_RW_4, M_MRAPI_P_BOUNDS) == M_MRAPI_R_REF_BOUNDS;
	struct checks k = { 0 };
	struct m_why w;

	if (is_i && (a->nulls & M_MRAPI_NULL_REQUEST || outstanding(st, a->node) >= M_MRAPI_REQ_LIMIT)) {
		why1(&w, M_RULE_RMEM_RW_5);
		m_alt_add(out, a->nulls & M_MRAPI_NULL_REQUEST ? ST(ERR_PARAMETER) : ST(ERR_REQUEST_LIMIT),
			  M_EFF_NONE, &w, -1);
		return;
	}
	rw_checks(st, p, a, ref, &k);
	int pass = resolve(p, M_RULE_RMEM_RW_4, &k, out);

	if (is_i && reading(p, M_RULE_RMEM_RW_5, M_MRAPI_P_ERR_AT) == M_MRAPI_R_AT_COMPLETION)
		errors_to_request(out);
	if (!pass)
		return;
	if (ref && ref_overrun(st, a)) {
		why1(&w, M_RULE_RMEM_RW_4);
		m_alt_add(out, ST(SUCCESS), M_EFF_NONE, &w, -1);
		return;
	}
	why1(&w, M_RULE_RMEM_RW_2);
	if (is_i)
		m_why_add(&w, M_RULE_RMEM_RW_5);
	m_alt_add(out, ST(SUCCESS), M_EFF_DO, &w, -1);
}

/* --------------------------------------------------------- requests -- */

static int req_ok(const struct m_mrapi_model *st, int r, unsigned node)
{
	return r >= 0 && r < st->nreqs && st->req[r].live && st->req[r].node == node;
}

/* What req r reports when it is found complete (CANCELED for a canceled one). */
static struct m_outcome req_status(const struct m_mrapi_model *st, int r)
{
	return st->req[r].canceled ? ST(ERR_REQUEST_CANCELED)
				   : (struct m_outcome){ M_OUT_MRAPI, st->req[r].status };
}

static void pred_wait_any(const struct m_mrapi_model *st, int pending_ok, const struct m_mrapi_args *a,
			  struct m_pred *out)
{
	struct m_why w;

	why1(&w, M_RULE_RMEM_RW_5);
	if (a->nulls & M_MRAPI_NULL_REQUEST || a->reqs == 0) {
		m_alt_add(out, ST(ERR_PARAMETER), M_EFF_NONE, &w, -1);
		return;
	}
	int invalid = 0;

	for (int r = 0; r < M_MRAPI_REQS; r++)
		invalid |= a->reqs >> r & 1 && !req_ok(st, r, a->node);
	/*
	 * An entry that is no request of the node: MRAPI V0.9.3 4.3.x
	 * mrapi_wait_any names MRAPI_ERR_REQUEST_INVALID for "not a valid
	 * request handle", and says it returns the index of "any outstanding
	 * operation" that "has completed ... the first one it finds", without
	 * saying that it must look at every entry first: both are allowed. The
	 * reference implementation (ke4harper/MxAPI mca-2.0.3 mrapi_vtime.c
	 * mrapi_wait_any) passes over invalid entries and reports the first
	 * completed valid one; when none completes, REQUEST_INVALID covers a
	 * wait that timed out with an invalid entry in the array.
	 */
	if (invalid)
		m_alt_add(out, ST(ERR_REQUEST_INVALID), M_EFF_NONE, &w, -1);
	for (int r = 0; r < M_MRAPI_REQS; r++)
		if (a->reqs >> r & 1 && req_ok(st, r, a->node))
			m_alt_add_detail(out, req_status(st, r), M_EFF_DO, &w, r);
	if (!invalid && pending_ok && a->timeout != M_MRAPI_TIMEOUT_INFINITE)
		m_alt_add(out, ST(TIMEOUT), M_EFF_NONE, &w, -1);
}

static void pred_req(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		     struct m_pred *out)
{
	int pending_ok = reading(p, M_RULE_RMEM_RW_5, M_MRAPI_P_PENDING) != M_MRAPI_R_DONE_AT_POST;
	struct m_why w;

	if (a->call == M_MRAPI_WAIT_ANY) {
		pred_wait_any(st, pending_ok, a, out);
		return;
	}
	why1(&w, M_RULE_RMEM_RW_5);
	if (a->nulls & M_MRAPI_NULL_REQUEST) {
		m_alt_add(out, ST(ERR_PARAMETER), M_EFF_NONE, &w, -1);
		return;
	}
	if (!req_ok(st, a->req, a->node)) {
		m_alt_add(out, ST(ERR_REQUEST_INVALID), M_EFF_NONE, &w, -1);
		return;
	}
	if (a->call == M_MRAPI_CANCEL) {
		m_alt_add(out, st->req[a->req].canceled ? ST(ERR_REQUEST_CANCELED) : ST(SUCCESS),
			  st->req[a->req].canceled ? M_EFF_NONE : M_EFF_DO, &w, -1);
		/* a transfer that may still be under way leaves its target unspecified */
		out->alt[out->n - 1].target_unknown = (uint8_t)pending_ok;
		return;
	}
	m_alt_add(out, req_status(st, a->req), M_EFF_DO, &w, -1);
	if (!pending_ok || st->req[a->req].canceled)
		return;
	if (a->call == M_MRAPI_TEST)
		m_alt_add(out, ST(INCOMPLETE), M_EFF_NONE, &w, -1);
	else if (a->timeout != M_MRAPI_TIMEOUT_INFINITE)
		m_alt_add(out, ST(TIMEOUT), M_EFF_NONE, &w, -1);
}

static int args_ok(const struct m_mrapi_model *st, const struct m_mrapi_args *a)
{
	if (a->node >= st->nnodes || a->call >= M_MRAPI_CALL_COUNT_)
		return 0;
	if (a->attrs >= M_MRAPI_ATTRS || a->rmem >= M_MRAPI_SEGS || a->req >= M_MRAPI_REQS)
		return 0;
	return 1;
}

int m_mrapi_predict(const struct m_mrapi_model *st, const struct m_profile *p, const struct m_mrapi_args *a,
		    struct m_pred *out)
{
	memset(out, 0, sizeof(*out));
	if (!args_ok(st, a))
		return -EINVAL;
	if (a->call == M_MRAPI_LOCAL_STORE)
		return pred_local_store(st, a, out);
	if (a->call == M_MRAPI_INITIALIZE) {
		pred_initialize(st, a, out);
		return 0;
	}
	if (a->call == M_MRAPI_SET_ATTRIBUTE) {
		pred_set_attribute(p, a, out);
		return 0;
	}
	if (!st->node[a->node].init) {
		struct m_why w;

		why1(&w, a->call == M_MRAPI_FINALIZE ? M_RULE_RMEM_NODE_1 : M_RULE_RMEM_0);
		m_alt_add(out, ST(ERR_NODE_NOTINIT), M_EFF_NONE, &w, -1);
		return 0;
	}
	switch (a->call) {
	case M_MRAPI_FINALIZE: success(out, M_RULE_RMEM_NODE_1, M_EFF_DO); break;
	case M_MRAPI_CREATE: pred_create(st, p, a, out); break;
	case M_MRAPI_INIT_ATTRIBUTES: pred_init_attributes(a, out); break;
	case M_MRAPI_GET_ATTRIBUTE: pred_get_attribute(st, p, a, out); break;
	case M_MRAPI_GET: pred_get(st, p, a, out); break;
	case M_MRAPI_ATTACH: pred_attach(st, p, a, out); break;
	case M_MRAPI_DETACH: pred_detach(st, p, a, out); break;
	case M_MRAPI_DELETE: pred_delete(st, p, a, out); break;
	case M_MRAPI_FLUSH: case M_MRAPI_SYNC: pred_sync(st, p, a, out); break;
	case M_MRAPI_READ: case M_MRAPI_READ_I: case M_MRAPI_WRITE: case M_MRAPI_WRITE_I:
		pred_rw(st, p, a, out);
		break;
	default: pred_req(st, p, a, out); break;
	}
	return 0;
}

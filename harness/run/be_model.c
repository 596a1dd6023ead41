/* be_model.c — the reference model as a backend and oracle (be_model.h). */
#include "harness/run/be_model.h"
#include "harness/run/family.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

void bm_generic(const struct m_profile *prof, struct m_profile *gen)
{
	*gen = (struct m_profile){ 0 };
	m_profile_get("generic", 0, gen);
	gen->caps = prof->caps;
}

int bm_init(struct be_model *bm, const struct scn_file *f, const struct m_profile *prof)
{
	int rc;

	/* Each member set (the model, 0.5 MB, zeroed once: by model_init, even when it fails). */
	rc = model_init(&bm->m, (unsigned)f->nnodes);
	if (rc)
		return rc;
	bm->f = f;
	bm->prof = *prof;
	bm_generic(prof, &bm->gen);
	memset(bm->h, 0xff, sizeof(bm->h));       /* every h[i] -1 (intN_t: two's complement) */
	memset(bm->recv, 0xff, sizeof(bm->recv)); /* every recv[i] -1 */
	memset(bm->holder, 0xff, sizeof(bm->holder)); /* -1 */
	return 0;
}

void bm_free(struct be_model *bm)
{
	model_free(&bm->m);
}

int bm_clone(struct be_model *dst, const struct be_model *src, const struct scn_file *f)
{
	/* The members after the model, then the model with MR bytes of its own. */
	size_t at = offsetof(struct be_model, prof);

	memcpy((char *)dst + at, (const char *)src + at, sizeof(*dst) - at);
	dst->f = f;
	return model_clone(&dst->m, &src->m);
}

int16_t bm_handle(const struct be_model *bm, int32_t o)
{
	return o >= 0 && o < (int32_t)SCN_OBJS_MAX ? bm->h[o] : -1;
}

int bm_map(const struct be_model *bm, int32_t o, int16_t *h)
{
	if (o < 0)
		return 0;
	*h = bm_handle(bm, o);
	return *h < 0 ? -ENOENT : 0;
}

/*
 * Translate c into a model operation: its kind, node and the object it acts
 * on (unless the call creates it or takes none) as a model handle, then its
 * family's arguments (family.h: model_op). -ENOENT if an object it needs was
 * never created.
 */
static int to_op(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct scn_call *call = scn_call_get(c->call);
	const struct api_family *fam = api_family_get(call->api);

	memset(op, 0, sizeof(*op));
	op->kind = c->op;
	op->node = c->node;
	op->obj = -1;
	if (c->obj >= 0 && call->kind != SCN_KIND_CREATE && (op->obj = bm_handle(bm, c->obj)) < 0)
		return -ENOENT;
	return fam && fam->model_op ? fam->model_op(bm, c, op) : 0;
}

int bm_predict(const struct be_model *bm, const struct hcall *c, struct m_pred *prof, struct m_pred *gen)
{
	struct m_op op;
	int rc = to_op(bm, c, &op);

	if (rc)
		return rc;
	rc = model_predict(&bm->m, &bm->prof, &op, prof);
	if (rc == 0 && gen)
		rc = model_predict(&bm->m, &bm->gen, &op, gen);
	return rc;
}

/* The scenario classes whose objects share one of the model's per-node tables (pd, mr, mw, qp). */
_Static_assert(BM_HOLD_MAX >= M_MAX_PD && BM_HOLD_MAX >= M_MAX_MR && BM_HOLD_MAX >= M_MAX_MW && BM_HOLD_MAX >= M_MAX_QP,
	       "be_model.h: BM_HOLD_MAX holds every handle of the model's tables");
static const uint16_t tables[BM_TABLES] = {
	SCN_C_PD | SCN_C_DAT_PZ,
	SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR,
	SCN_C_MW | SCN_C_DAT_RMR,
	SCN_C_QP,
};

/*
 * Scenario object o got handle h: any other object of its node and table that
 * had h named a destroyed object whose slot the model gave again
 * (model/verbs/slot.c), so its handle is forgotten (BM_STALE).
 */
static void forget_reused(struct be_model *bm, int32_t o, int16_t h)
{
	const struct scn_obj *me = &bm->f->objs[o];

	for (size_t t = 0; t < BM_TABLES; t++) {
		if (!(tables[t] & me->cls))
			continue;
		/* Only the object last given h there can hold it still (each creation goes
		 * through here): one look, not a walk of every object of the scenario. A
		 * model handle is a slot of its table, below BM_HOLD_MAX (asserted above). */
		int16_t *held = &bm->holder[me->node][t][h];

		if (*held >= 0 && *held != o && bm->h[*held] == h)
			bm->h[*held] = BM_STALE;
		*held = (int16_t)o;
	}
}

int bm_commit(struct be_model *bm, const struct hcall *c, const struct m_pred *p, size_t i)
{
	int created = -1, rc = model_apply(&bm->m, p, i, &created);

	if (rc == 0)
		rc = model_mem_check(&bm->m, NULL); /* the pages written, within the model's bound */

	if (rc == 0 && created >= 0 && c->obj >= 0 && c->obj < (int32_t)SCN_OBJS_MAX) {
		bm->h[c->obj] = (int16_t)created;
		if ((size_t)c->obj < bm->f->nobjs)
			forget_reused(bm, c->obj, (int16_t)created);
		const struct api_family *fam = api_family_get(scn_call_get(c->call)->api);

		if (fam && fam->model_made)
			fam->model_made(bm, c);
	}
	return rc;
}

void bm_qres_objects(const struct be_model *bm, const struct scn_call *call, unsigned node, struct m_qres *q)
{
	int prev = -1; /* scn_spec_index_after's cursor: the model answers in the list's order */

	for (unsigned j = 0; call->query && j < q->n; j++) {
		int i = scn_spec_index_after(call->query, q->r[j].key, prev);

		if (i < 0)
			continue;
		prev = i;
		if (!(call->query[i].kinds & SCN_V_OBJ) || q->r[j].value >= M_QREF_OTHER)
			continue;
		int32_t o = bm_object(bm, node, call->query[i].cls, (int)q->r[j].value);

		q->r[j].value = o >= 0 ? (uint64_t)o : M_QREF_OTHER;
	}
}

int32_t bm_object(const struct be_model *bm, unsigned node, uint32_t cls, int h)
{
	for (size_t i = 0; h >= 0 && i < bm->f->nobjs; i++)
		if (bm->f->objs[i].node == node && bm->f->objs[i].cls == cls && bm->h[i] == h)
			return (int32_t)i;
	return -1;
}

/* The family whose calls create objects of class cls (its model_view, model_buf), or NULL. */
static const struct api_family *class_family(uint32_t cls)
{
	for (size_t i = 0; i < api_family_count(); i++) {
		const struct api_family *f = api_family_get(i);

		for (const struct scn_call *c = f->calls; c && c->name; c++)
			if (c->kind == SCN_KIND_CREATE && c->cls == cls)
				return f;
	}
	return NULL;
}

int bm_buf(const struct be_model *bm, int32_t obj, struct bm_buf *out)
{
	int16_t h = bm_handle(bm, obj);
	unsigned node;

	if (h < 0 || (size_t)obj >= bm->f->nobjs)
		return 0;
	node = bm->f->objs[obj].node;
	if (bm->f->objs[obj].cls & (SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR)) {
		const struct m_mr *mr = &bm->m.node[node].mr[h];

		*out = (struct bm_buf){ .mem = mr->mem, .moff = mr->moff, .len = mr->mem ? mr->len : 0 };
		return 1;
	}
	const struct api_family *fam = class_family(bm->f->objs[obj].cls);

	return fam && fam->model_buf ? fam->model_buf(bm, obj, h, out) : 0;
}

size_t bm_buf_at(const struct bm_buf *b, uint64_t off, size_t n, const uint8_t **bytes, const uint8_t **unknown)
{
	if (!b->mem) {
		*bytes = b->bytes + off;
		*unknown = b->unknown + off;
		return n;
	}
	return model_mem_at(b->mem, b->moff + off, n, bytes, unknown);
}

uint64_t bm_buf_judged_from(const struct bm_buf *b, uint64_t off)
{
	uint64_t at;

	if (!b->mem || b->len <= M_MEM_WHOLE || off >= b->len)
		return off;
	at = model_mem_held_from(b->mem, b->moff + off);
	return at == UINT64_MAX || at - b->moff > b->len ? b->len : at - b->moff;
}

/* ------------------------------------------------- the backend table -- */

static int model_exec(void *be, const struct hcall *c, struct hres *r)
{
	struct be_model *bm = be;
	struct m_pred p;
	size_t pick = 0;
	int rc = bm_predict(bm, c, &p, NULL);

	if (rc)
		return rc;
	/* Simulate a preferred alternative, else the first that keeps the model alive. */
	while (pick + 1 < p.n && p.alt[pick].effect == M_EFF_CRASH)
		pick++;
	for (size_t k = 0; k < c->nprefer; k++) {
		int i = model_pred_find(&p, c->prefer[k]);

		if (i >= 0) {
			pick = (size_t)i;
			break;
		}
	}
	for (size_t i = 0; c->prefer_success && i < p.n; i++)
		if (model_outcome_success(p.alt[i].out)) {
			pick = i;
			break;
		}
	memset(r, 0, sizeof(*r));
	r->out = p.alt[pick].out;
	if (p.alt[pick].peer_recv >= 0 && p.res.peer_node >= 0) {
		int32_t q = bm_object(bm, (unsigned)p.res.peer_node, SCN_C_QP, p.res.peer_qp);

		if (q >= 0)
			bm->recv[q] = p.alt[pick].peer_recv;
	}
	rc = bm_commit(bm, c, &p, pick);
	if (rc == 0 && scn_call_get(c->call)->query && model_outcome_success(r->out)) {
		/* Simulate the answer: what the model itself reports. */
		const struct scn_call *call = scn_call_get(c->call);
		struct m_qres q;
		int prev = -1; /* scn_spec_index_after's cursor */

		if (model_query(&bm->m, &bm->prof, &p.op, &q) == 0 && (bm_qres_objects(bm, call, c->node, &q), 1))
			for (unsigned i = 0; i < q.n; i++) {
				int k = scn_spec_index_after(call->query, q.r[i].key, prev); /* the list's order */

				if (k < 0)
					continue;
				prev = k;
				r->q[k] = q.r[i].mode == M_Q_ZERO ? 0 : q.r[i].mode == M_Q_RANGE ? q.r[i].hi : q.r[i].value;
				if (q.r[i].mode == M_Q_NONZERO && r->q[k] == 0)
					r->q[k] = 1;
				r->qset |= 1u << k;
			}
	}
	return rc;
}

/* The model's view of scenario object obj (backend.h). -ENOENT if it never existed here. */
static int model_view(const struct be_model *bm, int32_t obj, struct hview *v)
{
	int16_t h = bm_handle(bm, obj);

	if (h < 0)
		return -ENOENT;
	const struct m_node *nd = &bm->m.node[bm->f->objs[obj].node];

	*v = (struct hview){ .cls = bm->f->objs[obj].cls };
	switch (v->cls) {
	case SCN_C_MR:
	case SCN_C_RPMA_MR:
	case SCN_C_DAT_LMR: {
		const struct m_mr *mr = &nd->mr[h];

		v->addr = mr->addr;
		v->iova = mr->iova;
		v->len = mr->len;
		v->lkey = mr->lkey;
		v->rkey = mr->rkey;
		break;
	}
	case SCN_C_MW:
	case SCN_C_DAT_RMR: {
		const struct m_mw *mw = &nd->mw[h];

		v->start = mw->start;
		v->len = mw->len;
		v->rkey = mw->rkey;
		v->zero_based = mw->zero_based;
		break;
	}
	case SCN_C_QP:
		v->qpn = nd->qp[h].qpn;
		break;
	case SCN_C_RPMA_REMOTE:
		v->addr = v->iova = nd->rpma.rremote[h].addr;
		v->len = nd->rpma.rremote[h].len;
		v->rkey = nd->rpma.rremote[h].rkey;
		break;
	default: {
		const struct api_family *fam = class_family(v->cls);

		if (fam && fam->model_view)
			return fam->model_view(bm, obj, h, v);
		break;
	}
	}
	return 0;
}

static int model_ref(void *be, int32_t obj, uint64_t off, int remote, uint64_t *addr, uint32_t *key)
{
	struct hview v;
	int rc = model_view(be, obj, &v);

	return rc ? rc : hview_ref(&v, off, remote, addr, key);
}

static int model_attr(void *be, int32_t obj, enum scn_attr a, uint64_t *out)
{
	struct hview v;
	int rc = model_view(be, obj, &v);

	return rc ? rc : hview_attr(&v, a, out);
}

static int model_read(void *be, int32_t obj, uint64_t off, size_t len, uint8_t *buf)
{
	struct bm_buf b;

	if (!bm_buf(be, obj, &b))
		return -ENOENT;
	if (off > b.len || len > b.len - off)
		return -ERANGE;
	for (size_t done = 0; done < len;) {
		const uint8_t *bytes, *unknown;
		size_t k = bm_buf_at(&b, off + done, len - done, &bytes, &unknown);

		memcpy(buf + done, bytes, k);
		done += k;
	}
	return 0;
}

static int model_peer(void *be, int32_t qp, int wait_ms, struct hpeer *out)
{
	struct be_model *bm = be;
	int16_t h = bm_handle(bm, qp);

	(void)wait_ms;
	if (h < 0)
		return -ENOENT;
	out->state = bm->m.node[bm->f->objs[qp].node].qp[h].state;
	out->recv = bm->recv[qp];
	out->wc.known = 0; /* the model's own engine reports no completion fields */
	bm->recv[qp] = -1;
	return 0;
}

static int model_blob(void *be, int32_t obj, uint8_t *buf, size_t cap, size_t *len)
{
	const struct be_model *bm = be;
	int16_t h = bm_handle(bm, obj);
	uint32_t cls = obj >= 0 && (size_t)obj < bm->f->nobjs ? bm->f->objs[obj].cls : 0;
	int rc;

	if (h < 0)
		return -ENOENT;
	if ((cls != SCN_C_RPMA_MR && cls != SCN_C_RPMA_REMOTE) || cap < M_RPMA_DESC_SIZE)
		return -EINVAL;
	rc = model_rpma_descriptor(&bm->m, bm->f->objs[obj].node, cls == SCN_C_RPMA_REMOTE, h, buf);
	if (rc == 0)
		*len = M_RPMA_DESC_SIZE;
	return rc;
}

const struct backend_ops be_model_ops = {
	.name = "model",
	.exec = model_exec,
	.ref = model_ref,
	.attr = model_attr,
	.read = model_read,
	.peer = model_peer,
	.blob = model_blob,
};

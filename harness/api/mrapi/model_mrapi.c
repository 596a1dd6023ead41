/*
 * model_mrapi.c — an MRAPI call's arguments as its model operation (family.h:
 * model_op; struct m_mrapi_args). The model's buffer addresses are abstract:
 * a new rmem buffer of scenario object o starts at (o + 1) << 24, so buffers
 * of one node never overlap unless a step says over=.
 */
#include "harness/api/mrapi/api_mrapi.h"
#include "harness/run/be_model.h"

#include <errno.h>
#include <string.h>

int model_op_mrapi(const struct be_model *bm, const struct hcall *c, struct m_op *op)
{
	const struct hc_mrapi *h = &c->mrapi;
	struct m_mrapi_args *a = &op->mrapi;
	int16_t over = -1;

	a->attrs = a->rmem = a->req = a->local = -1;
	if (bm_map(bm, h->attrs, &a->attrs) || bm_map(bm, h->rmem, &a->rmem) || bm_map(bm, h->local, &a->local) ||
	    bm_map(bm, h->over, &over))
		return -ENOENT;
	a->nulls = h->nulls;
	a->domain = h->domain;
	a->node_id = h->node_id;
	a->id = h->id;
	a->atype = h->atype;
	a->attr_num = h->attr_num;
	a->attr_size = h->attr_size;
	a->attr_value = h->attr_value;
	a->rmem_offset = h->rmem_offset;
	a->local_offset = h->local_offset;
	a->bytes = h->bytes;
	a->nstrides = h->nstrides;
	a->rmem_stride = h->rmem_stride;
	a->local_stride = h->local_stride;
	a->local_size = h->local_size;
	a->timeout = h->timeout;
	switch ((enum m_op_kind)c->op) {
	case M_OP_MRAPI_RMEM_CREATE:
		a->size = h->size;
		a->mem = over >= 0 ? bm->m.mrapi.seg[over].mem + h->over_off : (uint64_t)(c->obj + 1) << 24;
		break;
	case M_OP_MRAPI_LOCAL_STORE:
		a->mem = h->off;
		a->size = h->len;
		a->data = h->stored;
		a->data_len = sizeof(h->stored);
		break;
	default:
		break;
	}
	return 0;
}

int model_view_mrapi(const struct be_model *bm, int32_t obj, int16_t h, struct hview *v)
{
	(void)obj;
	if (v->cls != SCN_C_MRAPI_RMEM)
		return 0; /* requests and attribute structs have no attributes */
	v->addr = v->iova = bm->m.mrapi.seg[h].mem;
	v->len = bm->m.mrapi.seg[h].size;
	return 0;
}

int model_buf_mrapi(const struct be_model *bm, int32_t obj, int16_t h, struct bm_buf *out)
{
	const struct m_mrapi_seg *g = &bm->m.mrapi.seg[h];
	const struct scn_obj *o = &bm->f->objs[obj];
	const struct scn_call *made = o->step < bm->f->nsteps ? scn_call_get(bm->f->steps[o->step].call) : NULL;

	/* the buffer's memory is behind the creator's create handle only (a get gives none, on any node) */
	if (o->cls != SCN_C_MRAPI_RMEM || g->owner != o->node || !made || strcmp(made->name, "mrapi_rmem_create") != 0)
		return 0;
	*out = (struct bm_buf){ .bytes = g->bytes, .unknown = g->unknown,
				.len = g->size < M_MRAPI_BYTES ? g->size : M_MRAPI_BYTES };
	return 1;
}

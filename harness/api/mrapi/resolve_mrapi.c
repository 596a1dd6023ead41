/*
 * resolve_mrapi.c — MRAPI steps -> struct hcall's mrapi arguments (family.h:
 * resolve; backend.h: struct hc_mrapi). Defaults: domain 1, node_id the
 * node's index + 1, atype DEFAULT, one stride of bytes, local_buf_size the
 * local buffer's size, the attribute's own size, wait forever.
 */
#include "harness/api/mrapi/api_mrapi.h"
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <string.h>

/* read/write(_i): local=L+OFF and the transfer's shape. */
static void resolve_rw(struct rsv *r, const struct scn_step *s, struct hc_mrapi *m)
{
	const struct scn_value *v = scn_step_arg(s, "local");
	uint64_t len = 0;

	m->local = rsv_obj(v);
	m->local_offset = v ? (uint32_t)v->num : 0;
	m->bytes = (uint32_t)rsv_num(r, scn_step_arg(s, "bytes"), 0);
	m->rmem_offset = (uint32_t)rsv_num(r, scn_step_arg(s, "rmem_offset"), 0);
	m->nstrides = (uint32_t)rsv_num(r, scn_step_arg(s, "strides"), 1);
	m->rmem_stride = (uint32_t)rsv_num(r, scn_step_arg(s, "rmem_stride"), m->bytes);
	m->local_stride = (uint32_t)rsv_num(r, scn_step_arg(s, "local_stride"), m->bytes);
	m->local_size = 0;
	if ((v = scn_step_arg(s, "local_size"))) {
		m->local_size = rsv_num(r, v, 0);
	} else if (m->local >= 0) {
		rsv_attr(r, m->local, SCN_ATTR_LEN, &len);
		m->local_size = len;
	}
}

int resolve_mrapi(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	struct hc_mrapi *m = &c->mrapi;
	const struct scn_value *v;

	m->over = m->attrs = m->rmem = m->local = -1;
	m->nulls = (uint8_t)rsv_num(r, scn_step_arg(s, "null"), 0);
	switch ((enum m_op_kind)c->op) {
	case M_OP_MRAPI_INITIALIZE:
		m->domain = (uint32_t)rsv_num(r, scn_step_arg(s, "domain"), 1);
		m->node_id = (uint32_t)rsv_num(r, scn_step_arg(s, "node_id"), c->node + 1u);
		break;
	case M_OP_MRAPI_RMEM_CREATE:
		m->size = rsv_num(r, scn_step_arg(s, "size"), 0);
		m->attrs = rsv_obj(scn_step_arg(s, "attrs"));
		v = scn_step_arg(s, "over");
		m->over = rsv_obj(v);
		m->over_off = v ? v->num : 0;
		m->id = (uint32_t)rsv_num(r, scn_step_arg(s, "id"), 0);
		m->atype = (uint32_t)rsv_num(r, scn_step_arg(s, "atype"), 0);
		break;
	case M_OP_MRAPI_RMEM_GET:
		m->id = (uint32_t)rsv_num(r, scn_step_arg(s, "id"), 0);
		m->atype = (uint32_t)rsv_num(r, scn_step_arg(s, "atype"), 0);
		break;
	case M_OP_MRAPI_RMEM_SET_ATTRIBUTE:
	case M_OP_MRAPI_RMEM_GET_ATTRIBUTE:
		m->attr_num = (uint32_t)rsv_num(r, scn_step_arg(s, "attr"), 0);
		m->attr_size = rsv_num(r, scn_step_arg(s, "size"), m_mrapi_attr_size(m->attr_num));
		m->attr_value = rsv_num(r, scn_step_arg(s, "value"), 0);
		break;
	case M_OP_MRAPI_RMEM_READ_I:
	case M_OP_MRAPI_RMEM_WRITE_I:
	case M_OP_MRAPI_RMEM_READ:
	case M_OP_MRAPI_RMEM_WRITE:
		m->rmem = rsv_obj(scn_step_arg(s, "rmem")); /* the _i calls' (the others act on obj) */
		resolve_rw(r, s, m);
		break;
	case M_OP_MRAPI_WAIT:
		m->timeout = (uint32_t)rsv_num(r, scn_step_arg(s, "timeout"), M_MRAPI_TIMEOUT_INFINITE);
		break;
	case M_OP_MRAPI_LOCAL_STORE: {
		uint64_t len = 0;

		m->byte = (uint8_t)rsv_num(r, scn_step_arg(s, "byte"), 0);
		m->off = rsv_num(r, scn_step_arg(s, "off"), 0);
		if ((v = scn_step_arg(s, "len"))) {
			m->len = rsv_num(r, v, 0);
		} else {
			rsv_attr(r, s->obj, SCN_ATTR_LEN, &len);
			m->len = len > m->off ? len - m->off : 0;
		}
		memset(m->stored, m->byte, sizeof(m->stored));
		break;
	}
	default: /* finalize, init_attributes, attach, detach, delete, flush, sync, test, cancel: obj */
		break;
	}
	return r->rc;
}

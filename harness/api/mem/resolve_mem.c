/* resolve_mem.c — fill -> struct hcall (family.h: resolve): the byte, the range (default: to the end). */
#include "harness/api/mem/api_mem.h"
#include "harness/run/resolve_internal.h"

int resolve_mem(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;
	uint64_t len;

	if (c->op != M_OP_FILL)
		return r->rc;
	c->fill.byte = (uint8_t)rsv_num(r, scn_step_arg(s, "byte"), 0);
	c->fill.off = rsv_num(r, scn_step_arg(s, "off"), 0);
	if ((v = scn_step_arg(s, "len"))) {
		c->fill.len = rsv_num(r, v, 0);
	} else {
		rsv_attr(r, s->obj, SCN_ATTR_LEN, &len);
		c->fill.len = len > c->fill.off ? len - c->fill.off : 0;
	}
	return r->rc;
}

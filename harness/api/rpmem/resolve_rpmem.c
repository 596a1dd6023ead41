/*
 * resolve_rpmem.c — librpmem steps -> struct hcall's rpmem arguments
 * (family.h: resolve; backend.h: struct hc_rpmem, the model's struct
 * m_rpmem_args as model/rpmem/rpmem.h documents them).
 *
 * pool_addr is a page-aligned stand-in (RPOOL_BASE) plus addr_offset=, 0 for
 * null_addr: only its alignment and NULL-ness are part of the call
 * (RPMEM-ARGS-1); each engine uses its own memory at that page offset.
 * attr=HEX is written over zero attributes from byte 0 (struct
 * rpmem_pool_attr's layout); without it create/set_attr pass NULL.
 */
#include "harness/api/rpmem/api_rpmem.h"
#include "harness/run/proto.h"
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define RPOOL_BASE 0x10000u
#define DEFAULT_NLANES 4u

static void str_arg(const struct scn_step *s, const char *key, char *out, size_t cap)
{
	const struct scn_value *v = scn_step_arg(s, key);

	snprintf(out, cap, "%s", v && v->str ? v->str : "");
}

/* attr=HEX over zero attributes; NULL (nulls bit) without it. */
static int attr_arg(const struct scn_step *s, struct hc_rpmem *p)
{
	const struct scn_value *v = scn_step_arg(s, "attr");
	int n;

	if (!v) {
		p->a.nulls |= M_RPMEM_NULL_ATTR;
		return 0;
	}
	n = proto_hex_decode(v->str, (uint8_t *)&p->a.attr, sizeof(p->a.attr));
	if (n < 0)
		return -EINVAL;
	p->nattr = (uint8_t)n;
	return 0;
}

/* rpmem_poolset: the step's node is the target; size= each of parts= parts. */
static int poolset(struct rsv *r, const struct scn_step *s, struct hc_rpmem *p, uint8_t node)
{
	const struct scn_value *v = scn_step_arg(s, "option");
	enum m_rpmem_opt opt = M_RPMEM_OPT_NONE;
	uint64_t size = rsv_num(r, scn_step_arg(s, "size"), 0);

	if (v && v->str && m_rpmem_opt_parse(v->str, &opt))
		return -EINVAL;
	p->a.target = node;
	p->a.opt = (uint8_t)opt;
	p->a.nparts = (uint8_t)rsv_num(r, scn_step_arg(s, "parts"), 1);
	p->a.malformed = (uint8_t)rsv_bare(s, "malformed");
	for (unsigned i = 0; i < p->a.nparts && i < M_RPMEM_PARTS; i++)
		p->a.part[i] = size;
	str_arg(s, "set", p->a.set, sizeof(p->a.set));
	return 0;
}

int resolve_rpmem(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	struct hc_rpmem *p = &c->rpmem;
	const struct scn_value *v;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->a.h = -1;
	if ((v = scn_step_arg(s, "target")))
		p->a.target = (uint8_t)v->node;
	str_arg(s, "set", p->a.set, sizeof(p->a.set));
	p->a.offset = rsv_num(r, scn_step_arg(s, "offset"), 0);
	p->a.len = rsv_num(r, scn_step_arg(s, "len"), 0);
	p->a.lane = (uint32_t)rsv_num(r, scn_step_arg(s, "lane"), 0);
	p->a.flags = (uint32_t)rsv_num(r, scn_step_arg(s, "flags"), 0);
	p->a.byte = (uint8_t)rsv_num(r, scn_step_arg(s, "byte"), 0);
	switch ((enum m_op_kind)c->op) {
	case M_OP_RPMEM_POOLSET:
		rc = poolset(r, s, p, c->node);
		break;
	case M_OP_RPMEM_CREATE:
	case M_OP_RPMEM_OPEN:
		p->a.pool_size = rsv_num(r, scn_step_arg(s, "size"), 0);
		p->a.pool_addr = rsv_bare(s, "null_addr") ? 0 : RPOOL_BASE + rsv_num(r, scn_step_arg(s, "addr_offset"), 0);
		p->a.nlanes = (uint32_t)rsv_num(r, scn_step_arg(s, "nlanes"), DEFAULT_NLANES);
		p->a.max_nlanes_env = (uint32_t)rsv_num(r, scn_step_arg(s, "max_nlanes_env"), 0);
		if (rsv_bare(s, "null_nlanes"))
			p->a.nulls |= M_RPMEM_NULL_NLANES;
		if (c->op == M_OP_RPMEM_CREATE)
			rc = attr_arg(s, p);
		else if (rsv_bare(s, "null_attr"))
			p->a.nulls |= M_RPMEM_NULL_ATTR;
		break;
	case M_OP_RPMEM_SET_ATTR:
		rc = attr_arg(s, p);
		break;
	default:
		break;
	}
	if (rc && !r->rc)
		r->rc = rc;
	return r->rc;
}

/*
 * resolve_rpma.c — librpma steps -> struct hcall: objects as scenario object
 * indexes (the local and remote MRs of an I/O step on the step's own node),
 * offsets as numbers, null= as the call's nulls bits (struct hc_rpma), and the
 * descriptor rpma_mr_remote_from_descriptor is given: the source object's
 * bytes as this engine exports them (backend_ops.blob), or bytes=, with
 * addr=, length=, rkey=, usage= written over the fields they name.
 */
#include "harness/api/rpma/api_rpma.h"
#include "harness/run/proto.h"
#include "harness/run/resolve_internal.h"

#include <errno.h>
#include <string.h>

#define F_ALWAYS 3u /* RPMA_F_COMPLETION_ALWAYS, the default */

/* The pointer arguments of each call in their C order (names of the rpma_null table). */
static const struct {
	uint8_t op;
	const char *args[3];
} ptr_args[] = {
	{ M_OP_RPMA_MR_REG, { "PEER", "PTR", "MR_PTR" } },
	{ M_OP_RPMA_MR_DEREG, { "MR_PTR", "MR", NULL } },
	{ M_OP_RPMA_MR_GET_DESC, { "MR", "DESC", NULL } },
	{ M_OP_RPMA_MR_GET_DESC_SIZE, { "MR", "DESC_SIZE", NULL } },
	{ M_OP_RPMA_REMOTE_FROM_DESC, { "DESC", "MR_PTR", NULL } },
	{ M_OP_RPMA_REMOTE_GET_SIZE, { "MR", "SIZE", NULL } },
	{ M_OP_RPMA_REMOTE_GET_FLUSH_TYPE, { "MR", "FLUSH_TYPE", NULL } },
	{ M_OP_RPMA_READ, { "CONN", "DST", "SRC" } },
	{ M_OP_RPMA_WRITE, { "CONN", "DST", "SRC" } },
	{ M_OP_RPMA_ATOMIC_WRITE, { "CONN", "DST", "SRC" } },
	{ M_OP_RPMA_FLUSH, { "CONN", "DST", NULL } },
	{ M_OP_RPMA_DISCONNECT, { "CONN", NULL, NULL } },
};

/* null=F as bits of c->op's pointer arguments; -EINVAL for a name the call has no argument of. */
static int nulls(const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v = scn_step_arg(s, "null");
	uint64_t left = v ? v->num : 0;

	c->rpma.nulls = 0;
	for (size_t i = 0; left && i < sizeof(ptr_args) / sizeof(ptr_args[0]); i++) {
		if (ptr_args[i].op != c->op)
			continue;
		for (unsigned a = 0; a < 3 && ptr_args[i].args[a]; a++) {
			uint64_t bit;

			if (scn_table_lookup(SCN_T_RPMA_NULL, ptr_args[i].args[a], &bit) == 0 && (left & bit)) {
				c->rpma.nulls |= (uint8_t)(1u << a);
				left &= ~bit;
			}
		}
	}
	return left ? -EINVAL : 0;
}

/* An address argument NAME+OFF: the object (on the step's node) and the offset. */
static int addr_arg(const struct scn_step *s, const char *key, int32_t *obj, uint64_t *off)
{
	const struct scn_value *v = scn_step_arg(s, key);

	*obj = -1;
	*off = 0;
	if (!v)
		return 0;
	if (v->node != (int16_t)s->node)
		return -EINVAL; /* librpma objects live in their node's process */
	*obj = v->obj;
	*off = v->neg ? 0 - v->num : v->num;
	return 0;
}

/* Write the n low bytes of x little-endian at off of the descriptor. */
static void patch(struct hcall *c, unsigned off, uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++, x >>= 8)
		c->rpma.desc[off + i] = (uint8_t)x;
	if (c->rpma.ndesc < off + n)
		c->rpma.ndesc = (uint8_t)(off + n);
}

/*
 * The descriptor of rpma_mr_remote_from_descriptor (bytes=, else from='s,
 * else none), the fields given written over it, and the size passed (size=,
 * else the bytes' count, else 21).
 */
static int descriptor(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	static const struct { const char *key; unsigned off, n; } fields[] = {
		{ "addr", 0, 8 }, { "length", 8, 8 }, { "rkey", 16, 4 }, { "usage", 20, 1 },
	};
	const struct scn_value *v;
	size_t n = 0;

	if ((v = scn_step_arg(s, "bytes"))) {
		int len = proto_hex_decode(v->str, c->rpma.desc, sizeof(c->rpma.desc));

		if (len < 0)
			return -EINVAL;
		n = (size_t)len;
	} else if ((v = scn_step_arg(s, "from"))) {
		int rc = r->ops->blob(r->be, v->obj, c->rpma.desc, sizeof(c->rpma.desc), &n);

		if (rc) {
			rsv_fail(r, rc, v->obj);
			return 0;
		}
	}
	/* Neither: the fields given (addr= ...) over zero bytes. */
	c->rpma.ndesc = (uint8_t)n;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if ((v = scn_step_arg(s, fields[i].key)))
			patch(c, fields[i].off, rsv_num(r, v, 0), fields[i].n);
	v = scn_step_arg(s, "size");
	c->rpma.size = v ? (uint32_t)v->num : c->rpma.ndesc ? c->rpma.ndesc : M_RPMA_DESC_SIZE;
	return 0;
}

/* The remote MR and offset of an I/O step. */
static int remote_arg(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	int rc = addr_arg(s, "remote", &c->rpma.remote, &c->rpma.roff);

	return rc ? rc : r->rc;
}

int resolve_rpma(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	const struct scn_value *v;
	int rc;

	c->rpma.mr = c->rpma.remote = -1;
	if ((rc = nulls(s, c)))
		return rc;
	c->rpma.flags = (uint32_t)rsv_num(r, scn_step_arg(s, "flags"), F_ALWAYS);
	switch ((enum m_op_kind)c->op) {
	case M_OP_RPMA_MR_REG: {
		uint64_t off;

		c->rpma.len = rsv_num(r, scn_step_arg(s, "len"), 0);
		c->rpma.usage = (uint32_t)rsv_num(r, scn_step_arg(s, "usage"), 0);
		c->rpma.offset = rsv_num(r, scn_step_arg(s, "offset"), 0);
		c->rpma.prot = (uint8_t)rsv_num(r, scn_step_arg(s, "prot"), M_PROT_RW);
		if ((rc = addr_arg(s, "buf", &c->rpma.mr, &off)))
			return rc;
		break;
	}
	case M_OP_RPMA_REMOTE_FROM_DESC:
		if ((rc = descriptor(r, s, c)))
			return rc;
		break;
	case M_OP_RPMA_CONNECT:
		v = scn_step_arg(s, "peer");
		c->rpma.peer_node = v ? (uint8_t)v->node : c->node;
		c->rpma.pmem = (uint8_t)rsv_bare(s, "pmem");
		break;
	case M_OP_RPMA_READ:
	case M_OP_RPMA_WRITE:
		if ((rc = addr_arg(s, "local", &c->rpma.mr, &c->rpma.offset)))
			return rc;
		c->rpma.len = rsv_num(r, scn_step_arg(s, "len"), 0);
		return remote_arg(r, s, c);
	case M_OP_RPMA_ATOMIC_WRITE:
	case M_OP_RPMA_FLUSH:
		if (c->op == M_OP_RPMA_ATOMIC_WRITE)
			c->rpma.value = rsv_num(r, scn_step_arg(s, "value"), 0);
		if (c->op == M_OP_RPMA_FLUSH) {
			c->rpma.len = rsv_num(r, scn_step_arg(s, "len"), 0);
			c->rpma.flush_type = (uint32_t)rsv_num(r, scn_step_arg(s, "type"), 0);
		}
		return remote_arg(r, s, c);
	default: /* dereg, descriptors, queries, disconnect: the object alone */
		break;
	}
	return r->rc;
}

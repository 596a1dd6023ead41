/* stack_mem.c — fill on the real stack: the buffer's agent writes the bytes (family.h: stack_exec). */
#include "harness/api/mem/api_mem.h"
#include "harness/run/proto.h"
#include "harness/run/stack.h"

#include <errno.h>
#include <string.h>

int stack_exec_mem(struct stack *st, const struct hcall *c, struct hres *r)
{
	char reply[PROTO_LINE_MAX];
	int rc;

	memset(r, 0, sizeof(*r));
	if (c->op != M_OP_FILL)
		return -EINVAL;
	rc = stack_call(st, c->node, reply, "fill id=%d byte=%u off=%llu len=%llu", c->obj, c->fill.byte,
			(unsigned long long)c->fill.off, (unsigned long long)c->fill.len);
	return rc ? rc : stack_outcome(st, reply, &r->out);
}

/* stack_sge.c — a post's SGEs after the first, as fields of the agent's post request: verbs.h. */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/backend.h"

#include <stdio.h>

size_t stack_sge_fields(const struct hcall *c, char *buf, size_t len)
{
	size_t off = 0;

	if (!c->verbs.nsge_more || !len)
		return 0;
	off += (size_t)snprintf(buf, len, " nsge=%u", 1u + c->verbs.nsge_more);
	for (unsigned i = 0; i < c->verbs.nsge_more && off < len; i++) {
		const struct m_sge *g = &c->verbs.sge_more[i];

		off += (size_t)snprintf(buf + off, len - off, " s%u.laddr=0x%llx s%u.lkey=%u s%u.len=%llu", i + 1,
					(unsigned long long)g->addr, i + 1, g->lkey, i + 1, (unsigned long long)g->len);
	}
	return off < len ? off : len - 1;
}

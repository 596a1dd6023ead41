/* resolve_sge.c — a post's SGEs after the first (local2= len2= lkey2=, ... local4=): verbs.h. */
#include "harness/api/verbs/api_verbs.h"
#include "harness/run/resolve_internal.h"

#include <stdio.h>

void resolve_sge_more(struct rsv *r, const struct scn_step *s, struct hcall *c)
{
	c->verbs.nsge_more = 0;
	for (unsigned n = 2; n <= M_SGE_MAX; n++) {
		char k[16];
		const struct scn_value *l, *v;
		struct m_sge *g = &c->verbs.sge_more[c->verbs.nsge_more];

		snprintf(k, sizeof(k), "local%u", n);
		if (!(l = scn_step_arg(s, k)))
			break; /* the parser saw to it that there is no gap (scn_sge.c) */
		rsv_ref(r, l, 0, &g->addr, &g->lkey);
		snprintf(k, sizeof(k), "len%u", n);
		g->len = rsv_num(r, scn_step_arg(s, k), 0);
		snprintf(k, sizeof(k), "lkey%u", n);
		if ((v = scn_step_arg(s, k)))
			g->lkey = (uint32_t)rsv_num(r, v, 0);
		c->verbs.len += g->len;
		c->verbs.nsge_more++;
	}
}

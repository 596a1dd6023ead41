/*
 * scn_chain.c — chains of WRs: a step with `chain` posts its WR in one
 * ibv_post_send with the next step's, so the next step must post a send WR
 * (a call that takes `chain`) on the same QP of the same node, and a chain
 * holds at most SCN_CHAIN_MAX steps; a chain's WRs are waited for (no
 * wait=no). Checked once the file parsed.
 */
#include "harness/lang/scn_internal.h"

void scn_check_chains(struct scn_ctx *c)
{
	unsigned len = 1;

	for (size_t i = 0; i < c->f->nsteps; i++) {
		const struct scn_step *s = &c->f->steps[i];
		const struct scn_step *nx = i + 1 < c->f->nsteps ? &c->f->steps[i + 1] : NULL;
		const struct scn_value *v = scn_step_arg(s, "chain"), *w = scn_step_arg(s, "wait");

		if (w && w->num == 0 && (v || len > 1))
			scn_diag(c, w->line, w->col, "post it on its own to wait for it later", SCN_E_CHAIN,
				 "a chained WR is waited for: no wait=no");
		if (!v) {
			len = 1;
			continue;
		}
		if (!nx || nx->node != s->node || nx->obj != s->obj || scn_spec_index(scn_step_call(nx)->args, "chain") < 0)
			scn_diag(c, v->line, v->col, "write, read, write_imm, cas, fadd, send or local_inv on the same QP",
				 SCN_E_CHAIN, "the next step must post a send WR on the same QP");
		else if (++len > SCN_CHAIN_MAX)
			scn_diag(c, v->line, v->col, "post the rest in a chain of its own", SCN_E_CHAIN,
				 "a chain holds at most 16 WRs");
	}
}

/*
 * scn_sge.c — lists of SGEs: a post's SGEs after the first are local2= len2=
 * [lkey2=] up to local4=, each with both its address and its length, with no
 * gap, after a first SGE (local=); not in a chain or an inline post (the run
 * posts neither with several SGEs). Checked once the file parsed.
 */
#include "harness/lang/scn_internal.h"

#include <stdio.h>

#define SGE_MAX 4 /* the model's M_SGE_MAX */

/* Where to point at a problem with SGE n of step s: its local, len or lkey key, else the step. */
static void sge_where(const struct scn_step *s, unsigned n, uint32_t *line, uint32_t *col)
{
	static const char *const kind[] = { "local", "len", "lkey" };
	char k[16];

	*line = s->line;
	*col = s->col;
	for (unsigned i = 0; i < 3; i++) {
		const struct scn_value *v;

		snprintf(k, sizeof(k), "%s%u", kind[i], n);
		if ((v = scn_step_arg(s, k))) {
			*line = v->line;
			*col = v->col;
			return;
		}
	}
}

/* SGE n (2..SGE_MAX) of s: 1 if given whole, 0 if not at all; a half is diagnosed. */
static int sge_given(struct scn_ctx *c, const struct scn_step *s, unsigned n)
{
	char kl[16], kn[16], kk[16];
	int l, len, key;
	uint32_t line, col;

	snprintf(kl, sizeof(kl), "local%u", n);
	snprintf(kn, sizeof(kn), "len%u", n);
	snprintf(kk, sizeof(kk), "lkey%u", n);
	l = scn_step_arg(s, kl) != NULL;
	len = scn_step_arg(s, kn) != NULL;
	key = scn_step_arg(s, kk) != NULL;
	if (l == len && (l || !key))
		return l;
	sge_where(s, n, &line, &col);
	scn_diag(c, line, col, "give local, len (and lkey) of the same number", SCN_E_SGE,
		 "an SGE needs both its address and its length");
	return -1;
}

void scn_check_sges(struct scn_ctx *c)
{
	for (size_t i = 0; i < c->f->nsteps; i++) {
		const struct scn_step *s = &c->f->steps[i];
		unsigned last = 1;
		uint32_t line, col;

		if (scn_spec_index(scn_step_call(s)->args, "local2") < 0)
			continue;
		for (unsigned n = 2; n <= SGE_MAX; n++) {
			int g = sge_given(c, s, n);

			if (g < 0)
				break;
			if (!g)
				continue;
			sge_where(s, n, &line, &col);
			if (last != n - 1 || !scn_step_arg(s, "local")) {
				scn_diag(c, line, col, "number the SGEs from local= on: local2=, local3=, local4=",
					 SCN_E_SGE, "an SGE list has no gaps");
				break;
			}
			if (scn_step_arg(s, "chain") || scn_step_arg(s, "inline")) {
				scn_diag(c, line, col, "post it alone, without inline", SCN_E_SGE,
					 "several SGEs are not posted in a chain or inline");
				break;
			}
			last = n;
		}
	}
}

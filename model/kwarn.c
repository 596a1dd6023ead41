/*
 * kwarn.c — the kernel WARNs the profiles declare (struct m_kwarn, model.h):
 * versioned, cited data like the deviations of profile.c, each scoped to the
 * rule whose step makes the kernel WARN and matched on the WARN's location.
 */
#include "model/internal.h"

#include <string.h>

static const struct m_kwarn rxe_kwarn[] = {
	{ M_RULE_QP_DESTROY_1, KVER(6, 1), KVER(6, 1), "rxe_pool.c:255 __rxe_cleanup", 90000,
	  "observed (rdmacheck corpus, 6.1.0-56; rdma-unit-test MwType2Test.DestroyQpWithType2Bound): destroy_qp of "
	  "the QP a type-2 window is bound on waits about 50 s for the QP's references to drop (the bound window "
	  "holds one: KRXE rxe_do_bind_mw rxe_get(qp)), WARNs in __rxe_cleanup (rxe_pool.c:255, 'timed out waiting "
	  "for references') and returns 0" },
	{ M_RULE_MR_DEREG_3, KVER(6, 1), KVER(6, 1), "rxe_comp.c:756 rxe_completer", 0,
	  "observed (rdmacheck corpus, 6.1.0-56; verbs/280): dereg_mr at the responder under an outstanding READ "
	  "of it returns 0, the READ completes SUCCESS at the requester and the responder QP goes to ERR; the "
	  "flush of the QP in ERR WARNs in rxe_completer (rxe_comp.c:756); upstream ea4c990fa9e1 \"RDMA/rxe: Fix "
	  "the qp flush warnings in req\" removes it" },
};

static const struct {
	const char *profile;
	const struct m_kwarn *rows;
	size_t n;
} tables[] = {
	{ "rxe", rxe_kwarn, sizeof(rxe_kwarn) / sizeof(rxe_kwarn[0]) },
};

const struct m_kwarn *m_profile_kwarn(const struct m_profile *p, enum m_rule r, size_t i)
{
	for (size_t t = 0; p && p->name && t < sizeof(tables) / sizeof(tables[0]); t++) {
		if (strcmp(tables[t].profile, p->name) != 0)
			continue;
		for (size_t k = 0; k < tables[t].n; k++) {
			const struct m_kwarn *w = &tables[t].rows[k];

			if (w->rule != r || (p->kernel && (p->kernel < w->kernel_min || p->kernel > w->kernel_max)))
				continue;
			if (i-- == 0)
				return w;
		}
	}
	return NULL;
}

/*
 * kwarn_steps.c — the kernel WARNs a profile declares (struct m_kwarn, model.h),
 * as the runner scopes them: to a step whose prediction under the profile
 * names the WARN's rule (runner.h: run_kwarn_ms, run_kwarn_add); and the
 * hangs a profile declares (M_OUT_HANG: run_declared_hang).
 */
#include "harness/run/runner.h"

#include <errno.h>
#include <string.h>

/* Call fn for every WARN p declares for a rule of an alternative of pp. */
static void each_kwarn(const struct m_profile *p, const struct m_pred *pp,
		       void (*fn)(const struct m_kwarn *w, void *ctx), void *ctx)
{
	for (unsigned a = 0; a < pp->n; a++)
		for (unsigned k = 0; k < pp->alt[a].nrules; k++) {
			const struct m_kwarn *w;

			for (size_t i = 0; (w = m_profile_kwarn(p, (enum m_rule)pp->alt[a].rules[k], i)) != NULL; i++)
				fn(w, ctx);
		}
}

static void longest(const struct m_kwarn *w, void *ctx)
{
	uint32_t *ms = ctx;

	if (w->step_ms > *ms)
		*ms = w->step_ms;
}

uint32_t run_kwarn_ms(const struct m_profile *p, const struct m_pred *pp)
{
	uint32_t ms = 0;

	each_kwarn(p, pp, longest, &ms);
	return ms;
}

int run_declared_hang(const struct m_pred *pp, int rc, struct hres *real)
{
	const struct m_outcome hang = { M_OUT_HANG, 0 };

	if (rc != -ETIMEDOUT || !pp || model_pred_find(pp, hang) < 0)
		return 0;
	memset(real, 0, sizeof(*real));
	real->out = hang;
	return 1;
}

struct kwarn_list {
	const struct m_kwarn **list;
	size_t n, cap;
};

static void add(const struct m_kwarn *w, void *ctx)
{
	struct kwarn_list *l = ctx;

	for (size_t i = 0; i < l->n; i++)
		if (l->list[i] == w)
			return;
	if (l->n < l->cap)
		l->list[l->n++] = w;
}

size_t run_kwarn_add(const struct m_profile *p, const struct m_pred *pp, const struct m_kwarn **list, size_t n,
		     size_t cap)
{
	struct kwarn_list l = { list, n, cap };

	each_kwarn(p, pp, add, &l);
	return l.n;
}

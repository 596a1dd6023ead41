/* walk.c — a scenario walked on the model alone: lint, predict, coverage (runner.h: run_walk). */
#include "harness/run/runner.h"
#include "harness/run/be_model.h"

#include <stdio.h>

uint32_t run_required_caps(const struct scn_file *f)
{
	uint32_t caps = 0;

	for (size_t i = 0; i < f->nrequires; i++) {
		enum m_cap c;

		if (m_cap_parse(scn_cap_name(f->requires[i]), &c) == 0)
			caps |= (uint32_t)c;
	}
	return caps;
}

void run_walk_setup(const struct scn_file *f, const struct m_profile *prof, uint32_t engine_caps, struct run_opts *o,
		    struct m_profile *sim)
{
	*o = (struct run_opts){ .mode = RUN_LINT, .prof = *prof, .engine_caps = engine_caps };
	/* The device the file describes: the profile's, with what the file requires
	 * (without it the file is skipped, never judged). The engine simulates the
	 * generic reading of that same device: the set the runner judges by. */
	o->prof.caps |= run_required_caps(f);
	bm_generic(&o->prof, sim);
}

enum verdict run_walk(const struct scn_file *f, const struct m_profile *prof, uint32_t engine_caps,
		      void (*on_step)(void *, const struct scn_file *, size_t, const struct m_pred *,
				      const struct m_pred *, int),
		      void (*on_disagree)(void *, const struct scn_file *, size_t, uint32_t, uint32_t, const char *,
					  const char *),
		      void *ctx, struct result *r)
{
	struct run_opts o;
	struct m_profile sim;
	struct be_model eng;

	run_walk_setup(f, prof, engine_caps, &o, &sim);
	o.on_step = on_step;
	o.on_disagree = on_disagree;
	o.ctx = ctx;
	if (bm_init(&eng, f, &sim) || run_scenario(f, &be_model_ops, &eng, &o, r)) {
		snprintf(r->reason, sizeof(r->reason), "out of memory");
		r->v = V_ERROR;
	}
	bm_free(&eng);
	return r->v;
}

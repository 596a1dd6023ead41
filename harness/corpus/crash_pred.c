/* crash_pred.c — scenarios predicted to kill the kernel (crash_pred.h). */
#include "harness/corpus/crash_pred.h"
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

uint32_t cli_running_kernel(void)
{
	struct utsname u;
	unsigned maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return 0;
	return KVER(maj, min);
}

const struct m_profile *cli_stack_profile(const struct m_profile *judge, const char *name, struct m_profile *out)
{
	uint32_t k = cli_running_kernel() ? cli_running_kernel() : judge->kernel;

	if (!name || (strcmp(judge->name, name) == 0 && judge->kernel == k) || m_profile_get(name, k, out))
		return NULL;
	return out;
}

/* One model walk of a scenario under one profile: what it found so far (struct cli_pred). */
struct pred_walk {
	const struct m_profile *prof;
	struct cli_pred *p;
};

/* The runner's step report: the first step that may crash the kernel, the declared WARNs and their longest budget. */
static void note_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		      const struct m_pred *prof, int crash)
{
	struct pred_walk *w = ctx;
	const struct m_kwarn *warn[4];
	uint32_t ms = run_kwarn_ms(w->prof, prof);

	(void)f;
	(void)gen;
	w->p->warns += run_kwarn_add(w->prof, prof, warn, 0, 4) > 0;
	if (ms > w->p->slow_ms)
		w->p->slow_ms = ms;
	if (!crash || (w->p->crash_si >= 0 && w->p->crash_si <= (long)si))
		return;
	w->p->crash_si = (long)si;
	w->p->crash_prof = w->prof;
	w->p->dev = run_deviation(w->prof, prof, (struct m_outcome){ .kind = M_OUT_CRASH });
}

/* Walk f on the model engine under prof, steps that kill the kernel allowed, into *p. */
static void walk(const struct scn_file *f, const struct m_profile *prof, struct cli_pred *p)
{
	struct be_model eng;
	struct result r = { 0 };
	struct pred_walk w = { prof, p };
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof, .allow_crash = 1, .on_step = note_step, .ctx = &w };

	if (bm_init(&eng, f, prof) == 0)
		run_scenario(f, &be_model_ops, &eng, &o, &r);
	bm_free(&eng);
	result_clear(&r);
}

void cli_predict(const struct scn_file *f, const struct m_profile *judge, const struct m_profile *stack,
		 struct cli_pred *out)
{
	*out = (struct cli_pred){ .crash_si = -1 };
	walk(f, judge, out);
	if (stack)
		walk(f, stack, out);
}

int cli_crash_reason(const struct scn_file *f, const struct cli_pred *p, char *why, size_t len)
{
	if (p->crash_si < 0)
		return 0;
	snprintf(why, len, "line %u: the %s profile says this step may kill the kernel (%s: %.200s); the steps "
		 "before it may leave work queued that runs anyway, so the scenario runs only in a disposable VM "
		 "(--stack=vm)", f->steps[p->crash_si].line, p->crash_prof->name,
		 p->dev ? m_rule_info(p->dev->rule)->id : "?", p->dev ? p->dev->citation : "?");
	return 1;
}

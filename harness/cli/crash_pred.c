/* crash_pred.c — scenarios predicted to kill the kernel (crash_pred.h). */
#include "harness/cli/crash_pred.h"
#include "harness/run/be_model.h"
#include "harness/run/runner.h"

#include <stdio.h>
#include <sys/utsname.h>

uint32_t cli_running_kernel(void)
{
	struct utsname u;
	unsigned maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return 0;
	return KVER(maj, min);
}

/* What a walk of a scenario on the model found: whether a step may crash the kernel, or make it WARN. */
struct walk_note {
	const struct m_profile *prof;
	int crash, warn;
};

/* The runner's step report: remember whether the step may crash the kernel or make it WARN. */
static void note_step(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		      const struct m_pred *pp, int crash)
{
	struct walk_note *wn = ctx;
	const struct m_kwarn *w[1];

	(void)f;
	(void)si;
	(void)gen;
	wn->crash |= crash;
	wn->warn |= run_kwarn_add(wn->prof, pp, w, 0, 1) > 0;
}

/* Walk f on the model engine under prof, steps that kill the kernel allowed, noting into *wn. */
static void walk(const struct scn_file *f, const struct m_profile *prof, struct walk_note *wn)
{
	struct be_model eng;
	struct result r = { 0 };
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof, .allow_crash = 1, .on_step = note_step, .ctx = wn };

	wn->prof = prof;
	if (bm_init(&eng, f, prof) == 0)
		run_scenario(f, &be_model_ops, &eng, &o, &r);
	bm_free(&eng);
	result_clear(&r);
}

int cli_may_crash(const struct scn_file *f, const struct m_profile *prof)
{
	struct walk_note wn = { 0 };

	walk(f, prof, &wn);
	return wn.crash;
}

int cli_may_splat(const struct scn_file *f, const struct m_profile *prof)
{
	struct walk_note wn = { 0 };

	walk(f, prof, &wn);
	return wn.crash || wn.warn;
}

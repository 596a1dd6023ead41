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

/* What the model walk of a scenario found: the first step that may kill the kernel. */
struct crash_walk {
	const struct m_profile *prof;
	long si;                          /* -1: none */
	const struct m_deviation *dev;    /* the deviation that says so, if one does */
};

/* The runner's step report: remember the first step that may crash the kernel. */
static void note_crash(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		       const struct m_pred *prof, int crash)
{
	struct crash_walk *w = ctx;

	(void)f;
	(void)gen;
	if (!crash || w->si >= 0)
		return;
	w->si = (long)si;
	w->dev = run_deviation(w->prof, prof, (struct m_outcome){ .kind = M_OUT_CRASH });
}

/* Walk f on the model engine, steps that kill the kernel allowed; *w the first such step. */
static void crash_walk(const struct scn_file *f, const struct m_profile *prof, struct crash_walk *w)
{
	struct be_model eng;
	struct result r = { 0 };
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof, .allow_crash = 1, .on_step = note_crash, .ctx = w };

	*w = (struct crash_walk){ prof, -1, NULL };
	if (bm_init(&eng, f, prof) == 0)
		run_scenario(f, &be_model_ops, &eng, &o, &r);
	bm_free(&eng);
	result_clear(&r);
}

int cli_may_crash(const struct scn_file *f, const struct m_profile *prof)
{
	struct crash_walk w;

	crash_walk(f, prof, &w);
	return w.si >= 0;
}

int cli_host_skip(const struct scn_file *f, const struct m_profile *prof, char *why, size_t len)
{
	struct crash_walk w;

	crash_walk(f, prof, &w);
	if (w.si < 0)
		return 0;
	snprintf(why, len, "line %u: the %s profile says this step may kill the kernel (%s: %.200s); the steps "
		 "before it may leave work queued that runs anyway, so the scenario runs only in a disposable VM "
		 "(--stack=vm)", f->steps[w.si].line, prof->name, w.dev ? m_rule_info(w.dev->rule)->id : "?",
		 w.dev ? w.dev->citation : "?");
	return 1;
}

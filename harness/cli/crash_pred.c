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

/* The runner's step report: remember whether a step may crash the kernel. */
static void note_crash(void *ctx, const struct scn_file *f, size_t si, const struct m_pred *gen,
		       const struct m_pred *prof, int crash)
{
	(void)f;
	(void)si;
	(void)gen;
	(void)prof;
	*(int *)ctx |= crash;
}

int cli_may_crash(const struct scn_file *f, const struct m_profile *prof)
{
	struct be_model eng;
	struct result r = { 0 };
	int crash = 0;
	struct run_opts o = { .mode = RUN_REAL, .prof = *prof, .allow_crash = 1, .on_step = note_crash,
			      .ctx = &crash };

	if (bm_init(&eng, f, prof) == 0)
		run_scenario(f, &be_model_ops, &eng, &o, &r);
	bm_free(&eng);
	result_clear(&r);
	return crash;
}

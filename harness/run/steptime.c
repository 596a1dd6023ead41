/* steptime.c — per-phase step timing on demand (steptime.h). */
#include "harness/run/steptime.h"
#include "harness/run/proto.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const phase_name[ST_COUNT_] = {
	[ST_PREDICT] = "predict", [ST_RECORD] = "record", [ST_SEND] = "send", [ST_WAIT] = "wait",
	[ST_EXEC] = "exec", [ST_JUDGE] = "judge", [ST_COMMIT] = "commit", [ST_AHEAD] = "ahead",
};

/* The process's sums: one scenario runs at a time in a runner process. */
static struct {
	int on; /* 0 not asked yet, 1 on, -1 off */
	double sum[ST_COUNT_];
} prof;

double steptime_now(void)
{
	if (!prof.on)
		prof.on = getenv("RDMACHECK_STEP_PROFILE") && *getenv("RDMACHECK_STEP_PROFILE") ? 1 : -1;
	return prof.on > 0 ? proto_now_s() : 0;
}

void steptime_add(enum steptime_phase p, double t0)
{
	if (t0 > 0)
		prof.sum[p] += proto_now_s() - t0;
}

void steptime_flush(const char *name, size_t steps, double secs)
{
	FILE *f;

	if (steptime_now() == 0)
		return;
	f = fopen(getenv("RDMACHECK_STEP_PROFILE"), "a");
	if (f) {
		fprintf(f, "%s steps=%zu total_us=%.0f", name, steps, secs * 1e6);
		for (int i = 0; i < ST_COUNT_; i++)
			fprintf(f, " %s=%.0f", phase_name[i], prof.sum[i] * 1e6);
		fputc('\n', f);
		fclose(f);
	}
	for (int i = 0; i < ST_COUNT_; i++)
		prof.sum[i] = 0;
}

/*
 * model_bench — model steps per second on a long random sequence.
 * usage: model-bench [STEPS] [SEED]   (default 20,000,000 steps)
 *
 * A step = predict one operation and apply one of its allowed alternatives.
 * Steps are drawn by the seeded generator on a shadow model in chunks, then
 * replayed (same operations, same choices) on the measured model, so the
 * figure is the model's own speed; the generator's cost is reported apart.
 * Models are re-initialised when a node's tables fill up or no operation can
 * be drawn any more, as a harness does between scenarios; that is counted.
 * One core, profile rxe, 4 nodes.
 */
#include "model/model.h"
#include "harness/explore/gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHUNK 262144
#define NODES 4

struct rec {
	struct m_op op;
	uint8_t pick;
	uint8_t reset_after;
};

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* The CPU time this thread had: on a loaded machine the wall clock also counts other programs' turns. */
static double cpu_now(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static void reset(struct model *m)
{
	model_free(m);
	model_init(m, NODES);
}

int main(int argc, char **argv)
{
	unsigned long long steps = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000000ull;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	struct model gen, run;
	struct m_profile p;
	struct model_gen g;
	struct rec *recs = malloc(sizeof(*recs) * CHUNK);
	unsigned long long done = 0, resets = 0, alts = 0, stuck = 0;
	double t_gen = 0, t_run = 0, c_run = 0;

	if (!recs || m_profile_get("rxe", 0, &p) || model_init(&gen, NODES) || model_init(&run, NODES))
		return 1;
	model_gen_seed(&g, seed);
	while (done < steps) {
		size_t n = 0;
		double t0 = now();

		while (n < CHUNK && done + n < steps) {
			struct rec *r = &recs[n];
			struct m_pred pr;

			if (model_gen_op(&g, &gen, &r->op) != 0) {
				if (++stuck < 1000)
					continue;
				/* Nothing can be drawn any more: start over. */
				reset(&gen);
				if (n > 0)
					recs[n - 1].reset_after = 1;
				else
					reset(&run);
				resets++;
				stuck = 0;
				continue;
			}
			stuck = 0;
			if (model_predict(&gen, &p, &r->op, &pr) != 0) {
				fprintf(stderr, "model-bench: predict refused a generated op\n");
				return 1;
			}
			r->pick = (uint8_t)model_gen_below(&g, pr.n);
			int rc = model_apply(&gen, &pr, r->pick, NULL);
			r->reset_after = rc == -ENOSPC || gen.crashed;
			if (r->reset_after) {
				reset(&gen);
				resets++;
			}
			n++;
		}
		double t1 = now(), c1 = cpu_now();

		for (size_t i = 0; i < n; i++) {
			struct m_pred pr;

			model_predict(&run, &p, &recs[i].op, &pr);
			alts += pr.n;
			model_apply(&run, &pr, recs[i].pick, NULL);
			if (recs[i].reset_after)
				reset(&run);
		}
		double t2 = now(), c2 = cpu_now();
		t_gen += t1 - t0;
		t_run += t2 - t1;
		c_run += c2 - c1;
		done += n;
	}
	model_free(&gen);
	model_free(&run);
	free(recs);
	printf("model: %llu steps in %.2f s: %.1f million steps/s (profile rxe, %d nodes, %.2f alternatives/step, %llu resets)\n",
	       done, t_run, (double)done / t_run / 1e6, NODES, (double)alts / (double)done, resets);
	printf("model: %.1f million steps per second of its CPU time (%.2f s: the figure above without other programs' turns)\n",
	       (double)done / c_run / 1e6, c_run);
	printf("generator: %.1f million steps/s (draw + predict + apply on the shadow model, not part of the figure above)\n",
	       (double)done / t_gen / 1e6);
	return 0;
}

/*
 * gen.h — a seeded generator of random model operations (moved from
 * tests/support for `rdmacheck explore`, issue 13): the random source of the
 * scenario generator (explore/scngen.c), and the model-level generator of the
 * property tests and the benchmark. Operations draw handles among those that
 * exist (live or dead) and keys among live, stale and made-up ones, so error
 * paths are exercised as much as success paths. Deterministic per seed.
 */
#ifndef RDMACHECK_MODEL_GEN_H
#define RDMACHECK_MODEL_GEN_H

#include "model/model.h"

struct model_gen {
	uint64_t state;
};

/* Seed the generator (any value; 0 is remapped). */
void model_gen_seed(struct model_gen *g, uint64_t seed);

/* Next 64 random bits (xorshift64*). */
uint64_t model_gen_next(struct model_gen *g);

/* A uniformly drawn integer in [0, n) (n > 0). */
uint32_t model_gen_below(struct model_gen *g, uint32_t n);

/*
 * Fill *op with a random operation valid for model_predict on m (it returns
 * 0 for it). Returns 0, or -EAGAIN when none could be drawn this time (e.g. a
 * node has no QP yet); the caller draws again.
 */
int model_gen_op(struct model_gen *g, const struct model *m, struct m_op *op);

#endif

/*
 * Property tests of the model over random operation sequences (seeded,
 * reproducible: RDMACHECK_SEED=N picks the base seed; a failure prints the
 * seed and step). Each sequence applies a randomly chosen allowed alternative
 * at every step and checks invariants:
 *   - a key of a deregistered MR or of a window that was rebound, invalidated
 *     or deallocated never grants access again;
 *   - dealloc_pd succeeds iff no MR, MW or QP references the PD;
 *   - an alternative with no effect changes no state; a local error changes
 *     only the acting QP (to ERR, receives flushed);
 *   - every prediction is non-empty and names only known rules.
 */
#include "tests/unit/model_fx.h"
#include "harness/explore/gen.h"

#include <stdio.h>
#include <stdlib.h>

#define SEQUENCES 40
#define STEPS 400
#define DEAD_MAX 512

static uint64_t base_seed(void)
{
	const char *s = getenv("RDMACHECK_SEED");

	return s ? strtoull(s, NULL, 0) : 20261122;
}

struct dead_key {
	uint8_t node;
	uint32_t rkey;
};

struct dead {
	unsigned n;
	struct dead_key k[DEAD_MAX];
};

static void dead_add(struct dead *d, unsigned node, uint32_t rkey)
{
	if (d->n < DEAD_MAX)
		d->k[d->n++] = (struct dead_key){ (uint8_t)node, rkey };
}

/* Record the keys that died between before and after. */
static void note_deaths(const struct model *before, const struct model *after, struct dead *d)
{
	for (unsigned n = 0; n < before->nnodes; n++) {
		const struct m_node *b = &before->node[n], *a = &after->node[n];

		for (int i = 0; i < b->nmr; i++)
			if (b->mr[i].live && !a->mr[i].live)
				dead_add(d, n, b->mr[i].rkey);
		for (int i = 0; i < b->nmw; i++)
			if (b->mw[i].live && b->mw[i].bound &&
			    (!a->mw[i].live || !a->mw[i].bound || a->mw[i].rkey != b->mw[i].rkey))
				dead_add(d, n, b->mw[i].rkey);
	}
}

/* No dead key may let a READ or WRITE of 8 bytes succeed, from any connected QP. */
static void check_dead_keys(const struct fx *f, const struct dead *d, uint64_t seed, int step)
{
	for (unsigned n = 0; n < f->m.nnodes; n++) {
		const struct m_node *nd = &f->m.node[n];

		for (int q = 0; q < nd->nqp; q++) {
			const struct m_qp *qp = &nd->qp[q];

			if (!qp->live || qp->state != M_QPS_RTS || qp->peer_node < 0)
				continue;
			for (unsigned i = 0; i < d->n; i++) {
				if (d->k[i].node != qp->peer_node)
					continue;
				const struct m_node *pn = &f->m.node[qp->peer_node];
				for (int t = 0; t < pn->nmr; t++) {
					struct m_op op = { .kind = M_OP_WRITE, .node = (uint8_t)n, .obj = (int16_t)q,
							   .verbs.len = 8, .verbs.rkey = d->k[i].rkey, .verbs.raddr = pn->mr[t].iova };
					struct m_pred pr;

					if (nd->nmr) {
						op.verbs.lkey = nd->mr[0].lkey;
						op.verbs.laddr = nd->mr[0].addr;
					}
					ck_assert_int_eq(model_predict(&f->m, &f->p, &op, &pr), 0);
					ck_assert_msg(model_pred_find(&pr, wc_(M_WC_SUCCESS)) < 0,
						      "seed %llu step %d: dead rkey 0x%x of node %u grants access",
						      (unsigned long long)seed, step, d->k[i].rkey, d->k[i].node);
				}
			}
		}
	}
}

static unsigned pd_refs(const struct m_node *nd, int pd)
{
	unsigned r = 0;

	for (int i = 0; i < nd->nmr; i++)
		r += nd->mr[i].live && nd->mr[i].pd == pd;
	for (int i = 0; i < nd->nmw; i++)
		r += nd->mw[i].live && nd->mw[i].pd == pd;
	for (int i = 0; i < nd->nqp; i++)
		r += nd->qp[i].live && nd->qp[i].pd == pd;
	return r;
}

/* Model state equal, MR contents included? */
static int same_state(const struct model *a, const struct model *b, int skip_node, int skip_qp)
{
	if (a->nnodes != b->nnodes || a->crashed != b->crashed)
		return 0;
	for (unsigned n = 0; n < a->nnodes; n++) {
		const struct m_node *x = &a->node[n], *y = &b->node[n];

		if (x->next_key != y->next_key || x->nmr != y->nmr || x->nmw != y->nmw ||
		    x->nqp != y->nqp || x->npd != y->npd)
			return 0;
		if (memcmp(x->pd, y->pd, sizeof(x->pd)) || memcmp(x->mw, y->mw, sizeof(x->mw)))
			return 0;
		for (int i = 0; i < x->nqp; i++)
			if (!((int)n == skip_node && i == skip_qp) && memcmp(&x->qp[i], &y->qp[i], sizeof(x->qp[i])))
				return 0;
		for (int i = 0; i < x->nmr; i++) {
			const struct m_mr *p = &x->mr[i], *q = &y->mr[i];

			if (p->live != q->live || p->pd != q->pd || p->access != q->access || p->lkey != q->lkey ||
			    p->rkey != q->rkey || p->nbound != q->nbound || p->len != q->len ||
			    !model_mr_same(a, b, n, i))
				return 0;
		}
	}
	return 1;
}

static void run_sequence(uint64_t seed, const char *profile)
{
	struct fx f;
	struct model_gen g;
	struct dead dead = { 0 };

	model_gen_seed(&g, seed);
	fx_init(&f, 2 + model_gen_below(&g, 3), profile);
	for (int step = 0; step < STEPS && !f.m.crashed; step++) {
		struct m_op op;
		struct m_pred pr;
		struct model before;

		if (model_gen_op(&g, &f.m, &op) != 0)
			continue;
		ck_assert_msg(model_predict(&f.m, &f.p, &op, &pr) == 0, "seed %llu step %d: %s refused",
			      (unsigned long long)seed, step, m_op_kind_str(op.kind));
		ck_assert_msg(pr.n >= 1, "seed %llu step %d: empty prediction", (unsigned long long)seed, step);
		for (unsigned i = 0; i < pr.n; i++)
			for (unsigned j = 0; j < pr.alt[i].nrules; j++)
				ck_assert_ptr_nonnull(m_rule_info(pr.alt[i].rules[j]));
		if (op.kind == M_OP_DEALLOC_PD) {
			int busy = pd_refs(&f.m.node[op.node], op.obj) > 0;
			ck_assert_msg(busy == fx_only(pr, err_(EBUSY)) && (!busy) == fx_only(pr, ok_()),
				      "seed %llu step %d: dealloc_pd with %u references", (unsigned long long)seed,
				      step, pd_refs(&f.m.node[op.node], op.obj));
		}
		size_t pick = model_gen_below(&g, pr.n);
		ck_assert_int_eq(model_clone(&before, &f.m), 0);
		int rc = model_apply(&f.m, &pr, pick, NULL);
		ck_assert_msg(rc == 0 || rc == -ENOSPC, "seed %llu step %d: apply %d", (unsigned long long)seed, step, rc);
		if (pr.alt[pick].effect == M_EFF_NONE && !pr.alt[pick].target_unknown)
			ck_assert_msg(same_state(&before, &f.m, -1, -1), "seed %llu step %d: %s without effect changed state",
				      (unsigned long long)seed, step, m_op_kind_str(op.kind));
		if (pr.alt[pick].effect == M_EFF_QP_ERR) {
			int q = op.kind == M_OP_BIND_MW ? op.verbs.qp : op.obj;
			ck_assert_int_eq(f.m.node[op.node].qp[q].state, M_QPS_ERR);
			ck_assert_msg(same_state(&before, &f.m, op.node, q), "seed %llu step %d: a local error changed more than its QP",
				      (unsigned long long)seed, step);
		}
		note_deaths(&before, &f.m, &dead);
		model_free(&before);
		if (step % 8 == 0)
			check_dead_keys(&f, &dead, seed, step);
	}
	model_free(&f.m);
}

START_TEST(test_random_sequences_generic)
{
	for (int i = 0; i < SEQUENCES; i++)
		run_sequence(base_seed() + (uint64_t)i, "generic");
}
END_TEST

START_TEST(test_random_sequences_rxe)
{
	for (int i = 0; i < SEQUENCES; i++)
		run_sequence(base_seed() * 7 + (uint64_t)i, "rxe");
}
END_TEST

START_TEST(test_generator_is_deterministic)
{
	struct model_gen a, b;

	model_gen_seed(&a, 99);
	model_gen_seed(&b, 99);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(model_gen_next(&a), model_gen_next(&b));
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_lt(model_gen_below(&a, 7), 7);
}
END_TEST

START_TEST(test_clone_is_deep)
{
	struct fx f;
	struct model c;
	struct pair s = fx_pair(&f, "generic", 2);
	struct m_op fill = op_obj(M_OP_FILL, 1, s.mb);
	uint8_t zero[16] = { 0 };

	ck_assert_int_eq(model_clone(&c, &f.m), 0);
	fill.verbs.byte = 9;
	fx_do(&f, fill, ok_());
	ck_assert_int_eq(model_mr_compare(&c, 1, s.mb, 0, zero, 16), -1);
	ck_assert_int_eq(model_mr_compare(&f.m, 1, s.mb, 0, zero, 16), 0);
	model_free(&c);
	model_free(&f.m);
}
END_TEST

/* The byte-by-byte reading of model_bytes_compare (model.h): the first known byte that differs. */
static long bytes_compare_ref(const uint8_t *bytes, const uint8_t *unknown, const uint8_t *real, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!unknown[i] && bytes[i] != real[i])
			return (long)i;
	return -1;
}

/* Random buffers (equal runs, unknown runs, differences anywhere, chunk edges): the same index as byte by byte. */
START_TEST(test_bytes_compare_as_byte_by_byte)
{
	enum { MAX = 300 };
	struct model_gen g;
	uint8_t bytes[MAX], unknown[MAX], real[MAX];
	unsigned found = 0;

	model_gen_seed(&g, base_seed());
	for (int k = 0; k < 20000; k++) {
		size_t len = model_gen_below(&g, MAX + 1);
		unsigned ndiff = model_gen_below(&g, 4), nunk = model_gen_below(&g, 4);

		for (size_t i = 0; i < len; i++)
			bytes[i] = real[i] = (uint8_t)model_gen_below(&g, 256);
		memset(unknown, 0, sizeof(unknown));
		for (unsigned d = 0; len && d < ndiff; d++)
			real[model_gen_below(&g, (uint32_t)len)] ^= (uint8_t)(1 + model_gen_below(&g, 255));
		for (unsigned u = 0; len && u < nunk; u++) {
			size_t at = model_gen_below(&g, (uint32_t)len), run = 1 + model_gen_below(&g, 80);

			memset(unknown + at, 1, run < len - at ? run : len - at);
		}
		long want = bytes_compare_ref(bytes, unknown, real, len);

		ck_assert_msg(model_bytes_compare(bytes, unknown, real, len) == want, "seed %llu case %d",
			      (unsigned long long)base_seed(), k);
		found += want >= 0;
	}
	ck_assert_uint_gt(found, 1000); /* differences were there to find, */
	ck_assert_uint_lt(found, 19000); /* and cases with none */
}
END_TEST

Suite *suite_test_model_props(void)
{
	Suite *s = suite_create("model_props");
	TCase *tc = tcase_create("properties");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_random_sequences_generic);
	tcase_add_test(tc, test_random_sequences_rxe);
	tcase_add_test(tc, test_generator_is_deterministic);
	tcase_add_test(tc, test_clone_is_deep);
	tcase_add_test(tc, test_bytes_compare_as_byte_by_byte);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * model_fx.h — a small fixture for the model's unit tests: build objects in
 * one line, predict a step, assert on the allowed set, commit an outcome.
 * Every helper fails the running Check test on misuse.
 */
#ifndef RDMACHECK_MODEL_FX_H
#define RDMACHECK_MODEL_FX_H

#include "model/model.h"

#include <check.h>
#include <errno.h>
#include <string.h>

struct fx {
	struct model m;
	struct m_profile p;
};

#define RW (M_ACC_LOCAL_WRITE | M_ACC_REMOTE_WRITE | M_ACC_REMOTE_READ | M_ACC_REMOTE_ATOMIC)
#define QP_ALL (M_ACC_REMOTE_WRITE | M_ACC_REMOTE_READ | M_ACC_REMOTE_ATOMIC)

static inline struct m_outcome ok_(void) { return (struct m_outcome){ M_OUT_OK, 0 }; }

/* The index of query result key in q, or -1. */
static inline int fx_qres_index(const struct m_qres *q, const char *key)
{
	for (unsigned i = 0; i < q->n; i++)
		if (strcmp(q->r[i].key, key) == 0)
			return (int)i;
	return -1;
}
static inline struct m_outcome err_(int e) { return (struct m_outcome){ M_OUT_ERRNO, (int16_t)e }; }
static inline struct m_outcome wc_(enum m_wc_status s) { return (struct m_outcome){ M_OUT_WC, (int16_t)s }; }
static inline struct m_outcome crash_(void) { return (struct m_outcome){ M_OUT_CRASH, 0 }; }

static inline void fx_init(struct fx *f, unsigned nodes, const char *profile)
{
	ck_assert_int_eq(model_init(&f->m, nodes), 0);
	ck_assert_int_eq(m_profile_get(profile, 0, &f->p), 0);
}

static inline struct m_pred fx_predict(struct fx *f, struct m_op op)
{
	struct m_pred pr;

	ck_assert_int_eq(model_predict(&f->m, &f->p, &op, &pr), 0);
	ck_assert_int_ge(pr.n, 1);
	return pr;
}

/* Does the prediction allow o? Is o the only allowed outcome? */
static inline int fx_has(struct m_pred pr, struct m_outcome o) { return model_pred_find(&pr, o) >= 0; }
static inline int fx_only(struct m_pred pr, struct m_outcome o)
{
	for (unsigned i = 0; i < pr.n; i++)
		if (pr.alt[i].out.kind != o.kind || pr.alt[i].out.code != o.code)
			return 0;
	return pr.n > 0;
}
/* Did rule r decide some alternative with outcome o? */
static inline int fx_rule(struct m_pred pr, struct m_outcome o, enum m_rule r)
{
	for (unsigned i = 0; i < pr.n; i++) {
		if (pr.alt[i].out.kind != o.kind || pr.alt[i].out.code != o.code)
			continue;
		for (unsigned j = 0; j < pr.alt[i].nrules; j++)
			if (pr.alt[i].rules[j] == r)
				return 1;
	}
	return 0;
}

/* Predict op, require o to be allowed, commit it; returns the created handle. */
static inline int fx_do(struct fx *f, struct m_op op, struct m_outcome o)
{
	struct m_pred pr = fx_predict(f, op);
	int i = model_pred_find(&pr, o), created;
	char want[32], got[32];

	ck_assert_msg(i >= 0, "%s: outcome %s not allowed (first allowed: %s)", m_op_kind_str(op.kind),
		      m_outcome_str(o, want, sizeof(want)), m_outcome_str(pr.alt[0].out, got, sizeof(got)));
	ck_assert_int_eq(model_apply(&f->m, &pr, (size_t)i, &created), 0);
	return created;
}

static inline int fx_pd(struct fx *f, int node)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_ALLOC_PD, .node = (uint8_t)node }, ok_());
}

static inline struct m_op op_reg(int node, int pd, uint64_t len, uint32_t access)
{
	return (struct m_op){ .kind = M_OP_REG_MR, .node = (uint8_t)node, .verbs.pd = (int16_t)pd, .verbs.len = len,
			      .verbs.access = access };
}

static inline int fx_mr(struct fx *f, int node, int pd, uint64_t len, uint32_t access)
{
	return fx_do(f, op_reg(node, pd, len, access), ok_());
}

static inline int fx_qp(struct fx *f, int node, int pd, uint32_t access)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.access = access }, ok_());
}

/* connect with path MTU mtu bytes (0: none known, a model fed by something other than the harness). */
static inline void fx_connect_mtu(struct fx *f, int na, int qa, int nb, int qb, unsigned mtu)
{
	fx_do(f, (struct m_op){ .kind = M_OP_CONNECT, .node = (uint8_t)na, .obj = (int16_t)qa,
				.verbs.peer_node = (int16_t)nb, .verbs.peer_qp = (int16_t)qb, .verbs.max_rd_atomic = M_RD_ATOMIC_DEFAULT,
				.verbs.max_dest_rd_atomic = M_RD_ATOMIC_DEFAULT, .verbs.path_mtu = (uint16_t)mtu }, ok_());
}

/* connect as the harness's connect does without options. */
static inline void fx_connect(struct fx *f, int na, int qa, int nb, int qb)
{
	fx_connect_mtu(f, na, qa, nb, qb, M_PATH_MTU_DEFAULT);
}

static inline struct m_op op_obj(enum m_op_kind k, int node, int obj)
{
	return (struct m_op){ .kind = (uint8_t)k, .node = (uint8_t)node, .obj = (int16_t)obj };
}

/* A remote op from (node, qp) with the local SGE at MR lmr+loff and the target at rnode's MR rmr+roff. */
static inline struct m_op op_rdma(struct fx *f, enum m_op_kind k, int node, int qp, int lmr, uint64_t loff,
				  int rnode, int rmr, uint64_t roff, uint64_t len)
{
	struct m_op op = { .kind = (uint8_t)k, .node = (uint8_t)node, .obj = (int16_t)qp, .verbs.len = len };

	op.verbs.lkey = f->m.node[node].mr[lmr].lkey;
	op.verbs.laddr = model_mr_laddr(&f->m, (unsigned)node, lmr, loff);
	op.verbs.rkey = f->m.node[rnode].mr[rmr].rkey;
	op.verbs.raddr = model_mr_raddr(&f->m, (unsigned)rnode, rmr, roff);
	return op;
}

static inline int fx_cq(struct fx *f, int node, uint32_t depth)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_CQ, .node = (uint8_t)node, .obj = -1,
				       .verbs.cq_depth = depth }, ok_());
}

/* A QP on node whose send and receive CQ is cq (-1: its own). */
static inline int fx_qp_cq(struct fx *f, int node, int pd, int cq, int sig_all)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_CREATE_QP, .node = (uint8_t)node, .verbs.pd = (int16_t)pd,
				       .verbs.access = QP_ALL, .verbs.scq = (int16_t)(cq + 1),
				       .verbs.rcq = (int16_t)(cq + 1), .verbs.sig_all = (uint8_t)sig_all }, ok_());
}

/* Two nodes, a PD each, a 4 KiB RW MR each, connected RC QPs with all rights. */
struct pair { int pa, pb, ma, mb, qa, qb; };
static inline struct pair fx_pair(struct fx *f, const char *profile, unsigned nodes)
{
	struct pair s;

	fx_init(f, nodes, profile);
	s.pa = fx_pd(f, 0);
	s.pb = fx_pd(f, 1);
	s.ma = fx_mr(f, 0, s.pa, 4096, RW);
	s.mb = fx_mr(f, 1, s.pb, 4096, RW);
	s.qa = fx_qp(f, 0, s.pa, QP_ALL);
	s.qb = fx_qp(f, 1, s.pb, QP_ALL);
	fx_connect(f, 0, s.qa, 1, s.qb);
	return s;
}

static inline enum m_qp_state fx_qps(struct fx *f, int node, int qp)
{
	return (enum m_qp_state)f->m.node[node].qp[qp].state;
}

/*
 * Register test fn, which tests rule sym (both its allowed and its refused
 * path). test_model_rules.c asserts every encoded rule was registered so;
 * main() builds every suite before running any, so the record is complete.
 */
extern unsigned char model_rule_tested[M_RULE_COUNT_];
#define RTEST(tc, sym, fn) (model_rule_tested[M_RULE_##sym] = 1, tcase_add_test(tc, fn))

#endif

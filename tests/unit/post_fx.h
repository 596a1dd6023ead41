/*
 * post_fx.h — helpers of the model's work-request tests (test_model_post*.c):
 * a WRITE / READ from node 0's QP into node 1's MR of a struct pair s (in a
 * test whose fixture is f), and a SEND or a receive from (into) an MR.
 */
#ifndef RDMACHECK_TEST_POST_FX_H
#define RDMACHECK_TEST_POST_FX_H

#include "tests/unit/model_fx.h"

#define W(off, len) op_rdma(&f, M_OP_WRITE, 0, s.qa, s.ma, 0, 1, s.mb, off, len)
#define R(off, len) op_rdma(&f, M_OP_READ, 0, s.qa, s.ma, 0, 1, s.mb, off, len)

/* A SEND (a receive) of len bytes from (into) MR mr's first byte, on node's qp. */
static inline struct m_op op_send(struct fx *f, int node, int qp, int mr, uint64_t len)
{
	return (struct m_op){ .kind = M_OP_SEND, .node = (uint8_t)node, .obj = (int16_t)qp, .verbs.len = len,
			      .verbs.lkey = f->m.node[node].mr[mr].lkey, .verbs.laddr = model_mr_laddr(&f->m, (unsigned)node, mr, 0) };
}

static inline struct m_op op_recv(struct fx *f, int node, int qp, int mr, uint64_t len)
{
	struct m_op op = op_send(f, node, qp, mr, len);

	op.kind = M_OP_RECV;
	return op;
}

#endif

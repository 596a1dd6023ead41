/*
 * dat_fx.h — helpers of the uDAPL model tests (test_model_dat*.c): DAT
 * outcomes, an IA and PZ per node, LMRs, connected EPs, DTOs between LMRs,
 * and a two-node pair ready for DTOs.
 */
#ifndef RDMACHECK_TEST_DAT_FX_H
#define RDMACHECK_TEST_DAT_FX_H

#include "tests/unit/model_fx.h"

static inline struct m_outcome dat_(enum m_dat_ret e) { return (struct m_outcome){ M_OUT_DAT, (int32_t)e }; }
static inline struct m_outcome dto_(enum m_dat_dto s) { return (struct m_outcome){ M_OUT_DTO, (int32_t)s }; }

/* Is o the only completion pr allows, the rest being the post-time refusals
 * dat_ep_post_rdma_read/write(3DAT) allow for it (DAT-DTO-5)? */
static inline int dto_only(struct m_pred pr, struct m_outcome o)
{
	int found = 0;

	for (unsigned i = 0; i < pr.n; i++) {
		struct m_outcome a = pr.alt[i].out;

		if (a.kind == o.kind && a.code == o.code)
			found = 1;
		else if (a.kind != M_OUT_DAT || !fx_rule(pr, a, M_RULE_DAT_DTO_5) ||
			 (a.code != M_DAT_PRIVILEGES_VIOLATION && a.code != M_DAT_PROTECTION_VIOLATION &&
			  a.code != M_DAT_INVALID_PARAMETER))
			return 0;
	}
	return found;
}

#define PRIV_RW (M_DAT_PRIV_LOCAL_WRITE | M_DAT_PRIV_REMOTE_WRITE | M_DAT_PRIV_REMOTE_READ)
#define PRIV_READ (M_DAT_PRIV_LOCAL_READ | M_DAT_PRIV_REMOTE_READ)  /* DAT_MEM_PRIV_READ_FLAG */
#define PRIV_ALL 0x33u                                              /* DAT_MEM_PRIV_ALL_FLAG */

/* Open node's IA and create a PZ there; returns the PZ. */
static inline int dat_node(struct fx *f, int node)
{
	fx_do(f, (struct m_op){ .kind = M_OP_DAT_IA_OPEN, .node = (uint8_t)node }, ok_());
	return fx_do(f, (struct m_op){ .kind = M_OP_DAT_PZ_CREATE, .node = (uint8_t)node, .obj = -1 }, ok_());
}

static inline struct m_op op_lmr(int node, int pz, uint64_t len, uint32_t priv)
{
	return (struct m_op){ .kind = M_OP_DAT_LMR_CREATE, .node = (uint8_t)node, .obj = -1, .dat.pz = (int16_t)pz,
			      .dat.lmr = -1, .dat.len = len, .dat.priv = priv };
}

static inline int fx_lmr(struct fx *f, int node, int pz, uint64_t len, uint32_t priv)
{
	return fx_do(f, op_lmr(node, pz, len, priv), ok_());
}

static inline int fx_ep(struct fx *f, int node, int pz, int peer, int ppz)
{
	return fx_do(f, (struct m_op){ .kind = M_OP_DAT_EP_CONNECT, .node = (uint8_t)node, .obj = -1,
				       .dat.pz = (int16_t)pz, .dat.peer_node = (int16_t)peer, .dat.peer_pz = (int16_t)ppz },
		     ok_());
}

/* A DTO on EP ep of node with the local triplet in LMR l+loff and the remote in rnode's LMR r+roff. */
static inline struct m_op op_dto(struct fx *f, enum m_op_kind k, int node, int ep, int l, uint64_t loff, int rnode, int r,
					 uint64_t roff, uint64_t len)
{
	struct m_op op = { .kind = (uint8_t)k, .node = (uint8_t)node, .obj = (int16_t)ep, .dat.lmr = (int16_t)l,
			   .dat.remote = (int16_t)r, .dat.peer_node = (int16_t)rnode, .dat.len = len, .dat.offset = loff,
			   .dat.roff = roff };

	op.dat.lkey = f->m.node[node].mr[l].lkey;
	op.dat.laddr = model_mr_laddr(&f->m, (unsigned)node, l, loff);
	op.dat.rkey = f->m.node[rnode].mr[r].rkey;
	op.dat.raddr = model_mr_raddr(&f->m, (unsigned)rnode, r, roff);
	return op;
}

/* Two nodes, a PZ each, a source LMR on 0, a read-write target LMR on 1, an EP from 0 to 1. */
struct dpair { int za, zb, src, dst, ep; };
static inline struct dpair fx_dpair(struct fx *f, const char *profile)
{
	struct dpair s;

	fx_init(f, 2, profile);
	s.za = dat_node(f, 0);
	s.zb = dat_node(f, 1);
	s.src = fx_lmr(f, 0, s.za, 4096, M_DAT_PRIV_LOCAL_WRITE);
	s.dst = fx_lmr(f, 1, s.zb, 4096, PRIV_RW);
	s.ep = fx_ep(f, 0, s.za, 1, s.zb);
	return s;
}

#endif

/*
 * slot.c — where a new verbs object goes in its node's table (internal.h):
 * the next slot never used while the table has one; once it is full, a slot
 * whose object was destroyed and that nothing refers to any more, so a
 * scenario may create and destroy without bound (issue 18: a PD pair repeated
 * 500 times) while at most M_MAX_* objects of a kind live together. A reused
 * slot's handle names the new object only: the caller that maps names to
 * handles (the harness, be_model.c) forgets the old name's handle.
 */
#include "model/verbs/internal.h"

#include <errno.h>
#include <stdlib.h>

int m_slot_pd(const struct model *m, unsigned node)
{
	const struct m_node *nd = &m->node[node];

	if (nd->npd < M_MAX_PD)
		return nd->npd;
	for (int s = 0; s < M_MAX_PD; s++) {
		int used = nd->pd[s].live || nd->pd[s].usecnt;

		for (int i = 0; !used && i < nd->nmr; i++)
			used = nd->mr[i].pd == s;
		for (int i = 0; !used && i < nd->nmw; i++)
			used = nd->mw[i].pd == s;
		for (int i = 0; !used && i < nd->nqp; i++)
			used = nd->qp[i].pd == s;
		if (!used)
			return s;
	}
	return -ENOSPC;
}

int m_slot_mr(struct model *m, unsigned node, int keep)
{
	struct m_node *nd = &m->node[node];

	if (nd->nmr < M_MAX_MR)
		return nd->nmr;
	for (int s = 0; s < M_MAX_MR; s++) {
		struct m_mr *mr = &nd->mr[s];
		int used = mr->live || mr->nbound || s == keep;

		for (int i = 0; !used && i < nd->nmr; i++)
			used = i != s && nd->mr[i].buf == s; /* another registration of its buffer */
		for (int i = 0; !used && i < nd->nmw; i++)
			used = nd->mw[i].mr == s;
		for (int i = 0; !used && i < nd->nconn; i++)
			used = nd->conn[i].aux_mr == s;
		if (used)
			continue;
		if (mr->buf == s) /* its own bytes go with it */
			m_mem_drop(mr->mem);
		mr->mem = NULL;
		return s;
	}
	return -ENOSPC;
}

int m_slot_mw(const struct model *m, unsigned node)
{
	const struct m_node *nd = &m->node[node];

	if (nd->nmw < M_MAX_MW)
		return nd->nmw;
	for (int s = 0; s < M_MAX_MW; s++)
		if (!nd->mw[s].live)
			return s;
	return -ENOSPC;
}

/* Whether QP s of node is named by anything: a QP's peer, a connection, a window bound through it. */
static int qp_named(const struct model *m, unsigned node, int s)
{
	const struct m_node *nd = &m->node[node];

	for (int i = 0; i < nd->nmw; i++)
		if (nd->mw[i].bind_qp == s)
			return 1;
	for (unsigned n = 0; n < m->nnodes; n++) {
		const struct m_node *o = &m->node[n];

		for (int i = 0; i < o->nqp; i++)
			if (o->qp[i].peer_node == (int)node && o->qp[i].peer_qp == s)
				return 1;
		for (int i = 0; i < o->nconn; i++)
			if ((n == node && o->conn[i].qp == s) || (o->conn[i].peer_node == (int)node && o->conn[i].peer_qp == s))
				return 1;
	}
	return 0;
}

int m_slot_qp(const struct model *m, unsigned node)
{
	const struct m_node *nd = &m->node[node];

	if (nd->nqp < M_MAX_QP)
		return nd->nqp;
	for (int s = 0; s < M_MAX_QP; s++)
		if (!nd->qp[s].live && !qp_named(m, node, s))
			return s;
	return -ENOSPC;
}

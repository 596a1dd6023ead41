/*
 * recvsge.c — receives with several SGEs (recvsge.h): where a posted
 * receive keeps the SGEs after its first (a slot of its node's pool), the
 * check of each against the SEND that consumes it (LP-4, LP-6, LP-2: only
 * the SGEs the message reaches must be valid) and the scatter of the
 * message's bytes into them in order.
 */
#include "model/verbs/internal.h"

#include <string.h>

/* Mark in used[] the pool slots the posted receives of rq[0..n) name. */
static void mark_used(const struct m_recv *rq, unsigned n, uint8_t *used)
{
	for (unsigned i = 0; i < n; i++)
		if (rq[i].nmore)
			used[rq[i].slot] = 1;
}

int m_rsge_free_slot(const struct m_node *nd)
{
	uint8_t used[M_RSGE_SLOTS] = { 0 };

	for (unsigned q = 0; q < nd->nqp; q++)
		if (nd->qp[q].live)
			mark_used(nd->qp[q].recv, nd->qp[q].nrecv, used);
	for (unsigned s = 0; s < nd->ud.nsrq; s++)
		if (nd->ud.srq[s].live)
			mark_used(nd->ud.srq[s].recv, nd->ud.srq[s].nrecv, used);
	for (int i = 0; i < M_RSGE_SLOTS; i++)
		if (!used[i])
			return i;
	return -1;
}

int m_recv_store(struct m_node *nd, const struct m_op *op, struct m_recv *out)
{
	const struct m_verbs_args *v = &op->verbs;
	int slot = v->nsge_more ? m_rsge_free_slot(nd) : 0;

	if (slot < 0 || v->nsge_more > M_SGE_MAX - 1)
		return -ENOSPC;
	*out = (struct m_recv){ .no_sge = v->no_sge, .nmore = v->nsge_more, .slot = (uint8_t)slot, .lkey = v->lkey,
				.addr = v->laddr, .len = (uint32_t)v->len, .wr_id = v->wr_id };
	for (unsigned i = 0; i < v->nsge_more; i++)
		nd->rsge.x[slot][i] = (struct m_rsge){ v->sge_more[i].lkey, (uint32_t)v->sge_more[i].len,
						       v->sge_more[i].addr };
	return 0;
}

unsigned m_recv_sges(const struct m_node *nd, const struct m_recv *rq, struct m_sge out[M_SGE_MAX])
{
	uint64_t first = rq->len;

	if (rq->no_sge)
		return 0;
	for (unsigned i = 0; i < rq->nmore; i++) {
		const struct m_rsge *g = &nd->rsge.x[rq->slot][i];

		out[i + 1] = (struct m_sge){ g->lkey, g->addr, g->len };
		first -= g->len;
	}
	out[0] = (struct m_sge){ rq->lkey, rq->addr, first };
	return 1u + rq->nmore;
}

int m_recv_sges_valid(const struct m_node *nd, int pd, const struct m_recv *rq, uint64_t msg, int16_t *mr,
		      uint64_t *off, enum m_rule *why, int *reached)
{
	struct m_sge l[M_SGE_MAX];
	unsigned n = m_recv_sges(nd, rq, l);
	uint64_t pos = 0;

	for (unsigned i = 0; i < n; pos += l[i].len, i++) {
		int16_t h;
		uint64_t o;

		if (!m_sge_valid(nd, pd, l[i].lkey, l[i].addr, l[i].len, 1, &h, &o, why)) {
			*mr = -1;
			*reached = pos < msg && (l[i].len > 0 || n == 1); /* LP-2: a zero-length one in a list may be skipped */
			return 0;
		}
		if (i == 0) {
			*mr = h;
			*off = o;
		}
	}
	return 1;
}

void m_recv_scatter(struct m_node *nd, const struct m_pred *pr, struct m_node *pn, const struct m_recv *rq)
{
	struct m_sge l[M_SGE_MAX];
	unsigned n = m_recv_sges(pn, rq, l);
	uint64_t pos = 0, msg = pr->op.verbs.len;

	for (unsigned i = 0; i < n && pos < msg; pos += l[i].len, i++) {
		uint64_t k = l[i].len < msg - pos ? l[i].len : msg - pos;
		int h = m_mr_by_lkey(pn, l[i].lkey);

		/* Only an SGE the message reaches takes bytes, and the prediction checked it. */
		if (k && h >= 0 && m_range_ok(l[i].addr, k, pn->mr[h].addr, pn->mr[h].len))
			m_sge_gather_part(nd, pr, pos, k, &pn->mr[h], l[i].addr - pn->mr[h].addr);
	}
}

int m_recv_failed(struct m_node *pn, int qp, uint64_t msg)
{
	const struct m_recv *rq = m_rq_head(pn, qp);
	struct m_sge l[M_SGE_MAX];
	uint64_t pos = 0;
	unsigned n;

	if (!rq || !rq->nmore)
		return 0;
	n = m_recv_sges(pn, rq, l);
	for (unsigned i = 0; i < n && pos < msg; pos += l[i].len, i++) {
		int h = m_mr_by_lkey(pn, l[i].lkey);
		uint64_t k = l[i].len < msg - pos ? l[i].len : msg - pos;

		if (h < 0 || l[i].addr < pn->mr[h].addr || l[i].addr - pn->mr[h].addr >= pn->mr[h].len)
			continue;
		uint64_t off = l[i].addr - pn->mr[h].addr;

		m_mr_unknown(&pn->mr[h], off, k < pn->mr[h].len - off ? k : pn->mr[h].len - off);
	}
	return 1;
}

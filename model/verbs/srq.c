/*
 * srq.c — shared receive queues: create_srq (it holds its PD, PD-3),
 * destroy_srq (not while a QP uses it: SRQ-1), post_srq_recv, the
 * receive queue a QP made with an SRQ takes its receives from (SRQ-2),
 * modify_srq's resize and limit (SRQ-MOD-1) and query_srq (SRQ-MOD-2).
 */
#include "model/verbs/internal.h"

#include <string.h>

/* The SRQ QP qp of nd uses, or NULL. */
static const struct m_srq *srq_of(const struct m_node *nd, int qp)
{
	return nd->ud.qp_srq[qp] ? &nd->ud.srq[nd->ud.qp_srq[qp] - 1] : NULL;
}

/* A live SRQ handle h on nd? */
static int srq_live(const struct m_node *nd, int h)
{
	return h >= 0 && h < nd->ud.nsrq && nd->ud.srq[h].live;
}

int m_srq_usable(const struct m_node *nd, const struct m_op *op)
{
	/* An SRQ of another PD than the QP's too: its receives are checked against a PD of
	 * its own (SRQ-3). */
	return !op->verbs.srq1 || srq_live(nd, op->verbs.srq1 - 1);
}

int m_srq_recv_pd(const struct m_node *nd, int qp, const struct m_recv *rq, const struct m_profile *p,
		  struct m_why *why)
{
	const struct m_srq *s = srq_of(nd, qp);
	int qpd = nd->qp[qp].pd, in_srq, in_qp;
	int16_t mr;
	uint64_t off;
	enum m_rule r;

	if (!s || s->pd == qpd || rq->no_sge)
		return s ? s->pd : qpd;
	m_why_add(why, M_RULE_SRQ_3);
	in_srq = m_sge_valid(nd, s->pd, rq->lkey, rq->addr, rq->len, 1, &mr, &off, &r);
	in_qp = m_sge_valid(nd, qpd, rq->lkey, rq->addr, rq->len, 1, &mr, &off, &r);
	if (in_srq == in_qp)
		return s->pd;
	/* Valid in one PD only. IBA: the SRQ's decides (an MR of the QP's PD fails LP-4, one of
	 * the SRQ's lands); a profile may check the QP's. A profile gives one outcome. */
	struct m_set d = in_qp ? DECIDE(p, SRQ_3, PART_STEP, O_WC(M_WC_REM_OP_ERR))
			       : DECIDE(p, SRQ_3, PART_SRQ_PD, O_WC(M_WC_SUCCESS));
	int lands = m_set_has(&d, O_WC(M_WC_SUCCESS));

	return lands == in_qp ? qpd : s->pd;
}

void m_srq_attach(struct m_node *nd, int qp, uint8_t srq1)
{
	if (nd->ud.qp_srq[qp])
		nd->ud.srq[nd->ud.qp_srq[qp] - 1].nqp--;
	nd->ud.qp_srq[qp] = srq1;
	if (srq1)
		nd->ud.srq[srq1 - 1].nqp++;
}

const struct m_recv *m_rq_head(const struct m_node *nd, int qp)
{
	const struct m_srq *s = srq_of(nd, qp);

	if (s)
		return s->nrecv ? &s->recv[0] : NULL;
	return nd->qp[qp].nrecv ? &nd->qp[qp].recv[0] : NULL;
}

void m_rq_consume(struct m_node *nd, int qp)
{
	if (!nd->ud.qp_srq[qp]) {
		m_consume_recv(&nd->qp[qp]);
		return;
	}
	struct m_srq *s = &nd->ud.srq[nd->ud.qp_srq[qp] - 1];

	memmove(&s->recv[0], &s->recv[1], sizeof(s->recv[0]) * (size_t)(s->nrecv - 1));
	s->nrecv--;
	if (s->limit && s->nrecv < s->limit)
		s->limit = 0; /* below the low watermark: the limit event, the SRQ disarmed (SRQ-MOD-2) */
}

/* modify_srq of SRQ s: what rxe_srq_chk_attr checks, in its order (SRQ-MOD-1). */
static int pred_srq_modify(const struct m_profile *p, const struct m_srq *s, const struct m_op *op,
			   struct m_pred *out)
{
	struct m_why why = { 0 };
	uint64_t wr = op->verbs.max_recv_wr;
	int grow = (op->verbs.srq_mask & M_SRQ_MAX_WR) != 0, arm = (op->verbs.srq_mask & M_SRQ_LIMIT) != 0;
	struct m_set set;

	m_why_add(&why, M_RULE_SRQ_MOD_1);
	if (grow && (wr == 0 || (s->limit && wr < s->limit))) {
		set = DECIDE(p, SRQ_MOD_1, PART_STEP, O_ERR(EINVAL));
		m_alts_add(out, &set, M_EFF_NONE, &why, -1);
		return 0;
	}
	/* past the depth asked, or a depth below the receives it holds: the provider's depths may be
	 * deeper than asked (rxe rounds up to 2^k - 1) */
	if ((arm && op->verbs.srq_limit > s->max_recv) || (grow && wr < s->nrecv)) {
		set = DECIDE(p, SRQ_MOD_1, PART_STEP, O_ERR(EINVAL), O_OK);
		for (unsigned i = 0; i < set.n; i++)
			m_alt_add(out, set.o[i], set.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
		return 0;
	}
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

int m_srq_query(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_node *nd = &m->node[op->node];

	if (!srq_live(nd, op->obj))
		return -EINVAL;
	const struct m_srq *s = &nd->ud.srq[op->obj];

	m_qres_add(out, "max_wr", M_Q_ATLEAST, s->max_recv, M_RULE_SRQ_MOD_2);
	m_qres_add(out, "max_sge", M_Q_ATLEAST, 1, M_RULE_SRQ_MOD_2);
	m_qres_add(out, "srq_limit", M_Q_EXACT, s->limit, M_RULE_SRQ_MOD_2);
	return 0;
}

/* post_srq_recv: the SRQ's depth (LP-7, as a QP's receive queue). */
static int pred_srq_recv(const struct m_profile *p, const struct m_srq *s, struct m_pred *out)
{
	struct m_why why = { 0 };

	if (s->nrecv >= s->max_recv) {
		struct m_set set = s->nrecv >= 2 * s->max_recv || s->nrecv >= M_MAX_RECV
					   ? DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM))
					   : DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM), O_OK);

		m_why_add(&why, M_RULE_LP_7);
		for (unsigned i = 0; i < set.n; i++)
			m_alt_add(out, set.o[i], set.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_SRQ_2);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

int m_pred_srq(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_set s;

	switch ((enum m_op_kind)op->kind) {
	case M_OP_CREATE_SRQ:
		if (op->verbs.pd < 0 || op->verbs.pd >= nd->npd || !nd->pd[op->verbs.pd].live ||
		    op->verbs.max_recv_wr > M_RECV_DEPTH_MAX || (op->verbs.lim_max & op->verbs.lim_past) ||
		    ((op->verbs.lim_max | op->verbs.lim_past) & ~(M_LIMK_RECV_WR | M_LIMK_SGE)))
			return -EINVAL;
		if (m_lim_pred(p, op, &why, out)) /* refused, or made at both SRQ limits */
			return 0;
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_DESTROY_SRQ:
		if (!srq_live(nd, op->obj))
			return -EINVAL;
		m_why_add(&why, M_RULE_SRQ_1);
		if (nd->ud.srq[op->obj].nqp) {
			s = DECIDE(p, SRQ_1, PART_STEP, O_ERR(EBUSY));
			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else {
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		return 0;
	case M_OP_POST_SRQ_RECV:
		if (!srq_live(nd, op->obj))
			return -EINVAL;
		return pred_srq_recv(p, &nd->ud.srq[op->obj], out);
	case M_OP_MODIFY_SRQ:
		if (!srq_live(nd, op->obj) || (op->verbs.srq_mask & ~(M_SRQ_MAX_WR | M_SRQ_LIMIT)) ||
		    op->verbs.max_recv_wr > M_MAX_RECV || op->verbs.srq_limit > UINT8_MAX)
			return -EINVAL;
		return pred_srq_modify(p, &nd->ud.srq[op->obj], op, out);
	case M_OP_QUERY_SRQ:
		if (!srq_live(nd, op->obj))
			return -EINVAL;
		m_why_add(&why, M_RULE_SRQ_MOD_2);
		m_alt_add(out, O_OK, M_EFF_NONE, &why, -1);
		return 0;
	case M_OP_RECV:
		/* ibv_post_recv on a QP with an SRQ (SRQ-2). */
		s = DECIDE(p, SRQ_2, PART_STEP, O_ERR(EINVAL));
		m_why_add(&why, M_RULE_SRQ_2);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	default:
		return -EINVAL;
	}
}

int m_apply_srq(struct model *m, const struct m_op *op, int *created)
{
	struct m_node *nd = &m->node[op->node];

	switch ((enum m_op_kind)op->kind) {
	case M_OP_CREATE_SRQ:
		if (nd->ud.nsrq >= M_MAX_SRQ)
			return -ENOSPC;
		nd->ud.srq[nd->ud.nsrq] = (struct m_srq){
			.live = 1, .ever = 1, .pd = op->verbs.pd,
			.max_recv = (op->verbs.lim_max & M_LIMK_RECV_WR) ? M_MAX_RECV /* deeper than the model tracks */
				    : (uint8_t)(op->verbs.max_recv_wr ? op->verbs.max_recv_wr : M_RECV_DEPTH_DEFAULT) };
		nd->pd[op->verbs.pd].usecnt++;
		*created = nd->ud.nsrq++;
		return 0;
	case M_OP_DESTROY_SRQ:
		nd->ud.srq[op->obj].live = 0;
		nd->pd[nd->ud.srq[op->obj].pd].usecnt--;
		return 0;
	case M_OP_MODIFY_SRQ: {
		struct m_srq *s = &nd->ud.srq[op->obj];

		if (op->verbs.srq_mask & M_SRQ_MAX_WR)
			s->max_recv = (uint8_t)op->verbs.max_recv_wr; /* at least that deep (SRQ-MOD-1) */
		if (op->verbs.srq_mask & M_SRQ_LIMIT)
			s->limit = (uint8_t)op->verbs.srq_limit;
		return 0;
	}
	case M_OP_QUERY_SRQ:
		return 0;
	default: { /* M_OP_POST_SRQ_RECV */
		struct m_srq *s = &nd->ud.srq[op->obj];

		if (s->nrecv >= M_MAX_RECV)
			return -ENOSPC;
		s->recv[s->nrecv++] = (struct m_recv){ .no_sge = op->verbs.no_sge, .lkey = op->verbs.lkey, .addr = op->verbs.laddr,
						       .len = (uint32_t)op->verbs.len, .wr_id = op->verbs.wr_id };
		return 0;
	}
	}
}

/*
 * post.c — predictions for work requests: RDMA WRITE/READ, atomics,
 * SEND (with invalidate), RECV, LOCAL_INV and memory-window binds (these two in
 * post_mw.c). Every post
 * is signaled and waited for, so a QP never has more than one send WR
 * outstanding; posted receives queue up.
 */
#include "model/verbs/internal.h"

#include <string.h>

#define WC_ERR(s) O_WC(M_WC_##s)

/* The right a remote operation needs at the responder. */
static uint32_t needed_right(enum m_op_kind k)
{
	switch (k) {
	case M_OP_READ: return M_ACC_REMOTE_READ;
	case M_OP_WRITE: case M_OP_WRITE_IMM: return M_ACC_REMOTE_WRITE;
	default: return M_ACC_REMOTE_ATOMIC;
	}
}

/* A remote error: both QPs to ERR (RA-ERR-2, RA-ERR-3), NAK mapping RA-ERR-1. */
static void remote_fail(struct m_pred *out, const struct m_set *s, struct m_why w, enum m_rule r,
			int unknown)
{
	m_why_add(&w, r);
	m_why_add(&w, M_RULE_RA_ERR_1);
	m_why_add(&w, M_RULE_RA_ERR_2);
	m_why_add(&w, M_RULE_RA_ERR_3);
	unsigned first = out->n;

	m_alts_add(out, s, M_EFF_BOTH_ERR, &w, -1);
	for (unsigned i = first; i < out->n; i++)
		out->alt[i].target_unknown = (uint8_t)unknown;
}

/*
 * The responder's checks for READ/WRITE/atomics, in rxe's order: QP access
 * flags (RA-QP-1), READ/atomic resources (RA-RES-1), length (RA-LEN-1), zero length (RA-ZERO-1), then the key
 * (RA-KEY-1; MR or MW), PD (RA-PD-1), rights (RA-ACC-1), bounds (RA-BND-1;
 * MW-ACC-2 for windows). Adds failing alternatives; returns whether the
 * access may succeed, with the target in out->res.
 */
static int responder_check(const struct model *m, const struct m_profile *p, struct m_pred *out,
			   struct m_why *why)
{
	const struct m_op *op = &out->op;
	const struct m_node *pn = &m->node[out->res.peer_node];
	const struct m_qp *pq = &pn->qp[out->res.peer_qp];
	uint32_t right = needed_right((enum m_op_kind)op->kind);
	uint64_t len = op->kind == M_OP_CAS || op->kind == M_OP_FADD ? 8 : op->verbs.len;
	struct m_set s;

	if (!(pq->access & right)) {
		s = DECIDE(p, RA_QP_1, PART_STEP, WC_ERR(REM_INV_REQ_ERR), WC_ERR(REM_ACCESS_ERR));
		remote_fail(out, &s, *why, M_RULE_RA_QP_1, 0);
		return 0;
	}
	if (pq->no_rd_atomic && right != M_ACC_REMOTE_WRITE) {
		s = DECIDE(p, RA_RES_1, PART_STEP, WC_ERR(REM_INV_REQ_ERR));
		remote_fail(out, &s, *why, M_RULE_RA_RES_1, 0);
		return 0;
	}
	if (len > (1ull << 31)) {
		s = DECIDE(p, RA_LEN_1, PART_STEP, WC_ERR(REM_INV_REQ_ERR));
		remote_fail(out, &s, *why, M_RULE_RA_LEN_1, 0);
		return 0;
	}
	if (len == 0) {
		m_why_add(why, M_RULE_RA_ZERO_1);
		return 1;
	}
	s = DECIDE(p, RA_KEY_1, PART_STEP, WC_ERR(REM_ACCESS_ERR));
	int h = m_mr_by_rkey(pn, op->verbs.rkey), hl = h < 0 ? m_mr_by_lkey(pn, op->verbs.rkey) : -1;

	if (hl >= 0 && (pn->mr[hl].access & M_ACC_REMOTE_ANY)) {
		/* MR-KEY-4: the MR's lkey as the rkey (OK: the profile's provider has one key for both) */
		struct m_set k = DECIDE(p, MR_KEY_4, PART_STEP, WC_ERR(REM_ACCESS_ERR));

		m_why_add(why, M_RULE_MR_KEY_4);
		if (!m_set_has(&k, O_OK)) {
			remote_fail(out, &k, *why, M_RULE_MR_KEY_4, 0);
			return 0;
		}
		h = hl;
	}
	if (h >= 0) {
		const struct m_mr *mr = &pn->mr[h];

		if (mr->pd != pq->pd) {
			remote_fail(out, &s, *why, M_RULE_RA_PD_1, 0);
			return 0;
		}
		if (!(mr->access & right)) {
			if (!(mr->access & M_ACC_REMOTE_ANY))
				m_why_add(why, M_RULE_MR_KEY_2);
			remote_fail(out, &s, *why, M_RULE_RA_ACC_1, 0);
			return 0;
		}
		if (!m_range_ok(op->verbs.raddr, len, mr->iova, mr->len)) {
			/* RA-WRITE-1: a refused WRITE may leave part of the target written. */
			int unknown = 0;

			if (op->kind == M_OP_WRITE || op->kind == M_OP_WRITE_IMM) {
				struct m_set u = DECIDE(p, RA_WRITE_1, PART_STEP, WC_ERR(GENERAL_ERR));

				unknown = !m_set_has(&u, O_OK);
				m_why_add(why, M_RULE_RA_WRITE_1);
				out->res.tmr = (int16_t)h;
			}
			remote_fail(out, &s, *why, M_RULE_RA_BND_1, unknown);
			return 0;
		}
		m_why_add(why, M_RULE_RA_BND_1);
		out->res.tmr = (int16_t)h;
		out->res.toff = op->verbs.raddr - mr->iova;
		return 1;
	}
	int w = m_mw_by_rkey(pn, op->verbs.rkey);

	if (w < 0 || !pn->mw[w].bound) {
		m_why_add(why, M_RULE_MR_KEY_3);
		if (w >= 0)
			m_why_add(why, M_RULE_MW_ALLOC_2);
		remote_fail(out, &s, *why, w >= 0 ? M_RULE_MW_ACC_1 : M_RULE_RA_KEY_1, 0);
		return 0;
	}
	const struct m_mw *mw = &pn->mw[w];
	const struct m_mr *mr = &pn->mr[mw->mr];

	m_why_add(why, M_RULE_MW_ACC_1);
	if (mw->pd != pq->pd) {
		remote_fail(out, &s, *why, M_RULE_RA_PD_1, 0);
		return 0;
	}
	if (mw->type == M_MW_TYPE_2 && mw->bind_qp != out->res.peer_qp) {
		remote_fail(out, &s, *why, M_RULE_MW_ACC_1, 0);
		return 0;
	}
	if (!(mw->access & right)) {
		remote_fail(out, &s, *why, M_RULE_RA_ACC_1, 0);
		return 0;
	}
	uint64_t addr = op->verbs.raddr;

	if (mw->zero_based) {
		m_why_add(why, M_RULE_MW_ACC_3);
		if (addr > UINT64_MAX - mw->start) {
			remote_fail(out, &s, *why, M_RULE_RA_BND_1, 0);
			return 0;
		}
		addr += mw->start;
	}
	if (!m_range_ok(addr, len, mr->iova, mr->len)) {
		remote_fail(out, &s, *why, M_RULE_RA_BND_1, 0);
		return 0;
	}
	out->res.tmr = (int16_t)mw->mr;
	out->res.toff = addr - mr->iova;
	if (!m_range_ok(addr, len, mw->start, mw->len)) {
		/* Inside the MR, outside the window (MW-ACC-2): a profile may let it through. */
		struct m_set ws = DECIDE(p, MW_ACC_2, PART_STEP, WC_ERR(REM_ACCESS_ERR));
		struct m_set fails = { 0 };

		m_why_add(why, M_RULE_MW_ACC_2);
		for (unsigned i = 0; i < ws.n; i++)
			if (ws.o[i].code != M_WC_SUCCESS)
				fails.o[fails.n++] = ws.o[i];
		remote_fail(out, &fails, *why, M_RULE_MW_ACC_2, 0);
		return m_set_has(&ws, WC_ERR(SUCCESS));
	}
	return 1;
}

/* SEND (LP-4, LP-5) and SEND_WITH_INV (MW-INV-2, MW-INV-4) at the responder. */
static void peer_receive(const struct model *m, const struct m_profile *p, struct m_pred *out,
			 struct m_why why)
{
	const struct m_op *op = &out->op;
	const struct m_node *pn = &m->node[out->res.peer_node];
	const struct m_qp *pq = &pn->qp[out->res.peer_qp];
	struct m_set s, r;
	enum m_rule rr;
	int reached = 0;

	const struct m_recv *rq = m_rq_head(pn, out->res.peer_qp); /* its own or its SRQ's (SRQ-2) */

	if (!rq) {
		/* No receive posted: RNR NAKs until the retry count runs out. */
		m_why_add(&why, M_RULE_RA_ERR_2);
		m_alt_add(out, WC_ERR(RNR_RETRY_EXC_ERR), M_EFF_QP_ERR, &why, -1);
		return;
	}

	if (rq->no_sge) {
		out->res.rmr = -1; /* a receive of num_sge 0 holds no byte (LP-5 below) */
	} else if (!m_recv_sges_valid(pn, m_srq_recv_pd(pn, out->res.peer_qp, rq, p, &why), rq, op->verbs.len,
				      &out->res.rmr, &out->res.roff, &rr, &reached)) {
		s = DECIDE(p, LP_4, PART_STEP, WC_ERR(REM_OP_ERR));
		r = DECIDE(p, LP_4, PART_PEER_RECV, WC_ERR(LOC_PROT_ERR), WC_ERR(LOC_QP_OP_ERR));
		m_why_add(&why, rr);
		m_why_add(&why, M_RULE_LP_4);
		m_why_add(&why, M_RULE_RA_ERR_3);
		for (unsigned i = 0; i < r.n; i++)
			m_alts_add(out, &s, M_EFF_BOTH_ERR, &why, r.o[i].code);
		if (reached)
			return;
		/* A message that touches no byte of the SGE (an empty one, or one the SGEs
		 * before it hold): it may go unchecked, as a zero-length SGE (LP-2; rxe: SUCCESS). */
		m_why_add(&why, M_RULE_LP_2);
		out->res.rmr = -1;
	}
	if (op->verbs.len > rq->len) {
		s = DECIDE(p, LP_5, PART_STEP, WC_ERR(REM_INV_REQ_ERR));
		r = DECIDE(p, LP_5, PART_PEER_RECV, WC_ERR(LOC_LEN_ERR), WC_ERR(REM_INV_REQ_ERR));
		m_why_add(&why, M_RULE_LP_5);
		m_why_add(&why, M_RULE_RA_ERR_3);
		for (unsigned i = 0; i < r.n; i++)
			m_alts_add(out, &s, M_EFF_BOTH_ERR, &why, r.o[i].code);
		return;
	}
	if (op->verbs.with_inv) {
		int w = m_mw_by_rkey(pn, op->verbs.rkey);

		if (w >= 0 && pn->mw[w].type == M_MW_TYPE_2 && pn->mw[w].bound && pn->mw[w].pd == pq->pd) {
			out->res.inv_mw = (int16_t)w;
			if (pn->mw[w].bind_qp != out->res.peer_qp) {
				s = DECIDE(p, MW_INV_5, PART_REMOTE, WC_ERR(REM_INV_REQ_ERR), WC_ERR(REM_OP_ERR));
				m_why_add(&why, M_RULE_MW_INV_5);
				m_why_add(&why, M_RULE_RA_ERR_3);
				m_inv_other_qp_alts(out, &s, &why, M_EFF_DO, M_EFF_BOTH_ERR, M_WC_REM_INV_REQ_ERR);
				return;
			}
			m_why_add(&why, M_RULE_MW_INV_2);
		} else {
			int unbound_t2 = w >= 0 && pn->mw[w].type == M_MW_TYPE_2 && !pn->mw[w].bound;
			enum m_rule rule = m_mr_by_rkey(pn, op->verbs.rkey) >= 0 ? M_RULE_MW_INV_4 : M_RULE_MW_INV_2;

			s = m_decide(p, rule, unbound_t2 ? PART_UNBOUND_T2 : PART_REMOTE,
				     (const struct m_outcome[]){ WC_ERR(REM_INV_REQ_ERR), WC_ERR(REM_OP_ERR) }, 2);
			m_why_add(&why, rule);
			m_why_add(&why, M_RULE_RA_ERR_3);
			/* A requester SUCCESS (a profile's) means the responder failed
			 * the invalidation after acknowledging the SEND. */
			for (unsigned i = 0; i < s.n; i++) {
				m_alt_add(out, s.o[i],
					  s.o[i].kind == M_OUT_WC && s.o[i].code == M_WC_SUCCESS ? M_EFF_PEER_ERR
												 : M_EFF_BOTH_ERR,
					  &why, s.o[i].kind == M_OUT_CRASH ? -1 : M_WC_REM_INV_REQ_ERR);
			}
			return;
		}
	}
	m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, M_WC_SUCCESS);
}

/*
 * IBV_SEND_INLINE (LP-3): the data is copied at the post and its lkey never
 * looked at. Longer than the max_inline_data the QP asked for: EINVAL at the
 * post (LP-7), unless the provider gave the QP more (rxe: at least 16 bytes
 * per SGE), then it goes on. The bytes are the memory at the address, in
 * whichever buffer of the node holds it (none: unknown). Returns whether
 * the operation goes on.
 */
int m_inline_data(const struct m_profile *p, const struct m_node *nd, const struct m_qp *q, struct m_pred *out,
		       struct m_why *why)
{
	const struct m_op *op = &out->op;

	m_why_add(why, M_RULE_LP_3);
	if (op->verbs.len > q->max_inline) {
		struct m_set s = DECIDE(p, LP_3, PART_STEP, O_ERR(EINVAL), O_OK);

		if (!m_over_cap(&s, out, why))
			return 0;
	}
	out->res.lmr = -1;
	for (int h = nd->nmr - 1; h >= 0; h--)
		if (nd->mr[h].ever && nd->mr[h].mem && m_range_ok(op->verbs.laddr, op->verbs.len, nd->mr[h].addr, nd->mr[h].len)) {
			out->res.lmr = (int16_t)h;
			out->res.loff = op->verbs.laddr - nd->mr[h].addr;
			break;
		}
	return 1;
}

/*
 * RDMA WRITE with immediate at the responder (RA-WRITE-2): it needs a posted
 * receive before anything else is looked at (none: RNR NAKs until the retry
 * count runs out), then the rkey and range checks of a WRITE; it lands and
 * consumes the receive, whose SGE is not used (its completion is
 * RECV_RDMA_WITH_IMM, SUCCESS).
 */
static void write_imm(const struct model *m, const struct m_profile *p, struct m_pred *out, struct m_why why)
{
	const struct m_qp *pq = &m->node[out->res.peer_node].qp[out->res.peer_qp];
	const struct m_qp *q = &m->node[out->op.node].qp[m_acting_qp(&out->op)];
	uint64_t len = out->op.verbs.len, one = m_first_packet(q), some = q->pmtu ? q->pmtu : MAX_PMTU;
	struct m_why rnr = why;

	/* The responder checks the QP's rights for the opcode on every packet, before it looks for a
	 * receive (KRXE rxe_resp: check_op_valid, then check_resource), which only the last packet,
	 * the one with the immediate, consumes: the first packet of a longer message is checked
	 * against its rkey (check_rkey) before that, as a WRITE's. One packet of the QP's path MTU:
	 * the receive first; more: the rkey first, the receive if it passes; without a path MTU known,
	 * one packet on every path MTU, more on every one, or either between. */
	m_why_add(&why, M_RULE_RA_WRITE_2);
	m_why_add(&rnr, M_RULE_RA_WRITE_2);
	m_why_add(&rnr, M_RULE_RA_ERR_2);
	if (!(pq->access & M_ACC_REMOTE_WRITE)) {
		responder_check(m, p, out, &why); /* RA-QP-1 */
		return;
	}
	if (!m_rq_head(&m->node[out->res.peer_node], out->res.peer_qp)) {
		if (len <= one || responder_check(m, p, out, &why) || len <= some)
			m_alt_add(out, WC_ERR(RNR_RETRY_EXC_ERR), M_EFF_QP_ERR, &rnr, -1);
		return;
	}
	if (!responder_check(m, p, out, &why))
		return;
	m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, M_WC_SUCCESS);
}



static int pred_post(const struct model *m, const struct m_profile *p, struct m_pred *out);
static int post_remote(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
		       struct m_why why);
static void uc_drops(struct m_pred *out);

int m_pred_post(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	int rc = pred_post(m, p, out);

	if (rc)
		return rc;
	const struct m_qp *q = &m->node[op->node].qp[m_acting_qp(op)];

	if (op->kind != M_OP_RECV && q->state == M_QPS_RTS && q->sq_kept)
		m_kept_alts(p, q, out);
	if (q->type == M_QPT_UC)
		uc_drops(out); /* after the kept WRs: what a UC responder refuses is dropped (RA-UC-1) */
	return 0;
}

static int pred_post(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	int qh = m_acting_qp(op);
	struct m_set s;

	if (qh < 0 || qh >= nd->nqp || !nd->qp[qh].live || (op->verbs.with_inv && op->verbs.with_imm))
		return -EINVAL; /* a SEND is WITH_INV or WITH_IMM, not both */
	if (op->verbs.no_sge && op->verbs.len)
		return -EINVAL; /* num_sge 0 carries no byte */
	const struct m_qp *q = &nd->qp[qh];

	if (!m_sge_list_ok(op, q))
		return -EINVAL;
	if (op->kind == M_OP_BIND_MW && op->verbs.mr < 0)
		return m_pred_bind_no_mr(m, p, out); /* a NULL bind_info.mr (MW-BIND-2) */
	if (op->kind == M_OP_BIND_MW) {
		if (op->obj < 0 || op->obj >= nd->nmw || !nd->mw[op->obj].live || op->verbs.mr < 0 ||
		    op->verbs.mr >= nd->nmr || !nd->mr[op->verbs.mr].live)
			return -EINVAL;
		if (nd->mw[op->obj].type != M_MW_TYPE_1 && op->kind == M_OP_BIND_MW && op->verbs.bind_call == 1) {
			/* ibv_bind_mw() called on a type-2 window (MW-BIND-1). */
			s = DECIDE(p, MW_BIND_1, PART_STEP, O_ERR(EINVAL));
			m_why_add(&why, M_RULE_MW_BIND_1);
			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
			return 0;
		}
		if (m_bind_pd_mismatch(nd, op)) {
			/* libibverbs' ibv_bind_mw refuses it before the provider sees the QP. */
			s = DECIDE(p, MW_BIND_3, PART_STEP, O_ERR(EPERM));
			m_why_add(&why, M_RULE_MW_BIND_3);
			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
			return 0;
		}
	}
	if (op->kind == M_OP_RECV) {
		if (nd->ud.qp_srq[qh])
			return m_pred_srq(m, p, out); /* its receives are the SRQ's (SRQ-2) */
		if (op->verbs.nsge_more && m_rsge_free_slot(nd) < 0)
			return -ENOSPC; /* more receives with several SGEs than the model keeps */
		if (1u + op->verbs.nsge_more > q->max_recv_sge) {
			/* More SGEs than max_recv_sge: EINVAL, unless the provider gave more (LP-7). */
			s = DECIDE(p, LP_7, PART_SGE, O_ERR(EINVAL), O_OK);
			if (!m_over_cap(&s, out, &why))
				return 0;
			m_why_add(&why, M_RULE_LP_7);
		}
		if (q->state == M_QPS_RESET) {
			m_why_add(&why, M_RULE_QP_STATE_1);
			m_alt_add(out, O_ERR(EINVAL), M_EFF_NONE, &why, -1);
		} else if (q->nrecv >= q->max_recv) {
			/* The queue is full at the depth asked for, or later: a provider
			 * may round it up, to less than twice the request (LP-7). */
			s = q->nrecv >= 2 * q->max_recv ? DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM))
							 : DECIDE(p, LP_7, PART_STEP, O_ERR(ENOMEM), O_OK);
			m_why_add(&why, M_RULE_LP_7);
			for (unsigned i = 0; i < s.n; i++)
				m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
		} else if (q->state == M_QPS_ERR) {
			/* Accepted and flushed at once (RA-ERR-5; its own decision: a
			 * profile's flush on the send queue is not the receive post's). */
			struct m_set fl = DECIDE(p, RA_ERR_5, PART_RECV_FLUSH, WC_ERR(WR_FLUSH_ERR));

			s = DECIDE(p, RA_ERR_5, PART_RECV_Q, O_OK, O_ERR(EINVAL));
			m_why_add(&why, M_RULE_RA_ERR_5);
			/* ok: flushed at once (NONE: its WR_FLUSH_ERR completion, cq.c), or a profile's
			 * "no completion": it stays posted (DO) */
			for (unsigned i = 0; i < s.n; i++)
				m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK && m_set_has(&fl, O_OK) ? M_EFF_DO : M_EFF_NONE,
					  &why, -1);
		} else {
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		return 0;
	}
	if (!m_sge_count_ok(p, q, out, &why))
		return 0; /* num_sge over max_send_sge: the library refuses it first (LP-7) */
	if (q->state == M_QPS_ERR) {
		DECIDE_INTO(&s, p, RA_ERR_5, PART_STEP, WC_ERR(WR_FLUSH_ERR), O_ERR(EINVAL));
		m_why_add(&why, M_RULE_RA_ERR_5);
		m_why_add(&why, M_RULE_RA_ERR_2);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	if (q->state != M_QPS_RTS) {
		m_why_add(&why, M_RULE_QP_STATE_1);
		m_kept_outcomes(p, &s);
		m_alt_add(out, O_ERR(EINVAL), s.n ? M_EFF_SQ_KEPT : M_EFF_NONE, &why, -1);
		return 0;
	}
	if (q->type == M_QPT_UD)
		return m_pred_ud_post(m, p, q, out, why);
	if (op->kind == M_OP_BIND_MW)
		return m_post_bind_mw(m, p, q, out, why);
	if (op->kind == M_OP_LOCAL_INV) {
		m_post_local_inv(p, nd, q, out, why);
		return 0;
	}
	if (q->type == M_QPT_UC && (op->kind == M_OP_READ || op->kind == M_OP_CAS || op->kind == M_OP_FADD)) {
		/* RA-ATOM-4: no READ or atomics on UC: refused at the post, or the
		 * requester completes LOC_QP_OP_ERR and goes to ERR. */
		s = DECIDE(p, RA_ATOM_4, PART_STEP, O_ERR(EINVAL), WC_ERR(LOC_QP_OP_ERR));
		m_why_add(&why, M_RULE_RA_ATOM_4);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_WC ? M_EFF_QP_ERR : M_EFF_NONE, &why, -1);
		return 0;
	}

	if (m_pred_inline_no_data(p, out, &why))
		return 0;
	/* The requester gathers a WRITE's or SEND's payload from the local SGE as it
	 * builds the first packet (a WRITE with immediate too): a bad SGE fails
	 * locally, whatever state the peer is in (LP-1 is decided before a
	 * transport error, RA-ERR-3) — unless it goes bad only after the first
	 * packet, whose fate at the responder may come first (LP-8). */
	int gather = op->kind == M_OP_WRITE || op->kind == M_OP_SEND || op->kind == M_OP_WRITE_IMM;

	out->res.peer_node = q->peer_node;
	out->res.peer_qp = q->peer_qp;
	if (gather && (op->verbs.send_inline ? !m_inline_data(p, nd, q, out, &why)
					     : !m_sge_check(p, nd, q->pd, op, op->verbs.len, 0, M_RULE_LP_1, out, &why))) {
		unsigned local = out->n;

		if (op->verbs.send_inline || !m_later_packet_fails(nd, q, op))
			return 0; /* inline data is copied from the caller's buffer: no lkey (LP-3) */
		m_why_add(&why, M_RULE_LP_8);
		post_remote(m, p, q, out, why);
		m_keep_remote_errors(out, local);
		m_local_after_remote_error(out, local);
		m_later_packet_rnr(m, p, q, out, why);
		return 0;
	}
	return post_remote(m, p, q, out, why);
}

/* A request whose local SGE passed (or passes for the first packet, LP-8): at the peer. */
static int post_remote(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
		       struct m_why why)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	int atomic = op->kind == M_OP_CAS || op->kind == M_OP_FADD;
	struct m_set s;

	/* An atomic's alignment and SGE length may be refused at post (rxe does):
	 * before anything goes out, whatever the peer's state. */
	if (atomic) {
		uint64_t sge = op->verbs.len ? op->verbs.len : 8;

		if (op->verbs.raddr & 7) {
			s = DECIDE(p, RA_ATOM_1, PART_STEP, O_ERR(EINVAL), WC_ERR(REM_INV_REQ_ERR));
			m_why_add(&why, M_RULE_RA_ATOM_1);
			for (unsigned i = 0; i < s.n; i++)
				m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_WC ? M_EFF_BOTH_ERR : M_EFF_NONE, &why, -1);
			return 0;
		}
		if (sge != 8) {
			/* A longer SGE is the PART_RANGE part: a profile may let it go on (OK), the
			 * atomic's 8 bytes then land in the SGE's first 8. */
			s = DECIDE(p, RA_ATOM_2, sge > 8 ? PART_RANGE : PART_STEP, O_ERR(EINVAL), WC_ERR(LOC_LEN_ERR));
			m_why_add(&why, M_RULE_RA_ATOM_2);
			for (unsigned i = 0; i < s.n; i++)
				if (s.o[i].kind != M_OUT_OK)
					m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_WC ? M_EFF_QP_ERR : M_EFF_NONE, &why, -1);
			if (!m_set_has(&s, O_OK))
				return 0;
		}
	}
	if ((atomic || op->kind == M_OP_READ) && (q->rd_known & M_RD_KNOWN_RD) && q->rd_atomic == 0) {
		/* RA-RES-2: an initiator depth of 0 leaves the request no credit, before it is
		 * sent (whatever the peer): a profile says what comes of it (rxe: nothing ever). */
		if (op->verbs.nowait || m_post_unsignaled(nd, op))
			return -EOPNOTSUPP; /* a WR left outstanding there: not modelled */
		s = m_decide(p, M_RULE_RA_RES_2, PART_STEP, NULL, 0);
		m_why_add(&why, M_RULE_RA_RES_2);
		if (s.n) {
			why.dev = s.dev;
			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
			return 0;
		}
	}
	/* Remote operations need a live peer that still listens. */
	if (q->peer_node < 0 || !m->node[q->peer_node].qp[q->peer_qp].live ||
	    m->node[q->peer_node].qp[q->peer_qp].state < M_QPS_RTR ||
	    m->node[q->peer_node].qp[q->peer_qp].state == M_QPS_ERR) {
		m_why_add(&why, M_RULE_RA_ERR_3);
		m_alt_add(out, WC_ERR(RETRY_EXC_ERR), M_EFF_QP_ERR, &why, -1);
		return 0;
	}
	if (op->kind == M_OP_SEND) {
		peer_receive(m, p, out, why);
		return 0;
	}
	if (op->kind == M_OP_WRITE_IMM) {
		write_imm(m, p, out, why);
		return 0;
	}
	if (!responder_check(m, p, out, &why))
		return 0;
	if (op->kind == M_OP_READ && op->verbs.send_inline) {
		m_inline_read_lands(p, out, why); /* LP-9 sent as a READ: no MR's range to land in */
		return 0;
	}
	if (op->kind != M_OP_WRITE) {
		/* The result lands in the local SGE: LOCAL_WRITE needed (RA-READ-1, LP-6). */
		unsigned first = out->n;

		m_why_add(&why, atomic ? M_RULE_RA_ATOM_3 : M_RULE_RA_READ_1);
		if (!m_sge_check(p, nd, q->pd, op, atomic ? 8 : op->verbs.len, 1, M_RULE_LP_6, out, &why)) {
			/* The local SGE is written when the response arrives: an atomic
			 * has already been executed by the responder (RA-ATOM-3). */
			for (unsigned i = first; atomic && i < out->n; i++)
				out->alt[i].remote_done = 1;
			return 0;
		}
	}
	m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, -1);
	return 0;
}

/*
 * A UC requester is not told what its responder refused (RA-UC-1): a
 * request the responder drops (a remote access, bounds or rights error, no
 * receive posted, no peer listening) completes SUCCESS and changes nothing,
 * the QPs stay as they are; a receive WQE the responder finds malformed
 * (LP-4) still takes the responder to ERR (rxe do_class_d1e_error). Rewrites
 * out's alternatives in place, merging those that become equal.
 */
static void uc_drops(struct m_pred *out)
{
	struct m_alt old[M_ALT_MAX];
	unsigned n = out->n;

	memcpy(old, out->alt, sizeof(old[0]) * n);
	out->n = 0;
	for (unsigned i = 0; i < n; i++) {
		struct m_alt a = old[i];
		struct m_why w = { 0 };
		int drop = a.out.kind == M_OUT_WC && a.out.code != M_WC_SUCCESS &&
			   (a.effect == M_EFF_BOTH_ERR || a.out.code == M_WC_RNR_RETRY_EXC_ERR ||
			    a.out.code == M_WC_RETRY_EXC_ERR);

		for (unsigned k = 0; k < a.nrules; k++) {
			enum m_rule r = (enum m_rule)a.rules[k];

			/* A drop is no error completion: the rules of those do not apply. */
			if (!drop || (r != M_RULE_RA_ERR_1 && r != M_RULE_RA_ERR_2 && r != M_RULE_RA_ERR_3))
				m_why_add(&w, r);
		}
		if (drop) {
			m_why_add(&w, M_RULE_RA_UC_1);
			a.effect = m_alt_has_rule(&a, M_RULE_LP_4) ? M_EFF_PEER_ERR : M_EFF_NONE;
			a.out = WC_ERR(SUCCESS);
			a.peer_recv = -1;
			a.remote_done = 0;
		}
		unsigned first = out->n;

		m_alt_add(out, a.out, (enum m_effect)a.effect, &w, a.peer_recv);
		for (unsigned k = first; k < out->n; k++) {
			out->alt[k].target_unknown |= a.target_unknown;
			out->alt[k].remote_done = a.remote_done;
		}
	}
}


/* ep.c — uDAPL predictions for endpoints, DTOs and RMR binds (catalog area C; dat/internal.h). */
#include "model/dat/internal.h"

static int ep_valid(const struct m_node *nd, int h)
{
	return VALID(nd->conn, nd->nconn, h) && nd->conn[h].api == M_FAM_DAT;
}

/* Is the EP connected (its QP still RTS)? */
static int ep_connected(const struct m_node *nd, int h)
{
	const struct m_conn *c = &nd->conn[h];

	return c->live && nd->qp[c->qp].live && nd->qp[c->qp].state == M_QPS_RTS;
}

int m_dat_pred_ep_connect(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	if (op->dat.peer_node < 0 || op->dat.peer_node >= m->nnodes || op->dat.peer_node == op->node)
		return -EINVAL;
	const struct m_node *pn = &m->node[op->dat.peer_node];

	/* Both PZs must be live: a connection is set up between two open IAs. */
	if (!VALID(nd->pd, nd->npd, op->dat.pz) || !nd->pd[op->dat.pz].live || nd->pd[op->dat.pz].api != M_FAM_DAT ||
	    !VALID(pn->pd, pn->npd, op->dat.peer_pz) || !pn->pd[op->dat.peer_pz].live ||
	    pn->pd[op->dat.peer_pz].api != M_FAM_DAT)
		return -EINVAL;
	/* DAT-EP-4: private data up to the IA's limit; beyond it OFA misbehaves
	 * in ways no outcome expresses, so the model predicts nothing there. */
	if (op->dat.len > (nd->dat.ia_open == 1 + M_DAT_IA_SCM ? M_DAT_PDATA_SCM : M_DAT_PDATA_CMA))
		return -EINVAL;
	if (op->dat.len)
		m_why_add(&why, M_RULE_DAT_EP_4);
	m_why_add(&why, M_RULE_DAT_EP_1);
	m_why_add(&why, M_RULE_QP_CONN_1);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

int m_dat_pred_ep_act(const struct model *m, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };

	if (!ep_valid(nd, op->obj))
		return -EINVAL;
	if (!nd->conn[op->obj].live) {
		m_dat_stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	if (op->kind == M_OP_DAT_EP_FREE) {
		m_why_add(&why, M_RULE_DAT_EP_3);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_DAT_EP_2);
	if (ep_connected(nd, op->obj))
		m_why_add(&why, M_RULE_RA_ERR_2);
	m_alt_add(out, O_OK, ep_connected(nd, op->obj) ? M_EFF_DO : M_EFF_NONE, &why, -1);
	return 0;
}

/* Is rkey the rmr_context of an LMR on node nd that has been freed? (DAT-FREE-2) */
static int freed_lmr_key(const struct m_node *nd, uint32_t key, int local)
{
	for (int i = 0; i < nd->nmr; i++)
		if (nd->mr[i].ever && !nd->mr[i].live && nd->mr[i].api == M_FAM_DAT &&
		    (local ? nd->mr[i].lkey : nd->mr[i].rkey) == key && key)
			return 1;
	return 0;
}

/* Map one verbs alternative of a DTO (or bind) to the DAT outcome it gives. */
static void dto_alt(struct m_pred *out, const struct m_alt *a, const struct m_why *dat, struct m_outcome o)
{
	struct m_why w = m_dat_why_of(a, dat);
	uint8_t eff = a->effect;
	unsigned first = out->n;

	if (o.kind == M_OUT_DTO && o.code != M_DTO_SUCCESS && o.code != M_DTO_ERR_FLUSHED &&
	    (eff == M_EFF_QP_ERR || eff == M_EFF_BOTH_ERR)) {
		/* DAT-DTO-4: the provider disconnects the broken connection. */
		eff = M_EFF_BOTH_ERR;
		m_why_add(&w, M_RULE_DAT_DTO_4);
	}
	m_alt_add(out, o, (enum m_effect)eff, &w, -1);
	for (unsigned i = first; i < out->n; i++) {
		out->alt[i].target_unknown = a->target_unknown;
		out->alt[i].remote_done = a->remote_done;
	}
}

/*
 * The DAT outcome of a verbs one: a completion status through DAT-DTO-1; a
 * post the verbs layer refuses returns dapl_convert_errno of its errno (no
 * uDAPL step reaches that today: a DISCONNECTED EP's posts are flushed,
 * DAT-EP-2, and a bind is checked by the DAT layer first, DAT-RMR-2).
 */
static struct m_outcome dat_of(struct m_outcome v, struct m_why *w)
{
	if (v.kind == M_OUT_WC) {
		m_why_add(w, M_RULE_DAT_DTO_1);
		return O_DTO(m_dat_dto_status(v.code));
	}
	if (v.kind == M_OUT_ERRNO)
		return O_DAT(m_dat_errno(v.code));
	return v;
}

/*
 * DAT-DTO-5: where a DTO's completion would report a local protection or a
 * remote access error, dat_ep_post_rdma_read/write(3DAT) also let the
 * provider refuse it at the post (RETURN VALUES): nothing moves, the EP stays
 * connected. Adds those returns to out when one of its alternatives is such a
 * completion.
 */
static void post_time_refusals(const struct m_profile *p, struct m_pred *out, const struct m_why *dat)
{
	struct m_why w = *dat;
	int failing = 0;

	for (unsigned i = 0; i < out->n; i++) {
		struct m_outcome o = out->alt[i].out;

		if (o.kind != M_OUT_DTO || (o.code != M_DTO_ERR_LOCAL_PROTECTION && o.code != M_DTO_ERR_REMOTE_ACCESS))
			continue;
		failing = 1;
		/* The verbs rules that found the fault; not the ones saying what a
		 * completion does to the connection (nothing reaches the QP here). */
		for (unsigned k = 0; k < out->alt[i].nrules; k++) {
			enum m_rule r = (enum m_rule)out->alt[i].rules[k];

			if (r != M_RULE_DAT_DTO_1 && r != M_RULE_DAT_DTO_4 && r != M_RULE_RA_ERR_2 && r != M_RULE_RA_ERR_3)
				m_why_add(&w, r);
		}
	}
	if (!failing)
		return;
	m_why_add(&w, M_RULE_DAT_DTO_5);
	struct m_set s = DECIDE(p, DAT_DTO_5, PART_STEP, DAT(PRIVILEGES_VIOLATION), DAT(PROTECTION_VIOLATION),
				DAT(INVALID_PARAMETER));
	m_dat_add_set(out, &s, M_EFF_NONE, &w);
}

int m_dat_pred_dto(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_pred vp;
	struct m_why dat = { 0 };
	struct m_set narrow = { 0 };
	int rc;

	if (!ep_valid(nd, op->obj))
		return -EINVAL;
	if (!nd->conn[op->obj].live) {
		m_dat_stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	const struct m_conn *c = &nd->conn[op->obj];
	struct m_op v = m_dat_dto_op(m, op);

	rc = m_verbs_step_predict(m, p, &v, &vp);
	if (rc)
		return rc;
	out->res = vp.res;
	if (!ep_connected(nd, op->obj)) {
		/* DAT-EP-2: a DISCONNECTED EP accepts the DTO and flushes it. */
		m_why_add(&dat, M_RULE_DAT_EP_2);
		narrow = DECIDE(p, DAT_EP_2, PART_STEP, DTO(ERR_FLUSHED));
	} else if (op->dat.len == 0) {
		/* DAT-DTO-2: nothing to move, nothing looked at. */
		m_why_add(&dat, M_RULE_DAT_DTO_2);
		narrow = DECIDE(p, DAT_DTO_2, PART_STEP, DTO(SUCCESS));
	}
	int stale_local = op->dat.len && freed_lmr_key(nd, op->dat.lkey, 1);
	int stale_remote = op->dat.len && c->peer_node >= 0 && freed_lmr_key(&m->node[c->peer_node], op->dat.rkey, 0);

	for (unsigned i = 0; i < vp.n; i++) {
		const struct m_alt *a = &vp.alt[i];
		struct m_why w = dat;
		struct m_outcome o = dat_of(a->out, &w);

		if (narrow.n && !m_set_has(&narrow, o))
			continue;
		if (stale_local && o.kind == M_OUT_DTO &&
		    (o.code == M_DTO_ERR_LOCAL_PROTECTION || o.code == M_DTO_ERR_LOCAL_EP)) {
			/* DAT-FREE-2: a freed lmr_context is a protection violation. */
			struct m_set s = DECIDE(p, DAT_FREE_2, PART_STEP, DTO(ERR_LOCAL_PROTECTION));

			m_why_add(&w, M_RULE_DAT_FREE_2);
			if (!m_set_has(&s, o))
				continue;
		} else if (stale_remote && o.kind == M_OUT_DTO && o.code == M_DTO_ERR_REMOTE_ACCESS) {
			m_why_add(&w, M_RULE_DAT_FREE_2);
		}
		dto_alt(out, a, &w, o);
	}
	if (stale_local && out->n == 0) {
		/* Every verbs outcome was a status DAT-FREE-2 does not allow: the rule's own. */
		struct m_why w = dat;
		struct m_set s = DECIDE(p, DAT_FREE_2, PART_STEP, DTO(ERR_LOCAL_PROTECTION));

		m_why_add(&w, M_RULE_DAT_FREE_2);
		for (unsigned k = 0; k < s.n; k++)
			for (unsigned i = 0; i < vp.n; i++) {
				struct m_why w2 = w;
				struct m_outcome o = dat_of(vp.alt[i].out, &w2);

				if (o.kind == M_OUT_DTO && o.code != M_DTO_SUCCESS)
					dto_alt(out, &vp.alt[i], &w2, s.o[k]);
			}
	}
	if (narrow.n && out->n == 0)
		for (unsigned k = 0; k < narrow.n; k++)
			m_alt_add(out, narrow.o[k], M_EFF_NONE, &dat, -1);
	post_time_refusals(p, out, &dat);
	return 0;
}

int m_dat_pred_rmr_bind(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_pred vp;
	struct m_set s;
	int rc;

	if (!VALID(nd->mw, nd->nmw, op->obj) || !ep_valid(nd, op->dat.ep) || !VALID(nd->mr, nd->nmr, op->dat.lmr) ||
	    nd->mr[op->dat.lmr].api != M_FAM_DAT)
		return -EINVAL;
	if (!nd->mw[op->obj].live || !nd->conn[op->dat.ep].live) {
		m_dat_stale(out, M_RULE_DAT_HANDLE_1);
		return 0;
	}
	const struct m_mw *mw = &nd->mw[op->obj];
	const struct m_mr *lmr = &nd->mr[op->dat.lmr];
	const struct m_qp *q = &nd->qp[nd->conn[op->dat.ep].qp];

	m_why_add(&why, M_RULE_DAT_RMR_2);
	if (op->dat.len && !lmr->live) {
		/* The lmr_context is not registered (any more). */
		m_alt_add(out, DAT(INVALID_PARAMETER), M_EFF_NONE, &why, -1);
		return 0;
	}
	if (!ep_connected(nd, op->dat.ep)) {
		s = DECIDE(p, DAT_RMR_2, PART_STEP, DAT(INVALID_STATE), DTO(ERR_FLUSHED));
		m_dat_add_set(out, &s, M_EFF_NONE, &why);
		return 0;
	}
	if (op->dat.len && (!m_range_ok(op->dat.offset, op->dat.len, lmr->iova, lmr->len) || lmr->pd != mw->pd ||
			q->pd != mw->pd)) {
		m_alt_add(out, DAT(INVALID_PARAMETER), M_EFF_NONE, &why, -1);
		return 0;
	}
	m_why_add(&why, M_RULE_DAT_RMR_4);
	if (op->dat.len && (((op->dat.priv & M_DAT_PRIV_REMOTE_WRITE) && !(lmr->usage & M_DAT_PRIV_LOCAL_WRITE)) ||
			((op->dat.priv & M_DAT_PRIV_REMOTE_READ) && !(lmr->usage & M_DAT_PRIV_LOCAL_READ)))) {
		/* DAT-RMR-3: refused at once, or the bind completes in error (MW-BIND-6 underneath). */
		struct m_why w = why;

		m_why_add(&w, M_RULE_DAT_RMR_3);
		s = DECIDE(p, DAT_RMR_3, PART_STEP, DAT(PRIVILEGES_VIOLATION), DTO(RMR_OPERATION_FAILED));
		for (unsigned k = 0; k < s.n; k++)
			if (s.o[k].kind != M_OUT_DTO)
				m_alt_add(out, s.o[k], M_EFF_NONE, &w, -1);
		if (!m_set_has(&s, DTO(RMR_OPERATION_FAILED)))
			return 0;
		why = w;
	}
	struct m_op v = m_dat_bind_op(m, op);

	rc = m_verbs_step_predict(m, p, &v, &vp);
	if (rc)
		return rc;
	out->res = vp.res;
	for (unsigned i = 0; i < vp.n; i++) {
		struct m_why w = why;
		struct m_outcome o = dat_of(vp.alt[i].out, &w);

		dto_alt(out, &vp.alt[i], &w, o);
	}
	return 0;
}

/* verbs/internal.h — the verbs family's files among themselves (not a public API). */
#ifndef RDMACHECK_MODEL_VERBS_INTERNAL_H
#define RDMACHECK_MODEL_VERBS_INTERNAL_H

#include "model/internal.h"

/* The family's hooks (struct m_family; see model/internal.h). */
int m_verbs_predict(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_verbs_apply(struct model *m, const struct m_pred *pred, size_t i, int *created);

/* Predictors (obj.c: object calls and fill; post.c: posted work requests): out->op is the operation. */
int m_pred_obj(const struct model *m, const struct m_profile *p, struct m_pred *out);
/* create_qp: m_pred_obj's, with ex=yes's send_ops_flags checked against the QP type (qpex.c, QP-EX-1);
 * send_ops= without ex=yes, or bits that name no operation: -EINVAL. */
int m_pred_qpex(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_pred_post(const struct model *m, const struct m_profile *p, struct m_pred *out);
/* A send post's alternatives (out, predicted as ibv_post_send's) as the ibv_wr_* API gives them (wr=yes,
 * wrpost.c): WR-POST-1 on each; an errno the library gives for the WR itself (LP-7: num_sge over
 * max_send_sge, a full send queue) ibv_wr_complete's instead, ENOSPC or ENOMEM (WR-POST-2). */
void m_wr_post_alts(const struct m_profile *p, struct m_pred *out);
/* A send post built with the ibv_wr_* API and ended by ibv_wr_abort (wr=abort, wrpost.c): m_pred_post's
 * refusal of a malformed op, else ok with no effect and no completion (WR-POST-3). */
int m_pred_wr_abort(const struct model *m, const struct m_profile *p, struct m_pred *out);

/* sge.c: the local SGE checks that post.c and ud.c share (m_sge_valid: does lkey name a live MR of
 * PD pd covering [addr, addr+len), writable if need_write; m_sge_check: the same for op's SGEs in
 * turn, adding the failing alternatives of the first that fails: returns whether op goes on). */
int m_sge_valid(const struct m_node *nd, int pd, uint32_t lkey, uint64_t addr, uint64_t len,
	      int need_write, int16_t *mr, uint64_t *off, enum m_rule *why);
int m_sge_check(const struct m_profile *p, const struct m_node *nd, int pd, const struct m_op *op, uint64_t len,
	      int need_write, enum m_rule fail_rule, struct m_pred *out, struct m_why *why);
/* op's SGEs into out (the first from lkey, laddr and the rest of len): their number, 0 for num_sge 0. */
unsigned m_sges(const struct m_op *op, struct m_sge out[M_SGE_MAX]);
/* Is op's SGE list (if any) one the model follows on QP q (its kind, lengths, not inline nor UD)?
 * (Inline: most posts have one SGE; the list's checks are m_sge_list_more_ok's.) */
int m_sge_list_more_ok(const struct m_op *op, const struct m_qp *q);
static inline int m_sge_list_ok(const struct m_op *op, const struct m_qp *q)
{
	return !op->verbs.nsge_more || m_sge_list_more_ok(op, q);
}
/* num_sge over the QP's max_send_sge (LP-7): adds the EINVAL alternative; returns whether the post
 * may go on (a provider that gave the QP more). The count within the cap tested inline; over it,
 * m_sge_over_count decides. */
int m_sge_over_count(const struct m_profile *p, struct m_pred *out, struct m_why *why);
static inline int m_sge_count_ok(const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
				 struct m_why *why)
{
	unsigned max = q->max_send_sge ? q->max_send_sge : 1;

	if (out->op.kind == M_OP_BIND_MW || out->op.kind == M_OP_LOCAL_INV || 1u + out->op.verbs.nsge_more <= max)
		return 1;
	return m_sge_over_count(p, out, why);
}
/* A post over a cap the QP asked for (set s: the errno, and O_OK when the provider may have given
 * it more): adds s's refusals (LP-7; why the rules so far); returns whether the post may go on. */
int m_over_cap(const struct m_set *s, struct m_pred *out, const struct m_why *why);
/* The first byte of op's message (WRITE, SEND) its SGEs on nd, in PD pd, cannot gather:
 * UINT64_MAX when every byte can (LP-8). */
uint64_t m_sge_first_bad(const struct m_node *nd, int pd, const struct m_op *op);
/* The commit of pred's data, SGE by SGE on nd: its gathered bytes land in dst at doff (WRITE,
 * SEND); src's bytes from soff scatter into its SGEs (READ); the 8 bytes b of an atomic's
 * original value do (unknown: they were unspecified). */
void m_sge_gather(struct m_node *nd, const struct m_pred *pr, struct m_mr *dst, uint64_t doff);
/* The same for k of its message's bytes from byte from: they land in dst at doff. */
void m_sge_gather_part(struct m_node *nd, const struct m_pred *pr, uint64_t from, uint64_t k, struct m_mr *dst,
		       uint64_t doff);
void m_sge_scatter(struct m_node *nd, const struct m_pred *pr, const struct m_mr *src, uint64_t soff);
void m_sge_scatter_bytes(struct m_node *nd, const struct m_pred *pr, const uint8_t *b, int unknown);
/* recvsge.c: a free slot of nd's pool of receive SGEs (-1: none); op's receive WR as posted
 * receive *out of nd, its SGEs after the first in a slot (0, or -ENOSPC: the pool is full); rq's
 * SGEs into out (their number, 0 for num_sge 0); whether each of rq's SGEs is valid in PD pd
 * (LP-4/LP-6 through m_sge_valid: 1 with the first's MR and offset in *mr, *off; 0 with the rule
 * of the first that is not, *reached whether a message of msg bytes writes into it); the
 * SEND pr of node nd scatters into rq's SGEs on pn in order. */
int m_rsge_free_slot(const struct m_node *nd);
int m_recv_store(struct m_node *nd, const struct m_op *op, struct m_recv *out);
unsigned m_recv_sges(const struct m_node *nd, const struct m_recv *rq, struct m_sge out[M_SGE_MAX]);
int m_recv_sges_valid(const struct m_node *nd, int pd, const struct m_recv *rq, uint64_t msg, int16_t *mr,
		      uint64_t *off, enum m_rule *why, int *reached);
void m_recv_scatter(struct m_node *nd, const struct m_pred *pr, struct m_node *pn, const struct m_recv *rq);
/* A SEND of msg bytes failed at the responder into the first receive of pn's QP qp: if that
 * receive has several SGEs, the bytes the message reaches in each become unknown (returns 1;
 * 0: one SGE or none, left to the caller). */
int m_recv_failed(struct m_node *pn, int qp, uint64_t msg);
/* IBV_SEND_INLINE on a READ, which carries no local data (LP-9): 1 with op's
 * alternatives added to out (the refusal or its error completion), 0 for any other WR
 * and for an inline READ the profile sends as a READ (LP-9 and its deviation then in *why:
 * the responder's answer decides, m_inline_read_lands where the response lands). */
int m_pred_inline_no_data(const struct m_profile *p, struct m_pred *out, struct m_why *why);
/* The response of an inline READ sent as a READ (LP-9, PART_INLINE_LAND): zero bytes complete
 * SUCCESS; any other length lands in the WQE's SGEs, which hold the caller's inline bytes, not
 * an MR's range: the profile's error completions, the QP to ERR. */
void m_inline_read_lands(const struct m_profile *p, struct m_pred *out, struct m_why why);
/* post_mw.c: the alternatives of set s (a profile's, MW-INV-5) for an invalidation of a bound type-2
 * window through another QP than its own: a SUCCESS with effect ok, an error with effect err, the
 * peer's receive completing peer_wc (-1: none). */
void m_inv_other_qp_alts(struct m_pred *out, const struct m_set *s, const struct m_why *why,
			 enum m_effect ok, enum m_effect err, int peer_wc);
/* post_mw.c: LOCAL_INV of out->op's rkey on q of nd (MW-INV-2..5): its alternatives added to out. */
void m_post_local_inv(const struct m_profile *p, const struct m_node *nd, const struct m_qp *q,
		      struct m_pred *out, struct m_why why);
/* post_mw.c: a window bind (type 1: ibv_bind_mw, type 2: a BIND_MW WR) on q (MW-BIND-5..11,
 * MW-INV-1, MW-KEY-1): its alternatives added to out; 0. */
int m_post_bind_mw(const struct model *m, const struct m_profile *p, const struct m_qp *q,
		   struct m_pred *out, struct m_why why);
/* post_mw.c: is op a type-1 bind of an MR of another PD than the window's (MW-BIND-3)? 1 or 0. */
int m_bind_pd_mismatch(const struct m_node *nd, const struct m_op *op);
/* post.c's IBV_SEND_INLINE data (LP-3), which ud.c shares. */
int m_inline_data(const struct m_profile *p, const struct m_node *nd, const struct m_qp *q, struct m_pred *out,
		struct m_why *why);
/* apply.c's: len bytes of src at soff land in dst at doff (src NULL: unknown bytes); the first
 * posted receive of q is used up; q goes to ERR, its receives flushed. */
void m_land(struct m_mr *dst, uint64_t doff, const struct m_mr *src, uint64_t soff, uint64_t len);
void m_consume_recv(struct m_qp *q);
void m_qp_to_err(struct m_qp *q);

/* handle.c: a call given a garbled handle (op->verbs.garble: HANDLE-1), a bind without an MR
 * (op->verbs.mr -1: MW-BIND-2). */
int m_pred_garbled(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_pred_bind_no_mr(const struct model *m, const struct m_profile *p, struct m_pred *out);

/* qpstate.c: modify_qp's prediction and commit. */
int m_pred_modify_qp(const struct model *m, const struct m_profile *p, struct m_pred *out);
void m_apply_modify_qp(struct model *m, const struct m_op *op);

/* ud.c: create_ah/destroy_ah (prediction, commit), a post on UD QP q in RTS (why: the rules so
 * far), the commit of a UD SEND's alternative a that reached the destination (M_EFF_DO,
 * M_EFF_PEER_ERR). */
int m_pred_ah(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_apply_ah(struct model *m, const struct m_op *op, int *created);
int m_pred_ud_post(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
		   struct m_why why);
void m_apply_ud_send(struct model *m, const struct m_pred *pr, const struct m_alt *a);

/* srq.c: create_srq, destroy_srq, post_srq_recv, modify_srq, query_srq and ibv_post_recv on a QP with an SRQ (prediction,
 * commit); whether create_qp op's SRQ (if any) is live and in the QP's PD; QP qp of nd starts using
 * SRQ srq1 - 1 (0: stops using its SRQ); the receive a SEND to QP qp of nd takes (its SRQ's or its
 * own first; NULL: none posted) and its consumption. */
int m_pred_srq(const struct model *m, const struct m_profile *p, struct m_pred *out);
/* lim.c: a create with keys asked at the device's max (LIM-2 into why) or past it: 1 when lim.c
 * decided it (refused by LIM-1, or an SRQ at both SRQ limits: its alternatives added to out), else 0
 * (the caller adds its success). */
int m_lim_pred(const struct m_profile *p, const struct m_op *op, struct m_why *why, struct m_pred *out);
int m_apply_srq(struct model *m, const struct m_op *op, int *created);
/* query_srq's results of live SRQ op->obj (max_wr, max_sge, srq_limit: SRQ-MOD-2); -EINVAL if none. */
int m_srq_query(const struct model *m, const struct m_op *op, struct m_qres *out);
/* fields.c: the fields step of object op->obj of class op->verbs.fields_of (M_FLD_*): its prediction
 * (ok while the object is live; -EINVAL if it is not) and its results (FIELDS-1, FIELDS-2). */
int m_pred_fields(const struct model *m, struct m_pred *out);
int m_fields_query(const struct model *m, const struct m_op *op, struct m_qres *out);
int m_srq_usable(const struct m_node *nd, const struct m_op *op);
void m_srq_attach(struct m_node *nd, int qp, uint8_t srq1);
/* The PD receive rq (the head of QP qp's receives on nd) is checked against when a SEND lands in it:
 * the QP's, or for a receive of its SRQ the SRQ's (IBA) or the QP's as profile p says (SRQ-3). */
int m_srq_recv_pd(const struct m_node *nd, int qp, const struct m_recv *rq, const struct m_profile *p,
		  struct m_why *why);
const struct m_recv *m_rq_head(const struct m_node *nd, int qp);
void m_rq_consume(struct m_node *nd, int qp);
/*
 * packets.c (LP-8): does a WRITE's or SEND's local SGE (op's lkey, laddr,
 * len, on nd, posted on q) run past its MR only after the first packet of q's
 * path MTU (m_first_packet; so the packets before it may reach the
 * responder)? 1 or 0.
 */
int m_later_packet_fails(const struct m_node *nd, const struct m_qp *q, const struct m_op *op);
/* Drop out's alternatives from index `from` on in which the request went through (effect DO). */
void m_keep_remote_errors(struct m_pred *out, unsigned from);
/*
 * The local error may come after the responder refused the packets before it
 * (its QP in ERR too): when an alternative from index `local` on is such a
 * remote error, each local-error alternative before `local` is added again
 * with both QPs in ERR.
 */
void m_local_after_remote_error(struct m_pred *out, unsigned local);
/* The smallest path MTU (IBTA 256): the first packet is at most this long (packets.c). */
#define MIN_PMTU 256u
/* The largest (IBTA 4096): a message longer is more than one packet whatever the path MTU. */
#define MAX_PMTU 4096u
/* The bytes of q's first packet: its path MTU (struct m_qp.pmtu), MIN_PMTU where none is set (packets.c). */
uint64_t m_first_packet(const struct m_qp *q);
/*
 * LP-8 on an RC SEND whose peer QP (live, RTR or RTS) has no receive posted,
 * so that RNR NAKs answer the packets before the bad one, which is past the
 * second packet of its path MTU (m_first_packet): the outcomes a
 * profile adds at PART_LATER_RNR (rxe 6.1: the step never ends, M_OUT_HANG),
 * with why's rules. Nothing for another op, peer or bad byte.
 */
void m_later_packet_rnr(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
			struct m_why why);

/*
 * kept.c (QP-STATE-1, PART_KEPT): the outcomes p declares for the first post
 * on an RTS QP whose refused send WRs were kept (into *s); what keeping op adds to a
 * QP's sq_kept on nd (M_KEPT_* bits); the alternatives that first post on q
 * gains (added to out).
 */
void m_kept_outcomes(const struct m_profile *p, struct m_set *s);
uint8_t m_kept_kind(const struct m_node *nd, const struct m_op *op);
void m_kept_alts(const struct m_profile *p, const struct m_qp *q, struct m_pred *out);

/* The QP a post acts on: bind_mw names it apart from its MW (verbs.qp), every other post's is op->obj. */
static inline int m_acting_qp(const struct m_op *op)
{
	return op->kind == M_OP_BIND_MW ? op->verbs.qp : op->obj;
}

/* A WR chained after one its post refused (chain.c, LP-7): not posted, that errno. */
int m_pred_unposted(const struct model *m, struct m_pred *out);
/* A send WR whose chain filled its send queue before it (chain.c, LP-7): ENOMEM, or (below twice
 * the depth, which a provider may round up to) as predicted. */
void m_pred_sq_full_any(const struct model *m, const struct m_profile *p, struct m_pred *out);
static inline void m_pred_sq_full(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	int qh = m_acting_qp(op);

	/* The first WR of a post finds the queue empty, unless the QP asked for a depth of 0 */
	if (op->verbs.chain_pos ||
	    (op->kind != M_OP_RECV && qh >= 0 && qh < M_MAX_QP && m->node[op->node].cq.max_send[qh] == M_SEND_DEPTH_ZERO))
		m_pred_sq_full_any(m, p, out);
}

/*
 * WRs outstanding at the stack (outstanding.c, outstanding.h). m_outst_check: -EINVAL when the
 * model cannot run op while WRs are outstanding (or op is a wait=no post it cannot take), else 0.
 * m_outst_seen: the statuses each outstanding WR could have in m's state, into out->wr_seen.
 * m_outst_nowait: a wait=no post's prediction: its completions become one ok (handed over), a
 * send queue its outstanding WRs may fill adds ENOMEM. m_pred_wait: the wait step. m_outst_apply:
 * before alternative i of pred is committed: what outstanding WRs learn from it; *handled when it
 * committed the step itself (a wait, a hand-over). m_outst_on_qp: whether a WR outstanding is on QP
 * qp of node n or has it as its peer. m_outst_names_mr: whether one names MR h of node n.
 */
int m_outst_check_any(const struct model *m, const struct m_op *op);
void m_outst_seen_any(const struct model *m, const struct m_profile *p, struct m_pred *out);
void m_outst_nowait_any(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_pred_wait(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_outst_apply_any(struct model *m, const struct m_pred *pred, size_t i, int *handled);
/* Most steps have no WR outstanding and do not post one that does not wait: the *_any above (the
 * work) only when there is something to look at; the test inline, as each step makes it. */
static inline int m_outst_check(const struct model *m, const struct m_op *op)
{
	return op->verbs.nowait || m->outst.nlive ? m_outst_check_any(m, op) : 0;
}
static inline void m_outst_seen(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	if (m->outst.nlive)
		m_outst_seen_any(m, p, out);
}
static inline void m_outst_nowait(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	if (out->op.verbs.nowait)
		m_outst_nowait_any(m, p, out);
}
/* (None outstanding and an alternative that changes nothing: there is nothing for it to do.) */
static inline int m_outst_apply(struct model *m, const struct m_pred *pred, size_t i, int *handled)
{
	if (!m->outst.nlive && pred->alt[i].effect == M_EFF_NONE && pred->op.kind != M_OP_WAIT) {
		*handled = 0;
		return 0;
	}
	return m_outst_apply_any(m, pred, i, handled);
}
int m_outst_on_qp(const struct model *m, unsigned n, int qp);
int m_outst_names_mr(const struct model *m, unsigned n, int h);

/* The device and its port (device.c): query_device, query_port, query_gid, query_gid_table, query_pkey,
 * get_pkey_index (m_device_op); their predictions (no effect: a query changes nothing) and results
 * (DEV-QUERY-1, PORT-QUERY-1, GID-QUERY-1, PKEY-QUERY-1). */
int m_device_op(enum m_op_kind k);
int m_pred_device(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_device_query(const struct model *m, const struct m_op *op, struct m_qres *out);

/* Completion queues (cq.c). */
/* create_cq, destroy_cq, poll_cq, resize_cq (inline: every step asks) */
static inline int m_cq_op(enum m_op_kind k)
{
	return k == M_OP_CREATE_CQ || k == M_OP_DESTROY_CQ || k == M_OP_POLL_CQ || k == M_OP_RESIZE_CQ;
}
/* create_qp's CQs (scq, rcq) are live CQs of its node (or -1): 0, else -EINVAL. */
int m_cq_check_qp(const struct model *m, const struct m_op *op);
int m_pred_cq(const struct model *m, const struct m_profile *p, struct m_pred *out);
/* Whether op, a send WR, asks for no completion: posted unsignaled on a QP without sq_sig_all. */
static inline int m_post_unsignaled(const struct m_node *nd, const struct m_op *op)
{
	int qh = m_acting_qp(op);

	return op->verbs.unsignaled && qh >= 0 && qh < M_MAX_QP && !nd->cq.sig_all[qh];
}
/* A send WR posted unsignaled on a QP without sq_sig_all: its SUCCESS, and a hang (a completion
 * that never comes), become ok (no completion). */
void m_cq_unsignaled_any(const struct model *m, struct m_pred *out);
static inline void m_cq_unsignaled(const struct model *m, struct m_pred *out)
{
	if (out->op.verbs.unsignaled) /* (most posts are signaled: nothing to change) */
		m_cq_unsignaled_any(m, out);
}
/* Before alternative i of pred is committed: the completions it leaves in the node's CQs. */
void m_cq_note(struct model *m, const struct m_pred *pred, size_t i);
/* After it was committed (created: the new handle or -1): QP to CQ bindings and use counts. */
void m_cq_after(struct model *m, const struct m_pred *pred, size_t i, int created);
/* Commit a create_cq, destroy_cq, poll_cq or resize_cq. */
int m_cq_apply(struct model *m, const struct m_pred *pred, size_t i, int *created);
/* poll_cq's results: n, then wrJ and statusJ of what it took; resize_cq's: cqe. */
int m_cq_query(const struct model *m, const struct m_op *op, struct m_qres *out);
/* Completion channels and notification (chan.c): create_comp_channel, destroy_comp_channel,
 * req_notify_cq, get_cq_event, ack_cq_events (m_chan_op); their predictions, commits and
 * get_cq_event's results (n, cq). m_chan_live: is h a live channel of c. m_chan_completion: a
 * completion arrived in CQ handle+1 cq1 of node n (sol: a solicited one?), the event it may put on
 * the CQ's channel; m_chan_step_begin: a step's commit starts on node n (m_cq_note). */
static inline int m_chan_op(enum m_op_kind k) /* inline: every step's commit asks */
{
	return k == M_OP_CREATE_COMP_CHANNEL || k == M_OP_DESTROY_COMP_CHANNEL || k == M_OP_REQ_NOTIFY_CQ ||
	       k == M_OP_GET_CQ_EVENT || k == M_OP_ACK_CQ_EVENTS;
}
int m_chan_live(const struct m_cq_node *c, int h);
int m_pred_chan(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_chan_apply(struct model *m, const struct m_pred *pred, size_t i, int *created);
int m_chan_query(const struct model *m, const struct m_op *op, struct m_qres *out);
void m_chan_completion(struct model *m, unsigned n, uint8_t cq1, enum m_chan_sol sol);
void m_chan_step_begin(struct model *m, unsigned n);
/* A completion of CQ handle+1 cq1 of node n the model does not follow: its channel goes vague. */
void m_chan_unfollowed(struct model *m, unsigned n, uint8_t cq1);
/* query_qp's capabilities of QP qh of nd, each at least what create_qp asked for (qpcaps.c). */
void m_qp_caps_query(const struct m_node *nd, int qh, struct m_qres *out);
/* connect gave RC QPs a and b op's max_rd_atomic and max_dest_rd_atomic, RC/UC ones its path MTU (qpcaps.c). */
void m_qp_rd_atomic_connected(struct m_qp *a, struct m_qp *b, const struct m_op *op);
/* modify_qp takes q (before its state changes) to state to: RTR sets max_dest_rd_atomic (1), RTS from
 * RTR max_rd_atomic (1), an RC/UC QP's move to RTR the path MTU (M_PATH_MTU_DEFAULT), as the harness asks;
 * RESET forgets them. */
void m_qp_rd_atomic_moved(struct m_qp *q, enum m_qp_state to);

/*
 * The handle a new object of node gets (slot.c): the next never-used slot of
 * its table, else, the table full, a destroyed object's slot nothing refers to
 * (m_slot_mr frees that slot's own bytes: call it only to fill the slot;
 * never slot keep, -1 none: the MR whose buffer the new one registers again);
 * -ENOSPC when every slot is live or named.
 */
int m_slot_pd(const struct model *m, unsigned node);
int m_slot_mr(struct model *m, unsigned node, int keep);
int m_slot_mw(const struct model *m, unsigned node);
int m_slot_qp(const struct model *m, unsigned node);

#endif

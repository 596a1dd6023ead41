/*
 * chan.c — completion channels and CQ notification (model/verbs/cq.h: struct
 * m_chan, a CQ's chan1, arm and unacked): create_comp_channel and
 * destroy_comp_channel (CHAN-1), req_notify_cq and the events completions put
 * on a channel (CQ-NOTIFY-1), get_cq_event and ack_cq_events (CQ-EVENT-1).
 * An event the model cannot be sure of (an error completion under a
 * solicited-only arm, a WR still outstanding, or, once the events it kept
 * are taken, more events than it keeps) makes the channel vague: its
 * get_cq_event answers are then anything.
 */
#include "model/verbs/internal.h"

#include <string.h>

int m_chan_live(const struct m_cq_node *c, int h)
{
	return h >= 0 && h < c->nch && c->ch[h].live;
}

static int cq_live(const struct m_cq_node *c, int h)
{
	return h >= 0 && h < c->ncq && c->cq[h].live;
}

/* Could a WR handed over and not yet completed (wait=no) still put an event on node n's channels? */
static int outstanding_on(const struct model *m, unsigned n)
{
	for (int q = 0; q < m->node[n].nqp; q++)
		if (m_outst_on_qp(m, n, q))
			return 1;
	return 0;
}

int m_pred_chan(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_cq_node *c = &m->node[op->node].cq;
	struct m_why why = { 0 };

	switch ((enum m_op_kind)op->kind) {
	case M_OP_CREATE_COMP_CHANNEL:
		m_why_add(&why, M_RULE_CHAN_1);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_DESTROY_COMP_CHANNEL:
		if (!m_chan_live(c, op->obj))
			return -EINVAL;
		m_why_add(&why, M_RULE_CHAN_1);
		if (c->ch[op->obj].refs) {
			struct m_set s = DECIDE(p, CHAN_1, PART_STEP, O_ERR(EBUSY));

			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else {
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		return 0;
	case M_OP_REQ_NOTIFY_CQ:
		if (!cq_live(c, op->obj))
			return -EINVAL;
		m_why_add(&why, M_RULE_CQ_NOTIFY_1);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_GET_CQ_EVENT:
		if (!m_chan_live(c, op->obj))
			return -EINVAL;
		m_why_add(&why, M_RULE_CQ_EVENT_1);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_ACK_CQ_EVENTS: {
		const struct m_cq *cq;

		if (!cq_live(c, op->obj) || op->verbs.nack < 1 || op->verbs.nack > M_ACK_MAX)
			return -EINVAL;
		cq = &c->cq[op->obj];
		/* More than were taken: the CQ's destroy would wait for ever (CQ-EVENT-1). */
		if (op->verbs.nack > cq->unacked && !(cq->chan1 && c->ch[cq->chan1 - 1].vague))
			return -EDEADLK;
		m_why_add(&why, M_RULE_CQ_EVENT_1);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	}
	default:
		return -EINVAL;
	}
}

/* Event of CQ handle+1 cq1 arrives on channel ch. Past the M_CHAN_EV_MAX events it keeps, an event
 * is lost (and so is every later one, which the stack gives after it): the kept ones stay known. */
static void chan_push(struct m_chan *ch, uint8_t cq1)
{
	if (ch->lost || ch->n >= M_CHAN_EV_MAX) {
		ch->lost = 1; /* more than the model keeps */
		return;
	}
	ch->ev[ch->n++] = cq1;
}

void m_chan_completion(struct model *m, unsigned n, uint8_t cq1, enum m_chan_sol sol)
{
	struct m_cq_node *c = &m->node[n].cq;
	struct m_cq *cq = &c->cq[cq1 - 1];
	struct m_chan *ch;

	if (!cq->chan1 || cq->arm == M_ARM_NONE)
		return;
	ch = &c->ch[cq->chan1 - 1];
	if (cq->overrun) {
		ch->vague = 1;
		return;
	}
	if (cq->arm == M_ARM_SOLICITED && sol == M_SOL_UNKNOWN) {
		ch->vague = 1; /* an error completion under solicited_only: an event or none */
		cq->arm = M_ARM_NONE;
		return;
	}
	if (cq->arm == M_ARM_SOLICITED && sol == M_SOL_NO)
		return;
	cq->arm = M_ARM_NONE;
	/* Two CQs' events from one step: which the stack gives first is not said. */
	if (ch->step_adds++ && ch->n && ch->ev[ch->n - 1] != cq1)
		ch->vague = 1;
	chan_push(ch, cq1);
}

void m_chan_unfollowed(struct model *m, unsigned n, uint8_t cq1)
{
	struct m_cq_node *c = &m->node[n].cq;

	if (cq1 && c->cq[cq1 - 1].chan1)
		c->ch[c->cq[cq1 - 1].chan1 - 1].vague = 1;
}

void m_chan_step_begin(struct model *m, unsigned n)
{
	for (unsigned i = 0; i < m->node[n].cq.nch; i++)
		m->node[n].cq.ch[i].step_adds = 0;
}

int m_chan_apply(struct model *m, const struct m_pred *pred, size_t i, int *created)
{
	const struct m_op *op = &pred->op;
	struct m_cq_node *c = &m->node[op->node].cq;

	if (pred->alt[i].effect != M_EFF_DO)
		return 0;
	switch ((enum m_op_kind)op->kind) {
	case M_OP_CREATE_COMP_CHANNEL:
		if (c->nch >= M_MAX_CHAN)
			return -ENOSPC;
		c->ch[c->nch] = (struct m_chan){ .live = 1, .ever = 1 };
		*created = c->nch++;
		m->chan_nodes |= (uint16_t)(1u << op->node);
		return 0;
	case M_OP_DESTROY_COMP_CHANNEL:
		c->ch[op->obj].live = 0;
		return 0;
	case M_OP_REQ_NOTIFY_CQ: {
		struct m_cq *cq = &c->cq[op->obj];

		if (!op->verbs.solicited)
			cq->arm = M_ARM_NEXT; /* upgrades a solicited arm */
		else if (cq->arm != M_ARM_NEXT)
			cq->arm = M_ARM_SOLICITED; /* a solicited request leaves a next arm as it is */
		return 0;
	}
	case M_OP_GET_CQ_EVENT: {
		struct m_chan *ch = &c->ch[op->obj];

		if (outstanding_on(m, op->node))
			ch->vague = 1; /* the stack may have given an event the model has not seen yet */
		for (unsigned j = 0; j < c->ncq; j++)
			if (c->cq[j].chan1 == op->obj + 1 && c->cq[j].overrun)
				ch->vague = 1; /* a CQ whose completions the model lost track of */
		if (ch->lost && !ch->n)
			ch->vague = 1; /* the kept events are taken: the lost ones come next */
		ch->got_vague = ch->vague;
		ch->got = ch->n ? ch->ev[0] : 0;
		if (ch->n) {
			memmove(ch->ev, ch->ev + 1, (size_t)(ch->n - 1));
			ch->n--;
			if (c->cq[ch->got - 1].unacked < UINT8_MAX)
				c->cq[ch->got - 1].unacked++;
		}
		return 0;
	}
	case M_OP_ACK_CQ_EVENTS: {
		struct m_cq *cq = &c->cq[op->obj];

		cq->unacked = (uint8_t)(op->verbs.nack >= cq->unacked ? 0 : cq->unacked - op->verbs.nack);
		return 0;
	}
	default:
		return -EINVAL;
	}
}

int m_chan_query(const struct model *m, const struct m_op *op, struct m_qres *out)
{
	const struct m_cq_node *c = &m->node[op->node].cq;
	const struct m_chan *ch;
	enum m_qmode mode;

	if (op->obj < 0 || op->obj >= c->nch)
		return -EINVAL;
	ch = &c->ch[op->obj];
	mode = ch->got_vague ? M_Q_ANY : M_Q_EXACT;
	m_qres_add(out, "n", mode, ch->got ? 1 : 0, M_RULE_CQ_EVENT_1);
	if (ch->got || ch->got_vague)
		m_qres_add(out, "cq", mode, ch->got, M_RULE_CQ_EVENT_1);
	return 0;
}

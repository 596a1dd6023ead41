/*
 * run_verdict.c — the verdict a run says (run_say) and what must come before
 * it: the looks at a peer QP left for later for a run of posts sent ahead
 * (runner_int.h: run_peer_defer, run_peer_settle; issue 18).
 *
 * A post that expects SUCCESS, followed by another post on the same QP that
 * was sent ahead, leaves its peer check to a later look when the model says
 * the peer stays in one state S that is not ERR and consumes no receive. The
 * look, made after a later post's answer, is after this one's effect too;
 * between them only posts of this QP's node ran (the peer is on another
 * node), which cannot move the peer QP but into ERR (a modify on its own node
 * would be needed). So a peer seen in S then was in S after each post of the
 * run, as the step-by-step check would have seen it: the run passes at once.
 * The look is the next step's own when it looks at the same peer (a look of
 * its own first would take the receive completion a SEND's check waits for),
 * else one made before any other check, verdict or the end.
 * Any other sight cannot be placed on one post: an ERROR asking to run the
 * scenario again without run-ahead (result.rerun), where each post is judged
 * alone, as late_doubt does.
 */
#include "harness/run/runner_int.h"

#include <stdarg.h>
#include <stdio.h>

/*
 * The one peer state S all alternatives of p with the outcome of alternative
 * first predict, with no receive completion: S, or -1 when they differ, one
 * leaves the peer free (M_NO_PEER), one predicts ERR or a receive. *pick: the
 * lowest of them (the one the check would pick on seeing S).
 */
static int one_quiet_state(const struct m_pred *p, int first, int *pick)
{
	struct m_outcome out = p->alt[first].out;
	int state = -1;

	*pick = -1;
	for (unsigned i = 0; i < p->n; i++) {
		const struct m_alt *a = &p->alt[i];

		if (a->out.kind != out.kind || a->out.code != out.code)
			continue;
		if (a->peer_recv >= 0 || a->peer_state == M_NO_PEER || a->peer_state == M_QPS_ERR ||
		    (state >= 0 && a->peer_state != state))
			return -1;
		state = a->peer_state;
		if (*pick < 0)
			*pick = (int)i;
	}
	return state;
}

/* Whether the step after s is a post on s's QP that was sent ahead, and s is a post in no chain. */
static int next_post_ahead(const struct run *x, const struct scn_step *s)
{
	size_t si = (size_t)(s - x->f->steps);
	const struct scn_step *n = s + 1;

	if (x->sent <= si + 1 || si + 1 >= x->f->nsteps || x->chain_early || x->chain_pos)
		return 0;
	if (scn_step_call(s)->kind != SCN_KIND_POST || (si > 0 && scn_step_arg(s - 1, "chain")) ||
	    scn_step_arg(s, "chain"))
		return 0;
	return scn_step_call(n)->kind == SCN_KIND_POST && n->obj == s->obj && n->node == s->node;
}

/* runner_int.h */
int run_peer_defer(struct run *x, const struct scn_step *s, const struct m_pred *p, int first, int32_t peer_obj)
{
	size_t si = (size_t)(s - x->f->steps);
	int pick, state;

	if (x->o->mode != RUN_REAL || !next_post_ahead(x, s))
		return -1;
	state = one_quiet_state(p, first, &pick);
	if (state < 0)
		return -1;
	if (x->pend.on && (x->pend.peer != peer_obj || x->pend.state != state || x->pend.next != si))
		return -1;
	if (!x->pend.on)
		x->pend = (struct run_pend){ .on = 1, .peer = peer_obj, .state = state, .line = s->line };
	x->pend.last = s->line;
	x->pend.next = si + 1;
	return pick;
}

/* runner_int.h */
int run_peer_settle(struct run *x, const struct hpeer *seen)
{
	struct run_pend pd = x->pend;
	struct hpeer now;
	char name[80];

	if (!pd.on)
		return 0;
	x->pend.on = 0;
	if (seen)
		now = *seen;
	else if (x->ops->peer(x->be, pd.peer, 0, &now))
		return 0; /* gone: nothing to observe, as run_match_peer */
	if (now.state == pd.state)
		return 0;
	run_say(x, V_ERROR, pd.line,
	    "line %u: run-ahead: peer QP %s, seen once after the posts of lines %u-%u, is %s where the model says %s",
	    pd.line, run_obj_name(x->f, pd.peer, name, sizeof(name)), pd.line, pd.last,
	    now.state < 0 ? "?" : m_qp_state_str(now.state), m_qp_state_str(pd.state));
	x->r->rerun = 1;
	return 1;
}

void run_say(struct run *x, enum verdict v, uint32_t line, const char *fmt, ...)
{
	va_list ap;

	if (x->r->v == V_FAIL || x->r->v == V_ERROR || x->r->v == V_SKIP)
		return;
	if (v == V_XFAIL && x->r->v == V_XFAIL)
		return;
	if ((v == V_FAIL || v == V_ERROR) && run_peer_settle(x, NULL))
		return; /* the posts before, whose peer check was left for later, come first */
	x->r->v = v;
	x->r->line = line;
	va_start(ap, fmt);
	vsnprintf(x->r->reason, sizeof(x->r->reason), fmt, ap);
	va_end(ap);
}

/* runner_int.h */
const char *run_obj_name(const struct scn_file *f, int32_t o, char *buf, size_t len)
{
	if (o < 0 || (size_t)o >= f->nobjs)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s.%s", f->nodes[f->objs[o].node], f->objs[o].name);
	return buf;
}

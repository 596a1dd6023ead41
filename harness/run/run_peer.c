/*
 * run_peer.c — judging what a step leaves beyond its own outcome
 * (runner_int.h): the peer QP's state and receive completion, observed
 * after the step, and the fields of successful completions (opcode,
 * byte_len, immediate data, wc_flags, invalidated_rkey) against the model's
 * (model/verbs/recvwc.h).
 */
#include "harness/run/runner_int.h"
#include "model/verbs/recvwc.h"

#include <stdio.h>
#include <time.h>

#define PEER_RECV_WAIT_MS 2000 /* a receive completion the model predicts */
#define PEER_STATE_WAIT_MS 1000 /* a responder may reach ERR shortly after the NAK */

/*
 * Run-ahead of posts: whether what the peer QP shows after step s (outcome
 * out) cannot be taken as what it showed right after s, because steps after
 * s already ran on the engine. Those are posts of s's node on QPs whose peers
 * are on other nodes (ahead_ok), which cannot bring a QP out of ERR nor make
 * a receive complete but by a flush into ERR; so a peer not in ERR was not in
 * ERR after s either. A peer in ERR (or a receive asked) is doubtful unless
 * s's own error completion put s's QP in ERR, which flushed those after it
 * unsent. Doubtful: an ERROR asking to run the scenario again without
 * run-ahead (result.rerun), and 1.
 */
static int late_doubt(struct run *x, const struct scn_step *s, struct m_outcome out, int want_recv,
		      const struct hpeer *now)
{
	int late = x->sent > (size_t)(s - x->f->steps) + 1;
	int own_err = out.kind == M_OUT_WC && out.code != M_WC_SUCCESS;

	if (!late || own_err || (now->state != M_QPS_ERR && !want_recv))
		return 0;
	run_say(x, V_ERROR, s->line, "line %u: run-ahead: the peer QP was seen after later steps had run", s->line);
	x->r->rerun = 1;
	return 1;
}

/* Whether line's RECV-WC-1 note is still to be said (noting it so); past 8 lines, 0. */
static int wcf_note_first(struct run *x, uint32_t line)
{
	for (unsigned i = 0; i < x->nwcf_noted; i++)
		if (x->wcf_noted[i] == line)
			return 0;
	if (x->nwcf_noted >= sizeof(x->wcf_noted) / sizeof(x->wcf_noted[0]))
		return 0;
	x->wcf_noted[x->nwcf_noted++] = line;
	return 1;
}

/*
 * A successful receive completion the peer really gave (alternative a of p
 * says so) against the opcode, byte_len, immediate, wc_flags and
 * invalidated_rkey the model predicts (recvwc.h) under the run's profile: a
 * provider's flags the specification's reading would not give pass as its
 * declared deviation (RECV-WC-1), said in the detail as the note it is
 * (once a line).
 * Returns 1 when they agree or were not reported, 0 with a fail recorded.
 */
static int recv_wc_judged(struct run *x, const struct scn_step *s, const struct m_pred *p, const struct m_alt *a,
			  const struct m_recv_wc *seen, int32_t peer_obj)
{
	struct m_recv_wc want, gen;
	char why[160], name[80];

	if (a->peer_recv != M_WC_SUCCESS || !seen->known || m_recv_wc_expect(&x->bm.m, &x->o->prof, p, &want))
		return 1;
	want.inv = gen.inv = x->eng_inv;
	if (m_recv_wc_check(&want, seen, why, sizeof(why)) == 0) {
		if (want.dev && wcf_note_first(x, s->line) && m_recv_wc_expect(&x->bm.m, &x->bm.gen, p, &gen) == 0 &&
		    (gen.inv = x->eng_inv, m_recv_wc_check(&gen, seen, why, sizeof(why))) != 0)
			text_addf(&x->detail, "  note: line %u: peer QP %s: receive completion: %s (specification); "
				  "declared deviation %s of profile %s: %s\n", s->line,
				  run_obj_name(x->f, peer_obj, name, sizeof(name)), why,
				  m_rule_info(x->o->prof.dev[want.dev - 1].rule)->id, x->o->prof.name,
				  x->o->prof.dev[want.dev - 1].citation);
		return 1;
	}
	run_say(x, V_FAIL, s->line, "line %u: peer QP %s: receive completion: model says %s", s->line,
	    run_obj_name(x->f, peer_obj, name, sizeof(name)), why);
	return 0;
}

/* runner_int.h */
int run_send_wc_judged(struct run *x, const struct scn_step *s, const struct m_pred *p, const struct hres *real)
{
	int want = m_send_wc_opcode(p->op.kind);

	if (!real->has_opcode || real->out.kind != M_OUT_WC || real->out.code != M_WC_SUCCESS || want < 0 ||
	    want == real->wc_opcode)
		return 1;
	run_say(x, V_FAIL, s->line, "line %u: %s: completion opcode %s, real %s", s->line, scn_step_call(s)->name,
	    m_wc_opcode_str((enum m_wc_opcode)want), m_wc_opcode_str((enum m_wc_opcode)real->wc_opcode));
	return 0;
}

/* runner_int.h */
int run_match_peer(struct run *x, const struct scn_step *s, const struct m_pred *p, int first)
{
	int want_recv = 0, want_state = 0;
	struct hpeer seen = { .state = -1, .recv = -1 };
	int32_t peer_obj = -1;
	struct m_outcome out = p->alt[first].out;

	for (unsigned i = 0; i < p->n; i++)
		if (p->alt[i].out.kind == out.kind && p->alt[i].out.code == out.code) {
			want_recv |= p->alt[i].peer_recv >= 0;
			want_state |= p->alt[i].peer_state != M_NO_PEER && !x->chain_early;
		}
	if (p->res.peer_node >= 0 && p->res.peer_qp >= 0)
		peer_obj = bm_object(&x->bm, (unsigned)p->res.peer_node, SCN_C_QP, p->res.peer_qp);
	if (want_state && !want_recv && peer_obj >= 0) {
		int pick = run_peer_defer(x, s, p, first, peer_obj);

		if (pick >= 0)
			return pick;
	}
	if ((!want_state && !want_recv) || peer_obj < 0 || peer_obj != x->pend.peer)
		if (run_peer_settle(x, NULL))
			return -1; /* a check left by the posts before: made first */
	if ((!want_state && !want_recv) || peer_obj < 0)
		return first;
	for (int waited = 0;; waited += 100) {
		struct hpeer now;
		int rc = x->ops->peer(x->be, peer_obj, seen.recv < 0 && want_recv && waited == 0 ?
					     PEER_RECV_WAIT_MS : 0, &now);

		if (rc) {
			x->pend.on = 0; /* the check left for this look: gone too */
			return first; /* the peer QP is gone on the engine: nothing to observe */
		}
		if (run_peer_settle(x, &now))
			return -1; /* the posts before, whose check was left for this look */
		if (late_doubt(x, s, out, want_recv, &now))
			return -1;
		if (seen.recv < 0) {
			seen.recv = now.recv;
			seen.wc = now.wc;
		}
		seen.state = now.state;
		for (unsigned i = 0; i < p->n; i++) {
			const struct m_alt *a = &p->alt[i];

			if (a->out.kind != out.kind || a->out.code != out.code)
				continue;
			if ((a->peer_state == M_NO_PEER || !want_state || a->peer_state == seen.state) &&
			    (!want_recv || a->peer_recv == seen.recv))
				return recv_wc_judged(x, s, p, a, &seen.wc, peer_obj) ? (int)i : -1;
		}
		if (waited >= PEER_STATE_WAIT_MS)
			break;
		if (x->ops->pause)
			x->ops->pause(x->be, 100);
		else
			nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	{
		char name[80], allowed[256] = "";
		size_t off = 0;

		for (unsigned i = 0; i < p->n && off < sizeof(allowed); i++) {
			const struct m_alt *a = &p->alt[i];

			if (a->out.kind != out.kind || a->out.code != out.code)
				continue;
			off += (size_t)snprintf(allowed + off, sizeof(allowed) - off, "%sstate %s, receive %s",
						off ? " or " : "",
						a->peer_state == M_NO_PEER ? "any" : m_qp_state_str(a->peer_state),
						a->peer_recv < 0 ? "none" : m_wc_status_str(a->peer_recv));
		}
		run_say(x, V_FAIL, s->line, "line %u: peer QP %s: model allows %s; real state %s, receive %s", s->line,
		    run_obj_name(x->f, peer_obj, name, sizeof(name)), allowed,
		    seen.state < 0 ? "?" : m_qp_state_str(seen.state),
		    seen.recv < 0 ? "none" : m_wc_status_str(seen.recv));
	}
	return -1;
}

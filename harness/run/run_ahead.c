/* run_ahead.c — which steps run ahead of their answers, and sending them (run_ahead.h). */
#include "harness/run/run_ahead.h"
#include "harness/run/resolve.h"

size_t run_chain_len(const struct scn_file *f, size_t si)
{
	size_t n = 1;

	while (si + n < f->nsteps && scn_step_arg(&f->steps[si + n - 1], "chain"))
		n++;
	return n;
}

/* Whether a step of [from, to) acts on object obj (creates, changes or releases it: its engine view may change). */
static int acted_between(const struct scn_file *f, size_t from, size_t to, int32_t obj)
{
	for (size_t k = from; k < to; k++)
		if (f->steps[k].obj == obj)
			return 1;
	return 0;
}

/*
 * A post whose expect names success alone (SUCCESS, or ok: unsignaled): one
 * that, as its author says, does not move the peer QP to ERR, so that the
 * peer observations of the posts before it stay exact when it runs ahead
 * (late_doubt). Others wait for their turn.
 */
static int expects_success(const struct scn_step *s)
{
	for (size_t i = 0; i < s->nexpect; i++)
		if (!(s->expect[i].kind == M_OUT_WC && s->expect[i].code == M_WC_SUCCESS) && s->expect[i].kind != M_OUT_OK)
			return 0;
	return s->nexpect > 0;
}

/*
 * Whether step s acts on its own node alone: a call that creates, acts on or
 * queries an object of its node (no post, no connection, nothing harness-only),
 * with no argument naming a node or another node's object. Two such steps of
 * different nodes are calls of different agents on different devices: their
 * order on the stack cannot change what either answers.
 */
static int node_local(const struct scn_file *f, const struct scn_step *s)
{
	uint8_t kind = scn_step_call(s)->kind;

	if (kind != SCN_KIND_CREATE && kind != SCN_KIND_ACT && kind != SCN_KIND_QUERY)
		return 0;
	for (size_t i = 0; i < s->nargs; i++) {
		const struct scn_value *v = &s->args[i].v;

		if (v->kind == SCN_V_NODE)
			return 0;
		if ((v->kind & (SCN_V_OBJ | SCN_V_ADDR | SCN_V_ATTR)) &&
		    (v->obj < 0 || (size_t)v->obj >= f->nobjs || f->objs[v->obj].node != s->node))
			return 0;
	}
	return 1;
}

/* Whether the steps of [si, j] are all of si's node, or else all node_local (mixed: the latter may be asked). */
static int window_ok(const struct scn_file *f, size_t si, size_t j, int mixed)
{
	int one_node = 1;

	for (size_t k = si; k <= j && one_node; k++)
		one_node = f->steps[k].node == f->steps[si].node;
	if (one_node)
		return 1;
	if (!mixed)
		return 0;
	for (size_t k = si; k <= j; k++)
		if (!node_local(f, &f->steps[k]))
			return 0;
	return 1;
}

/*
 * Run-ahead: whether step j may be sent to the engine while the steps from si
 * on are not answered yet: the window [si, j] on si's node (posts among them,
 * whose peers are on other nodes: connect and peer= refuse one of its own, so
 * the peer observations after posts sent ahead never ask the node they wait
 * on), or, when mixed, steps of several nodes each acting on its own node
 * alone (node_local: no post, whose peer another node's step could change);
 * not in a chain; with no argument the engine's view answers (a reference,
 * an attribute) for an object a step not answered yet acts on (the view is
 * final once they are: the request sent now is the one its exec would make);
 * and a post only when it expects success (expects_success). The engine says
 * whether the call itself may (backend_ops.ahead).
 */
static int ahead_ok(const struct scn_file *f, size_t si, size_t j, int mixed)
{
	const struct scn_step *s = &f->steps[j];

	if (!window_ok(f, si, j, mixed) || run_chain_len(f, j) > 1 || (j > 0 && scn_step_arg(&f->steps[j - 1], "chain")))
		return 0; /* a chain's WRs are one request (run_chain) */
	for (size_t i = 0; i < s->nargs; i++)
		if ((s->args[i].v.kind & (SCN_V_ADDR | SCN_V_ATTR)) && acted_between(f, si, j, s->args[i].v.obj))
			return 0;
	return scn_step_call(s)->kind != SCN_KIND_POST || expects_success(s);
}

size_t run_ahead_send(const struct scn_file *f, const struct backend_ops *ops, void *be, size_t si, size_t sent,
		      int mixed)
{
	if (sent < si)
		sent = si;
	if (sent > si + RUN_AHEAD / 2)
		return sent; /* enough in flight: the window is topped up by halves, several requests a write */
	for (size_t j = sent; j < f->nsteps && j < si + RUN_AHEAD; j++) {
		struct hcall c;
		int32_t missing;

		if (!ahead_ok(f, si, j, mixed) || resolve_step(f, &f->steps[j], ops, be, &c, &missing) || ops->ahead(be, &c))
			break;
		sent = j + 1;
	}
	return sent;
}

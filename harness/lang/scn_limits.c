/*
 * scn_limits.c — what the reference model can hold, checked where the
 * scenario says it (issue 16.8). The limits themselves are the model's
 * (model/model.h: M_MAX_PD, M_MAX_MR, M_MAX_MW, M_MAX_QP, M_MAX_CONN,
 * M_MAX_RREMOTE, M_MAX_CQ, M_MAX_AH, M_MAX_SRQ, M_MAX_CHAN per node, model_mr_len_holds per registration;
 * the model's memory is bounded where it is written, not here: it holds a
 * buffer's pages where written, at most M_MR_BYTES_MAX of them in a scenario,
 * and the walk stops at the step that would pass that, model_mem_check); this file
 * only says which creations take which of them, so a scenario the model
 * cannot hold is refused by the parser with its position and the limit
 * named, instead of a model failure at run time. Every creation step counts
 * (one that fails too), except that a full verbs table (PD, MR, MW, QP) takes
 * a destroyed object's slot again (model/verbs/slot.c): a verbs creation
 * counts against the objects of its kind that are not destroyed by then (a
 * destroying step counts as destroying; a slot something still names, such
 * as a dead MR's PD, is not taken again, and then the run says the model
 * cannot hold the step). The other families' creations take never-used
 * slots: for them every creation so far counts.
 */
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>

enum res { R_PD, R_MR, R_MW, R_QP, R_CONN, R_RREMOTE, R_CQ, R_AH, R_SRQ, R_CHAN, R_COUNT_ };

static const struct {
	const char *what;
	unsigned max;
} res[R_COUNT_] = {
	[R_PD] = { "protection domains (alloc_pd, dat_pz_create, a node's librpma peer)", M_MAX_PD },
	[R_MR] = { "memory registrations (reg_mr, rpma_mr_reg, dat_lmr_create, an rpma_connect client's)", M_MAX_MR },
	[R_MW] = { "memory windows (alloc_mw, dat_rmr_create)", M_MAX_MW },
	[R_QP] = { "QPs (create_qp, and one on each side of dat_ep_connect and rpma_connect)", M_MAX_QP },
	[R_CONN] = { "connections (dat_ep_connect, rpma_connect: on each side)", M_MAX_CONN },
	[R_RREMOTE] = { "librpma remote MRs (rpma_mr_remote_from_descriptor)", M_MAX_RREMOTE },
	[R_CQ] = { "CQs (create_cq)", M_MAX_CQ },
	[R_AH] = { "address handles (create_ah)", M_MAX_AH },
	[R_SRQ] = { "shared receive queues (create_srq)", M_MAX_SRQ },
	[R_CHAN] = { "completion channels (create_comp_channel)", M_MAX_CHAN },
};

/* What creating an object of each class takes on its node and on its peer's. */
static const struct {
	unsigned cls;
	uint8_t own[R_COUNT_], peer[R_COUNT_];
} cost[] = {
	{ SCN_C_PD, { [R_PD] = 1 }, { 0 } },
	{ SCN_C_DAT_PZ, { [R_PD] = 1 }, { 0 } },
	{ SCN_C_MR, { [R_MR] = 1 }, { 0 } },
	{ SCN_C_RPMA_MR, { [R_MR] = 1 }, { 0 } },
	{ SCN_C_DAT_LMR, { [R_MR] = 1 }, { 0 } },
	{ SCN_C_MW, { [R_MW] = 1 }, { 0 } },
	{ SCN_C_DAT_RMR, { [R_MW] = 1 }, { 0 } },
	{ SCN_C_QP, { [R_QP] = 1 }, { 0 } },
	{ SCN_C_DAT_EP, { [R_QP] = 1, [R_CONN] = 1 }, { [R_QP] = 1, [R_CONN] = 1 } },
	{ SCN_C_RPMA_CONN, { [R_QP] = 1, [R_CONN] = 1, [R_MR] = 1 }, { [R_QP] = 1, [R_CONN] = 1 } },
	{ SCN_C_RPMA_REMOTE, { [R_RREMOTE] = 1 }, { 0 } },
	{ SCN_C_CQ, { [R_CQ] = 1 }, { 0 } },
	{ SCN_C_AH, { [R_AH] = 1 }, { 0 } },
	{ SCN_C_SRQ, { [R_SRQ] = 1 }, { 0 } },
	{ SCN_C_CHAN, { [R_CHAN] = 1 }, { 0 } },
};

#define RPMA_CLASSES (SCN_C_RPMA_MR | SCN_C_RPMA_CONN) /* the calls that make the node's librpma peer */
#define REUSE_CLASSES (SCN_C_PD | SCN_C_MR | SCN_C_MW | SCN_C_QP) /* creations that take a freed slot */
#define BUFFER_CLASSES (SCN_C_MR | SCN_C_RPMA_MR | SCN_C_DAT_LMR)

struct tally {
	unsigned n[SCN_NODES_MAX][R_COUNT_];    /* every creation so far */
	unsigned live[SCN_NODES_MAX][R_COUNT_]; /* less those destroyed since */
	uint8_t rpma_peer[SCN_NODES_MAX]; /* the node's librpma peer (one PD) is made */
};

/* Charge node one of r (k times) for a creation of class cls; 0, or -ENOSPC with the diagnostic at s. */
static int charge(struct scn_ctx *c, struct tally *t, const struct scn_step *s, unsigned node, enum res r,
		  unsigned k, unsigned cls)
{
	t->n[node][r] += k;
	t->live[node][r] += k;
	if ((cls & REUSE_CLASSES ? t->live[node][r] : t->n[node][r]) <= res[r].max)
		return 0;
	scn_diag(c, s->line, s->col, cls & REUSE_CLASSES ? "destroy some first, or split the scenario" :
		 "this family's objects take slots never used before: split the scenario",
		 SCN_E_MODEL_LIMIT, c->f->nodes[node], res[r].max, res[r].what);
	return -ENOSPC;
}

/* A destroying step gives back what its object took on its own node (the table's slot). */
static void credit(struct tally *t, const struct scn_file *f, const struct scn_step *s)
{
	const struct scn_obj *o;

	if (!scn_step_call(s)->destroys || s->obj < 0 || (size_t)s->obj >= f->nobjs)
		return;
	o = &f->objs[s->obj];
	for (size_t i = 0; i < SCN_N(cost); i++)
		for (unsigned r = R_PD; cost[i].cls == o->cls && r <= R_QP; r++)
			if (t->live[o->node][r] >= cost[i].own[r])
				t->live[o->node][r] -= cost[i].own[r];
}

/* The node a creation step's peer= names, or -1. */
static int peer_node(const struct scn_step *s)
{
	const struct scn_value *v = scn_step_arg(s, "peer");

	return v && (v->kind & (SCN_V_OBJ | SCN_V_NODE)) && v->node >= 0 && v->node != s->node ? v->node : -1;
}

/* The step's registration length, if the model cannot hold it (more than one registration may have): diagnosed at len=. */
static int check_len(struct scn_ctx *c, const struct scn_step *s, unsigned cls)
{
	const struct scn_value *len = scn_step_arg(s, "len"), *off = scn_step_arg(s, "offset");

	if (!(cls & BUFFER_CLASSES) || !len)
		return 0;
	if (!model_mr_len_holds(len->num, off ? off->num : 0)) {
		scn_diag(c, len->line, len->col, "the agents make no larger buffer: use a smaller len",
			 SCN_E_MR_TOO_LONG, (unsigned long long)len->num, (unsigned long long)M_MR_LEN_MAX);
		return -ENOSPC;
	}
	return 0;
}

/* Charge one creation step. */
static int charge_step(struct scn_ctx *c, struct tally *t, const struct scn_step *s)
{
	const struct scn_call *call = scn_step_call(s);
	int pn = peer_node(s);

	if (call->kind != SCN_KIND_CREATE) {
		credit(t, c->f, s);
		return 0;
	}
	if (check_len(c, s, call->cls))
		return -ENOSPC;
	for (int side = 0; side < 2; side++) {
		unsigned node = side ? (unsigned)pn : s->node;

		if (side && pn < 0)
			break;
		if ((call->cls & RPMA_CLASSES) && !t->rpma_peer[node] &&
		    (side == 0 || call->cls == SCN_C_RPMA_CONN)) {
			t->rpma_peer[node] = 1;
			if (charge(c, t, s, node, R_PD, 1, 0))
				return -ENOSPC;
		}
		for (size_t i = 0; i < SCN_N(cost); i++) {
			if (cost[i].cls != call->cls)
				continue;
			for (unsigned r = 0; r < R_COUNT_; r++) {
				unsigned k = side ? cost[i].peer[r] : cost[i].own[r];

				if (k && charge(c, t, s, node, (enum res)r, k, call->cls))
					return -ENOSPC;
			}
		}
	}
	return 0;
}

uint64_t scn_registered_bytes(const struct scn_file *f)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < f->nsteps; i++) {
		const struct scn_step *s = &f->steps[i];
		const struct scn_call *call = scn_step_call(s);
		const struct scn_value *len = scn_step_arg(s, "len");

		if (call->kind == SCN_KIND_CREATE && (call->cls & BUFFER_CLASSES) && len && len->num <= M_MR_LEN_MAX)
			sum += len->num;
	}
	return sum;
}

void scn_check_limits(struct scn_ctx *c)
{
	struct tally t;

	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < c->f->nsteps; i++)
		if (charge_step(c, &t, &c->f->steps[i]))
			return; /* one limit is enough: the rest would follow from it */
}

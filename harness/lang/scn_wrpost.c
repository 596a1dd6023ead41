/*
 * scn_wrpost.c — posts through the ibv_wr_* API (wr=yes, ibv_wr_post(3)): the
 * QP they post on must be one create_qp ex=yes made in the file, with the
 * operation's IBV_QP_EX_WITH_* bit in its send_ops= (rdma-core leaves the
 * builder of an operation not asked for a NULL function pointer: calling it
 * crashes the program), and each is one WR between one ibv_wr_start and one
 * ibv_wr_complete (no chain, no garbled handle, no inline data; a bind of a
 * type-2 window only); wr=abort
 * the same, ended by ibv_wr_abort (and so not waited for: no wait=).
 * Checked once the file parsed.
 */
#include "harness/lang/scn_internal.h"

#include <stdio.h>
#include <string.h>

/* The IBV_QP_EX_WITH_* name the builder of step s's operation needs (ibv_wr_post(3)), or NULL. */
static const char *needed_op(const struct scn_step *s)
{
	static const struct { const char *call, *op; } ops[] = {
		{ "write", "RDMA_WRITE" }, { "write_imm", "RDMA_WRITE_WITH_IMM" }, { "read", "RDMA_READ" },
		{ "cas", "ATOMIC_CMP_AND_SWP" }, { "fadd", "ATOMIC_FETCH_AND_ADD" }, { "local_inv", "LOCAL_INV" },
		{ "bind_mw", "BIND_MW" },
	};
	const char *name = scn_step_call(s)->name;

	if (strcmp(name, "send") == 0)
		return scn_step_arg(s, "inv") ? "SEND_WITH_INV"
		       : scn_step_arg(s, "imm") || scn_step_arg(s, "imm_data") ? "SEND_WITH_IMM" : "SEND";
	for (size_t i = 0; i < SCN_N(ops); i++)
		if (strcmp(name, ops[i].call) == 0)
			return ops[i].op;
	return NULL;
}

/* The QP step s posts on: bind_mw's qp=, any other post's NAME; -1 none. */
static int32_t post_qp(const struct scn_step *s)
{
	const struct scn_value *q = scn_step_arg(s, "qp");

	return q ? q->obj : s->obj;
}

/* Whether object o of f is a window alloc_mw type=2 made. */
static int type2_window(const struct scn_file *f, int32_t o)
{
	const struct scn_step *cr = &f->steps[f->objs[o].step];
	const struct scn_value *t = scn_step_arg(cr, "type");

	return strcmp(scn_step_call(cr)->name, "alloc_mw") == 0 && t && t->num == 2;
}

/* Diagnose what keeps wr=yes (or wr=abort) step s (its wr= value v) from the ibv_wr_* path. */
static void check_one(struct scn_ctx *c, size_t si, const struct scn_value *v)
{
	const struct scn_step *s = &c->f->steps[si];
	const char *op = needed_op(s);
	int32_t qo = post_qp(s);
	const struct scn_step *cr = qo >= 0 ? &c->f->steps[c->f->objs[qo].step] : NULL;
	const struct scn_value *ex = cr ? scn_step_arg(cr, "ex") : NULL, *sops = cr ? scn_step_arg(cr, "send_ops") : NULL;
	uint64_t bit = 0;
	char msg[160];

	if (!op || qo < 0)
		return;
	if (!ex || ex->num != 1 || strcmp(scn_step_call(cr)->name, "create_qp") != 0) {
		snprintf(msg, sizeof(msg), "QP '%s' is not made by create_qp ex=yes", c->f->objs[qo].name);
		scn_diag(c, v->line, v->col, "make the QP with create_qp ex=yes send_ops=...", SCN_E_WR_POST, msg);
		return;
	}
	if (scn_table_lookup(SCN_T_SEND_OPS, op, &bit) || !sops || !(sops->num & bit)) {
		snprintf(msg, sizeof(msg), "QP '%s' was made without %s in send_ops= (line %u): its ibv_wr_* builder is NULL",
			 c->f->objs[qo].name, op, cr->line);
		scn_diag(c, v->line, v->col, "add the operation to the QP's send_ops=", SCN_E_WR_POST, msg);
		return;
	}
	if (scn_step_arg(s, "chain") || (si > 0 && scn_step_arg(&c->f->steps[si - 1], "chain")))
		scn_diag(c, v->line, v->col, "post it on its own", SCN_E_WR_POST,
			 "a WR posted with wr=yes is one WR between ibv_wr_start and ibv_wr_complete: no chain");
	else if (strcmp(scn_step_call(s)->name, "bind_mw") == 0 && s->obj >= 0 && !type2_window(c->f, s->obj))
		scn_diag(c, v->line, v->col, "bind a window alloc_mw type=2 made", SCN_E_WR_POST,
			 "ibv_wr_bind_mw binds a type-2 window (a type-1 window is bound by ibv_bind_mw)");
	else if (v->num == 2 && scn_step_arg(s, "wait"))
		scn_diag(c, v->line, v->col, "an aborted WR is never posted: nothing to wait for", SCN_E_WR_POST,
			 "wr=abort takes no wait=");
	else if (scn_step_arg(s, "garble") || scn_step_arg(s, "call") || scn_step_arg(s, "inline"))
		scn_diag(c, v->line, v->col, "post it without wr=yes", SCN_E_WR_POST,
			 "wr=yes takes no garble=, call (ibv_bind_mw) or inline (ibv_wr_set_inline_data)");
}

void scn_check_wr_posts(struct scn_ctx *c)
{
	for (size_t i = 0; i < c->f->nsteps; i++) {
		const struct scn_value *v = scn_step_arg(&c->f->steps[i], "wr");

		if (v && v->num != 0)
			check_one(c, i, v);
	}
}

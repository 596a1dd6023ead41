/*
 * scngen_verbs.c — the verbs steps beyond PDs, MRs, windows and RC traffic
 * (scngen_int.h: vx_*): CQs and completion channels, shared receive queues,
 * UD address handles and sends, device and port queries, rereg_mr, QP state
 * transitions one at a time, and the extra arguments of create_qp.
 */
#include "harness/explore/scngen_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* scngen_int.h */
unsigned live_n(const struct gctx *x, unsigned node, uint32_t cls)
{
	const struct scn_file *f = x->e->f;
	unsigned n = 0;

	for (size_t i = 0; i < f->nobjs; i++) {
		int h = x->e->eng.h[i];

		n += f->objs[i].node == node && f->objs[i].cls == cls && h >= 0 && obj_live(x, &f->objs[i], h);
	}
	return n;
}

/* How many live UD QPs of node are not in RTS yet (connect brings RC and UC ones there). */
static unsigned ud_not_rts(const struct gctx *x, unsigned node)
{
	const struct scn_file *f = x->e->f;
	unsigned n = 0;

	for (size_t i = 0; i < f->nobjs; i++) {
		int h = x->e->eng.h[i];

		if (f->objs[i].node == node && f->objs[i].cls == SCN_C_QP && h >= 0 && x->m->node[node].qp[h].live)
			n += x->m->node[node].qp[h].state != M_QPS_RTS && x->m->node[node].qp[h].type == M_QPT_UD;
	}
	return n;
}

/* Has node a live UD QP? */
static int ud_qp(const struct gctx *x, unsigned node)
{
	const struct scn_file *f = x->e->f;

	for (size_t i = 0; i < f->nobjs; i++) {
		int h = x->e->eng.h[i];

		if (f->objs[i].node == node && f->objs[i].cls == SCN_C_QP && h >= 0 && x->m->node[node].qp[h].live &&
		    x->m->node[node].qp[h].type == M_QPT_UD)
			return 1;
	}
	return 0;
}

/* scngen_int.h */
unsigned vx_weight(const struct gctx *x, unsigned node, enum vx_kind k)
{
	unsigned pd = live_n(x, node, SCN_C_PD), cq = live_n(x, node, SCN_C_CQ), qp = live_n(x, node, SCN_C_QP);

	switch (k) {
	case VX_CQ:
		return cq ? 1 : 2;
	case VX_CQ_ACT:
		return cq ? 4 : 0;
	case VX_CHAN:
		return 1;
	case VX_SRQ:
		return pd ? (live_n(x, node, SCN_C_SRQ) ? 2 : 1) : 0;
	case VX_AH:
		return pd && ud_qp(x, node) ? (live_n(x, node, SCN_C_AH) ? 1 : 8) : 0; /* for a UD QP's sends */
	case VX_UD_SEND:
		return qp && live_n(x, node, SCN_C_AH) ? (ud_qp(x, node) ? 10 : 1) : 0;
	case VX_QUERY:
		return pd ? 1 : 0;
	case VX_REREG:
		return live_n(x, node, SCN_C_MR) ? 3 : 0;
	case VX_STATE:
		return ud_not_rts(x, node) ? 6 : qp ? 1 : 0;
	default:
		return 0;
	}
}

/* create_cq: a depth at and past the edges, now and then a channel, a vector, ibv_create_cq_ex. */
static int propose_cq(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const unsigned depths[] = { 1, 2, 4, 16, 64, 0, M_CQ_DEPTH_MAX, M_CQ_DEPTH_MAX + 1 };
	static const char *const vec[] = { "0", "last", "past", "-1" };
	char tail[128] = "";
	int32_t ch = below(x, 3) ? -1 : pick(x, node, SCN_C_CHAN, below(x, 6) ? W_LIVE : W_ANY, NULL);
	size_t off = 0;

	if (ch >= 0)
		off += (size_t)snprintf(tail + off, sizeof(tail) - off, " channel=%s", oname(x, ch));
	if (below(x, 6) == 0)
		off += (size_t)snprintf(tail + off, sizeof(tail) - off, " vector=%s", vec[below(x, 4)]);
	if (below(x, 4) == 0)
		snprintf(tail + off, sizeof(tail) - off, " ex=yes");
	/* the depths that fail only once the node has a CQ (the score prefers rare failures to building up) */
	snprintf(line, len, "%s: create_cq c%u depth=%u%s", ex_node_name(node), x->step,
		 depths[below(x, 5) || !live_n(x, node, SCN_C_CQ) ? below(x, 5) : below(x, 8)], tail);
	return 0;
}

/* A step on a CQ: destroy (busy or not, garbled now and then), poll, resize, arm. */
static int propose_cq_act(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const unsigned sizes[] = { 0, 1, 4, 64, M_CQ_DEPTH_MAX + 1 };
	char tail[48];

	switch (below(x, 6)) {
	case 0:
		return act_on(x, node, SCN_C_CQ, W_LIVE, "destroy_cq", below(x, 8) ? "" : " garble=self", line, len);
	case 1:
	case 2:
		snprintf(tail, sizeof(tail), " max=%u", 1 + (unsigned)below(x, M_POLL_MAX));
		return act_on(x, node, SCN_C_CQ, W_LIVE, "poll_cq", tail, line, len);
	case 3:
		snprintf(tail, sizeof(tail), " depth=%u", sizes[below(x, 5)]);
		return act_on(x, node, SCN_C_CQ, W_LIVE, "resize_cq", tail, line, len);
	default:
		return act_on(x, node, SCN_C_CQ, W_LIVE, "req_notify_cq", below(x, 3) ? "" : " solicited=yes", line,
			      len);
	}
}

/* Completion channels: create, destroy (busy or not), wait for an event. */
static int propose_chan(struct gctx *x, unsigned node, char *line, size_t len)
{
	switch (below(x, 3)) {
	case 0:
		snprintf(line, len, "%s: create_comp_channel h%u", ex_node_name(node), x->step);
		return 0;
	case 1:
		return act_on(x, node, SCN_C_CHAN, W_LIVE, "destroy_comp_channel", "", line, len);
	default:
		return act_on(x, node, SCN_C_CHAN, W_LIVE, "get_cq_event", "", line, len);
	}
}

/* Shared receive queues: create (a PD of the node, dead now and then), destroy, resize or arm
 * (modify_srq: max_wr=, srq_limit=, or both), query, post receives. */
static int propose_srq(struct gctx *x, unsigned node, char *line, size_t len)
{
	const char *nn = ex_node_name(node);
	int32_t o, m;
	unsigned depth;
	int h;

	switch (below(x, 7)) {
	case 0:
		o = pick(x, node, SCN_C_PD, below(x, 8) ? W_LIVE : W_ANY, NULL);
		if (o < 0)
			return -EAGAIN;
		depth = (unsigned)below(x, 4);
		depth = 1 + depth * (unsigned)below(x, 5);
		snprintf(line, len, "%s: create_srq s%u pd=%s max_wr=%u", nn, x->step, oname(x, o), depth);
		return 0;
	case 1:
		return act_on(x, node, SCN_C_SRQ, W_LIVE, "destroy_srq", "", line, len);
	case 2: {
		static const unsigned wrs[] = { 0, 1, 4, 16, 31, 32 }, limits[] = { 0, 1, 2, 8, 200 };
		unsigned keys = below(x, 3), wr = wrs[below(x, 6)], limit = limits[below(x, 5)];
		char tail[64];

		if (keys == 0)
			snprintf(tail, sizeof(tail), " max_wr=%u", wr);
		else if (keys == 1)
			snprintf(tail, sizeof(tail), " srq_limit=%u", limit);
		else
			snprintf(tail, sizeof(tail), " max_wr=%u srq_limit=%u", wr, limit);
		return act_on(x, node, SCN_C_SRQ, W_LIVE, "modify_srq", tail, line, len);
	}
	case 3:
		return act_on(x, node, SCN_C_SRQ, W_LIVE, "query_srq", "", line, len);
	default:
		o = pick(x, node, SCN_C_SRQ, W_LIVE, NULL);
		m = pick(x, node, SCN_C_MR, below(x, 6) ? W_LIVE : W_ANY, &h);
		if (o < 0 || m < 0)
			return -EAGAIN;
		uint64_t mlen = x->m->node[node].mr[h].len, off = edge_off(x, mlen, 0);

		snprintf(line, len, "%s: post_srq_recv %s local=%s+%llu len=%llu", nn, oname(x, o), oname(x, m),
			 (unsigned long long)off, (unsigned long long)edge_len(x, mlen, off));
		return 0;
	}
}

/* UD address handles: to another node (or the node itself), through a PD; destroyed now and then. */
static int propose_ah(struct gctx *x, unsigned node, char *line, size_t len)
{
	int32_t pd;

	if (below(x, 4) == 0)
		return act_on(x, node, SCN_C_AH, W_LIVE, "destroy_ah", "", line, len);
	pd = pick(x, node, SCN_C_PD, below(x, 8) ? W_LIVE : W_ANY, NULL);
	if (pd < 0)
		return -EAGAIN;
	snprintf(line, len, "%s: create_ah a%u pd=%s to=%s", ex_node_name(node), x->step, oname(x, pd),
		 ex_node_name(below(x, 5) ? other(x, node) : node));
	return 0;
}

/* A SEND through an AH to a QP of the AH's node (UD; on an RC or UC QP the model refuses it). */
static int propose_ud_send(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const uint64_t lens[] = { 0, 8, 64, 1024, 4096, 4097 };
	int hq, hm;
	int32_t q = pick(x, node, SCN_C_QP, W_LIVE, &hq), ah = pick(x, node, SCN_C_AH, W_LIVE, NULL);

	for (int t = 0; t < 3 && q >= 0 && x->m->node[node].qp[hq].type != M_QPT_UD; t++)
		q = pick(x, node, SCN_C_QP, W_LIVE, &hq); /* mostly a UD QP, when the node has one */
	int32_t m = pick(x, node, SCN_C_MR, below(x, 6) ? W_LIVE : W_ANY, &hm);
	unsigned peer = other(x, node);
	int32_t d = pick(x, peer, SCN_C_QP, W_ANY, NULL);
	const char *qkey, *imm;
	uint64_t slen;

	if (q < 0 || ah < 0 || m < 0 || d < 0)
		return -EAGAIN;
	qkey = below(x, 6) ? "" : " qkey=7";
	imm = below(x, 4) ? "" : " imm";
	slen = lens[below(x, 6)];
	snprintf(line, len, "%s: send %s local=%s+0 len=%llu ah=%s dest=%s.%s%s%s", ex_node_name(node), oname(x, q),
		 oname(x, m), (unsigned long long)slen, oname(x, ah), ex_node_name(peer), oname(x, d), imm, qkey);
	return 0;
}

/* The device and its port named by a PD: query_device, query_port, the GID and P_Key tables; query_qp;
 * and the struct a live object's creation returned (fields: its context, PD, CQs, SRQ, numbers). */
static int propose_query(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const char *const q[] = { "query_device", "query_device", "query_port", "query_gid", "query_gid_table",
					 "query_pkey", "get_pkey_index", "query_qp" };
	static const char *const port[] = { " port=1", " port=0", " port=past" };
	static const uint32_t made[] = { SCN_C_PD, SCN_C_MR, SCN_C_MW, SCN_C_QP,
					 SCN_C_CQ, SCN_C_AH, SCN_C_SRQ, SCN_C_CHAN };
	unsigned k = below(x, 10);
	const char *tail = "";

	if (k >= 8)
		return act_on(x, node, made[below(x, 8)], W_LIVE, "fields", "", line, len);
	if (k == 7)
		return act_on(x, node, SCN_C_QP, W_LIVE, "query_qp", "", line, len);
	if (k == 1)
		tail = " ex";
	else if (k == 2)
		tail = port[below(x, 3)];
	else if (k == 3)
		tail = below(x, 2) ? "" : below(x, 2) ? " ex" : " ex empty";
	else if (k == 4)
		tail = below(x, 2) ? "" : " max=0";
	return act_on(x, node, SCN_C_PD, below(x, 10) ? W_LIVE : W_ANY, q[k], tail, line, len);
}

/* rereg_mr: its flags (none, each, unknown bits), a new PD, access, length or buffer. */
static int propose_rereg(struct gctx *x, unsigned node, char *line, size_t len)
{
	char flags[96], acc[128], tail[256] = "";
	uint32_t fl = some_of(x, 7);
	int32_t pd = pick(x, node, SCN_C_PD, below(x, 6) ? W_LIVE : W_ANY, NULL);
	int32_t buf = pick(x, node, SCN_C_MR, W_LIVE, NULL);
	size_t off = 0;

	flags_str(SCN_T_REREG, fl, flags, sizeof(flags));
	if (below(x, 10) == 0)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "|0x10");
	if (fl || below(x, 4))
		off += (size_t)snprintf(tail + off, sizeof(tail) - off, " flags=%s", flags);
	if ((fl & 2) && pd >= 0 && below(x, 6))
		off += (size_t)snprintf(tail + off, sizeof(tail) - off, " pd=%s", oname(x, pd));
	if ((fl & 4) || below(x, 6) == 0) {
		flags_str(SCN_T_ACCESS, (below(x, 3) ? M_ACC_LOCAL_WRITE : 0) | some_of(x, M_ACC_REMOTE_ANY | M_ACC_MW_BIND),
			  acc, sizeof(acc));
		off += (size_t)snprintf(tail + off, sizeof(tail) - off, " access=%s", acc);
	}
	if ((fl & 1) || below(x, 6) == 0) {
		if (buf >= 0 && below(x, 3) == 0)
			off += (size_t)snprintf(tail + off, sizeof(tail) - off, " buf=%s+0", oname(x, buf));
		snprintf(tail + off, sizeof(tail) - off, " len=%u", below(x, 6) ? 4096u : 0u);
	}
	return act_on(x, node, SCN_C_MR, below(x, 12) ? W_LIVE : W_ANY, "rereg_mr", tail, line, len);
}

/* modify_qp one transition: the next state (or another), RTR of RC/UC with the peer, attributes left out. */
static int propose_state(struct gctx *x, unsigned node, char *line, size_t len)
{
	static const char *const st[] = { "INIT", "RTR", "RTS", "ERR", "RESET" };
	static const char *const omit[] = { "PKEY_INDEX", "PORT", "QKEY", "ACCESS_FLAGS", "AV", "PATH_MTU",
					    "DEST_QPN", "SQ_PSN", "TIMEOUT", "MAX_QP_RD_ATOMIC" };
	char tail[96] = "";
	int h, hp;
	int32_t q = pick(x, node, SCN_C_QP, W_LIVE, &h);
	unsigned peer = other(x, node), next;
	size_t off = 0;

	for (int t = 0; t < 3 && q >= 0 && x->m->node[node].qp[h].type != M_QPT_UD; t++)
		q = pick(x, node, SCN_C_QP, W_LIVE, &h); /* mostly a UD QP: connect moves the others */
	if (q < 0)
		return -EAGAIN;
	const struct m_qp *mq = &x->m->node[node].qp[h];

	next = mq->state == M_QPS_RESET ? 0 : mq->state == M_QPS_INIT ? 1 : mq->state == M_QPS_RTR ? 2 : 3;
	if (below(x, 6) == 0)
		next = below(x, 5); /* a transition the table refuses, now and then */
	if (next == 1 && mq->type != M_QPT_UD) {
		int32_t p = pick(x, peer, SCN_C_QP, W_ANY, &hp);

		if (p >= 0 && below(x, 8))
			off += (size_t)snprintf(tail + off, sizeof(tail) - off, " peer=%s.%s", ex_node_name(peer),
						oname(x, p));
	}
	if (next == 0 && mq->type == M_QPT_UD && below(x, 4) == 0)
		off += (size_t)snprintf(tail + off, sizeof(tail) - off, " qkey=7");
	if (next < 3 && below(x, 6) == 0)
		snprintf(tail + off, sizeof(tail) - off, " omit=%s", omit[below(x, 10)]);
	snprintf(line, len, "%s: modify_qp %s state=%s%s", ex_node_name(node), oname(x, q), st[next], tail);
	return 0;
}

/* scngen_int.h */
int vx_propose(struct gctx *x, unsigned node, enum vx_kind k, char *line, size_t len)
{
	static int (*const propose[VX_COUNT_])(struct gctx *, unsigned, char *, size_t) = {
		[VX_CQ] = propose_cq,         [VX_CQ_ACT] = propose_cq_act, [VX_CHAN] = propose_chan,
		[VX_SRQ] = propose_srq,       [VX_AH] = propose_ah,         [VX_UD_SEND] = propose_ud_send,
		[VX_QUERY] = propose_query,   [VX_REREG] = propose_rereg,   [VX_STATE] = propose_state,
	};

	return (unsigned)k < VX_COUNT_ ? propose[k](x, node, line, len) : -EAGAIN;
}

/* scngen_int.h */
void vx_qp_tail(struct gctx *x, unsigned node, int all, char *tail, size_t len)
{
	static const char *const types[] = { "", "", "", "", "", "", " type=UC", " type=UD" };
	size_t off = 0;
	int32_t cq = below(x, 2) ? pick(x, node, SCN_C_CQ, below(x, 8) ? W_LIVE : W_ANY, NULL) : -1;
	int32_t srq = below(x, 2) ? -1 : pick(x, node, SCN_C_SRQ, below(x, 8) ? W_LIVE : W_ANY, NULL);

	tail[0] = '\0';
	off += (size_t)snprintf(tail + off, len - off, "%s", types[below(x, 8)]);
	if (!all)
		return;
	if (cq >= 0)
		off += (size_t)snprintf(tail + off, len - off, " %s=%s", below(x, 3) ? "cq" : below(x, 2) ? "send_cq" : "recv_cq",
					oname(x, cq));
	if (srq >= 0)
		off += (size_t)snprintf(tail + off, len - off, " srq=%s", oname(x, srq));
	if (below(x, 5) == 0) {
		unsigned recv_wr = (unsigned)below(x, 3), send_wr = 1 + (unsigned)below(x, 2);

		off += (size_t)snprintf(tail + off, len - off, " max_send_wr=%u max_recv_wr=%u", send_wr, recv_wr);
	}
	if (below(x, 4) == 0)
		off += (size_t)snprintf(tail + off, len - off, " max_inline=%u", below(x, 2) ? 64u : 0u);
	if (below(x, 8) == 0)
		off += (size_t)snprintf(tail + off, len - off, " sig_all");
	if (below(x, 6) == 0)
		snprintf(tail + off, len - off, " ex=yes");
}

/* scngen.c — verbs scenarios drawn from the model's state, step by step (scngen.h). */
#include "harness/explore/scngen.h"
#include "harness/explore/scngen_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ex_cov_add(struct ex_cov *c, const struct result *r)
{
	for (unsigned i = 0; i < M_RULE_COUNT_; i++)
		if (result_rule_has(r, (enum m_rule)i))
			c->hits[i]++;
}

unsigned ex_cov_reached(const struct ex_cov *c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < M_RULE_COUNT_; i++)
		n += c->hits[i] > 0;
	return n;
}

/* ---------------------------------------------------------- proposals -- */

enum kind { K_ALLOC_PD, K_DEALLOC_PD, K_REG_MR, K_DEREG_MR, K_ALLOC_MW, K_DEALLOC_MW, K_BIND_MW, K_CREATE_QP,
	    K_DESTROY_QP, K_MODIFY_QP, K_CONNECT, K_WRITE, K_READ, K_CAS, K_FADD, K_SEND, K_RECV, K_LOCAL_INV,
	    K_FILL, K_VX, K_COUNT_ = K_VX + VX_COUNT_ }; /* K_VX + enum vx_kind: scngen_verbs.c's */

/* Per node: how many live objects of each class, and QPs ready to send (RTS). */
struct counts { unsigned pd, mr, mw, qp, rts, reset; };

static void count(const struct gctx *x, unsigned node, struct counts *c)
{
	const struct scn_file *f = x->e->f;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < f->nobjs; i++) {
		int h = x->e->eng.h[i];

		if (f->objs[i].node != node || h < 0 || !obj_live(x, &f->objs[i], h))
			continue;
		c->pd += f->objs[i].cls == SCN_C_PD;
		c->mr += f->objs[i].cls == SCN_C_MR;
		c->mw += f->objs[i].cls == SCN_C_MW;
		if (f->objs[i].cls == SCN_C_QP) {
			c->qp++;
			c->rts += x->m->node[node].qp[h].state == M_QPS_RTS;
			c->reset += x->m->node[node].qp[h].state == M_QPS_RESET;
		}
	}
}

/* Weights of the kinds on a node in state c: build up first, then act and tear down. */
static enum kind draw_kind(struct gctx *x, unsigned node, const struct counts *c)
{
	unsigned w[K_COUNT_] = { 0 }, total = 0;

	w[K_ALLOC_PD] = c->pd ? 1 : 12;
	w[K_DEALLOC_PD] = c->pd ? 1 : 0;
	w[K_REG_MR] = c->pd ? (c->mr == 0 ? 10 : c->mr == 1 ? 3 : 1) : 0;
	w[K_DEREG_MR] = c->mr ? 3 : 0;
	w[K_ALLOC_MW] = c->pd ? (c->mw ? 1 : 3) : 0;
	w[K_DEALLOC_MW] = c->mw ? 2 : 0;
	w[K_BIND_MW] = c->mw && c->qp ? 6 : 0;
	w[K_CREATE_QP] = c->pd ? (c->qp ? 1 : 8) : 0;
	w[K_DESTROY_QP] = c->qp ? 1 : 0;
	w[K_MODIFY_QP] = c->qp ? 1 : 0;
	w[K_CONNECT] = c->reset ? 20 : 0;
	w[K_WRITE] = w[K_READ] = c->rts ? 14 : c->qp ? 1 : 0;
	w[K_CAS] = w[K_FADD] = c->rts ? 5 : 0;
	w[K_SEND] = w[K_RECV] = c->rts ? 6 : 0;
	w[K_LOCAL_INV] = c->mw && c->qp ? 3 : 0;
	w[K_FILL] = c->mr ? 1 : 0;
	for (unsigned v = 0; v < VX_COUNT_; v++)
		w[K_VX + v] = vx_weight(x, node, (enum vx_kind)v);
	for (unsigned k = 0; k < K_COUNT_; k++)
		total += w[k];
	uint32_t r = below(x, total);

	for (unsigned k = 0; k < K_COUNT_; k++) {
		if (r < w[k])
			return (enum kind)k;
		r -= w[k];
	}
	return K_ALLOC_PD;
}

/* A remote target on peer: an MR or a window there (dead ones too), at an edge offset. */
static int remote_ref(struct gctx *x, unsigned peer, int atomic, char *buf, size_t len, char *rkey, size_t klen)
{
	int h, mw = below(x, 4) == 0;
	int32_t o = pick(x, peer, mw ? SCN_C_MW : SCN_C_MR, W_ANY, &h);
	uint64_t olen;

	if (o < 0 && mw)
		o = pick(x, peer, SCN_C_MR, W_ANY, &h), mw = 0;
	if (o < 0)
		return -EAGAIN;
	olen = mw ? x->m->node[peer].mw[h].len : x->m->node[peer].mr[h].len;
	snprintf(buf, len, "%s.%s+%llu", ex_node_name(peer), oname(x, o), (unsigned long long)edge_off(x, olen, atomic));
	rkey[0] = '\0';
	if (below(x, 10) == 0)
		snprintf(rkey, klen, " rkey=%u", (unsigned)below(x, 1u << 20)); /* made up */
	else if (below(x, 12) == 0 && !mw)
		snprintf(rkey, klen, " rkey=%s.%s.lkey", ex_node_name(peer), oname(x, o));
	return 0;
}

/* A post on a QP of node: its peer's node (or another one when unconnected). */
static int post_qp(struct gctx *x, unsigned node, int32_t *q, unsigned *peer)
{
	int h;

	*q = pick(x, node, SCN_C_QP, W_LIVE, &h);
	if (*q < 0)
		return -EAGAIN;
	if (x->m->node[node].qp[h].peer_node >= 0)
		*peer = (unsigned)x->m->node[node].qp[h].peer_node;
	else
		*peer = (node + 1 + below(x, x->nnodes - 1)) % x->nnodes;
	return 0;
}

/*
 * A SEND or WRITE's flags appended to tail, now and then: inline (own: the
 * local SGE is the node's own MR), unsignaled, solicited. Inline bytes are
 * copied from the SGE's address in the posting process (LP-3): another
 * node's MR there is another process's address, which killed the agent
 * (SIGSEGV), so a foreign SGE draws the flag and drops it.
 */
static void post_flags(struct gctx *x, int own, char *tail, size_t len)
{
	size_t off = strlen(tail);

	if (below(x, 6) == 0 && own)
		off += (size_t)snprintf(tail + off, len - off, " inline");
	if (below(x, 8) == 0)
		off += (size_t)snprintf(tail + off, len - off, " signaled=no");
	if (below(x, 10) == 0)
		snprintf(tail + off, len - off, " solicited=yes");
}

static int propose_post(struct gctx *x, unsigned node, enum kind k, char *line, size_t len)
{
	static const char *const names[] = { [K_WRITE] = "write", [K_READ] = "read", [K_CAS] = "cas",
					      [K_FADD] = "fadd", [K_SEND] = "send", [K_RECV] = "recv" };
	char remote[96], rkey[64], tail[96] = "", lref[48];
	int32_t q, l;
	unsigned peer, lnode;
	int h, n, atomic = k == K_CAS || k == K_FADD;
	uint64_t loff, plen;
	const char *name = names[k];

	if (post_qp(x, node, &q, &peer))
		return -EAGAIN;
	/* The local SGE: one of this node's MRs, now and then a dead one or another node's (a foreign lkey). */
	lnode = below(x, 6) ? node : peer;
	l = pick(x, lnode, SCN_C_MR, below(x, 6) ? W_LIVE : W_ANY, &h);
	if (l < 0)
		return -EAGAIN;
	snprintf(lref, sizeof(lref), "%s%s%s", lnode == node ? "" : ex_node_name(lnode), lnode == node ? "" : ".",
		 oname(x, l));
	loff = edge_off(x, x->m->node[lnode].mr[h].len, 0);
	plen = below(x, 24) ? edge_len(x, x->m->node[lnode].mr[h].len, loff) : (1ull << 31) + 1; /* past 2^31 */
	if ((lnode != node || !x->m->node[lnode].mr[h].live) && below(x, 3) == 0)
		plen = 0; /* a bad lkey with nothing to read or write through it */
	if (k == K_SEND || k == K_RECV) {
		int32_t w;

		if (k == K_SEND && below(x, 3) == 0 &&
		    (w = pick(x, peer, below(x, 3) ? SCN_C_MW : SCN_C_MR, W_ANY, NULL)) >= 0)
			snprintf(tail, sizeof(tail), " inv=%s.%s", ex_node_name(peer), oname(x, w));
		if (k == K_SEND)
			post_flags(x, lnode == node, tail, sizeof(tail));
		snprintf(line, len, "%s: %s %s local=%s+%llu len=%llu%s", ex_node_name(node), names[k], oname(x, q),
			 lref, (unsigned long long)loff, (unsigned long long)(plen >> 31 ? 64 : plen), tail);
		return 0;
	}
	if (remote_ref(x, peer, atomic, remote, sizeof(remote), rkey, sizeof(rkey)))
		return -EAGAIN;
	if (k == K_CAS) {
		unsigned swap = (unsigned)below(x, 256), compare = (unsigned)below(x, 2);

		snprintf(tail, sizeof(tail), " compare=%u swap=%u", compare, swap);
	}
	else if (k == K_FADD)
		snprintf(tail, sizeof(tail), " add=%u", 1 + (unsigned)below(x, 16));
	else
		snprintf(tail, sizeof(tail), " len=%llu", (unsigned long long)plen);
	if (atomic && below(x, 8) == 0)
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), " len=4"); /* not 8 (RA-ATOM-2) */
	if (k == K_WRITE && below(x, 4) == 0)
		name = "write_imm"; /* consumes a receive of the peer */
	if (!atomic && k != K_READ)
		post_flags(x, lnode == node, tail, sizeof(tail));
	else if (k == K_READ && below(x, 12) == 0 && lnode == node)
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), " inline"); /* a READ cannot carry it */
	n = snprintf(line, len, "%s: %s %s local=%s+%llu remote=%s%s%s", ex_node_name(node), name, oname(x, q),
		     lref, (unsigned long long)(atomic ? loff & ~7ull : loff), remote, tail, rkey);
	return n > 0 && (size_t)n < len ? 0 : -EAGAIN;
}

static int propose_bind(struct gctx *x, unsigned node, char *line, size_t len)
{
	char acc[96], mref[64];
	int hm, hq;
	int32_t w = pick(x, node, SCN_C_MW, W_ANY, NULL), q = pick(x, node, SCN_C_QP, W_LIVE, &hq);
	int32_t m = pick(x, node, SCN_C_MR, below(x, 5) ? W_LIVE : W_ANY, &hm);
	uint64_t mlen, off, blen;
	uint32_t bits;
	const char *call, *zero, *with_mr;

	if (w < 0 || q < 0 || m < 0)
		return -EAGAIN;
	for (int t = 0; t < 3 && !(x->m->node[node].mr[hm].access & M_ACC_MW_BIND); t++)
		m = pick(x, node, SCN_C_MR, W_LIVE, &hm); /* mostly an MR that allows binding */
	for (int t = 0; t < 3 && x->m->node[node].qp[hq].state != M_QPS_RTS; t++)
		q = pick(x, node, SCN_C_QP, W_LIVE, &hq); /* and a QP that can post it */
	if (q < 0 || m < 0)
		return -EAGAIN;
	mlen = x->m->node[node].mr[hm].len;
	off = edge_off(x, mlen, 0);
	bits = some_of(x, M_ACC_REMOTE_ANY);
	bits |= below(x, 8) ? 0 : M_ACC_LOCAL_WRITE;
	flags_str(SCN_T_ACCESS, bits, acc, sizeof(acc));
	snprintf(mref, sizeof(mref), " mr=%s+%llu", oname(x, m), (unsigned long long)off);
	call = below(x, 4) ? "" : " call"; /* ibv_bind_mw, not a post */
	zero = below(x, 8) ? "" : " zero_based";
	blen = edge_len(x, mlen, off);
	with_mr = below(x, 16) ? mref : "";
	snprintf(line, len, "%s: bind_mw %s qp=%s%s len=%llu access=%s%s%s", ex_node_name(node), oname(x, w),
		 oname(x, q), with_mr, (unsigned long long)blen, acc, zero, call);
	return 0;
}

static int propose_connect(struct gctx *x, unsigned node, char *line, size_t len)
{
	unsigned peer = (node + 1 + below(x, x->nnodes - 1)) % x->nnodes;
	int h, hp;
	int32_t q = pick(x, node, SCN_C_QP, W_LIVE, &h), p = pick(x, peer, SCN_C_QP, W_LIVE, &hp);

	if (q < 0 || p < 0)
		return -EAGAIN;
	/* Mostly fresh QPs; now and then one already connected or in ERR. */
	if ((x->m->node[node].qp[h].state != M_QPS_RESET || x->m->node[peer].qp[hp].state != M_QPS_RESET) &&
	    below(x, 8))
		return -EAGAIN;
	snprintf(line, len, "connect %s.%s %s.%s%s", ex_node_name(node), oname(x, q), ex_node_name(peer), oname(x, p),
		 below(x, 10) ? "" : below(x, 2) ? " max_dest_rd_atomic=0" : " max_rd_atomic=0");
	return 0;
}

/* A step that acts on one object: dealloc/dereg/destroy/modify/local_inv/fill. */
static int propose_act(struct gctx *x, unsigned node, enum kind k, char *line, size_t len)
{
	const char *nn = ex_node_name(node);
	const char *garble = below(x, 12) ? "" : " garble=self"; /* a garbled handle (HANDLE-1) */
	int32_t o, q;

	switch (k) {
	case K_DEALLOC_PD:
		return act_on(x, node, SCN_C_PD, below(x, 4) ? W_LIVE : W_ANY, "dealloc_pd", garble, line, len);
	case K_DEREG_MR:
		return act_on(x, node, SCN_C_MR, below(x, 6) ? W_LIVE : W_ANY, "dereg_mr", garble, line, len);
	case K_DEALLOC_MW:
		return act_on(x, node, SCN_C_MW, below(x, 6) ? W_LIVE : W_ANY, "dealloc_mw", garble, line, len);
	case K_DESTROY_QP:
		return act_on(x, node, SCN_C_QP, W_LIVE, "destroy_qp", garble, line, len);
	case K_MODIFY_QP:
		o = pick(x, node, SCN_C_QP, W_LIVE, NULL);
		return o < 0 ? -EAGAIN :
			       (snprintf(line, len, "%s: modify_qp %s state=%s", nn, oname(x, o),
					 below(x, 2) ? "ERR" : "RESET"), 0);
	case K_LOCAL_INV:
		q = pick(x, node, SCN_C_QP, W_LIVE, NULL);
		o = pick(x, node, SCN_C_MW, W_ANY, NULL);
		return o < 0 || q < 0 ? -EAGAIN : (snprintf(line, len, "%s: local_inv %s %s", nn, oname(x, q), oname(x, o)), 0);
	default: /* K_FILL */
		return fill_one(x, node, SCN_C_MR, line, len);
	}
}

/* A creation: alloc_pd, reg_mr, alloc_mw, create_qp (named after the step, so names never clash). */
static int propose_create(struct gctx *x, unsigned node, enum kind k, char *line, size_t len)
{
	static const uint64_t mlens[] = { 4096, 4096, 8192, 4096, 64, 1 };
	static const uint32_t rare_access[] = { M_ACC_ZERO_BASED, 64 /* ON_DEMAND */, 128 /* HUGETLB */,
						256 /* FLUSH_GLOBAL */, 512 /* FLUSH_PERSISTENT */,
						1u << 20 /* RELAXED_ORDERING */ };
	const char *nn = ex_node_name(node);
	char acc[160], iova[32], qtail[160];
	const char *prot, *offset;
	uint64_t mlen;
	uint32_t bits;
	int rare;
	int32_t pd = pick(x, node, SCN_C_PD, below(x, 10) ? W_LIVE : W_ANY, NULL);

	if (k == K_ALLOC_PD) {
		snprintf(line, len, "%s: alloc_pd p%u", nn, x->step);
		return 0;
	}
	if (pd < 0)
		return -EAGAIN;
	switch (k) {
	case K_REG_MR:
		/* Rare flags, lengths and IOVAs (failures, mostly) once the node has an MR: the score prefers rare
		 * rules, and a node whose every reg_mr fails never moves a byte. */
		rare = live_n(x, node, SCN_C_MR) > 0;
		bits = below(x, 4) ? M_ACC_LOCAL_WRITE : 0;
		bits |= some_of(x, M_ACC_REMOTE_ANY);
		bits |= below(x, 3) ? 0 : M_ACC_MW_BIND;
		if (rare && below(x, 6) == 0)
			bits |= rare_access[below(x, 6)];
		flags_str(SCN_T_ACCESS, bits, acc, sizeof(acc));
		if (rare && below(x, 16) == 0) /* bits no IBV_ACCESS_* names */
			snprintf(acc + strlen(acc), sizeof(acc) - strlen(acc), "|0x80000000");
		mlen = !rare || below(x, 20) ? mlens[below(x, 6)] : below(x, 2) ? 0 : 0xfffffffffffff000ull; /* empty, wrapping */
		iova[0] = '\0';
		if (rare && below(x, 8) == 0) /* zero based, page aligned, or at another offset in its page than the buffer */
			snprintf(iova, sizeof(iova), " iova=%s", below(x, 3) == 0 ? "0" : below(x, 2) ? "0x200000" : "0x200010");
		prot = below(x, 10) ? "" : below(x, 2) ? " prot=RO" : " prot=NONE";
		offset = below(x, 8) ? "" : " offset=100";
		snprintf(line, len, "%s: reg_mr m%u pd=%s len=%llu access=%s%s%s%s", nn, x->step, oname(x, pd),
			 (unsigned long long)mlen, acc, offset, prot, iova);
		return 0;
	case K_ALLOC_MW:
		snprintf(line, len, "%s: alloc_mw w%u pd=%s type=%u", nn, x->step, oname(x, pd), 1 + (unsigned)below(x, 2));
		return 0;
	default: /* K_CREATE_QP */
		/* the node's first QP a plain RC one (dead CQs fail it, and the score likes failures) */
		if (live_n(x, node, SCN_C_QP) && below(x, 2))
			vx_qp_tail(x, node, 1, qtail, sizeof(qtail));
		else
			qtail[0] = '\0';
		if (below(x, 3)) {
			snprintf(line, len, "%s: create_qp q%u pd=%s%s", nn, x->step, oname(x, pd), qtail);
		} else {
			flags_str(SCN_T_ACCESS, some_of(x, M_ACC_REMOTE_ANY), acc, sizeof(acc));
			snprintf(line, len, "%s: create_qp q%u pd=%s access=%s%s", nn, x->step, oname(x, pd), acc, qtail);
		}
		return 0;
	}
}

/* A node and a kind of step for it, drawn by the node's state (another family's: scngen_api.c). */
static void draw(struct gctx *x, unsigned *node, unsigned *k)
{
	struct counts c[SCN_NODES_MAX];
	unsigned ready[SCN_NODES_MAX], nready = 0;

	if (x->fam != M_FAM_VERBS) {
		api_draw(x, node, k);
		return;
	}
	for (unsigned i = 0; i < x->nnodes; i++) {
		count(x, i, &c[i]);
		if (c[i].rts)
			ready[nready++] = i;
	}
	/* Half the steps on a node that can post: traffic is where most rules are. */
	*node = nready && below(x, 2) ? ready[below(x, nready)] : below(x, x->nnodes);
	*k = draw_kind(x, *node, &c[*node]);
}

/* One proposal of kind k on node after the prefix x->e ran. 0 or -EAGAIN (draw again). */
static int propose(struct gctx *x, unsigned node, unsigned k, char *line, size_t len)
{
	if (x->fam != M_FAM_VERBS)
		return api_propose(x, node, k, line, len);
	switch ((enum kind)k) {
	case K_ALLOC_PD:
	case K_REG_MR:
	case K_ALLOC_MW:
	case K_CREATE_QP:
		return propose_create(x, node, k, line, len);
	case K_BIND_MW:
		return propose_bind(x, node, line, len);
	case K_CONNECT:
		return propose_connect(x, node, line, len);
	case K_WRITE:
	case K_READ:
	case K_CAS:
	case K_FADD:
	case K_SEND:
	case K_RECV:
		return propose_post(x, node, k, line, len);
	default:
		return k >= K_VX ? vx_propose(x, node, (enum vx_kind)(k - K_VX), line, len) :
				   propose_act(x, node, k, line, len);
	}
}

/* ------------------------------------------------------------ scoring -- */

/* Rules the exploration has seen least, and steps with several outcomes, score higher. */
static double score(const struct ex_eval *e, const struct ex_cov *cov, const struct ex_cov *run,
		    const struct result *prefix)
{
	const struct m_pred *p = &e->last_gen;
	double s = 0;
	unsigned kinds = 0;

	for (unsigned i = 0; i < p->n; i++) {
		int dup = 0;

		for (unsigned j = 0; j < i; j++)
			dup |= p->alt[j].out.kind == p->alt[i].out.kind && p->alt[j].out.code == p->alt[i].out.code;
		kinds += !dup;
		for (unsigned r = 0; r < p->alt[i].nrules; r++) {
			unsigned id = p->alt[i].rules[r];

			s += 1.0 / (1.0 + cov->hits[id] + (result_rule_has(prefix, (enum m_rule)id) ? 4 : 0));
			if (run && !run->hits[id])
				s += 2.0; /* not generated yet (ex_gen_opts.run) */
		}
	}
	return s + (kinds > 1 ? 1.0 : 0.0);
}

/* ------------------------------------------------------------- a case -- */

/* Does e's last step take a path the profile says may never end or kill the kernel, drawn enough? */
static int costly_spent(const struct ex_gen_opts *o, const struct ex_eval *e)
{
	return e->last_costly && o->run && o->costly_cases && o->run->costly[e->last_costly] >= o->costly_cases;
}

/*
 * Draw, run (in e, a buffer, from the prefix h holds) and score up to o->proposals proposals; push the
 * best onto c. 1 pushed, 0 none, or -ENOMEM.
 */
static int next_step(struct model_gen *g, const struct ex_gen_opts *o, enum m_family fam, const struct ex_cov *cov,
		     struct ex_hold *h, struct ex_eval *e, struct ex_case *c)
{
	const struct ex_eval *prefix = &h->e;
	struct gctx x = { .g = g, .e = prefix, .m = &prefix->eng.m, .nnodes = c->nnodes, .step = (unsigned)c->n,
			  .fam = fam };
	char line[EX_LINE_MAX], best[EX_LINE_MAX] = "";
	double best_s = -1;
	int rc = 0, best_costly = 0;
	unsigned node, k;

	/* The kind follows the state; its proposals differ in objects, numbers and flags. */
	draw(&x, &node, &k);
	for (unsigned tries = 0, got = 0; got < o->proposals && tries < o->proposals * 16; tries++) {
		if (tries && tries % (o->proposals * 2) == 0 && !got)
			draw(&x, &node, &k); /* this kind has nothing to act on here */
		if (propose(&x, node, k, line, sizeof(line)) || ex_case_push(c, line))
			continue;
		got++;
		rc = ex_hold_next(h, c, e);
		ex_case_pop(c);
		if (rc)
			break;
		if (e->r.v == V_PASS && e->nseen == c->n + 1 && !(o->no_crash && e->last_crash) && !costly_spent(o, e)) {
			double s = score(e, cov, o->run, &prefix->r);

			if (s > best_s) {
				best_s = s;
				best_costly = e->last_costly;
				snprintf(best, sizeof(best), "%s", line);
			}
		}
		ex_eval_free(e);
	}
	if (rc)
		return rc;
	if (!best[0])
		return 0;
	rc = ex_case_push(c, best);
	if (!rc && best_costly && o->run)
		o->run->costly[best_costly]++;
	return rc ? rc : 1;
}

int ex_gen_case(struct model_gen *g, const struct ex_gen_opts *o, struct ex_cov *cov, struct ex_case *out)
{
	struct ex_hold *h = ex_hold_new(); /* the prefix, held: the proposals go on from it */
	struct ex_eval *e = malloc(sizeof(*e)); /* reused by every run of the case */
	unsigned span = o->nodes_max > o->nodes_min ? o->nodes_max - o->nodes_min + 1 : 1;
	enum m_family fams[M_FAM_COUNT_ * 3], fam = M_FAM_VERBS;
	unsigned nf = 0;
	int rc = 0;

	if (!h || !e) {
		ex_hold_delete(h);
		free(e);
		return -ENOMEM;
	}
	memset(out, 0, sizeof(*out));
	out->nnodes = o->nodes_min + model_gen_below(g, span);
	for (unsigned a = 0; a < M_FAM_COUNT_; a++)
		/* verbs has most of the rules (area A: 114 of 198) and the cheapest steps: three times a share */
		for (unsigned k = 0; (o->apis & (1u << a)) && k < (a == M_FAM_VERBS ? 3u : 1u); k++)
			fams[nf++] = (enum m_family)a;
	if (nf)
		fam = fams[fams[nf - 1] != fams[0] ? model_gen_below(g, nf) : 0]; /* one family a case; none drawn for one */
	rc = api_opening(fam, out); /* the empty prefix has no steps to parse: a first step */
	if (!rc)
		rc = ex_hold_run(h, out, &o->judge, &o->judge, NULL);
	for (unsigned misses = 0; !rc && out->n < o->steps && misses < 8;) {
		rc = next_step(g, o, fam, cov, h, e, out);
		if (rc < 0)
			break;
		misses = rc ? 0 : misses + 1;
		rc = rc ? ex_hold_grow(h, out) : 0; /* the prefix with its new step, held */
	}
	if (!rc && ex_hold_end(h) == 0) {
		ex_cov_add(cov, &h->e.r); /* the case's whole run */
		if (o->run)
			ex_cov_add(o->run, &h->e.r);
	}
	ex_hold_release(h);
	ex_hold_delete(h);
	free(e);
	if (rc)
		ex_case_free(out);
	return rc;
}

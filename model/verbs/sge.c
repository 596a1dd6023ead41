/*
 * sge.c — the local SGEs of a work request: whether each names a live MR of
 * the QP's PD that covers it (LP-1, LP-2, PD-4; LP-6 when the SGE is written:
 * a READ's or atomic's destination, a receive buffer), how many a QP takes
 * (LP-7), and the bytes a list of them gathers (WRITE, SEND) or scatters
 * (READ, atomics) in SGE order; a receive's list: recvsge.c.
 */
#include "model/verbs/internal.h"

#include <string.h>

#define WC_ERR(s) O_WC(M_WC_##s)

/*
 * The local SGE check (LP-1, LP-2, PD-4; LP-6 when the SGE is written, e.g. a
 * READ's or atomic's destination or a receive buffer): resolves lkey on node
 * nd to a live MR of the QP's PD covering [addr, addr+len), with LOCAL_WRITE
 * if need_write. Returns 1 if valid, 0 if not; mr and off receive the target.
 */
int m_sge_valid(const struct m_node *nd, int pd, uint32_t lkey, uint64_t addr, uint64_t len,
		     int need_write, int16_t *mr, uint64_t *off, enum m_rule *why)
{
	int h = m_mr_by_lkey(nd, lkey);

	*mr = -1;
	if (h < 0) {
		*why = M_RULE_LP_1;
		return 0;
	}
	if (nd->mr[h].pd != pd) {
		*why = M_RULE_PD_4;
		return 0;
	}
	if (!m_range_ok(addr, len, nd->mr[h].addr, nd->mr[h].len)) {
		*why = M_RULE_MR_ADDR_1;
		return 0;
	}
	if (need_write && !(nd->mr[h].access & M_ACC_LOCAL_WRITE)) {
		*why = M_RULE_LP_6;
		return 0;
	}
	*mr = (int16_t)h;
	*off = addr - nd->mr[h].addr;
	return 1;
}

/*
 * One SGE of len bytes refused for rule r: adds its failure alternatives
 * (QP to ERR) and returns whether the WR may go on (a zero-length SGE a
 * profile skips, LP-2).
 */
static int sge_fail(const struct m_profile *p, uint64_t len, enum m_rule r, enum m_rule fail_rule, struct m_pred *out,
		    struct m_why *why)
{
	struct m_why w = *why;

	m_why_add(&w, r);
	m_why_add(&w, fail_rule);
	m_why_add(&w, M_RULE_RA_ERR_2);
	if (len == 0) {
		/* LP-2: a zero-length SGE is skipped, or validated. */
		struct m_set s = DECIDE(p, LP_2, PART_STEP, WC_ERR(SUCCESS), WC_ERR(LOC_PROT_ERR),
					WC_ERR(LOC_QP_OP_ERR));

		m_why_add(&w, M_RULE_LP_2);
		for (unsigned i = 0; i < s.n; i++)
			if (s.o[i].code != M_WC_SUCCESS)
				m_alt_add(out, s.o[i], M_EFF_QP_ERR, &w, -1);
		m_why_add(why, M_RULE_LP_2);
		return m_set_has(&s, WC_ERR(SUCCESS));
	}
	/* LP-1 decides apart for a bad key (unknown, stale or another PD's: the SGE references no MR
	 * valid for the operation, LOC_PROT_ERR) and for a range outside the MR (either status). */
	struct m_set s = fail_rule == M_RULE_LP_6 ? DECIDE(p, LP_6, PART_STEP, WC_ERR(LOC_PROT_ERR))
			 : r == M_RULE_MR_ADDR_1
				 ? DECIDE(p, LP_1, PART_RANGE, WC_ERR(LOC_PROT_ERR), WC_ERR(LOC_QP_OP_ERR))
				 : DECIDE(p, LP_1, PART_STEP, WC_ERR(LOC_PROT_ERR));
	m_alts_add(out, &s, M_EFF_QP_ERR, &w, -1);
	return 0;
}

/*
 * The local SGEs in turn (a send-side gather: LP-1, LP-2; a READ's or
 * atomic's destination: LP-6): adds the failure alternatives of the first
 * that fails and returns whether the operation may go on. One SGE is checked
 * for len bytes (what the operation moves through it); in a list, each for
 * its own length. out->res.lmr, loff: the first SGE's MR and offset (-1: none).
 */
int m_sge_check(const struct m_profile *p, const struct m_node *nd, int pd, const struct m_op *op, uint64_t len,
	      int need_write, enum m_rule fail_rule, struct m_pred *out, struct m_why *why)
{
	struct m_sge l[M_SGE_MAX];
	unsigned n = m_sges(op, l);

	out->res.lmr = -1; /* num_sge 0: nothing to gather or scatter, no key */
	if (n == 1)
		l[0].len = len;
	for (unsigned i = 0; i < n; i++) {
		int16_t mr;
		uint64_t off;
		enum m_rule r;

		if (m_sge_valid(nd, pd, l[i].lkey, l[i].addr, l[i].len, need_write, &mr, &off, &r)) {
			if (i == 0) {
				out->res.lmr = mr;
				out->res.loff = off;
			}
		} else if (!sge_fail(p, l[i].len, r, fail_rule, out, why)) {
			return 0;
		}
	}
	return 1;
}

unsigned m_sges(const struct m_op *op, struct m_sge out[M_SGE_MAX])
{
	const struct m_verbs_args *v = &op->verbs;
	uint64_t first = v->len;

	if (v->no_sge)
		return 0;
	for (unsigned i = 0; i < v->nsge_more && i < M_SGE_MAX - 1; i++) {
		out[i + 1] = v->sge_more[i];
		first -= v->sge_more[i].len;
	}
	out[0] = (struct m_sge){ v->lkey, v->laddr, first };
	return 1u + (v->nsge_more < M_SGE_MAX ? v->nsge_more : M_SGE_MAX - 1);
}

int m_sge_list_more_ok(const struct m_op *op, const struct m_qp *q)
{
	const struct m_verbs_args *v = &op->verbs;
	uint64_t more = 0;

	if (v->nsge_more > M_SGE_MAX - 1 || v->no_sge || v->send_inline || q->type == M_QPT_UD)
		return 0; /* inline data and UD sends with SGE lists are not modelled */
	switch ((enum m_op_kind)op->kind) {
	case M_OP_WRITE: case M_OP_WRITE_IMM: case M_OP_SEND: case M_OP_READ: case M_OP_CAS: case M_OP_FADD:
	case M_OP_RECV:
		break;
	default:
		return 0;
	}
	for (unsigned i = 0; i < v->nsge_more; i++) {
		if (v->sge_more[i].len > UINT64_MAX - more)
			return 0;
		more += v->sge_more[i].len;
	}
	return more <= v->len;
}

int m_sge_over_count(const struct m_profile *p, struct m_pred *out, struct m_why *why)
{
	/* More than the QP asked for: EINVAL at the post, unless the provider gave it more
	 * (cap is a minimum; rxe rounds it up to what its WQE holds). */
	struct m_set s = DECIDE(p, LP_7, PART_SGE, O_ERR(EINVAL), O_OK);

	if (!m_over_cap(&s, out, why))
		return 0;
	m_why_add(why, M_RULE_LP_7);
	return 1;
}

int m_over_cap(const struct m_set *s, struct m_pred *out, const struct m_why *why)
{
	struct m_why w = *why;

	m_why_add(&w, M_RULE_LP_7);
	for (unsigned i = 0; i < s->n; i++)
		if (s->o[i].kind != M_OUT_OK)
			m_alt_add(out, s->o[i], M_EFF_NONE, &w, -1);
	return m_set_has(s, O_OK);
}

uint64_t m_sge_first_bad(const struct m_node *nd, int pd, const struct m_op *op)
{
	struct m_sge l[M_SGE_MAX];
	unsigned n = m_sges(op, l);
	uint64_t pos = 0;

	for (unsigned i = 0; i < n; pos += l[i].len, i++) {
		int h = m_mr_by_lkey(nd, l[i].lkey);

		if (l[i].len == 0)
			continue;
		if (h < 0 || nd->mr[h].pd != pd || l[i].addr < nd->mr[h].addr)
			return pos; /* fails at its first byte */
		if (!m_range_ok(l[i].addr, l[i].len, nd->mr[h].addr, nd->mr[h].len))
			return pos + (nd->mr[h].addr + nd->mr[h].len - l[i].addr);
	}
	return UINT64_MAX;
}

/* The MR (NULL: none, the bytes are unknown) and offset SGE g of a WR checked valid names on nd. */
static struct m_mr *sge_mr(struct m_node *nd, const struct m_sge *g, uint64_t *off)
{
	int h = m_mr_by_lkey(nd, g->lkey);

	*off = h >= 0 ? g->addr - nd->mr[h].addr : 0;
	return h >= 0 ? &nd->mr[h] : NULL;
}

void m_sge_gather_part(struct m_node *nd, const struct m_pred *pr, uint64_t from, uint64_t k, struct m_mr *dst,
		       uint64_t doff)
{
	const struct m_op *op = &pr->op;
	struct m_sge l[M_SGE_MAX];
	unsigned n;
	uint64_t pos = 0;

	if (!op->verbs.nsge_more) {
		m_land(dst, doff, pr->res.lmr >= 0 ? &nd->mr[pr->res.lmr] : NULL, pr->res.loff + from, k);
		return;
	}
	n = m_sges(op, l);
	for (unsigned i = 0; i < n; pos += l[i].len, i++) {
		uint64_t off, lo = pos > from ? pos : from;
		uint64_t hi = pos + l[i].len < from + k ? pos + l[i].len : from + k;
		struct m_mr *src = sge_mr(nd, &l[i], &off);

		if (lo < hi)
			m_land(dst, doff + (lo - from), src, off + (lo - pos), hi - lo);
	}
}

void m_sge_gather(struct m_node *nd, const struct m_pred *pr, struct m_mr *dst, uint64_t doff)
{
	m_sge_gather_part(nd, pr, 0, pr->op.verbs.len, dst, doff);
}

void m_sge_scatter(struct m_node *nd, const struct m_pred *pr, const struct m_mr *src, uint64_t soff)
{
	const struct m_op *op = &pr->op;
	struct m_sge l[M_SGE_MAX];
	unsigned n = m_sges(op, l);

	if (n == 1 && pr->res.lmr >= 0)
		m_land(&nd->mr[pr->res.lmr], pr->res.loff, src, soff, op->verbs.len);
	for (unsigned i = 0; n > 1 && i < n; soff += l[i].len, i++) {
		uint64_t off;
		struct m_mr *dst = sge_mr(nd, &l[i], &off);

		if (dst && l[i].len)
			m_land(dst, off, src, soff, l[i].len);
	}
}

void m_sge_scatter_bytes(struct m_node *nd, const struct m_pred *pr, const uint8_t *b, int unknown)
{
	struct m_sge l[M_SGE_MAX];
	unsigned n = m_sges(&pr->op, l);
	uint64_t at = 0;

	if (n == 1) { /* one SGE: its 8 bytes (RA-ATOM-2 refused any other length) */
		m_mr_put(&nd->mr[pr->res.lmr], pr->res.loff, b, 8, unknown);
		return;
	}
	for (unsigned i = 0; i < n && at < 8; i++) {
		uint64_t off, k = l[i].len < 8 - at ? l[i].len : 8 - at;
		struct m_mr *dst = sge_mr(nd, &l[i], &off);

		if (dst && k) {
			m_mr_put(dst, off, b + at, k, unknown);
		}
		at += k;
	}
}

int m_pred_inline_no_data(const struct m_profile *p, struct m_pred *out, struct m_why *why)
{
	const struct m_op *op = &out->op;
	struct m_why w = *why;
	struct m_set s;

	if (!op->verbs.send_inline || op->kind != M_OP_READ)
		return 0; /* an atomic's result SGE is not modelled garbled: the language gives none inline */
	/* ibv_post_send(3): IBV_SEND_INLINE is valid only for SEND and RDMA WRITE. Undefined
	 * otherwise: the post refuses it, or the WR fails at the requester (its SGE then holds the
	 * caller's bytes, not an MR's range), the QP to ERR; nothing reaches the responder's memory.
	 * A profile may send it as a READ (OK): the responder's answer decides. */
	s = DECIDE(p, LP_9, PART_STEP, O_ERR(EINVAL), WC_ERR(LOC_QP_OP_ERR), WC_ERR(LOC_PROT_ERR));
	m_why_add(&w, M_RULE_LP_9);
	if (s.dev)
		w.dev = s.dev;
	for (unsigned i = 0; i < s.n; i++)
		if (s.o[i].kind != M_OUT_OK)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_WC ? M_EFF_QP_ERR : M_EFF_NONE, &w, -1);
	if (!m_set_has(&s, O_OK))
		return 1;
	*why = w;
	return 0;
}

void m_inline_read_lands(const struct m_profile *p, struct m_pred *out, struct m_why why)
{
	struct m_set s;

	if (!out->op.verbs.len) {
		m_alt_add(out, WC_ERR(SUCCESS), M_EFF_DO, &why, -1); /* nothing to land */
		return;
	}
	s = DECIDE(p, LP_9, PART_INLINE_LAND, WC_ERR(LOC_PROT_ERR), WC_ERR(LOC_QP_OP_ERR));
	if (s.dev)
		why.dev = s.dev;
	for (unsigned i = 0; i < s.n; i++)
		m_alt_add(out, s.o[i], M_EFF_QP_ERR, &why, -1);
}

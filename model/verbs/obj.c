/*
 * obj.c — predictions for the verbs calls that create, change and destroy
 * objects: PDs, MRs, MWs (alloc/dealloc), QPs, and the local fill.
 */
#include "model/verbs/internal.h"

#include <string.h>

#define SUPPORTED_ACCESS 0x3ffu /* LOCAL_WRITE .. FLUSH_PERSISTENT */
#define WRITABLE_ACCESS (M_ACC_LOCAL_WRITE | M_ACC_REMOTE_WRITE | M_ACC_REMOTE_ATOMIC | M_ACC_MW_BIND)

/* Handle h of kind on node: created at some time (ever) and, if live_needed, live. */
#define VALID(arr, cnt, h, live_needed) \
	((h) >= 0 && (h) < (cnt) && (arr)[h].ever && (!(live_needed) || (arr)[h].live))

/*
 * The access checks of registration (MR-ACC-1..6), shared by reg_mr and
 * rereg_mr (MR-REREG-6). Adds the failing alternatives to out and returns 1
 * if the access is refused outright; else 0, with *ignored holding the bits a
 * provider may silently drop (MR-ACC-5) — when those bits may also fail, the
 * failing alternatives are added and 0 returned so success stays possible.
 */
static int access_check(const struct m_profile *p, uint32_t access, struct m_pred *out,
			struct m_why *why, uint32_t *ignored)
{
	uint32_t a = access & ~M_ACC_OPTIONAL_RANGE; /* MR-ACC-4: libibverbs clears them */

	*ignored = 0;
	if (access & M_ACC_OPTIONAL_RANGE)
		m_why_add(why, M_RULE_MR_ACC_4);
	if (a & ~SUPPORTED_ACCESS) {
		struct m_set s = DECIDE(p, MR_ACC_3, PART_STEP, O_ERR(EINVAL));

		m_why_add(why, M_RULE_MR_ACC_3);
		m_alts_add(out, &s, M_EFF_NONE, why, -1);
		return 1;
	}
	if ((a & (M_ACC_REMOTE_WRITE | M_ACC_REMOTE_ATOMIC)) && !(a & M_ACC_LOCAL_WRITE)) {
		struct m_set s = DECIDE(p, MR_ACC_1, PART_STEP, O_ERR(EINVAL));

		m_why_add(why, M_RULE_MR_ACC_1);
		m_alts_add(out, &s, M_EFF_NONE, why, -1);
		return 1;
	}
	if (a & M_ACC_FLUSH_PERSISTENT) {
		struct m_set s = DECIDE(p, MR_ACC_6, PART_STEP, O_ERR(EINVAL), O_ERR(EOPNOTSUPP));

		m_why_add(why, M_RULE_MR_ACC_6);
		m_alts_add(out, &s, M_EFF_NONE, why, -1);
		return 1;
	}
	uint32_t driver = a & (M_ACC_ZERO_BASED | M_ACC_HUGETLB | M_ACC_ON_DEMAND | M_ACC_FLUSH_GLOBAL);
	int native = (!(driver & M_ACC_ZERO_BASED) || (p->caps & M_CAP_ZERO_BASED_REG)) &&
		     (!(driver & M_ACC_ON_DEMAND) || (p->caps & M_CAP_ODP)) &&
		     (!(driver & M_ACC_FLUSH_GLOBAL) || (p->caps & M_CAP_FLUSH)) &&
		     !(driver & M_ACC_HUGETLB);
	if (driver && !native) {
		struct m_set s = DECIDE(p, MR_ACC_5, PART_STEP, O_ERR(EOPNOTSUPP), O_ERR(EINVAL), O_OK);
		struct m_set fails = { 0 };

		m_why_add(why, M_RULE_MR_ACC_5);
		for (unsigned i = 0; i < s.n; i++)
			if (s.o[i].kind != M_OUT_OK)
				fails.o[fails.n++] = s.o[i];
		m_alts_add(out, &fails, M_EFF_NONE, why, -1);
		if (!m_set_has(&s, O_OK))
			return 1;
		*ignored = driver;
	}
	if (!(a & M_ACC_REMOTE_ANY) && !(a & M_ACC_LOCAL_WRITE))
		m_why_add(why, M_RULE_MR_ACC_2);
	return 0;
}

int model_mr_len_holds(uint64_t len, uint64_t off)
{
	return len <= M_MR_LEN_MAX || (off < M_PAGE && len > UINT64_MAX - M_PAGE - off);
}

/* The PD of a registration: live, or (pd_next) the one its family creates at the call in the next slot. */
static int reg_pd_ok(const struct m_node *nd, const struct m_op *op)
{
	if (op->verbs.pd_next)
		return op->verbs.pd == nd->npd && nd->npd < M_MAX_PD;
	return VALID(nd->pd, nd->npd, op->verbs.pd, 1);
}

static int pred_reg_mr(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	uint32_t ignored;
	uint64_t off = op->verbs.offset;
	uint8_t prot = op->verbs.prot;

	if (!reg_pd_ok(nd, op) || off >= M_PAGE || prot > M_PROT_UNMAPPED)
		return -EINVAL;
	if (op->verbs.in_buf) {
		/* Another registration of a buffer the node has (kept after its dereg):
		 * inside it; its page offset and pages. */
		const struct m_mr *o;

		if (op->verbs.mr < 0 || op->verbs.mr >= nd->nmr || !(o = &nd->mr[op->verbs.mr])->ever ||
		    op->verbs.buf_off > o->len || op->verbs.len > o->len - op->verbs.buf_off)
			return -EINVAL;
		off = (o->addr + op->verbs.buf_off) % M_PAGE;
		prot = o->prot;
	}
	if (op->verbs.has_iova && (op->verbs.iova % M_PAGE) != off) {
		struct m_set s = DECIDE(p, MR_ADDR_2, PART_STEP, O_ERR(EINVAL));

		m_why_add(&why, M_RULE_MR_ADDR_2);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	if (access_check(p, op->verbs.access, out, &why, &ignored))
		return 0;
	if (op->verbs.len > UINT64_MAX - M_PAGE - off) {
		struct m_set s = DECIDE(p, MR_LEN_2, PART_STEP, O_ERR(EINVAL));

		m_why_add(&why, M_RULE_MR_LEN_2);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	if (!model_mr_len_holds(op->verbs.len, off))
		return -EINVAL; /* beyond the model's memory: a scenario limit (the parser says so), not a stack outcome */
	if (op->verbs.len == 0) {
		/* Page-aligned: no pages, EINVAL; unaligned: one page, a zero-length MR. */
		struct m_set s = off == 0 ? DECIDE(p, MR_LEN_1, PART_STEP, O_ERR(EINVAL))
						 : DECIDE(p, MR_LEN_1, PART_STEP, O_ERR(EINVAL), O_OK);

		m_why_add(&why, M_RULE_MR_LEN_1);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
		return 0;
	}
	if (prot == M_PROT_UNMAPPED) {
		struct m_set s = DECIDE(p, MR_MAP_1, PART_STEP, O_ERR(EFAULT));

		m_why_add(&why, M_RULE_MR_MAP_1);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	if (prot == M_PROT_NONE) {
		/* Pages without read permission cannot be pinned, writable or not
		 * (a kernel that pins with FOLL_FORCE for read-only access is a
		 * profile deviation). */
		struct m_set s = (op->verbs.access & ~ignored & WRITABLE_ACCESS)
					 ? DECIDE(p, MR_MAP_2, PART_STEP, O_ERR(EFAULT))
					 : DECIDE(p, MR_MAP_2, PART_PROT_NONE, O_ERR(EFAULT));

		m_why_add(&why, M_RULE_MR_MAP_2);
		for (unsigned i = 0; i < s.n; i++)
			m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
		return 0;
	}
	if (prot == M_PROT_RO && (op->verbs.access & ~ignored & WRITABLE_ACCESS)) {
		struct m_set s = DECIDE(p, MR_MAP_2, PART_STEP, O_ERR(EFAULT));

		m_why_add(&why, M_RULE_MR_MAP_2);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	if (prot == M_PROT_RO)
		m_why_add(&why, M_RULE_MR_MAP_2);
	if (off)
		m_why_add(&why, M_RULE_MR_ADDR_1);
	if (op->verbs.has_iova && op->verbs.iova == 0)
		m_why_add(&why, M_RULE_MR_ADDR_3);
	m_why_add(&why, M_RULE_MR_KEY_1);
	m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
	return 0;
}

/*
 * rereg_mr buf=: CHANGE_TRANSLATION onto len bytes of MR mr's buffer from buf_off (MR-REREG-10),
 * inside that buffer; the MR's own bytes must be its alone, as the model moves them (an MR whose
 * buffer another registration shares cannot be moved: malformed for the model).
 */
static int rereg_buffer_ok(const struct m_node *nd, const struct m_op *op)
{
	const struct m_mr *o;

	if (!(op->verbs.rereg_flags & M_REREG_CHANGE_TRANSLATION) || op->verbs.mr < 0 || op->verbs.mr >= nd->nmr ||
	    op->verbs.mr == op->obj || !(o = &nd->mr[op->verbs.mr])->ever || op->verbs.buf_off > o->len ||
	    op->verbs.len > o->len - op->verbs.buf_off || nd->mr[op->obj].nbound)
		return 0;
	for (int i = 0; nd->mr[op->obj].buf == op->obj && i < nd->nmr; i++)
		if (i != op->obj && nd->mr[i].buf == op->obj)
			return 0;
	return 1;
}

static int pred_rereg_mr(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	uint32_t ignored;
	const uint32_t known = M_REREG_CHANGE_TRANSLATION | M_REREG_CHANGE_PD | M_REREG_CHANGE_ACCESS;
	enum m_rule r = M_RULE_COUNT_;

	if (!VALID(nd->mr, nd->nmr, op->obj, 0))
		return -EINVAL;
	if (op->verbs.rereg_flags & ~known)
		r = M_RULE_MR_REREG_1;
	else if ((op->verbs.rereg_flags & M_REREG_CHANGE_TRANSLATION) && op->verbs.len == 0)
		r = M_RULE_MR_REREG_2;
	else if (op->verbs.access && !(op->verbs.rereg_flags & M_REREG_CHANGE_ACCESS))
		r = M_RULE_MR_REREG_3;
	else if (!nd->mr[op->obj].live)
		return -EINVAL; /* a deregistered MR's pointer: use after free, no defined outcome */
	else if (op->verbs.rereg_flags == 0)
		r = M_RULE_MR_REREG_5;
	if (r != M_RULE_COUNT_) {
		struct m_set s = m_decide(p, r, PART_STEP, &O_ERR(EINVAL), 1);

		m_why_add(&why, r);
		m_why_add(&why, M_RULE_MR_REREG_8);
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	}
	if ((op->verbs.rereg_flags & M_REREG_CHANGE_PD) && !VALID(nd->pd, nd->npd, op->verbs.pd, 1))
		return -EINVAL;
	if (op->verbs.in_buf && !rereg_buffer_ok(nd, op))
		return -EINVAL;
	if (op->verbs.rereg_flags & M_REREG_CHANGE_ACCESS) {
		struct m_pred refused = { .n = 0 };
		struct m_why rw = why;

		m_why_add(&rw, M_RULE_MR_REREG_6);
		if (access_check(p, op->verbs.access, &refused, &rw, &ignored)) {
			/* The kernel refuses the new access (MR-REREG-6) — unless, as a
			 * profile may say, it refuses every rereg before looking. */
			struct m_outcome outs[M_ALT_MAX];
			struct m_why w = { .n = refused.alt[0].nrules };

			memcpy(w.r, refused.alt[0].rules, sizeof(w.r));
			for (unsigned i = 0; i < refused.n; i++)
				outs[i] = refused.alt[i].out;
			struct m_set s = m_decide(p, M_RULE_MR_REREG_6, PART_STEP, outs, refused.n);

			m_alts_add(out, &s, M_EFF_NONE, &w, -1);
			return 0;
		}
	}
	m_why_add(&why, M_RULE_MR_REREG_8);
	struct m_set s = (op->verbs.rereg_flags & M_REREG_CHANGE_TRANSLATION)
				 ? DECIDE(p, MR_REREG_7, PART_STEP, O_OK, O_ERR(EOPNOTSUPP))
				 : DECIDE(p, MR_REREG_9, PART_STEP, O_OK);
	m_why_add(&why, (op->verbs.rereg_flags & M_REREG_CHANGE_TRANSLATION) ? M_RULE_MR_REREG_7 : M_RULE_MR_REREG_9);
	if (op->verbs.in_buf)
		m_why_add(&why, M_RULE_MR_REREG_10);
	for (unsigned i = 0; i < s.n; i++)
		m_alt_add(out, s.o[i], s.o[i].kind == M_OUT_OK ? M_EFF_DO : M_EFF_NONE, &why, -1);
	return 0;
}

int m_pred_obj(const struct model *m, const struct m_profile *p, struct m_pred *out)
{
	const struct m_op *op = &out->op;
	const struct m_node *nd = &m->node[op->node];
	struct m_why why = { 0 };
	struct m_set s;

	switch ((enum m_op_kind)op->kind) {
	case M_OP_ALLOC_PD:
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_DEALLOC_PD:
		if (!VALID(nd->pd, nd->npd, op->obj, 1))
			return -EINVAL;
		if (nd->pd[op->obj].usecnt) {
			s = DECIDE(p, PD_3, PART_STEP, O_ERR(EBUSY));
			m_why_add(&why, M_RULE_PD_3);
			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else {
			m_why_add(&why, M_RULE_PD_2);
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		return 0;
	case M_OP_REG_MR:
		return pred_reg_mr(m, p, out);
	case M_OP_DEREG_MR:
		if (!VALID(nd->mr, nd->nmr, op->obj, 1))
			return -EINVAL;
		if (nd->mr[op->obj].nbound) {
			s = DECIDE(p, MR_DEREG_2, PART_STEP, O_ERR(EINVAL), O_ERR(EBUSY));
			m_why_add(&why, M_RULE_MR_DEREG_2);
			m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		} else {
			m_why_add(&why, M_RULE_MR_DEREG_1);
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		}
		return 0;
	case M_OP_REREG_MR:
		return pred_rereg_mr(m, p, out);
	case M_OP_ALLOC_MW:
		if (!VALID(nd->pd, nd->npd, op->verbs.pd, 1))
			return -EINVAL;
		m_why_add(&why, M_RULE_MW_ALLOC_1);
		if (op->verbs.mw_type != M_MW_TYPE_1 && op->verbs.mw_type != M_MW_TYPE_2) {
			s = DECIDE(p, MW_ALLOC_1, PART_STEP, O_ERR(EINVAL));
		} else if (!(p->caps & (op->verbs.mw_type == M_MW_TYPE_1 ? M_CAP_MW_TYPE1 : M_CAP_MW_TYPE2))) {
			s = DECIDE(p, MW_ALLOC_1, PART_STEP, O_ERR(EOPNOTSUPP));
		} else {
			m_why_add(&why, M_RULE_MW_ALLOC_2);
			m_why_add(&why, M_RULE_MW_ALLOC_3);
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
			return 0;
		}
		m_alts_add(out, &s, M_EFF_NONE, &why, -1);
		return 0;
	case M_OP_DEALLOC_MW:
		if (!VALID(nd->mw, nd->nmw, op->obj, 1))
			return -EINVAL;
		m_why_add(&why, M_RULE_MW_DEALLOC_1);
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_CREATE_QP:
		if (!VALID(nd->pd, nd->npd, op->verbs.pd, 1) || op->verbs.max_recv_wr > M_RECV_DEPTH_MAX ||
		    op->verbs.max_inline > M_INLINE_MAX || op->verbs.qp_type > M_QPT_UD || !m_srq_usable(nd, op) ||
		    (op->verbs.lim_max & op->verbs.lim_past) ||
		    ((op->verbs.lim_max | op->verbs.lim_past) &
		     ~(M_LIMK_SEND_WR | M_LIMK_RECV_WR | M_LIMK_SEND_SGE | M_LIMK_RECV_SGE)))
			return -EINVAL;
		if (m_lim_pred(p, op, &why, out))
			return 0;
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	case M_OP_CONNECT: {
		if (!VALID(nd->qp, nd->nqp, op->obj, 1) || op->verbs.peer_node < 0 ||
		    op->verbs.peer_node >= m->nnodes || op->verbs.peer_node == op->node)
			return -EINVAL;
		const struct m_node *pn = &m->node[op->verbs.peer_node];

		if (!VALID(pn->qp, pn->nqp, op->verbs.peer_qp, 1) || pn->qp[op->verbs.peer_qp].type != nd->qp[op->obj].type ||
		    nd->qp[op->obj].type == M_QPT_UD)
			return -EINVAL; /* a UC QP connects to a UC QP; UD QPs are not connected */
		m_why_add(&why, M_RULE_QP_CONN_1);
		if (nd->qp[op->obj].state != M_QPS_RESET || pn->qp[op->verbs.peer_qp].state != M_QPS_RESET)
			m_alt_add(out, O_ERR(EINVAL), M_EFF_NONE, &why, -1);
		else
			m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	}
	case M_OP_MODIFY_QP:
		return m_pred_modify_qp(m, p, out);
	case M_OP_CREATE_AH:
	case M_OP_DESTROY_AH:
		return m_pred_ah(m, p, out);
	case M_OP_CREATE_SRQ:
	case M_OP_DESTROY_SRQ:
	case M_OP_POST_SRQ_RECV:
	case M_OP_MODIFY_SRQ:
	case M_OP_QUERY_SRQ:
		return m_pred_srq(m, p, out);
	case M_OP_FIELDS:
		return m_pred_fields(m, out);
	case M_OP_DESTROY_QP:
	case M_OP_QUERY_QP:
		if (!VALID(nd->qp, nd->nqp, op->obj, 1))
			return -EINVAL;
		for (int w = 0; op->kind == M_OP_DESTROY_QP && w < nd->nmw; w++)
			if (nd->mw[w].live && nd->mw[w].type == M_MW_TYPE_2 && nd->mw[w].bound &&
			    nd->mw[w].bind_qp == op->obj) {
				m_why_add(&why, M_RULE_QP_DESTROY_1); /* a bound type-2 window on it */
				break;
			}
		m_alt_add(out, O_OK, op->kind == M_OP_QUERY_QP ? M_EFF_NONE : M_EFF_DO, &why, -1);
		return 0;
	case M_OP_FILL:
		if (!VALID(nd->mr, nd->nmr, op->obj, 0) || op->verbs.offset > nd->mr[op->obj].len ||
		    op->verbs.len > nd->mr[op->obj].len - op->verbs.offset)
			return -EINVAL;
		m_alt_add(out, O_OK, M_EFF_DO, &why, -1);
		return 0;
	default:
		return -EINVAL;
	}
}

/* verbs/internal.h — the verbs family's files among themselves (not a public API). */
#ifndef RDMACHECK_MODEL_VERBS_INTERNAL_H
#define RDMACHECK_MODEL_VERBS_INTERNAL_H

#include "model/internal.h"

/* The family's hooks (struct m_family; see model/internal.h). */
int m_verbs_predict(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_verbs_apply(struct model *m, const struct m_pred *pred, size_t i, int *created);

/* Predictors (obj.c: object calls and fill; post.c: posted work requests): out->op is the operation. */
int m_pred_obj(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_pred_post(const struct model *m, const struct m_profile *p, struct m_pred *out);

/* post.c's checks that ud.c shares: the local SGE (sge_valid: does lkey name a live MR of PD
 * pd covering [addr, addr+len), writable if need_write; sge_check: the same for a send-side
 * gather, adding the failing alternatives), and IBV_SEND_INLINE's data (LP-3). */
int sge_valid(const struct m_node *nd, int pd, uint32_t lkey, uint64_t addr, uint64_t len,
	      int need_write, int16_t *mr, uint64_t *off, enum m_rule *why);
int sge_check(const struct m_profile *p, const struct m_node *nd, int pd, const struct m_op *op, uint64_t len,
	      int need_write, enum m_rule fail_rule, struct m_pred *out, struct m_why *why);
int inline_data(const struct m_profile *p, const struct m_node *nd, const struct m_qp *q, struct m_pred *out,
		struct m_why *why);
/* apply.c's: len bytes of src at soff land in dst at doff (src NULL: unknown bytes); the first
 * posted receive of q is used up; q goes to ERR, its receives flushed. */
void land(struct m_mr *dst, uint64_t doff, const struct m_mr *src, uint64_t soff, uint64_t len);
void consume_recv(struct m_qp *q);
void qp_to_err(struct m_qp *q);

/* qpstate.c: modify_qp's prediction and commit. */
int m_pred_modify_qp(const struct model *m, const struct m_profile *p, struct m_pred *out);
void m_apply_modify_qp(struct model *m, const struct m_op *op);

/* ud.c: create_ah/destroy_ah (prediction, commit), a post on UD QP q in RTS (why: the rules so
 * far), the commit of a UD SEND's alternative a that reached the destination (M_EFF_DO,
 * M_EFF_PEER_ERR). */
int m_pred_ah(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_apply_ah(struct model *m, const struct m_op *op, int *created);
int m_pred_ud_post(const struct model *m, const struct m_profile *p, const struct m_qp *q, struct m_pred *out,
		   struct m_why why);
void m_apply_ud_send(struct model *m, const struct m_pred *pr, const struct m_alt *a);

/* srq.c: create_srq, destroy_srq, post_srq_recv and ibv_post_recv on a QP with an SRQ (prediction,
 * commit); whether create_qp op's SRQ (if any) is live and in the QP's PD; QP qp of nd starts using
 * SRQ srq1 - 1 (0: stops using its SRQ); the receive a SEND to QP qp of nd takes (its SRQ's or its
 * own first; NULL: none posted) and its consumption. */
int m_pred_srq(const struct model *m, const struct m_profile *p, struct m_pred *out);
int m_apply_srq(struct model *m, const struct m_op *op, int *created);
int m_srq_usable(const struct m_node *nd, const struct m_op *op);
void m_srq_attach(struct m_node *nd, int qp, uint8_t srq1);
const struct m_recv *m_rq_head(const struct m_node *nd, int qp);
void m_rq_consume(struct m_node *nd, int qp);

#endif

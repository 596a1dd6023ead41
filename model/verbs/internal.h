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

/*
 * packets.c (LP-8): does a WRITE's or SEND's local SGE (op's lkey, laddr,
 * len, on nd, the QP in pd) run past its MR only after the first packet (so
 * the packets before it may reach the responder)? 1 or 0.
 */
int m_later_packet_fails(const struct m_node *nd, int pd, const struct m_op *op);
/* Drop out's alternatives from index `from` on in which the request went through (effect DO). */
void m_keep_remote_errors(struct m_pred *out, unsigned from);

/*
 * kept.c (QP-STATE-1, PART_KEPT): the outcomes p declares for the first post
 * on an RTS QP whose refused send WRs were kept; what keeping op adds to a
 * QP's sq_kept on nd (M_KEPT_* bits); the alternatives that first post on q
 * gains (added to out).
 */
struct m_set m_kept_outcomes(const struct m_profile *p);
uint8_t m_kept_kind(const struct m_node *nd, const struct m_op *op);
void m_kept_alts(const struct m_profile *p, const struct m_qp *q, struct m_pred *out);

#endif

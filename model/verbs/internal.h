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
 * The handle a new object of node gets (slot.c): the next never-used slot of
 * its table, else, the table full, a destroyed object's slot nothing refers to
 * (m_slot_mr frees that slot's own bytes: call it only to fill the slot;
 * never slot keep, -1 none: the MR whose buffer the new one registers again);
 * -ENOSPC when every slot is live or named.
 */
int m_slot_pd(const struct model *m, unsigned node);
int m_slot_mr(struct model *m, unsigned node, int keep);
int m_slot_mw(const struct model *m, unsigned node);
int m_slot_qp(const struct model *m, unsigned node);

#endif

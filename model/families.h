/*
 * families.h — the public headers of the model's API families, one row
 * each (a family's operation arguments, state and values; see
 * model/families.def). Included by model/model.h.
 */
#ifndef RDMACHECK_MODEL_FAMILIES_H
#define RDMACHECK_MODEL_FAMILIES_H

#include "model/verbs/verbs.h"
#include "model/rpma/rpma.h"
#include "model/dat/dat.h"

/*
 * Transitional: which family an op kind belongs to, for harness code that
 * has not moved to a family table yet. New code calls m_op_family().
 */
#define M_OP_IS_RPMA(k) (m_op_family((enum m_op_kind)(k)) == M_FAM_RPMA)
#define M_OP_IS_DAT(k) (m_op_family((enum m_op_kind)(k)) == M_FAM_DAT)

#endif

/*
 * families.h — the public headers of the model's API families, one row
 * each (a family's operation arguments, state and values; see
 * model/families.def). Included by model/model.h.
 */
#ifndef RDMACHECK_MODEL_FAMILIES_H
#define RDMACHECK_MODEL_FAMILIES_H

#include "model/verbs/verbs.h"
#include "model/verbs/ud.h"
#include "model/verbs/cq.h"
#include "model/verbs/outstanding.h"
#include "model/verbs/recvwc.h"
#include "model/verbs/recvsge.h"
#include "model/rpma/rpma.h"
#include "model/dat/dat.h"
#include "model/rpmem/rpmem.h"
#include "model/mrapi/mrapi.h"

#endif

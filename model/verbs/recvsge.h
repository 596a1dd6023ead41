/*
 * recvsge.h — the SGEs after the first of posted receives (model/verbs/recvsge.c).
 * A posted receive (struct m_recv, in every QP's and SRQ's queue) keeps its
 * first SGE; the rest of a receive with several (up to M_SGE_MAX) are in a
 * small pool of its node, named by the receive's slot. A slot is free when no
 * posted receive of the node names it (one that completed, was flushed or
 * whose QP is gone): the pool costs M_RSGE_SLOTS lists per node, not
 * M_SGE_MAX - 1 SGEs in each of a node's M_MAX_QP * M_MAX_RECV receives.
 */
#ifndef RDMACHECK_MODEL_VERBS_RECVSGE_H
#define RDMACHECK_MODEL_VERBS_RECVSGE_H

#include "model/verbs/verbs.h"

#include <stdint.h>

#define M_RSGE_SLOTS 8 /* posted receives with several SGEs a node holds at once */

/* A receive SGE after the first (a receive SGE's length fits 32 bits: ibv_sge.length). */
struct m_rsge { uint32_t lkey, len; uint64_t addr; };

struct m_rsge_node {
	struct m_rsge x[M_RSGE_SLOTS][M_SGE_MAX - 1];
};

#endif

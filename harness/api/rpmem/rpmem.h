/* rpmem.h — the librpmem family's entry points, for its registry row (family.h). Calls only, so far. */
#ifndef RDMACHECK_API_RPMEM_H
#define RDMACHECK_API_RPMEM_H

#include "harness/api/family.h"

extern const struct scn_call api_rpmem_calls[];

#endif

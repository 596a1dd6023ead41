/* mrapi.h — the MRAPI family's entry points, for its registry row (family.h). Calls only, so far. */
#ifndef RDMACHECK_API_MRAPI_H
#define RDMACHECK_API_MRAPI_H

#include "harness/api/family.h"

extern const struct scn_call api_mrapi_calls[];

#endif

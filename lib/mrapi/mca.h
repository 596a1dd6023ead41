/*
 * mca.h — the Multicore Association's common types, as the MCA reference
 * implementation declares them (ke4harper/MxAPI mca-2.0.3 mca.h, "Version
 * 1.131"): mrapi.h builds its types on these, and programs written for the
 * reference use them directly (mca_status_t, mca_node_t).
 */
#ifndef MCA_H
#define MCA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int mca_int_t;
typedef char mca_int8_t;
typedef short mca_int16_t;
typedef int mca_int32_t;
typedef long long mca_int64_t;
typedef unsigned int mca_uint_t;
typedef unsigned char mca_uint8_t;
typedef unsigned short mca_uint16_t;
typedef unsigned int mca_uint32_t;
typedef unsigned long long mca_uint64_t;
typedef unsigned char mca_boolean_t;
typedef unsigned int mca_node_t;
typedef unsigned int mca_status_t;
typedef unsigned int mca_timeout_t;
typedef unsigned int mca_domain_t;
typedef unsigned int mca_request_t;  /* the reference's implementation-defined request */

#define MCA_TRUE 1
#define MCA_FALSE 0
#define MCA_NULL 0
#define MCA_INFINITE (~0)
#define MCA_RETURN_VALUE_INVALID (~0)
#define MCA_NODE_INVALID (~0)
#define MCA_DOMAIN_INVALID (~0)

#ifndef MCA_IN
#define MCA_IN const
#endif
#ifndef MCA_OUT
#define MCA_OUT
#endif

#define MCA_ORG_ID_PSI 0
#define MCA_ORG_ID_FSL 1
#define MCA_ORG_ID_MGC 2
#define MCA_ORG_ID_TBA 3

#ifdef __cplusplus
}
#endif
#endif

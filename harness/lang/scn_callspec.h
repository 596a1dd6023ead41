/*
 * scn_callspec.h — the shorthand a family's call list is written in
 * (harness/api/<family>/calls_<family>.c): argument lists, value shapes and
 * outcome sets of struct scn_call entries. Data only; included by call lists.
 */
#ifndef RDMACHECK_SCN_CALLSPEC_H
#define RDMACHECK_SCN_CALLSPEC_H

#include "harness/lang/scn.h"

/* Argument lists (file-scope compound literals have static storage). */
#define ARGS(...) ((const struct scn_arg_spec[]){ __VA_ARGS__, { 0 } })
#define NOARGS ((const struct scn_arg_spec[]){ { 0 } })
#define REQ(k, ...) { .key = k, .flags = SCN_A_REQ, __VA_ARGS__ }
#define OPT(k, ...) { .key = k, __VA_ARGS__ }
#define POS(k, ...) { .key = k, .flags = SCN_A_REQ | SCN_A_POS, __VA_ARGS__ }

/* Value shapes. */
#define NUM .kinds = SCN_V_INT | SCN_V_ATTR                  /* a number or NAME.ATTR */
#define RANGE(a, b) NUM, .lo = (a), .hi = (b)
/* a number in a..b, or the device's own limit: max, max+1 (a create's size, LIM-1, LIM-2) */
#define LIMIT(a, b) .kinds = SCN_V_INT | SCN_V_WORD, .table = SCN_T_LIMIT, .lo = (a), .hi = (b)
#define FLAGS(t) .kinds = SCN_V_FLAGS, .table = (t)
#define WORD(t) .kinds = SCN_V_WORD, .table = (t)
#define OBJ(c) .kinds = SCN_V_OBJ, .cls = (c)
#define ADDR(c) .kinds = SCN_V_ADDR, .cls = (c)              /* NAME is NAME+0 */
#define STR .kinds = SCN_V_STR
#define HEX .kinds = SCN_V_HEX
#define BARE .kinds = SCN_V_BARE
#define NODE .kinds = SCN_V_NODE

/* Outcome sets. */
#define O(k) (1u << M_OUT_##k)

#define CALL(name, api, kind, cls, destroys, outs, args) \
	{ name, M_FAM_##api, SCN_KIND_##kind, cls, destroys, outs, args, NULL }
#define QUERY(name, api, cls, outs, args, query) \
	{ name, M_FAM_##api, SCN_KIND_QUERY, cls, 0, outs, args, query }
/* A call of another kind that also reports results (KEY=VALUE after expect, on its success). */
#define CALL_RESULTS(name, api, kind, cls, destroys, outs, args, query) \
	{ name, M_FAM_##api, SCN_KIND_##kind, cls, destroys, (outs) | SCN_OUTS_QUERY, args, query }

/* After a family's list arr: arr_n, its number of calls (the registry row's ncalls). */
#define CALLS_COUNT(arr) const size_t arr##_n = sizeof(arr) / sizeof(arr[0]) - 1

#endif

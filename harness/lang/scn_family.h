/*
 * scn_family.h — what the scenario language needs of the API families: each
 * one's name and call list, in the order of enum m_family (scn.h). The
 * language defines no family itself: the registry (harness/api/registry.c)
 * provides these three functions from its rows.
 */
#ifndef RDMACHECK_SCN_FAMILY_H
#define RDMACHECK_SCN_FAMILY_H

#include <stddef.h>

struct scn_call;

/* Number of families (M_FAM_COUNT_). */
size_t scn_family_count(void);
/* Family i's name in the language ("rpma"); NULL when i is out of range. */
const char *scn_family_name(size_t i);
/* Family i's calls and, in *n, how many (0 and NULL: none, or i out of range). */
const struct scn_call *scn_family_calls(size_t i, size_t *n);

#endif

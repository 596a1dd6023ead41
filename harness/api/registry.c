/*
 * registry.c — the API families (family.h): one row each, at the index of its
 * enum m_family value, in the order of the one list of families
 * (model/families.def). Each family defines its own row
 * (harness/api/<name>/family_<name>.c); nothing here names a family.
 */
#include "harness/run/family.h"
#include "harness/lang/scn_family.h"

#define FAMILY(sym, name, model) extern const struct api_family api_family_##name;
#include "model/families.def"
#undef FAMILY

static const struct api_family *const families[] = {
#define FAMILY(sym, name, model) [M_FAM_##sym] = &api_family_##name,
#include "model/families.def"
#undef FAMILY
};

_Static_assert(sizeof(families) / sizeof(families[0]) == M_FAM_COUNT_, "one row per enum m_family value");
_Static_assert(M_FAM_COUNT_ <= API_FAMILIES_MAX, "raise API_FAMILIES_MAX");

size_t api_family_count(void)
{
	return sizeof(families) / sizeof(families[0]);
}

const struct api_family *api_family_get(size_t i)
{
	return i < api_family_count() ? families[i] : NULL;
}

/* The language's view of the rows (scn_family.h). */
size_t scn_family_count(void)
{
	return api_family_count();
}

const char *scn_family_name(size_t i)
{
	const struct api_family *f = api_family_get(i);

	return f ? f->name : NULL;
}

const struct scn_call *scn_family_calls(size_t i, size_t *n)
{
	const struct api_family *f = api_family_get(i);

	*n = f && f->calls && f->ncalls ? *f->ncalls : 0;
	return *n ? f->calls : NULL;
}

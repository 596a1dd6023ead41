/*
 * scn_calls.c — the call table: every call a scenario step can make. It is
 * the API families' call lists (harness/api/<family>/calls_<family>.c), in
 * registry order (harness/api/family.h); a call's index counts through them.
 * tests/unit/test_scn_calls.c checks the table's integrity.
 */
#include "harness/api/family.h"
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>

/* Number of calls in family f's list (counted at compile time: scn_call_get is hot). */
static size_t family_ncalls(const struct api_family *f)
{
	return f->calls && f->ncalls ? *f->ncalls : 0;
}

size_t scn_call_count(void)
{
	size_t n = 0;

	for (size_t i = 0; i < api_family_count(); i++)
		n += family_ncalls(api_family_get(i));
	return n;
}

const struct scn_call *scn_call_get(size_t i)
{
	for (size_t k = 0; k < api_family_count(); k++) {
		const struct api_family *f = api_family_get(k);
		size_t n = family_ncalls(f);

		if (i < n)
			return &f->calls[i];
		i -= n;
	}
	return NULL;
}

int scn_call_find(const char *name)
{
	size_t base = 0;

	for (size_t k = 0; k < api_family_count(); k++) {
		const struct api_family *f = api_family_get(k);
		size_t n = family_ncalls(f);

		for (size_t i = 0; i < n; i++) /* first letters first: every step's name is looked up */
			if (f->calls[i].name[0] == name[0] && strcmp(f->calls[i].name, name) == 0)
				return (int)(base + i);
		base += n;
	}
	return -ENOENT;
}

const char *scn_api_str(enum scn_api a)
{
	const struct api_family *f = api_family_get((size_t)a);

	return f ? f->name : "?";
}

int scn_api_parse(const char *name, enum scn_api *out)
{
	for (size_t k = 0; k < api_family_count(); k++)
		if (strcmp(api_family_get(k)->name, name) == 0) {
			*out = (enum scn_api)k;
			return 0;
		}
	return -EINVAL;
}

int scn_spec_index(const struct scn_arg_spec *list, const char *key)
{
	for (int i = 0; list && list[i].key; i++)
		if (strcmp(list[i].key, key) == 0)
			return i;
	return -ENOENT;
}

const struct scn_arg_spec *scn_spec_find(const struct scn_arg_spec *list, const char *key)
{
	int i = scn_spec_index(list, key);

	return i < 0 ? NULL : &list[i];
}

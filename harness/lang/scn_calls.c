/*
 * scn_calls.c — the call table: every call a scenario step can make. It is
 * the API families' call lists (harness/api/<family>/calls_<family>.c), in
 * registry order (harness/run/family.h); a call's index counts through them.
 * tests/unit/test_scn_calls.c checks the table's integrity.
 */
#include "harness/lang/scn_family.h"
#include "harness/lang/scn_internal.h"

#include <errno.h>
#include <string.h>

size_t scn_call_count(void)
{
	size_t n = 0, k;

	for (size_t i = 0; i < scn_family_count(); i++)
		if (scn_family_calls(i, &k))
			n += k;
	return n;
}

/* Call i by counting through the families' lists. */
static const struct scn_call *call_counted(size_t i)
{
	for (size_t k = 0; k < scn_family_count(); k++) {
		size_t n = 0;
		const struct scn_call *calls = scn_family_calls(k, &n);

		if (i < n)
			return &calls[i];
		i -= n;
	}
	return NULL;
}

const struct scn_call *scn_call_get(size_t i)
{
	/* Every step asks several times: the answers, fixed for the process, kept once found. */
	static const struct scn_call *seen[512];

	if (i >= sizeof(seen) / sizeof(seen[0]))
		return call_counted(i);
	if (!seen[i])
		seen[i] = call_counted(i);
	return seen[i];
}

int scn_call_find(const char *name)
{
	size_t base = 0;

	for (size_t k = 0; k < scn_family_count(); k++) {
		size_t n = 0;
		const struct scn_call *calls = scn_family_calls(k, &n);

		for (size_t i = 0; i < n; i++) /* first letters first: every step's name is looked up */
			if (calls[i].name[0] == name[0] && strcmp(calls[i].name, name) == 0)
				return (int)(base + i);
		base += n;
	}
	return -ENOENT;
}

const char *scn_api_str(enum m_family a)
{
	const char *name = scn_family_name((size_t)a);

	return name ? name : "?";
}

int scn_api_parse(const char *name, enum m_family *out)
{
	for (size_t k = 0; k < scn_family_count(); k++)
		if (strcmp(scn_family_name(k), name) == 0) {
			*out = (enum m_family)k;
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

int scn_spec_index_after(const struct scn_arg_spec *list, const char *key, int prev)
{
	/* list[prev + 1] is an entry or the list's end: prev is -1 or one of its indexes */
	if (list && prev >= -1 && list[prev + 1].key &&
	    (list[prev + 1].key == key || strcmp(list[prev + 1].key, key) == 0)) /* one literal, often: merged */
		return prev + 1;
	return scn_spec_index(list, key);
}

const struct scn_arg_spec *scn_spec_find(const struct scn_arg_spec *list, const char *key)
{
	int i = scn_spec_index(list, key);

	return i < 0 ? NULL : &list[i];
}

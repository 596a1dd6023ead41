/*
 * scn_names.c — the names a scenario file declares: which words may name an
 * object (not a keyword, an attribute or a node), a new object in the file's
 * table, and a step's argument by its key. The step (scn_step.c) and the
 * declarations it carries (scn_decl.c) both use them.
 */
#include "harness/lang/scn_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const reserved[] = { "expect", "connect", "title", "cite", "require", "nodes" };


bool scn_name_ok(struct scn_ctx *c, const struct scn_word *w, const char *name)
{
	enum scn_attr a;

	if (!scn_is_ident(w->p, w->len)) {
		scn_diag_w(c, w, "names are [A-Za-z_][A-Za-z0-9_]*, at most 31 bytes", SCN_E_BAD_NAME, name);
		return false;
	}
	for (size_t i = 0; i < SCN_N(reserved); i++)
		if (strcmp(name, reserved[i]) == 0) {
			scn_diag_w(c, w, NULL, SCN_E_RESERVED_NAME, name, "a keyword");
			return false;
		}
	if (scn_attr_parse(name, &a) == 0) {
		scn_diag_w(c, w, NULL, SCN_E_RESERVED_NAME, name, "an attribute name");
		return false;
	}
	if (scn_node_find(c->f, name) >= 0) {
		scn_diag_w(c, w, NULL, SCN_E_RESERVED_NAME, name, "a node name");
		return false;
	}
	return true;
}

int32_t scn_obj_add(struct scn_ctx *c, const char *name, unsigned node, unsigned cls,
		    const struct scn_word *w)
{
	struct scn_file *f = c->f;

	if (f->nobjs == SCN_OBJS_MAX) {
		scn_diag_w(c, w, NULL, SCN_E_TOO_MANY, "objects", SCN_OBJS_MAX);
		return -1;
	}
	if (f->nobjs == f->cap_objs) {
		size_t n = f->cap_objs ? f->cap_objs * 2 : 16;
		struct scn_obj *o = realloc(f->objs, n * sizeof(*o));

		if (!o) {
			c->oom = 1;
			return -1;
		}
		f->objs = o;
		f->cap_objs = n;
	}
	f->objs[f->nobjs] = (struct scn_obj){ .node = (uint8_t)node, .cls = (uint32_t)cls,
					      .step = (uint32_t)f->nsteps,
					      .line = c->ln ? c->ln->no : 0 };
	snprintf(f->objs[f->nobjs].name, SCN_NAME_MAX, "%s", name);
	return (int32_t)f->nobjs++;
}

const struct scn_value *scn_step_arg_find(const struct scn_step *s, const char *key)
{
	for (size_t i = 0; i < s->nargs; i++)
		if (s->args[i].spec->key == key || strcmp(s->args[i].spec->key, key) == 0)
			return &s->args[i].v;
	return NULL;
}
